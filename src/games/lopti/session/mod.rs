//! Lopti sessions (lopti.md §13-16): rounds with the dealer moving clockwise, the winner
//! of each round making a special rule, one Rule Vote per round, ties settled by
//! Rock-Paper-Scissors.
//!
//! A session of `rounds` rounds (or until a player has `target_wins` wins):
//! 1. Round `r`'s dealer is seat `(r - 1) mod n`; the dealer plays first in round 1, the
//!    previous round's winner later (LOPTI-SETUP-5; the dealer if that round had no winner).
//! 2. Changes voted "from the next round" take effect; the cards are dealt with the rules
//!    in force.
//! 3. The previous round's winner makes a rule through its rule-making strategy; it is in
//!    force from the end of this deal, so it covers the swaps (LOPTI-MAKE-1, LOPTI-MAKE-2,
//!    one rule per win, LOPTI-AMB-14). It needs no vote and does not use the round's vote
//!    (LOPTI-VOTE-3). Makers may then withdraw rules of their own (LOPTI-MAKE-7).
//! 4. The Rule Vote (LOPTI-VOTE-1): the players, clockwise from the starter, are asked in
//!    turn for a proposal; the first one is put to the vote; everyone votes (LOPTI-VOTE-4);
//!    a tie goes to Rock-Paper-Scissors (LOPTI-VOTE-5, §15). The vote is held here, before
//!    the swaps: "between turns" (LOPTI-AMB-13). A passed change applies at once or from
//!    the next round, as its proposer said (LOPTI-VOTE-6).
//! 5. The round is played with the rules in force; its winner is recorded.
//!
//! Chance comes from the session's seed (deals, hidden cards, knockout brackets); each
//! bot's decisions (play, rule choices, votes, RPS) from its seat's streams, as in a match.

pub mod command;
pub mod meta;
pub mod protocol;
pub mod rps;
pub mod stats;
pub mod vote;

use self::meta::{Maker, MetaView, ValueTable, Voter};
use self::rps::RpsStrategy;
use self::vote::{Ballot, Change, Count, Proposal, TieBreak, TieReading, Timing};
use super::config::{DrawTiming, Rules, SevenOnSeven, SwapOrder, BASE_FLAGS};
use super::events::{HookEvent, Hooked, NoObserver, Observer, When};
use super::special::run::{Fired, Ruled};
use super::special::{Catalog, InForce, RuleBook, MAX_PARAMS};
use super::round::Dice;
use super::state::State;
use super::strategies::Strategy;
use crate::rng::{mix, rng_from, MatchSeeds, SimRng};
use crate::runner::{MatchRecord, MAX_SEATS};
use crate::settings::{FlagDef, FlagKind, Needs, Settings};
use crate::trace::TraceEvent;
use arrayvec::ArrayVec;
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// The session decisions of lopti.md §20 and the session limits, as flags.
const OWN_FLAGS: [FlagDef; 8] = [
    FlagDef {
        key: "lopti.rps_knockout",
        kind: FlagKind::Choice(&["select_representative", "decide_dispute"]),
        default: "select_representative",
        doc: "LOPTI-RPS-4 / AMB-12: a side that cannot agree on a representative plays a knockout to choose one, or a knockout among both sides decides the dispute",
        needs: None,
    },
    FlagDef {
        key: "lopti.vote_count",
        kind: FlagKind::Choice(&["all_participants", "among_voters"]),
        default: "all_participants",
        doc: "LOPTI-VOTE-9 / AMB-10: a tie is yes = N/2 of all participants, or yes = no among those voting (a vote passes only with yes > N/2 either way)",
        needs: None,
    },
    FlagDef {
        key: "lopti.unopposed_tie",
        kind: FlagKind::Choice(&["passes", "fails"]),
        default: "passes",
        doc: "LOPTI-RPS-1 / AMB-20: a tied vote on a basic rule that nobody formally opposed passes without RPS, or fails",
        needs: None,
    },
    FlagDef {
        key: "lopti.own_rule_tie",
        kind: FlagKind::Choice(&["supporters_defend", "passes"]),
        default: "supporters_defend",
        doc: "LOPTI-RPS-1 / AMB-21: when a maker proposes a change to his own rule and the vote ties, its other supporters choose a defender, or the change passes",
        needs: None,
    },
    FlagDef {
        key: "lopti.returning_rules",
        kind: FlagKind::Choice(&["per_rule", "together"]),
        default: "per_rule",
        doc: "LOPTI-SESSION-2 / AMB-18: rules of the previous session of a series come back by one setup vote each, or by one vote on all of them (with session.series above 1)",
        needs: Some(Needs { key: "session.series", when: |v| v != "1", text: "session.series above 1" }),
    },
    FlagDef {
        key: "lopti.hook_depth",
        kind: FlagKind::Int { min: 1, max: 64 },
        default: "8",
        doc: "LOPTI-MAKE-SIM-1: most nested special-rule hooks (a hook whose effect sets off hooks ...)",
        needs: None,
    },
    FlagDef {
        key: "session.series",
        kind: FlagKind::Int { min: 1, max: 1000 },
        default: "1",
        doc: "sessions per series: each later session of a series starts with setup votes on the rules in force at the end of the one before (LOPTI-SESSION-2); 1 = independent sessions",
        needs: None,
    },
    FlagDef {
        key: "session.quick_rounds",
        kind: FlagKind::Int { min: 1, max: 10_000_000 },
        default: "1200",
        doc: "rounds per rule variant in the selfish strategies' quick simulation (a bot budget, not a rule)",
        needs: None,
    },
];

const fn all_flags() -> [FlagDef; BASE_FLAGS.len() + OWN_FLAGS.len()] {
    let mut out = [OWN_FLAGS[0]; BASE_FLAGS.len() + OWN_FLAGS.len()];
    let mut i = 0;
    while i < BASE_FLAGS.len() {
        out[i] = BASE_FLAGS[i];
        i += 1;
    }
    while i < out.len() {
        out[i] = OWN_FLAGS[i - BASE_FLAGS.len()];
        i += 1;
    }
    out
}

/// Every flag a session accepts: the base game's and the session's.
pub static SESSION_FLAGS: [FlagDef; BASE_FLAGS.len() + OWN_FLAGS.len()] = all_flags();

/// The session decisions in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionFlags {
    /// `lopti.rps_knockout=decide_dispute`.
    pub knockout_decides: bool,
    /// `lopti.vote_count`.
    pub tie_reading: TieReading,
    /// `lopti.unopposed_tie=passes`.
    pub unopposed_tie_passes: bool,
    /// `lopti.own_rule_tie=supporters_defend`.
    pub own_rule_supporters_defend: bool,
    /// `lopti.returning_rules=together`.
    pub returning_together: bool,
    /// `lopti.hook_depth`.
    pub hook_depth: u8,
    /// `session.series`.
    pub series: u32,
    /// `session.quick_rounds`.
    pub quick_rounds: u64,
}

impl Default for SessionFlags {
    fn default() -> Self {
        SessionFlags::from_settings(&Settings::parse(&SESSION_FLAGS, &[]).expect("defaults parse"))
    }
}

impl SessionFlags {
    /// Reads typed settings (parsed and checked once by [`Settings::parse`]).
    pub fn from_settings(s: &Settings) -> SessionFlags {
        SessionFlags {
            knockout_decides: s.get_choice("lopti.rps_knockout", &[("select_representative", false), ("decide_dispute", true)]),
            tie_reading: s.get_choice("lopti.vote_count", &[("all_participants", TieReading::AllParticipants), ("among_voters", TieReading::AmongVoters)]),
            unopposed_tie_passes: s.get_choice("lopti.unopposed_tie", &[("passes", true), ("fails", false)]),
            own_rule_supporters_defend: s.get_choice("lopti.own_rule_tie", &[("supporters_defend", true), ("passes", false)]),
            returning_together: s.get_choice("lopti.returning_rules", &[("per_rule", false), ("together", true)]),
            hook_depth: s.get_int("lopti.hook_depth") as u8,
            series: s.get_int("session.series") as u32,
            quick_rounds: s.get_int("session.quick_rounds"),
        }
    }
}

/// A basic rule a Rule Vote may change for the session (LOPTI-VOTE-2): one of the
/// `lopti.*` flags flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BasicFlag {
    /// `lopti.seven_on_seven`.
    SevenFree,
    /// `lopti.draw_timing`.
    DrawEndOfTurn,
    /// `lopti.empty_clear_bonus`.
    EmptyClearBonus,
    /// `lopti.facedown_may_pickup`.
    FacedownPickup,
    /// `lopti.bonus_optional`.
    BonusOptional,
    /// `lopti.swap_order`.
    SwapOrder,
}

/// The basic rules a vote may flip, with their flag names.
pub const BASIC_FLAGS: [(&str, BasicFlag, &str); 6] = [
    ("seven_on_seven", BasicFlag::SevenFree, "7s on 7s: equal_more <-> free"),
    ("draw_timing", BasicFlag::DrawEndOfTurn, "before_bonus <-> end_of_turn"),
    ("empty_clear_bonus", BasicFlag::EmptyClearBonus, "true <-> false"),
    ("facedown_may_pickup", BasicFlag::FacedownPickup, "false <-> true"),
    ("bonus_optional", BasicFlag::BonusOptional, "false <-> true"),
    ("swap_order", BasicFlag::SwapOrder, "simultaneous <-> clockwise_from_starter"),
];

impl BasicFlag {
    /// The flag's name without `lopti.`.
    pub fn name(self) -> &'static str {
        BASIC_FLAGS.iter().find(|f| f.1 == self).map(|f| f.0).expect("listed")
    }
    /// True if the flag has its non-default value in `r`.
    pub fn is_set(self, r: &Rules) -> bool {
        match self {
            BasicFlag::SevenFree => r.seven_on_seven == SevenOnSeven::Free,
            BasicFlag::DrawEndOfTurn => r.draw_timing == DrawTiming::EndOfTurn,
            BasicFlag::EmptyClearBonus => !r.empty_clear_bonus,
            BasicFlag::FacedownPickup => r.facedown_may_pickup,
            BasicFlag::BonusOptional => r.bonus_optional,
            BasicFlag::SwapOrder => r.swap_order == SwapOrder::ClockwiseFromStarter,
        }
    }
    /// Flips the flag in `r`.
    pub fn toggle(self, r: &mut Rules) {
        match self {
            BasicFlag::SevenFree => {
                r.seven_on_seven = if r.seven_on_seven == SevenOnSeven::Free { SevenOnSeven::EqualMore } else { SevenOnSeven::Free }
            }
            BasicFlag::DrawEndOfTurn => {
                r.draw_timing = if r.draw_timing == DrawTiming::EndOfTurn { DrawTiming::BeforeBonus } else { DrawTiming::EndOfTurn }
            }
            BasicFlag::EmptyClearBonus => r.empty_clear_bonus = !r.empty_clear_bonus,
            BasicFlag::FacedownPickup => r.facedown_may_pickup = !r.facedown_may_pickup,
            BasicFlag::BonusOptional => r.bonus_optional = !r.bonus_optional,
            BasicFlag::SwapOrder => {
                r.swap_order = if r.swap_order == SwapOrder::Simultaneous { SwapOrder::ClockwiseFromStarter } else { SwapOrder::Simultaneous }
            }
        }
    }
}

/// A player of a session: a Lopti bot and its meta-game strategies.
pub struct SessionBot {
    /// Label (the canonical spec, e.g. `lowest` or `lowest,maker=random`).
    pub label: String,
    /// The Lopti strategy's name.
    pub strategy: String,
    /// Plays the rounds.
    pub play: Box<dyn Strategy>,
    /// For an external bot (`exec:`), the bot `play` asks: each round is one match of
    /// the protocol for it.
    pub external: Option<Arc<crate::external::ExternalBot>>,
    /// Makes rules.
    pub maker: Maker,
    /// Proposes and votes.
    pub voter: Voter,
    /// Plays Rock-Paper-Scissors.
    pub rps: RpsStrategy,
}

/// Everything fixed for a run of sessions.
pub struct Table {
    /// The bots, sorted by label (bot index = position).
    pub bots: Vec<SessionBot>,
    /// The basic rules every session starts from (LOPTI-SESSION-1).
    pub rules: Rules,
    /// Session decisions.
    pub flags: SessionFlags,
    /// The special rules a winner may make.
    pub catalog: Arc<Catalog>,
    /// Rounds per session.
    pub rounds: u16,
    /// A session also ends when a player has this many wins (0: no such end).
    pub target_wins: u16,
    /// The quick simulation's value tables (when a selfish strategy needs them; empty
    /// otherwise): one per block of groups, each drawn from its own seed, so that the
    /// intervals, with the block as the unit, count the tables' own noise
    /// ([`Table::values_of_group`], `command::QUICK_TABLES`).
    pub values: Vec<ValueTable>,
    /// Per bot, its rank among identical bots (separate player streams).
    pub twin: Vec<usize>,
}

impl Table {
    /// The value table the sessions of group `g` use: block `g % tables`.
    pub fn values_of_group(&self, g: u64) -> Option<&ValueTable> {
        (!self.values.is_empty()).then(|| &self.values[(g % self.values.len() as u64) as usize])
    }
}

/// How a special rule's time in force ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleEnd {
    /// Still in force when the session ended.
    InForce,
    /// Removed by a Rule Vote.
    VotedAway,
    /// Withdrawn by its maker (LOPTI-MAKE-7).
    Withdrawn,
}

/// The life of one special rule in a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleLog {
    /// Its serial (1, 2, ...).
    pub serial: u16,
    /// Catalog index.
    pub rule: u8,
    /// Parameters (the latest).
    pub params: [u8; MAX_PARAMS],
    /// Its maker's seat.
    pub maker: u8,
    /// The round whose win made it (0: it came back from an earlier session).
    pub made_after: u16,
    /// Rounds played with it in force.
    pub rounds_in_force: u16,
    /// Of those, rounds its maker won.
    pub maker_wins: u16,
    /// Of those, rounds right after a round its maker won (he plays first in them).
    pub after_maker_win: u16,
    /// Of those, rounds somebody won.
    pub decided: u16,
    /// Times a vote removed it.
    pub voted_away: u8,
    /// Times a vote changed it.
    pub changed: u8,
    /// Times a vote brought it back.
    pub restored: u8,
    /// How its last stretch in force ended.
    pub end: RuleEnd,
    /// Hooks it ran.
    pub fired: u32,
    /// It came back from the previous session of a series (LOPTI-SESSION-2).
    pub returned: bool,
}

/// One Rule Vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VoteLog {
    /// The round.
    pub round: u16,
    /// The proposer's seat.
    pub proposer: u8,
    /// The change and its timing.
    pub proposal: Proposal,
    /// The count.
    pub count: Count,
    /// The change passed.
    pub passed: bool,
    /// A tie was settled without RPS (nobody defended, or `unopposed_tie=fails`).
    pub unopposed: bool,
    /// RPS was played: (the proposer's side won, sudden death, knockouts held, throws, decisive throws).
    pub rps: Option<RpsLog>,
}

/// The Rock-Paper-Scissors of a tied vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RpsLog {
    /// The proposer's side won.
    pub proposer_won: bool,
    /// The 30-throw match went to sudden death.
    pub sudden_death: bool,
    /// A knockout was held.
    pub knockout: bool,
    /// Throws in all (knockout included).
    pub throws: u32,
    /// Decisive throws in all.
    pub decisive: u32,
    /// A throw had to be settled by the coin (harness limit).
    pub stalled: bool,
}

/// What one session did.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionRecord {
    /// The bot in each seat.
    pub seat_bots: [usize; MAX_SEATS],
    /// Each round's winner (seat), `None` for a capped or cycled round.
    pub winners: Vec<Option<u8>>,
    /// Rounds stopped at the turn cap.
    pub capped: u16,
    /// Rounds stopped as cycled.
    pub cycled: u16,
    /// Every rule made or brought back, by serial - 1.
    pub logs: Vec<RuleLog>,
    /// Every Rule Vote.
    pub votes: Vec<VoteLog>,
    /// Setup votes on returning rules held, and rules that came back (LOPTI-SESSION-2).
    pub setup_votes: (u16, u16),
    /// The rules in force at the end (for the next session of a series).
    pub end_rules: Vec<InForce>,
    /// The seat with the most round wins, if only one has the most.
    pub session_winner: Option<u8>,
    /// Hook runs cut at the depth limit.
    pub depth_limited: u32,
    /// A bot chose an action it was not offered, in this round: the round stopped there
    /// (capped) and so did the session.
    pub illegal: Option<(u16, crate::runner::IllegalChoice)>,
}

/// An observer of a whole session: the rounds' events (as an [`Observer`]) and the
/// session's own (rules made, votes, every RPS throw).
pub trait SessionObserver: Observer {
    /// True if [`note`](SessionObserver::note) wants events (building them costs time).
    fn tracing(&self) -> bool {
        false
    }
    /// A session event.
    fn note(&mut self, _ev: TraceEvent) {}
}

impl SessionObserver for NoObserver {}

/// Domain tags of the session's seeds.
const TAG_ROUND: u64 = 0x726F_756E; // "roun"
const TAG_META: u64 = 0x6D65_7461; // "meta"
const TAG_CHANCE: u64 = 0x7363_6861; // "scha"

fn event(kind: &'static str, seat: Option<u8>, detail: Value, text: String) -> TraceEvent {
    let detail = match detail {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    TraceEvent { time: None, seat: seat.map(|s| s as usize), kind, detail, text }
}

/// Two distinct elements of a slice, mutably.
fn two_mut<T>(v: &mut [T], i: usize, j: usize) -> (&mut T, &mut T) {
    assert_ne!(i, j);
    if i < j {
        let (a, b) = v.split_at_mut(j);
        (&mut a[i], &mut b[0])
    } else {
        let (a, b) = v.split_at_mut(i);
        (&mut b[0], &mut a[j])
    }
}

/// A session being played.
struct Live<'t> {
    table: &'t Table,
    values: Option<&'t ValueTable>,
    n: u8,
    seat_bots: [usize; MAX_SEATS],
    book: RuleBook,
    basic: Rules,
    logs: Vec<RuleLog>,
    removed: Vec<u16>,
    pending: Vec<Change>,
    meta: ArrayVec<SimRng, MAX_SEATS>,
    /// The seeds of `meta` (an external bot that throws its own rock-paper-scissors gets
    /// its seat's).
    meta_seeds: ArrayVec<u64, MAX_SEATS>,
    /// Per seat, rock-paper-scissors throws its external bot was asked this session.
    rps_asked: [u32; MAX_SEATS],
    chance: SimRng,
    votes: Vec<VoteLog>,
    depth_limited: u32,
}

impl<'t> Live<'t> {
    fn bot(&self, seat: u8) -> &'t SessionBot {
        &self.table.bots[self.seat_bots[seat as usize]]
    }

    fn view(&self, seat: u8) -> MetaView<'_> {
        MetaView {
            seat,
            bot: self.seat_bots[seat as usize],
            n: self.n,
            book: &self.book,
            logs: &self.logs,
            removed: &self.removed,
            basic: self.basic,
            start: self.table.rules,
            values: self.values,
        }
    }

    fn rule_name(&self, rule: u8, params: &[u8; MAX_PARAMS]) -> String {
        self.book.catalog.rules[rule as usize].show(params)
    }

    fn change_text(&self, c: Change) -> String {
        match c {
            Change::Remove { serial } => format!("remove #{serial} {}", self.serial_name(serial)),
            Change::Modify { serial, params } => format!("change #{serial} {} to {}", self.serial_name(serial), self.rule_name(self.logs[serial as usize - 1].rule, &params)),
            Change::Restore { serial } => format!("bring back #{serial} {}", self.serial_name(serial)),
            Change::Basic { flag } => {
                let mut r = self.basic;
                flag.toggle(&mut r);
                format!("set lopti.{}={}", flag.name(), basic_value(flag, &r))
            }
        }
    }

    fn serial_name(&self, serial: u16) -> String {
        let l = &self.logs[serial as usize - 1];
        self.rule_name(l.rule, &l.params)
    }

    fn credit(&mut self, fired: &Fired) {
        for (i, r) in self.book.rules.iter().enumerate() {
            self.logs[r.serial as usize - 1].fired += fired.by_rule[i];
        }
        self.depth_limited += fired.depth_limited;
    }

    fn in_force_names(&self) -> Vec<String> {
        self.book.rules.iter().map(|r| format!("#{} {}", r.serial, self.rule_name(r.rule, &r.params))).collect()
    }

    /// Adds a rule to the book (if there is room) and logs it.
    fn add_rule(&mut self, rule: u8, params: [u8; MAX_PARAMS], maker: u8, made_after: u16, returned: bool) -> Option<u16> {
        if self.book.rules.is_full() {
            return None;
        }
        let serial = self.logs.len() as u16 + 1;
        self.book.rules.push(InForce { rule, params, maker, created_round: made_after, serial });
        self.logs.push(RuleLog {
            serial,
            rule,
            params,
            maker,
            made_after,
            rounds_in_force: 0,
            maker_wins: 0,
            after_maker_win: 0,
            decided: 0,
            voted_away: 0,
            changed: 0,
            restored: 0,
            end: RuleEnd::InForce,
            fired: 0,
            returned,
        });
        Some(serial)
    }

    /// Applies a passed change (to the round's state too when `state` is given).
    fn apply(&mut self, change: Change, state: Option<&mut State>) {
        match change {
            Change::Remove { serial } => {
                if let Some(i) = self.book.rules.iter().position(|r| r.serial == serial) {
                    self.book.rules.remove(i);
                    let l = &mut self.logs[serial as usize - 1];
                    l.voted_away += 1;
                    l.end = RuleEnd::VotedAway;
                    self.removed.push(serial);
                }
            }
            Change::Modify { serial, params } => {
                if let Some(r) = self.book.rules.iter_mut().find(|r| r.serial == serial) {
                    r.params = params;
                    let l = &mut self.logs[serial as usize - 1];
                    l.params = params;
                    l.changed += 1;
                }
            }
            Change::Restore { serial } => {
                if self.removed.contains(&serial) && !self.book.rules.is_full() {
                    self.removed.retain(|&s| s != serial);
                    let l = &mut self.logs[serial as usize - 1];
                    l.restored += 1;
                    l.end = RuleEnd::InForce;
                    let (rule, params, maker, made_after) = (l.rule, l.params, l.maker, l.made_after);
                    self.book.rules.push(InForce { rule, params, maker, created_round: made_after, serial });
                }
            }
            Change::Basic { flag } => {
                flag.toggle(&mut self.basic);
                if let Some(st) = state {
                    flag.toggle(&mut st.rules);
                }
            }
        }
    }

    /// Applies the changes voted "from the next round" (LOPTI-VOTE-6), at a round's start.
    fn apply_pending(&mut self) {
        for change in std::mem::take(&mut self.pending) {
            if self.valid(change) {
                self.apply(change, None);
            }
        }
    }

    /// True if `change` can be applied now (its rule still exists as the change assumes).
    fn valid(&self, change: Change) -> bool {
        match change {
            Change::Remove { serial } | Change::Modify { serial, .. } => self.book.rules.iter().any(|r| r.serial == serial),
            Change::Restore { serial } => self.removed.contains(&serial) && !self.book.rules.is_full(),
            Change::Basic { .. } => true,
        }
    }

    /// Settles a tied vote (LOPTI-VOTE-5, LOPTI-RPS-1..4); returns whether the change
    /// passed, whether that was without RPS, and the RPS played.
    fn settle_tie<O: SessionObserver>(&mut self, round: u16, proposer: u8, p: &Proposal, ballots: &[Ballot], obs: &mut O) -> (bool, bool, Option<RpsLog>) {
        let maker = match p.change {
            Change::Remove { serial } | Change::Modify { serial, .. } | Change::Restore { serial } => Some(self.logs[serial as usize - 1].maker),
            Change::Basic { .. } => None,
        };
        let flags = self.table.flags;
        let defenders = match vote::tie_break(p.change, maker, proposer, ballots, &flags) {
            TieBreak::PassesUnopposed => return (true, true, None),
            TieBreak::FailsUnopposed => return (false, true, None),
            TieBreak::Rps { defenders } => defenders,
        };
        let strategy = |s: u8| self.bot(s).rps;
        let strategies: ArrayVec<RpsStrategy, MAX_SEATS> = (0..self.n).map(strategy).collect();
        let mut log = RpsLog { proposer_won: false, sudden_death: false, knockout: false, throws: 0, decisive: 0, stalled: false };
        let tracing = obs.tracing();
        let mut representative = defenders[0];
        if defenders.len() > 1 {
            log.knockout = true;
            let members: Vec<u8> = if flags.knockout_decides {
                // LOPTI-AMB-12 `decide_dispute`: all members of both sides; the winner's side wins.
                (0..self.n).filter(|&s| s == proposer || ballots[s as usize] == Ballot::Yes || defenders.contains(&s)).collect()
            } else {
                defenders.to_vec()
            };
            let throwers = self.throwers();
            let (meta, chance) = (&mut self.meta, &mut self.chance);
            let (winner, matches) = rps::knockout_with(&members, &mut |s, mine, theirs| throwers.throw(s, strategies[s as usize], mine, theirs, &mut meta[s as usize]), chance);
            self.rps_asked = std::array::from_fn(|s| throwers.asked[s].get());
            for m in &matches {
                log.throws += m.throws.len() as u32;
                log.decisive += 1;
            }
            if tracing {
                for m in &matches {
                    let throws: Vec<Value> = m.throws.iter().map(|t| json!([t.a.name(), t.b.name()])).collect();
                    obs.note(event(
                        "rps_knockout",
                        None,
                        json!({"round": round, "players": [m.players.0, m.players.1], "throws": throws, "winner": m.winner,
                               "purpose": if flags.knockout_decides { "decide_dispute" } else { "select_representative" }}),
                        format!("knockout P{} vs P{}: {} -> P{} wins", m.players.0, m.players.1,
                            m.throws.iter().map(|t| format!("{}/{}", t.a.name(), t.b.name())).collect::<Vec<_>>().join(" "), m.winner),
                    ));
                }
            }
            if flags.knockout_decides {
                log.proposer_won = !defenders.contains(&winner);
                return (log.proposer_won, false, Some(log));
            }
            representative = winner;
        }
        let throwers = self.throwers();
        let (ra, rb) = two_mut(&mut self.meta, proposer as usize, representative as usize);
        let (sa, sb) = (strategies[proposer as usize], strategies[representative as usize]);
        let m = rps::play_match_with(
            &mut |first, mine, theirs| if first { throwers.throw(proposer, sa, mine, theirs, ra) } else { throwers.throw(representative, sb, mine, theirs, rb) },
            &mut self.chance,
        );
        self.rps_asked = std::array::from_fn(|s| throwers.asked[s].get());
        log.proposer_won = m.a_won;
        log.sudden_death = m.sudden_death;
        log.throws += m.throws.len() as u32;
        log.decisive += m.score.0 + m.score.1;
        log.stalled = m.stalled;
        if tracing {
            let (mut a, mut b) = (0, 0);
            for (i, t) in m.throws.iter().enumerate() {
                if t.decisive() {
                    if t.a.beats(t.b) { a += 1 } else { b += 1 }
                }
                obs.note(event(
                    "rps_throw",
                    None,
                    json!({"round": round, "throw": i + 1, "proposer": proposer, "defender": representative,
                           "proposer_sign": t.a.name(), "defender_sign": t.b.name(), "decisive": t.decisive(), "score": [a, b]}),
                    format!("RPS throw {}: P{proposer} {} vs P{representative} {} ({}) {a}-{b}", i + 1, t.a.name(), t.b.name(),
                        if t.decisive() { "decisive" } else { "tie, does not count" }),
                ));
            }
            obs.note(event(
                "rps_result",
                None,
                json!({"round": round, "proposer": proposer, "defender": representative, "score": [m.score.0, m.score.1],
                       "sudden_death": m.sudden_death, "proposer_won": m.a_won, "stalled": m.stalled}),
                format!("RPS: P{proposer} {}-{} P{representative}{}: the {} side wins", m.score.0, m.score.1,
                    if m.sudden_death { " after sudden death" } else { "" }, if m.a_won { "proposer's" } else { "defending" }),
            ));
        }
        (m.a_won, false, Some(log))
    }

    /// The round's Rule Vote, if anyone proposes (LOPTI-VOTE-1).
    fn rule_vote<O: SessionObserver>(&mut self, round: u16, starter: u8, state: &mut State, bots: &[&dyn Strategy], dice: &mut [SimRng], obs: &mut O) {
        let n = self.n;
        let Some((proposer, proposal)) = (0..n).map(|k| (starter + k) % n).find_map(|s| {
            let p = match self.asks(s, "propose") {
                Some(x) => self.ask_propose(x, s),
                None => self.bot(s).voter.propose(&self.view(s)),
            }?;
            self.valid(p.change).then_some((s, p))
        }) else {
            return;
        };
        let before = Hooked::of(HookEvent::RuleVote, Some(proposer));
        let book = self.book.clone();
        let mut r = Ruled::new(obs, &book, bots, Dice::Seats(dice));
        r.fire(state, When::Before, &before);
        let fired = r.fired;
        self.credit(&fired);
        let ballots: ArrayVec<Ballot, MAX_SEATS> =
            (0..n).map(|s| match (s == proposer, self.asks(s, "vote")) {
                (true, _) => Ballot::Yes,
                (false, Some(x)) => self.ask_vote(x, s, proposer, &proposal),
                (false, None) => self.bot(s).voter.vote(&self.view(s), &proposal),
            }).collect();
        let count = vote::count(&ballots, self.table.flags.tie_reading);
        let text = self.change_text(proposal.change);
        if obs.tracing() {
            obs.note(event(
                "vote",
                Some(proposer),
                json!({"round": round, "proposal": text, "kind": proposal.change.kind(),
                       "timing": if proposal.timing == Timing::AtOnce { "at_once" } else { "next_round" },
                       "ballots": ballots.iter().map(|b| b.name()).collect::<Vec<_>>(),
                       "count": match count { Count::Pass => "pass", Count::Tie => "tie", Count::Fail => "fail" }}),
                format!("Rule Vote: {text} ({}): {} -> {}", if proposal.timing == Timing::AtOnce { "at once" } else { "from the next round" },
                    ballots.iter().enumerate().map(|(s, b)| format!("P{s} {}", b.name())).collect::<Vec<_>>().join(", "),
                    match count { Count::Pass => "passes", Count::Tie => "tie: rock-paper-scissors", Count::Fail => "fails" }),
            ));
        }
        let (passed, unopposed, rps) = match count {
            Count::Pass => (true, false, None),
            Count::Fail => (false, false, None),
            Count::Tie => self.settle_tie(round, proposer, &proposal, &ballots, obs),
        };
        if obs.tracing() && count == Count::Tie && rps.is_none() {
            obs.note(event("vote_tie", Some(proposer), json!({"round": round, "passed": passed, "rps": false}),
                format!("tie with nobody defending: the change {} without rock-paper-scissors", if passed { "passes" } else { "fails" })));
        }
        if passed {
            match proposal.timing {
                Timing::AtOnce => self.apply(proposal.change, Some(state)),
                Timing::NextRound => self.pending.push(proposal.change),
            }
        }
        if obs.tracing() {
            obs.note(event("vote_result", Some(proposer), json!({"round": round, "passed": passed, "rules": self.in_force_names()}),
                format!("the change {}; in force: {}", if passed { "passes" } else { "fails" }, self.in_force_names().join(", "))));
        }
        self.votes.push(VoteLog { round, proposer, proposal, count, passed, unopposed, rps });
        let after = Hooked { passed: Some(passed), ..Hooked::of(HookEvent::RuleVote, Some(proposer)) };
        let book = self.book.clone();
        let mut r = Ruled::new(obs, &book, bots, Dice::Seats(dice));
        r.fire(state, When::After, &after);
        let fired = r.fired;
        self.credit(&fired);
    }
}

fn basic_value(flag: BasicFlag, r: &Rules) -> &'static str {
    let set = flag.is_set(r);
    match flag {
        BasicFlag::SevenFree => if set { "free" } else { "equal_more" },
        BasicFlag::DrawEndOfTurn => if set { "end_of_turn" } else { "before_bonus" },
        BasicFlag::EmptyClearBonus => if set { "false" } else { "true" },
        BasicFlag::FacedownPickup | BasicFlag::BonusOptional => if set { "true" } else { "false" },
        BasicFlag::SwapOrder => if set { "clockwise_from_starter" } else { "simultaneous" },
    }
}

/// Plays one session: `seat_bots[s]` is the bot in seat `s`; `seed` the session's seed;
/// `values` the quick simulation's table its selfish strategies use (its group's,
/// [`Table::values_of_group`]); `returning` the rules in force at the end of the
/// previous session of a series (voted on at setup, LOPTI-SESSION-2).
pub fn play_session<'t, O: SessionObserver>(table: &'t Table, values: Option<&'t ValueTable>, seat_bots: &[usize], seed: u64, returning: &[RuleLog], obs: &mut O) -> SessionRecord {
    let n = seat_bots.len() as u8;
    let mut sb = [0usize; MAX_SEATS];
    sb[..n as usize].copy_from_slice(seat_bots);
    let ranks: ArrayVec<usize, MAX_SEATS> = seat_bots.iter().map(|&b| table.twin[b]).collect();
    let mut book = RuleBook::empty(table.catalog.clone());
    book.max_depth = table.flags.hook_depth;
    let meta_seeds: ArrayVec<u64, MAX_SEATS> = (0..n as usize).map(|s| mix(&[seed, TAG_META, s as u64, ranks[s] as u64])).collect();
    let mut live = Live {
        table,
        values,
        n,
        seat_bots: sb,
        book,
        // LOPTI-SESSION-1: every session starts from basic Lopti.
        basic: table.rules,
        logs: Vec::new(),
        removed: Vec::new(),
        pending: Vec::new(),
        meta: meta_seeds.iter().map(|&s| rng_from(s)).collect(),
        meta_seeds,
        rps_asked: [0; MAX_SEATS],
        chance: rng_from(mix(&[seed, TAG_CHANCE])),
        votes: Vec::new(),
        depth_limited: 0,
    };
    let tracing = obs.tracing();
    let mut setup_votes = (0u16, 0u16);
    // LOPTI-SESSION-2: rules of the previous session come back only by a majority at setup.
    if !returning.is_empty() {
        let groups: Vec<Vec<&RuleLog>> =
            if table.flags.returning_together { vec![returning.iter().collect()] } else { returning.iter().map(|l| vec![l]).collect() };
        for group in groups {
            let ballots: ArrayVec<Ballot, MAX_SEATS> = (0..n)
                .map(|s| {
                    let v = live.view(s);
                    let voter = live.bot(s).voter;
                    let yes = group.iter().filter(|l| voter.vote_return(&v, l) == Ballot::Yes).count();
                    let no = group.iter().filter(|l| voter.vote_return(&v, l) == Ballot::No).count();
                    if yes > no { Ballot::Yes } else if no > yes { Ballot::No } else { Ballot::Abstain }
                })
                .collect();
            let back = vote::count(&ballots, TieReading::AllParticipants) == Count::Pass;
            setup_votes.0 += 1;
            let names: Vec<String> = group.iter().map(|l| live.rule_name(l.rule, &l.params)).collect();
            if back {
                for l in &group {
                    if live.add_rule(l.rule, l.params, l.maker, 0, true).is_some() {
                        setup_votes.1 += 1;
                    }
                }
            }
            if tracing {
                obs.note(event("setup_vote", None, json!({"rules": names, "ballots": ballots.iter().map(|b| b.name()).collect::<Vec<_>>(), "returns": back}),
                    format!("setup vote on bringing back {}: {} -> {}", names.join(", "),
                        ballots.iter().enumerate().map(|(s, b)| format!("P{s} {}", b.name())).collect::<Vec<_>>().join(", "),
                        if back { "they come back" } else { "they stay out" })));
            }
        }
    }
    let mut winners: Vec<Option<u8>> = Vec::with_capacity(table.rounds as usize);
    let (mut capped, mut cycled) = (0u16, 0u16);
    let mut wins = [0u16; MAX_SEATS];
    let mut last_winner: Option<u8> = None;
    let mut illegal = None;
    for round in 1..=table.rounds {
        let dealer = ((round - 1) % n as u16) as u8;
        // LOPTI-SETUP-5: the dealer starts round 1, the previous winner later rounds.
        let starter = if round == 1 { dealer } else { last_winner.unwrap_or(dealer) };
        live.apply_pending();
        live.book.dealer = dealer;
        live.book.last_winner = last_winner;
        let seeds = MatchSeeds::new(mix(&[seed, TAG_ROUND, round as u64]), &ranks);
        let bots: ArrayVec<&dyn Strategy, MAX_SEATS> = seat_bots.iter().map(|&b| &*table.bots[b].play).collect();
        let mut dice: ArrayVec<SimRng, MAX_SEATS> = (0..n as usize).map(|s| seeds.player_rng(s)).collect();
        if tracing {
            obs.note(event("round_start", None,
                json!({"round": round, "dealer": dealer, "starter": starter, "rules": live.in_force_names(), "basic": basic_changes(&live.basic, &table.rules)}),
                format!("round {round}: P{dealer} deals, P{starter} starts; special rules: {}; basic rules: {}",
                    if live.book.rules.is_empty() { "none".to_string() } else { live.in_force_names().join(", ") },
                    match basic_changes(&live.basic, &table.rules) { s if s.is_empty() => "as at the start".to_string(), s => s })));
        }
        // The round is one match of the protocol for the external bots seated (its
        // deal's setup swaps, the meta decisions and the play between match_start and
        // match_end); a bot's fault stops the round and the session.
        let seated: ArrayVec<(usize, &crate::external::ExternalBot), MAX_SEATS> =
            (0..n as usize).filter_map(|s| table.bots[seat_bots[s]].external.as_deref().map(|x| (s, x))).collect();
        let mut played = None;
        let mut body = || {
            let book = live.book.clone();
            let mut r = Ruled::new(obs, &book, &bots, Dice::Seats(&mut dice));
            let mut state = State::deal_with(n, starter, live.basic, &mut seeds.deal_rng(), seeds.hidden(), &mut r);
            let fired = r.fired;
            live.credit(&fired);
            // LOPTI-MAKE-1, LOPTI-MAKE-2: the last winner's rule, in force from the end of this deal.
            if let Some(w) = last_winner {
                let maker = live.bot(w).maker;
                let mut rng = std::mem::replace(&mut live.meta[w as usize], rng_from(0));
                let choice = match live.asks(w, "make_rule") {
                    Some(x) => live.ask_make(x, w),
                    None => maker.make(&live.view(w), &mut rng),
                };
                live.meta[w as usize] = rng;
                if let Some((rule, params)) = choice {
                    if let Some(serial) = live.add_rule(rule, params, w, round - 1, false) {
                        if tracing {
                            let def = live.book.catalog.rules[rule as usize];
                            obs.note(event("rule_made", Some(w), json!({"round": round - 1, "serial": serial, "rule": def.id, "params": live.rule_name(rule, &params), "text": def.text}),
                                format!("makes rule #{serial} {}: {}", live.rule_name(rule, &params), def.text)));
                        }
                    }
                }
            }
            // LOPTI-MAKE-7: makers may withdraw their own rules (no vote, no replacement).
            for k in 0..n {
                let s = (starter + k) % n;
                for serial in live.bot(s).maker.withdraw(&live.view(s)) {
                    if let Some(i) = live.book.rules.iter().position(|r| r.serial == serial && r.maker == s) {
                        live.book.rules.remove(i);
                        live.logs[serial as usize - 1].end = RuleEnd::Withdrawn;
                        if tracing {
                            obs.note(event("rule_withdrawn", Some(s), json!({"serial": serial, "rule": live.serial_name(serial)}),
                                format!("withdraws rule #{serial} {}", live.serial_name(serial))));
                        }
                    }
                }
            }
            live.rule_vote(round, starter, &mut state, &bots, &mut dice, obs);
            let book = live.book.clone();
            let mut r = Ruled::new(obs, &book, &bots, Dice::Seats(&mut dice));
            r.play(&mut state);
            let (fired, bug) = (r.fired, r.illegal);
            live.credit(&fired);
            let rec = MatchRecord { winner: state.match_winner(), ending: state.ending(), ..MatchRecord::default() };
            played = Some((state, bug));
            rec
        };
        let rec = if seated.is_empty() { body() } else { crate::external::around(&seated, n as usize, false, &seeds, body) };
        // Not played: a bot's fault at the start, or a bot that another session broke.
        let Some((state, bug)) = played else {
            illegal = rec.illegal.map(|c| (round, c));
            break;
        };
        // A bot's fault overrides the round loop's stop report.
        let bug = rec.illegal.or(bug);
        let winner = state.match_winner();
        capped += state.capped as u16;
        if let Some(choice) = bug {
            illegal = Some((round, choice));
            break;
        }
        cycled += state.cycled as u16;
        for r in &live.book.rules {
            let l = &mut live.logs[r.serial as usize - 1];
            l.rounds_in_force += 1;
            l.decided += winner.is_some() as u16;
            l.maker_wins += (winner == Some(r.maker)) as u16;
            l.after_maker_win += (last_winner == Some(r.maker)) as u16;
        }
        if let Some(w) = winner {
            wins[w as usize] += 1;
        }
        winners.push(winner);
        last_winner = winner;
        if tracing {
            obs.note(event("round_end", winner, json!({"round": round, "winner": winner, "wins": &wins[..n as usize]}),
                format!("round {round}: {}; wins so far {:?}", winner.map_or("no winner".to_string(), |w| format!("P{w} wins")), &wins[..n as usize])));
        }
        if table.target_wins > 0 && winner.is_some_and(|w| wins[w as usize] >= table.target_wins) {
            break;
        }
    }
    let best = *wins[..n as usize].iter().max().expect("players");
    let session_winner = (wins[..n as usize].iter().filter(|&&w| w == best).count() == 1).then(|| wins.iter().position(|&w| w == best).expect("max") as u8);
    if tracing {
        obs.note(event("session_end", session_winner, json!({"rounds": winners.len(), "wins": &wins[..n as usize], "winner": session_winner, "rules": live.in_force_names()}),
            format!("session over after {} rounds: wins {:?}; {}", winners.len(), &wins[..n as usize],
                session_winner.map_or("no single winner".to_string(), |w| format!("P{w} wins the session")))));
    }
    SessionRecord {
        seat_bots: sb,
        winners,
        capped,
        cycled,
        end_rules: live.book.rules.to_vec(),
        logs: live.logs,
        votes: live.votes,
        setup_votes,
        session_winner,
        depth_limited: live.depth_limited,
        illegal,
    }
}

/// The basic rules changed from `start`, as `key=value` words.
fn basic_changes(now: &Rules, start: &Rules) -> String {
    BASIC_FLAGS
        .iter()
        .filter(|&&(_, f, _)| f.is_set(now) != f.is_set(start))
        .map(|&(name, f, _)| format!("lopti.{name}={}", basic_value(f, now)))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
