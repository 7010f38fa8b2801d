//! One summary row per bot and seat of a matchup, written as CSV or as a table.

use crate::runner::{MatchupStats, MetricDef};
use crate::stats::{wilson_interval, Z_95};
use std::io::Write;
use std::path::Path;

/// The `bot` label of the seat rows pooled over all bots.
pub const ANY_BOT: &str = "any";

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
    let row = |bot_label: &str, bot_index: String, seat: String, games: u64, wins: u64, deal_cols: [String; 3]| {
        let (lo, hi) = wilson_interval(wins, games, Z_95);
        let mut values = vec![
            labels.game.to_string(),
            labels.bots.join(" vs "),
            labels.flags.to_string(),
            labels.seed.to_string(),
            bot_label.to_string(),
            bot_index,
            seat,
            games.to_string(),
            wins.to_string(),
            stats.draws.to_string(),
            fmt_rate(wins as f64 / games as f64),
            fmt_rate(lo),
            fmt_rate(hi),
            deals.to_string(),
        ];
        values.extend(deal_cols);
        values.push(stats.capped.to_string());
        values.extend(matchup_tail.iter().cloned());
        SummaryRow { header: header.clone(), values }
    };
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
            let deal_cols = [all_won.to_string(), split.to_string(), none_won.to_string()];
            rows.push(row(&labels.bots[bot], bot.to_string(), seat.map_or("all".to_string(), |s| s.to_string()), games, wins, deal_cols));
        }
    }
    // Seat rows pooled over bots: how often whoever sat in seat s won.
    let total = stats.total_games();
    for seat in 0..stats.seats {
        let wins = (0..stats.seats).map(|b| stats.wins[b][seat]).sum();
        rows.push(row(ANY_BOT, String::new(), seat.to_string(), total, wins, [String::new(), String::new(), String::new()]));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{MatchRecord, MatchupStats, MAX_METRICS};

    #[test]
    fn rows_per_bot_and_seat_and_pooled_seat_rows() {
        // Two bots, one deal played under both seatings: bot 0 wins in seat 0 only.
        let mut s = MatchupStats::new(2, 2, 1);
        let mut metrics = [0; MAX_METRICS];
        metrics[0] = 1500;
        s.record(&[0, 1], &MatchRecord { winner: Some(0), capped: false, metrics });
        metrics[0] = 2500;
        s.record(&[1, 0], &MatchRecord { winner: Some(0), capped: false, metrics });
        s.deal_wins[0][1] += 1;
        s.deal_wins[1][1] += 1;
        let defs = [MetricDef { name: "seconds", scale: 1000, doc: "" }];
        let bots = ["a".to_string(), "b".to_string()];
        let rows = summary_rows(&MatchupLabels { game: "g", bots: &bots, flags: "", seed: 3 }, &s, &defs);
        let col = |r: &SummaryRow, name: &str| r.values[r.header.iter().position(|h| h == name).unwrap()].clone();
        assert_eq!(rows.len(), 8);
        let got: Vec<(String, String, String, String)> = rows.iter().map(|r| (col(r, "bot"), col(r, "seat"), col(r, "games"), col(r, "wins"))).collect();
        let want = [("a", "all", "2", "1"), ("a", "0", "1", "1"), ("a", "1", "1", "0"), ("b", "all", "2", "1"), ("b", "0", "1", "1"), ("b", "1", "1", "0"), ("any", "0", "2", "2"), ("any", "1", "2", "0")];
        for (g, w) in got.iter().zip(want) {
            assert_eq!((g.0.as_str(), g.1.as_str(), g.2.as_str(), g.3.as_str()), w);
        }
        assert_eq!(col(&rows[0], "deals_split"), "1");
        assert_eq!(col(&rows[0], "seconds_mean"), "2.000");
        assert_eq!(col(&rows[0], "seconds_max"), "2.500");
        assert_eq!(col(&rows[6], "win_rate"), "1.000000");
        assert_eq!(col(&rows[6], "win_ci_low"), format!("{:.6}", wilson_interval(2, 2, Z_95).0));
    }
}
