//! The game state and its transitions: the deal and the setup swaps (§3), turns with
//! plays, draws, pick-ups, clears and bonus plays (§4-§10, the `resolve` and `turn` of
//! §17), going out and the end of the round (§11).
//!
//! The state is `Copy` and allocation-free. It always waits for one decision: a setup
//! swap while [`Phase::Setup`], otherwise an [`Action`] of the player on turn, whose
//! face-up cards have already been taken over if his hand was empty (LOPTI-FU-1).

use super::config::{DrawTiming, Rules, SwapOrder};
use super::events::{Event, Observer, PickupReason};
use super::pile::Pile;
use super::ranks::{Rank, Ranks, THREE};
use super::rules::{clear_cause, is_legal_play, Action, ClearCause, Decision};
use super::view::{SeatInfo, View};
use crate::rng::{rng_from, SimRng};
use crate::runner::MAX_SEATS;
use rand::RngExt;

/// One player's three zones (LOPTI-STATE-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Hand (private).
    pub hand: Ranks,
    /// Face-up cards (public), 3 or none (LOPTI-INV-7).
    pub face_up: Ranks,
    /// Face-down cards (hidden from everyone; their order is a uniform random permutation,
    /// so a reveal draws uniformly from this multiset, LOPTI-AMB-17).
    pub face_down: Ranks,
    /// Public lower bound on the hand (see [`SeatInfo::known`]).
    pub known: Ranks,
}

impl Player {
    /// Cards in all three zones.
    pub fn cards(&self) -> u32 {
        self.hand.len() + self.face_up.len() + self.face_down.len()
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
    /// The face-down draw pile (a multiset: its order is unseen).
    pub draw: Ranks,
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
    /// Finishing order so far.
    pub finish: [u8; MAX_SEATS],
    /// Entries used in `finish`.
    pub finished: u8,
    /// The first player out (LOPTI-WIN-1).
    pub winner: Option<u8>,
    /// The turn cap stopped the game (or a repeated position, see `cycled`).
    pub capped: bool,
    /// The game was stopped as capped because deterministic bots repeated a position,
    /// which they would do forever.
    pub cycled: bool,
    /// Metric counts.
    pub counters: Counters,
}

impl State {
    /// Deals a round for `n` players from `deal_seed` (LOPTI-SETUP-1..3): three face-down,
    /// three face-up and three hand cards each, the rest to the draw pile. `starter` makes
    /// the first play (the dealer in a session's first round, then the previous winner,
    /// LOPTI-SETUP-5). Sends one [`Event::Deal`] per seat.
    pub fn deal<O: Observer>(n: u8, starter: u8, rules: Rules, deal_seed: u64, obs: &mut O) -> State {
        assert!((2..=MAX_SEATS as u8).contains(&n) && starter < n, "Lopti needs 2 to 5 players (LOPTI-DECK-1)");
        let mut deck = [0 as Rank; 52];
        for (i, c) in deck.iter_mut().enumerate() {
            *c = (i / 4) as Rank;
        }
        let mut rng = rng_from(deal_seed);
        for i in (1..52).rev() {
            deck.swap(i, rng.random_range(0..=i));
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
        let state = State {
            rules,
            n,
            players,
            draw,
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
            finish: [0; MAX_SEATS],
            finished: 0,
            winner: None,
            capped: false,
            cycled: false,
            counters: Counters::default(),
        };
        for seat in 0..n {
            let p = &state.players[seat as usize];
            obs.event(&state, Event::Deal { seat, hand: p.hand, face_up: p.face_up, face_down: p.face_down });
        }
        state
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
        let mut s = seat;
        loop {
            s = (s + 1) % self.n;
            if !self.is_out(s) || s == seat {
                return s;
            }
        }
    }

    /// The seats in setup order: clockwise from the starter.
    pub fn seats_from_starter(&self) -> impl Iterator<Item = u8> {
        let (n, start) = (self.n, self.starter);
        (0..n).map(move |i| (start + i) % n)
    }

    /// What `seat` may see.
    pub fn view(&self, seat: u8) -> View {
        let mut seats = [SeatInfo::default(); MAX_SEATS];
        for (s, info) in seats[..self.n as usize].iter_mut().enumerate() {
            let p = &self.players[s];
            *info = SeatInfo {
                hand: p.hand.len() as u8,
                known: p.known,
                face_up: p.face_up,
                face_down: p.face_down.len() as u8,
                out: self.is_out(s as u8),
                picked_up: self.picked_mask & (1 << s) != 0,
            };
        }
        let me = &self.players[seat as usize];
        let on_turn = self.phase == Phase::Play && self.current == seat;
        View {
            seat,
            players: self.n,
            current: self.current,
            setup: self.phase == Phase::Setup,
            swapped: self.swapped,
            hand: me.hand,
            face_up: me.face_up,
            face_down: me.face_down.len() as u8,
            pile: self.pile,
            run3: self.run3,
            obligated: self.obligation == Some(seat),
            bonus: on_turn && self.turn.bonus,
            draw_owed: on_turn && self.turn.draw_owed,
            draw_pile: self.draw.len() as u8,
            out_of_round: self.out,
            seats,
            rules: self.rules,
        }
    }

    /// The decision of the player on turn, for legality checks.
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
    /// the viewer has not seen: a determinization for search.
    pub fn determinize(view: &View, rng: &mut SimRng) -> State {
        let mut unseen = Ranks::DECK;
        unseen.remove_all(view.hand);
        unseen.remove_all(view.pile.cards());
        unseen.remove_all(view.out_of_round);
        let n = view.players as usize;
        for (s, info) in view.seats[..n].iter().enumerate() {
            unseen.remove_all(info.face_up);
            if s != view.seat as usize {
                unseen.remove_all(info.known);
            }
        }
        let mut players = [Player::default(); MAX_SEATS];
        let mut out_mask = 0;
        let mut picked_mask = 0;
        for (s, (p, info)) in players[..n].iter_mut().zip(&view.seats[..n]).enumerate() {
            p.face_up = info.face_up;
            p.known = info.known;
            p.hand = if s == view.seat as usize {
                view.hand
            } else {
                let mut h = info.known;
                h.add_all(unseen.take_random_n(info.hand as u32 - info.known.len(), rng));
                h
            };
            p.face_down = unseen.take_random_n(info.face_down as u32, rng);
            out_mask |= (info.out as u8) << s;
            picked_mask |= (info.picked_up as u8) << s;
        }
        let draw = unseen.take_random_n(view.draw_pile as u32, rng);
        debug_assert!(unseen.is_empty(), "determinization left {unseen:?}");
        let finished = out_mask.count_ones() as u8;
        State {
            rules: view.rules,
            n: view.players,
            players,
            draw,
            pile: view.pile,
            out: view.out_of_round,
            run3: view.run3,
            obligation: if view.obligated { Some(view.seat) } else { None },
            current: view.current,
            starter: view.current,
            turn: TurnState { first: !view.bonus, bonus: view.bonus, draw_owed: view.draw_owed },
            phase: if view.setup { Phase::Setup } else { Phase::Play },
            swapped: view.swapped,
            out_mask,
            picked_mask,
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
        if let Some(Swap { hand, face_up }) = swap {
            let p = &mut self.players[seat as usize];
            assert!(p.hand.count(hand) > 0 && p.face_up.count(face_up) > 0, "swap of cards the player does not hold");
            p.hand.remove(hand, 1);
            p.face_up.remove(face_up, 1);
            p.hand.add(face_up, 1);
            p.face_up.add(hand, 1);
            obs.event(self, Event::Swap { seat, hand, face_up });
        }
    }

    /// Ends setup: the starter's first turn begins (LOPTI-SETUP-5).
    pub fn start_play<O: Observer>(&mut self, obs: &mut O) {
        assert_eq!(self.phase, Phase::Setup);
        self.phase = Phase::Play;
        obs.resolved(self);
        self.begin_turn(self.starter, obs);
    }

    /// Applies the decision of the player on turn. The action must be legal.
    pub fn apply<O: Observer>(&mut self, action: Action, rng: &mut SimRng, obs: &mut O) {
        debug_assert_eq!(self.phase, Phase::Play);
        let p = self.current;
        match action {
            Action::Pass => {
                obs.event(self, Event::Pass { seat: p });
                self.end_turn(rng, obs);
            }
            Action::Pickup => {
                let hand = self.players[p as usize].hand;
                let reason = if hand.is_empty() || self.has_legal_play() { PickupReason::Voluntary } else { PickupReason::Forced };
                self.pickup(p, reason, obs);
                self.next_turn(obs);
            }
            Action::Blind => {
                let c = self.players[p as usize].face_down.take_random(rng);
                let legal = is_legal_play(&self.pile, self.obligation == Some(p), c, 1, &self.rules);
                obs.event(self, Event::Reveal { seat: p, rank: c, legal });
                if legal {
                    self.play(p, c, 1, true, rng, obs);
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
                self.play(p, rank, count, false, rng, obs);
            }
        }
        obs.resolved(self);
    }

    fn has_legal_play(&self) -> bool {
        let d = self.decision();
        d.hand.ranks().any(|r| (1..=d.hand.count(r)).any(|n| is_legal_play(d.pile, d.obligated, r, n, &self.rules)))
    }

    /// A legal play and what follows it in the turn (§17 `turn`).
    fn play<O: Observer>(&mut self, p: u8, r: Rank, n: u8, blind: bool, rng: &mut SimRng, obs: &mut O) {
        obs.event(self, Event::Play { seat: p, rank: r, count: n, blind, bonus: self.turn.bonus });
        let cleared = self.resolve(p, r, n, obs);
        if self.players[p as usize].cards() == 0 {
            // LOPTI-WIN-1..3, LOPTI-DRAW-5, LOPTI-BONUS-3: out at once, no draw, no bonus.
            self.go_out(p, obs);
            self.next_turn(obs);
            return;
        }
        if self.turn.first {
            self.turn.first = false;
            match self.rules.draw_timing {
                DrawTiming::BeforeBonus => self.draw(p, rng, obs),
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
            self.end_turn(rng, obs);
        }
    }

    /// §17 `resolve`: moves the played cards, updates the 3-run, the obligation and the
    /// pile, and clears. Returns true if the play earned a bonus play.
    fn resolve<O: Observer>(&mut self, p: u8, r: Rank, n: u8, obs: &mut O) -> bool {
        let cause = clear_cause(&self.pile, self.run3, r, n);
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
            self.pile.push(r, n);
            self.run3 = 0;
            self.obligation = None;
            match cause {
                Some(c) => {
                    self.clear(p, c, obs);
                    true
                }
                None => false,
            }
        }
    }

    /// LOPTI-CLEAR-1: the pile goes out of the round.
    fn clear<O: Observer>(&mut self, p: u8, cause: ClearCause, obs: &mut O) {
        let cards = self.pile.take();
        self.out.add_all(cards);
        self.run3 = 0;
        self.obligation = None;
        self.counters.clears += 1;
        obs.event(self, Event::Clear { seat: p, cause, cards });
    }

    /// LOPTI-PICK-1, LOPTI-PICK-3: the whole pile goes into the hand.
    fn pickup<O: Observer>(&mut self, p: u8, reason: PickupReason, obs: &mut O) {
        let cards = self.pile.take();
        let me = &mut self.players[p as usize];
        me.hand.add_all(cards);
        me.known.add_all(cards);
        self.run3 = 0;
        self.obligation = None;
        self.picked_mask |= 1 << p;
        self.counters.pickups += 1;
        obs.event(self, Event::Pickup { seat: p, cards, reason });
    }

    /// LOPTI-DRAW-1: one card if the draw pile has one and the hand has fewer than 3.
    fn draw<O: Observer>(&mut self, p: u8, rng: &mut SimRng, obs: &mut O) {
        if !self.draw.is_empty() && self.players[p as usize].hand.len() < 3 {
            let rank = self.draw.take_random(rng);
            self.players[p as usize].hand.add(rank, 1);
            obs.event(self, Event::Draw { seat: p, rank });
        }
    }

    /// LOPTI-FU-1: an empty hand takes all the face-up cards.
    fn takeover<O: Observer>(&mut self, p: u8, obs: &mut O) {
        let me = &mut self.players[p as usize];
        if me.hand.is_empty() && !me.face_up.is_empty() {
            let cards = me.face_up;
            me.hand = cards;
            me.known.add_all(cards);
            me.face_up = Ranks::EMPTY;
            obs.event(self, Event::Takeover { seat: p, cards });
        }
    }

    fn go_out<O: Observer>(&mut self, p: u8, obs: &mut O) {
        self.out_mask |= 1 << p;
        self.finish[self.finished as usize] = p;
        self.finished += 1;
        self.winner.get_or_insert(p);
        obs.event(self, Event::Out { seat: p, place: self.finished });
    }

    /// The turn ends after a play: the owed draw (`end_of_turn`), then the next turn.
    fn end_turn<O: Observer>(&mut self, rng: &mut SimRng, obs: &mut O) {
        if self.turn.draw_owed {
            self.turn.draw_owed = false;
            let p = self.current;
            self.draw(p, rng, obs);
            self.takeover(p, obs);
        }
        self.next_turn(obs);
    }

    /// Passes the turn to the next active player, or ends the round (LOPTI-WIN-4).
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
        self.counters.turns += 1;
        self.current = p;
        self.turn = TurnState { first: true, bonus: false, draw_owed: false };
        obs.event(self, Event::TurnStart { seat: p, turn: self.counters.turns });
        // The catch-all of LOPTI-FU-1 (cannot trigger under the base rules).
        self.takeover(p, obs);
    }

    /// Stops a game that deterministic bots would repeat forever, as capped.
    fn stop_cycle<O: Observer>(&mut self, obs: &mut O) {
        self.capped = true;
        self.cycled = true;
        self.finish_round(obs);
    }

    fn finish_round<O: Observer>(&mut self, obs: &mut O) {
        if self.rules.play_for_rankings && !self.capped {
            if let Some(last) = (0..self.n).find(|&s| !self.is_out(s)) {
                self.finish[self.finished as usize] = last;
                self.finished += 1;
            }
        }
        self.phase = Phase::Over;
        obs.event(self, Event::End { winner: self.winner, capped: self.capped, cycled: self.cycled, turns: self.counters.turns });
    }
}

/// Detects a repeated position at turn starts with Brent's algorithm (constant memory).
/// A position that repeats under bots that neither use randomness nor see anything
/// beyond it repeats forever: no draw or reveal can have happened in between, since the
/// draw pile and the face-down cards only shrink.
#[derive(Default)]
struct CycleCheck {
    saved: Option<State>,
    power: u32,
    steps: u32,
}

impl CycleCheck {
    fn repeats(&mut self, state: &State) -> bool {
        let mut now = *state;
        now.counters = Counters::default();
        if self.saved == Some(now) {
            return true;
        }
        self.steps += 1;
        if self.steps >= self.power {
            self.saved = Some(now);
            self.power = (self.power * 2).max(1);
            self.steps = 0;
        }
        false
    }
}

/// Plays a dealt round to its end: the setup swaps in the order `lopti.swap_order` says,
/// then turns until someone goes out (or the cap). `bots[s]` decides for seat `s` from
/// its [`View`] only. Decisions with a single legal action are made without asking.
/// When every bot is [`deterministic`](super::strategies::Strategy::deterministic), a
/// position repeated at the start of a turn stops the game as capped (`cycled`): it would
/// repeat forever.
pub fn play_round<O: Observer>(state: &mut State, bots: &[&dyn super::strategies::Strategy], rng: &mut SimRng, obs: &mut O) {
    if state.phase == Phase::Setup {
        let mut pending = [None; MAX_SEATS];
        let order: arrayvec::ArrayVec<u8, MAX_SEATS> = state.seats_from_starter().filter(|&s| state.swapped & (1 << s) == 0).collect();
        for &s in &order {
            let swap = bots[s as usize].swap(&state.view(s), rng);
            match state.rules.swap_order {
                SwapOrder::Simultaneous => pending[s as usize] = swap,
                SwapOrder::ClockwiseFromStarter => state.apply_swap(s, swap, obs),
            }
        }
        if state.rules.swap_order == SwapOrder::Simultaneous {
            for &s in &order {
                state.apply_swap(s, pending[s as usize], obs);
            }
        }
        state.start_play(obs);
    }
    let deterministic = bots.iter().all(|b| b.deterministic());
    let mut cycle = CycleCheck::default();
    while state.phase == Phase::Play {
        if deterministic && state.turn.first && !state.turn.bonus && cycle.repeats(state) {
            state.stop_cycle(obs);
            break;
        }
        let view = state.view(state.current);
        let legal = view.legal_actions();
        let action = if legal.len() == 1 { legal[0] } else { bots[state.current as usize].act(&view, &legal, rng) };
        debug_assert!(legal.contains(&action), "bot chose an illegal action {action}");
        state.apply(action, rng, obs);
    }
}
