//! `cardsim session lopti`: runs many sessions and reports the session statistics
//! (printed, and as CSV with `--csv`), or traces one session (`--trace-index I`).
//!
//! Bots are `STRATEGY[,maker=M][,voter=V][,rps=R]` (defaults `maker=selfish`,
//! `voter=selfish`, `rps=uniform`), sorted by label, and every session of a seating group
//! is played under one of the group's seat orders (every order for 2-4 players, the
//! balanced design of 10 for 5), so each bot sits in each seat equally often and the
//! output does not depend on the order of `--bot`. Sessions of a group share their deals
//! (common random numbers); a bot's decisions come from its seat's streams. The run is
//! the same on any number of threads.

use super::meta::{Maker, ValueTable, Voter, MAKERS, VOTERS};
use super::rps::{RpsStrategy, RPS_STRATEGIES};
use super::stats::{report, Report, RunLabels, Sums};
use super::{play_session, RuleLog, SessionBot, SessionFlags, SessionObserver, Table, BASIC_FLAGS, SESSION_FLAGS};
use crate::games::lopti::config::Rules;
use crate::games::lopti::events::{Event, NoObserver, Observer};
use crate::games::lopti::special::{file, Catalog};
use crate::games::lopti::state::State;
use crate::games::lopti::strategies::{self, Params};
use crate::output::console::Console;
use crate::rng::{deal_seed, mix};
use crate::games::lopti::entry::MAX_SEATS;
use crate::runner::{seating, seatings_per_deal, twin_ranks, SeatingDesign};
use crate::settings::Settings;
use crate::trace::{StreamSink, TraceEvent, TraceFormat, TraceSink};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Options of `cardsim session`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  cardsim session lopti --bot lowest --bot burner --bot random --bot lowest,maker=random --rounds 20 --sessions 10000 --csv s.csv
  cardsim session lopti --bot lowest --bot burner,voter=fair,rps=exploit --rounds 10 --trace-index 3
  cardsim session lopti --list-rules")]
pub struct SessionArgs {
    /// Game (only `lopti` has sessions).
    pub game: String,
    #[arg(long = "bot", value_name = "SPEC", help = concat!("A player as STRATEGY[,maker=selfish|random|none][,voter=selfish|fair|none][,rps=uniform|biased|pattern|exploit]; \
        repeat once per player (2 to 5). STRATEGY may be an external bot, exec:PATH[,ARG...] (the session keys come last); it plays \
        its rounds over the protocol, each round one match, and answers the rule making, votes and RPS it declares; the built-in maker, voter \
        and rps make the others (docs/bot-protocol.md section 5.5).", crate::external_bot_help!()))]
    pub bots: Vec<String>,
    /// Rounds per session.
    #[arg(long, default_value_t = 20)]
    pub rounds: u16,
    /// A session also ends as soon as a player has this many round wins (0: play all rounds).
    #[arg(long, default_value_t = 0)]
    pub target_wins: u16,
    /// Number of sessions (rounded up to whole seating groups), 1 to 10^12.
    #[arg(long, default_value_t = 1000)]
    pub sessions: u64,
    /// Master seed: the same seed gives byte-identical results.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    // The statistics exported (`--csv`, `--json`, `--markdown`): the rows of the report.
    #[command(flatten)]
    pub export: crate::output::format::ExportArgs,
    /// Flag as KEY=VALUE: the lopti.* rules and the session decisions (see --list-rules).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// A TOML file of extra special rules for the catalog (repeatable; see docs/lopti-sessions.md).
    #[arg(long = "rules", value_name = "FILE")]
    pub rule_files: Vec<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Print the whole of session I instead (rules made, votes, every RPS throw, every
    /// event of every round), as numbered by a run with the same options.
    #[arg(long, value_name = "I")]
    pub trace_index: Option<u64>,
    /// Trace format.
    #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
    pub format: TraceFormat,
    /// With --trace-index: only the events of round K (counted from 1, as the trace's
    /// `round` field); the session's start and end are always printed.
    #[arg(long = "round", value_name = "K")]
    pub round: Option<u64>,
    /// With --trace-index: only the events of seat S and those of the table (rounds'
    /// starts and ends, rules made, votes).
    #[arg(long = "seat", value_name = "S")]
    pub seat: Option<usize>,
    /// List the special rules, the meta strategies and the session flags, and exit.
    #[arg(long)]
    pub list_rules: bool,
    /// Longest wait, in seconds, for one line from an external bot (`--bot exec:...`,
    /// docs/bot-protocol.md); a bot that takes longer fails the run. Default 10.
    #[arg(long, value_name = "SECONDS")]
    pub bot_timeout: Option<f64>,
}

/// Default players when no --bot is given.
const DEFAULT_BOTS: [&str; 3] = ["burner", "lowest", "random"];

/// Parses one `--bot` spec for a table of `players` under `settings` (an external bot's
/// hello names both; nothing is started yet). An external bot is
/// `exec:PATH[,ARG...]` followed by the session keys: the trailing `maker=`, `voter=`
/// and `rps=` parts are the session's, every part before them the program's.
pub fn parse_bot(spec: &str, params: &Params, settings: &Settings, players: usize, timeout_ms: u64) -> Result<SessionBot, String> {
    use crate::output::quote::clip;
    // Messages quote the spec and its parts clipped to 60 characters.
    let text = clip(spec);
    let all: Vec<&str> = spec.split(',').map(str::trim).collect();
    let is_key = |p: &&&str| p.split_once('=').is_some_and(|(k, _)| ["maker", "voter", "rps"].contains(&k));
    let cut = if all[0].starts_with("exec:") { all.len() - all.iter().rev().take_while(is_key).count() } else { 1 };
    let strategy = all[..cut].join(",");
    let parts = all[cut..].iter().copied();
    if strategy.ends_with(".toml") {
        return Err(format!("--bot {text}: bot files are not supported in sessions; use STRATEGY[,maker=..][,voter=..][,rps=..] or exec:PATH[,ARG...][,maker=..]..."));
    }
    let (play, external): (Box<dyn strategies::Strategy>, _) = if strategy.starts_with("exec:") {
        let b = crate::bot::BotSpec::parse(&strategy)?;
        if b.preset.is_some() {
            return Err(format!("--bot {text}: lopti is turn-based, so bots take no @PRESET"));
        }
        let mut x = b.external.clone().expect("an exec: bot");
        x.timeout_ms = timeout_ms;
        let x = crate::external::ExternalBot::new(&b.label, &x, "lopti", players, settings, super::protocol::DECISIONS)?;
        (Box::new(crate::games::lopti::protocol::External(x.clone())), Some(x))
    } else {
        if strategy.contains('@') {
            return Err(format!("--bot {text}: lopti is turn-based, so bots take no @PRESET"));
        }
        let play = strategies::build(&strategy, params).ok_or_else(|| {
            let names: Vec<&str> = strategies::REGISTRY.iter().map(|r| r.info.name).collect();
            format!("--bot {text}: unknown strategy '{}'; lopti strategies: {}, or exec:PATH[,ARG...] (docs/bot-protocol.md)", clip(&strategy), names.join(", "))
        })?;
        (play, None)
    };
    let (mut maker, mut voter, mut rps) = (Maker::Selfish, Voter::Selfish, RpsStrategy::Uniform);
    for part in parts {
        let (key, value) = part.split_once('=').ok_or_else(|| format!("--bot {text}: '{}' is not KEY=VALUE (maker, voter, rps)", clip(part)))?;
        let pick = |names: Vec<&str>| format!("--bot {text}: {}={}: unknown; valid: {}", clip(key), clip(value), names.join(", "));
        match key {
            "maker" => maker = MAKERS.iter().find(|m| m.0 == value).map(|m| m.1).ok_or_else(|| pick(MAKERS.iter().map(|m| m.0).collect()))?,
            "voter" => voter = VOTERS.iter().find(|m| m.0 == value).map(|m| m.1).ok_or_else(|| pick(VOTERS.iter().map(|m| m.0).collect()))?,
            "rps" => rps = RPS_STRATEGIES.iter().find(|m| m.0 == value).map(|m| m.1).ok_or_else(|| pick(RPS_STRATEGIES.iter().map(|m| m.0).collect()))?,
            _ => return Err(format!("--bot {text}: unknown key '{}'; valid keys: maker, voter, rps", clip(key))),
        }
    }
    let mut label = strategy.clone();
    if maker != Maker::Selfish {
        label += &format!(",maker={}", maker.name());
    }
    if voter != Voter::Selfish {
        label += &format!(",voter={}", voter.name());
    }
    if rps != RpsStrategy::Uniform {
        label += &format!(",rps={}", rps.name());
    }
    Ok(SessionBot { label, strategy, play, external, maker, voter, rps })
}

/// A checked run: the table, the labels and the seeding.
pub struct Prepared {
    /// The table.
    pub table: Table,
    /// Non-default flags.
    pub flags: String,
    /// Settings in force.
    pub settings: Settings,
}

/// Checks the options and builds the table (bots sorted by label; no value table yet);
/// `bot_timeout`: `--bot-timeout` (seconds) of the external bots.
pub fn prepare(bot_texts: &[String], sets: &[String], rule_files: &[PathBuf], rounds: u16, target_wins: u16, bot_timeout: Option<f64>) -> Result<Prepared, String> {
    let settings = Settings::parse(&SESSION_FLAGS, sets)?;
    let timeout_ms = bot_timeout.map(crate::external::timeout_ms).transpose()?.unwrap_or(crate::external::DEFAULT_TIMEOUT_MS);
    let params = Params { mcts_iterations: settings.get_int("lopti.mcts_iterations") as u32 };
    let texts: Vec<String> = if bot_texts.is_empty() { DEFAULT_BOTS.iter().map(|s| s.to_string()).collect() } else { bot_texts.to_vec() };
    if !(2..=MAX_SEATS).contains(&texts.len()) {
        return Err(format!("lopti needs 2 to 5 --bot options, got {}", texts.len()));
    }
    let mut bots = texts.iter().map(|t| parse_bot(t, &params, &settings, texts.len(), timeout_ms)).collect::<Result<Vec<_>, _>>()?;
    Rules::check_table(&settings, bots.len(), &bots.iter().map(|b| b.strategy.as_str()).collect::<Vec<_>>())?;
    bots.sort_by(|a, b| a.label.cmp(&b.label));
    if rounds == 0 {
        return Err("--rounds must be at least 1".into());
    }
    if target_wins > rounds {
        return Err(format!("--target-wins {target_wins} is more than --rounds {rounds}"));
    }
    let mut catalog = Catalog::built_in();
    for f in rule_files {
        for def in file::load(f)? {
            catalog.add(def).map_err(|e| format!("{}: {e}", f.display()))?;
        }
    }
    let labels: Vec<String> = bots.iter().map(|b| b.label.clone()).collect();
    let twin = twin_ranks(&labels);
    let table = Table {
        bots,
        rules: Rules::from_settings(&settings),
        flags: SessionFlags::from_settings(&settings),
        catalog: Arc::new(catalog),
        rounds,
        target_wins,
        values: Vec::new(),
        twin,
    };
    Ok(Prepared { table, flags: settings.non_default(), settings })
}

/// Most quick-simulation value tables a run draws: group `g` plays with table
/// `g % QUICK_TABLES`, and the intervals take the block of groups sharing a table as
/// their unit. One table shared by every group made the intervals too narrow (their
/// spread left out the table's own noise: 95% intervals covered 0.86-0.90, issue 18);
/// 32 blocks give the cluster SE 31 degrees of freedom for about 32 times the quick
/// simulation's time (0.4-0.8 s a table at the default `session.quick_rounds`).
pub const QUICK_TABLES: u64 = 32;

/// The quick simulation's value tables for `blocks` blocks of groups (each from the
/// master seed and its block), if a selfish strategy needs them; none otherwise. An
/// external bot plays its rounds of the quick simulation over the protocol too; its
/// fault is the error.
pub fn values_for(table: &Table, seed: u64, blocks: u64) -> Result<Vec<ValueTable>, String> {
    if !table.bots.iter().any(|b| b.maker == Maker::Selfish || b.voter == Voter::Selfish) {
        return Ok(Vec::new());
    }
    (0..blocks.clamp(1, QUICK_TABLES)).map(|b| ValueTable::compute(table, mix(&[seed, 0x7661_6C75, b]), table.flags.quick_rounds)).collect::<Result<_, _>>()
}

/// The per-group sums gathered into the blocks that share a value table (group `g` in
/// block `g % tables`): the independent units of the intervals. Without tables (no
/// selfish strategy) the groups themselves are.
pub fn blocks(table: &Table, groups: Vec<Sums>) -> Vec<Sums> {
    let k = table.values.len();
    if k == 0 || groups.len() <= k {
        return groups;
    }
    let mut out: Vec<Sums> = Vec::with_capacity(k);
    for (g, sums) in groups.into_iter().enumerate() {
        match out.get_mut(g % k) {
            Some(block) => block.merge(&sums),
            None => out.push(sums),
        }
    }
    out
}

/// How the sessions of a run are laid out: groups of seatings of series.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Players.
    pub n: usize,
    /// Seatings per group.
    pub per: u64,
    /// Sessions per series.
    pub series: u64,
    /// Groups.
    pub groups: u64,
}

impl Layout {
    /// The layout for at least `sessions` sessions.
    pub fn new(n: usize, series: u64, sessions: u64) -> Layout {
        let per = seatings_per_deal(SeatingDesign::All, n);
        Layout { n, per, series, groups: sessions.div_ceil(per * series).max(1) }
    }
    /// Sessions in all.
    pub fn sessions(&self) -> u64 {
        self.groups * self.per * self.series
    }
    /// Sessions per group.
    pub fn per_group(&self) -> u64 {
        self.per * self.series
    }
    /// Group, seating and position in its series of session `index`, and its seeds:
    /// the group's seed, and the session's.
    pub fn locate(&self, seed: u64, index: u64) -> (u64, u64, u64, u64, u64) {
        let (unit, j) = (index / self.series, index % self.series);
        let (g, k) = (unit / self.per, unit % self.per);
        let gs = deal_seed(seed, g);
        (g, k, j, gs, mix(&[gs, 0x7365_7373, j]))
    }
}

/// Plays group `g` (every seating, each a series) and sums its sessions.
pub fn play_group(table: &Table, layout: &Layout, seed: u64, g: u64) -> Sums {
    let mut sums = Sums::new(table.bots.len(), table.catalog.rules.len());
    for k in 0..layout.per {
        let mut returning: Vec<RuleLog> = Vec::new();
        for j in 0..layout.series {
            let (_, _, _, gs, ss) = layout.locate(seed, (g * layout.per + k) * layout.series + j);
            let sb = seating(SeatingDesign::All, layout.n, gs, k);
            let rec = play_session(table, table.values_of_group(g), &sb[..layout.n], ss, &returning, &mut NoObserver);
            returning = rec.end_rules.iter().map(|r| rec.logs[r.serial as usize - 1]).collect();
            sums.add(&rec);
            if let (Some((round, choice)), None) = (rec.illegal, sums.strategy_bug) {
                let session = (g * layout.per + k) * layout.series + j;
                sums.strategy_bug = Some(super::stats::SessionBug { session, seat_bots: rec.seat_bots, round, choice });
            }
        }
    }
    sums
}

/// Plays every group of `layout` on the current rayon pool; per-group sums in order.
pub fn play_all(table: &Table, layout: &Layout, seed: u64, bar: &ProgressBar) -> Vec<Sums> {
    (0..layout.groups)
        .into_par_iter()
        .map(|g| {
            let s = play_group(table, layout, seed, g);
            bar.inc(layout.per_group());
            s
        })
        .collect()
}

fn progress(total: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("lopti sessions [{bar:40}] {human_pos}/{human_len}  {rate}  eta {eta}")
            .expect("valid template")
            .with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0} sessions/s", s.per_sec());
            })
            .progress_chars("=> "),
    );
    bar
}

use crate::cli::thread_pool;

/// Runs `cardsim session`.
pub fn run(a: SessionArgs) -> Result<(), String> {
    if a.game != "lopti" {
        crate::games::find(&a.game)?;
        return Err(format!("session: {} has no sessions; only lopti does", a.game));
    }
    if a.list_rules {
        let mut out = Console::stdout();
        let _ = list(&mut out, &a.rule_files);
        return out.finish();
    }
    crate::cli::check_count("--sessions", a.sessions, 1, crate::cli::MAX_GAMES)?;
    if let Some(i) = a.trace_index {
        crate::cli::check_count("--trace-index", i, 0, crate::cli::MAX_GAMES - 1)?;
    }
    let filter = crate::trace::TraceFilter { deal: a.round.map(|k| k.wrapping_sub(1)), seat: a.seat };
    if a.trace_index.is_none() && (a.round.is_some() || a.seat.is_some()) {
        return Err(format!("{} filters a trace: give --trace-index I", if a.round.is_some() { "--round" } else { "--seat" }));
    }
    if a.round == Some(0) {
        return Err("--round 0: rounds are counted from 1".into());
    }
    let exports = a.export.check()?;
    let mut p = prepare(&a.bots, &a.sets, &a.rule_files, a.rounds, a.target_wins, a.bot_timeout)?;
    if let Some(index) = a.trace_index {
        let (pool, _) = thread_pool(a.threads)?;
        let (g, ..) = Layout::new(p.table.bots.len(), p.table.flags.series as u64, index + 1).locate(a.seed, index);
        p.table.values = pool.install(|| values_for(&p.table, a.seed, g + 1))?;
        return trace(&p, a.seed, index, a.format, filter);
    }
    let (pool, threads) = thread_pool(a.threads)?;
    let layout = Layout::new(p.table.bots.len(), p.table.flags.series as u64, a.sessions);
    if layout.sessions() != a.sessions {
        eprintln!("note: playing {} sessions ({} groups x {} seatings{})", layout.sessions(), layout.groups, layout.per,
            if layout.series > 1 { format!(" x series of {}", layout.series) } else { String::new() });
    }
    let start = Instant::now();
    p.table.values = pool.install(|| values_for(&p.table, a.seed, layout.groups))?;
    let quick = start.elapsed().as_secs_f64();
    let bar = progress(layout.sessions(), a.quiet);
    let play_start = Instant::now();
    let groups = pool.install(|| play_all(&p.table, &layout, a.seed, &bar));
    bar.finish_and_clear();
    if let Some(bug) = groups.iter().filter_map(|s| s.strategy_bug).min_by_key(|b| b.session) {
        return Err(session_bug_message(&a, &p, &bug));
    }
    let secs = play_start.elapsed().as_secs_f64();
    let labels: Vec<String> = p.table.bots.iter().map(|b| b.label.clone()).collect();
    let ids: Vec<&'static str> = p.table.catalog.rules.iter().map(|r| r.id).collect();
    let rl = RunLabels { bots: &labels, rules: &ids, flags: &p.flags, seed: a.seed, rounds: a.rounds, target_wins: a.target_wins };
    let rep = report(&rl, &blocks(&p.table, groups));
    let mut out = if exports.takes_stdout() { Console::stderr() } else { Console::stdout() };
    let _ = print_report(&mut out, &p, &rl, &rep, quick);
    let n = layout.sessions();
    let _ = writeln!(out, "throughput: {n} sessions ({} rounds) in {secs:.2} s = {:.1} sessions/s on {threads} threads ({:.1} per thread)",
        rep.total.rounds, n as f64 / secs, n as f64 / secs / threads as f64);
    exports.write(&crate::output::format::Table::from_rows(&rep.rows), &mut out)?;
    out.finish()
}

fn ci(lo: f64, hi: f64) -> String {
    if lo.is_finite() { format!("[{lo:.4}, {hi:.4}]") } else { "[-]".into() }
}

fn print_report(out: &mut dyn Write, p: &Prepared, rl: &RunLabels, rep: &Report, quick: f64) -> std::io::Result<()> {
    let t = &rep.total;
    writeln!(out, "lopti sessions | {} | {} rounds{} | {} sessions | seed {} | {}", rl.bots.join(" vs "), rl.rounds,
        if rl.target_wins > 0 { format!(" or {} wins", rl.target_wins) } else { String::new() }, t.sessions, rl.seed,
        if p.flags.is_empty() { "default rules".to_string() } else { p.flags.clone() })?;
    if let Some(v) = p.table.values.first() {
        writeln!(out, "quick simulation (selfish strategies): {} tables (one per block of groups, the intervals' unit) x {} variants x {} rounds in {quick:.1} s",
            p.table.values.len(), v.variants.len(), v.rounds)?;
    }
    let w = rl.bots.iter().map(|l| l.len()).max().unwrap_or(3).max(3);
    writeln!(out, "{:<w$}  {:>8} {:>18}  {:>8} {:>18}  {:>8} {:>8} {:>8} {:>18}", "bot", "rounds", "95% CI", "sessions", "95% CI", "win|won", "base", "lift", "95% CI")?;
    for (label, e) in rl.bots.iter().zip(&rep.bots) {
        writeln!(out, "{label:<w$}  {:>8.4} {:>18}  {:>8.4} {:>18}  {:>8.4} {:>8.4} {:>+8.4} {:>18}", e[0].value, ci(e[0].lo, e[0].hi), e[1].value,
            ci(e[1].lo, e[1].hi), e[2].value, e[3].value, e[4].value, ci(e[4].lo, e[4].hi))?;
    }
    let [again, predicted, lift] = rep.rich;
    writeln!(out, "rich get richer: P(win round k+1 | won round k) = {:.4} {}; each bot's base rate predicts {:.4}; lift {:+.4} {}",
        again.value, ci(again.lo, again.hi), predicted.value, lift.value, ci(lift.lo, lift.hi))?;
    let v = &t.votes;
    writeln!(out, "rounds: {:.2} per session, {} without a winner ({} capped, {} cycled); sessions without a single winner: {}; with a lead of 2 wins: {}",
        t.rounds as f64 / t.sessions.max(1) as f64, t.no_winner, t.capped, t.cycled, t.shared, t.lead2)?;
    writeln!(out, "rule votes: {} held ({:.3} per round), {} passed, {} tied: {} settled by rock-paper-scissors (proposer won {}, {} sudden deaths, {} knockouts), {} without",
        v.held, v.held as f64 / t.rounds.max(1) as f64, v.passed, v.tied, v.rps, v.rps_proposer_won, v.sudden_death, v.knockouts, v.unopposed)?;
    let made: u64 = t.rule.iter().map(|r| r.made).sum();
    writeln!(out, "special rules: {made} made ({:.2} per session), {:.2} in force at the end; hook chains cut at the depth limit: {}",
        made as f64 / t.sessions.max(1) as f64, t.at_end as f64 / t.sessions.max(1) as f64, t.depth_limited)?;
    let mut order: Vec<usize> = (0..rl.rules.len()).filter(|&i| rep.rules[i].0 > 0).collect();
    order.sort_by(|&a, &b| rep.rules[b].3.value.abs().total_cmp(&rep.rules[a].3.value.abs()).then(a.cmp(&b)));
    writeln!(out, "rules by effect on their maker's win rate: the maker's win rate in the rounds the rule was in force, against the maker's base rate")?;
    writeln!(out, "(effect), and against its rate after a round it won or did not, as each of those rounds was (adjusted: the winner plays first):")?;
    writeln!(out, "  {:<18} {:>7} {:>8} {:>7} {:>7} {:>8} {:>18} {:>9} {:>18} {:>7}", "rule", "made", "rounds", "win", "base", "effect", "95% CI", "adjusted", "95% CI", "voted")?;
    for i in order {
        let (made, win, base, eff, adj) = &rep.rules[i];
        let r = &t.rule[i];
        writeln!(out, "  {:<18} {:>7} {:>8} {:>7.4} {:>7.4} {:>+8.4} {:>18} {:>+9.4} {:>18} {:>7}", rl.rules[i], made, r.rounds, win.value, base, eff.value,
            ci(eff.lo, eff.hi), adj.value, ci(adj.lo, adj.hi), r.voted_away)?;
    }
    Ok(())
}

/// Writes session traces: the rounds' engine events and the session's own.
struct SessionTrace<'a> {
    sink: &'a mut dyn TraceSink,
}

impl Observer for SessionTrace<'_> {
    fn event(&mut self, state: &State, ev: Event) {
        self.sink.event(crate::games::lopti::trace::trace_event(state, ev));
    }
}

impl SessionObserver for SessionTrace<'_> {
    fn tracing(&self) -> bool {
        true
    }
    fn note(&mut self, ev: TraceEvent) {
        self.sink.event(ev);
    }
}

/// The one-line report of a bot's illegal choice in a session, with the command that
/// traces that session.
fn session_bug_message(a: &SessionArgs, p: &Prepared, bug: &super::stats::SessionBug) -> String {
    let mut repro = format!("cardsim session lopti --rounds {} --seed {}", a.rounds, a.seed);
    for b in &a.bots {
        repro += &format!(" --bot {b}");
    }
    for s in &a.sets {
        repro += &format!(" --set {s}");
    }
    for f in &a.rule_files {
        repro += &format!(" --rules {}", f.display());
    }
    if a.target_wins > 0 {
        repro += &format!(" --target-wins {}", a.target_wins);
    }
    format!("{}; reproduce with: {repro} --trace-index {}", session_bug_line(p, bug, a.seed), bug.session)
}

/// What a session's strategy bug was: strategy, seat, action, index, round, session, seed.
fn session_bug_line(p: &Prepared, bug: &super::stats::SessionBug, seed: u64) -> String {
    let c = &bug.choice;
    if let Some(fault) = c.fault {
        let label = &p.table.bots[bug.seat_bots[c.seat as usize]].label;
        return format!("{} of round {} of session {} (seed {seed}); line: {}", crate::external::fault_words(label, c, fault), bug.round, bug.session, crate::external::fault_line(c));
    }
    format!(
        "strategy '{}' (seat {}) chose an illegal action {} at action index {} of round {} of session {} (seed {seed}): a bug in that strategy",
        p.table.bots[bug.seat_bots[c.seat as usize]].label, c.seat, c.action, c.index, bug.round, bug.session
    )
}

/// What `--round` and `--seat` count in a session trace: rounds, and the table's own
/// events.
const SESSION_SCOPE: crate::trace::TraceScope = crate::trace::TraceScope {
    unit: "round_start",
    always: &["session_start", "session_end"],
    table: &["session_start", "round_start", "round_end", "rule_made", "remove", "vote_result", "rule", "session_end"],
};

/// Traces session `index` of a run with these options.
fn trace(p: &Prepared, seed: u64, index: u64, format: TraceFormat, filter: crate::trace::TraceFilter) -> Result<(), String> {
    let n = p.table.bots.len();
    if let Some(seat) = filter.seat.filter(|&s| s >= n) {
        return Err(format!("--seat {seat}: this table has seats 0 to {}", n - 1));
    }
    let layout = Layout::new(n, p.table.flags.series as u64, index + 1);
    let (g, k, j, gs, _) = layout.locate(seed, index);
    let sb = seating(SeatingDesign::All, n, gs, k);
    let mut returning: Vec<RuleLog> = Vec::new();
    for jj in 0..j {
        let (.., ss) = layout.locate(seed, index - j + jj);
        let rec = play_session(&p.table, p.table.values_of_group(g), &sb[..n], ss, &returning, &mut NoObserver);
        returning = rec.end_rules.iter().map(|r| rec.logs[r.serial as usize - 1]).collect();
    }
    let (.., ss) = layout.locate(seed, index);
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let mut stream = StreamSink::new(&mut lock, format);
    let mut sink = crate::trace::FilterSink::scoped(&mut stream, filter, SESSION_SCOPE);
    let seats: Vec<serde_json::Value> = (0..n).map(|s| json!({"seat": s, "bot": p.table.bots[sb[s]].label, "bot_index": sb[s]})).collect();
    let flags: serde_json::Map<String, serde_json::Value> = p.settings.all().map(|(k, v)| (k.to_string(), serde_json::Value::from(v))).collect();
    let who: Vec<String> = (0..n).map(|s| format!("P{s}={}", p.table.bots[sb[s]].label)).collect();
    let detail = json!({"game": "lopti", "seed": seed, "index": index, "group": g, "seating": k, "series_position": j,
        "bots": p.table.bots.iter().map(|b| &b.label).collect::<Vec<_>>(), "seats": seats, "rounds": p.table.rounds,
        "target_wins": p.table.target_wins, "flags": flags, "returning": returning.len()});
    let detail = match detail {
        serde_json::Value::Object(m) => m,
        _ => unreachable!(),
    };
    sink.event(TraceEvent { time: None, seat: None, kind: "session_start", detail,
        text: format!("lopti session {index} (group {g}, seating {k}) seed {seed}: {} | {} rounds{} | {}", who.join(" "), p.table.rounds,
            if p.table.target_wins > 0 { format!(" or {} wins", p.table.target_wins) } else { String::new() },
            if p.flags.is_empty() { "default rules".into() } else { p.flags.clone() }) });
    let rec = play_session(&p.table, p.table.values_of_group(g), &sb[..n], ss, &returning, &mut SessionTrace { sink: &mut sink });
    let rounds = sink.deals;
    match stream.error {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(format!("writing the trace: {e}")),
        _ => {}
    }
    if let Some(k) = filter.deal.filter(|&k| k >= rounds) {
        return Err(format!("--round {}: session {index} played {rounds} round(s), 1 to {rounds}", k + 1));
    }
    match rec.illegal {
        None => Ok(()),
        Some((round, choice)) => Err(session_bug_line(p, &super::stats::SessionBug { session: index, seat_bots: rec.seat_bots, round, choice }, seed)),
    }
}

/// `--list-rules`: the catalog, the meta strategies and the session flags.
fn list(out: &mut dyn Write, rule_files: &[PathBuf]) -> std::io::Result<()> {
    let mut catalog = Catalog::built_in();
    for f in rule_files {
        match file::load(f).and_then(|defs| defs.into_iter().try_for_each(|d| catalog.add(d).map_err(|e| format!("{}: {e}", f.display())))) {
            Ok(()) => {}
            Err(e) => writeln!(out, "error: {e}")?,
        }
    }
    writeln!(out, "Special rules a winner may make (LOPTI-MAKE-*), as plugins hooking events:")?;
    for def in &catalog.rules {
        let hooks: Vec<String> = def.hooks.iter().map(|h| format!("{} {}", h.when.name(), h.event.name())).collect();
        writeln!(out, "  {:<18} [{}] {}", def.id, hooks.join("; "), def.text)?;
        for p in def.params {
            writeln!(out, "  {:<18}   {}={} ({}..{}; votes may propose {}): {}", "", p.name, p.show(p.default), p.show(p.min), p.show(p.max),
                p.alternatives.iter().map(|&a| p.show(a)).collect::<Vec<_>>().join(", "), p.doc)?;
        }
    }
    writeln!(out, "\nBasic rules a Rule Vote may flip for the session (LOPTI-VOTE-2):")?;
    for (name, _, doc) in BASIC_FLAGS {
        writeln!(out, "  lopti.{name:<20} {doc}")?;
    }
    writeln!(out, "\nBots: STRATEGY[,maker=M][,voter=V][,rps=R]; defaults maker=selfish, voter=selfish, rps=uniform")?;
    for (name, _, doc) in MAKERS {
        writeln!(out, "  maker={name:<9} {doc}")?;
    }
    for (name, _, doc) in VOTERS {
        writeln!(out, "  voter={name:<9} {doc}")?;
    }
    for (name, _, doc) in RPS_STRATEGIES {
        writeln!(out, "  rps={name:<11} {doc}")?;
    }
    writeln!(out, "\nFlags (--set KEY=VALUE; default first):")?;
    for f in SESSION_FLAGS.iter() {
        writeln!(out, "  {}={}  [{}]  {}", f.key, f.default, f.accepted(), f.doc)?;
    }
    Ok(())
}
