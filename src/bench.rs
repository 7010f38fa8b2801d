//! `cardsim bench`: the throughput of every game with its default bots, on one thread
//! and on all, as a table (and CSV). Each case is timed over a fixed simulated workload
//! sized from a short calibration run; a row is the median of `--repeat` timed runs of
//! about `--seconds` each, so that one disturbed run does not move it. With `--memory`
//! it measures instead the peak resident memory of fresh processes playing 10^4 and
//! 10^6 matches of each game, which must not grow with the matches.

use crate::games::{self, GameEntry};
use crate::runner::{self, MatchupStats, SeatingDesign};
use crate::table::Table;
use std::time::Instant;

/// Tables benchmarked besides every game's defaults: the Spit pairing the throughput
/// target of issue 11 names (`smart@expert` against `greedy@expert`).
const EXTRA_CASES: [(&str, [&str; 2]); 1] = [("spit", ["smart@expert", "greedy@expert"])];

/// One benchmarked table: a game, its player count and the bots in seat order.
pub struct BenchCase {
    /// The game.
    pub entry: &'static dyn GameEntry,
    /// Bot specs, the game's default bots repeated in turn up to the player count.
    pub bots: Vec<String>,
}

/// The player counts benchmarked for a game seating `lo..=hi`: every count for games
/// of up to four counts (Lopti 2-5), else 2, 4 and 6 (Nerts).
fn player_counts(lo: usize, hi: usize) -> Vec<usize> {
    if hi - lo <= 3 { (lo..=hi).collect() } else { [2, 4, 6].into_iter().filter(|n| (lo..=hi).contains(n)).collect() }
}

/// Every case to benchmark, or only the game named `only`.
pub fn cases(only: Option<&str>) -> Result<Vec<BenchCase>, String> {
    let entries: Vec<&'static dyn GameEntry> = match only {
        Some(name) => vec![games::find(name)?],
        None => games::registry(),
    };
    Ok(entries
        .into_iter()
        .flat_map(|entry| {
            let (lo, hi) = entry.players();
            let defaults = entry.default_bots();
            let counts = if lo == hi { vec![lo] } else { player_counts(lo, hi) };
            let extra = EXTRA_CASES.iter().filter(move |(game, _)| *game == entry.name()).map(move |(_, bots)| BenchCase { entry, bots: bots.map(String::from).to_vec() });
            counts.into_iter().map(move |n| BenchCase { entry, bots: (0..n).map(|i| defaults[i % defaults.len()].to_string()).collect() }).chain(extra)
        })
        .collect())
}

/// What one timed run measured.
#[derive(Clone, Debug)]
pub struct BenchRow {
    /// Game name.
    pub game: &'static str,
    /// Players.
    pub players: usize,
    /// Bots, joined by ` vs `.
    pub bots: String,
    /// Worker threads.
    pub threads: usize,
    /// Matches played.
    pub matches: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Actions that took effect ([`crate::runner::MatchRecord::actions`]).
    pub actions: u64,
    /// Deals or rounds played, for games that count them (a `rounds` or `deals` metric).
    pub rounds: Option<u64>,
    /// `size_of` the game's state.
    pub state_bytes: usize,
    /// Peak resident memory of the process so far, in KiB (Linux; `None` elsewhere).
    pub peak_kib: Option<u64>,
    /// Decisions asked of external bots in the timed run (0 without one).
    pub protocol_decisions: u64,
}

impl BenchRow {
    /// Matches per second per thread.
    pub fn per_thread(&self) -> f64 {
        self.matches as f64 / self.seconds / self.threads as f64
    }
}

/// The process's peak resident set size in KiB, from `/proc/self/status` (Linux).
pub fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A built case, ready to time.
struct Prepared {
    table: Table,
    game: Box<dyn games::TracedGame>,
}

impl Prepared {
    fn new(case: &BenchCase) -> Result<Prepared, String> {
        let table = Table::parse(case.entry.name(), &case.bots, &[], SeatingDesign::All)?;
        let game = table.build()?;
        Ok(Prepared { table, game })
    }
    /// Plays `deals` deals under every seating on `pool`; returns the stats, the
    /// seconds and the decisions asked of external bots.
    fn time(&self, deals: u64, pool: &rayon::ThreadPool) -> (MatchupStats, f64, u64) {
        let cfg = self.table.run_config(0, 1, true);
        let bar = indicatif::ProgressBar::hidden();
        let asked = crate::external::decisions_asked();
        let start = Instant::now();
        let stats = pool.install(|| runner::run_deals(self.game.as_match_game(), &cfg, 0..deals, &bar));
        (stats, start.elapsed().as_secs_f64(), crate::external::decisions_asked() - asked)
    }
    /// The row of a run of `case` that played `stats` in `seconds` on `threads` threads.
    fn row(&self, case: &BenchCase, threads: usize, stats: &MatchupStats, seconds: f64, protocol_decisions: u64) -> BenchRow {
        let rounds = self.game.metrics().iter().position(|m| m.name == "rounds" || m.name == "deals").map(|i| stats.metrics[i].sum());
        BenchRow {
            game: case.entry.name(),
            players: case.bots.len(),
            bots: case.bots.join(" vs "),
            threads,
            matches: stats.total_games(),
            seconds,
            actions: stats.actions,
            rounds,
            state_bytes: case.entry.state_bytes(),
            peak_kib: peak_kib(),
            protocol_decisions,
        }
    }
}

/// Times `case` on `threads` threads: a calibration run on the same pool doubles the
/// deals until it takes a tenth of `seconds`, then `repeat` runs of about `seconds`
/// each play the same deals; the row is the run of median time.
pub fn measure(case: &BenchCase, threads: usize, seconds: f64, repeat: usize) -> Result<BenchRow, String> {
    // The pool outlives the game: an external bot's process ends with the thread that
    // started it, so the game (which stops its bots) must go first.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
    let prepared = Prepared::new(case)?;
    let mut deals = threads as u64;
    let per_deal = loop {
        let (stats, secs, _) = prepared.time(deals, &pool);
        stats.check_strategies(&prepared.table.labels(), 1, &prepared.table.trace_command(1))?;
        if secs >= seconds / 10.0 || deals >= 1 << 40 {
            break secs / deals as f64;
        }
        deals *= 2;
    };
    let deals = ((seconds / per_deal) as u64).max(threads as u64);
    let mut runs: Vec<(MatchupStats, f64, u64)> = (0..repeat.max(1)).map(|_| prepared.time(deals, &pool)).collect();
    runs.sort_by(|a, b| a.1.total_cmp(&b.1));
    let (stats, secs, protocol_decisions) = runs.swap_remove(runs.len() / 2);
    stats.check_strategies(&prepared.table.labels(), 1, &prepared.table.trace_command(1))?;
    Ok(prepared.row(case, threads, &stats, secs, protocol_decisions))
}

/// Plays exactly `deals` deals of `case` once on one thread, untimed: the fixed workload
/// whose instructions `scripts/instructions-per-action.sh` counts under callgrind.
pub fn play_fixed(case: &BenchCase, deals: u64) -> Result<BenchRow, String> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().map_err(|e| e.to_string())?;
    let prepared = Prepared::new(case)?;
    let (stats, seconds, protocol_decisions) = prepared.time(deals, &pool);
    stats.check_strategies(&prepared.table.labels(), 1, &prepared.table.trace_command(1))?;
    Ok(prepared.row(case, 1, &stats, seconds, protocol_decisions))
}

/// Matches played by the two processes of `cardsim bench --memory` by default.
pub const MEMORY_MATCHES: [u64; 2] = [10_000, 1_000_000];

/// The table `cardsim bench --memory` plays for `game`: its first bench case (the
/// default bots at its smallest player count).
pub fn memory_case(game: &str) -> Result<BenchCase, String> {
    Ok(cases(Some(game))?.remove(0))
}

/// Plays `matches` matches (whole deals) of `case` on the current rayon pool and
/// returns the matches played and the process's peak resident memory in KiB: what a
/// fresh `cardsim bench --memory-child` process reports to its parent.
pub fn memory_run(case: &BenchCase, matches: u64) -> Result<(u64, Option<u64>), String> {
    let prepared = Prepared::new(case)?;
    let cfg = prepared.table.run_config(matches, 1, true);
    let deals = cfg.deals(case.bots.len());
    let stats = runner::run_deals(prepared.game.as_match_game(), &cfg, 0..deals, &indicatif::ProgressBar::hidden());
    Ok((stats.total_games(), peak_kib()))
}

/// One process of `cardsim bench --memory`: a game's table played for a number of
/// matches in a fresh process, and that process's peak resident memory.
#[derive(Clone, Debug)]
pub struct MemoryRow {
    /// Game name.
    pub game: &'static str,
    /// Players.
    pub players: usize,
    /// Bots, joined by ` vs `.
    pub bots: String,
    /// Matches played.
    pub matches: u64,
    /// Peak resident set size of the process (`VmHWM`), in KiB.
    pub peak_kib: u64,
}

/// The line a `--memory-child` process prints for its parent.
pub fn memory_line(matches: u64, peak_kib: Option<u64>) -> String {
    format!("matches {matches} peak_kib {}", peak_kib.map_or("unknown".into(), |k| k.to_string()))
}

/// Runs `exe bench --game GAME --memory-child MATCHES` (`exe` is this program) in a
/// fresh process, on all cores, and reads its [`memory_line`].
pub fn measure_memory(exe: &std::path::Path, case: &BenchCase, matches: u64) -> Result<MemoryRow, String> {
    let game = case.entry.name();
    let what = format!("bench --memory: {game} at {matches} matches");
    let out = std::process::Command::new(exe)
        .args(["bench", "--game", game, "--memory-child", &matches.to_string()])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("{what}: cannot start {}: {e}", exe.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("{what}: the process failed ({}): {}", out.status, err.lines().next().unwrap_or("")));
    }
    let words: Vec<&str> = stdout.split_whitespace().collect();
    match words[..] {
        ["matches", m, "peak_kib", k] => {
            let played: u64 = m.parse().map_err(|_| format!("{what}: unreadable report {stdout:?}"))?;
            let peak_kib: u64 = k.parse().map_err(|_| format!("{what}: no peak memory on this system (Linux /proc/self/status VmHWM)"))?;
            Ok(MemoryRow { game, players: case.bots.len(), bots: case.bots.join(" vs "), matches: played, peak_kib })
        }
        _ => Err(format!("{what}: unreadable report {stdout:?}")),
    }
}

/// CSV and table columns of a memory row.
pub const MEMORY_COLUMNS: [&str; 5] = ["game", "players", "bots", "matches", "peak_mib"];

/// The values of `row` in the order of [`MEMORY_COLUMNS`].
pub fn memory_values(row: &MemoryRow) -> Vec<String> {
    vec![row.game.to_string(), row.players.to_string(), row.bots.clone(), row.matches.to_string(), format!("{:.1}", row.peak_kib as f64 / 1024.0)]
}

/// The protocol case: Lopti with the reference Python clone of `lowest` (run from the
/// current folder's `examples/bots`) and its built-in twin's table.
pub const PROTOCOL_BOTS: [&str; 3] = ["exec:examples/bots/lopti_lowest.py", "burner", "random"];

/// The built-in twin of [`PROTOCOL_BOTS`].
pub const PROTOCOL_TWIN: [&str; 3] = ["lowest", "burner", "random"];

/// Times the protocol case and its twin on one thread: `None` when the reference bot is
/// not in `examples/bots` of the current folder.
pub fn measure_protocol(seconds: f64, repeat: usize) -> Result<Option<(BenchRow, BenchRow)>, String> {
    if !std::path::Path::new("examples/bots/lopti_lowest.py").exists() {
        return Ok(None);
    }
    let lopti = games::find("lopti")?;
    let case = |bots: [&str; 3]| BenchCase { entry: lopti, bots: bots.map(String::from).to_vec() };
    Ok(Some((measure(&case(PROTOCOL_BOTS), 1, seconds, repeat)?, measure(&case(PROTOCOL_TWIN), 1, seconds, repeat)?)))
}

/// The line on the protocol's cost: decisions per second through it and its overhead
/// per match against the built-in twin.
pub fn protocol_line(ext: &BenchRow, twin: &BenchRow) -> String {
    let per_match = |r: &BenchRow| r.seconds / r.matches as f64;
    let overhead = per_match(ext) - per_match(twin);
    format!(
        "protocol (1 thread): {} plays {:.0} decisions/s through the bot protocol ({:.1} per match, {:.0} matches/s); its built-in twin {} plays {:.0} matches/s; overhead {:.0} us per match, {:.0} us per decision",
        ext.bots,
        ext.protocol_decisions as f64 / ext.seconds,
        ext.protocol_decisions as f64 / ext.matches as f64,
        ext.matches as f64 / ext.seconds,
        twin.bots,
        twin.matches as f64 / twin.seconds,
        overhead * 1e6,
        overhead * 1e6 * ext.matches as f64 / ext.protocol_decisions.max(1) as f64
    )
}

/// CSV and table columns of a bench row.
pub const COLUMNS: [&str; 13] = [
    "game", "players", "bots", "threads", "matches", "seconds", "matches_per_s", "matches_per_s_per_thread", "rounds_per_s_per_thread",
    "actions_per_s_per_thread", "ns_per_action", "state_bytes", "peak_mib",
];

/// The values of `row` in the order of [`COLUMNS`].
pub fn values(row: &BenchRow) -> Vec<String> {
    let per_thread_s = row.seconds * row.threads as f64;
    vec![
        row.game.to_string(),
        row.players.to_string(),
        row.bots.clone(),
        row.threads.to_string(),
        row.matches.to_string(),
        format!("{:.3}", row.seconds),
        format!("{:.0}", row.matches as f64 / row.seconds),
        format!("{:.0}", row.per_thread()),
        row.rounds.map_or(String::new(), |r| format!("{:.0}", r as f64 / per_thread_s)),
        format!("{:.0}", row.actions as f64 / per_thread_s),
        format!("{:.1}", per_thread_s * 1e9 / row.actions.max(1) as f64),
        row.state_bytes.to_string(),
        row.peak_kib.map_or(String::new(), |k| format!("{:.1}", k as f64 / 1024.0)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_benchmarked_at_its_player_counts() {
        let all = cases(None).unwrap();
        let shape: Vec<(&str, usize)> = all.iter().map(|c| (c.entry.name(), c.bots.len())).collect();
        for want in [("spit", 2), ("speed", 2), ("lopti", 2), ("lopti", 3), ("lopti", 4), ("lopti", 5), ("nerts", 2), ("nerts", 4), ("nerts", 6)] {
            assert!(shape.contains(&want), "{want:?} missing from {shape:?}");
        }
        let lopti3 = all.iter().find(|c| c.entry.name() == "lopti" && c.bots.len() == 3).unwrap();
        assert_eq!(lopti3.bots, ["lowest", "burner", "random"], "the default bots in turn");
        assert!(cases(Some("chess")).is_err());
        let spit: Vec<&BenchCase> = all.iter().filter(|c| c.entry.name() == "spit").collect();
        assert_eq!(spit.len(), 2, "defaults and the expert pairing");
        assert_eq!(spit[1].bots, ["smart@expert", "greedy@expert"]);
    }

    #[test]
    fn a_short_measurement_counts_matches_actions_and_rounds() {
        let case = cases(Some("speed")).unwrap().remove(0);
        let row = measure(&case, 1, 0.02, 3).unwrap();
        assert!(row.matches >= 2 && row.matches.is_multiple_of(2), "whole deals of two seatings: {}", row.matches);
        assert!(row.actions > 10 * row.matches, "a Speed match lands dozens of actions: {} over {}", row.actions, row.matches);
        assert!(row.rounds.is_some_and(|r| r >= row.matches), "every match has a deal");
        assert_eq!(values(&row).len(), COLUMNS.len());
    }

    #[test]
    fn a_fixed_workload_plays_exactly_its_deals_and_is_the_same_every_time() {
        let case = BenchCase { entry: crate::games::find("spit").unwrap(), bots: vec!["smart@expert".into(), "greedy@expert".into()] };
        let first = play_fixed(&case, 3).unwrap();
        assert_eq!(first.matches, 6, "three deals under both seatings");
        assert_eq!(first.actions, play_fixed(&case, 3).unwrap().actions, "the workload callgrind counts must not vary");
        let six = play_fixed(&case, 6).unwrap();
        assert!(six.actions > first.actions, "deals 0..6 include deals 0..3");
    }
}
