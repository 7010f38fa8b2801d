//! `cardsim bot-check COMMAND [ARG...]`: a conformance test a bot author runs before a
//! study. It asks the bot which games it plays (its hello's `games`; every game when it
//! names none), plays a few matches of each against the game's built-in default bots
//! with every line logged (`--log`), and reports the first violation of
//! docs/bot-protocol.md in plain words. It also plays each game's matches twice and says
//! whether the bot's choices are reproducible from its seeds.

use super::process::Process;
use super::{timeout_ms, ExternalSpec, DEFAULT_TIMEOUT_MS, PROTOCOL};
use crate::bot::BotSpec;
use crate::games::{self, GameEntry};
use crate::runner::{self, SeatingDesign};
use crate::table::Table;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `cardsim bot-check`.
#[derive(clap::Args, Debug)]
pub struct BotCheckArgs {
    /// The bot: its program and arguments, e.g. examples/bots/spit_greedy.py.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true, value_name = "COMMAND")]
    command: Vec<String>,
    /// Matches per game (rounded up to whole deals).
    #[arg(long, default_value_t = 6)]
    matches: u64,
    /// Master seed of the matches.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Longest wait, in seconds, for one line from the bot.
    #[arg(long, value_name = "SECONDS")]
    bot_timeout: Option<f64>,
    /// Append every line exchanged to FILE (`> ` cardsim's, `< ` the bot's).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
}

/// The games the bot says it plays, from a hello for the first game: `None` when it
/// names none. Errors say what was wrong with the hello.
fn declared_games(command: &[String], timeout: Duration) -> Result<Option<Vec<String>>, String> {
    let mut p = Process::start(command, None).map_err(|e| format!("the bot could not be started: {}: {e}", command[0]))?;
    let hello = json!({"type": "hello", "protocol": PROTOCOL, "game": "spit", "players": 2, "flags": {}, "label": "bot-check", "decisions": ["move"], "optional": []});
    let answer = if p.send(&hello.to_string()) { p.read(timeout).map_err(|e| format!("no hello answer: {e:?}")) } else { Err("the bot closed its input at once".to_string()) };
    p.close(Some(&json!({"type": "quit"}).to_string()));
    let line = answer?;
    let v: Value = serde_json::from_str(&line).map_err(|_| format!("the hello answer is not JSON: {}", crate::output::quote::clip(&line)))?;
    match v.get("games") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(g)) => Ok(Some(g.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())),
        Some(_) => Err("the hello's \"games\" must be a list of game names".into()),
    }
}

/// The table a game is checked on: the bot in place of the first default bot.
fn table(entry: &'static dyn GameEntry, spec: &ExternalSpec) -> Result<Table, String> {
    // The label replays in `cardsim trace` when it fits a label.
    let exec = format!("exec:{}", spec.command.join(","));
    let label = if crate::bot::check_label(&exec).is_ok() { exec } else { "bot".to_string() };
    let mut bots = vec![BotSpec { strategy: crate::bot::EXEC.into(), preset: None, overrides: Default::default(), game: None, label, external: Some(spec.clone()), source: None, params: Vec::new() }];
    for d in &entry.default_bots()[1..] {
        bots.push(BotSpec::parse(d)?);
    }
    Table::new(entry, bots, &[], SeatingDesign::All)
}

/// Runs `cardsim bot-check`.
pub fn run(a: BotCheckArgs) -> Result<(), String> {
    let timeout = a.bot_timeout.map(timeout_ms).transpose()?.unwrap_or(DEFAULT_TIMEOUT_MS);
    crate::cli::check_count("--matches", a.matches, 1, 10_000)?;
    let declared = declared_games(&a.command, Duration::from_millis(timeout)).map_err(|e| format!("bot-check: {e}"))?;
    let names: Vec<String> = match &declared {
        Some(g) => g.clone(),
        None => games::registry().iter().map(|g| g.name().to_string()).collect(),
    };
    let entries = names.iter().map(|n| games::find(n)).collect::<Result<Vec<_>, _>>().map_err(|e| format!("bot-check: the hello's \"games\": {e}"))?;
    let spec = ExternalSpec { command: a.command.clone(), timeout_ms: timeout, stderr: None, log: a.log.clone(), peer: None };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "bot-check {}: {}", a.command.join(" "), if declared.is_some() { format!("plays {}", names.join(", ")) } else { "names no games; checking every game".into() });
    for entry in entries {
        let t = table(entry, &spec)?;
        let cfg = t.run_config(a.matches, a.seed, true);
        let play = || -> Result<(runner::MatchupStats, u64), String> {
            let game = t.build()?;
            let asked = super::decisions_asked();
            let stats = pool.install(|| runner::run(game.as_match_game(), &cfg));
            let asked = super::decisions_asked() - asked;
            stats.check_strategies(&t.labels(), a.seed, &t.trace_command(a.seed)).map_err(|e| format!("{}: {e}", entry.name()))?;
            Ok((stats, asked))
        };
        let (first, asked) = play().map_err(|e| format!("bot-check: FAILED {e}"))?;
        let (again, _) = play().map_err(|e| format!("bot-check: FAILED {e}"))?;
        let others: Vec<String> = t.bots.iter().filter(|b| !b.is_external()).map(|b| b.label.clone()).collect();
        let _ = writeln!(out, "ok {}: {} matches against {} ({asked} decisions answered, {} capped)", entry.name(), first.total_games(), others.join(", "), first.capped);
        if first != again {
            let _ = writeln!(out, "note {}: the same matches played twice gave different results: the bot's choices do not follow from the views and seeds alone, so its CSV files will differ between runs", entry.name());
        }
    }
    let _ = writeln!(out, "the bot conforms to the protocol (docs/bot-protocol.md){}", a.log.as_ref().map_or(String::new(), |l| format!("; every line is in {}", l.display())));
    Ok(())
}
