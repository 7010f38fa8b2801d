//! Lopti sessions in the bot protocol (docs/bot-protocol.md section 5.5): the session
//! decisions an external bot may answer itself (`make_rule`, `propose`, `vote`, `rps`), each
//! asked with the session as its meta strategy sees it and the legal options with their
//! index, readable text and the bot's own values from the quick simulation. A bot that
//! does not declare one of them in its hello's `plays` has it made by its built-in
//! strategy (`maker=`, `voter=`, `rps=`), as are withdrawals and setup votes.

use super::meta::Variant;
use super::rps::{RpsStrategy, Sign, SIGNS};
use super::vote::{Ballot, Proposal, Timing};
use super::{basic_value, Live, BASIC_FLAGS};
use crate::external::{Answer, Decisions, ExternalBot};
use crate::games::lopti::special::MAX_PARAMS;
use crate::rng::SimRng;
use arrayvec::ArrayVec;
use serde_json::{json, Map, Value};

/// The decisions a session asks an external bot: Lopti's, then the session's.
pub const DECISIONS: Decisions = Decisions {
    all: &["move", "swap", "give", "rule_swap", "make_rule", "propose", "vote", "rps"],
    optional: &["swap", "give", "rule_swap", "make_rule", "propose", "vote", "rps"],
};

/// Who throws each seat's rock-paper-scissors: its external bot, if it declares `rps`
/// (asked every throw, with its seat's meta seed for its own dice), else its built-in
/// strategy with its seat's meta dice.
pub(super) struct Throwers<'t> {
    bots: ArrayVec<Option<&'t ExternalBot>, { crate::runner::MAX_SEATS }>,
    seeds: ArrayVec<u64, { crate::runner::MAX_SEATS }>,
    /// Per seat, its throws asked so far in the session (0: a new session, its dice
    /// start again from its seed; a seat's seed repeats in every seating of a group).
    pub(super) asked: [std::cell::Cell<u32>; crate::runner::MAX_SEATS],
}

impl Throwers<'_> {
    /// The next sign of `seat` (built-in strategy `strategy` with dice `rng`), from its
    /// throws and its opponent's so far in this match.
    pub(super) fn throw(&self, seat: u8, strategy: RpsStrategy, mine: &[Sign], theirs: &[Sign], rng: &mut SimRng) -> Sign {
        let Some(x) = self.bots[seat as usize] else { return strategy.throw(mine, theirs, rng) };
        let names = |signs: &[Sign]| signs.iter().map(|s| s.name()).collect::<Vec<_>>();
        let asked = &self.asked[seat as usize];
        let view = json!({"seat": seat, "seed": self.seeds[seat as usize], "session_throws": asked.get(), "mine": names(mine), "theirs": names(theirs)});
        asked.set(asked.get() + 1);
        let actions = SIGNS.iter().map(|s| json!({"action": s.name(), "text": s.name()})).collect();
        match x.ask("rps", view, actions, false) {
            Answer::Index(i) => SIGNS[i],
            Answer::Idle | Answer::Stop => strategy.throw(mine, theirs, rng),
        }
    }
}

impl<'t> Live<'t> {
    /// Who throws each seat's rock-paper-scissors now.
    pub(super) fn throwers(&self) -> Throwers<'t> {
        Throwers { bots: (0..self.n).map(|s| self.asks(s, "rps")).collect(), seeds: self.meta_seeds.clone(), asked: std::array::from_fn(|s| std::cell::Cell::new(self.rps_asked[s])) }
    }

    /// The external bot in `seat`, if it answers session decision `decision` itself.
    pub(super) fn asks(&self, seat: u8, decision: &str) -> Option<&'t ExternalBot> {
        self.bot(seat).external.as_deref().filter(|x| x.plays(decision))
    }

    /// The bot's value of `variant` in the quick simulation (`null` without a table).
    fn value_json(&self, seat: u8, variant: Variant) -> Value {
        self.values.map_or(Value::Null, |t| json!(t.get(self.seat_bots[seat as usize], variant)))
    }

    /// What the meta strategies see, as the protocol writes it.
    fn meta_json(&self, seat: u8) -> Value {
        let rules: Vec<Value> = self
            .book
            .rules
            .iter()
            .map(|r| json!({"serial": r.serial, "rule": self.book.catalog.rules[r.rule as usize].id, "params": self.rule_name(r.rule, &r.params), "maker": r.maker}))
            .collect();
        let made: Vec<Value> = self
            .logs
            .iter()
            .map(|l| json!({"serial": l.serial, "rule": self.rule_name(l.rule, &l.params), "maker": l.maker, "rounds_in_force": l.rounds_in_force, "maker_wins": l.maker_wins}))
            .collect();
        let basic: Map<String, Value> = BASIC_FLAGS.iter().map(|&(name, f, _)| (format!("lopti.{name}"), json!(basic_value(f, &self.basic)))).collect();
        json!({"seat": seat, "players": self.n, "rules": rules, "made": made, "removed": self.removed, "basic": basic})
    }

    /// The rule the winner in `seat` makes, asked of its external bot `x`: `none`, then
    /// every rule it may make with every parameter variant the quick simulation
    /// measures, in the simulation's order, each with its value for the bot.
    pub(super) fn ask_make(&self, x: &ExternalBot, seat: u8) -> Option<(u8, [u8; MAX_PARAMS])> {
        let v = self.view(seat);
        let allowed: Vec<u8> = v.makeable().collect();
        let options: Vec<Option<(u8, [u8; MAX_PARAMS])>> = std::iter::once(None)
            .chain(super::meta::ValueTable::variants(&self.book.catalog).into_iter().filter_map(|var| match var {
                Variant::Rule { rule, params } if allowed.contains(&rule) => Some(Some((rule, params))),
                _ => None,
            }))
            .collect();
        let actions = options
            .iter()
            .map(|o| match *o {
                None => json!({"action": "none", "text": "make no rule"}),
                Some((rule, params)) => {
                    let name = self.rule_name(rule, &params);
                    json!({"action": "make", "rule": self.book.catalog.rules[rule as usize].id, "params": name, "value": self.value_json(seat, Variant::Rule { rule, params }), "text": format!("make {name}")})
                }
            })
            .collect();
        match x.ask("make_rule", self.meta_json(seat), actions, false) {
            Answer::Index(i) => options[i],
            Answer::Idle | Answer::Stop => None,
        }
    }

    /// The proposal of `seat` to the Rule Vote, asked of its external bot `x`: `none`,
    /// then every change it could propose, each with its gain for the bot (the change
    /// applies at once).
    pub(super) fn ask_propose(&self, x: &ExternalBot, seat: u8) -> Option<Proposal> {
        let v = self.view(seat);
        let changes = v.changes();
        let actions = std::iter::once(json!({"action": "none", "text": "propose nothing"}))
            .chain(changes.iter().map(|&c| json!({"action": c.kind(), "gain": self.values.map(|_| v.gain(c)), "text": self.change_text(c)})))
            .collect();
        match x.ask("propose", self.meta_json(seat), actions, false) {
            Answer::Index(i) if i > 0 => Some(Proposal { change: changes[i - 1], timing: Timing::AtOnce }),
            _ => None,
        }
    }

    /// The ballot of `seat` on `p` by `proposer`, asked of its external bot `x`.
    pub(super) fn ask_vote(&self, x: &ExternalBot, seat: u8, proposer: u8, p: &Proposal) -> Ballot {
        let v = self.view(seat);
        let mut view = self.meta_json(seat);
        view["proposal"] = json!({"proposer": proposer, "action": p.change.kind(), "text": self.change_text(p.change), "gain": self.values.map(|_| v.gain(p.change))});
        const BALLOTS: [Ballot; 3] = [Ballot::Yes, Ballot::No, Ballot::Abstain];
        let actions = BALLOTS.iter().map(|b| json!({"action": b.name(), "text": b.name()})).collect();
        match x.ask("vote", view, actions, false) {
            Answer::Index(i) => BALLOTS[i],
            Answer::Idle | Answer::Stop => Ballot::Abstain,
        }
    }
}
