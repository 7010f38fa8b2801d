//! What happens in a game, as events sent to an observer: the trace writer, the
//! invariant checker, or the special-rule layer (`special`) hooking rules onto basic
//! events (LOPTI-MAKE-SIM-1). The game loop is generic over the observer, so the no-op
//! [`NoObserver`] used by simulations compiles away, hooks included.

use super::ranks::{Rank, Ranks};
use super::rules::ClearCause;
use super::state::State;

/// Whether a hook runs before or after its event (LOPTI-MAKE-SIM-1 `when`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum When {
    /// Before the event happens (it happens anyway: a hook cannot veto it).
    Before,
    /// After the event happened.
    After,
}

impl When {
    /// `before` or `after`.
    pub fn name(self) -> &'static str {
        match self {
            When::Before => "before",
            When::After => "after",
        }
    }
}

/// The events a special rule can hook (LOPTI-MAKE-SIM-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum HookEvent {
    /// A player's cards are dealt (once per seat, after the whole deal).
    Deal,
    /// A swap of one hand card for one face-up card (at setup, or by a special rule).
    Swap,
    /// A player's turn starts.
    TurnStart,
    /// A legal play, bonus plays included.
    Play,
    /// A bonus play (also a `PLAY`).
    BonusPlay,
    /// A player takes the pile.
    Pickup,
    /// A player draws a card (the basic draw, or one a special rule gives).
    Draw,
    /// The pile is cleared.
    Clear,
    /// The face-up cards go into the empty hand.
    FaceupTakeover,
    /// A face-down card is turned over.
    FacedownReveal,
    /// A player goes out.
    PlayerOut,
    /// The round ends.
    RoundEnd,
    /// The table held its Rule Vote (sessions only).
    RuleVote,
}

/// Every hookable event, in the order of LOPTI-MAKE-SIM-1.
pub const HOOK_EVENTS: [HookEvent; 13] = [
    HookEvent::Deal,
    HookEvent::Swap,
    HookEvent::TurnStart,
    HookEvent::Play,
    HookEvent::Pickup,
    HookEvent::Draw,
    HookEvent::Clear,
    HookEvent::BonusPlay,
    HookEvent::FaceupTakeover,
    HookEvent::FacedownReveal,
    HookEvent::PlayerOut,
    HookEvent::RoundEnd,
    HookEvent::RuleVote,
];

impl HookEvent {
    /// The name in lopti.md, e.g. `FACEUP_TAKEOVER`.
    pub fn name(self) -> &'static str {
        match self {
            HookEvent::Deal => "DEAL",
            HookEvent::Swap => "SWAP",
            HookEvent::TurnStart => "TURN_START",
            HookEvent::Play => "PLAY",
            HookEvent::BonusPlay => "BONUS_PLAY",
            HookEvent::Pickup => "PICKUP",
            HookEvent::Draw => "DRAW",
            HookEvent::Clear => "CLEAR",
            HookEvent::FaceupTakeover => "FACEUP_TAKEOVER",
            HookEvent::FacedownReveal => "FACEDOWN_REVEAL",
            HookEvent::PlayerOut => "PLAYER_OUT",
            HookEvent::RoundEnd => "ROUND_END",
            HookEvent::RuleVote => "RULE_VOTE",
        }
    }
}

/// What a hook is told about its event. Fields that do not apply are left at their
/// defaults; for a `before` hook, what is not known yet (the card a draw or a reveal will
/// turn up) is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hooked {
    /// The event.
    pub event: HookEvent,
    /// The player the event concerns (the one who plays, draws, clears, goes out; the
    /// proposer of a Rule Vote); `None` for the end of the round.
    pub actor: Option<u8>,
    /// The rank played, drawn or revealed.
    pub rank: Option<Rank>,
    /// Cards played.
    pub count: u8,
    /// The cards taken (pick-up, takeover) or cleared.
    pub cards: Ranks,
    /// How the pile was cleared.
    pub cause: Option<ClearCause>,
    /// Whether a revealed face-down card was legal.
    pub legal: Option<bool>,
    /// The outcome of a Rule Vote: `Some(true)` if the change passed.
    pub passed: Option<bool>,
}

impl Hooked {
    /// The event `event` of `actor`, nothing else known yet.
    pub fn of(event: HookEvent, actor: Option<u8>) -> Hooked {
        Hooked { event, actor, rank: None, count: 0, cards: Ranks::EMPTY, cause: None, legal: None, passed: None }
    }
}

/// Why a player took the pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickupReason {
    /// He chose to, holding a legal play (LOPTI-TURN-3).
    Voluntary,
    /// He had no legal play (LOPTI-TURN-3).
    Forced,
    /// His revealed face-down card was illegal (LOPTI-FD-2).
    IllegalReveal,
}

impl PickupReason {
    /// Name used in traces.
    pub fn name(self) -> &'static str {
        match self {
            PickupReason::Voluntary => "voluntary",
            PickupReason::Forced => "forced",
            PickupReason::IllegalReveal => "illegal_reveal",
        }
    }
}

/// One basic event. The names in brackets are the hookable events of LOPTI-MAKE-SIM-1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A player's cards after the deal (`DEAL`) (sent once per seat, after the whole deal).
    Deal {
        /// The player.
        seat: u8,
        /// His hand.
        hand: Ranks,
        /// His face-up cards.
        face_up: Ranks,
        /// His face-down cards (their order is unknown to everyone).
        face_down: Ranks,
    },
    /// A setup swap of one hand card for one face-up card (`SWAP`).
    Swap {
        /// The player.
        seat: u8,
        /// The hand card that went face-up.
        hand: Rank,
        /// The face-up card that went to the hand.
        face_up: Rank,
    },
    /// A turn starts (`TURN_START`).
    TurnStart {
        /// The player on turn.
        seat: u8,
        /// Turn number, from 1.
        turn: u32,
    },
    /// A face-up takeover: the three face-up cards move into the empty hand (`FACEUP_TAKEOVER`).
    Takeover {
        /// The player.
        seat: u8,
        /// The cards taken.
        cards: Ranks,
    },
    /// A face-down card is revealed (`FACEDOWN_REVEAL`).
    Reveal {
        /// The player.
        seat: u8,
        /// The card.
        rank: Rank,
        /// Whether it is a legal play.
        legal: bool,
    },
    /// A legal play (`PLAY`), or (`BONUS_PLAY`) when `bonus`.
    Play {
        /// The player.
        seat: u8,
        /// The rank played.
        rank: Rank,
        /// How many cards.
        count: u8,
        /// The card came from the face-down cards.
        blind: bool,
        /// It is a bonus play.
        bonus: bool,
    },
    /// The next active player must answer the 3s just played (LOPTI-3-3).
    Obligation {
        /// The player who played the 3s.
        from: u8,
        /// The player who must play a 3 or take the pile.
        to: u8,
        /// The 3-run beside the pile.
        run3: u8,
    },
    /// The pile went out of the round (`CLEAR`).
    Clear {
        /// The player who caused it.
        seat: u8,
        /// How.
        cause: ClearCause,
        /// The cards cleared (3s were already out).
        cards: Ranks,
    },
    /// The same player earned a bonus play (LOPTI-CLEAR-1).
    Bonus {
        /// The player.
        seat: u8,
    },
    /// A bonus play was declined (`lopti.bonus_optional=true`).
    Pass {
        /// The player.
        seat: u8,
    },
    /// The player drew one card (`DRAW`) (the rank is private; traces are omniscient).
    Draw {
        /// The player.
        seat: u8,
        /// The card drawn.
        rank: Rank,
        /// A special rule made him draw (not the basic draw of LOPTI-DRAW-1).
        by_rule: bool,
    },
    /// A special rule made a player pass one hand card to another (face down: only the
    /// two of them see it).
    Give {
        /// The player who gives.
        from: u8,
        /// The player who receives.
        to: u8,
        /// The card.
        rank: Rank,
    },
    /// A special rule fires: its effects follow as events (LOPTI-MAKE-SIM-1).
    RuleFires {
        /// The rule's id in the catalog.
        rule: &'static str,
        /// Before or after the event.
        when: When,
        /// The event it hooked.
        event: HookEvent,
        /// The player the event concerned.
        actor: Option<u8>,
    },
    /// A special rule's hooks were not run because the hook chain reached its depth
    /// limit (`lopti.hook_depth`, LOPTI-MAKE-SIM-1).
    HookDepthLimit {
        /// The event whose hooks were skipped.
        event: HookEvent,
    },
    /// The player took the whole pile (`PICKUP`).
    Pickup {
        /// The player.
        seat: u8,
        /// The cards taken.
        cards: Ranks,
        /// Why.
        reason: PickupReason,
    },
    /// The player holds no more cards (`PLAYER_OUT`).
    Out {
        /// The player.
        seat: u8,
        /// Finishing place, 1 for the winner.
        place: u8,
    },
    /// The round is over (`ROUND_END`).
    End {
        /// The match winner, the first player out (LOPTI-WIN-1); `None` when the round
        /// was stopped (capped or cycled).
        winner: Option<u8>,
        /// The turn cap stopped the game.
        capped: bool,
        /// Deterministic bots repeated a position, so the game was stopped (not `capped`).
        cycled: bool,
        /// Turns started (for a cycled round, the turn whose starting position repeated).
        turns: u32,
        /// For a cycled round, the earlier turn whose starting position turn `turns` repeats.
        repeat_of: Option<u32>,
    },
}

/// Receives every event of a game, with the state at that moment.
pub trait Observer {
    /// True for an observer that runs special rules in [`Observer::hook`].
    const HOOKS: bool = false;
    /// False for an observer that ignores every event ([`NoObserver`]): the engine then
    /// skips working out what only an event reports (a pick-up's reason).
    const EVENTS: bool = true;
    /// Called for each event, in order. A `Play` is reported when its cards have left the
    /// player's zone and before they are resolved (the `Obligation` or `Clear` follows).
    fn event(&mut self, state: &State, ev: Event);
    /// Called after each action (swap phase, play, pick-up, pass) has been fully resolved,
    /// including its draw and face-up takeover: the points where LOPTI-INV-* hold.
    fn resolved(&mut self, _state: &State) {}
    /// Called by the engine before and after every hookable event (LOPTI-MAKE-SIM-1) with
    /// the state, to which the special rules in force may add actions through the
    /// engine's rule primitives. The event happens whatever a `before` hook does. The
    /// default has no special rules.
    #[inline(always)]
    fn hook(&mut self, _state: &mut State, _when: When, _ev: &Hooked)
    where
        Self: Sized,
    {
    }
}

/// Ignores everything (simulations).
pub struct NoObserver;

impl Observer for NoObserver {
    const EVENTS: bool = false;

    #[inline(always)]
    fn event(&mut self, _: &State, _: Event) {}
}
