//! Running the special rules in force: [`Ruled`] is an observer that passes every event
//! on and, when the engine reaches a hook point, runs the matching hooks of the rules in
//! force, asking the bots for the choices their effects leave to a player.
//!
//! Choices use the chooser's own dice (its seat's stream in a session). Hooks fire in the
//! order the rules were made; a hook chain deeper than the book's `max_depth` is cut off
//! (LOPTI-MAKE-SIM-1) and reported as [`Event::HookDepthLimit`].

use super::{Amount, Cond, Direction, Effect, InForce, Role, RuleBook, MAX_PARAMS, MAX_RULES};
use crate::games::lopti::events::{Event, HookEvent, Hooked, NoObserver, Observer, When};
use crate::games::lopti::ranks::THREE;
use crate::games::lopti::round::{self, replay_quietly, Dice, Round, Seats, MEMORY};
use crate::games::lopti::state::{Phase, State};
use crate::games::lopti::strategies::Strategy;
use crate::rng::rng_from;
use crate::runner::IllegalChoice;
use crate::games::lopti::entry::MAX_SEATS;
use arrayvec::ArrayVec;

/// How often each rule in force fired, and how often the depth limit cut a chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fired {
    /// Per rule in force (index into [`RuleBook::rules`]): hooks run.
    pub by_rule: [u32; MAX_RULES],
    /// Hook runs skipped at the depth limit.
    pub depth_limited: u32,
}

/// An observer that runs the hooks of the rules in `book`, passing every event to `inner`.
pub struct Ruled<'a, O: Observer> {
    /// The observer events go to.
    pub inner: &'a mut O,
    /// The rules in force and the round's roles.
    pub book: &'a RuleBook,
    /// The bots by seat, with their dice (they make the choices effects leave to a
    /// player).
    pub seats: Seats<'a>,
    /// What fired.
    pub fired: Fired,
    /// Set when a bot chose an action it was not offered; the round stopped there, capped.
    pub illegal: Option<IllegalChoice>,
    depth: u8,
}

impl<'a, O: Observer> Ruled<'a, O> {
    /// Runs `book`'s rules with `bots` (by seat) choosing with `dice`, events to `inner`.
    pub fn new(inner: &'a mut O, book: &'a RuleBook, bots: &'a [&'a dyn Strategy], dice: Dice<'a>) -> Self {
        Ruled { inner, book, seats: Seats::new(bots, dice), fired: Fired::default(), illegal: None, depth: 0 }
    }

    /// Plays a dealt round to its end with the rules in force, as
    /// [`play_round`](crate::games::lopti::round::play_round) does without them: setup
    /// swaps, then turns, deterministic bots stopped at a repeated position. A choice a
    /// bot was not offered stops the round, capped; the first report is kept in
    /// [`Ruled::illegal`].
    pub fn play(&mut self, state: &mut State) {
        if let Err(report) = round::play::<_, MEMORY>(state, self) {
            self.illegal.get_or_insert(report);
        }
    }

    /// Holds the hooks of event `info` (`when`) on `state`: used by the session layer for
    /// `RULE_VOTE`; the engine calls [`Observer::hook`] itself for the others.
    pub fn fire(&mut self, state: &mut State, when: When, info: &Hooked) {
        self.hook(state, when, info);
    }

    fn run_effect(&mut self, state: &mut State, r: &InForce, e: &Effect, info: &Hooked) {
        let params = r.params;
        match *e {
            Effect::Draw { who, cards } => {
                for seat in targets(state, self.book, who, info) {
                    for _ in 0..cards.value(&params) {
                        state.rule_draw(seat, self);
                    }
                }
            }
            Effect::Give { who, to, cards } => {
                for seat in targets(state, self.book, who, info) {
                    for _ in 0..cards.value(&params) {
                        let Some(receiver) = neighbour(state, seat, to) else { break };
                        if !can_give(state, seat) {
                            break;
                        }
                        let rank = self.seats.give(state, seat);
                        state.rule_give(seat, receiver, rank, self);
                    }
                }
            }
            Effect::PassAll { who, dir } => {
                let mut moves: ArrayVec<(u8, u8, u8), MAX_SEATS> = ArrayVec::new();
                for seat in targets(state, self.book, who, info) {
                    if let (Some(receiver), true) = (neighbour(state, seat, dir), can_give(state, seat)) {
                        let rank = self.seats.give(state, seat);
                        moves.push((seat, receiver, rank));
                    }
                }
                for (from, to, rank) in moves {
                    state.rule_give(from, to, rank, self);
                }
            }
            Effect::SwapOwn { who } => {
                for seat in targets(state, self.book, who, info) {
                    let p = &state.players[seat as usize];
                    if p.hand.is_empty() || p.face_up.is_empty() {
                        continue;
                    }
                    if let Some(swap) = self.seats.rule_swap(state, seat) {
                        let p = &state.players[seat as usize];
                        if p.hand.count(swap.hand) > 0 && p.face_up.count(swap.face_up) > 0 {
                            state.rule_swap(seat, swap, self);
                        }
                    }
                }
            }
            Effect::Clear => {
                if let Some(actor) = info.actor {
                    state.rule_clear(actor, self);
                }
            }
            // Rejected when the rule was loaded (`validate`): never in force.
            Effect::SkipDraw { .. }
            | Effect::SkipTurn { .. }
            | Effect::ReturnPlay
            | Effect::CancelClear
            | Effect::CancelBonus
            | Effect::CancelVote
            | Effect::ChangeVoting
            | Effect::Undo => unreachable!("validate rejects {e:?}"),
        }
    }
}

/// True if `seat` may give a hand card: it holds one and will still hold a card after.
fn can_give(state: &State, seat: u8) -> bool {
    let p = &state.players[seat as usize];
    !state.is_out(seat) && !p.hand.is_empty() && p.cards() >= 2
}

/// A player who can take part in a rule's actions: not out, holding cards.
fn active(state: &State, seat: u8) -> bool {
    seat < state.n && !state.is_out(seat) && state.players[seat as usize].cards() > 0
}

/// The next (or previous) active player from `seat`, if it is someone else.
fn neighbour(state: &State, seat: u8, dir: Direction) -> Option<u8> {
    let n = state.n;
    (1..n)
        .map(|k| match dir {
            Direction::Next => (seat + k) % n,
            Direction::Previous => (seat + n - k) % n,
        })
        .find(|&s| active(state, s))
}

/// The seat holding round role `role`, if any.
fn role_seat(state: &State, book: &RuleBook, role: Role) -> Option<u8> {
    match role {
        Role::Dealer => Some(book.dealer),
        Role::LastWinner => book.last_winner,
        Role::Obligated => state.obligation,
        Role::OnTurn => (state.phase == Phase::Play).then_some(state.current),
        _ => None,
    }
}

/// The players an effect's `who` names, in turn order from the event's player.
fn targets(state: &State, book: &RuleBook, who: Role, info: &Hooked) -> ArrayVec<u8, MAX_SEATS> {
    let mut out = ArrayVec::new();
    let from = info.actor.unwrap_or(state.current);
    let n = state.n;
    let clockwise = (0..n).map(move |k| (from + k) % n);
    match who {
        Role::Actor => out.extend(info.actor.filter(|&a| active(state, a))),
        Role::Next => out.extend(neighbour(state, from, Direction::Next)),
        Role::Previous => out.extend(neighbour(state, from, Direction::Previous)),
        Role::EveryOther => out.extend(clockwise.filter(|&s| s != from && active(state, s))),
        Role::Everyone => out.extend(clockwise.filter(|&s| active(state, s))),
        Role::Dealer | Role::LastWinner | Role::Obligated | Role::OnTurn => {
            out.extend(role_seat(state, book, who).filter(|&s| active(state, s)))
        }
        Role::Seat(_) | Role::Maker => unreachable!("validate rejects rules that name a person"),
    }
    out
}

/// True if the top `plays` plays of the pile end with the event's play and satisfy `each`
/// pair (lower, upper).
fn top_plays(state: &State, info: &Hooked, plays: u8, ok: impl Fn((u8, u8), (u8, u8)) -> bool, first: impl Fn((u8, u8)) -> bool) -> bool {
    let (Some(rank), count) = (info.rank, info.count) else { return false };
    if rank == THREE || state.pile.top() != Some((rank, count)) || plays == 0 {
        return false;
    }
    let all: ArrayVec<(u8, u8), { crate::games::lopti::pile::MAX_PLAYS }> = state.pile.plays().collect();
    if all.len() < plays as usize {
        return false;
    }
    let row = &all[all.len() - plays as usize..];
    row.iter().all(|&p| first(p)) && row.windows(2).all(|w| ok(w[0], w[1]))
}

fn holds(state: &State, book: &RuleBook, c: &Cond, params: &[u8; MAX_PARAMS], info: &Hooked) -> bool {
    let v = |a: Amount| a.value(params);
    match *c {
        Cond::Rank(set) => info.rank.is_some_and(|r| set.has(r)),
        Cond::RankParam(i) => info.rank == Some(params[i as usize]),
        Cond::MinCount(a) => {
            let n = match info.event {
                HookEvent::Play | HookEvent::BonusPlay => info.count as u32,
                _ => info.cards.len(),
            };
            n >= v(a) as u32
        }
        Cond::Cause(c) => info.cause == Some(c),
        Cond::RevealLegal(b) => info.legal == Some(b),
        Cond::DrawPileEmpty(b) => state.draw.is_empty() == b,
        Cond::ActorIs(role) => info.actor.is_some() && role_seat(state, book, role) == info.actor,
        Cond::EqualCounts { plays, min_cards } => {
            let min = v(min_cards);
            top_plays(state, info, v(plays), |a, b| a.1 == b.1, |p| p.1 >= min)
        }
        Cond::Straight { plays } => top_plays(state, info, v(plays), |a, b| b.0 == a.0 + 1, |_| true),
        Cond::VotePassed(b) => info.passed == Some(b),
        Cond::SeatIs(_) | Cond::ActorIsMaker => unreachable!("validate rejects conditions on a person"),
    }
}

impl<'a, O: Observer> Round<'a> for Ruled<'a, O> {
    fn seats(&mut self) -> &mut Seats<'a> {
        &mut self.seats
    }

    fn replay(&self, from: &State, turn: u32) -> State {
        let mut unused = rng_from(0);
        let mut quiet = NoObserver;
        replay_quietly(&mut Ruled::new(&mut quiet, self.book, self.seats.bots(), Dice::Shared(&mut unused)), from, turn)
    }
}

impl<O: Observer> Observer for Ruled<'_, O> {
    const HOOKS: bool = true;

    fn event(&mut self, state: &State, ev: Event) {
        self.inner.event(state, ev);
    }

    fn resolved(&mut self, state: &State) {
        self.inner.resolved(state);
    }

    fn hook(&mut self, state: &mut State, when: When, info: &Hooked) {
        let book = self.book;
        for (i, r) in book.rules.iter().enumerate() {
            let def = book.def(r);
            for h in def.hooks.iter().filter(|h| h.when == when && h.event == info.event) {
                if !h.conds.iter().all(|c| holds(state, book, c, &r.params, info)) {
                    continue;
                }
                if self.depth >= book.max_depth {
                    self.fired.depth_limited += 1;
                    self.inner.event(state, Event::HookDepthLimit { event: info.event });
                    continue;
                }
                self.fired.by_rule[i] += 1;
                self.inner.event(state, Event::RuleFires { rule: def.id, when, event: info.event, actor: info.actor });
                self.depth += 1;
                for e in h.effects {
                    self.run_effect(state, r, e, info);
                }
                self.depth -= 1;
            }
        }
    }
}
