//! Lopti's round loop: the one place that asks the seated bots. The state
//! ([`super::state`]) and the rules ([`super::rules`]) never call a bot; the loop asks
//! each decision of the seat whose turn it is through [`Seats`], checks the answer
//! against what that player was offered, and only then applies it, as the real-time
//! engine (`realtime/engine.rs`) does. An answer that was not offered is never applied:
//! the round stops there, capped ([`State::stop_illegal`]), and the report is returned.
//!
//! The special rules in force (`special/run.rs`) drive the same loop ([`Round`]); their
//! effects ask the players through the same [`Seats`].

use super::config::SwapOrder;
use super::entry::MAX_SEATS;
use super::events::{Event, Hooked, NoObserver, Observer, When};
use super::ranks::Rank;
use super::rules::Action;
use super::state::{Counters, Phase, State, Swap};
use super::strategies::Strategy;
use crate::rng::{rng_from, SimRng};
use crate::runner::IllegalChoice;

/// Where the bots' own random choices come from.
pub enum Dice<'a> {
    /// One generator per seat: in a match, each seat's player stream
    /// ([`MatchSeeds::player_rng`](crate::rng::MatchSeeds::player_rng)), so no bot's dice
    /// depend on another's.
    Seats(&'a mut [SimRng]),
    /// One generator for every seat (a bot's own simulations).
    Shared(&'a mut SimRng),
}

impl Dice<'_> {
    /// The generator of seat `seat`.
    pub fn seat(&mut self, seat: u8) -> &mut SimRng {
        match self {
            Dice::Seats(rngs) => &mut rngs[seat as usize],
            Dice::Shared(rng) => rng,
        }
    }
}

/// The bots of a round in seat order (`bots[s]` plays seat `s`) with their dice: every
/// question a Lopti player is asked goes through here, with the player's [`View`] only
/// (never a hidden card) and his own dice.
///
/// [`View`]: super::view::View
pub struct Seats<'a> {
    bots: &'a [&'a dyn Strategy],
    dice: Dice<'a>,
}

impl<'a> Seats<'a> {
    /// `bots[s]` plays seat `s`, rolling `dice.seat(s)`.
    pub fn new(bots: &'a [&'a dyn Strategy], dice: Dice<'a>) -> Self {
        Seats { bots, dice }
    }

    /// The bots by seat.
    pub fn bots(&self) -> &'a [&'a dyn Strategy] {
        self.bots
    }

    /// True if every seated bot is [`deterministic`](Strategy::deterministic).
    pub fn deterministic(&self) -> bool {
        self.bots.iter().all(|b| b.deterministic())
    }

    /// Seat `seat`'s setup decision (LOPTI-SETUP-4) on `state`.
    pub fn swap(&mut self, state: &State, seat: u8) -> Option<Swap> {
        self.bots[seat as usize].swap(&state.view(seat), self.dice.seat(seat))
    }

    /// The action of the player on turn, asked only when more than one is legal, and
    /// whether it was one of the legal ones.
    #[inline]
    pub fn act(&mut self, state: &State) -> (Action, bool) {
        let seat = state.current;
        let view = state.view(seat);
        let legal = state.legal_actions();
        debug_assert_eq!(legal, view.legal_actions(), "the state's and the view's legal actions");
        match legal.single() {
            // The only legal action is legal: no need to look it up.
            Some(action) => (action, true),
            None => {
                let action = self.bots[seat as usize].act(&view, &legal, self.dice.seat(seat));
                (action, legal.contains(&action))
            }
        }
    }

    /// The hand card seat `seat` gives away when a special rule makes it give one.
    pub fn give(&mut self, state: &State, seat: u8) -> Rank {
        self.bots[seat as usize].give(&state.view(seat), self.dice.seat(seat))
    }

    /// The swap, if any, seat `seat` makes when a special rule lets it swap during play.
    pub fn rule_swap(&mut self, state: &State, seat: u8) -> Option<Swap> {
        self.bots[seat as usize].rule_swap(&state.view(seat), self.dice.seat(seat))
    }
}

/// A round being played: its seated bots and the observer its events go to (itself), for
/// [`play`]. [`play_round`] plays with a plain observer; the special rules in force
/// (`special::run::Ruled`) are a `Round` whose observer runs their hooks.
pub trait Round<'a>: Observer + Sized {
    /// The seated bots.
    fn seats(&mut self) -> &mut Seats<'a>;
    /// The position at the start of turn `turn`, played on from `from` by the same bots
    /// with nothing observed and no dice (the bots are deterministic): see
    /// [`replay_quietly`].
    fn replay(&self, from: &State, turn: u32) -> State;
}

/// [`play_round`]'s [`Round`]: the bots, and every event passed on to `obs`.
struct Plain<'a, 'o, O: Observer> {
    seats: Seats<'a>,
    obs: &'o mut O,
}

impl<O: Observer> Observer for Plain<'_, '_, O> {
    const HOOKS: bool = O::HOOKS;
    const EVENTS: bool = O::EVENTS;

    #[inline(always)]
    fn event(&mut self, state: &State, ev: Event) {
        self.obs.event(state, ev);
    }

    #[inline(always)]
    fn resolved(&mut self, state: &State) {
        self.obs.resolved(state);
    }

    #[inline(always)]
    fn hook(&mut self, state: &mut State, when: When, ev: &Hooked) {
        self.obs.hook(state, when, ev);
    }
}

impl<'a, O: Observer> Round<'a> for Plain<'a, '_, O> {
    fn seats(&mut self) -> &mut Seats<'a> {
        &mut self.seats
    }

    fn replay(&self, from: &State, turn: u32) -> State {
        let mut unused = rng_from(0);
        replay_quietly(&mut Plain { seats: Seats::new(self.seats.bots, Dice::Shared(&mut unused)), obs: &mut NoObserver }, from, turn)
    }
}

/// Plays a dealt round to its end: the setup swaps in the order `lopti.swap_order` says,
/// then turns until someone goes out (or the cap). `bots[s]` decides for seat `s` from
/// its [`View`](super::view::View) only, with `dice.seat(s)` as its own dice. Decisions
/// with a single legal action are made without asking. When every bot is
/// [`deterministic`](Strategy::deterministic), the game stops as `cycled` at the start of
/// the first turn whose position repeats an earlier turn start: it would repeat forever.
/// A bot that chooses an action (or a swap) it was not offered stops the round, capped;
/// the report is the `Err`.
pub fn play_round<O: Observer>(state: &mut State, bots: &[&dyn Strategy], dice: Dice<'_>, obs: &mut O) -> Result<(), IllegalChoice> {
    play_round_remembering::<O, MEMORY>(state, bots, dice, obs)
}

/// [`play_round`] with room for `CAP` positions per stretch (tests use a small one).
pub(super) fn play_round_remembering<O: Observer, const CAP: usize>(state: &mut State, bots: &[&dyn Strategy], dice: Dice<'_>, obs: &mut O) -> Result<(), IllegalChoice> {
    play::<_, CAP>(state, &mut Plain { seats: Seats::new(bots, dice), obs })
}

/// Plays the dealt round of `state` to its end with `round`'s bots, events to `round`
/// (see [`play_round`]).
pub fn play<'a, R: Round<'a>, const CAP: usize>(state: &mut State, round: &mut R) -> Result<(), IllegalChoice> {
    if state.phase == Phase::Setup {
        let mut pending = [None; MAX_SEATS];
        let order: arrayvec::ArrayVec<u8, MAX_SEATS> = state.seats_from_starter().filter(|&s| state.swapped & (1 << s) == 0).collect();
        for &s in &order {
            let swap = round.seats().swap(state, s);
            if let Some(w) = swap.filter(|&w| !holds(state, s, w)) {
                return Err(state.stop_illegal(s, w, round));
            }
            match state.rules.swap_order {
                SwapOrder::Simultaneous => pending[s as usize] = swap,
                SwapOrder::ClockwiseFromStarter => state.apply_swap(s, swap, round),
            }
        }
        if state.rules.swap_order == SwapOrder::Simultaneous {
            for &s in &order {
                state.apply_swap(s, pending[s as usize], round);
            }
        }
        state.start_play(round);
    }
    if round.seats().deterministic() {
        let mut repeats = Repeats::<CAP>::new(state);
        while state.phase == Phase::Play {
            if state.turn.first && !state.turn.bonus {
                if let Some(turn) = repeats.repeat_of(state, |from, turn| round.replay(from, turn)) {
                    state.stop_cycle(turn, round);
                    break;
                }
            }
            step(state, round)?;
        }
    } else {
        while state.phase == Phase::Play {
            step(state, round)?;
        }
    }
    Ok(())
}

/// True if seat `seat` holds both cards of `swap`: the swaps it is offered.
fn holds(state: &State, seat: u8, swap: Swap) -> bool {
    let p = &state.players[seat as usize];
    p.hand.count(swap.hand) > 0 && p.face_up.count(swap.face_up) > 0
}

/// One decision of the player on turn, checked before it is applied.
fn step<'a, R: Round<'a>>(state: &mut State, round: &mut R) -> Result<(), IllegalChoice> {
    let (action, legal) = round.seats().act(state);
    if !legal {
        return Err(state.stop_illegal(state.current, action, round));
    }
    state.apply(action, round);
    Ok(())
}

/// The position at the start of turn `turn`, replayed from `from` by `round` (whose bots
/// made these decisions before, legally, and deterministically).
pub fn replay_quietly<'a, R: Round<'a>>(round: &mut R, from: &State, turn: u32) -> State {
    let mut s = *from;
    while s.counters.turns < turn && s.phase == Phase::Play {
        // The replayed decisions were made before, legally: no report can come.
        let _ = step(&mut s, round);
    }
    s
}

/// Turn-start positions remembered per stretch (see [`Repeats`]); the longest stretch
/// seen in 80,000 games of deterministic bots was 130 turns.
pub(super) const MEMORY: usize = 1024;

/// Quantities that only ever move one way during play: the draw pile, the face-down and
/// the face-up cards shrink; the cards out of the round, the players out and the players
/// who have taken the pile grow. Two positions that differ here can never be equal.
fn one_way(s: &State) -> [u32; 5] {
    let n = s.n as usize;
    let zones: u32 = s.players[..n].iter().map(|p| p.face_down.len() * 8 + p.face_up.len()).sum();
    [s.draw.len(), s.out.len(), zones, s.out_mask as u32, s.picked_mask as u32 | (s.received_mask as u32) << 8]
}

/// A 64-bit fingerprint of what changes within a stretch: hands (and what is known of
/// them), the pile, the 3-run, the obligation and the player on turn.
fn fingerprint(s: &State) -> u64 {
    let mut h = crate::rng::splitmix64(s.current as u64 | (s.run3 as u64) << 8 | (s.obligation.map_or(7, |o| o) as u64) << 16);
    for p in &s.players[..s.n as usize] {
        h = crate::rng::splitmix64(h ^ p.hand.0);
        h = crate::rng::splitmix64(h ^ p.known.0);
    }
    crate::rng::splitmix64(h ^ s.pile.fingerprint())
}

/// Two positions are the same if the states are equal apart from the metric counts.
fn same_position(a: &State, b: &State) -> bool {
    let (mut a, mut b) = (*a, *b);
    a.counters = Counters::default();
    b.counters = Counters::default();
    a == b
}

/// Finds the first turn-start position that repeats an earlier one, in constant memory.
///
/// A repeat can only match a position of the current *stretch*: the turns since the
/// last change of a one-way quantity ([`one_way`]: a draw, a reveal, a clear, a
/// takeover, a player's first pick-up or going out). Each turn start's fingerprint is
/// compared with those of the stretch; a match is confirmed exactly by replaying the
/// stretch from its first position (the bots are deterministic and chance is keyed by the
/// state, so the replay is the game). So the game stops at the very first repeat. A
/// stretch longer than `CAP` turns (never seen) falls back to Brent's algorithm, which
/// stops it within two cycle lengths of its first repeat.
struct Repeats<const CAP: usize> {
    /// The stretch's first position, with its counters.
    anchor: State,
    /// [`one_way`] of the anchor.
    anchor_way: [u32; 5],
    /// Fingerprints of the stretch's turn starts, from the anchor on (not zeroed up
    /// front: a game rarely uses more than a few of them).
    prints: arrayvec::ArrayVec<u64, CAP>,
    /// Brent's algorithm past `CAP`: the saved position, the power and the steps.
    brent: Option<(State, u32, u32)>,
}

impl<const CAP: usize> Repeats<CAP> {
    fn new(state: &State) -> Self {
        Repeats { anchor: *state, anchor_way: one_way(state), prints: arrayvec::ArrayVec::new(), brent: None }
    }

    /// At a turn start: the earlier turn whose position this one repeats, if any.
    /// `replay(from, turn)` is the position at the start of turn `turn` played on from `from`.
    fn repeat_of(&mut self, s: &State, replay: impl Fn(&State, u32) -> State) -> Option<u32> {
        let way = one_way(s);
        if self.prints.is_empty() || way != self.anchor_way {
            self.anchor = *s;
            self.anchor_way = way;
            self.prints.clear();
            self.brent = None;
        }
        if let Some((saved, power, steps)) = &mut self.brent {
            if same_position(saved, s) {
                return Some(saved.counters.turns);
            }
            *steps += 1;
            if *steps >= *power {
                *saved = *s;
                *power *= 2;
                *steps = 0;
            }
            return None;
        }
        let print = fingerprint(s);
        for (i, &p) in self.prints.iter().enumerate() {
            if p == print {
                let turn = self.anchor.counters.turns + i as u32;
                if same_position(&replay(&self.anchor, turn), s) {
                    return Some(turn);
                }
            }
        }
        if self.prints.try_push(print).is_err() {
            self.brent = Some((*s, 1, 0));
        }
        None
    }
}
