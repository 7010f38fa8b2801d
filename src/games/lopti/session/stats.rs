//! Session statistics: exact integer sums per *group* (the sessions of one seating
//! group share their cards, so a group is the independent unit), merged in group order,
//! then rates with 95% intervals that treat groups as clusters (ratio estimators with the
//! linearised, cluster-robust standard error, and Student's t quantile with G − 1 degrees
//! of freedom for G clusters: [`t_95`]).
//!
//! The rich-get-richer figure compares P(win round k+1 | won round k) with what each bot's
//! own base rate (its share of rounds 2..R) predicts; a rule's effect compares its maker's
//! win rate in the rounds it was in force with the same base rate of the bot that made it.

use super::vote::{Count, CHANGE_KINDS};
use super::{RuleEnd, SessionRecord};
use crate::output::summary::SummaryRow;
use crate::runner::MAX_SEATS;
use crate::stats::{cluster_ratio, t_95};

/// Per bot, summed over sessions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotSums {
    /// Sessions played.
    pub sessions: u64,
    /// Sessions won outright (most round wins, alone).
    pub sessions_won: u64,
    /// Rounds played.
    pub rounds: u64,
    /// Rounds won.
    pub won: u64,
    /// Rounds k it won that had a round k+1.
    pub won_then: u64,
    /// Of those, rounds k+1 it won too.
    pub won_again: u64,
    /// Rounds k it did not win that had a round k+1.
    pub lost_then: u64,
    /// Of those, rounds k+1 it won.
    pub won_after_loss: u64,
    /// Rounds 2.. played.
    pub later: u64,
    /// Rounds 2.. won.
    pub later_won: u64,
    /// Rules made.
    pub made: u64,
    /// Rule Votes proposed.
    pub proposed: u64,
    /// Of those, passed.
    pub proposed_passed: u64,
}

/// Per catalog rule, summed over sessions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSums {
    /// Times a winner made it.
    pub made: u64,
    /// Times it came back at a session's setup.
    pub returned: u64,
    /// Times a vote brought it back.
    pub restored: u64,
    /// Times a vote removed it.
    pub voted_away: u64,
    /// Times its maker withdrew it.
    pub withdrawn: u64,
    /// Times it was in force at a session's end.
    pub at_end: u64,
    /// Times a vote changed it.
    pub changed: u64,
    /// Rounds played with it in force.
    pub rounds: u64,
    /// Of those, rounds its maker won.
    pub maker_wins: u64,
    /// Hooks it ran.
    pub fired: u64,
    /// Rounds in force by the bot that made it.
    pub rounds_by_bot: Vec<u64>,
    /// Of those, rounds right after a round the maker won.
    pub after_win_by_bot: Vec<u64>,
}

/// Rule Votes, summed over sessions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VoteSums {
    /// Votes held.
    pub held: u64,
    /// Passed (by count or after a tie).
    pub passed: u64,
    /// Counted as a tie.
    pub tied: u64,
    /// Ties settled without RPS.
    pub unopposed: u64,
    /// Ties settled by RPS.
    pub rps: u64,
    /// RPS won by the proposer's side.
    pub rps_proposer_won: u64,
    /// RPS matches that went to sudden death.
    pub sudden_death: u64,
    /// Ties that needed a knockout.
    pub knockouts: u64,
    /// RPS throws, knockouts included.
    pub throws: u64,
    /// Throws settled by the harness coin.
    pub stalled: u64,
    /// Votes held by kind ([`CHANGE_KINDS`]).
    pub kind_held: [u64; 4],
    /// Passed by kind.
    pub kind_passed: [u64; 4],
    /// Setup votes on returning rules.
    pub setup: u64,
    /// Rules that came back at setup.
    pub setup_returned: u64,
}

/// A bot's illegal choice in a session (see [`SessionRecord::illegal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionBug {
    /// Index of the session in the run.
    pub session: u64,
    /// The bot in each seat of that session.
    pub seat_bots: [usize; MAX_SEATS],
    /// The round it happened in (from 1).
    pub round: u16,
    /// What was chosen, by whom, when.
    pub choice: crate::runner::IllegalChoice,
}

/// Exact sums over the sessions of one group (or any set of sessions).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sums {
    /// The earliest session in which a bot chose an illegal action, if any.
    pub strategy_bug: Option<SessionBug>,
    /// Sessions.
    pub sessions: u64,
    /// Rounds.
    pub rounds: u64,
    /// Rounds without a winner (capped or cycled).
    pub no_winner: u64,
    /// Capped rounds.
    pub capped: u64,
    /// Cycled rounds.
    pub cycled: u64,
    /// Sessions without a single winner.
    pub shared: u64,
    /// Per bot.
    pub bot: Vec<BotSums>,
    /// Per catalog rule.
    pub rule: Vec<RuleSums>,
    /// Votes.
    pub votes: VoteSums,
    /// Sessions in which some player led every other by 2 wins at some point.
    pub lead2: u64,
    /// Sum of the first round of such a lead.
    pub lead2_round: u64,
    /// Rules in force at the sessions' ends.
    pub at_end: u64,
    /// Hook runs cut at the depth limit.
    pub depth_limited: u64,
}

impl Sums {
    /// Empty sums for `bots` bots and `rules` catalog rules.
    pub fn new(bots: usize, rules: usize) -> Sums {
        Sums {
            bot: vec![BotSums::default(); bots],
            rule: vec![RuleSums { rounds_by_bot: vec![0; bots], after_win_by_bot: vec![0; bots], ..Default::default() }; rules],
            ..Default::default()
        }
    }

    /// Adds one session.
    pub fn add(&mut self, rec: &SessionRecord) {
        let n = self.bot.len().min(MAX_SEATS);
        let w = &rec.winners;
        self.sessions += 1;
        self.rounds += w.len() as u64;
        self.no_winner += w.iter().filter(|x| x.is_none()).count() as u64;
        self.capped += rec.capped as u64;
        self.cycled += rec.cycled as u64;
        self.shared += rec.session_winner.is_none() as u64;
        self.depth_limited += rec.depth_limited as u64;
        for seat in 0..n as u8 {
            let b = &mut self.bot[rec.seat_bots[seat as usize]];
            let me = Some(seat);
            b.sessions += 1;
            b.sessions_won += (rec.session_winner == me) as u64;
            b.rounds += w.len() as u64;
            b.won += w.iter().filter(|&&x| x == me).count() as u64;
            for k in 0..w.len().saturating_sub(1) {
                let again = (w[k + 1] == me) as u64;
                if w[k] == me {
                    b.won_then += 1;
                    b.won_again += again;
                } else {
                    b.lost_then += 1;
                    b.won_after_loss += again;
                }
            }
            b.later += w.len().saturating_sub(1) as u64;
            b.later_won += w.iter().skip(1).filter(|&&x| x == me).count() as u64;
            b.made += rec.logs.iter().filter(|l| l.maker == seat && !l.returned).count() as u64;
            b.proposed += rec.votes.iter().filter(|v| v.proposer == seat).count() as u64;
            b.proposed_passed += rec.votes.iter().filter(|v| v.proposer == seat && v.passed).count() as u64;
        }
        for l in &rec.logs {
            let r = &mut self.rule[l.rule as usize];
            r.made += !l.returned as u64;
            r.returned += l.returned as u64;
            r.restored += l.restored as u64;
            r.voted_away += l.voted_away as u64;
            r.withdrawn += (l.end == RuleEnd::Withdrawn) as u64;
            r.at_end += (l.end == RuleEnd::InForce) as u64;
            r.changed += l.changed as u64;
            r.rounds += l.rounds_in_force as u64;
            r.maker_wins += l.maker_wins as u64;
            r.fired += l.fired as u64;
            r.rounds_by_bot[rec.seat_bots[l.maker as usize]] += l.rounds_in_force as u64;
            r.after_win_by_bot[rec.seat_bots[l.maker as usize]] += l.after_maker_win as u64;
        }
        self.at_end += rec.end_rules.len() as u64;
        let v = &mut self.votes;
        for x in &rec.votes {
            v.held += 1;
            v.passed += x.passed as u64;
            v.tied += (x.count == Count::Tie) as u64;
            v.unopposed += x.unopposed as u64;
            let k = CHANGE_KINDS.iter().position(|&c| c == x.proposal.change.kind()).expect("kind");
            v.kind_held[k] += 1;
            v.kind_passed[k] += x.passed as u64;
            if let Some(r) = x.rps {
                v.rps += 1;
                v.rps_proposer_won += r.proposer_won as u64;
                v.sudden_death += r.sudden_death as u64;
                v.knockouts += r.knockout as u64;
                v.throws += r.throws as u64;
                v.stalled += r.stalled as u64;
            }
        }
        v.setup += rec.setup_votes.0 as u64;
        v.setup_returned += rec.setup_votes.1 as u64;
        // The first round after which one player leads every other by 2 wins.
        let mut wins = [0u32; MAX_SEATS];
        for (k, x) in w.iter().enumerate() {
            if let Some(s) = x {
                wins[*s as usize] += 1;
            }
            let mut sorted = wins;
            sorted[..n].sort_unstable_by(|a, b| b.cmp(a));
            if n >= 2 && sorted[0] >= sorted[1] + 2 {
                self.lead2 += 1;
                self.lead2_round += k as u64 + 1;
                break;
            }
        }
    }

    /// Adds everything counted in `o`.
    pub fn merge(&mut self, o: &Sums) {
        if let Some(b) = o.strategy_bug.filter(|b| self.strategy_bug.is_none_or(|k| b.session < k.session)) {
            self.strategy_bug = Some(b);
        }
        self.sessions += o.sessions;
        self.rounds += o.rounds;
        self.no_winner += o.no_winner;
        self.capped += o.capped;
        self.cycled += o.cycled;
        self.shared += o.shared;
        self.lead2 += o.lead2;
        self.lead2_round += o.lead2_round;
        self.at_end += o.at_end;
        self.depth_limited += o.depth_limited;
        for (a, b) in self.bot.iter_mut().zip(&o.bot) {
            a.sessions += b.sessions;
            a.sessions_won += b.sessions_won;
            a.rounds += b.rounds;
            a.won += b.won;
            a.won_then += b.won_then;
            a.won_again += b.won_again;
            a.lost_then += b.lost_then;
            a.won_after_loss += b.won_after_loss;
            a.later += b.later;
            a.later_won += b.later_won;
            a.made += b.made;
            a.proposed += b.proposed;
            a.proposed_passed += b.proposed_passed;
        }
        for (a, b) in self.rule.iter_mut().zip(&o.rule) {
            a.made += b.made;
            a.returned += b.returned;
            a.restored += b.restored;
            a.voted_away += b.voted_away;
            a.withdrawn += b.withdrawn;
            a.at_end += b.at_end;
            a.changed += b.changed;
            a.rounds += b.rounds;
            a.maker_wins += b.maker_wins;
            a.fired += b.fired;
            for (x, y) in a.rounds_by_bot.iter_mut().zip(&b.rounds_by_bot) {
                *x += y;
            }
            for (x, y) in a.after_win_by_bot.iter_mut().zip(&b.after_win_by_bot) {
                *x += y;
            }
        }
        let (v, w) = (&mut self.votes, &o.votes);
        v.held += w.held;
        v.passed += w.passed;
        v.tied += w.tied;
        v.unopposed += w.unopposed;
        v.rps += w.rps;
        v.rps_proposer_won += w.rps_proposer_won;
        v.sudden_death += w.sudden_death;
        v.knockouts += w.knockouts;
        v.throws += w.throws;
        v.stalled += w.stalled;
        v.setup += w.setup;
        v.setup_returned += w.setup_returned;
        for k in 0..4 {
            v.kind_held[k] += w.kind_held[k];
            v.kind_passed[k] += w.kind_passed[k];
        }
    }
}

/// An estimate with its 95% interval and the counts behind it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The value.
    pub value: f64,
    /// Interval, or NaN when there is too little data.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// Numerator.
    pub count: f64,
    /// Denominator.
    pub total: f64,
}

impl Estimate {
    fn plain(value: f64, count: f64, total: f64) -> Estimate {
        Estimate { value, lo: f64::NAN, hi: f64::NAN, count, total }
    }
}

/// `Σx / Σy` over clusters `(x_i, y_i)` ([`cluster_ratio`]: the cluster-robust
/// (linearised) standard error and the interval `r ∓ t_{0.975, G-1} SE`), clipped to
/// [0, 1] for shares.
pub fn ratio(groups: &[(f64, f64)], share: bool) -> Estimate {
    let c = cluster_ratio(groups);
    if c.y == 0.0 {
        return Estimate::plain(f64::NAN, c.x, c.y);
    }
    let (mut lo, mut hi) = (c.lo, c.hi);
    if share {
        lo = lo.max(0.0);
        hi = hi.min(1.0);
    }
    Estimate { value: c.value, lo, hi, count: c.x, total: c.y }
}

/// `Σx/Σy - Σz/Σm` over clusters `(x, y, z, m)`, with the linearised cluster SE and the
/// t quantile of [`cluster_ratio`].
pub fn ratio_difference(groups: &[(f64, f64, f64, f64)]) -> Estimate {
    let s = groups.iter().fold([0.0; 4], |a, g| [a[0] + g.0, a[1] + g.1, a[2] + g.2, a[3] + g.3]);
    if s[1] == 0.0 || s[3] == 0.0 {
        return Estimate::plain(f64::NAN, 0.0, 0.0);
    }
    let (r1, r2) = (s[0] / s[1], s[2] / s[3]);
    let g = groups.len() as f64;
    let ss: f64 = groups.iter().map(|&(x, y, z, m)| ((x - r1 * y) / s[1] - (z - r2 * m) / s[3]).powi(2)).sum();
    let se = if g > 1.0 { (g / (g - 1.0) * ss).sqrt() } else { f64::NAN };
    let d = r1 - r2;
    Estimate { value: d, lo: d - t_95(g - 1.0) * se, hi: d + t_95(g - 1.0) * se, count: s[0], total: s[1] }
}

/// `(Σx - Σe) / Σy` over clusters `(x, y, e)` (observed minus expected per unit of `y`),
/// with the linearised cluster SE and the t quantile of [`cluster_ratio`].
pub fn excess(groups: &[(f64, f64, f64)]) -> Estimate {
    let s = groups.iter().fold([0.0; 3], |a, g| [a[0] + g.0, a[1] + g.1, a[2] + g.2]);
    if s[1] == 0.0 {
        return Estimate::plain(f64::NAN, s[0], s[1]);
    }
    let d = (s[0] - s[2]) / s[1];
    let g = groups.len() as f64;
    let ss: f64 = groups.iter().map(|&(x, y, e)| (x - e - d * y).powi(2)).sum();
    let se = if g > 1.0 { (g / (g - 1.0) * ss).sqrt() / s[1] } else { f64::NAN };
    Estimate { value: d, lo: d - t_95(g - 1.0) * se, hi: d + t_95(g - 1.0) * se, count: s[0], total: s[1] }
}

/// What labels the rows of a run.
pub struct RunLabels<'a> {
    /// Bot labels, by bot index.
    pub bots: &'a [String],
    /// Catalog rule ids, by index.
    pub rules: &'a [&'static str],
    /// Non-default flags.
    pub flags: &'a str,
    /// Master seed.
    pub seed: u64,
    /// Rounds per session.
    pub rounds: u16,
    /// Target wins (0: none).
    pub target_wins: u16,
}

/// The CSV columns.
pub const COLUMNS: [&str; 15] =
    ["game", "bots", "flags", "seed", "rounds", "target_wins", "sessions", "section", "subject", "measure", "value", "ci_low", "ci_high", "count", "total"];

/// The figures of a run, ready to print or write.
pub struct Report {
    /// CSV rows.
    pub rows: Vec<SummaryRow>,
    /// Per bot: rounds won, sessions won, P(win after win), base, lift.
    pub bots: Vec<[Estimate; 5]>,
    /// Pooled: P(win k+1 | won k), the base rates' prediction, the lift.
    pub rich: [Estimate; 3],
    /// Per catalog rule: made, maker win rate in force, base, effect, and the effect
    /// against the maker's rate after a win or not (whichever each round was).
    pub rules: Vec<(u64, Estimate, f64, Estimate, Estimate)>,
    /// The totals.
    pub total: Sums,
}

fn fmt(x: f64) -> String {
    if x.is_finite() { format!("{:.6}", x + 0.0) } else { String::new() }
}

fn fmt_count(x: f64) -> String {
    if x.fract() == 0.0 && x.is_finite() { format!("{}", x as u64) } else { fmt(x) }
}

/// Builds the report from per-group sums (in group order).
pub fn report(labels: &RunLabels, groups: &[Sums]) -> Report {
    let nb = labels.bots.len();
    let mut total = Sums::new(nb, labels.rules.len());
    for g in groups {
        total.merge(g);
    }
    let col = |f: &dyn Fn(&Sums) -> (f64, f64)| -> Vec<(f64, f64)> { groups.iter().map(f).collect() };
    let mut rows: Vec<SummaryRow> = Vec::new();
    let header: Vec<String> = COLUMNS.iter().map(|s| s.to_string()).collect();
    let mut push = |section: &str, subject: &str, measure: &str, e: Estimate| {
        rows.push(SummaryRow {
            header: header.clone(),
            values: vec![
                "lopti".into(),
                labels.bots.join(" vs "),
                labels.flags.to_string(),
                labels.seed.to_string(),
                labels.rounds.to_string(),
                labels.target_wins.to_string(),
                total.sessions.to_string(),
                section.into(),
                subject.into(),
                measure.into(),
                fmt(e.value),
                fmt(e.lo),
                fmt(e.hi),
                fmt_count(e.count),
                fmt_count(e.total),
            ],
        });
    };
    // Each bot's base rate: its share of rounds 2.. (every round but the first, which
    // nobody wins as a previous winner).
    let base: Vec<f64> = total.bot.iter().map(|b| if b.later > 0 { b.later_won as f64 / b.later as f64 } else { 0.0 }).collect();
    // Each bot's rate after a round it won, and after one it did not.
    let rate = |x: u64, y: u64| if y > 0 { x as f64 / y as f64 } else { 0.0 };
    let after_win: Vec<f64> = total.bot.iter().map(|b| rate(b.won_again, b.won_then)).collect();
    let after_other: Vec<f64> = total.bot.iter().map(|b| rate(b.won_after_loss, b.lost_then)).collect();
    let mut bots = Vec::new();
    for (i, label) in labels.bots.iter().enumerate() {
        let b = |g: &Sums| g.bot[i].clone();
        let rounds = ratio(&col(&|g| (b(g).won as f64, b(g).rounds as f64)), true);
        let sessions = ratio(&col(&|g| (b(g).sessions_won as f64, b(g).sessions as f64)), true);
        let again = ratio(&col(&|g| (b(g).won_again as f64, b(g).won_then as f64)), true);
        let later = ratio(&col(&|g| (b(g).later_won as f64, b(g).later as f64)), true);
        let lift = ratio_difference(&groups.iter().map(|g| (b(g).won_again as f64, b(g).won_then as f64, b(g).later_won as f64, b(g).later as f64)).collect::<Vec<_>>());
        let after_loss = ratio(&col(&|g| (b(g).won_after_loss as f64, b(g).lost_then as f64)), true);
        let t = &total.bot[i];
        push("bot", label, "rounds_won", rounds);
        push("bot", label, "sessions_won", sessions);
        push("bot", label, "win_after_win", again);
        push("bot", label, "win_base", later);
        push("bot", label, "win_after_win_lift", lift);
        push("bot", label, "win_after_loss", after_loss);
        push("bot", label, "rules_made", Estimate::plain(t.made as f64 / t.sessions.max(1) as f64, t.made as f64, t.sessions as f64));
        push("bot", label, "proposals", Estimate::plain(t.proposed as f64 / t.sessions.max(1) as f64, t.proposed as f64, t.sessions as f64));
        push("bot", label, "proposals_passed", ratio(&col(&|g| (b(g).proposed_passed as f64, b(g).proposed as f64)), true));
        bots.push([rounds, sessions, again, later, lift]);
    }
    // Rich get richer, pooled over bots: observed repeats against what each bot's base
    // rate predicts for the rounds after its wins.
    let expected = |g: &Sums| g.bot.iter().zip(&base).map(|(b, q)| b.won_then as f64 * q).sum::<f64>();
    let again = ratio(&col(&|g| (g.bot.iter().map(|b| b.won_again as f64).sum(), g.bot.iter().map(|b| b.won_then as f64).sum())), true);
    let y_all: f64 = total.bot.iter().map(|b| b.won_then as f64).sum();
    let e_all: f64 = groups.iter().map(expected).sum();
    let predicted = Estimate::plain(if y_all > 0.0 { e_all / y_all } else { f64::NAN }, e_all, y_all);
    let lift = excess(&groups.iter().map(|g| (g.bot.iter().map(|b| b.won_again as f64).sum(), g.bot.iter().map(|b| b.won_then as f64).sum(), expected(g))).collect::<Vec<_>>());
    let after_loss = ratio(&col(&|g| (g.bot.iter().map(|b| b.won_after_loss as f64).sum(), g.bot.iter().map(|b| b.lost_then as f64).sum())), true);
    push("all", "all", "win_after_win", again);
    push("all", "all", "win_base", predicted);
    push("all", "all", "win_after_win_lift", lift);
    push("all", "all", "win_after_loss", after_loss);
    let s = total.sessions.max(1) as f64;
    let t = &total;
    push("all", "all", "rounds_per_session", Estimate::plain(t.rounds as f64 / s, t.rounds as f64, t.sessions as f64));
    push("all", "all", "rounds_without_winner", ratio(&col(&|g| (g.no_winner as f64, g.rounds as f64)), true));
    push("all", "all", "capped_rounds", Estimate::plain(t.capped as f64, t.capped as f64, t.rounds as f64));
    push("all", "all", "cycled_rounds", Estimate::plain(t.cycled as f64, t.cycled as f64, t.rounds as f64));
    push("all", "all", "sessions_without_single_winner", ratio(&col(&|g| (g.shared as f64, g.sessions as f64)), true));
    push("all", "all", "sessions_with_a_lead_of_2", ratio(&col(&|g| (g.lead2 as f64, g.sessions as f64)), true));
    push("all", "all", "first_lead_of_2_round", ratio(&col(&|g| (g.lead2_round as f64, g.lead2 as f64)), false));
    let v = &t.votes;
    push("all", "all", "votes_held", ratio(&col(&|g| (g.votes.held as f64, g.rounds as f64)), true));
    push("all", "all", "votes_passed", ratio(&col(&|g| (g.votes.passed as f64, g.votes.held as f64)), true));
    push("all", "all", "votes_tied", ratio(&col(&|g| (g.votes.tied as f64, g.votes.held as f64)), true));
    push("all", "all", "ties_decided_by_rps", ratio(&col(&|g| (g.votes.rps as f64, g.votes.tied as f64)), true));
    push("all", "all", "ties_without_rps", ratio(&col(&|g| (g.votes.unopposed as f64, g.votes.tied as f64)), true));
    push("all", "all", "rps_proposer_won", ratio(&col(&|g| (g.votes.rps_proposer_won as f64, g.votes.rps as f64)), true));
    push("all", "all", "rps_sudden_death", ratio(&col(&|g| (g.votes.sudden_death as f64, g.votes.rps as f64)), true));
    push("all", "all", "rps_knockouts", Estimate::plain(v.knockouts as f64, v.knockouts as f64, v.rps as f64));
    push("all", "all", "rps_throws_per_tiebreak", Estimate::plain(v.throws as f64 / v.rps.max(1) as f64, v.throws as f64, v.rps as f64));
    push("all", "all", "rps_stalled_throws", Estimate::plain(v.stalled as f64, v.stalled as f64, v.throws as f64));
    push("all", "all", "setup_votes", Estimate::plain(v.setup as f64 / s, v.setup as f64, t.sessions as f64));
    push("all", "all", "rules_returned", Estimate::plain(v.setup_returned as f64 / s, v.setup_returned as f64, t.sessions as f64));
    let made: u64 = t.rule.iter().map(|r| r.made).sum();
    push("all", "all", "rules_made_per_session", Estimate::plain(made as f64 / s, made as f64, t.sessions as f64));
    push("all", "all", "rules_in_force_at_end", Estimate::plain(t.at_end as f64 / s, t.at_end as f64, t.sessions as f64));
    push("all", "all", "hook_depth_limit_hits", Estimate::plain(t.depth_limited as f64, t.depth_limited as f64, t.rounds as f64));
    for (k, kind) in CHANGE_KINDS.iter().enumerate() {
        push("vote", kind, "held", Estimate::plain(v.kind_held[k] as f64 / v.held.max(1) as f64, v.kind_held[k] as f64, v.held as f64));
        push("vote", kind, "passed", ratio(&col(&|g| (g.votes.kind_passed[k] as f64, g.votes.kind_held[k] as f64)), true));
    }
    let mut rules = Vec::new();
    for (c, id) in labels.rules.iter().enumerate() {
        let r = &t.rule[c];
        let lives = (r.made + r.returned).max(1) as f64;
        let share = |x: u64| Estimate::plain(x as f64 / lives, x as f64, (r.made + r.returned) as f64);
        push("rule", id, "made", Estimate::plain(r.made as f64 / s, r.made as f64, t.sessions as f64));
        push("rule", id, "returned", Estimate::plain(r.returned as f64 / s, r.returned as f64, t.sessions as f64));
        push("rule", id, "rounds_in_force", Estimate::plain(r.rounds as f64 / lives, r.rounds as f64, (r.made + r.returned) as f64));
        push("rule", id, "voted_away", share(r.voted_away));
        push("rule", id, "withdrawn", share(r.withdrawn));
        push("rule", id, "in_force_at_end", share(r.at_end));
        push("rule", id, "changed_by_vote", Estimate::plain(r.changed as f64, r.changed as f64, (r.made + r.returned) as f64));
        push("rule", id, "restored_by_vote", Estimate::plain(r.restored as f64, r.restored as f64, (r.made + r.returned) as f64));
        push("rule", id, "fires_per_round", Estimate::plain(r.fired as f64 / r.rounds.max(1) as f64, r.fired as f64, r.rounds as f64));
        let win = ratio(&col(&|g| (g.rule[c].maker_wins as f64, g.rule[c].rounds as f64)), true);
        let exp = |g: &Sums| g.rule[c].rounds_by_bot.iter().zip(&base).map(|(&n, q)| n as f64 * q).sum::<f64>();
        let e: f64 = groups.iter().map(exp).sum();
        let base_rate = if r.rounds > 0 { e / r.rounds as f64 } else { f64::NAN };
        let effect = excess(&groups.iter().map(|g| (g.rule[c].maker_wins as f64, g.rule[c].rounds as f64, exp(g))).collect::<Vec<_>>());
        // The same against what the maker's bot wins after a round it won (it then plays
        // first, and any momentum shows) or after one it did not.
        let exp_adj = |g: &Sums| {
            let r = &g.rule[c];
            (0..nb).map(|b| r.after_win_by_bot[b] as f64 * after_win[b] + (r.rounds_by_bot[b] - r.after_win_by_bot[b]) as f64 * after_other[b]).sum::<f64>()
        };
        let adjusted = excess(&groups.iter().map(|g| (g.rule[c].maker_wins as f64, g.rule[c].rounds as f64, exp_adj(g))).collect::<Vec<_>>());
        let e_adj: f64 = groups.iter().map(exp_adj).sum();
        push("rule", id, "maker_win_in_force", win);
        push("rule", id, "maker_base", Estimate::plain(base_rate, e, r.rounds as f64));
        push("rule", id, "maker_effect", effect);
        push("rule", id, "maker_base_by_last_round", Estimate::plain(if r.rounds > 0 { e_adj / r.rounds as f64 } else { f64::NAN }, e_adj, r.rounds as f64));
        push("rule", id, "maker_effect_by_last_round", adjusted);
        rules.push((r.made, win, base_rate, effect, adjusted));
    }
    Report { rows, bots, rich: [again, predicted, lift], rules, total }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// t_{0.975} with 2 degrees of freedom (three clusters), from the tables.
    const T_2: f64 = 4.302_653;

    #[test]
    fn ratio_interval_by_hand() {
        // Three clusters: 1/2, 2/2, 0/2 -> r = 1/2; residuals 0, 1, -1; SE = sqrt(3/2 * 2) / 6.
        let e = ratio(&[(1.0, 2.0), (2.0, 2.0), (0.0, 2.0)], false);
        assert!((e.value - 0.5).abs() < 1e-12);
        let se = (1.5f64 * 2.0).sqrt() / 6.0;
        assert!((e.hi - (0.5 + T_2 * se)).abs() < 1e-6, "{e:?}");
        let d = excess(&[(1.0, 2.0, 0.5), (2.0, 2.0, 0.5), (0.0, 2.0, 0.5)]);
        assert!((d.value - 0.25).abs() < 1e-12, "(3 - 1.5) / 6");
        let same = ratio_difference(&[(1.0, 2.0, 1.0, 2.0), (2.0, 2.0, 2.0, 2.0)]);
        assert_eq!((same.value, same.lo, same.hi), (0.0, 0.0, 0.0), "identical rates differ by exactly 0");
        assert!(ratio(&[(0.0, 0.0)], true).value.is_nan());
    }

    #[test]
    fn lift_standard_errors_keep_every_delta_method_term() {
        // Excess: d = 1/4; residuals x - e - d y = 0, 1, -1; SE = sqrt(3/2 * 2) / 6.
        let d = excess(&[(1.0, 2.0, 0.5), (2.0, 2.0, 0.5), (0.0, 2.0, 0.5)]);
        let se = (1.5f64 * 2.0).sqrt() / 6.0;
        assert!((d.hi - (0.25 + T_2 * se)).abs() < 1e-6 && (d.lo - (0.25 - T_2 * se)).abs() < 1e-6, "{d:?}");
        // Difference of ratios 3/6 - 4/12 = 1/6; per cluster (x - r1 y) / 6 - (z - r2 m) / 12
        // = 1/36, 7/36, -8/36; SE = sqrt(3/2 * 114 / 1296) = sqrt(171) / 36 (hand computed).
        let lift = ratio_difference(&[(1.0, 2.0, 1.0, 4.0), (2.0, 2.0, 1.0, 4.0), (0.0, 2.0, 2.0, 4.0)]);
        let se = 171f64.sqrt() / 36.0;
        assert!((lift.value - 1.0 / 6.0).abs() < 1e-12, "{lift:?}");
        assert!((lift.hi - (1.0 / 6.0 + T_2 * se)).abs() < 1e-6 && (lift.lo - (1.0 / 6.0 - T_2 * se)).abs() < 1e-6, "{lift:?}");
    }
}
