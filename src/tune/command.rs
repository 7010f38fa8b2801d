//! `cardsim tune`: SPSA over a built-in bot's strategy parameters ([`super::spsa`]).
//!
//! Iteration k plays deals `(k - 1) D .. k D` (D = `--deals`) twice, under every
//! seating: once with the bot at `theta + c_k flip` and once at `theta - c_k flip`,
//! against the same opponents, on the same deals and random numbers (the candidate
//! has the same label, so the same seat streams, in both). The result is the
//! candidate's summed deal score at plus less at minus (a deal's score is its share of
//! the deal's seatings, win = 1), and SPSA moves `theta` by it. The folder gets
//! `trajectory.csv` (one row per iteration), `trajectory.svg` (its chart), `tuned.toml`
//! (a bot file of the last point) and `checkpoint.json` while it runs: `--resume` continues a stopped run from
//! its last whole iteration, to the same bytes. At the end an SPRT of the tuned bot
//! against the start, on deals the tuning never played, gives the verdict.

use super::spsa::{Schedule, Spsa, SpsaParam};
use crate::bot::BotSpec;
use crate::games::params::{ParamDef, ParamValues};
use crate::games::GameEntry;
use crate::output::quote::clip;
use crate::runner::{run_deals, SeatingDesign};
use crate::table::Table;
use clap::Args;
use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The options of `cardsim tune`.
#[derive(Args, Debug, Clone)]
#[command(after_help = "Examples:
  cardsim tune spit --bot smart@expert --against greedy@expert --iterations 200 --deals 64
  cardsim tune speed --bot smart@skilled --param cover --param hard:10:0.002 --out tuned-speed
  cardsim tune spit --bot smart@expert --against greedy@expert --out results/tune-spit --resume")]
pub struct TuneArgs {
    /// Game.
    pub game: String,
    /// The bot to tune: a built-in strategy with parameters (`cardsim list`),
    /// `STRATEGY[@PRESET][,NAME=VALUE...]` or a bot file; its values are the start.
    #[arg(long = "bot", value_name = "SPEC")]
    pub bot: String,
    /// An opponent (repeat for more seats). Default: the bot to tune as given, so the
    /// tuned bot plays against its start.
    #[arg(long = "against", value_name = "SPEC")]
    pub against: Vec<String>,
    /// A parameter to tune, NAME or NAME:C_END:R_END (perturbation and learning rate
    /// at the last iteration; defaults: a fortieth of its range, and 0.02: a result of
    /// one deal won moves the parameter by 0.02 C_END at the end). Default: every
    /// parameter of the strategy.
    #[arg(long = "param", value_name = "NAME[:C_END:R_END]")]
    pub params: Vec<String>,
    /// Iterations (each plays --deals deals twice, at plus and at minus).
    #[arg(long, default_value_t = 200)]
    pub iterations: u64,
    /// Deals per iteration, each under every seating.
    #[arg(long, default_value_t = 64)]
    pub deals: u64,
    /// Master seed: the deals and the perturbation signs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A rule flag, KEY=VALUE (repeatable; `cardsim list`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Worker threads (default: all cores); the result is the same on any number.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The folder to write (created; an existing one is replaced only with --force).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Continue the stopped run in --out from its checkpoint.
    #[arg(long)]
    pub resume: bool,
    /// Replace an existing folder --out.
    #[arg(long)]
    pub force: bool,
    /// Most matches of the final SPRT of the tuned bot against its start (0: none).
    #[arg(long = "sprt-games", default_value_t = 20_000)]
    pub sprt_games: u64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// What a checkpoint must match to be resumed: the run's inputs.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct RunKey {
    game: String,
    bot: String,
    against: Vec<String>,
    params: Vec<String>,
    iterations: u64,
    deals: u64,
    seed: u64,
    sets: Vec<String>,
    /// SHA-256 of each bot file named, so a changed file is not mixed in.
    files: Vec<(String, String)>,
}

/// One iteration of the trajectory: its points, their scores and the point after it.
/// The numbers are kept as their shortest exact text ([`exact`]), so a resumed run
/// continues from the very same point.
#[derive(Serialize, Deserialize, Debug, Clone)]
struct Iteration {
    k: u64,
    #[serde(with = "exact")]
    score_plus: f64,
    #[serde(with = "exact")]
    score_minus: f64,
    #[serde(with = "exact::list")]
    plus: Vec<f64>,
    #[serde(with = "exact::list")]
    minus: Vec<f64>,
    #[serde(with = "exact::list")]
    theta: Vec<f64>,
}

/// `f64` as text: Rust prints the shortest text that reads back to the same number and
/// reads text correctly rounded, where a JSON number may come back one unit off.
mod exact {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&x.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }

    pub mod list {
        use serde::{Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(v.iter().map(|x| x.to_string()))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
            Vec::<String>::deserialize(d)?.iter().map(|t| t.parse().map_err(serde::de::Error::custom)).collect()
        }
    }
}

/// The state after a whole iteration: the point is the last iteration's.
#[derive(Serialize, Deserialize, Debug)]
struct Checkpoint {
    key: RunKey,
    iterations: Vec<Iteration>,
}

/// Label of the candidate at both points of an iteration (the same label gives the
/// same seat streams, so plus and minus meet the same luck).
const CANDIDATE: &str = "candidate";

/// The checkpoint's file name in the folder.
const CHECKPOINT: &str = "checkpoint.json";

/// A checked tuning run.
struct Plan {
    entry: &'static dyn GameEntry,
    bot: BotSpec,
    defs: &'static [ParamDef],
    start: ParamValues,
    /// Index in `defs` of each tuned parameter.
    tuned: Vec<usize>,
    spsa_params: Vec<SpsaParam>,
    against: Vec<BotSpec>,
}

/// Runs `cardsim tune`.
pub fn run(a: &TuneArgs, out: &mut dyn Write) -> Result<(), String> {
    let plan = plan(a)?;
    let key = run_key(a, &plan);
    let schedule = Schedule::standard(a.iterations);
    let (_lock, mut spsa, mut done) = if a.resume {
        let lock = crate::experiment::folder::Lock::take(&a.out, &crate::experiment::folder::lock_name(None), "--out")?;
        let c = read_checkpoint(&a.out, plan.tuned.len())?;
        if c.key != key {
            return Err(format!("{}: --resume: the checkpoint is of another run (game, bots, parameters, iterations, deals, seed, flags or a bot file differ); rerun without --resume and with --force to start over", a.out.display()));
        }
        let last = c.iterations.last().expect("checked: a checkpoint holds an iteration");
        (lock, Spsa::resume(plan.spsa_params.clone(), schedule, a.seed, &last.theta, last.k)?, c.iterations)
    } else {
        crate::experiment::folder::prepare(&a.out, "--out", true)?;
        let mut entries = std::fs::read_dir(&a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
        if !a.force && entries.any(|e| e.is_ok_and(|e| !crate::experiment::folder::is_bookkeeping(&e.file_name().to_string_lossy()))) {
            return Err(format!("{}: --out: the folder is not empty; give --force to replace it or --resume to continue it", a.out.display()));
        }
        let lock = crate::experiment::folder::Lock::take(&a.out, &crate::experiment::folder::lock_name(None), "--out")?;
        let start: Vec<f64> = plan.tuned.iter().map(|&i| plan.start.get(i)).collect();
        (lock, Spsa::new(plan.spsa_params.clone(), schedule, a.seed, &start)?, Vec::new())
    };
    let (pool, threads) = crate::cli::thread_pool(a.threads)?;
    crate::interrupt::install();
    let names: Vec<&str> = plan.tuned.iter().map(|&i| plan.defs[i].name).collect();
    writeln!(out, "tune {} | {} | against {} | {} | {} iterations of {} deals | seed {}", plan.entry.name(), plan.bot.label,
        plan.against.iter().map(|b| b.label.as_str()).collect::<Vec<_>>().join(", "), names.join(", "), a.iterations, a.deals, a.seed).map_err(|e| e.to_string())?;
    let bar = crate::runner::progress_bar(a.iterations, a.quiet, "iterations");
    bar.set_position(spsa.done());
    while !spsa.finished() {
        let step = spsa.perturb();
        let deals = (step.k - 1) * a.deals..step.k * a.deals;
        let score = |theta: &[f64]| pool.install(|| score_at(&plan, a, theta, deals.clone()));
        let (plus, minus) = (score(&step.plus)?, score(&step.minus)?);
        if crate::interrupt::requested() {
            // The iteration did not finish: the checkpoint holds the last whole one.
            bar.abandon();
            return Err(format!("{}; continue with the same command and --resume", crate::interrupt::INTERRUPTED));
        }
        spsa.update(&step, plus - minus);
        done.push(Iteration { k: step.k, score_plus: plus, score_minus: minus, plus: step.plus, minus: step.minus, theta: spsa.theta().to_vec() });
        write_checkpoint(&a.out, &Checkpoint { key: key.clone(), iterations: done.clone() })?;
        crate::faults::step(&format!("tune-checkpoint:{}", spsa.done()));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let tuned = tuned_values(&plan, spsa.theta());
    let bot_file = tuned_bot_file(&plan, &tuned);
    let mut header = vec!["iteration".to_string(), "deals_from".into(), "deals_to".into(), "score_plus".into(), "score_minus".into(), "result".into()];
    for n in &names {
        header.extend([format!("{n}_plus"), format!("{n}_minus"), n.to_string()]);
    }
    let csv = crate::experiment::folder::csv_bytes(&header, &done.iter().map(|s| row(s, a.deals)).collect::<Vec<_>>())?;
    let series: Vec<(String, f64, Vec<f64>)> =
        names.iter().enumerate().map(|(j, n)| (n.to_string(), plan.start.get(plan.tuned[j]), done.iter().map(|s| s.theta[j]).collect())).collect();
    let chart = crate::output::charts::trajectory_svg(&series)?;
    crate::experiment::folder::replace(&a.out, &[("trajectory.csv".into(), csv), ("trajectory.svg".into(), chart), ("tuned.toml".into(), bot_file.into_bytes())])?;
    let io = |e: std::io::Error| e.to_string();
    writeln!(out, "tuned after {} iterations: {}", a.iterations, crate::games::params::describe(plan.defs, &tuned)).map_err(io)?;
    writeln!(out, "wrote {0}/trajectory.csv, {0}/trajectory.svg and {0}/tuned.toml ({threads} threads)", a.out.display()).map_err(io)?;
    if a.sprt_games > 0 {
        final_sprt(a, &plan, &tuned, out)?;
    }
    Ok(())
}

/// Checks the arguments against the game and the strategy.
fn plan(a: &TuneArgs) -> Result<Plan, String> {
    let entry = crate::games::find(&a.game)?;
    let bot = BotSpec::parse(&a.bot)?;
    if bot.is_external() || bot.strategy == crate::bot::CUSTOM {
        return Err(format!("--bot {}: only a built-in strategy has parameters to tune", clip(&bot.label)));
    }
    let info = entry.strategies().into_iter().find(|s| s.name == bot.strategy).ok_or_else(|| format!("--bot {}: unknown strategy", clip(&bot.label)))?;
    if info.params.is_empty() {
        let with: Vec<&str> = entry.strategies().iter().filter(|s| !s.params.is_empty()).map(|s| s.name).collect();
        return Err(format!("--bot {}: strategy '{}' has no parameters; {} strategies with parameters: {}", clip(&bot.label), info.name, entry.name(),
            if with.is_empty() { "none".to_string() } else { with.join(", ") }));
    }
    let start = ParamValues::resolve(&bot.label, info.params, &bot.params)?;
    let mut tuned = Vec::new();
    let mut spsa_params = Vec::new();
    let wanted: Vec<String> = if a.params.is_empty() { info.params.iter().map(|d| d.name.to_string()).collect() } else { a.params.clone() };
    for text in &wanted {
        let mut parts = text.split(':');
        let name = parts.next().unwrap_or_default();
        let i = info.params.iter().position(|d| d.name == name).ok_or_else(|| {
            format!("--param {}: '{}' has no parameter '{}'; it has: {}", clip(text), info.name, clip(name), info.params.iter().map(|d| d.name).collect::<Vec<_>>().join(", "))
        })?;
        if tuned.contains(&i) {
            return Err(format!("--param {}: given twice", clip(name)));
        }
        let d = &info.params[i];
        let number = |what: &str, v: Option<&str>, default: f64| -> Result<f64, String> {
            v.map_or(Ok(default), |v| v.parse::<f64>().ok().filter(|x| x.is_finite() && *x > 0.0).ok_or_else(|| format!("--param {}: {what} '{}' is not a positive number", clip(text), clip(v))))
        };
        let c_end = number("C_END", parts.next(), (d.max - d.min) / 40.0)?;
        let r_end = number("R_END", parts.next(), 0.02)?;
        if parts.next().is_some() {
            return Err(format!("--param {}: NAME or NAME:C_END:R_END", clip(text)));
        }
        tuned.push(i);
        spsa_params.push(SpsaParam { name: d.name.to_string(), min: d.min, max: d.max, c_end, r_end });
    }
    crate::cli::check_count("--iterations", a.iterations, 1, 1_000_000)?;
    crate::cli::check_count("--deals", a.deals, 1, 1_000_000_000)?;
    let against_texts: Vec<String> = if a.against.is_empty() { vec![a.bot.clone()] } else { a.against.clone() };
    let against = against_texts.iter().map(|t| BotSpec::parse(t)).collect::<Result<Vec<_>, _>>()?;
    if against.iter().any(|b| b.label == CANDIDATE) {
        return Err(format!("--against: the label '{CANDIDATE}' is the tuned bot's own"));
    }
    let mut table = vec![candidate(&bot, info.params, &start)];
    table.extend(against.iter().cloned());
    // Checks the table once: seats, strategies, flags, labels.
    Table::new(entry, table, &a.sets, SeatingDesign::All)?.build()?;
    Ok(Plan { entry, bot, defs: info.params, start, tuned, spsa_params, against })
}

/// The run's inputs, for the checkpoint.
fn run_key(a: &TuneArgs, plan: &Plan) -> RunKey {
    let files = std::iter::once(&plan.bot).chain(&plan.against).filter_map(|b| b.source.as_ref()).map(|s| (s.path.clone(), s.sha256.clone())).collect();
    RunKey { game: a.game.clone(), bot: a.bot.clone(), against: a.against.clone(), params: a.params.clone(), iterations: a.iterations, deals: a.deals, seed: a.seed, sets: a.sets.clone(), files }
}

/// The bot at `values`, labelled [`CANDIDATE`].
fn candidate(bot: &BotSpec, defs: &[ParamDef], values: &ParamValues) -> BotSpec {
    let mut b = bot.clone();
    b.params = defs.iter().enumerate().map(|(i, d)| (d.name.to_string(), values.get(i))).collect();
    b.label = CANDIDATE.into();
    b.source = None;
    b
}

/// Every parameter's value with the tuned ones at `theta`.
fn tuned_values(plan: &Plan, theta: &[f64]) -> ParamValues {
    let given: Vec<(String, f64)> = plan.defs.iter().enumerate().map(|(i, d)| {
        let x = plan.tuned.iter().position(|&t| t == i).map_or(plan.start.get(i), |j| theta[j]);
        (d.name.to_string(), x)
    }).collect();
    ParamValues::resolve(&plan.bot.label, plan.defs, &given).expect("SPSA keeps every value in its range")
}

/// The candidate's summed deal score over `deals` with the tuned parameters at `theta`.
fn score_at(plan: &Plan, a: &TuneArgs, theta: &[f64], deals: std::ops::Range<u64>) -> Result<f64, String> {
    let mut bots = vec![candidate(&plan.bot, plan.defs, &tuned_values(plan, theta))];
    bots.extend(plan.against.iter().cloned());
    let table = Table::new(plan.entry, bots, &a.sets, SeatingDesign::All)?;
    let game = table.build()?;
    let cfg = table.run_config(0, a.seed, true);
    let stats = run_deals(game.as_match_game(), &cfg, deals, &ProgressBar::hidden());
    if let Some(bug) = &stats.strategy_bug {
        return Err(bug.message(&table.labels(), bug.match_index / cfg.seatings(game.seats()), a.seed, &table.trace_command(a.seed)));
    }
    let me = table.bots.iter().position(|b| b.label == CANDIDATE).expect("the candidate sits at the table");
    let units = (stats.seats as u64 * stats.seatings) as f64;
    Ok(stats.deal_score[me].iter().enumerate().map(|(t, &n)| t as f64 * n as f64).sum::<f64>() / units)
}

/// The trajectory row of `s`, an iteration of `deals` deals.
fn row(s: &Iteration, deals: u64) -> Vec<String> {
    let mut r = vec![s.k.to_string(), ((s.k - 1) * deals).to_string(), (s.k * deals).to_string()];
    r.extend([s.score_plus, s.score_minus, s.score_plus - s.score_minus].map(|x| x.to_string()));
    for i in 0..s.theta.len() {
        r.extend([s.plus[i], s.minus[i], s.theta[i]].map(|x| x.to_string()));
    }
    r
}

/// A bot file of the tuned bot.
fn tuned_bot_file(plan: &Plan, tuned: &ParamValues) -> String {
    let mut s = format!("# Written by `cardsim tune`: {} with tuned parameters.\ngame = \"{}\"\nstrategy = \"{}\"\n", plan.bot.label, plan.entry.name(), plan.bot.strategy);
    if let Some(p) = plan.bot.preset {
        s += &format!("preset = \"{}\"\n", p.name());
    }
    s += &format!("label = \"{}-tuned\"\n\n[params]\n", plan.bot.strategy);
    for (i, d) in plan.defs.iter().enumerate() {
        s += &format!("{} = {}\n", d.name, d.effective(tuned.get(i)));
    }
    s
}

/// The SPRT of the tuned bot against the start (H0: Elo 0, H1: Elo 5), on deals after
/// those the tuning played.
fn final_sprt(a: &TuneArgs, plan: &Plan, tuned: &ParamValues, out: &mut dyn Write) -> Result<(), String> {
    use crate::stats::{elo_with_interval, paired_score, Sprt, SprtModel, SprtVerdict, Z_95};
    let mut t = candidate(&plan.bot, plan.defs, tuned);
    t.label = "tuned".into();
    let mut s = candidate(&plan.bot, plan.defs, &plan.start);
    s.label = "start".into();
    let table = Table::new(plan.entry, vec![t, s], &a.sets, SeatingDesign::All)?;
    let game = table.build()?;
    if game.seats() != 2 {
        return writeln!(out, "no SPRT: {} at this table has {} seats (the SPRT compares two bots)", plan.entry.name(), game.seats()).map_err(|e| e.to_string());
    }
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized)?;
    // Deals the tuning never played: a seed of their own.
    let seed = crate::rng::mix(&[a.seed, 0x7465_7374]); // "test"
    let cfg = table.run_config(u64::MAX / 4, seed, true);
    let ia = table.bots.iter().position(|b| b.label == "tuned").expect("at the table");
    let (pool, _) = crate::cli::thread_pool(a.threads)?;
    let last = pool.install(|| crate::sequential::run_sprt(game.as_match_game(), &cfg, ia, &sprt, a.sprt_games, |_| {}));
    let verdict = match last.verdict {
        SprtVerdict::AcceptH1 => "H1 accepted: the tuned bot is stronger (Elo 5 against 0)",
        SprtVerdict::AcceptH0 => "H0 accepted: the tuned bot is not stronger by 5 Elo",
        SprtVerdict::Continue => "no decision within --sprt-games",
    };
    let ps = paired_score(&last.penta);
    let (elo, lo, hi) = elo_with_interval(&ps, Z_95);
    writeln!(out, "SPRT tuned vs start (normalized Elo 0 vs 5, alpha = beta = 0.05, seed {seed}): {verdict} after {} games; LLR {:.3}; tuned's score {:.4}, Elo {:.1} [{:.1}, {:.1}]",
        last.games, last.llr, ps.mean, elo, lo, hi).map_err(|e| e.to_string())
}

/// Reads and checks the checkpoint of `dir`, a run of `tuned` parameters: at least one
/// iteration, numbered from 1, each with a finite value for every parameter.
fn read_checkpoint(dir: &Path, tuned: usize) -> Result<Checkpoint, String> {
    let path = dir.join(CHECKPOINT);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: --resume: no checkpoint to resume ({e})", path.display()))?;
    let c: Checkpoint = serde_json::from_str(&text).map_err(|e| format!("{}: --resume: not a tune checkpoint ({e})", path.display()))?;
    let finite = |v: &[f64]| v.len() == tuned && v.iter().all(|x| x.is_finite());
    let whole = c.iterations.iter().enumerate().all(|(i, s)| {
        s.k == i as u64 + 1 && s.score_plus.is_finite() && s.score_minus.is_finite() && finite(&s.plus) && finite(&s.minus) && finite(&s.theta)
    });
    if c.iterations.is_empty() || !whole {
        return Err(format!("{}: --resume: the checkpoint is inconsistent (iterations missing, out of order or with values that are not numbers)", path.display()));
    }
    Ok(c)
}

/// Writes the checkpoint whole or not at all.
fn write_checkpoint(dir: &Path, c: &Checkpoint) -> Result<(), String> {
    let bytes = serde_json::to_vec(c).map_err(|e| e.to_string())?;
    crate::experiment::folder::write(dir, CHECKPOINT, &bytes).map(|_| ())
}
