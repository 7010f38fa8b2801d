//! One summary row per bot and seat of a matchup, written as CSV or as a table.

use crate::runner::{MatchupStats, MetricDef};
use crate::stats::{wilson_interval, Z_95};
use std::io::Write;
use std::path::Path;

/// Percentiles printed for each metric.
const PERCENTILES: [(u32, &str); 3] = [(50, "p50"), (90, "p90"), (99, "p99")];

/// One line of the summary: a bot in one seat (`seat` = `all` for the pooled row).
#[derive(Clone, Debug)]
pub struct SummaryRow {
    /// Column names, in order.
    pub header: Vec<String>,
    /// Values, as printed.
    pub values: Vec<String>,
}

/// Labels of a matchup: game name, matchup label, bot specs and the flags in force.
pub struct MatchupLabels<'a> {
    /// Game name.
    pub game: &'a str,
    /// The bot specs in bot order.
    pub bots: &'a [String],
    /// Non-default flags (`key=value` list).
    pub flags: &'a str,
    /// Master seed.
    pub seed: u64,
}

fn fmt_rate(x: f64) -> String {
    format!("{x:.6}")
}

fn fmt_scaled(v: f64, scale: u32) -> String {
    if scale == 1 { format!("{v:.3}") } else { format!("{:.3}", v / scale as f64) }
}

fn fmt_int_scaled(v: u64, scale: u32) -> String {
    if scale == 1 { v.to_string() } else { format!("{:.3}", v as f64 / scale as f64) }
}

/// Builds the summary rows of one matchup.
pub fn summary_rows(labels: &MatchupLabels, stats: &MatchupStats, metrics: &[MetricDef]) -> Vec<SummaryRow> {
    let mut header: Vec<String> = [
        "game", "bots", "flags", "seed", "bot", "bot_index", "seat", "games", "wins", "draws", "win_rate",
        "win_ci_low", "win_ci_high", "deals", "deals_all_won", "deals_split", "deals_none_won", "capped",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for m in metrics {
        header.push(format!("{}_mean", m.name));
        header.push(format!("{}_sd", m.name));
        for (_, p) in PERCENTILES {
            header.push(format!("{}_{p}", m.name));
        }
        header.push(format!("{}_max", m.name));
    }
    let matchup_tail: Vec<String> = stats
        .metrics
        .iter()
        .zip(metrics)
        .flat_map(|(h, m)| {
            let mut v = vec![fmt_scaled(h.mean(), m.scale), fmt_scaled(h.sd(), m.scale)];
            v.extend(PERCENTILES.iter().map(|&(p, _)| fmt_int_scaled(h.percentile(p as f64), m.scale)));
            v.push(fmt_int_scaled(h.max(), m.scale));
            v
        })
        .collect();
    let deals: u64 = stats.deal_wins[0].iter().sum();
    let mut rows = Vec::new();
    for bot in 0..stats.seats {
        let dw = &stats.deal_wins[bot];
        let r = stats.rotations as usize;
        let (all_won, none_won) = (dw[r], dw[0]);
        let split = deals - all_won - none_won;
        let seat_rows = std::iter::once(None).chain((0..stats.seats).map(Some));
        for seat in seat_rows {
            let (games, wins) = match seat {
                None => (stats.games[bot].iter().sum::<u64>(), stats.wins[bot].iter().sum::<u64>()),
                Some(s) => (stats.games[bot][s], stats.wins[bot][s]),
            };
            if games == 0 {
                continue;
            }
            let (lo, hi) = wilson_interval(wins, games, Z_95);
            let mut values = vec![
                labels.game.to_string(),
                labels.bots.join(" vs "),
                labels.flags.to_string(),
                labels.seed.to_string(),
                labels.bots[bot].clone(),
                bot.to_string(),
                seat.map_or("all".to_string(), |s| s.to_string()),
                games.to_string(),
                wins.to_string(),
                stats.draws.to_string(),
                fmt_rate(wins as f64 / games as f64),
                fmt_rate(lo),
                fmt_rate(hi),
                deals.to_string(),
                all_won.to_string(),
                split.to_string(),
                none_won.to_string(),
                stats.capped.to_string(),
            ];
            values.extend(matchup_tail.iter().cloned());
            rows.push(SummaryRow { header: header.clone(), values });
        }
    }
    rows
}

/// Writes rows as CSV to `path` atomically: a temporary file renamed into place, so a
/// failed run never leaves a half-written file.
pub fn write_csv(path: &Path, rows: &[SummaryRow]) -> Result<(), String> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(format!("--csv {}: folder {} does not exist", path.display(), dir.display()));
    }
    let tmp = dir.join(format!(".{}.tmp", path.file_name().and_then(|n| n.to_str()).unwrap_or("out")));
    let write = || -> Result<(), Box<dyn std::error::Error>> {
        let mut w = csv::Writer::from_path(&tmp)?;
        if let Some(first) = rows.first() {
            w.write_record(&first.header)?;
        }
        for r in rows {
            w.write_record(&r.values)?;
        }
        w.flush()?;
        Ok(())
    };
    write()
        .and_then(|_| std::fs::rename(&tmp, path).map_err(|e| e.into()))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("--csv {}: cannot write: {e}", path.display())
        })
}

/// Prints the rows as an aligned table of the most useful columns.
pub fn print_table(out: &mut dyn Write, rows: &[SummaryRow]) -> std::io::Result<()> {
    let Some(first) = rows.first() else { return Ok(()) };
    let wanted = ["bot", "seat", "games", "wins", "win_rate", "win_ci_low", "win_ci_high"];
    let idx: Vec<usize> = wanted.iter().filter_map(|w| first.header.iter().position(|h| h == w)).collect();
    let width = |i: usize| rows.iter().map(|r| r.values[i].len()).chain([first.header[i].len()]).max().unwrap_or(0);
    let widths: Vec<usize> = idx.iter().map(|&i| width(i)).collect();
    let line = |cells: Vec<&str>| cells.iter().zip(&widths).map(|(c, w)| format!("{c:>w$}")).collect::<Vec<_>>().join("  ");
    writeln!(out, "{}", line(idx.iter().map(|&i| first.header[i].as_str()).collect()))?;
    for r in rows {
        writeln!(out, "{}", line(idx.iter().map(|&i| r.values[i].as_str()).collect()))?;
    }
    Ok(())
}
