//! The game state and its transitions: the deal and the setup swaps (§3), turns with
//! plays, draws, pick-ups, clears and bonus plays (§4-§10, the `resolve` and `turn` of
//! §17), going out and the end of the round (§11).
//!
//! The state is `Copy` and allocation-free. It always waits for one decision: a setup
//! swap while [`Phase::Setup`], otherwise an [`Action`] of the player on turn, whose
//! face-up cards have already been taken over if his hand was empty (LOPTI-FU-1).
//!
//! Chance (common random numbers, `crate::rng`): the deck is shuffled by the deal's
//! generator, and every hidden card is drawn when it is revealed from a deal-keyed zone
//! ([`State::hidden`]): the draw pile is zone [`DRAW_ZONE`], seat `s`'s face-down cards
//! zone `s`. Which card comes out depends only on the zone and the cards it still holds,
//! so every seating of a deal sees the same cards. The state holds no generator and
//! never asks a bot: the round loop ([`super::round`]) asks the seated bots, with their
//! own dice, and applies their checked answers here.

use super::config::{DrawTiming, Rules};
use super::events::{Event, HookEvent, Hooked, Observer, PickupReason, When};
use super::pile::Pile;
use super::ranks::{Rank, Ranks, TEN, THREE};
use super::rules::{is_legal_play, legal_actions, legal_plays, Action, Actions, ClearCause, Decision};
use super::view::View;
use crate::rng::{ChanceKey, MatchSeeds, SimRng};
use super::entry::MAX_SEATS;
use crate::runner::{Ending, IllegalChoice};
use rand::RngExt;
use std::cell::Cell;

/// Zone id of the draw pile under [`State::hidden`] (seat `s`'s face-down cards are zone
/// `s`). Cards never go back into either, so one id per zone and round is enough.
pub const DRAW_ZONE: u64 = MAX_SEATS as u64;

/// One player's three zones (LOPTI-STATE-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Hand (private).
    pub hand: Ranks,
    /// Face-up cards (public), 3 or none (LOPTI-INV-7).
    pub face_up: Ranks,
    /// Face-down cards (hidden from everyone; their order is a uniform random permutation,
    /// so a reveal draws uniformly from this multiset, LOPTI-AMB-17, keyed by the seat's
    /// hidden zone).
    pub face_down: Ranks,
    /// Public lower bound on the hand (see [`SeatInfo::known`](super::view::SeatInfo::known)).
    pub known: Ranks,
}

impl Player {
    /// Cards in all three zones.
    pub fn cards(&self) -> u32 {
        self.hand.len() + self.face_up.len() + self.face_down.len()
    }

    /// True if all three zones are empty (`cards() == 0`, without counting them).
    pub fn has_no_cards(&self) -> bool {
        (self.hand.0 | self.face_up.0 | self.face_down.0) == 0
    }
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for setup swaps.
    Setup,
    /// Waiting for the action of the player on turn.
    Play,
    /// The round is over (or capped).
    Over,
}

/// Progress within the current turn (LOPTI-TURN-4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnState {
    /// No legal play has been made yet this turn (the draw is still to be earned).
    pub first: bool,
    /// The next play is a bonus play.
    pub bonus: bool,
    /// The draw earned by the first play waits for the end of the turn (`end_of_turn`).
    pub draw_owed: bool,
}

/// A setup swap: one hand card for one face-up card (LOPTI-SETUP-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swap {
    /// Rank of the hand card that goes face-up.
    pub hand: Rank,
    /// Rank of the face-up card that goes to the hand.
    pub face_up: Rank,
}

impl std::fmt::Display for Swap {
    /// `swap hand 5 for face-up K`, as the bot protocol writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "swap hand {} for face-up {}", super::ranks::rank_name(self.hand), super::ranks::rank_name(self.face_up))
    }
}

/// Per-game counts reported as metrics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Turns started (a turn includes its bonus plays).
    pub turns: u32,
    /// Pick-ups of the pile.
    pub pickups: u32,
    /// Clears.
    pub clears: u32,
}

/// The whole state of a round (LOPTI-STATE-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// The rules in force.
    pub rules: Rules,
    /// Players at the table (2..=5).
    pub n: u8,
    /// Each seat's zones.
    pub players: [Player; MAX_SEATS],
    /// The face-down draw pile (a multiset: its order is unseen; a draw takes the card
    /// the hidden zone [`DRAW_ZONE`] picks).
    pub draw: Ranks,
    /// Key of the round's hidden zones (the deal's [`MatchSeeds::hidden`] in a match; a
    /// random key in a bot's determinization, which never sees the real one).
    pub hidden: ChanceKey,
    /// The play pile.
    pub pile: Pile,
    /// Cleared cards and discarded 3s.
    pub out: Ranks,
    /// Discarded 3s in the current run beside the pile.
    pub run3: u8,
    /// Who must answer a 3, if anyone.
    pub obligation: Option<u8>,
    /// The seat on turn (the starter during setup).
    pub current: u8,
    /// The seat that plays first (LOPTI-SETUP-5).
    pub starter: u8,
    /// Progress within the current turn.
    pub turn: TurnState,
    /// Setup, play, or over.
    pub phase: Phase,
    /// Seats whose setup swap decision is applied.
    pub swapped: u8,
    /// Seats that are out (bit per seat).
    pub out_mask: u8,
    /// Seats that have taken the pile this round (bit per seat).
    pub picked_mask: u8,
    /// Seats that received cards through a special rule this round (bit per seat): like a
    /// pick-up, this lets a hand grow beyond 3 (LOPTI-INV-8 under special rules).
    pub received_mask: u8,
    /// Finishing order so far.
    pub finish: [u8; MAX_SEATS],
    /// Entries used in `finish`.
    pub finished: u8,
    /// The first player out (LOPTI-WIN-1).
    pub winner: Option<u8>,
    /// The turn cap (`sim.max_actions`) stopped the game.
    pub capped: bool,
    /// The game was stopped because deterministic bots repeated a position, which they
    /// would do forever (counted apart from `capped`, which is then false).
    pub cycled: bool,
    /// Metric counts.
    pub counters: Counters,
}

thread_local! {
    /// The cards of the last deal [`State::deal`] made on this thread: the deal's seed,
    /// the number of players, each seat's zones and the draw pile. They depend on nothing
    /// else (the deck generator is [`MatchSeeds::deal_rng`], made from the seed alone).
    static LAST_DEAL: Cell<Option<(u64, u8, Dealt)>> = const { Cell::new(None) };
}

/// The cards of a deal: each seat's zones and the draw pile.
type Dealt = ([Player; MAX_SEATS], Ranks);

/// Shuffles the deck with `deck_rng` and deals it to `n` players (LOPTI-SETUP-1..3): three
/// face-down, three face-up and three hand cards each, the rest to the draw pile.
fn shuffle_and_deal(n: u8, deck_rng: &mut SimRng) -> Dealt {
    let mut deck = [0 as Rank; 52];
    for (i, c) in deck.iter_mut().enumerate() {
        *c = (i / 4) as Rank;
    }
    for i in (1..52).rev() {
        deck.swap(i, deck_rng.random_range(0..=i));
    }
    let mut players = [Player::default(); MAX_SEATS];
    let mut next = deck.iter().copied();
    for zone in 0..3 {
        for _ in 0..3 {
            for p in players[..n as usize].iter_mut() {
                let card = next.next().expect("52 cards are enough for 5 players");
                match zone {
                    0 => p.face_down.add(card, 1),
                    1 => p.face_up.add(card, 1),
                    _ => p.hand.add(card, 1),
                }
            }
        }
    }
    let mut draw = Ranks::EMPTY;
    next.for_each(|c| draw.add(c, 1));
    (players, draw)
}

impl State {
    /// A state before its first turn: the players' cards and the draw pile as given,
    /// seat `starter` to play first, the setup phase ahead, an empty pile and every
    /// record of the game so far at zero.
    pub fn at_start(rules: Rules, n: u8, players: [Player; MAX_SEATS], draw: Ranks, hidden: ChanceKey, starter: u8) -> State {
        State {
            rules,
            n,
            players,
            draw,
            hidden,
            pile: Pile::default(),
            out: Ranks::EMPTY,
            run3: 0,
            obligation: None,
            current: starter,
            starter,
            turn: TurnState::default(),
            phase: Phase::Setup,
            swapped: 0,
            out_mask: 0,
            picked_mask: 0,
            received_mask: 0,
            finish: [0; MAX_SEATS],
            finished: 0,
            winner: None,
            capped: false,
            cycled: false,
            counters: Counters::default(),
        }
    }

    /// Deals the round of a match with seeds `seeds`: the deck from
    /// [`MatchSeeds::deal_rng`], hidden cards from [`MatchSeeds::hidden`] (see
    /// [`State::deal_with`]). Every seating of the deal gets the same cards: the runner
    /// plays a deal's seatings one after another on one thread, so the cards of the last
    /// deal are kept per thread ([`LAST_DEAL`]) and the shuffle is made once per deal,
    /// not once per seating (the same draws, so the same cards).
    pub fn deal<O: Observer>(n: u8, starter: u8, rules: Rules, seeds: &MatchSeeds, obs: &mut O) -> State {
        assert!((2..=MAX_SEATS as u8).contains(&n) && starter < n, "Lopti needs 2 to 5 players (LOPTI-DECK-1)");
        let (players, draw) = LAST_DEAL.with(|last| match last.get() {
            Some((deal, m, dealt)) if deal == seeds.deal && m == n => dealt,
            _ => {
                let dealt = shuffle_and_deal(n, &mut seeds.deal_rng());
                last.set(Some((seeds.deal, n, dealt)));
                dealt
            }
        });
        State::dealt(n, starter, rules, players, draw, seeds.hidden(), obs)
    }

    /// Deals a round for `n` players (LOPTI-SETUP-1..3): the deck shuffled by `deck_rng`,
    /// three face-down, three face-up and three hand cards each, the rest to the draw
    /// pile; hidden cards are revealed later from the zones of `hidden` (a session's later
    /// rounds would pass a fresh generator and key, e.g. `seeds.chance_rng(round)` and
    /// `seeds.hidden().zone(1000 + round)`).
    /// `starter` makes the first play (the dealer in a session's first round, then the
    /// previous winner, LOPTI-SETUP-5). Sends one [`Event::Deal`] per seat.
    pub fn deal_with<O: Observer>(n: u8, starter: u8, rules: Rules, deck_rng: &mut SimRng, hidden: ChanceKey, obs: &mut O) -> State {
        assert!((2..=MAX_SEATS as u8).contains(&n) && starter < n, "Lopti needs 2 to 5 players (LOPTI-DECK-1)");
        let (players, draw) = shuffle_and_deal(n, deck_rng);
        State::dealt(n, starter, rules, players, draw, hidden, obs)
    }

    /// The state of a fresh deal of `players` and `draw`: one [`Event::Deal`] per seat,
    /// then the hooks after the deal.
    fn dealt<O: Observer>(n: u8, starter: u8, rules: Rules, players: [Player; MAX_SEATS], draw: Ranks, hidden: ChanceKey, obs: &mut O) -> State {
        let mut state = State::at_start(rules, n, players, draw, hidden, starter);
        for seat in 0..n {
            let p = &state.players[seat as usize];
            obs.event(&state, Event::Deal { seat, hand: p.hand, face_up: p.face_up, face_down: p.face_down });
        }
        // Special rules hooked after the deal act once every hand is reported.
        for seat in 0..n {
            obs.hook(&mut state, When::After, &Hooked::of(HookEvent::Deal, Some(seat)));
        }
        state
    }

    /// How the round ended, for the runner: finished, capped or cycled.
    pub fn ending(&self) -> Ending {
        if self.cycled {
            Ending::Cycled
        } else {
            Ending::capped_if(self.capped)
        }
    }

    /// The match winner: the first player out (LOPTI-WIN-1) of a round that ended by the
    /// rules; `None` for a capped or cycled round, even if someone went out before it was
    /// stopped (with `play_for_rankings`; the finishing order still shows it).
    pub fn match_winner(&self) -> Option<u8> {
        if self.capped || self.cycled {
            None
        } else {
            self.winner
        }
    }

    /// True if `seat` is out.
    pub fn is_out(&self, seat: u8) -> bool {
        self.out_mask & (1 << seat) != 0
    }

    /// Players still holding cards (LOPTI-STATE-4).
    pub fn active(&self) -> u32 {
        self.n as u32 - self.out_mask.count_ones()
    }

    /// The next seat clockwise after `seat` that is not out (LOPTI-TURN-1, LOPTI-AMB-16).
    pub fn next_active(&self, seat: u8) -> u8 {
        // The seats still in as bits: the lowest one above `seat`, else the lowest one
        // (round the table), else `seat` itself when nobody is left.
        let active = ((1u32 << self.n) - 1) & !(self.out_mask as u32);
        let above = active & !((2u32 << seat) - 1);
        let next = if above != 0 { above } else { active | 1 << seat };
        next.trailing_zeros() as u8
    }

    /// The seats in setup order: clockwise from the starter.
    pub fn seats_from_starter(&self) -> impl Iterator<Item = u8> {
        let (n, start) = (self.n, self.starter);
        (0..n).map(move |i| (start + i) % n)
    }

    /// What `seat` may see: a [`View`] reading this state.
    pub fn view(&self, seat: u8) -> View<'_> {
        View::new(self, seat)
    }

    /// The legal actions of the player on turn during play: what his view's
    /// [`View::legal_actions`] gives, without going through the view (the round loop
    /// asks this once a turn).
    #[inline]
    pub fn legal_actions(&self) -> Actions {
        debug_assert_eq!(self.phase, Phase::Play);
        legal_actions(&self.decision(), &self.rules)
    }

    /// The decision of the player on turn, for legality checks.
    #[inline]
    pub fn decision(&self) -> Decision<'_> {
        let me = &self.players[self.current as usize];
        Decision {
            hand: me.hand,
            face_down: me.face_down.len() as u8,
            pile: &self.pile,
            obligated: self.obligation == Some(self.current),
            bonus: self.turn.bonus,
        }
    }

    /// A state consistent with what `view` shows, with the hidden cards (other hands beyond
    /// what is known, all face-down cards, the draw pile) dealt at random from the cards
    /// the viewer has not seen: a determinization for search. Its hidden zones get a key
    /// from `rng`, so later draws in the simulation are the searcher's own dice.
    pub fn determinize(view: &View, rng: &mut SimRng) -> State {
        let (me, n) = (view.seat(), view.players());
        let mut unseen = Ranks::DECK;
        unseen.remove_all(view.hand());
        unseen.remove_all(view.pile().cards());
        unseen.remove_all(view.out_of_round());
        for s in 0..n {
            let info = view.seat_info(s);
            unseen.remove_all(info.face_up);
            if s != me {
                unseen.remove_all(info.known);
            }
        }
        let mut players = [Player::default(); MAX_SEATS];
        let mut out_mask = 0;
        let mut picked_mask = 0;
        for (s, p) in (0..n).zip(&mut players) {
            let info = view.seat_info(s);
            p.face_up = info.face_up;
            p.known = info.known;
            p.hand = if s == me {
                view.hand()
            } else {
                let mut h = info.known;
                h.add_all(unseen.take_random_n(info.hand as u32 - info.known.len(), rng));
                h
            };
            p.face_down = unseen.take_random_n(info.face_down as u32, rng);
            out_mask |= (info.out as u8) << s;
            picked_mask |= (info.picked_up as u8) << s;
        }
        let draw = unseen.take_random_n(view.draw_pile() as u32, rng);
        debug_assert!(unseen.is_empty(), "determinization left {unseen:?}");
        let finished = out_mask.count_ones() as u8;
        State {
            rules: *view.rules(),
            n,
            players,
            draw,
            hidden: ChanceKey(rng.random()),
            pile: *view.pile(),
            out: view.out_of_round(),
            run3: view.run3(),
            obligation: if view.obligated() { Some(me) } else { None },
            current: view.current(),
            starter: view.current(),
            turn: TurnState { first: !view.bonus(), bonus: view.bonus(), draw_owed: view.draw_owed() },
            phase: if view.setup() { Phase::Setup } else { Phase::Play },
            swapped: view.swapped(),
            out_mask,
            picked_mask,
            received_mask: 0,
            finish: [0; MAX_SEATS],
            finished,
            // Search asks who goes out next from here.
            winner: None,
            capped: false,
            cycled: false,
            counters: Counters::default(),
        }
    }

    /// Applies `seat`'s setup decision (LOPTI-SETUP-4): at most one swap, during setup only.
    pub fn apply_swap<O: Observer>(&mut self, seat: u8, swap: Option<Swap>, obs: &mut O) {
        assert!(self.phase == Phase::Setup && self.swapped & (1 << seat) == 0, "one swap decision per player, at setup (LOPTI-SETUP-4)");
        self.swapped |= 1 << seat;
        if let Some(swap) = swap {
            let p = &self.players[seat as usize];
            // Under special rules a hook may have moved a card chosen on the dealt state;
            // without special rules the player always holds both cards.
            let held = p.hand.count(swap.hand) > 0 && p.face_up.count(swap.face_up) > 0;
            debug_assert!(held || O::HOOKS, "swap of cards the player does not hold");
            if held {
                self.swap_cards(seat, swap, obs);
            }
        }
    }

    /// Moves one hand card face-up and one face-up card into the hand (a setup swap, or
    /// one a special rule allows), with the `SWAP` hooks around it.
    fn swap_cards<O: Observer>(&mut self, seat: u8, Swap { hand, face_up }: Swap, obs: &mut O) {
        let mut info = Hooked::of(HookEvent::Swap, Some(seat));
        info.rank = Some(hand);
        obs.hook(self, When::Before, &info);
        let p = &mut self.players[seat as usize];
        if p.hand.count(hand) == 0 || p.face_up.count(face_up) == 0 {
            return;
        }
        p.hand.remove(hand, 1);
        p.face_up.remove(face_up, 1);
        p.hand.add(face_up, 1);
        p.face_up.add(hand, 1);
        // The face-up card was public; the hand card going face-up is no longer in hand.
        let known = p.known.count(hand).min(1);
        p.known.remove(hand, known);
        if self.phase != Phase::Setup {
            p.known.add(face_up, 1);
        }
        obs.event(self, Event::Swap { seat, hand, face_up });
        obs.hook(self, When::After, &info);
    }

    /// Ends setup: the starter's first turn begins (LOPTI-SETUP-5).
    pub fn start_play<O: Observer>(&mut self, obs: &mut O) {
        assert_eq!(self.phase, Phase::Setup);
        self.phase = Phase::Play;
        obs.resolved(self);
        self.begin_turn(self.starter, obs);
    }

    /// Applies the decision of the player on turn. The action must be legal. Cards drawn
    /// or revealed come from the hidden zones.
    pub fn apply<O: Observer>(&mut self, action: Action, obs: &mut O) {
        debug_assert_eq!(self.phase, Phase::Play);
        let p = self.current;
        match action {
            Action::Pass => {
                obs.event(self, Event::Pass { seat: p });
                self.end_turn(obs);
            }
            Action::Pickup => {
                let hand = self.players[p as usize].hand;
                // Only the `Pickup` event reports the reason: not worked out for an
                // observer that takes no events.
                let forced = O::EVENTS && !hand.is_empty() && !self.has_legal_play();
                let reason = if forced { PickupReason::Forced } else { PickupReason::Voluntary };
                self.pickup(p, reason, obs);
                self.next_turn(obs);
            }
            Action::Blind => {
                let mut info = Hooked::of(HookEvent::FacedownReveal, Some(p));
                obs.hook(self, When::Before, &info);
                let c = self.players[p as usize].face_down.take_keyed(self.hidden.zone(p as u64));
                let legal = is_legal_play(&self.pile, self.obligation == Some(p), c, 1, &self.rules);
                obs.event(self, Event::Reveal { seat: p, rank: c, legal });
                (info.rank, info.legal) = (Some(c), Some(legal));
                obs.hook(self, When::After, &info);
                if legal {
                    self.play(p, c, 1, true, obs);
                } else {
                    self.pile.push(c, 1);
                    self.pickup(p, PickupReason::IllegalReveal, obs);
                    self.next_turn(obs);
                }
            }
            Action::Play { rank, count } => {
                let me = &mut self.players[p as usize];
                me.hand.remove(rank, count);
                let known = me.known.count(rank).min(count);
                me.known.remove(rank, known);
                self.play(p, rank, count, false, obs);
            }
        }
        obs.resolved(self);
    }

    fn has_legal_play(&self) -> bool {
        !legal_plays(&self.decision(), &self.rules).is_empty()
    }

    /// Fires the hooks of a play: `PLAY` for every play, then `BONUS_PLAY` for a bonus play.
    fn hook_play<O: Observer>(&mut self, when: When, info: &Hooked, bonus: bool, obs: &mut O) {
        obs.hook(self, when, info);
        if bonus {
            obs.hook(self, when, &Hooked { event: HookEvent::BonusPlay, ..*info });
        }
    }

    /// A legal play and what follows it in the turn (§17 `turn`).
    fn play<O: Observer>(&mut self, p: u8, r: Rank, n: u8, blind: bool, obs: &mut O) {
        let bonus = self.turn.bonus;
        let mut info = Hooked::of(HookEvent::Play, Some(p));
        (info.rank, info.count) = (Some(r), n);
        self.hook_play(When::Before, &info, bonus, obs);
        obs.event(self, Event::Play { seat: p, rank: r, count: n, blind, bonus });
        let mut cleared = self.resolve(p, r, n, obs);
        if self.players[p as usize].has_no_cards() {
            // LOPTI-WIN-1..3, LOPTI-DRAW-5, LOPTI-BONUS-3: out at once, no draw, no bonus.
            // The player is out before the play's `after` hooks run, so they cannot stop
            // him going out (LOPTI-MAKE-4).
            self.go_out(p, obs);
            self.hook_play(When::After, &info, bonus, obs);
            self.next_turn(obs);
            return;
        }
        if O::HOOKS {
            // A special clearing rule (LOPTI-MAKE-8) clears after the play; the player then
            // gets his bonus play like after any clear (LOPTI-CLEAR-1).
            let clears = self.counters.clears;
            self.hook_play(When::After, &info, bonus, obs);
            cleared |= self.counters.clears > clears;
        }
        if self.turn.first {
            self.turn.first = false;
            match self.rules.draw_timing {
                DrawTiming::BeforeBonus => self.draw(p, obs),
                DrawTiming::EndOfTurn => self.turn.draw_owed = true,
            }
        }
        if !self.turn.draw_owed {
            self.takeover(p, obs);
        }
        if cleared {
            self.turn.bonus = true;
            obs.event(self, Event::Bonus { seat: p });
            self.takeover(p, obs);
        } else {
            self.end_turn(obs);
        }
    }

    /// §17 `resolve`: moves the played cards, updates the 3-run, the obligation and the
    /// pile, and clears. Returns true if the play earned a bonus play.
    fn resolve<O: Observer>(&mut self, p: u8, r: Rank, n: u8, obs: &mut O) -> bool {
        if r == THREE {
            self.out.add(THREE, n);
            self.run3 += n;
            self.obligation = None;
            if self.run3 == 4 {
                self.run3 = 0;
                if !self.pile.is_empty() || self.rules.empty_clear_bonus {
                    self.clear(p, ClearCause::ThreeRun, obs);
                    return true;
                }
            } else if !self.pile.is_empty() {
                let to = self.next_active(p);
                self.obligation = Some(to);
                obs.event(self, Event::Obligation { from: p, to, run3: self.run3 });
            }
            false
        } else {
            // What `clear_cause` says of a legal play that is not 3s, read off the pile
            // after it: a 10 clears (LOPTI-10-2), else four of the top rank at the top
            // (LOPTI-PLAY-3, LOPTI-7-4; a top run of 4 only comes from a clearing play).
            self.pile.push(r, n);
            self.run3 = 0;
            self.obligation = None;
            let cause = if r == TEN {
                ClearCause::Ten
            } else if self.pile.top_run() == 4 {
                ClearCause::FourOfAKind
            } else {
                return false;
            };
            self.clear(p, cause, obs);
            true
        }
    }

    /// LOPTI-CLEAR-1: the pile goes out of the round.
    fn clear<O: Observer>(&mut self, p: u8, cause: ClearCause, obs: &mut O) {
        let mut info = Hooked::of(HookEvent::Clear, Some(p));
        (info.cause, info.cards) = (Some(cause), self.pile.cards());
        obs.hook(self, When::Before, &info);
        let cards = self.pile.take();
        self.out.add_all(cards);
        self.run3 = 0;
        self.obligation = None;
        self.counters.clears += 1;
        obs.event(self, Event::Clear { seat: p, cause, cards });
        info.cards = cards;
        obs.hook(self, When::After, &info);
    }

    /// LOPTI-PICK-1, LOPTI-PICK-3: the whole pile goes into the hand.
    fn pickup<O: Observer>(&mut self, p: u8, reason: PickupReason, obs: &mut O) {
        let mut info = Hooked::of(HookEvent::Pickup, Some(p));
        info.cards = self.pile.cards();
        obs.hook(self, When::Before, &info);
        let cards = self.pile.take();
        let me = &mut self.players[p as usize];
        me.hand.add_all(cards);
        me.known.add_all(cards);
        self.run3 = 0;
        self.obligation = None;
        self.picked_mask |= 1 << p;
        self.counters.pickups += 1;
        obs.event(self, Event::Pickup { seat: p, cards, reason });
        info.cards = cards;
        obs.hook(self, When::After, &info);
    }

    /// LOPTI-DRAW-1: one card if the draw pile has one and the hand has fewer than 3.
    fn draw<O: Observer>(&mut self, p: u8, obs: &mut O) {
        if !self.draw.is_empty() && self.players[p as usize].hand.len() < 3 {
            self.draw_card(p, false, obs);
        }
    }

    /// One card from the draw pile into `p`'s hand, with the `DRAW` hooks around it. A
    /// `before` hook cannot take the card away: no effect draws on a `DRAW` hook.
    fn draw_card<O: Observer>(&mut self, p: u8, by_rule: bool, obs: &mut O) {
        let mut info = Hooked::of(HookEvent::Draw, Some(p));
        obs.hook(self, When::Before, &info);
        if self.draw.is_empty() {
            return;
        }
        let rank = self.draw.take_keyed(self.hidden.zone(DRAW_ZONE));
        self.players[p as usize].hand.add(rank, 1);
        if by_rule {
            self.received_mask |= 1 << p;
        }
        obs.event(self, Event::Draw { seat: p, rank, by_rule });
        info.rank = Some(rank);
        obs.hook(self, When::After, &info);
    }

    /// LOPTI-FU-1: an empty hand takes all the face-up cards.
    fn takeover<O: Observer>(&mut self, p: u8, obs: &mut O) {
        let me = &self.players[p as usize];
        if me.hand.is_empty() && !me.face_up.is_empty() {
            let mut info = Hooked::of(HookEvent::FaceupTakeover, Some(p));
            info.cards = me.face_up;
            obs.hook(self, When::Before, &info);
            let me = &mut self.players[p as usize];
            let cards = me.face_up;
            me.hand.add_all(cards);
            me.known.add_all(cards);
            me.face_up = Ranks::EMPTY;
            obs.event(self, Event::Takeover { seat: p, cards });
            obs.hook(self, When::After, &info);
        }
    }

    fn go_out<O: Observer>(&mut self, p: u8, obs: &mut O) {
        let info = Hooked::of(HookEvent::PlayerOut, Some(p));
        obs.hook(self, When::Before, &info);
        self.out_mask |= 1 << p;
        self.finish[self.finished as usize] = p;
        self.finished += 1;
        self.winner.get_or_insert(p);
        obs.event(self, Event::Out { seat: p, place: self.finished });
        obs.hook(self, When::After, &info);
    }

    /// Rule primitive (LOPTI-MAKE-SIM-1): a special rule makes `p` draw one card, if any
    /// are left. Sends `Draw` (with `by_rule`) and runs the `DRAW` hooks.
    pub fn rule_draw<O: Observer>(&mut self, p: u8, obs: &mut O) {
        if !self.draw.is_empty() && !self.is_out(p) && self.players[p as usize].cards() > 0 {
            self.draw_card(p, true, obs);
        }
    }

    /// Rule primitive: `from` passes hand card `rank` to `to`. A player never gives away
    /// his last card (he goes out only by a legal play, LOPTI-WIN-1), and nobody gives to
    /// or takes from a player who is out. Returns whether the card moved.
    pub fn rule_give<O: Observer>(&mut self, from: u8, to: u8, rank: Rank, obs: &mut O) -> bool {
        let giver = &self.players[from as usize];
        let ok = from != to
            && giver.hand.count(rank) > 0
            && giver.cards() >= 2
            && !self.is_out(from)
            && !self.is_out(to)
            && self.players[to as usize].cards() > 0;
        if ok {
            let giver = &mut self.players[from as usize];
            giver.hand.remove(rank, 1);
            let known = giver.known.count(rank).min(1);
            giver.known.remove(rank, known);
            self.players[to as usize].hand.add(rank, 1);
            self.received_mask |= 1 << to;
            obs.event(self, Event::Give { from, to, rank });
        }
        ok
    }

    /// Rule primitive: `seat` swaps one hand card with one of his own face-up cards, with
    /// the `SWAP` hooks around it (the face-up count stays 3, LOPTI-INV-7).
    pub fn rule_swap<O: Observer>(&mut self, seat: u8, swap: Swap, obs: &mut O) {
        if !self.is_out(seat) {
            self.swap_cards(seat, swap, obs);
        }
    }

    /// Rule primitive: a special clearing rule's condition is met (LOPTI-CLEAR-2 (5),
    /// LOPTI-MAKE-8): the pile goes out of the round as after any clear. Used after a play,
    /// whose player then gets the bonus play. Does nothing on an empty table.
    pub fn rule_clear<O: Observer>(&mut self, p: u8, obs: &mut O) {
        if !self.pile.is_empty() {
            self.clear(p, ClearCause::SpecialRule, obs);
        }
    }

    /// The turn ends after a play: the owed draw (`end_of_turn`), then the next turn.
    #[inline]
    fn end_turn<O: Observer>(&mut self, obs: &mut O) {
        if self.turn.draw_owed {
            self.turn.draw_owed = false;
            let p = self.current;
            self.draw(p, obs);
            self.takeover(p, obs);
        }
        self.next_turn(obs);
    }

    /// Passes the turn to the next active player, or ends the round (LOPTI-WIN-4).
    #[inline]
    fn next_turn<O: Observer>(&mut self, obs: &mut O) {
        let over = if self.rules.play_for_rankings { self.active() <= 1 } else { self.winner.is_some() };
        if over {
            self.finish_round(obs);
        } else {
            self.begin_turn(self.next_active(self.current), obs);
        }
    }

    fn begin_turn<O: Observer>(&mut self, p: u8, obs: &mut O) {
        if self.counters.turns >= self.rules.max_turns {
            self.capped = true;
            self.finish_round(obs);
            return;
        }
        let info = Hooked::of(HookEvent::TurnStart, Some(p));
        obs.hook(self, When::Before, &info);
        self.counters.turns += 1;
        self.current = p;
        self.turn = TurnState { first: true, bonus: false, draw_owed: false };
        obs.event(self, Event::TurnStart { seat: p, turn: self.counters.turns });
        obs.hook(self, When::After, &info);
        // The catch-all of LOPTI-FU-1 (cannot trigger under the base rules).
        self.takeover(p, obs);
    }

    /// Stops a game that deterministic bots would repeat forever: the position at the
    /// start of this turn is the one at the start of turn `repeat_of`.
    pub(super) fn stop_cycle<O: Observer>(&mut self, repeat_of: u32, obs: &mut O) {
        self.cycled = true;
        self.end_round(Some(repeat_of), obs);
    }

    /// Stops the round, capped, because `seat` chose `choice` (an action or a setup swap),
    /// which he was not offered; returns the report (seat, the turn as action index, the
    /// choice).
    pub fn stop_illegal<O: Observer>(&mut self, seat: u8, choice: impl std::fmt::Display, obs: &mut O) -> IllegalChoice {
        let report = IllegalChoice::new(seat as usize, self.counters.turns as u64, choice);
        self.capped = true;
        self.end_round(None, obs);
        report
    }

    fn finish_round<O: Observer>(&mut self, obs: &mut O) {
        self.end_round(None, obs);
    }

    fn end_round<O: Observer>(&mut self, repeat_of: Option<u32>, obs: &mut O) {
        if self.rules.play_for_rankings && !self.capped && !self.cycled {
            if let Some(last) = (0..self.n).find(|&s| !self.is_out(s)) {
                self.finish[self.finished as usize] = last;
                self.finished += 1;
            }
        }
        obs.hook(self, When::Before, &Hooked::of(HookEvent::RoundEnd, None));
        self.phase = Phase::Over;
        let (winner, capped, cycled, turns) = (self.match_winner(), self.capped, self.cycled, self.counters.turns);
        obs.event(self, Event::End { winner, capped, cycled, turns, repeat_of });
    }
}
