//! The command-line interface: `match`, `trace`, `run`, `list`, `legal`.

use crate::external::channel::Peer;
use crate::games;
use crate::experiment::Experiment;
use crate::output::console::Console;
use crate::output::format::{ExportArgs, Table as FormatTable};
use crate::output::summary::{print_summary, write_csv, SummaryRow};
use crate::output::OutputPath;
use crate::runner::{self, RunConfig, SeatingDesign};
use crate::table::Table;
use crate::trace::{StreamSink, TraceEvent, TraceFormat, TraceSink};
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// The part of every `--bot` help that explains external bots (one text for every command).
#[macro_export]
macro_rules! external_bot_help {
    () => {
        " An external bot is any program that speaks the bot protocol (docs/bot-protocol.md) \
         on its standard input and output: exec:PATH[,ARG...][@PRESET] (e.g. \
         exec:examples/bots/spit_greedy.py@expert; arguments separated by commas), or a bot \
         file with command = [\"PROGRAM\", \"ARG\", ...] in place of strategy. --bot-timeout \
         limits its wait for each answer."
    };
}

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
    /// Run an experiment file: its matchups, round robin, gauntlet or sweep, into a
    /// results folder (default results/NAME/: summary.csv, lengths.csv, sweep.csv or
    /// ratings.csv, manifest.toml).
    Run(RunArgs),
    /// Add up the shards of a run (`cardsim run FILE --shard K/N --out DIR`) into the
    /// results folder a single run writes, byte for byte.
    Merge(MergeArgs),
    /// Is a rule variant balanced? Plays the same deals under each value of one flag and
    /// reports, against the first value, the paired change in the first seat's edge,
    /// each bot's score and the game length, with 95% intervals and p-values.
    Balance(BalanceArgs),
    /// Redraw the charts (SVG) of a results folder from its CSV files.
    Plot(PlotArgs),
    /// Sequential test: is bot A (first --bot) stronger than bot B by at least elo1 or
    /// at most elo0? Plays paired deals until the SPRT decides.
    Sprt(SprtArgs),
    /// Tune a built-in bot's strategy parameters by SPSA against opponents, on common
    /// random numbers; writes the trajectory and a bot file of the tuned bot, and tests
    /// it against its start with an SPRT.
    Tune(crate::tune::command::TuneArgs),
    /// List games, strategies, reaction presets and variant flags with their defaults.
    List,
    /// Print the legal actions of a position given as JSON, one per line (Lopti).
    Legal(LegalArgs),
    /// Lopti sessions: winners make rules, the table votes, RPS breaks ties (see docs/lopti-sessions.md).
    Session(crate::games::lopti::session::command::SessionArgs),
    /// Throughput of every game with its default bots (Lopti at 2-5 players, Nerts at
    /// 2, 4, 6; Spit also smart@expert vs greedy@expert) on one thread and on all:
    /// matches, deals and actions per second per thread, nanoseconds per action, state
    /// size, peak memory; each row the median of --repeat runs. With --memory: the peak
    /// resident memory of a fresh process at 10^4 and at 10^6 matches of every game.
    Bench(BenchArgs),
    /// Check an external bot against the bot protocol (docs/bot-protocol.md): a few
    /// matches of each game it plays against built-in bots; the first violation in words.
    BotCheck(crate::external::check::BotCheckArgs),
    /// Fit measured move times (ms) with an ex-Gaussian and a shifted lognormal by maximum
    /// likelihood, and optionally write a bot that plays at that pace (see docs/fit-rt.md).
    FitRt(crate::fit::command::FitRtArgs),
    /// Write one self-contained HTML page of a results folder (verdicts, charts, every
    /// CSV as a table, the manifest) that opens in a browser without a network.
    Report(ReportArgs),
    /// Print a shell completion script (bash, zsh or fish), generated from these options.
    Completions(CompletionsArgs),
    /// Print the man page of cardsim, or with --dir write one page per command there.
    Man(ManArgs),
}

#[derive(Args, Debug)]
struct ReportArgs {
    /// A results folder written by `cardsim run` (or `merge`, `balance --out`).
    dir: PathBuf,
    /// Where the page goes (default: DIR/report.html; `-` is standard output). Written
    /// whole at the end; never one of the folder's results files.
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct CompletionsArgs {
    /// The shell, e.g. `cardsim completions bash > ~/.local/share/bash-completion/completions/cardsim`.
    #[arg(value_enum)]
    shell: crate::output::manual::Shell,
}

#[derive(Args, Debug)]
struct ManArgs {
    /// Write cardsim.1 and cardsim-COMMAND.1 for every command into this existing
    /// folder (e.g. ~/.local/share/man/man1) instead of printing cardsim.1.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Only this game (default: every game).
    #[arg(long)]
    game: Option<String>,
    /// Seconds each timed run lasts (after a short calibration run).
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Timed runs per row; the row is the run of median time (1 to 99).
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Also write the table as CSV to PATH (checked first; see `match --csv`).
    #[arg(long, value_name = "PATH")]
    csv: Option<PathBuf>,
    /// Instead of timing: the peak resident memory of a fresh process playing each
    /// count of --matches matches of every game's default table, on all cores.
    #[arg(long)]
    memory: bool,
    /// With --memory: the match counts, one process each.
    #[arg(long, value_name = "N,N,...", value_delimiter = ',', default_values_t = crate::bench::MEMORY_MATCHES, requires = "memory")]
    matches: Vec<u64>,
    /// Bench this table of --game instead of its default cases: one --bot per seat (as in
    /// `cardsim match`).
    #[arg(long, value_name = "SPEC", requires = "game", conflicts_with = "memory")]
    bot: Vec<String>,
    /// Instead of timing: play exactly N deals of each case once, on one thread, and print
    /// the actions they landed (the fixed workload for instruction counts under callgrind,
    /// `scripts/instructions-per-action.sh`).
    #[arg(long, value_name = "N", conflicts_with = "memory")]
    deals: Option<u64>,
    /// A process of --memory: plays MATCHES matches of --game and prints its peak memory.
    #[arg(long, value_name = "MATCHES", hide = true, requires = "game", conflicts_with = "memory")]
    memory_child: Option<u64>,
}

#[derive(Args, Debug)]
struct LegalArgs {
    /// Game of the position (only `lopti` has a position query).
    game: String,
    /// JSON file with the acting player's view, or `-` for stdin (see docs/lopti.md). A
    /// key given twice, a pile of more than 44 plays or a fifth card of a rank is an error.
    #[arg(long, value_name = "FILE|-")]
    position: String,
    #[command(flatten)]
    export: ExportArgs,
}

#[derive(Args, Debug)]
struct RunArgs {
    /// Experiment file (TOML), e.g. experiments/spit-speed-vs-smarts.toml.
    file: PathBuf,
    /// Matches per table instead of the file's (a quick check). Without --out the results
    /// then go to a sibling folder NAME-games-N, never over the committed results/NAME.
    #[arg(long)]
    games: Option<u64>,
    /// Results folder (default: the file's `out`, else results/NAME for a file in
    /// experiments/). Checked before the first match.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only shard K of N (1 <= K <= N) of the deals and write its exact partial
    /// state to --out; `cardsim merge` adds the shards up (see docs/cluster.md).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Continue an interrupted run (Ctrl-C, SIGTERM, SIGHUP) from its checkpoint in the
    /// results folder, without replaying finished work; the files at the end are the
    /// same bytes. Refused if any input (the experiment, a bot file) changed since.
    #[arg(long, conflicts_with = "resume_if_any")]
    resume: bool,
    /// Continue from a checkpoint if there is one, else start (for batch jobs that may be
    /// requeued, see docs/cluster.md).
    #[arg(long)]
    resume_if_any: bool,
    /// Replace the results folder even if it holds another experiment's results or other
    /// files (they are removed: the folder holds exactly the new results).
    #[arg(long)]
    force: bool,
    /// Longest wait, in seconds, for one line from an external bot (`--bot exec:...`,
    /// docs/bot-protocol.md); a bot that takes longer fails the run. Overrides the
    /// experiment file's `bot_timeout`; default 10.
    #[arg(long, value_name = "SECONDS")]
    bot_timeout: Option<f64>,
}

#[derive(Args, Debug)]
struct PlotArgs {
    /// A results folder written by `cardsim run` (or `merge`, `balance --out`).
    dir: PathBuf,
}

#[derive(Args, Debug)]
struct BalanceArgs {
    /// Game to play (see `cardsim list`).
    game: String,
    #[arg(long = "bot", value_name = "SPEC", help = concat!("A bot as STRATEGY[@PRESET] or a bot file; repeat once per player (default: the \
        game's default bots).", external_bot_help!()))]
    bots: Vec<String>,
    /// The flag and its values, the first being the baseline, e.g.
    /// --vary spit.num_stockpiles=5,4 (see `cardsim list` for each flag's values).
    #[arg(long, value_name = "FLAG=V1,V2,...")]
    vary: String,
    /// Other flags in force at every value (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Matches per value (rounded up to whole deals).
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write a results folder (with the equivalent experiment file, experiment.toml).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Replace --out even if it holds another experiment's results or other files.
    #[arg(long)]
    force: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    // The table exported: the paired comparisons (the rows of sweep.csv).
    #[command(flatten)]
    export: ExportArgs,
    /// Longest wait, in seconds, for one line from an external bot (`--bot exec:...`,
    /// docs/bot-protocol.md); a bot that takes longer fails the run. Default 10.
    #[arg(long, value_name = "SECONDS")]
    bot_timeout: Option<f64>,
}

#[derive(Args, Debug)]
struct MergeArgs {
    /// Folders holding the shards' partial-K-of-N.json files.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Results folder to write (the same files a single run writes), replaced at once.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The experiment file the shards played (default: where their command line named
    /// it, relative to this folder); it must have the contents they recorded.
    #[arg(long, value_name = "FILE")]
    experiment: Option<PathBuf>,
    /// Replace --out even if it holds another experiment's results or other files.
    #[arg(long)]
    force: bool,
}

/// Options shared by `match` and `trace`: which game, which bots, which rules.
#[derive(Args, Debug)]
struct GameArgs {
    /// Game to play (see `cardsim list`).
    game: String,
    #[command(flatten)]
    table: TableArgs,
}

/// Who plays, from which seed, under which rules and seatings.
#[derive(Args, Debug)]
struct TableArgs {
    #[arg(long = "bot", value_name = "SPEC", help = concat!("A bot as STRATEGY[@PRESET] (e.g. smart@expert) or a bot file (strategies/*.toml); \
        repeat once per player. Real-time games default to the `casual` preset. Without \
        --bot the game's default matchup is used.", external_bot_help!()))]
    bots: Vec<String>,
    /// Number of players, all playing the single --bot given (e.g. --players 6 --bot balanced).
    #[arg(long, value_name = "N")]
    players: Option<usize>,
    /// Master seed: the same seed gives byte-identical results.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Variant flag as KEY=VALUE, e.g. spit.num_stockpiles=4 (repeatable, each flag once;
    /// `cardsim list` shows all). Values are compared as values (0200000 is 200000); a
    /// flag that would do nothing under the other flags is an error saying what it needs.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    #[command(flatten)]
    seats: SeatArgs,
    /// Longest wait, in seconds, for one line from an external bot (`--bot exec:...`,
    /// docs/bot-protocol.md); a bot that takes longer fails the run. Default 10.
    #[arg(long, value_name = "SECONDS")]
    bot_timeout: Option<f64>,
}

/// How each deal is seated.
#[derive(Args, Debug, Clone, Copy)]
struct SeatArgs {
    /// Seat orders each deal is played under. `all`: every order for 2-4 players (2, 6,
    /// 24 per deal), a balanced design of 2n orders above; results do not depend on the
    /// order of --bot. `rotations`: the n rotations of the --bot order. `one`: bot i in seat i.
    #[arg(long, value_enum, default_value_t = SeatingDesign::All)]
    seating: SeatingDesign,
    /// Same as --seating one: play each deal once, bot i in seat i.
    #[arg(long, conflicts_with = "seating")]
    no_swap: bool,
}

impl TableArgs {
    /// The --bot texts, the single one repeated under --players N.
    fn bot_texts(&self) -> Result<Vec<String>, String> {
        match (self.players, self.bots.as_slice()) {
            (None, bots) => Ok(bots.to_vec()),
            (Some(0), _) => Err("--players must be at least 1".into()),
            (Some(n), _) if n > crate::rng::MAX_SEATS => Err(format!("--players {n}: at most {} players", crate::rng::MAX_SEATS)),
            (Some(n), [bot]) => Ok(vec![bot.clone(); n]),
            (Some(_), bots) => Err(format!("--players needs exactly one --bot, got {}", bots.len())),
        }
    }
}

impl SeatArgs {
    fn design(self) -> SeatingDesign {
        if self.no_swap { SeatingDesign::One } else { self.seating }
    }
}

#[derive(Args, Debug)]
struct MatchArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Number of matches, 1 to 10^12 (rounded up to whole deals: each deal is played
    /// under every seating).
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    export: ExportArgs,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct SprtArgs {
    /// Game to play (two players).
    game: String,
    #[arg(long = "bot", value_name = "SPEC", num_args = 1, required = true,
        help = concat!("Bot A then bot B, as STRATEGY[@PRESET] or bot files (exactly two).", external_bot_help!()))]
    bots: Vec<String>,
    /// Variant flag as KEY=VALUE (repeatable, each flag once; see `match --set`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Elo difference (A over B) under H0, in the units of --model.
    #[arg(long, allow_hyphen_values = true)]
    elo0: f64,
    /// Elo difference under H1 (greater than elo0).
    #[arg(long, allow_hyphen_values = true)]
    elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Elo model of elo0 and elo1: `normalized` (fastchess's default) or `logistic`.
    #[arg(long, default_value = "normalized")]
    model: String,
    /// Stop without a decision after this many matches (2 to 10^12).
    #[arg(long, default_value_t = 1_000_000)]
    max_games: u64,
    /// Master seed: the verdict and the number of games depend only on it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    // The table exported (--csv, --json, --markdown): one row per batch of 256 deals,
    // written whole at the end, with or without a decision (see `SPRT_COLUMNS`).
    #[command(flatten)]
    export: ExportArgs,
    /// Longest wait, in seconds, for one line from an external bot (`--bot exec:...`,
    /// docs/bot-protocol.md); a bot that takes longer fails the run. Default 10.
    #[arg(long, value_name = "SECONDS")]
    bot_timeout: Option<f64>,
}

#[derive(Args, Debug)]
struct TraceArgs {
    /// Game to play (see `cardsim list`); not needed with --experiment.
    #[arg(required_unless_present = "experiment")]
    game: Option<String>,
    #[command(flatten)]
    table: TableArgs,
    /// Trace a match of this experiment file (its game, seed, bots, flags and seating).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "bots", "sets", "seed", "seating", "no_swap"])]
    experiment: Option<PathBuf>,
    /// With --experiment: the matchup, counted from 1 as in the file.
    #[arg(long, default_value_t = 1, requires = "experiment")]
    matchup: usize,
    /// Index of the match within the run (0-based, as counted by `match` with the same seed).
    #[arg(long, default_value_t = 0)]
    index: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
    format: TraceFormat,
    #[command(flatten)]
    filter: crate::trace::TraceFilter,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Match(a) => run_match(a),
        Command::Trace(a) => run_trace(a, &[], &mut std::io::stdout().lock()),
        Command::Run(a) => run_experiment(a, Console::stdout()),
        Command::Merge(a) => run_merge(a),
        Command::Balance(a) => run_balance(a),
        Command::Plot(a) => {
            // The folder's writer (a run switching it in) holds this lock too.
            let _lock = if a.dir.is_dir() { Some(crate::experiment::folder::Lock::take(&a.dir, &crate::experiment::folder::lock_name(None), "plot")?) } else { None };
            let paths = crate::output::charts::plot_folder(&a.dir)?;
            let mut out = Console::stdout();
            for p in paths {
                let _ = writeln!(out, "wrote {}", p.display());
            }
            out.finish()
        }
        Command::Sprt(a) => run_sprt_command(a, &[], Console::stdout()),
        Command::List => {
            let mut out = Console::stdout();
            let _ = list(&mut out);
            out.finish()
        }
        Command::Tune(a) => {
            let mut out = Console::stdout();
            crate::tune::command::run(&a, &mut out)?;
            out.finish()
        }
        Command::Legal(a) => run_legal(a),
        Command::Session(a) => crate::games::lopti::session::command::run(a),
        Command::Bench(a) => run_bench(a),
        Command::FitRt(a) => crate::fit::command::run(a),
        Command::BotCheck(a) => crate::external::check::run(a),
        Command::Report(a) => run_report(a),
        Command::Completions(a) => {
            use clap::CommandFactory;
            OutputPath::check("completions", std::path::Path::new("-"))?.write(&crate::output::manual::completions(Cli::command(), a.shell))
        }
        Command::Man(a) => run_man(a),
    }
}

/// Folds a clap error into one line: its message lines up to the usage block, with
/// the values it quotes clipped to [`crate::output::quote::MAX_QUOTE`] characters.
pub fn clap_error_line(e: &clap::Error) -> String {
    use crate::output::quote::{clip, MAX_QUOTE};
    use clap::error::{ContextKind, ContextValue};
    let mut text = e.render().to_string();
    for kind in [ContextKind::InvalidValue, ContextKind::InvalidArg, ContextKind::InvalidSubcommand] {
        if let Some(ContextValue::String(v)) = e.get(kind) {
            if v.chars().count() > MAX_QUOTE || v.contains(char::is_control) {
                text = text.replace(v.as_str(), &clip(v));
            }
        }
    }
    let msg: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty() && !l.starts_with("tip:"))
        .collect();
    format!("{} (see --help)", msg.join(" ").trim_start_matches("error: "))
}

/// A writer into a shared buffer (what [`run_captured`] hands a command as its
/// standard output).
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("captured output").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs the command line `args` (without the program's name) of `trace`, `run` or
/// `sprt` inside another program (the Python package) exactly as the binary runs it,
/// and returns what it prints on standard output (files are written as the command
/// writes them). Never takes over the process's signals ([`crate::interrupt::embed`]).
/// Errors are the command line's one-line messages, without `error: `.
pub fn run_captured(args: &[String]) -> Result<Vec<u8>, String> {
    run_captured_with(args, &[])
}

/// [`run_captured`] with in-process bots: in `trace GAME` and `sprt`, a `--bot` text
/// equal to the label of one of `peers` is that bot ([`Table::parse_with`]); `run`
/// takes none.
pub fn run_captured_with(args: &[String], peers: &[(String, Arc<dyn Peer>)]) -> Result<Vec<u8>, String> {
    crate::interrupt::embed();
    let cli = Cli::try_parse_from(std::iter::once("cardsim").chain(args.iter().map(String::as_str))).map_err(|e| clap_error_line(&e))?;
    let buf = Captured::default();
    let console = || Console::new(Box::new(buf.clone()));
    match cli.command {
        Command::Trace(a) => run_trace(a, peers, &mut buf.clone())?,
        Command::Run(_) if !peers.is_empty() => return Err("run: in-process bots play in match, sprt and trace; an experiment file names its bots".into()),
        Command::Run(a) => run_experiment(a, console())?,
        Command::Sprt(a) => run_sprt_command(a, peers, console())?,
        _ => return Err(format!("{}: only trace, run and sprt run in-process", args.first().map_or("(no command)", String::as_str))),
    }
    let bytes = std::mem::take(&mut *buf.0.lock().expect("captured output"));
    Ok(bytes)
}

/// `cardsim report DIR [--out PATH]`.
fn run_report(a: ReportArgs) -> Result<(), String> {
    use crate::output::report;
    let out_path = a.out.clone().unwrap_or_else(|| a.dir.join(report::DEFAULT_NAME));
    let out = OutputPath::check("--out", &out_path)?;
    if a.dir.is_dir() {
        for entry in std::fs::read_dir(&a.dir).map_err(|e| format!("report {}: cannot read: {e}", crate::output::clip_path(&a.dir)))? {
            let path = entry.map_err(|e| format!("report {}: cannot read: {e}", crate::output::clip_path(&a.dir)))?.path();
            if path.file_name().is_some_and(|n| n != report::DEFAULT_NAME) {
                out.refuse_input(&path)?;
            }
        }
    }
    let page = report::render(&a.dir)?;
    out.write(&page)?;
    let mut console = Console::stdout();
    wrote(&mut console, &out);
    console.finish()
}

/// `cardsim man [--dir DIR]`: every page rendered first, then each written whole.
fn run_man(a: ManArgs) -> Result<(), String> {
    use clap::CommandFactory;
    let Some(dir) = a.dir else {
        return OutputPath::check("man", std::path::Path::new("-"))?.write(&crate::output::manual::man_page(Cli::command())?);
    };
    if !dir.is_dir() {
        return Err(format!("--dir {}: not a folder", crate::output::clip_path(&dir)));
    }
    let pages = crate::output::manual::man_pages(Cli::command())?;
    let outs: Vec<OutputPath> = pages.iter().map(|(name, _)| OutputPath::check("--dir", &dir.join(name))).collect::<Result<_, _>>()?;
    let mut console = Console::stdout();
    for (o, (_, bytes)) in outs.iter().zip(&pages) {
        o.write(bytes)?;
        wrote(&mut console, o);
    }
    console.finish()
}

fn run_bench(a: BenchArgs) -> Result<(), String> {
    use crate::bench::{cases, measure, values, COLUMNS};
    if !(a.seconds > 0.0 && a.seconds <= 600.0) {
        return Err(format!("--seconds {}: must be more than 0 and at most 600", a.seconds));
    }
    if !(1..=99).contains(&a.repeat) {
        return Err(format!("--repeat {}: must be 1 to 99", a.repeat));
    }
    if let Some(matches) = a.memory_child {
        check_count("--memory-child", matches, 1, MAX_GAMES)?;
        let case = crate::bench::memory_case(a.game.as_deref().unwrap_or_default())?;
        let (played, peak) = crate::bench::memory_run(&case, matches)?;
        let mut out = Console::stdout();
        let _ = writeln!(out, "{}", crate::bench::memory_line(played, peak));
        return out.finish();
    }
    let cases = match a.game.as_deref() {
        Some(game) if !a.bot.is_empty() => vec![crate::bench::BenchCase { entry: crate::games::find(game)?, bots: a.bot.clone() }],
        game => cases(game)?,
    };
    let csv = a.csv.as_deref().map(|p| OutputPath::check("--csv", p)).transpose()?;
    if a.memory {
        return bench_memory(&a, &cases, csv.as_ref());
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut thread_counts = vec![1];
    if cores > 1 && a.deals.is_none() {
        thread_counts.push(cores);
    }
    if let Some(deals) = a.deals {
        check_count("--deals", deals, 1, MAX_GAMES)?;
        let mut out = Console::stdout();
        for case in &cases {
            let row = crate::bench::play_fixed(case, deals)?;
            let _ = writeln!(out, "{} | {} | {} deals | {} matches | {} actions", row.game, row.bots, deals, row.matches, row.actions);
        }
        return out.finish();
    }
    let bar = runner::progress_bar((cases.len() * thread_counts.len()) as u64, false, "bench");
    bar.set_style(indicatif::ProgressStyle::with_template("bench [{bar:20}] {pos}/{len} runs  {msg}").expect("valid template").progress_chars("=> "));
    let mut rows = Vec::new();
    for case in &cases {
        for &threads in &thread_counts {
            bar.set_message(format!("{} at {} players on {threads} thread(s)", case.entry.name(), case.bots.len()));
            rows.push(measure(case, threads, a.seconds, a.repeat)?);
            bar.inc(1);
        }
    }
    // The protocol's cost: the reference Python bot against its built-in twin, one thread.
    let protocol = if a.game.as_deref().is_none_or(|g| g == "lopti") { crate::bench::measure_protocol(a.seconds, a.repeat)? } else { None };
    bar.finish_and_clear();
    let paired: Vec<String> = rows
        .chunks(thread_counts.len())
        .filter(|p| p.len() == 2)
        .map(|pair| format!("{} ({}): {} threads give {:.2}x the matches of one", pair[0].game, pair[0].bots, pair[1].threads, pair[1].matches as f64 / pair[1].seconds / (pair[0].matches as f64 / pair[0].seconds)))
        .collect();
    if let Some((ext, twin)) = &protocol {
        rows.extend([ext.clone(), twin.clone()]);
    }
    let header: Vec<String> = COLUMNS.iter().map(|c| c.to_string()).collect();
    let summary: Vec<SummaryRow> = rows.iter().map(|r| SummaryRow { header: header.clone(), values: values(r) }).collect();
    let shown = ["game", "players", "bots", "threads", "matches_per_s_per_thread", "rounds_per_s_per_thread", "actions_per_s_per_thread", "ns_per_action", "state_bytes", "peak_mib"];
    let mut out = if csv.as_ref().is_some_and(|c| c.is_stdout()) { Console::stderr() } else { Console::stdout() };
    let _ = crate::output::summary::print_table(&mut out, &summary.iter().collect::<Vec<_>>(), &shown);
    for line in paired {
        let _ = writeln!(out, "{line}");
    }
    if let Some((ext, twin)) = &protocol {
        let _ = writeln!(out, "{}", crate::bench::protocol_line(ext, twin));
    }
    if let Some(csv) = &csv {
        write_csv(csv, &summary)?;
        wrote(&mut out, csv);
    }
    out.finish()
}

/// `cardsim bench --memory`: one fresh process per game and match count, its peak
/// resident memory, and per game how much more the most matches took than the fewest.
fn bench_memory(a: &BenchArgs, cases: &[crate::bench::BenchCase], csv: Option<&OutputPath>) -> Result<(), String> {
    use crate::bench::{measure_memory, memory_case, memory_values, MEMORY_COLUMNS};
    for &n in &a.matches {
        check_count("--matches", n, 1, MAX_GAMES)?;
    }
    let exe = std::env::current_exe().map_err(|e| format!("bench --memory: cannot find this program: {e}"))?;
    let mut games: Vec<&'static str> = cases.iter().map(|c| c.entry.name()).collect();
    games.dedup();
    let bar = runner::progress_bar((games.len() * a.matches.len()) as u64, false, "bench");
    bar.set_style(indicatif::ProgressStyle::with_template("bench --memory [{bar:20}] {pos}/{len} processes  {msg}").expect("valid template").progress_chars("=> "));
    let mut rows = Vec::new();
    for game in &games {
        let case = memory_case(game)?;
        for &n in &a.matches {
            bar.set_message(format!("{game}: {n} matches"));
            rows.push(measure_memory(&exe, &case, n)?);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let header: Vec<String> = MEMORY_COLUMNS.iter().map(|c| c.to_string()).collect();
    let summary: Vec<SummaryRow> = rows.iter().map(|r| SummaryRow { header: header.clone(), values: memory_values(r) }).collect();
    let mut out = if csv.is_some_and(|c| c.is_stdout()) { Console::stderr() } else { Console::stdout() };
    let _ = crate::output::summary::print_table(&mut out, &summary.iter().collect::<Vec<_>>(), &MEMORY_COLUMNS);
    for game in rows.chunks(a.matches.len()).filter(|g| g.len() > 1) {
        let (few, most) = (game.iter().min_by_key(|r| r.matches).expect("rows"), game.iter().max_by_key(|r| r.matches).expect("rows"));
        let _ = writeln!(out, "{}: peak resident memory {:.1} MiB at {} matches, {:.1} MiB at {}: {:+.1} MiB", few.game,
            few.peak_kib as f64 / 1024.0, few.matches, most.peak_kib as f64 / 1024.0, most.matches, (most.peak_kib as f64 - few.peak_kib as f64) / 1024.0);
    }
    if let Some(csv) = csv {
        write_csv(csv, &summary)?;
        wrote(&mut out, csv);
    }
    out.finish()
}

fn run_legal(a: LegalArgs) -> Result<(), String> {
    if games::find(&a.game)?.name() != "lopti" {
        return Err(format!("legal: no position query for {}; only lopti has one", a.game));
    }
    let exports = a.export.check()?;
    let path = std::path::Path::new(&a.position);
    if a.position != "-" {
        exports.refuse_input(path)?;
    }
    let text = crate::tomlfile::read_text(path, &format!("--position {}", crate::output::clip_path(path)))?;
    let lines = games::lopti::position::legal_lines(&text)?;
    let mut out = if exports.takes_stdout() { Console::stderr() } else { Console::stdout() };
    for l in &lines {
        let _ = writeln!(out, "{l}");
    }
    exports.write(&legal_table(&lines), &mut out)?;
    out.finish()
}

/// The export table of `cardsim legal`: per legal action the line printed (`action`),
/// its `kind` (`play`, `pickup`, `blind`, `pass`) and for a play (`play RANK xCOUNT`)
/// its `rank` and `count`.
fn legal_table(lines: &[String]) -> FormatTable {
    let header = ["action", "kind", "rank", "count"].map(String::from).to_vec();
    let rows = lines
        .iter()
        .map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            let (rank, count) = match words.as_slice() {
                ["play", rank, count] => (rank.to_string(), count.trim_start_matches('x').to_string()),
                _ => (String::new(), String::new()),
            };
            vec![line.clone(), words[0].to_string(), rank, count]
        })
        .collect();
    FormatTable { header, rows }
}


/// Most matches (or sessions) one run may ask for: 10^12, about eleven days at a
/// million matches a second. Deals times seatings stay far from overflowing a `u64`.
pub const MAX_GAMES: u64 = 1_000_000_000_000;

/// Most worker threads: more than any machine has cores; each thread costs a stack.
pub const MAX_THREADS: usize = 1024;

/// Checks a count given as `flag`: from `min` to `max`, or a one-line error.
pub(crate) fn check_count(flag: &str, n: u64, min: u64, max: u64) -> Result<u64, String> {
    if n < min {
        Err(format!("{flag} must be at least {min}, got {n}"))
    } else if n > max {
        Err(format!("{flag} {n}: at most {max} allowed"))
    } else {
        Ok(n)
    }
}

/// Prints `wrote PATH` for a file (nothing when the output was standard output).
pub(crate) fn wrote(out: &mut Console, path: &OutputPath) {
    if !path.is_stdout() {
        let _ = writeln!(out, "wrote {}", path.shown());
    }
}

/// A rayon pool of `threads` workers (default: all cores, at most [`MAX_THREADS`]),
/// or a one-line error.
pub(crate) fn thread_pool(threads: Option<usize>) -> Result<(rayon::ThreadPool, usize), String> {
    let threads = match threads {
        Some(t) => check_count("--threads", t as u64, 1, MAX_THREADS as u64)? as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS),
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
    Ok((pool, threads))
}

/// Runs one matchup, prints its summary to `out` and returns its CSV rows (printing
/// never fails the run: a [`Console`] keeps its error for the end).
fn run_matchup(p: &Table, cfg: &RunConfig, pool: &rayon::ThreadPool, threads: usize, out: &mut dyn Write) -> Result<Vec<SummaryRow>, String> {
    let game = p.entry.build(&p.bots, &p.settings)?;
    let seats = game.seats();
    let played = cfg.deals(seats).checked_mul(cfg.seatings(seats)).ok_or("--games: too many matches")?;
    if played != cfg.games {
        eprintln!("note: playing {played} matches ({} deals x {} seatings)", cfg.deals(seats), cfg.seatings(seats));
    }
    let start = Instant::now();
    crate::interrupt::install();
    let stats = pool.install(|| runner::run(game.as_match_game(), cfg));
    stats.check_strategies(&p.labels(), cfg.seed, &p.trace_command(cfg.seed))?;
    let secs = start.elapsed().as_secs_f64();
    let io = |e: std::io::Error| e.to_string();
    if crate::interrupt::requested() {
        writeln!(out, "PARTIAL RESULTS (interrupted): {} of {played} matches finished ({} deals); no file was written", stats.total_games(), stats.deals()).map_err(io)?;
    }
    let labels = p.labels();
    let flags = p.settings.non_default();
    let rows = p.summary_rows(cfg.seed, &stats, game.metrics());
    writeln!(out, "{} | {} | seed {} | {}", p.entry.name(), labels.join(" vs "), cfg.seed, if flags.is_empty() { "default rules" } else { &flags }).map_err(io)?;
    print_summary(out, &rows, &stats).map_err(io)?;
    crate::output::summary::print_metric_lines(out, &stats, game.metrics()).map_err(io)?;
    let total = stats.total_games();
    writeln!(out, "throughput: {total} matches in {secs:.2} s = {:.0} matches/s on {threads} threads ({:.0} per thread)",
        total as f64 / secs, total as f64 / secs / threads as f64).map_err(io)?;
    if crate::interrupt::requested() {
        return Err(crate::interrupt::INTERRUPTED.into());
    }
    Ok(rows)
}

fn run_match(a: MatchArgs) -> Result<(), String> {
    check_count("--games", a.games, 1, MAX_GAMES)?;
    let exports = a.export.check()?;
    let t = &a.game.table;
    let mut p = Table::parse(&a.game.game, &t.bot_texts()?, &t.sets, t.seats.design())?;
    p.set_bot_timeout(t.bot_timeout)?;
    let (pool, threads) = thread_pool(a.threads)?;
    let cfg = p.run_config(a.games, t.seed, a.quiet);
    // With an export on standard output, the summary for people goes to standard error.
    let mut out = if exports.takes_stdout() { Console::stderr() } else { Console::stdout() };
    let rows = run_matchup(&p, &cfg, &pool, threads, &mut out)?;
    exports.write(&FormatTable::from_rows(&rows), &mut out)?;
    out.finish()
}

/// `cardsim run`, printing to `console` (standard output on the command line).
fn run_experiment(a: RunArgs, mut console: Console) -> Result<(), String> {
    use crate::experiment::{folder, run::{Shard, Study}, shard};
    let mut exp = Experiment::load(&a.file)?;
    if let Some(t) = a.bot_timeout {
        crate::external::timeout_ms(t)?;
        exp.bot_timeout = Some(t);
    }
    let games = match a.games {
        Some(g) => check_count("--games", g, 1, MAX_GAMES)?,
        None => check_count(&format!("{}: games", crate::output::clip_path(&a.file)), exp.games, 1, MAX_GAMES)?,
    };
    let shard_of = a.shard.as_deref().map(Shard::parse).transpose()?;
    // A run that changes the results never replaces the committed folder by default.
    let out = match (&a.out, shard_of) {
        (Some(dir), _) => dir.clone(),
        (None, Some(_)) => return Err("--shard needs --out DIR (where this shard's partial result goes)".into()),
        (None, None) if a.games.is_some_and(|g| g != exp.games) => {
            let d = exp.default_out();
            d.with_file_name(format!("{}-games-{games}", d.file_name().and_then(|n| n.to_str()).unwrap_or("results")))
        }
        (None, None) => exp.default_out(),
    };
    let flag = if a.out.is_some() { "--out" } else { "results folder" };
    let manifest_name = format!("{}.toml", exp.name);
    let study = Study::new(exp, games)?;
    let shard = shard_of.unwrap_or(Shard::ALL);
    // Checked before anything is created or played: a folder replaced as a whole must
    // not hold an input, nor another study's results.
    let input_paths: Vec<std::path::PathBuf> = std::iter::once(a.file.clone()).chain(study.tables.iter().flat_map(|t| &t.bots).filter_map(|b| b.source.as_ref().map(|s| s.path.clone().into()))).collect();
    if shard_of.is_none() {
        folder::check_holds_no_input(&out, input_paths.iter().map(|p| p.as_path()), flag)?;
    }
    folder::prepare(&out, flag, a.out.is_none())?;
    let _lock = folder::Lock::take(&out, &folder::lock_name(shard_of.map(|s| (s.k, s.n))), flag)?;
    if shard_of.is_none() {
        folder::check_replaceable(&out, &manifest_name, flag, a.force)?;
    } else {
        // The partial is written at the end: its place is checked now.
        crate::output::OutputPath::check(flag, &out.join(shard::file_name(shard)))?;
    }
    let (pool, _) = thread_pool(a.threads)?;
    // Without --resume a checkpoint (of this run or another) is only noted and replaced.
    let checkpoint = if a.resume || a.resume_if_any { shard::load_checkpoint(&out, &study, shard)? } else { None };
    let (start, done) = match checkpoint {
        Some((state, done)) => {
            eprintln!("resuming {}: {done} of {} units already played", out.display(), study.units_len(shard));
            (state, done)
        }
        None if a.resume => return Err(format!("--resume: no interrupted run in {} ({} not found)", out.display(), shard::checkpoint_name(shard))),
        None => {
            if shard::has_checkpoint(&out, shard) && !a.resume_if_any {
                eprintln!("note: {} holds an interrupted run; starting over (--resume continues it)", out.display());
            }
            (study.empty_state(), 0)
        }
    };
    crate::interrupt::install();
    let played = pool.install(|| study.play_from(shard, a.quiet, start, done, |state, units| shard::save_checkpoint(&out, &study, shard, state, units)))?;
    if !played.complete {
        study.print_partial(&mut console, &played.shown, shard)?;
        let _ = console.finish();
        let saved = out.join(shard::checkpoint_name(shard));
        if played.units_done > 0 {
            eprintln!("interrupted: {} of {} units are saved in {}; continue with the same command and --resume", played.units_done, study.units_len(shard), saved.display());
        } else if shard::has_checkpoint(&out, shard) {
            eprintln!("interrupted before a unit of work finished: nothing new was saved ({} still holds the earlier interrupted run; --resume continues it)", saved.display());
        } else {
            eprintln!("interrupted before a unit of work finished: nothing was saved; rerun the command to start over");
        }
        return Err(crate::interrupt::INTERRUPTED.into());
    }
    let state = played.state;
    if shard_of.is_some() {
        let path = folder::write(&out, &shard::file_name(shard), &shard::to_bytes(&study, &a.file, shard, state)?)?;
        // The checkpoint goes only once the partial is in place.
        let _ = std::fs::remove_file(out.join(shard::checkpoint_name(shard)));
        let _ = writeln!(console, "wrote {} (shard {}/{}: merge every shard with `cardsim merge DIR... --out DIR`)", path.display(), shard.k + 1, shard.n);
        return console.finish();
    }
    // The checkpoint stays in the old folder until the new one is switched in.
    write_study(&study, &state, &out, console)
}

/// Prints a finished study on `console` and replaces its results folder with the new
/// files at once ([`crate::experiment::folder::replace`]).
fn write_study(study: &crate::experiment::run::Study, state: &crate::experiment::run::StudyState, out: &std::path::Path, mut console: Console) -> Result<(), String> {
    write_study_with(study, state, out, Vec::new(), &mut console)?;
    console.finish()
}

/// [`write_study`] with `extra` files written beside the study's own, printing to
/// `console`. A closed standard output (| head) must not cost the files: printing goes
/// through a [`Console`], which keeps its error until the caller finishes it.
fn write_study_with(study: &crate::experiment::run::Study, state: &crate::experiment::run::StudyState, out: &std::path::Path, extra: Vec<(String, Vec<u8>)>, console: &mut Console) -> Result<(), String> {
    let mut files = extra;
    files.extend(study.files(state)?);
    study.print(console, state)?;
    crate::experiment::folder::replace(out, &files)?;
    let _ = writeln!(console, "wrote {}/ ({})", out.display(), files.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", "));
    Ok(())
}

/// The experiment file equivalent to a `cardsim balance` command line.
fn balance_experiment(a: &BalanceArgs) -> Result<String, String> {
    let (flag, values) = a.vary.split_once('=').ok_or_else(|| format!("--vary {}: expected FLAG=V1,V2,...", a.vary))?;
    let values: Vec<&str> = values.split(',').map(str::trim).collect();
    if flag.trim().is_empty() || values.len() < 2 || values.iter().any(|v| v.is_empty()) {
        return Err(format!("--vary {}: expected FLAG=V1,V2,... with at least two values", a.vary));
    }
    let list = |items: &[&str]| -> Result<String, String> {
        Ok(format!("[{}]", items.iter().map(|s| toml::Value::String(s.to_string()).to_string()).collect::<Vec<_>>().join(", ")))
    };
    // Each value checked as the user wrote it, so that an error names --vary, not the
    // experiment file made from it.
    let entry = games::find(&a.game)?;
    crate::settings::Settings::parse(entry.flags(), &a.sets)?;
    for v in &values {
        crate::settings::Settings::parse(entry.flags(), &[format!("{}={v}", flag.trim())]).map_err(|e| e.replacen("--set ", "--vary ", 1))?;
    }
    let bots: Vec<String> = if a.bots.is_empty() { entry.default_bots().iter().map(|s| s.to_string()).collect() } else { a.bots.clone() };
    let bot_refs: Vec<&str> = bots.iter().map(String::as_str).collect();
    let set_refs: Vec<&str> = a.sets.iter().map(String::as_str).collect();
    Ok(format!(
        "description = {}\ngame = {}\nseed = {}\ngames = {}\n{}\n[[matchup]]\nbots = {}\nset = {}\n\n[[vary]]\nparam = {}\nvalues = {}\n",
        toml::Value::String(format!("Balance of {} over {} (cardsim balance)", flag.trim(), values.join(", "))),
        toml::Value::String(a.game.clone()),
        a.seed,
        a.games,
        a.bot_timeout.map_or(String::new(), |t| format!("bot_timeout = {t:?}\n")),
        list(&bot_refs)?,
        list(&set_refs)?,
        toml::Value::String(flag.trim().to_string()),
        list(&values)?,
    ))
}

fn run_balance(a: BalanceArgs) -> Result<(), String> {
    use crate::experiment::{folder, run::{Shard, Study}};
    check_count("--games", a.games, 1, MAX_GAMES)?;
    let text = balance_experiment(&a)?;
    // The experiment is named `balance` (its results folder holds it as balance.toml);
    // an error is the command's, not that of a file the user never wrote.
    let of_command = |e: String| e.replacen("balance.toml: ", "balance: ", 1);
    let study = Study::new(Experiment::parse(&text, std::path::Path::new("balance.toml")).map_err(of_command)?, a.games).map_err(of_command)?;
    let lock = match &a.out {
        Some(out) => {
            folder::prepare(out, "--out", false)?;
            let lock = folder::Lock::take(out, &folder::lock_name(None), "--out")?;
            folder::check_replaceable(out, "balance.toml", "--out", a.force)?;
            Some(lock)
        }
        None => None,
    };
    let exports = a.export.check()?;
    let (pool, _) = thread_pool(a.threads)?;
    let state = pool.install(|| study.play(Shard::ALL, a.quiet))?;
    let mut console = if exports.takes_stdout() { Console::stderr() } else { Console::stdout() };
    let written = match &a.out {
        Some(out) => write_study_with(&study, &state, out, vec![("experiment.toml".into(), text.into_bytes())], &mut console),
        None => study.print(&mut console, &state),
    };
    drop(lock);
    written?;
    let (header, rows) = study.sweep_table(&state);
    exports.write(&FormatTable { header, rows }, &mut console)?;
    console.finish()
}

fn run_merge(a: MergeArgs) -> Result<(), String> {
    use crate::experiment::folder;
    folder::check_holds_no_input(&a.out, a.dirs.iter().map(|d| d.as_path()).chain(a.experiment.as_deref()), "--out")?;
    folder::prepare(&a.out, "--out", false)?;
    let _lock = folder::Lock::take(&a.out, &folder::lock_name(None), "--out")?;
    let (study, state) = crate::experiment::shard::merge(&a.dirs, a.experiment.as_deref())?;
    folder::check_replaceable(&a.out, &format!("{}.toml", study.exp.name), "--out", a.force)?;
    write_study(&study, &state, &a.out, Console::stdout())
}

/// `cardsim trace`, writing the trace to `out` (standard output on the command line);
/// `peers`: in-process bots named by label in the `--bot` texts ([`Table::parse_with`]).
fn run_trace(a: TraceArgs, peers: &[(String, Arc<dyn Peer>)], out: &mut dyn Write) -> Result<(), String> {
    let (p, seed, matchup) = match &a.experiment {
        Some(file) => {
            let exp = Experiment::load(file)?;
            let seed = exp.seed;
            let mut tables = crate::experiment::run::Study::new(exp, 1)?.tables;
            if a.matchup == 0 || a.matchup > tables.len() {
                return Err(format!("--matchup {}: {} has matchups 1 to {}", a.matchup, file.display(), tables.len()));
            }
            let mut p = tables.swap_remove(a.matchup - 1);
            p.set_bot_timeout(a.table.bot_timeout)?;
            (p, seed, Some(a.matchup))
        }
        None => {
            let game = a.game.as_deref().expect("clap requires a game without --experiment");
            let mut p = Table::parse_with(game, &a.table.bot_texts()?, peers, &a.table.sets, a.table.seats.design())?;
            p.set_bot_timeout(a.table.bot_timeout)?;
            (p, a.table.seed, None)
        }
    };
    let game = p.build()?;
    let seats = game.seats();
    if let Some(seat) = a.filter.seat.filter(|&s| s >= seats) {
        return Err(format!("--seat {seat}: this table has seats 0 to {}", seats - 1));
    }
    let cfg = p.run_config(a.index.saturating_add(1), seed, true);
    let (seat_bots, seeds) = cfg.match_at(seats, a.index);
    let mut stream = StreamSink::new(out, a.format);
    let mut sink = crate::trace::FilterSink::new(&mut stream, a.filter);
    sink.event(match_start(&p, &cfg, matchup, a.index, &seat_bots[..seats]));
    let rec = game.trace(&seat_bots[..seats], &seeds, &mut sink);
    let deals = sink.deals;
    match stream.error {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(format!("writing the trace: {e}")),
        _ => {}
    }
    if let Some(k) = a.filter.deal.filter(|&k| k >= deals) {
        return Err(format!("--deal {k}: match {} has {deals} deal(s), 0 to {}", a.index, deals.saturating_sub(1)));
    }
    match rec.illegal {
        None => Ok(()),
        Some(choice) => {
            let bug = runner::StrategyBug { match_index: a.index, seat_bots: std::array::from_fn(|s| seat_bots[s] as u8), choice };
            Err(bug.message(&p.labels(), a.index / cfg.seatings(seats), seed, &p.trace_command(seed)))
        }
    }
}

/// `cardsim sprt`, printing to `stdout` (standard output on the command line) unless an
/// export takes standard output; `peers`: in-process bots named by label in the `--bot`
/// texts ([`Table::parse_with`]).
fn run_sprt_command(a: SprtArgs, peers: &[(String, Arc<dyn Peer>)], stdout: Console) -> Result<(), String> {
    use crate::stats::{elo_with_interval, nelo_with_interval, paired_score, Sprt, SprtVerdict, Z_95};
    if a.bots.len() != 2 {
        return Err(format!("sprt needs exactly 2 --bot options (A, then B), got {}", a.bots.len()));
    }
    if a.max_games < 2 {
        return Err("--max-games must be at least 2 (one deal under both seatings)".into());
    }
    check_count("--max-games", a.max_games, 2, MAX_GAMES)?;
    let model = a.model.parse()?;
    let sprt = Sprt::new(a.elo0, a.elo1, a.alpha, a.beta, model)?;
    let mut p = Table::parse_with(&a.game, &a.bots, peers, &a.sets, SeatingDesign::All)?;
    p.set_bot_timeout(a.bot_timeout)?;
    let game = p.entry.build(&p.bots, &p.settings)?;
    if game.seats() != 2 {
        return Err(format!("sprt: {} needs 2 seats for a paired comparison", a.game));
    }
    let exports = a.export.check()?;
    let (pool, threads) = thread_pool(a.threads)?;
    // The table sorts the bots by label; A is the bot given first.
    let ia = p.table_of.iter().position(|&given| given == 0).expect("A is one of the bots");
    let cfg = p.run_config(u64::MAX / 4, a.seed, true);
    let (lo, hi) = sprt.bounds();
    let mut out = if exports.takes_stdout() { Console::stderr() } else { stdout };
    let io = |e: std::io::Error| e.to_string();
    writeln!(out, "SPRT {} | A = {} vs B = {} | {} | seed {} | H0: {model} Elo {} H1: {} alpha {} beta {} | LLR bounds [{lo:.3}, {hi:.3}]",
        p.entry.name(), a.bots[0], a.bots[1], if p.settings.non_default().is_empty() { "default rules".into() } else { p.settings.non_default() },
        a.seed, a.elo0, a.elo1, a.alpha, a.beta).map_err(io)?;
    let start = Instant::now();
    let mut batches = 0u64;
    let mut table = FormatTable { header: SPRT_COLUMNS.map(String::from).to_vec(), rows: Vec::new() };
    let mut printed_last = false;
    let line = |st: &crate::sequential::SprtStatus| {
        let p = st.pairs;
        format!("games {:>9}  LLR {:>7.3}  [{lo:.3}, {hi:.3}]  LL {} LD {} WL {} DD {} WD {} WW {}", st.games, st.llr, p[0], p[1], p[2], p[3], p[4], p[5])
    };
    let last = pool.install(|| {
        crate::sequential::run_sprt(game.as_match_game(), &cfg, ia, &sprt, a.max_games, |st| {
            batches += 1;
            // Printed sparsely (powers of two, every 32nd, a decision; the last below); the
            // CSV has every batch.
            printed_last = batches.is_power_of_two() || batches.is_multiple_of(32) || st.verdict != SprtVerdict::Continue;
            if printed_last {
                let _ = writeln!(out, "{}", line(st));
            }
            table.rows.push(sprt_row(batches, st, (lo, hi)));
        })
    });
    if let Some(bug) = last.strategy_bug {
        return Err(bug.message(&p.labels(), bug.match_index / cfg.seatings(2), a.seed, &p.trace_command(a.seed)));
    }
    if !printed_last {
        writeln!(out, "{}", line(&last)).map_err(io)?;
    }
    let ps = paired_score(&last.penta);
    let (elo, elo_lo, elo_hi) = elo_with_interval(&ps, Z_95);
    let (nelo, nelo_lo, nelo_hi) = nelo_with_interval(&ps, 2, Z_95);
    let verdict = match last.verdict {
        SprtVerdict::AcceptH1 => "H1 accepted",
        SprtVerdict::AcceptH0 => "H0 accepted",
        SprtVerdict::Continue => "no decision",
    };
    let secs = start.elapsed().as_secs_f64();
    let p = last.pairs;
    writeln!(out, "SPRT: {verdict} after {} games ({} deals); LLR {:.3} in [{lo:.3}, {hi:.3}]; A's pairs LL {} LD {} WL {} DD {} WD {} WW {}; A's score {:.4}, Elo {:.1} [{:.1}, {:.1}], normalized Elo {:.1} [{:.1}, {:.1}]{}",
        last.games, last.deals, last.llr, p[0], p[1], p[2], p[3], p[4], p[5], ps.mean, elo, elo_lo, elo_hi, nelo, nelo_lo, nelo_hi,
        if last.verdict == SprtVerdict::Continue { "" } else { " (estimates after a sequential stop are biased away from the bound that was not reached)" }).map_err(io)?;
    eprintln!("{} matches in {secs:.1} s on {threads} threads", last.games);
    if last.verdict == SprtVerdict::Continue {
        let state = table.header.iter().position(|h| h == "verdict").expect("a column");
        table.rows.last_mut().expect("every run plays a batch")[state] = "no decision".into();
    }
    exports.write(&table, &mut out)?;
    out.finish()
}

/// The columns of `sprt`'s export, one row per batch of 256 deals: the batch, the deals
/// and matches so far, A's pair counts (`pairs_ll` .. `pairs_ww`: its results over the
/// two seatings of a deal, L lost, D no winner, W won; the pentanomial cells are LL, LD,
/// WL + DD, WD, WW), the log-likelihood ratio and its bounds, the verdict so far
/// (`continue`, `H0`, `H1`, or `no decision` on the last row of a run stopped by
/// --max-games) and A's paired score and logistic Elo with their 95% intervals
/// (docs/statistics.md shows how each follows from the counts).
const SPRT_COLUMNS: [&str; 18] = ["batch", "deals", "games", "pairs_ll", "pairs_ld", "pairs_wl", "pairs_dd", "pairs_wd", "pairs_ww",
    "llr", "llr_lower", "llr_upper", "verdict", "score", "score_se", "elo", "elo_ci_low", "elo_ci_high"];

/// One row of [`SPRT_COLUMNS`] for batch `batch`'s status.
fn sprt_row(batch: u64, st: &crate::sequential::SprtStatus, (lo, hi): (f64, f64)) -> Vec<String> {
    use crate::stats::{elo_with_interval, paired_score, SprtVerdict, Z_95};
    let ps = paired_score(&st.penta);
    let (elo, elo_lo, elo_hi) = elo_with_interval(&ps, Z_95);
    let e = |x: f64| if x.is_finite() { format!("{:.2}", x + 0.0) } else if x > 0.0 { "inf".into() } else { "-inf".into() };
    let verdict = match st.verdict {
        SprtVerdict::AcceptH1 => "H1",
        SprtVerdict::AcceptH0 => "H0",
        SprtVerdict::Continue => "continue",
    };
    let mut row = vec![batch.to_string(), st.deals.to_string(), st.games.to_string()];
    row.extend(st.pairs.map(|c| c.to_string()));
    row.extend([format!("{:.6}", st.llr), format!("{lo:.6}"), format!("{hi:.6}"), verdict.to_string()]);
    row.extend([format!("{:.6}", ps.mean), format!("{:.6}", ps.se()), e(elo), e(elo_lo), e(elo_hi)]);
    row
}

/// The first event of every trace: what was played, by whom, under which rules.
fn match_start(p: &Table, cfg: &RunConfig, matchup: Option<usize>, index: u64, seat_bots: &[usize]) -> TraceEvent {
    use serde_json::{json, Map, Value};
    let per = cfg.seatings(seat_bots.len());
    let flags: Map<String, Value> = p.settings.all().map(|(k, v)| (k.to_string(), Value::from(v))).collect();
    let seats: Vec<Value> = seat_bots.iter().enumerate().map(|(s, &b)| json!({"seat": s, "bot": p.bots[b].label, "bot_index": b})).collect();
    let labels = p.labels();
    let mut detail = Map::new();
    detail.insert("game".into(), json!(p.entry.name()));
    detail.insert("seed".into(), json!(cfg.seed));
    detail.insert("matchup".into(), json!(matchup));
    detail.insert("bots".into(), json!(labels));
    detail.insert("index".into(), json!(index));
    detail.insert("deal".into(), json!(index / per));
    detail.insert("seating".into(), json!(index % per));
    detail.insert("seating_design".into(), json!(format!("{:?}", cfg.seating).to_lowercase()));
    detail.insert("flags".into(), Value::Object(flags));
    detail.insert("seats".into(), Value::Array(seats));
    let who: Vec<String> = seat_bots.iter().enumerate().map(|(s, &b)| format!("P{s}={}", p.bots[b].label)).collect();
    let text = format!("{} seed {} match {index} (deal {}, seating {}): {} | {}", p.entry.name(), cfg.seed, index / per, index % per,
        who.join(" "), p.settings);
    TraceEvent { time: None, seat: None, kind: "match_start", detail, text }
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
        writeln!(out, "  strategies (parameters: STRATEGY[@PRESET],NAME=VALUE,... or [params] in a bot file):")?;
        for s in g.strategies() {
            writeln!(out, "    {:<10} {}", s.name, s.about)?;
            for p in s.params {
                let kind = if p.integer { "integer" } else { "number" };
                writeln!(out, "      {}={}  [{kind} {} to {}]  {}", p.name, p.default, p.min, p.max, p.about)?;
            }
        }
        writeln!(out, "  flags (--set KEY=VALUE; default first):")?;
        for f in g.flags() {
            writeln!(out, "    {}={}  [{}]  {}", f.key, f.default, f.accepted(), f.doc)?;
        }
        writeln!(out, "  metrics (CSV columns NAME_mean, _sd, _p50, _p90, _p99, _max):")?;
        for m in g.metrics() {
            writeln!(out, "    {:<10} {}", m.name, m.doc)?;
        }
        if let Some(set) = g.rates() {
            writeln!(out, "  rates per bot, per {} (CSV columns NAME, _se, _ci_low, _ci_high):", set.per)?;
            for r in set.rates {
                writeln!(out, "    {:<10} {}", r.name, r.doc)?;
            }
        }
    }
    Ok(())
}
