//! The meta-game strategies: who makes which rule, who proposes what at the Rule Vote and
//! how each player votes, and the quick simulation the selfish ones judge rules by.
//!
//! - Rule makers: `selfish` makes the rule (with the parameters) that its quick
//!   simulation says helps its own play style most, if any helps, and withdraws a rule of
//!   its own that a vote turned against it (LOPTI-MAKE-7); `random` makes a rule at
//!   random with its default parameters; `none` makes none.
//! - Voters: `selfish` proposes the change that helps it most (removing, changing or
//!   bringing back a rule, or flipping a basic rule) and votes yes / no / abstain by
//!   its gain; `fair` looks only at what happened this session: it proposes removing the
//!   rule whose maker has won most since making it, if the maker won at least twice and
//!   more than a fair share plus a quarter of those rounds, votes yes only to remove such
//!   a rule and no to every other change (least change, LOPTI-AMB-19); `none` never
//!   proposes and abstains.

use super::vote::{Ballot, Change, Proposal, Timing};
use super::{BasicFlag, RuleLog, Table, BASIC_FLAGS};
use crate::games::lopti::config::Rules;
use crate::games::lopti::events::NoObserver;
use crate::games::lopti::special::run::Ruled;
use crate::games::lopti::special::{Catalog, InForce, RuleBook, MAX_PARAMS};
use crate::games::lopti::round::Dice;
use crate::games::lopti::state::State;
use crate::games::lopti::strategies::Strategy;
use crate::rng::{mix, MatchSeeds, SimRng};
use crate::runner::{seating, seatings_per_deal, MatchRecord, SeatingDesign, MAX_SEATS};
use arrayvec::ArrayVec;
use rand::RngExt;
use rayon::prelude::*;

/// A rule-making strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Maker {
    /// The rule its quick simulation says helps it most (none if none helps).
    Selfish,
    /// A rule at random, default parameters.
    Random,
    /// Makes no rules.
    None,
}

/// A voting strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Voter {
    /// Proposes and votes by its own gain in the quick simulation.
    Selfish,
    /// Removes rules whose makers have been winning since they made them; keeps the rest.
    Fair,
    /// Never proposes; abstains.
    None,
}

/// Rule makers by name.
pub const MAKERS: [(&str, Maker, &str); 3] = [
    ("selfish", Maker::Selfish, "makes the rule its quick simulation says helps it most (none if none helps); withdraws its own rules that a vote turned against it"),
    ("random", Maker::Random, "makes a rule at random (default parameters)"),
    ("none", Maker::None, "makes no rules"),
];

/// Voters by name.
pub const VOTERS: [(&str, Voter, &str); 3] = [
    ("selfish", Voter::Selfish, "proposes the change that helps it most in the quick simulation; votes by its gain (yes, no, or abstains within 1 point)"),
    ("fair", Voter::Fair, "proposes removing a rule whose maker keeps winning since making it (2+ wins, over a fair share + 25 points); no to every other change"),
    ("none", Voter::None, "never proposes; abstains"),
];

impl Maker {
    /// Its name.
    pub fn name(self) -> &'static str {
        MAKERS.iter().find(|m| m.1 == self).map(|m| m.0).expect("listed")
    }
}

impl Voter {
    /// Its name.
    pub fn name(self) -> &'static str {
        VOTERS.iter().find(|m| m.1 == self).map(|m| m.0).expect("listed")
    }
}

/// A change the quick simulation measures: one special rule in force with given
/// parameters, or one basic flag flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// A catalog rule with parameters.
    Rule {
        /// Catalog index.
        rule: u8,
        /// Parameters.
        params: [u8; MAX_PARAMS],
    },
    /// A basic rule flipped from the run's basic rules.
    Basic(BasicFlag),
}

/// How much each variant changes each bot's round-win rate, measured by playing the same
/// deals under every seating with and without it (common random numbers).
#[derive(Clone, Debug, PartialEq)]
pub struct ValueTable {
    /// The variants: each catalog rule with its defaults, then each single parameter
    /// changed to one of its alternatives, then each basic flag flipped.
    pub variants: Vec<Variant>,
    /// `value[bot][v]`: win rate with variant `v` minus the win rate without.
    pub value: Vec<Vec<f64>>,
    /// Rounds played per variant.
    pub rounds: u64,
}

/// Margin below which a selfish player sees no gain (one percentage point).
pub const MARGIN: f64 = 0.01;

impl ValueTable {
    /// The variants of `catalog`.
    pub fn variants(catalog: &Catalog) -> Vec<Variant> {
        let mut out = Vec::new();
        for (i, def) in catalog.rules.iter().enumerate() {
            let base = def.defaults();
            out.push(Variant::Rule { rule: i as u8, params: base });
            for (k, p) in def.params.iter().enumerate() {
                for &a in p.alternatives.iter().filter(|&&a| a != p.default) {
                    let mut params = base;
                    params[k] = a;
                    out.push(Variant::Rule { rule: i as u8, params });
                }
            }
        }
        out.extend(BASIC_FLAGS.iter().map(|&(_, f, _)| Variant::Basic(f)));
        out
    }

    /// Plays `rounds` rounds (rounded up to whole deals, each under every seating) per
    /// variant and without, on the current rayon pool; the same on any thread count.
    /// An external bot's fault in one of those rounds is the error (the first, in the
    /// order of the variants and deals).
    pub fn compute(table: &Table, seed: u64, rounds: u64) -> Result<ValueTable, String> {
        let n = table.bots.len();
        let per = seatings_per_deal(SeatingDesign::All, n);
        let deals = rounds.div_ceil(per).max(1);
        let variants = Self::variants(&table.catalog);
        let jobs: Vec<(Option<usize>, u64)> = (0..=variants.len()).flat_map(|v| (0..deals).map(move |d| ((v > 0).then(|| v - 1), d))).collect();
        let counts: Vec<(Option<usize>, DealWins)> = jobs
            .par_iter()
            .map(|&(v, d)| (v, quick_deal(table, v.map(|v| variants[v]), seed, d)))
            .collect();
        let mut wins = vec![[0u64; MAX_SEATS]; variants.len() + 1];
        for (v, c) in counts {
            let c = c?;
            let slot = v.map_or(0, |v| v + 1);
            for b in 0..n {
                wins[slot][b] += c[b];
            }
        }
        let played = (deals * per) as f64;
        let value = (0..n).map(|b| (0..variants.len()).map(|v| (wins[v + 1][b] as f64 - wins[0][b] as f64) / played).collect()).collect();
        Ok(ValueTable { variants, value, rounds: deals * per })
    }

    /// The value of `variant` for bot `bot` (0 for a variant not measured).
    pub fn get(&self, bot: usize, variant: Variant) -> f64 {
        self.variants.iter().position(|&v| v == variant).map_or(0.0, |i| self.value[bot][i])
    }
}

/// Each bot's wins in one deal of [`quick_deal`], or why the deal could not be played.
type DealWins = Result<[u64; MAX_SEATS], String>;

/// One quick-simulation deal under every seating: wins per bot, or an external bot's
/// fault in words. Each round is one match of the protocol for the external bots.
fn quick_deal(table: &Table, variant: Option<Variant>, seed: u64, d: u64) -> DealWins {
    let n = table.bots.len();
    let per = seatings_per_deal(SeatingDesign::All, n);
    let ds = mix(&[seed, 0x7175_6963, d]);
    let mut book = RuleBook::empty(table.catalog.clone());
    book.max_depth = table.flags.hook_depth;
    let mut rules = table.rules;
    match variant {
        Some(Variant::Rule { rule, params }) => book.rules.push(InForce { rule, params, maker: 0, created_round: 0, serial: 1 }),
        Some(Variant::Basic(f)) => f.toggle(&mut rules),
        None => {}
    }
    // Seat 0 deals and starts; seat 1 won the round before (so rules about the last winner fire).
    book.last_winner = Some(1 % n as u8);
    let mut wins = [0u64; MAX_SEATS];
    for k in 0..per {
        let sb = seating(SeatingDesign::All, n, ds, k);
        let ranks: ArrayVec<usize, MAX_SEATS> = (0..n).map(|s| table.twin[sb[s]]).collect();
        let seeds = MatchSeeds::new(ds, &ranks);
        let bots: ArrayVec<&dyn Strategy, MAX_SEATS> = (0..n).map(|s| &*table.bots[sb[s]].play).collect();
        let mut dice: ArrayVec<SimRng, MAX_SEATS> = (0..n).map(|s| seeds.player_rng(s)).collect();
        let mut round = || {
            let mut quiet = NoObserver;
            let mut r = Ruled::new(&mut quiet, &book, &bots, Dice::Seats(&mut dice));
            let mut st = State::deal_with(n as u8, 0, rules, &mut seeds.deal_rng(), seeds.hidden(), &mut r);
            r.play(&mut st);
            MatchRecord { winner: st.match_winner(), ending: st.ending(), ..MatchRecord::default() }
        };
        let seated: ArrayVec<(usize, &crate::external::ExternalBot), MAX_SEATS> = (0..n).filter_map(|s| table.bots[sb[s]].external.as_deref().map(|x| (s, x))).collect();
        let rec = if seated.is_empty() { round() } else { crate::external::around(&seated, n, false, &seeds, round) };
        if let Some(c) = rec.illegal.filter(|c| c.fault.is_some()) {
            let label = &table.bots[sb[c.seat as usize]].label;
            return Err(format!("{} in the quick simulation of the selfish strategies (deal {d}, seating {k}); line: {}", crate::external::fault_words(label, &c, c.fault.expect("a fault")), crate::external::fault_line(&c)));
        }
        if let Some(w) = rec.winner {
            wins[sb[w as usize]] += 1;
        }
    }
    Ok(wins)
}

/// What a player knows when it makes a rule, proposes or votes.
pub struct MetaView<'a> {
    /// Its seat.
    pub seat: u8,
    /// Its bot index (for the value table).
    pub bot: usize,
    /// Players.
    pub n: u8,
    /// Rules in force and roles.
    pub book: &'a RuleBook,
    /// Every rule made in the session so far, by serial - 1.
    pub logs: &'a [RuleLog],
    /// Serials removed by a vote and not brought back.
    pub removed: &'a [u16],
    /// The basic rules of the session now, and at its start.
    pub basic: Rules,
    /// The run's basic rules.
    pub start: Rules,
    /// The quick simulation's values.
    pub values: Option<&'a ValueTable>,
}

impl MetaView<'_> {
    fn value(&self, v: Variant) -> f64 {
        self.values.map_or(0.0, |t| t.get(self.bot, v))
    }
    fn rule_value(&self, rule: u8, params: [u8; MAX_PARAMS]) -> f64 {
        self.value(Variant::Rule { rule, params })
    }
    /// Catalog rules a winner may make now: not in force, not removed by a vote this
    /// session (LOPTI-VOTE-7: such a rule comes back only through a vote).
    pub fn makeable(&self) -> impl Iterator<Item = u8> + '_ {
        let removed: ArrayVec<u8, 64> = self.removed.iter().filter_map(|&s| self.logs.get(s as usize - 1).map(|l| l.rule)).take(64).collect();
        (0..self.book.catalog.rules.len() as u8).filter(move |r| !self.book.rules.iter().any(|f| f.rule == *r) && !removed.contains(r))
    }
    /// The gain for this player of a change.
    pub fn gain(&self, change: Change) -> f64 {
        match change {
            Change::Remove { serial } => self.book.rules.iter().find(|r| r.serial == serial).map_or(0.0, |r| -self.rule_value(r.rule, r.params)),
            Change::Modify { serial, params } => {
                self.book.rules.iter().find(|r| r.serial == serial).map_or(0.0, |r| self.rule_value(r.rule, params) - self.rule_value(r.rule, r.params))
            }
            Change::Restore { serial } => self.logs.get(serial as usize - 1).map_or(0.0, |l| self.rule_value(l.rule, l.params)),
            Change::Basic { flag } => {
                let v = self.value(Variant::Basic(flag));
                if flag.is_set(&self.basic) != flag.is_set(&self.start) { -v } else { v }
            }
        }
    }
    /// True if the maker of rule `serial` has won at least twice since it came into force
    /// and more than a fair share plus 25 points of those rounds.
    pub fn unfair(&self, serial: u16) -> bool {
        self.logs.get(serial as usize - 1).is_some_and(|l| {
            l.maker_wins >= 2 && l.maker_wins as f64 > (1.0 / self.n as f64 + 0.25) * l.rounds_in_force as f64
        })
    }
    /// Every change a player could propose now.
    pub fn changes(&self) -> Vec<Change> {
        let mut out = Vec::new();
        for r in &self.book.rules {
            out.push(Change::Remove { serial: r.serial });
            let def = self.book.def(r);
            for (k, p) in def.params.iter().enumerate() {
                for &a in p.alternatives.iter().filter(|&&a| a != r.params[k]) {
                    let mut params = def.defaults();
                    params[k] = a;
                    if params != r.params {
                        out.push(Change::Modify { serial: r.serial, params });
                    }
                }
            }
        }
        for &s in self.removed {
            if self.book.rules.len() < self.book.rules.capacity() {
                out.push(Change::Restore { serial: s });
            }
        }
        out.extend(BASIC_FLAGS.iter().map(|&(_, flag, _)| Change::Basic { flag }));
        out
    }
}

impl Maker {
    /// The rule the winner makes, if any (LOPTI-MAKE-1).
    pub fn make(self, v: &MetaView, rng: &mut SimRng) -> Option<(u8, [u8; MAX_PARAMS])> {
        match self {
            Maker::None => None,
            Maker::Random => {
                let options: Vec<u8> = v.makeable().collect();
                (!options.is_empty()).then(|| {
                    let r = options[rng.random_range(0..options.len())];
                    (r, v.book.catalog.rules[r as usize].defaults())
                })
            }
            Maker::Selfish => {
                let table = v.values?;
                let allowed: Vec<u8> = v.makeable().collect();
                let mut best: Option<(f64, u8, [u8; MAX_PARAMS])> = None;
                for (i, var) in table.variants.iter().enumerate() {
                    if let Variant::Rule { rule, params } = *var {
                        let val = table.value[v.bot][i];
                        if allowed.contains(&rule) && val > 0.0 && best.is_none_or(|(b, _, _)| val > b) {
                            best = Some((val, rule, params));
                        }
                    }
                }
                best.map(|(_, r, p)| (r, p))
            }
        }
    }

    /// Rules of its own the maker withdraws now (LOPTI-MAKE-7): serials.
    pub fn withdraw(self, v: &MetaView) -> Vec<u16> {
        match self {
            Maker::Selfish if v.values.is_some() => {
                v.book.rules.iter().filter(|r| r.maker == v.seat && v.rule_value(r.rule, r.params) < 0.0).map(|r| r.serial).collect()
            }
            _ => Vec::new(),
        }
    }
}

/// A selfish ballot: yes on a gain above [`MARGIN`], no on a loss beyond it, else abstain.
fn by_gain(g: f64) -> Ballot {
    if g > MARGIN {
        Ballot::Yes
    } else if g < -MARGIN {
        Ballot::No
    } else {
        Ballot::Abstain
    }
}

impl Voter {
    /// The proposal this player puts to the round's Rule Vote, if any.
    pub fn propose(self, v: &MetaView) -> Option<Proposal> {
        let change = match self {
            Voter::None => None,
            Voter::Selfish => {
                let mut best: Option<(f64, Change)> = None;
                for c in v.changes() {
                    let g = v.gain(c);
                    if g > MARGIN && best.is_none_or(|(b, _)| g > b) {
                        best = Some((g, c));
                    }
                }
                best.map(|(_, c)| c)
            }
            Voter::Fair => v
                .book
                .rules
                .iter()
                .filter(|r| v.unfair(r.serial))
                .max_by_key(|r| {
                    let l = &v.logs[r.serial as usize - 1];
                    // Highest share of wins; the earliest rule on a tie.
                    ((l.maker_wins as u64 * 1000) / l.rounds_in_force.max(1) as u64, std::cmp::Reverse(r.serial))
                })
                .map(|r| Change::Remove { serial: r.serial }),
        };
        change.map(|change| Proposal { change, timing: Timing::AtOnce })
    }

    /// This player's ballot on `p`.
    pub fn vote(self, v: &MetaView, p: &Proposal) -> Ballot {
        match self {
            Voter::None => Ballot::Abstain,
            Voter::Selfish => by_gain(v.gain(p.change)),
            Voter::Fair => match p.change {
                Change::Remove { serial } if v.unfair(serial) => Ballot::Yes,
                _ => Ballot::No,
            },
        }
    }

    /// This player's ballot at session setup on bringing back rule `log` from the last
    /// session (LOPTI-SESSION-2): selfish by its gain, fair says no (every session starts
    /// from basic Lopti), none abstains.
    pub fn vote_return(self, v: &MetaView, log: &RuleLog) -> Ballot {
        match self {
            Voter::None => Ballot::Abstain,
            Voter::Fair => Ballot::No,
            Voter::Selfish => by_gain(v.rule_value(log.rule, log.params)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_cover_every_rule_its_alternatives_and_the_basic_flags() {
        let c = Catalog::built_in();
        let v = ValueTable::variants(&c);
        for (i, def) in c.rules.iter().enumerate() {
            assert!(v.contains(&Variant::Rule { rule: i as u8, params: def.defaults() }), "{}", def.id);
        }
        assert_eq!(v.iter().filter(|x| matches!(x, Variant::Basic(_))).count(), BASIC_FLAGS.len());
        let mut dedup = v.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), v.len());
    }
}
