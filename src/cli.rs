//! The command-line interface: `match`, `trace`, `run`, `list`, `legal`.

use crate::bot::BotSpec;
use crate::games::{self, GameEntry};
use crate::experiment::Experiment;
use crate::output::summary::{print_table, summary_rows, write_csv, MatchupLabels, SummaryRow};
use crate::runner::{self, bot_in_seat, RunConfig, MAX_SEATS};
use crate::rng::{deal_seed, play_seed};
use crate::settings::Settings;
use crate::trace::{StreamSink, TraceFormat};
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Simulates card games bot against bot and reports win rates with confidence intervals
/// and game-length statistics. The same seed gives the same numbers on any number of threads.
#[derive(Parser, Debug)]
#[command(name = "cardsim", version, about, long_about = None, after_help = "Examples:
  cardsim match spit --bot smart@expert --bot greedy@expert --games 100000 --csv out.csv
  cardsim match spit --set spit.num_stockpiles=4 --set spit.alternate_colors=true
  cardsim trace spit --bot smart --bot random --seed 1 --index 0 --format jsonl
  cardsim run experiments/spit-presets.toml
  cardsim list")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play many matches between bots and print (and optionally write as CSV) the summary.
    Match(MatchArgs),
    /// Print the full event log of one match of a run.
    Trace(TraceArgs),
    /// Run an experiment file: every matchup in it, one CSV (default results/NAME.csv).
    Run(RunArgs),
    /// List games, strategies, reaction presets and variant flags with their defaults.
    List,
    /// Print the legal actions of a position given as JSON, one per line (Lopti).
    Legal(LegalArgs),
}

#[derive(Args, Debug)]
struct LegalArgs {
    /// Game of the position (only `lopti` has a position query).
    game: String,
    /// JSON file with the acting player's view, or `-` for stdin (see docs/lopti.md).
    #[arg(long, value_name = "FILE|-")]
    position: String,
}

#[derive(Args, Debug)]
struct RunArgs {
    /// Experiment file (TOML), e.g. experiments/spit-speed-vs-smarts.toml.
    file: PathBuf,
    /// Matches per matchup instead of the file's (for a quick check; the CSV then differs from results/).
    #[arg(long)]
    games: Option<u64>,
    /// Write the CSV here instead of the file's output.
    #[arg(long, value_name = "PATH")]
    csv: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Options shared by `match` and `trace`: which game, which bots, which rules.
#[derive(Args, Debug)]
struct GameArgs {
    /// Game to play (see `cardsim list`).
    game: String,
    /// A bot as STRATEGY[@PRESET] (e.g. smart@expert) or a bot file (strategies/*.toml);
    /// repeat once per player. Real-time games default to the `casual` preset. Without
    /// --bot the game's default matchup is used.
    #[arg(long = "bot", value_name = "SPEC")]
    bots: Vec<String>,
    /// Master seed: the same seed gives byte-identical results.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Variant flag as KEY=VALUE, e.g. spit.num_stockpiles=4 (repeatable; `cardsim list` shows all).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
}

#[derive(Args, Debug)]
struct MatchArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Number of matches (rounded up to whole deals: each deal is played under every seat rotation).
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Write the summary as CSV to this file (replaced atomically).
    #[arg(long, value_name = "PATH")]
    csv: Option<PathBuf>,
    /// Play each deal once only, with bot i in seat i (no seat rotation).
    #[arg(long)]
    no_swap: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct TraceArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Index of the match within the run (0-based, as counted by `match` with the same seed).
    #[arg(long, default_value_t = 0)]
    index: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
    format: TraceFormat,
    /// The run used --no-swap (changes which deal and seats match INDEX is).
    #[arg(long)]
    no_swap: bool,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Match(a) => run_match(a),
        Command::Trace(a) => run_trace(a),
        Command::Run(a) => run_experiment(a),
        Command::List => list(&mut std::io::stdout()).map_err(|e| e.to_string()),
        Command::Legal(a) => run_legal(a),
    }
}

fn run_legal(a: LegalArgs) -> Result<(), String> {
    if games::find(&a.game)?.name() != "lopti" {
        return Err(format!("legal: no position query for {}; only lopti has one", a.game));
    }
    let text = if a.position == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("--position -: cannot read stdin: {e}"))?
    } else {
        std::fs::read_to_string(&a.position).map_err(|e| format!("--position {}: cannot read: {e}", a.position))?
    };
    let lines = games::lopti::position::legal_lines(&text)?;
    let mut out = std::io::stdout().lock();
    lines.iter().try_for_each(|l| writeln!(out, "{l}")).map_err(|e| e.to_string())
}

/// A game with its bots and flags, checked and ready to run.
struct Prepared {
    entry: &'static dyn GameEntry,
    bots: Vec<BotSpec>,
    settings: Settings,
}

fn prepare(game: &str, bot_texts: &[String], sets: &[String]) -> Result<Prepared, String> {
    let entry = games::find(game)?;
    let texts: Vec<String> = if bot_texts.is_empty() {
        entry.default_bots().iter().map(|s| s.to_string()).collect()
    } else {
        bot_texts.to_vec()
    };
    let bots = texts.iter().map(|t| BotSpec::parse(t)).collect::<Result<Vec<_>, _>>()?;
    games::check_bots(entry, &bots)?;
    let settings = Settings::parse(entry.flags(), sets)?;
    Ok(Prepared { entry, bots, settings })
}

fn thread_pool(threads: Option<usize>) -> Result<(rayon::ThreadPool, usize), String> {
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
    Ok((pool, threads))
}

/// Runs one matchup, prints its summary to stdout and returns its CSV rows.
fn run_matchup(p: &Prepared, cfg: &RunConfig, pool: &rayon::ThreadPool, threads: usize) -> Result<Vec<SummaryRow>, String> {
    let game = p.entry.build(&p.bots, &p.settings)?;
    let seats = game.seats();
    let played = cfg.deals(seats) * cfg.rotations(seats);
    if played != cfg.games {
        eprintln!("note: playing {played} matches ({} deals x {} seat rotations)", cfg.deals(seats), cfg.rotations(seats));
    }
    let start = Instant::now();
    let stats = pool.install(|| runner::run(game.as_match_game(), cfg));
    let secs = start.elapsed().as_secs_f64();
    let labels: Vec<String> = p.bots.iter().map(|b| b.label.clone()).collect();
    let flags = p.settings.non_default();
    let rows = summary_rows(&MatchupLabels { game: p.entry.name(), bots: &labels, flags: &flags, seed: cfg.seed }, &stats, game.metrics());
    let mut out = std::io::stdout().lock();
    let io = |e: std::io::Error| e.to_string();
    writeln!(out, "{} | {} | seed {} | {}", p.entry.name(), labels.join(" vs "), cfg.seed, if flags.is_empty() { "default rules" } else { &flags }).map_err(io)?;
    print_table(&mut out, &rows).map_err(io)?;
    writeln!(out, "capped: {}  draws: {}", stats.capped, stats.draws).map_err(io)?;
    for (h, m) in stats.metrics.iter().zip(game.metrics()) {
        let sc = m.scale as f64;
        writeln!(out, "{:>10}: mean {:.2}  sd {:.2}  p50 {}  p90 {}  p99 {}  max {}", m.name, h.mean() / sc, h.sd() / sc,
            h.percentile(50.0) as f64 / sc, h.percentile(90.0) as f64 / sc, h.percentile(99.0) as f64 / sc, h.max() as f64 / sc).map_err(io)?;
    }
    let total = stats.total_games();
    writeln!(out, "throughput: {total} matches in {secs:.2} s = {:.0} matches/s on {threads} threads ({:.0} per thread)",
        total as f64 / secs, total as f64 / secs / threads as f64).map_err(io)?;
    Ok(rows)
}

fn run_match(a: MatchArgs) -> Result<(), String> {
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let p = prepare(&a.game.game, &a.game.bots, &a.game.sets)?;
    let (pool, threads) = thread_pool(a.threads)?;
    let cfg = RunConfig { games: a.games, seed: a.game.seed, matchup: 0, rotate_seats: !a.no_swap, quiet: a.quiet };
    let rows = run_matchup(&p, &cfg, &pool, threads)?;
    if let Some(path) = &a.csv {
        write_csv(path, &rows)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn run_experiment(a: RunArgs) -> Result<(), String> {
    let exp = Experiment::load(&a.file)?;
    let games = a.games.unwrap_or(exp.games);
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    let where_ = a.file.display();
    // Check every matchup before running any, so a typo fails at once.
    let prepared = (0..exp.matchups.len())
        .map(|i| prepare(&exp.game, &exp.matchups[i].bots, &exp.flags(i)).map_err(|e| format!("{where_}: matchup {}: {e}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let (pool, threads) = thread_pool(a.threads)?;
    let output = a.csv.clone().or(exp.output.clone()).expect("load sets a default output");
    println!("{where_}: {}", exp.description);
    let mut rows = Vec::new();
    for (i, p) in prepared.iter().enumerate() {
        let cfg = RunConfig { games, seed: exp.seed, matchup: i as u64, rotate_seats: !exp.no_swap, quiet: a.quiet };
        rows.extend(run_matchup(p, &cfg, &pool, threads)?);
        println!();
    }
    write_csv(&output, &rows)?;
    println!("wrote {}", output.display());
    Ok(())
}

fn run_trace(a: TraceArgs) -> Result<(), String> {
    let p = prepare(&a.game.game, &a.game.bots, &a.game.sets)?;
    let game = p.entry.build(&p.bots, &p.settings)?;
    let seats = game.seats();
    let rotations = if a.no_swap { 1 } else { seats as u64 };
    let (deal, rotation) = (a.index / rotations, a.index % rotations);
    let ds = deal_seed(a.game.seed, 0, deal);
    let mut seat_bots = [0usize; MAX_SEATS];
    for (s, b) in seat_bots[..seats].iter_mut().enumerate() {
        *b = bot_in_seat(s, rotation, seats);
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let mut sink = StreamSink::new(&mut lock, a.format);
    game.trace(&seat_bots[..seats], ds, play_seed(ds, rotation), &mut sink);
    match sink.error {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("writing the trace: {e}")),
        _ => Ok(()),
    }
}

/// Writes the `cardsim list` text.
pub fn list(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "Reaction presets (real-time games; STRATEGY@PRESET, default casual):")?;
    for p in crate::reaction::presets::ALL_PRESETS {
        writeln!(out, "  {}", p.name())?;
    }
    for g in games::registry() {
        let (lo, hi) = g.players();
        writeln!(out, "\n{} ({}; {} players): {}", g.name(), if g.real_time() { "real-time" } else { "turn-based" },
            if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") }, g.about())?;
        writeln!(out, "  default bots: {}", g.default_bots().join(" "))?;
        writeln!(out, "  strategies:")?;
        for s in g.strategies() {
            writeln!(out, "    {:<10} {}", s.name, s.about)?;
        }
        writeln!(out, "  flags (--set KEY=VALUE; default first):")?;
        for f in g.flags() {
            writeln!(out, "    {}={}  [{}]  {}", f.key, f.default, f.accepted(), f.doc)?;
        }
        writeln!(out, "  metrics (CSV columns NAME_mean, _sd, _p50, _p90, _p99, _max):")?;
        for m in g.metrics() {
            writeln!(out, "    {:<10} {}", m.name, m.doc)?;
        }
    }
    Ok(())
}
