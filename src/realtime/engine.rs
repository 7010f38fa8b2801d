//! The event loop of one round of a real-time game.

use super::moves::LegalMoves;
use super::policy::{RealtimePolicy, Seated};
use crate::reaction::{ms_to_us, Motion};
use crate::rng::{MatchSeeds, SimRng};
use crate::runner::IllegalChoice;
use arrayvec::ArrayVec;
use rand::RngExt;

/// Simulated time in microseconds.
pub type Micros = u64;
/// Most players a real-time game seats: every seat the runner has.
pub const MAX_PLAYERS: usize = crate::rng::MAX_SEATS;
/// Most legal actions one player can have at once.
pub const MAX_ACTIONS: usize = 64;
/// A player's legal actions, on the stack.
pub type ActionList<A> = ArrayVec<A, MAX_ACTIONS>;

/// The random streams of a real-time match: public chance (exact-tie breaks and other
/// chance events everyone sees), the same in every seating of a deal, and one stream
/// per player for its reaction times and its bot's own dice.
#[derive(Clone, Debug)]
pub struct MatchRngs {
    /// Public chance.
    pub chance: SimRng,
    /// Player `p`'s stream.
    pub players: [SimRng; MAX_PLAYERS],
}

impl MatchRngs {
    /// The streams of deal `seed` with distinct bots (tests).
    pub fn of_deal(seed: u64) -> MatchRngs {
        MatchRngs::new(&MatchSeeds::of_deal(seed))
    }
    /// The streams of a match from its seeds.
    pub fn new(seeds: &MatchSeeds) -> MatchRngs {
        MatchRngs { chance: seeds.chance_rng(0), players: std::array::from_fn(|p| seeds.player_rng(p)) }
    }
}

/// Saturating addition of a duration in milliseconds to a simulated time, so that no
/// input can wrap the clock.
#[inline]
pub fn after(now: Micros, ms: f64) -> Micros {
    now.saturating_add(ms_to_us(ms))
}

/// What happened when an action landed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// The action took effect.
    Placed,
    /// The action took effect and ended the round (e.g. a player's last card was played).
    RoundOver,
    /// The action was no longer legal; what it carries goes back (SPIT-RT-5).
    Rejected,
}

/// What an action just did to the state, for [`RealtimeRules::touched`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// [`RealtimeRules::lift`] took what it carries into the hand.
    Lifted,
    /// [`RealtimeRules::land`] applied it (placed, or it ended the round).
    Landed,
    /// [`RealtimeRules::land`] rejected it.
    Rejected,
    /// [`RealtimeRules::put_back`] returned what it carried.
    PutBack,
}

impl Change {
    /// [`RealtimeRules::touched`] for a game whose players' moves are their own cards
    /// and the tops of shared piles (Spit, Speed): an action that landed on a shared
    /// pile (`onto_shared_pile`) touches every player, a rejected one nobody, and every
    /// other change only its owner `p`.
    #[inline]
    pub fn touches_in_own_cards_and_shared_tops(self, p: usize, onto_shared_pile: bool) -> u32 {
        match self {
            Change::Rejected => 0,
            Change::Landed if onto_shared_pile => u32::MAX,
            _ => 1 << p,
        }
    }
}

/// How the game resolves a stall (no progress possible for anyone, every hand idle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stall {
    /// A synchronised event (Spit's spit, Speed's side-pile flip): every player
    /// recognises the stall, then the game's [`RealtimeRules::synchronise`] runs at the
    /// latest recognition time.
    Synchronised,
    /// The round ends without a first-out player.
    RoundOver,
}

/// One player's hand (SPIT-RT-2: idle, or performing exactly one action).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hand<A> {
    /// Free to decide.
    Idle,
    /// Carrying an action (one card or a stack) that lands at `at`.
    Acting { at: Micros, action: A },
    /// Taking what a rejected or aborted action carried back; it is back at `at`.
    Returning { at: Micros, action: A },
    /// Busy with a synchronised event until `until`.
    Resting { until: Micros },
}

impl<A: Copy> Hand<A> {
    /// Time of the hand's next event, if it is busy.
    fn next_time(&self) -> Option<Micros> {
        match *self {
            Hand::Idle => None,
            Hand::Acting { at, .. } | Hand::Returning { at, .. } => Some(at),
            Hand::Resting { until } => Some(until),
        }
    }
}

/// What the engine reports to an observer (traces, invariant checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineEvent<A> {
    /// Player started an action that will land at `lands`; `options` legal actions were seen.
    Start { player: usize, action: A, lands: Micros, options: usize },
    /// The action landed and took effect.
    Landed { player: usize, action: A },
    /// The action landed but was illegal on the current state; what it carries goes back.
    Rejected { player: usize, action: A },
    /// What a rejected or aborted action carried is back at its source.
    Returned { player: usize, action: A },
    /// The player saw his target change and called the action off; what it carries is
    /// back at `back` (SPIT-RT-6 with `allow_abort`).
    Aborted { player: usize, action: A, back: Micros },
    /// An action in flight was called off (round end, SPIT-RT-10, or a stall).
    Cancelled { player: usize, action: A },
    /// A stall was detected.
    Stalled,
    /// The synchronised stall event took effect.
    Synchronised,
    /// A policy sat idle although it had a progress action (breaks SPIT-RT-9).
    LivenessViolation { player: usize },
}

/// Receives engine events together with the state after each one.
pub trait EngineObserver<S, A> {
    /// Called after every event.
    fn on_event(&mut self, time: Micros, event: EngineEvent<A>, state: &S);
}

impl<S, A> EngineObserver<S, A> for () {
    #[inline(always)]
    fn on_event(&mut self, _: Micros, _: EngineEvent<A>, _: &S) {}
}

/// Receives a game's match-level events `E` (deals, round ends, results) as well as
/// the engine's events.
pub trait MatchObserver<S, A, E>: EngineObserver<S, A> {
    /// Called after every match-level event.
    fn on_match_event(&mut self, time: Micros, event: E, state: &S);
}

impl<S, A, E> MatchObserver<S, A, E> for () {
    #[inline(always)]
    fn on_match_event(&mut self, _: Micros, _: E, _: &S) {}
}

/// The rules of one real-time game, as the engine needs them. Rules never call a
/// strategy: the engine asks the seated bots ([`Seated`]) for moves, and for the
/// decisions a synchronised event needs ([`RealtimeRules::sync_decision`]), then hands
/// the answers back to the rules ([`RealtimeRules::synchronise`]). Time is the
/// engine's too: the rules learn it only as the landing time of an action.
///
/// An action may carry one card or several (a stack moved between piles): the engine
/// only holds the `Copy` action in the player's hand, and the game decides in
/// [`RealtimeRules::lift`] and [`RealtimeRules::put_back`] what is in flight (see the
/// module documentation).
pub trait RealtimeRules {
    /// The full game state (`Copy`, no heap).
    type State: Copy;
    /// One action of one player.
    type Action: Copy + PartialEq + std::fmt::Debug;
    /// A question the rules put to a player besides his moves (Spit: which pile his
    /// stall spit goes onto); [`NoDecision`](super::NoDecision) for a game without.
    type Decision: Copy + std::fmt::Debug;
    /// A player's answer to a [`RealtimeRules::Decision`].
    type Choice: Copy + std::fmt::Debug;

    /// Player `p`'s legal moves in the form the game keeps them (see
    /// [`LegalMoves`]); an [`ActionList`] for a game that lists them.
    type Moves: LegalMoves<Self::Action> + Default;

    /// Player `p`'s legal moves now, written over `out`: what the engine counts, checks a
    /// choice against and hands to the player's strategy.
    fn moves(&self, s: &Self::State, p: usize, out: &mut Self::Moves);
    /// Called once as a round starts on `s` (dealt, any opening event done): a game
    /// that keeps derived data in its state, e.g. legal moves kept up to date by
    /// `lift`, `land`, `put_back` and `synchronise`, builds it here. Default: nothing.
    fn begin_round(&self, _s: &mut Self::State) {}
    /// Legal actions of player `p` now, appended to `out` in the legal order. Default:
    /// [`RealtimeRules::moves`] written out.
    fn legal(&self, s: &Self::State, p: usize, out: &mut ActionList<Self::Action>) {
        let mut moves = Self::Moves::default();
        self.moves(s, p, &mut moves);
        moves.write(out);
    }
    /// True if the action counts as progress for stall detection.
    fn is_progress(&self, s: &Self::State, p: usize, a: Self::Action) -> bool;
    /// True if player `p` has any progress action now.
    fn has_progress(&self, s: &Self::State, p: usize) -> bool;
    /// True if [`RealtimeRules::has_progress`] never depends on the actions in flight:
    /// it counts what every hand carries as back in place, so that
    /// [`RealtimeRules::put_back`] of any action in flight changes no player's answer.
    /// The stall check then asks it on the state as it is instead of on a copy with the
    /// aimless actions put back (debug builds check the two agree). Default: false.
    fn progress_ignores_flight(&self) -> bool {
        false
    }
    /// The players whose legal moves ([`RealtimeRules::moves`]) the change `change` of
    /// player `p`'s action `a` may have altered, bit `q` for player `q`; `s` is the state
    /// after it. The engine asks an idle player who had no legal move again only once a
    /// change touches him (asking him would give nothing: a strategy is asked only with
    /// moves), so the set must hold every player whose moves may differ. Default: every
    /// player (each idle player is asked again after every event).
    #[inline]
    fn touched(&self, _s: &Self::State, _p: usize, _a: Self::Action, _change: Change) -> u32 {
        u32::MAX
    }
    /// The movement an action makes (for its motor time).
    fn motion(&self, a: Self::Action) -> Motion;
    /// Number of candidate cards player `p` scans when looking for a move.
    fn candidates(&self, s: &Self::State, p: usize) -> u32;
    /// True if actions `a` of player `p` and `b` of player `q`, chosen at the same
    /// instant on state `s`, cannot both be in flight (two hands on one shared layout
    /// reaching for the same pile). Public chance then lets one of them proceed and the
    /// other decides again once that card is lifted; `legal` must not offer him what
    /// the lifted card blocks. Default: never.
    fn conflicts(&self, _s: &Self::State, _p: usize, _a: Self::Action, _q: usize, _b: Self::Action) -> bool {
        false
    }
    /// Takes what the action carries into the hand (one card or a stack; it is in
    /// flight until it lands or is put back).
    fn lift(&self, s: &mut Self::State, p: usize, a: Self::Action);
    /// Lands the action at time `now`: applies it if still legal (hidden cards it
    /// reveals come from the state's deal-keyed zones, not from a generator), or
    /// rejects it, leaving what it carries in flight until [`RealtimeRules::put_back`].
    fn land(&self, s: &mut Self::State, p: usize, a: Self::Action, now: Micros) -> Landing;
    /// Puts a rejected or cancelled action's card(s) back where they came from.
    fn put_back(&self, s: &mut Self::State, p: usize, a: Self::Action);
    /// True if an action in flight would still be legal if it landed at `now`.
    fn still_legal(&self, s: &Self::State, p: usize, a: Self::Action, now: Micros) -> bool;
    /// True if players may call off an action whose target changed (SPIT-RT-6).
    fn abort_allowed(&self) -> bool;
    /// How a stall is resolved in this state.
    fn stall(&self, s: &Self::State) -> Stall;
    /// The decision player `p` must make before the synchronised stall event, asked on
    /// the state before any card moves (so everyone decides on the same state).
    /// Default: none.
    fn sync_decision(&self, _s: &Self::State, _p: usize) -> Option<Self::Decision> {
        None
    }
    /// Applies the synchronised stall event with each player's answer to his
    /// [`RealtimeRules::sync_decision`] (`None` where none was asked), drawing any
    /// public chance from `chance`; returns which players took part (their hands are
    /// then busy for a [`Motion::Sync`] movement).
    fn synchronise(&self, s: &mut Self::State, choices: &[Option<Self::Choice>; MAX_PLAYERS], chance: &mut SimRng) -> [bool; MAX_PLAYERS];
}

/// Runs a synchronised stall event: asks every player the rules' decision on the state
/// as it is (each from his own stream, in seat order), then lets the rules apply it.
/// Returns which players took part.
pub fn synchronise<R: RealtimeRules, S: RealtimePolicy<R> + ?Sized>(rules: &R, seats: &Seated<S>, s: &mut R::State, rngs: &mut MatchRngs) -> [bool; MAX_PLAYERS] {
    let mut choices = [None; MAX_PLAYERS];
    for (p, choice) in choices.iter_mut().enumerate().take(seats.len()) {
        if let Some(d) = rules.sync_decision(s, p) {
            *choice = Some(seats.decide(rules, s, p, d, &mut rngs.players[p]));
        }
    }
    rules.synchronise(s, &choices, &mut rngs.chance)
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundEnd {
    /// Time of the ending event.
    pub time: Micros,
    /// The player whose action ended the round, if one did.
    pub first_out: Option<usize>,
    /// The match's action budget ran out (or a policy broke liveness) before the round ended.
    pub capped: bool,
}

/// Per-round counters the engine keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundCounts {
    /// Actions that landed and took effect.
    pub landed: u64,
    /// Actions rejected at landing.
    pub rejected: u64,
    /// Synchronised stall events.
    pub synchronised: u64,
    /// Decisions asked of the bots (calls of their `choose`), the action index of
    /// [`IllegalChoice`].
    pub decisions: u64,
    /// Set when a bot chose an action it was not offered: the round stopped there, capped.
    pub illegal: Option<IllegalChoice>,
}

/// Picks the player whose hand event comes first; exact ties go to the generator.
#[inline]
fn next_event<A: Copy>(hands: &[Hand<A>], rng: &mut SimRng) -> Option<(usize, Micros)> {
    // One pass for the earliest time, its first hand and how many share it.
    let (mut first, mut t, mut tied) = (0, Micros::MAX, 0usize);
    for (p, h) in hands.iter().enumerate() {
        if let Some(at) = h.next_time() {
            if at < t || tied == 0 {
                (first, t, tied) = (p, at, 1);
            } else if at == t {
                tied += 1;
            }
        }
    }
    if tied <= 1 {
        return (tied == 1).then_some((first, t));
    }
    let pick = rng.random_range(0..tied);
    hands.iter().enumerate().filter(|(_, h)| h.next_time() == Some(t)).nth(pick).map(|(p, _)| (p, t))
}

/// Plays one round from `start`, when every player in `busy` is busy until
/// `start + motor(Sync)` (the synchronised opening flip) and the others are idle.
/// `seats` are the bots in seat order (one per player). `budget` is the number of
/// actions the match may still land; the round is capped when it runs out. A bot that
/// chooses an action it was not offered stops the round, capped, with the report in
/// `counts.illegal` (the action is never applied). Returns how the round ended and adds
/// to `counts`.
#[allow(clippy::too_many_arguments)]
pub fn play_round<R, S, O>(
    rules: &R,
    seats: &Seated<S>,
    s: &mut R::State,
    start: Micros,
    busy: [bool; MAX_PLAYERS],
    budget: &mut u64,
    counts: &mut RoundCounts,
    rngs: &mut MatchRngs,
    obs: &mut O,
) -> RoundEnd
where
    R: RealtimeRules,
    S: RealtimePolicy<R> + ?Sized,
    O: EngineObserver<R::State, R::Action>,
{
    rules.begin_round(s);
    let mut hands = [Hand::Idle; MAX_PLAYERS];
    rest_after_sync(&mut hands[..seats.len()], seats, rngs, busy, start);
    play_from(rules, seats, s, start, hands, budget, counts, rngs, obs)
}

/// Plays on from `start` with the players' hands as given, until the round ends or
/// `budget` actions have landed: the lookahead of a searching strategy, which builds a
/// state consistent with its view, lifts its candidate action in it (as the engine
/// would, [`RealtimeRules::lift`]) and hands it over acting. The state's derived data
/// must be up to date ([`RealtimeRules::begin_round`] is not called). Idle hands decide
/// at `start`. Otherwise exactly [`play_round`]'s loop.
#[allow(clippy::too_many_arguments)]
pub fn play_from<R, S, O>(
    rules: &R,
    seats: &Seated<S>,
    s: &mut R::State,
    start: Micros,
    hands: [Hand<R::Action>; MAX_PLAYERS],
    budget: &mut u64,
    counts: &mut RoundCounts,
    rngs: &mut MatchRngs,
    obs: &mut O,
) -> RoundEnd
where
    R: RealtimeRules,
    S: RealtimePolicy<R> + ?Sized,
    O: EngineObserver<R::State, R::Action>,
{
    let n = seats.len();
    let mut round = Round { rules, seats, hands, n, rngs, obs, counts, settled: 0, idle: idle_hands(&hands[..n]) };
    round.run(s, start, budget)
}

/// Marks the players in `busy` as resting until `at` plus their synchronised movement
/// (one hand per seated player in `hands`; the draws come from each player's stream).
fn rest_after_sync<A, S: ?Sized>(hands: &mut [Hand<A>], seats: &Seated<S>, rngs: &mut MatchRngs, busy: [bool; MAX_PLAYERS], at: Micros) {
    for (p, hand) in hands.iter_mut().enumerate().filter(|&(p, _)| busy[p]) {
        *hand = Hand::Resting { until: after(at, seats.reaction(p).motor_time(Motion::Sync, &mut rngs.players[p])) };
    }
}

/// The idle hands of `hands`, bit `p` for hand `p`.
fn idle_hands<A>(hands: &[Hand<A>]) -> u32 {
    hands.iter().enumerate().fold(0, |idle, (p, h)| idle | (matches!(h, Hand::Idle) as u32) << p)
}

/// The players' hands during a round, with what the round's helpers share.
struct Round<'a, R: RealtimeRules, S: ?Sized, O> {
    rules: &'a R,
    seats: &'a Seated<'a, S>,
    hands: [Hand<R::Action>; MAX_PLAYERS],
    n: usize,
    rngs: &'a mut MatchRngs,
    obs: &'a mut O,
    counts: &'a mut RoundCounts,
    /// Idle players (bit `p`) who had no legal move when last asked, with no change
    /// since that touched them ([`RealtimeRules::touched`]): asking them again would
    /// find none, so they are not asked.
    settled: u32,
    /// The idle hands (bit `p`), kept with `hands` ([`Round::set_hand`]) so that the
    /// asking after every event does not look through them.
    idle: u32,
}

/// A move chosen by an idle player: the action, when it lands, and how many legal
/// actions he saw.
type Chosen<A> = Option<(A, Micros, usize)>;

impl<R: RealtimeRules, S: RealtimePolicy<R> + ?Sized, O: EngineObserver<R::State, R::Action>> Round<'_, R, S, O> {
    /// Puts hand `p` in state `h`, keeping the idle set.
    #[inline(always)]
    fn set_hand(&mut self, p: usize, h: Hand<R::Action>) {
        self.idle = self.idle & !(1 << p) | (matches!(h, Hand::Idle) as u32) << p;
        self.hands[p] = h;
    }

    /// The round's event loop from `start`: idle hands decide, then every event in time
    /// order until the round ends or the budget runs out.
    fn run(&mut self, s: &mut R::State, start: Micros, budget: &mut u64) -> RoundEnd {
        let mut now = start;
        self.decide_idle(s, now);
        loop {
            if *budget == 0 || self.counts.illegal.is_some() {
                self.cancel_all(s, now);
                return RoundEnd { time: now, first_out: None, capped: true };
            }
            let Some((p, t)) = next_event(&self.hands[..self.n], &mut self.rngs.chance) else {
                // Every hand is idle: a stall, or a policy broke liveness (SPIT-RT-9).
                if let Some(p) = (0..self.n).find(|&p| self.rules.has_progress(s, p)) {
                    self.obs.on_event(now, EngineEvent::LivenessViolation { player: p }, s);
                    return RoundEnd { time: now, first_out: None, capped: true };
                }
                match self.handle_stall(s, now) {
                    Err(end) => return end,
                    Ok(at) => {
                        now = at;
                        self.decide_idle(s, now);
                        continue;
                    }
                }
            };
            now = t;
            match self.hands[p] {
                Hand::Acting { action, .. } => match self.rules.land(s, p, action, t) {
                    Landing::Rejected => {
                        self.settled &= !self.rules.touched(s, p, action, Change::Rejected);
                        self.counts.rejected += 1;
                        let back = after(t, self.seats.reaction(p).motor_time(Motion::Return, &mut self.rngs.players[p]));
                        self.set_hand(p, Hand::Returning { at: back, action });
                        self.obs.on_event(t, EngineEvent::Rejected { player: p, action }, s);
                    }
                    landing => {
                        self.settled &= !self.rules.touched(s, p, action, Change::Landed);
                        self.counts.landed += 1;
                        *budget -= 1;
                        self.set_hand(p, Hand::Idle);
                        self.obs.on_event(t, EngineEvent::Landed { player: p, action }, s);
                        if landing == Landing::RoundOver {
                            self.cancel_all(s, t);
                            return RoundEnd { time: t, first_out: Some(p), capped: false };
                        }
                        if self.rules.abort_allowed() {
                            self.abort_outdated(s, t);
                        }
                    }
                },
                Hand::Returning { action, .. } => {
                    self.rules.put_back(s, p, action);
                    self.settled &= !self.rules.touched(s, p, action, Change::PutBack);
                    self.set_hand(p, Hand::Idle);
                    self.obs.on_event(t, EngineEvent::Returned { player: p, action }, s);
                }
                Hand::Resting { .. } => self.set_hand(p, Hand::Idle),
                Hand::Idle => unreachable!("idle hands have no events"),
            }
            self.decide_idle(s, now);
            if self.stall_possible(s) {
                // Aimless moves still in flight do not hold off a stall: call them off.
                self.cancel_all(s, now);
            }
        }
    }

    /// True when no progress is pending or possible (SPIT-STALL-1): no progress action
    /// in flight, no card returning, no hand resting, no player with a progress action
    /// once the aimless actions still in flight are imagined undone (a card moved
    /// aimlessly may have been playable where it was), and no aimless action in flight
    /// whose landing would give a player a progress action. Such an action is in
    /// progress (NERTS-STUCK-4: a reset only when no action is in progress), e.g. a
    /// stuck Nerts player's ROTATE that regroups his stock so that a card he needs turns
    /// up; the other aimless actions (flips through a pass that holds nothing, moves
    /// that change nothing) cannot keep a round alive and are called off.
    fn stall_possible(&self, s: &R::State) -> bool {
        let hands = &self.hands[..self.n];
        let mut aimless = 0u32;
        for (p, h) in hands.iter().enumerate() {
            match *h {
                Hand::Idle => {}
                Hand::Acting { action, .. } if !self.rules.is_progress(s, p, action) => aimless |= 1 << p,
                Hand::Acting { .. } | Hand::Returning { .. } | Hand::Resting { .. } => return false,
            }
        }
        if aimless == 0 {
            return false; // every hand is idle: not a stall in flight
        }
        let stuck = |state: &R::State| (0..self.n).all(|p| !self.rules.has_progress(state, p));
        // Rules whose progress ignores the hands' cards answer the same on `s` as on the
        // state with the aimless actions undone: no copy for the usual answer (no stall).
        let ignores_flight = self.rules.progress_ignores_flight();
        if ignores_flight && !stuck(s) {
            #[cfg(debug_assertions)]
            self.check_progress_ignores_flight(s, aimless);
            return false;
        }
        let undone = self.put_back_aimless(s, aimless);
        if ignores_flight {
            debug_assert!(stuck(&undone), "RealtimeRules::progress_ignores_flight, but putting back gave progress");
        } else if !stuck(&undone) {
            return false;
        }
        // Each aimless action landing alone, at its time, on the state with the others undone.
        hands.iter().enumerate().all(|(p, h)| match *h {
            Hand::Acting { at, action } => {
                let mut landed = undone;
                self.rules.lift(&mut landed, p, action);
                self.rules.land(&mut landed, p, action, at);
                stuck(&landed)
            }
            _ => true,
        })
    }

    /// Player `p`'s move on state `s` at time `now`, if he has one and takes it: his
    /// strategy chooses from his legal moves (written into `moves`), and his action time
    /// is drawn from his stream. An action he was not offered is not taken: it is
    /// reported in `counts.illegal`, which stops the round.
    // Inlined at both of `decide_idle`'s asks, as it was at its one ask before: left
    // to itself the compiler calls it, and inlines less of the reaction draws into it.
    #[inline(always)]
    fn choose(&mut self, s: &R::State, p: usize, now: Micros, moves: &mut R::Moves) -> Chosen<R::Action> {
        let rules = self.rules;
        rules.moves(s, p, moves);
        if moves.is_empty() {
            // Not asked again until a change touches him (`decide_idle`).
            self.settled |= 1 << p;
            return None;
        }
        let rng = &mut self.rngs.players[p];
        let index = self.counts.decisions;
        self.counts.decisions += 1;
        let (action, think) = self.seats.choose_timed(rules, s, p, moves, rng);
        let action = action?;
        if !moves.contains(action) {
            self.counts.illegal.get_or_insert(IllegalChoice::new(p, index, format_args!("{action:?}")));
            return None;
        }
        // Counted only for a move taken: how many he saw, for his decision time.
        let options = moves.count();
        let mut took = self.seats.reaction(p).action_time(rules.motion(action), rules.candidates(s, p), options as u32, rng);
        if think > 0.0 {
            // Think time is charged: it delays the action like any other part of it.
            took += think;
        }
        Some((action, after(now, took), options))
    }

    /// Puts player `p`'s chosen action in his hand.
    fn start(&mut self, s: &mut R::State, p: usize, now: Micros, (action, lands, options): (R::Action, Micros, usize)) {
        self.rules.lift(s, p, action);
        self.settled &= !self.rules.touched(s, p, action, Change::Lifted);
        self.set_hand(p, Hand::Acting { at: lands, action });
        self.obs.on_event(now, EngineEvent::Start { player: p, action, lands, options }, s);
    }

    /// Lets every idle player decide at time `now`. All of them decide on the same state
    /// (nobody sees another's card leave before deciding), then their cards are lifted.
    /// Of two choices that conflict ([`RealtimeRules::conflicts`]) public chance keeps
    /// one; the other player decides again once it is lifted. A settled player (no legal
    /// move when last asked, nothing that touched him since) is not asked: he would find
    /// no move again, and an ask without moves draws nothing and calls no strategy.
    fn decide_idle(&mut self, s: &mut R::State, now: Micros) {
        let mut moves = R::Moves::default();
        let mut deciding = self.idle;
        debug_assert_eq!(deciding, idle_hands(&self.hands[..self.n]), "the kept idle hands");
        #[cfg(debug_assertions)]
        self.check_settled(s, deciding);
        deciding &= !self.settled;
        if deciding & deciding.wrapping_sub(1) == 0 {
            // One player (or none) decides: no choice to settle a conflict with, so
            // what the general loop below does with a single decider.
            if deciding != 0 {
                let p = deciding.trailing_zeros() as usize;
                if let Some(c) = self.choose(s, p, now, &mut moves) {
                    self.start(s, p, now, c);
                }
            }
            return;
        }
        while deciding != 0 {
            let mut chosen: [Chosen<R::Action>; MAX_PLAYERS] = [None; MAX_PLAYERS];
            // Who took a move (bit `p`), asked in seat order.
            let mut took: u32 = 0;
            while deciding != 0 {
                let p = deciding.trailing_zeros() as usize;
                deciding &= deciding - 1;
                chosen[p] = self.choose(s, p, now, &mut moves);
                took |= (chosen[p].is_some() as u32) << p;
            }
            if took & took.wrapping_sub(1) != 0 {
                // Two or more moves at one instant: settle conflicts pair by pair.
                for p in 0..self.n {
                    for q in p + 1..self.n {
                        if let (Some((a, ..)), Some((b, ..))) = (chosen[p], chosen[q]) {
                            if self.rules.conflicts(s, p, a, q, b) {
                                let loser = if self.rngs.chance.random::<bool>() { q } else { p };
                                chosen[loser] = None;
                                deciding |= 1 << loser;
                            }
                        }
                    }
                }
            }
            while took != 0 {
                let p = took.trailing_zeros() as usize;
                took &= took - 1;
                if let Some(c) = chosen[p] {
                    self.start(s, p, now, c);
                }
            }
        }
    }

    /// Debug builds: every settled idle player in `idle` still has no legal move (the
    /// rules' [`RealtimeRules::touched`] held everyone a change may have given moves).
    #[cfg(debug_assertions)]
    fn check_settled(&self, s: &R::State, idle: u32) {
        let mut moves = R::Moves::default();
        for p in (0..self.n).filter(|&p| (idle & self.settled) >> p & 1 == 1) {
            self.rules.moves(s, p, &mut moves);
            assert!(moves.is_empty(), "player {p} was not asked again after a change gave him moves (RealtimeRules::touched)");
        }
    }

    /// A copy of `s` with the actions in flight of the players in `aimless` (bit `p`)
    /// put back.
    fn put_back_aimless(&self, s: &R::State, aimless: u32) -> R::State {
        let mut undone = *s;
        for p in (0..self.n).filter(|&p| aimless >> p & 1 == 1) {
            if let Hand::Acting { action, .. } = self.hands[p] {
                self.rules.put_back(&mut undone, p, action);
            }
        }
        undone
    }

    /// Debug builds: every player's progress on `s` is his progress with the aimless
    /// actions of `aimless` (bit `p`) put back, as
    /// [`RealtimeRules::progress_ignores_flight`] says.
    #[cfg(debug_assertions)]
    fn check_progress_ignores_flight(&self, s: &R::State, aimless: u32) {
        let undone = self.put_back_aimless(s, aimless);
        for p in 0..self.n {
            assert_eq!(self.rules.has_progress(s, p), self.rules.has_progress(&undone, p), "player {p}: RealtimeRules::progress_ignores_flight, but putting back changed his progress");
        }
    }

    /// Lets players whose action in flight became illegal call it off: they notice after
    /// a simple reaction time and take the card back, if that is sooner than the landing.
    fn abort_outdated(&mut self, s: &mut R::State, now: Micros) {
        for p in 0..self.n {
            if let Hand::Acting { at, action } = self.hands[p] {
                if self.rules.still_legal(s, p, action, now) {
                    continue;
                }
                let (model, rng) = (self.seats.reaction(p), &mut self.rngs.players[p]);
                let back = after(now, model.recognition_time(rng) + model.motor_time(Motion::Return, rng));
                if back < at {
                    self.set_hand(p, Hand::Returning { at: back, action });
                    self.obs.on_event(now, EngineEvent::Aborted { player: p, action, back }, s);
                }
            }
        }
    }

    /// Calls off every action in flight and every returning card (SPIT-RT-10).
    fn cancel_all(&mut self, s: &mut R::State, now: Micros) {
        self.settled = 0;
        for p in 0..self.n {
            if let Hand::Acting { action, .. } | Hand::Returning { action, .. } = self.hands[p] {
                self.rules.put_back(s, p, action);
                self.obs.on_event(now, EngineEvent::Cancelled { player: p, action }, s);
            }
            self.set_hand(p, Hand::Idle);
        }
    }

    /// Resolves a stall at `now` (SPIT-STALL-2): a synchronised event at the latest
    /// recognition time (returned as `Ok`), or the end of the round (`Err`).
    fn handle_stall(&mut self, s: &mut R::State, now: Micros) -> Result<Micros, RoundEnd> {
        self.obs.on_event(now, EngineEvent::Stalled, s);
        match self.rules.stall(s) {
            Stall::RoundOver => Err(RoundEnd { time: now, first_out: None, capped: false }),
            Stall::Synchronised => {
                let at = (0..self.n).map(|p| after(now, self.seats.reaction(p).recognition_time(&mut self.rngs.players[p]))).max().unwrap_or(now);
                let took_part = synchronise(self.rules, self.seats, s, self.rngs);
                self.settled = 0;
                self.counts.synchronised += 1;
                self.obs.on_event(at, EngineEvent::Synchronised, s);
                rest_after_sync(&mut self.hands[..self.n], self.seats, self.rngs, took_part, at);
                self.idle = idle_hands(&self.hands[..self.n]);
                Ok(at)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::realtime::{Bot, NoDecision};
    use crate::reaction::Preset;

    /// A toy game for two hands on one shared layout: two piles, each taken by one
    /// action at a time; four landed takes end the round.
    #[derive(Clone, Copy, Debug, Default)]
    struct Shared {
        held: [bool; 2],
        landed: u32,
    }
    /// `forgetful`: says no change touches anyone ([`RealtimeRules::touched`]), which is
    /// wrong: a landed take frees its pile for a player who had none.
    struct SharedRules {
        forgetful: bool,
    }
    impl RealtimeRules for SharedRules {
        type State = Shared;
        type Action = usize;
        type Decision = NoDecision;
        type Choice = NoDecision;
        type Moves = ActionList<usize>;
        fn moves(&self, s: &Shared, _: usize, out: &mut ActionList<usize>) {
            out.clear();
            out.extend((0..2).filter(|&j| !s.held[j]));
        }
        fn is_progress(&self, _: &Shared, _: usize, _: usize) -> bool {
            true
        }
        fn has_progress(&self, s: &Shared, _: usize) -> bool {
            s.landed < 4
        }
        fn touched(&self, _: &Shared, _: usize, _: usize, _: Change) -> u32 {
            if self.forgetful { 0 } else { u32::MAX }
        }
        fn motion(&self, _: usize) -> Motion {
            Motion::Play
        }
        fn candidates(&self, _: &Shared, _: usize) -> u32 {
            2
        }
        fn conflicts(&self, _: &Shared, _: usize, a: usize, _: usize, b: usize) -> bool {
            a == b
        }
        fn lift(&self, s: &mut Shared, _: usize, a: usize) {
            assert!(!s.held[a], "pile {a} lifted twice");
            s.held[a] = true;
        }
        fn land(&self, s: &mut Shared, _: usize, a: usize, _: Micros) -> Landing {
            s.held[a] = false;
            s.landed += 1;
            if s.landed == 4 { Landing::RoundOver } else { Landing::Placed }
        }
        fn put_back(&self, s: &mut Shared, _: usize, a: usize) {
            s.held[a] = false;
        }
        fn still_legal(&self, _: &Shared, _: usize, _: usize, _: Micros) -> bool {
            true
        }
        fn abort_allowed(&self) -> bool {
            false
        }
        fn stall(&self, _: &Shared) -> Stall {
            Stall::RoundOver
        }
        fn synchronise(&self, _: &mut Shared, _: &[Option<NoDecision>; MAX_PLAYERS], _: &mut SimRng) -> [bool; MAX_PLAYERS] {
            [false; MAX_PLAYERS]
        }
    }
    /// Always reaches for the first free pile.
    struct First;
    impl RealtimePolicy<SharedRules> for First {
        fn choose(&self, _: &SharedRules, _: &Shared, _: usize, legal: &ActionList<usize>, _: &mut SimRng) -> Option<usize> {
            legal.first().copied()
        }
        fn decide(&self, _: &SharedRules, _: &Shared, _: usize, d: NoDecision, _: &mut SimRng) -> NoDecision {
            match d {}
        }
    }
    /// Records who started which action at time 0.
    struct Starts(Vec<(usize, usize)>);
    impl EngineObserver<Shared, usize> for Starts {
        fn on_event(&mut self, time: Micros, event: EngineEvent<usize>, _: &Shared) {
            if let (0, EngineEvent::Start { player, action, .. }) = (time, event) {
                self.0.push((player, action));
            }
        }
    }

    #[test]
    fn conflicting_choices_at_one_instant_let_one_proceed_and_the_other_choose_again() {
        let bot = Bot { strategy: Box::new(First), reaction: Preset::Skilled.model() };
        let seats = Seated::new(&[&bot, &bot]);
        let mut first_pile_to = [0; 2];
        for seed in 0..40 {
            let mut s = Shared::default();
            let mut starts = Starts(Vec::new());
            let (mut budget, mut counts) = (100, RoundCounts::default());
            let end = play_round(&SharedRules { forgetful: false }, &seats, &mut s, 0, [false; MAX_PLAYERS], &mut budget, &mut counts, &mut MatchRngs::of_deal(seed), &mut starts);
            assert_eq!((end.capped, counts.landed), (false, 4));
            // Both reached for pile 0 on the same state; one keeps it, the other takes pile 1.
            let mut piles: Vec<usize> = starts.0.iter().map(|&(_, a)| a).collect();
            piles.sort();
            assert_eq!(piles, [0, 1], "seed {seed}: {:?}", starts.0);
            let winner = starts.0.iter().find(|&&(_, a)| a == 0).unwrap().0;
            first_pile_to[winner] += 1;
        }
        assert!(first_pile_to.iter().all(|&k| k > 5), "public chance, not the seat, settles a conflict: {first_pile_to:?}");
    }

    /// Three players on two piles: whoever reaches for a held pile has no move and is
    /// settled until a take lands and frees it.
    fn three_on_two_piles(forgetful: bool) -> RoundCounts {
        let bot = Bot { strategy: Box::new(First), reaction: Preset::Skilled.model() };
        let seats = Seated::new(&[&bot, &bot, &bot]);
        let mut counts = RoundCounts::default();
        for seed in 0..40 {
            let (mut s, mut budget) = (Shared::default(), 100);
            let end = play_round(&SharedRules { forgetful }, &seats, &mut s, 0, [false; MAX_PLAYERS], &mut budget, &mut counts, &mut MatchRngs::of_deal(seed), &mut ());
            assert!(!end.capped && end.first_out.is_some(), "seed {seed}: {end:?}");
        }
        counts
    }

    #[test]
    fn a_player_without_moves_is_asked_again_once_a_change_touches_him() {
        let counts = three_on_two_piles(false);
        assert_eq!(counts.landed, 4 * 40);
    }

    /// The debug check of the settled players against their moves (`check_settled`)
    /// catches rules whose `touched` leaves out a player a change gave moves.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "RealtimeRules::touched")]
    fn a_touched_set_that_leaves_out_a_player_with_new_moves_is_caught() {
        three_on_two_piles(true);
    }
}
