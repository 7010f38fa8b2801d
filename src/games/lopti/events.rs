//! What happens in a game, as events sent to an observer: the trace writer, the
//! invariant checker, or a future session layer hooking special rules onto basic events
//! (LOPTI-MAKE-SIM-1). The game loop is generic over the observer, so the no-op
//! [`NoObserver`] used by simulations compiles away.

use super::ranks::{Rank, Ranks};
use super::rules::ClearCause;
use super::state::State;

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
    /// A player's cards after the deal [`DEAL`] (sent once per seat, after the whole deal).
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
    /// A setup swap of one hand card for one face-up card [`SWAP`].
    Swap {
        /// The player.
        seat: u8,
        /// The hand card that went face-up.
        hand: Rank,
        /// The face-up card that went to the hand.
        face_up: Rank,
    },
    /// A turn starts [`TURN_START`].
    TurnStart {
        /// The player on turn.
        seat: u8,
        /// Turn number, from 1.
        turn: u32,
    },
    /// A face-up takeover: the three face-up cards move into the empty hand [`FACEUP_TAKEOVER`].
    Takeover {
        /// The player.
        seat: u8,
        /// The cards taken.
        cards: Ranks,
    },
    /// A face-down card is revealed [`FACEDOWN_REVEAL`].
    Reveal {
        /// The player.
        seat: u8,
        /// The card.
        rank: Rank,
        /// Whether it is a legal play.
        legal: bool,
    },
    /// A legal play [`PLAY`], or [`BONUS_PLAY`] when `bonus`.
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
    /// The pile went out of the round [`CLEAR`].
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
    /// The player drew one card [`DRAW`] (the rank is private; traces are omniscient).
    Draw {
        /// The player.
        seat: u8,
        /// The card drawn.
        rank: Rank,
    },
    /// The player took the whole pile [`PICKUP`].
    Pickup {
        /// The player.
        seat: u8,
        /// The cards taken.
        cards: Ranks,
        /// Why.
        reason: PickupReason,
    },
    /// The player holds no more cards [`PLAYER_OUT`].
    Out {
        /// The player.
        seat: u8,
        /// Finishing place, 1 for the winner.
        place: u8,
    },
    /// The round is over [`ROUND_END`].
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
    /// Called for each event, in order. A `Play` is reported when its cards have left the
    /// player's zone and before they are resolved (the `Obligation` or `Clear` follows).
    fn event(&mut self, state: &State, ev: Event);
    /// Called after each action (swap phase, play, pick-up, pass) has been fully resolved,
    /// including its draw and face-up takeover: the points where LOPTI-INV-* hold.
    fn resolved(&mut self, _state: &State) {}
}

/// Ignores everything (simulations).
pub struct NoObserver;

impl Observer for NoObserver {
    #[inline(always)]
    fn event(&mut self, _: &State, _: Event) {}
}
