//! One summary row per bot and seat of a matchup, written as CSV or as a table.

use crate::runner::{MatchupStats, MetricDef, RateSet};
use crate::stats::elo::{elo_with_interval, los, paired_score, PairedScore};
use crate::stats::{wilson_interval, Z_95};
use super::sink::OutputPath;
use std::io::Write;

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
    /// Seating design (`all`, `rotations`, `one`).
    pub seating: &'a str,
}

fn fmt_rate(x: f64) -> String {
    format!("{x:.6}")
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() { format!("{:.2}", x + 0.0) } else if x > 0.0 { "inf".into() } else { "-inf".into() }
}

fn fmt_scaled(v: f64, scale: u32) -> String {
    if scale == 1 { format!("{v:.3}") } else { format!("{:.3}", v / scale as f64) }
}

fn fmt_int_scaled(v: u64, scale: u32) -> String {
    if scale == 1 { v.to_string() } else { format!("{:.3}", v as f64 / scale as f64) }
}

/// The CSV columns before the metrics, in order; games that report points add
/// [`points_columns`] after them.
pub const COLUMNS: [&str; 30] = [
    "game", "bots", "flags", "seed", "seating", "bot", "bot_index", "seat", "after", "games", "wins", "draws", "win_rate",
    "win_ci_low", "win_ci_high", "score", "score_se", "score_ci_low", "score_ci_high", "deft", "elo", "elo_ci_low",
    "elo_ci_high", "los", "deals", "deals_all_won", "deals_split", "deals_none_won", "capped", "cycled",
];

/// The point and rank columns of a game that reports points, for `seats` seats:
/// `points`, `points_se`, `points_ci_low`, `points_ci_high`, then `rank_0` to
/// `rank_{seats-1}`.
pub fn points_columns(seats: usize) -> Vec<String> {
    let mut cols: Vec<String> = ["points", "points_se", "points_ci_low", "points_ci_high"].iter().map(|s| s.to_string()).collect();
    cols.extend((0..seats).map(|r| format!("rank_{r}")));
    cols
}

/// The point and rank values of a row over the matches of `bots` in `seats` (one bot
/// and all seats: its `seat` = `all` row, with the paired SE; one bot and one seat; all
/// bots and one seat: an `any` row).
fn points_values(stats: &MatchupStats, bots: &[usize], seats: &[usize]) -> Vec<String> {
    let Some(pts) = &stats.points else { return Vec::new() };
    let games: u64 = bots.iter().flat_map(|&b| seats.iter().map(move |&s| stats.games[b][s])).sum();
    let sum: i64 = bots.iter().flat_map(|&b| seats.iter().map(move |&s| pts.sum[b][s])).sum();
    let mut values = vec![fmt_rate(sum as f64 / games as f64), String::new(), String::new(), String::new()];
    if let ([bot], true) = (bots, seats.len() == stats.seats) {
        let (mean, se) = pts.mean_and_se(*bot, stats.deals(), stats.seatings);
        values[1..].clone_from_slice(&[fmt_rate(se), fmt_rate(mean - Z_95 * se), fmt_rate(mean + Z_95 * se)]);
    }
    values.extend((0..stats.seats).map(|r| {
        let at: u64 = bots.iter().flat_map(|&b| seats.iter().map(move |&s| pts.ranks[b][s][r])).sum();
        fmt_rate(at as f64 / games as f64)
    }));
    values
}

/// The rate columns of a game with per-seat rates: for each rate `name`, `name_se`,
/// `name_ci_low`, `name_ci_high`.
pub fn rate_columns(set: &RateSet) -> Vec<String> {
    set.rates.iter().flat_map(|r| ["", "_se", "_ci_low", "_ci_high"].map(|t| format!("{}{t}", r.name))).collect()
}

/// The rate values of a row over the matches of `bots` in `seats`, as for
/// [`points_values`]: the interval only on a bot's `all` row.
fn rate_values(stats: &MatchupStats, bots: &[usize], seats: &[usize]) -> Vec<String> {
    let Some(rates) = &stats.rates else { return Vec::new() };
    (0..rates.set.rates.len())
        .flat_map(|r| {
            if let ([bot], true) = (bots, seats.len() == stats.seats) {
                let (rate, se) = rates.rate_and_se(*bot, r);
                [fmt_rate(rate), fmt_rate(se), fmt_rate(rate - Z_95 * se), fmt_rate(rate + Z_95 * se)]
            } else {
                [fmt_rate(rates.rate(bots, seats, r)), String::new(), String::new(), String::new()]
            }
        })
        .collect()
}

/// The paired figures of one bot: its deal scores' mean and standard error, the design
/// effect, and for two-bot matchups the Elo difference and LOS.
#[derive(Clone, Copy, Debug)]
pub struct PairedFigures {
    /// Mean deal score (a win is 1, a match without winner 1/seats to every seat).
    pub score: PairedScore,
    /// Kish's deft: the standard error of the mean deal score over the game-level one
    /// (every match independent, [`game_level_se`]); below 1 when pairing cancels luck.
    /// Its square is the design effect proper (deff, a variance ratio).
    pub deft: f64,
    /// `(elo, low, high, los)` for two-bot matchups.
    pub elo: Option<(f64, f64, f64, f64)>,
}

/// Matches of `stats` without a winner (draws, capped and cycled ones): every seat
/// scores 1/seats in them.
fn undecided(stats: &MatchupStats) -> u64 {
    stats.draws + stats.capped + stats.cycled
}

/// The standard error of a mean score over `games` matches if every match were
/// independent: a match scores 1 when won (`wins`), 1/`seats` when it has no winner
/// (`undecided`), 0 otherwise, and the SE is sqrt(population variance / games).
pub fn game_level_se(games: u64, wins: u64, undecided: u64, seats: usize) -> f64 {
    let (g, n) = (games as f64, seats as f64);
    let mean = (wins as f64 + undecided as f64 / n) / g;
    let second = (wins as f64 + undecided as f64 / (n * n)) / g;
    ((second - mean * mean).max(0.0) / g).sqrt()
}

/// The paired figures of `bot` in `stats`.
pub fn paired_figures(stats: &MatchupStats, bot: usize) -> PairedFigures {
    let games = stats.games[bot].iter().sum::<u64>();
    let wins = stats.wins[bot].iter().sum::<u64>();
    let (score, deft) = score_and_deft(&stats.deal_score[bot], game_level_se(games, wins, undecided(stats), stats.seats));
    let elo = (stats.seats == 2).then(|| {
        let (e, lo, hi) = elo_with_interval(&score, Z_95);
        (e, lo, hi, los(&score))
    });
    PairedFigures { score, deft, elo }
}

/// The paired score of a deal-score histogram and its deft: its SE over the game-level
/// SE `game_se` of the same matches (NaN when that is 0).
fn score_and_deft(deal_score: &[u64], game_se: f64) -> (PairedScore, f64) {
    let score = paired_score(deal_score);
    (score, if game_se > 0.0 { score.se() / game_se } else { f64::NAN })
}

/// The `score` .. `deft` columns of a paired score (five values).
fn score_columns(score: &PairedScore, deft: f64) -> [String; 5] {
    let se = score.se();
    [
        fmt_rate(score.mean),
        fmt_rate(se),
        fmt_rate(score.mean - Z_95 * se),
        fmt_rate(score.mean + Z_95 * se),
        fmt_ratio(deft),
    ]
}

fn fmt_ratio(x: f64) -> String {
    if x.is_finite() { format!("{x:.4}") } else { String::new() }
}

/// The columns after the metrics: what every figure of a row is computed from
/// (docs/statistics.md, "Recomputing the figures"). `deff` is the design effect
/// (deft squared); `score_units` the score units of a deal (seats x seatings; a win is
/// `seats` units, a match without winner 1 to every seat), `score_units_sum` and
/// `score_units_sum_sq` the sums over deals of the row's units and their squares; the
/// `pairs_` counts, for two seats under both seatings, the deals by their two results
/// (L loss, D no winner, W win); then, for games with points, the sums over deals of
/// the bot's points and their squares.
pub const SUFFICIENT_COLUMNS: [&str; 10] =
    ["deff", "score_units", "score_units_sum", "score_units_sum_sq", "pairs_ll", "pairs_ld", "pairs_wl", "pairs_dd", "pairs_wd", "pairs_ww"];

/// The point sums after [`SUFFICIENT_COLUMNS`] in a game that reports points.
pub const POINT_SUM_COLUMNS: [&str; 2] = ["points_deal_sum", "points_deal_sum_sq"];

/// The sums behind the rates of a game with per-seat rates, after the point sums: the
/// bot's exposure (`exposure`) and, over deals, the square of its per-deal exposure
/// (`exposure_deal_sum_sq`); per rate its count (`NAME_count`), over deals the square of
/// the per-deal count (`NAME_deal_sum_sq`) and the count times the exposure
/// (`NAME_deal_cross`).
pub fn rate_sum_columns(set: &RateSet) -> Vec<String> {
    let mut cols = vec!["exposure".to_string(), "exposure_deal_sum_sq".to_string()];
    cols.extend(set.rates.iter().flat_map(|r| ["_count", "_deal_sum_sq", "_deal_cross"].map(|t| format!("{}{t}", r.name))));
    cols
}

/// The [`rate_sum_columns`] values of `bot`.
fn rate_sum_values(stats: &MatchupStats, bot: usize) -> Vec<String> {
    let Some(rates) = &stats.rates else { return Vec::new() };
    let mut v = vec![rates.exposure[bot].iter().sum::<u64>().to_string(), rates.deal_exposure_sq[bot].to_string()];
    for r in 0..rates.set.rates.len() {
        v.extend([rates.counts[bot].iter().map(|c| c[r]).sum::<u64>().to_string(), rates.deal_count_sq[bot][r].to_string(), rates.deal_cross[bot][r].to_string()]);
    }
    v
}

/// The [`SUFFICIENT_COLUMNS`] values of a row with the paired score of the deal-score
/// histogram `hist` and its `deft`; `pairs` the six pair counts (LL, LD, WL, DD, WD, WW).
fn sufficient_values(hist: &[u64], deft: f64, pairs: Option<[u64; 6]>) -> Vec<String> {
    let sum: u128 = hist.iter().enumerate().map(|(t, &c)| t as u128 * c as u128).sum();
    let sum_sq: u128 = hist.iter().enumerate().map(|(t, &c)| (t * t) as u128 * c as u128).sum();
    let mut v = vec![fmt_ratio(deft * deft), (hist.len() - 1).to_string(), sum.to_string(), sum_sq.to_string()];
    v.extend(match pairs {
        Some(p) => p.map(|c| c.to_string()),
        None => Default::default(),
    });
    v
}

/// The six pair counts LL, LD, WL, DD, WD, WW of a two-seat table under both seatings
/// from a deal-score histogram (units 0 to 4: LL, LD, WL or DD, WD, WW) and the deals
/// in which both matches had no winner (`dd`); `None` for other tables.
fn pair_counts(stats: &MatchupStats, hist: &[u64], dd: u64) -> Option<[u64; 6]> {
    (stats.seats == 2 && stats.seatings == 2).then(|| [hist[0], hist[1], hist[2] - dd, dd, hist[3], hist[4]])
}

/// Deals of a two-seat table under both seatings whose two matches both had no winner:
/// bot 0's deals of 2 units (WL or DD) less those with one win (WL; one win and one
/// match without winner make 3 units, WD).
fn both_undecided(stats: &MatchupStats) -> u64 {
    if stats.seats == 2 && stats.seatings == 2 { stats.deal_score[0][2] - (stats.deal_wins[0][1] - stats.deal_score[0][3]) } else { 0 }
}

/// Builds the summary rows of one matchup: per bot a pooled row (`seat` = `all`, with
/// the paired figures) and one per seat; with 3+ seats one row per bot and the bot
/// playing just before it (`after`); then per seat a row pooled over bots (`bot` = `any`).
pub fn summary_rows(labels: &MatchupLabels, stats: &MatchupStats, metrics: &[MetricDef]) -> Vec<SummaryRow> {
    let mut header: Vec<String> = COLUMNS.iter().map(|s| s.to_string()).collect();
    let n_points = if stats.points.is_some() { points_columns(stats.seats).len() } else { 0 };
    if stats.points.is_some() {
        header.extend(points_columns(stats.seats));
    }
    let n_rates = stats.rates.as_ref().map_or(0, |r| rate_columns(&r.set).len());
    if let Some(rates) = &stats.rates {
        header.extend(rate_columns(&rates.set));
    }
    for m in metrics {
        header.push(format!("{}_mean", m.name));
        header.push(format!("{}_sd", m.name));
        for (_, p) in PERCENTILES {
            header.push(format!("{}_{p}", m.name));
        }
        header.push(format!("{}_max", m.name));
    }
    header.extend(SUFFICIENT_COLUMNS.map(String::from));
    if stats.points.is_some() {
        header.extend(POINT_SUM_COLUMNS.map(String::from));
    }
    if let Some(rates) = &stats.rates {
        header.extend(rate_sum_columns(&rates.set));
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
    let deals = stats.deals();
    let seating = labels.seating;
    let mut rows = Vec::new();
    // One row: who, how many games and wins, then the bot-level paired and deal columns,
    // the point columns, the metrics and the sufficient statistics (empty strings where
    // they do not apply).
    let all_seats: Vec<usize> = (0..stats.seats).collect();
    #[allow(clippy::too_many_arguments)]
    let row = |bot_label: &str, bot_index: String, seat: String, after: &str, games: u64, wins: u64, paired: [String; 9], deal_cols: [String; 3], points: Vec<String>, sufficient: Vec<String>| {
        let (lo, hi) = wilson_interval(wins, games, Z_95);
        let mut values = vec![
            labels.game.to_string(),
            labels.bots.join(" vs "),
            labels.flags.to_string(),
            labels.seed.to_string(),
            seating.to_string(),
            bot_label.to_string(),
            bot_index,
            seat,
            after.to_string(),
            games.to_string(),
            wins.to_string(),
            stats.draws.to_string(),
            fmt_rate(wins as f64 / games as f64),
            fmt_rate(lo),
            fmt_rate(hi),
        ];
        values.extend(paired);
        values.push(deals.to_string());
        values.extend(deal_cols);
        values.push(stats.capped.to_string());
        values.push(stats.cycled.to_string());
        values.extend(points);
        values.extend(matchup_tail.iter().cloned());
        values.extend(sufficient);
        values.resize(header.len(), String::new());
        SummaryRow { header: header.clone(), values }
    };
    let blank = || std::array::from_fn::<String, 9, _>(|_| String::new());
    let dd = both_undecided(stats);
    for bot in 0..stats.seats {
        let dw = &stats.deal_wins[bot];
        let r = stats.seatings as usize;
        let (all_won, none_won) = (dw[r], dw[0]);
        let deal_cols = [all_won.to_string(), (deals - all_won - none_won).to_string(), none_won.to_string()];
        let f = paired_figures(stats, bot);
        let mut paired = blank();
        paired[..5].clone_from_slice(&score_columns(&f.score, f.deft));
        if let Some((e, lo, hi, l)) = f.elo {
            paired[5..].clone_from_slice(&[fmt_elo(e), fmt_elo(lo), fmt_elo(hi), fmt_rate(l)]);
        }
        let label = &labels.bots[bot];
        let (games, wins) = (stats.games[bot].iter().sum(), stats.wins[bot].iter().sum());
        let mut sufficient = sufficient_values(&stats.deal_score[bot], f.deft, pair_counts(stats, &stats.deal_score[bot], dd));
        if let Some(pts) = &stats.points {
            sufficient.extend([pts.deal_sum[bot].to_string(), pts.deal_sum_sq[bot].to_string()]);
        }
        sufficient.extend(rate_sum_values(stats, bot));
        rows.push(row(label, bot.to_string(), "all".into(), "", games, wins, paired, deal_cols.clone(), [points_values(stats, &[bot], &all_seats), rate_values(stats, &[bot], &all_seats)].concat(), sufficient));
        for seat in 0..stats.seats {
            let (games, wins) = (stats.games[bot][seat], stats.wins[bot][seat]);
            if games > 0 {
                rows.push(row(label, bot.to_string(), seat.to_string(), "", games, wins, blank(), deal_cols.clone(), [points_values(stats, &[bot], &[seat]), rate_values(stats, &[bot], &[seat])].concat(), Vec::new()));
            }
        }
    }
    if stats.seats >= 3 {
        for bot in 0..stats.seats {
            for before in 0..stats.seats {
                let (games, wins) = (stats.after_games[bot][before], stats.after_wins[bot][before]);
                if games > 0 {
                    rows.push(row(&labels.bots[bot], bot.to_string(), "all".into(), &labels.bots[before], games, wins, blank(), Default::default(), vec![String::new(); n_points + n_rates], Vec::new()));
                }
            }
        }
    }
    // Seat rows pooled over bots: how often whoever sat in seat s won.
    let total = stats.total_games();
    for seat in 0..stats.seats {
        let wins = (0..stats.seats).map(|b| stats.wins[b][seat]).sum();
        let hist = &stats.seat_deal_score[seat];
        let (score, deft) = score_and_deft(hist, game_level_se(total, wins, undecided(stats), stats.seats));
        let mut paired = blank();
        paired[..5].clone_from_slice(&score_columns(&score, deft));
        let sufficient = sufficient_values(hist, deft, pair_counts(stats, hist, dd));
        rows.push(row(ANY_BOT, String::new(), seat.to_string(), "", total, wins, paired, Default::default(), [points_values(stats, &all_seats, &[seat]), rate_values(stats, &all_seats, &[seat])].concat(), sufficient));
    }
    rows
}

/// The rows of tables whose headers differ (other player counts or games in one
/// file) as one table: a header with every column of every row, each row's columns in
/// its order (a column new to the header goes right after the column that precedes it
/// in its row), and each row's values under its own column names, empty where its
/// table has no such column.
pub fn one_table(rows: &[SummaryRow]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header: Vec<String> = Vec::new();
    let mut seen: Vec<&[String]> = Vec::new();
    for r in rows {
        if seen.contains(&r.header.as_slice()) {
            continue;
        }
        seen.push(&r.header);
        for (i, name) in r.header.iter().enumerate() {
            if !header.contains(name) {
                let at = if i == 0 { 0 } else { header.iter().position(|h| *h == r.header[i - 1]).map_or(header.len(), |p| p + 1) };
                header.insert(at, name.clone());
            }
        }
    }
    let values = rows
        .iter()
        .map(|r| {
            let mut v = vec![String::new(); header.len()];
            for (name, value) in r.header.iter().zip(&r.values) {
                v[header.iter().position(|h| h == name).expect("every column is in the header")] = value.clone();
            }
            v
        })
        .collect();
    (header, values)
}

/// The CSV text of `rows` as [`one_table`] (the csv crate quotes fields with commas,
/// quotes or line breaks); no rows, no bytes.
pub fn csv_bytes(rows: &[SummaryRow]) -> Result<Vec<u8>, String> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    super::format::Table::from_rows(rows).csv()
}

/// Writes rows as CSV to a checked output path (atomically for files, see
/// [`crate::output::sink`]), so a failed run never leaves a half-written file.
pub fn write_csv(out: &OutputPath, rows: &[SummaryRow]) -> Result<(), String> {
    out.write(&csv_bytes(rows)?)
}

/// Prints `rows` as an aligned table of the columns `wanted`.
pub fn print_table(out: &mut dyn Write, rows: &[&SummaryRow], wanted: &[&str]) -> std::io::Result<()> {
    let Some(first) = rows.first() else { return Ok(()) };
    let idx: Vec<usize> = wanted.iter().filter_map(|w| first.header.iter().position(|h| h == w)).collect();
    let width = |i: usize| rows.iter().map(|r| r.values[i].chars().count()).chain([first.header[i].len()]).max().unwrap_or(0);
    let widths: Vec<usize> = idx.iter().map(|&i| width(i)).collect();
    let line = |cells: Vec<&str>| cells.iter().zip(&widths).map(|(c, w)| format!("{c:>w$}")).collect::<Vec<_>>().join("  ");
    writeln!(out, "{}", line(idx.iter().map(|&i| first.header[i].as_str()).collect()))?;
    for r in rows {
        writeln!(out, "{}", line(idx.iter().map(|&i| r.values[i].as_str()).collect()))?;
    }
    Ok(())
}

/// Prints one line per metric: mean, SD and percentiles over the finished matches.
pub fn print_metric_lines(out: &mut dyn Write, stats: &MatchupStats, metrics: &[MetricDef]) -> std::io::Result<()> {
    for (h, m) in stats.metrics.iter().zip(metrics) {
        let sc = m.scale as f64;
        writeln!(out, "{:>10}: mean {:.2}  sd {:.2}  p50 {}  p90 {}  p99 {}  max {}", m.name, h.mean() / sc, h.sd() / sc,
            h.percentile(50.0) as f64 / sc, h.percentile(90.0) as f64 / sc, h.percentile(99.0) as f64 / sc, h.max() as f64 / sc)?;
    }
    Ok(())
}

/// Prints a matchup's summary for people: win rates per bot and seat with intervals,
/// the paired score, the Elo difference (two bots), the design effect, points per match
/// with their interval and rank shares (games that report points), the neighbour table
/// (3+ seats), and the counts of draws, capped and cycled matches.
pub fn print_summary(out: &mut dyn Write, rows: &[SummaryRow], stats: &MatchupStats) -> std::io::Result<()> {
    let col = |r: &SummaryRow, name: &str| r.header.iter().position(|h| h == name).map_or("", |i| r.values[i].as_str()).to_string();
    let (main, after): (Vec<&SummaryRow>, Vec<&SummaryRow>) = rows.iter().partition(|r| col(r, "after").is_empty());
    print_table(out, &main, &["bot", "seat", "games", "wins", "win_rate", "win_ci_low", "win_ci_high", "score", "score_ci_low", "score_ci_high"])?;
    for r in main.iter().filter(|r| col(r, "seat") == "all") {
        write!(out, "{}: paired score {}, SE {} (95% ±{:.6}); deft {} (SE ratio), deff {} (variance ratio)", col(r, "bot"), col(r, "score"), col(r, "score_se"),
            Z_95 * col(r, "score_se").parse::<f64>().unwrap_or(f64::NAN), col(r, "deft"), col(r, "deff"))?;
        if !col(r, "elo").is_empty() {
            write!(out, "; Elo {} [{}, {}], LOS {}", col(r, "elo"), col(r, "elo_ci_low"), col(r, "elo_ci_high"), col(r, "los"))?;
        }
        writeln!(out)?;
        if stats.points.is_some() {
            let ranks: Vec<String> = (0..stats.seats).map(|k| format!("{}: {}", k, col(r, &format!("rank_{k}")))).collect();
            writeln!(out, "{}: points per match {} [{}, {}]; rank shares (0 = first) {}", col(r, "bot"), col(r, "points"), col(r, "points_ci_low"),
                col(r, "points_ci_high"), ranks.join(", "))?;
        }
        if let Some(rates) = &stats.rates {
            let each: Vec<String> = rates.set.rates.iter().map(|d| format!("{} {} [{}, {}]", d.name, col(r, d.name), col(r, &format!("{}_ci_low", d.name)), col(r, &format!("{}_ci_high", d.name)))).collect();
            writeln!(out, "{}: per {}: {}", col(r, "bot"), rates.set.per, each.join("; "))?;
        }
    }
    if !after.is_empty() {
        writeln!(out, "win rate by the bot playing just before:")?;
        print_table(out, &after, &["bot", "after", "games", "wins", "win_rate", "win_ci_low", "win_ci_high"])?;
    }
    writeln!(out, "deals: {}  draws: {}  capped: {}  cycled: {}  (lengths below cover the {} finished matches)", stats.deals(), stats.draws,
        stats.capped, stats.cycled, stats.total_games() - stats.capped - stats.cycled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{DealTally, MatchRecord, MatchupStats, MAX_METRICS};

    fn rec(winner: u8, len: u64) -> MatchRecord {
        let mut metrics = [0; MAX_METRICS];
        metrics[0] = len;
        MatchRecord { winner: Some(winner), metrics, ..MatchRecord::default() }
    }

    /// Four deals of two bots, each under both seatings. Bot `a` wins both seatings of
    /// deal 0, one of deals 1 and 3, none of deal 2: deal scores 1, 1/2, 0, 1/2.
    fn four_deals() -> MatchupStats {
        let mut s = MatchupStats::new(2, 2, 1, false);
        let a_wins = [[true, true], [true, false], [false, false], [false, true]];
        for (d, wins) in a_wins.iter().enumerate() {
            let mut tally = DealTally::default();
            for (k, &a_won) in wins.iter().enumerate() {
                let seat_bots = if k == 0 { [0, 1] } else { [1, 0] };
                let a_seat = if k == 0 { 0 } else { 1 };
                s.record(&seat_bots, &rec(if a_won { a_seat } else { 1 - a_seat }, 1000 + 500 * d as u64), &mut tally);
            }
            s.end_deal(&tally);
        }
        s
    }

    fn col(r: &SummaryRow, name: &str) -> String {
        r.values[r.header.iter().position(|h| h == name).unwrap()].clone()
    }

    #[test]
    fn rows_per_bot_and_seat_and_pooled_seat_rows() {
        let s = four_deals();
        let defs = [MetricDef { name: "seconds", scale: 1000, doc: "" }];
        let bots = ["a".to_string(), "b".to_string()];
        let rows = summary_rows(&MatchupLabels { game: "g", bots: &bots, flags: "", seed: 3, seating: "all" }, &s, &defs);
        assert_eq!(rows.len(), 8, "2 bots x (all + 2 seats) + 2 pooled seat rows; no neighbour rows for 2 seats");
        let got: Vec<[String; 4]> = rows.iter().map(|r| [col(r, "bot"), col(r, "seat"), col(r, "games"), col(r, "wins")]).collect();
        let want = [["a", "all", "8", "4"], ["a", "0", "4", "2"], ["a", "1", "4", "2"], ["b", "all", "8", "4"], ["b", "0", "4", "2"], ["b", "1", "4", "2"], ["any", "0", "8", "4"], ["any", "1", "8", "4"]];
        for (g, w) in got.iter().zip(want) {
            assert_eq!(g.each_ref().map(|x| x.as_str()), w);
        }
        assert_eq!((col(&rows[0], "deals"), col(&rows[0], "deals_all_won"), col(&rows[0], "deals_split"), col(&rows[0], "deals_none_won")), ("4".into(), "1".into(), "2".into(), "1".into()));
        // Lengths 1.0, 1.5, 2.0, 2.5 s, each twice.
        assert_eq!(col(&rows[0], "seconds_mean"), "1.750");
        assert_eq!(col(&rows[0], "seconds_max"), "2.500");
    }

    #[test]
    fn per_seat_interval_counts_the_matches_in_that_seat() {
        let s = four_deals();
        let bots = ["a".to_string(), "b".to_string()];
        let rows = summary_rows(&MatchupLabels { game: "g", bots: &bots, flags: "", seed: 3, seating: "all" }, &s, &[]);
        // Bot a in seat 0: 2 wins of 4 matches (not of all 8).
        assert_eq!(col(&rows[1], "win_ci_low"), format!("{:.6}", wilson_interval(2, 4, Z_95).0));
        assert_ne!(col(&rows[1], "win_ci_low"), format!("{:.6}", wilson_interval(2, 8, Z_95).0));
        // 2/4: centre 0.5, half-width z sqrt(1/16 + z^2/64) / (1 + z^2/4) = 0.3504 (hand computed).
        assert!((col(&rows[1], "win_ci_high").parse::<f64>().unwrap() - 0.8504).abs() < 1e-3);
    }

    #[test]
    fn paired_score_elo_and_los_by_hand() {
        let s = four_deals();
        let bots = ["a".to_string(), "b".to_string()];
        let rows = summary_rows(&MatchupLabels { game: "g", bots: &bots, flags: "", seed: 3, seating: "all" }, &s, &[]);
        // Deal scores 1, .5, 0, .5: mean .5, population variance (.25 + 0 + .25 + 0) / 4 = .125,
        // SE sqrt(.125 / 4) = 0.176777; binomial SE sqrt(.25 / 8) = 0.176777: design effect 1.
        assert_eq!(col(&rows[0], "score"), "0.500000");
        assert_eq!(col(&rows[0], "score_se"), "0.176777");
        assert_eq!(col(&rows[0], "score_ci_low"), format!("{:.6}", 0.5 - Z_95 * 0.125f64.sqrt() / 2.0));
        assert_eq!((col(&rows[0], "deft"), col(&rows[0], "deff")), ("1.0000".into(), "1.0000".into()));
        assert_eq!((col(&rows[0], "elo"), col(&rows[0], "los")), ("0.00".into(), "0.500000".into()));
        // Elo interval: -400 log10(1/0.846476 - 1) = 296.58 (hand computed), symmetric.
        let hi: f64 = col(&rows[0], "elo_ci_high").parse().unwrap();
        assert!((hi - 296.58).abs() < 0.01, "{hi}");
        assert_eq!(col(&rows[0], "elo_ci_low"), format!("{:.2}", -hi));
        // Seat rows carry no paired figures.
        assert_eq!(col(&rows[1], "score"), "");
    }

    #[test]
    fn neighbour_rows_for_three_seats() {
        let mut s = MatchupStats::new(3, 1, 0, false);
        let mut tally = DealTally::default();
        s.record(&[0, 1, 2], &rec(1, 0), &mut tally); // bot 1 wins, sitting after bot 0
        s.end_deal(&tally);
        let mut tally = DealTally::default();
        s.record(&[0, 2, 1], &rec(2, 0), &mut tally); // bot 1 in seat 2 wins, after bot 2
        s.end_deal(&tally);
        let bots = ["x".to_string(), "y".to_string(), "z".to_string()];
        let rows = summary_rows(&MatchupLabels { game: "g", bots: &bots, flags: "", seed: 1, seating: "one" }, &s, &[]);
        let after: Vec<[String; 4]> = rows.iter().filter(|r| !col(r, "after").is_empty()).map(|r| [col(r, "bot"), col(r, "after"), col(r, "games"), col(r, "wins")]).collect();
        let find = |b: &str, a: &str| after.iter().find(|r| r[0] == b && r[1] == a).map(|r| (r[2].clone(), r[3].clone()));
        assert_eq!(find("y", "x"), Some(("1".into(), "1".into())));
        assert_eq!(find("y", "z"), Some(("1".into(), "1".into())));
        assert_eq!(find("x", "z"), Some(("1".into(), "0".into())), "x sits after z in the first match (seat 0 after seat 2)");
        assert_eq!(find("x", "y"), Some(("1".into(), "0".into())));
        assert!(rows.iter().all(|r| col(r, "elo").is_empty()), "no Elo with three seats");
    }

    #[test]
    fn games_with_points_get_point_and_rank_columns() {
        // Two deals, both seatings: a scores 3 and b 1 in deal 0 (a first), a 0 and b 2
        // in deal 1 (b first).
        let mut s = MatchupStats::new(2, 2, 1, true);
        for (d, pts) in [[3, 1], [0, 2]].iter().enumerate() {
            let mut tally = DealTally::default();
            for seat_bots in [[0, 1], [1, 0]] {
                let mut r = rec(0, 1000 + d as u64);
                for seat in 0..2 {
                    r.points[seat] = pts[seat_bots[seat]];
                    r.rank[seat] = (pts[seat_bots[seat]] < pts[seat_bots[1 - seat]]) as u8;
                }
                r.winner = Some((r.rank[0] == 1) as u8);
                s.record(&seat_bots, &r, &mut tally);
            }
            s.end_deal(&tally);
        }
        let bots = ["a".to_string(), "b".to_string()];
        let defs = [MetricDef { name: "seconds", scale: 1000, doc: "" }];
        let rows = summary_rows(&MatchupLabels { game: "g", bots: &bots, flags: "", seed: 3, seating: "all" }, &s, &defs);
        let header = &rows[0].header;
        let at = |name: &str| header.iter().position(|h| h == name).unwrap();
        assert_eq!(header[at("cycled") + 1..at("seconds_mean")], ["points", "points_se", "points_ci_low", "points_ci_high", "rank_0", "rank_1"]);
        // a: deal means 3 and 0: mean 1.5, population variance 2.25, SE sqrt(2.25 / 2).
        let se = 1.125f64.sqrt();
        assert_eq!([col(&rows[0], "points"), col(&rows[0], "points_se"), col(&rows[0], "points_ci_low")], ["1.500000".to_string(), format!("{se:.6}"), format!("{:.6}", 1.5 - Z_95 * se)]);
        assert_eq!([col(&rows[0], "rank_0"), col(&rows[0], "rank_1")], ["0.500000", "0.500000"]);
        // Seat rows: a in seat 0 scored 3 and 0; no SE. Seat row `any` 0: 3, 1, 0, 2.
        assert_eq!([col(&rows[1], "points"), col(&rows[1], "points_se")], ["1.500000", ""]);
        let any0 = rows.iter().find(|r| col(r, "bot") == ANY_BOT && col(r, "seat") == "0").unwrap();
        assert_eq!([col(any0, "points"), col(any0, "rank_0")], ["1.500000", "0.500000"]);
        let mut printed = Vec::new();
        print_summary(&mut printed, &rows, &s).unwrap();
        let printed = String::from_utf8(printed).unwrap();
        assert!(printed.contains(&format!("a: points per match 1.500000 [{:.6}, {:.6}]; rank shares (0 = first) 0: 0.500000, 1: 0.500000", 1.5 - Z_95 * se, 1.5 + Z_95 * se)), "{printed}");
        // A game without points has none of these columns.
        assert!(!four_deals_rows()[0].header.iter().any(|h| h.starts_with("points") || h.starts_with("rank_")));
    }

    #[test]
    fn seat_rows_count_the_deal_as_the_unit() {
        // Seat 0's share of the deal's seatings won: deals 0..4 give 1/2, 1, 1/2, 0 (deal 1:
        // whoever sat in seat 0 won both seatings). Mean 1/2, population variance
        // (0 + 1/4 + 0 + 1/4) / 4 = 1/8, SE sqrt(1/8 / 4) = 0.176777 (hand computed).
        let rows = four_deals_rows();
        let seat0 = rows.iter().find(|r| col(r, "bot") == "any" && col(r, "seat") == "0").unwrap();
        assert_eq!((col(seat0, "score"), col(seat0, "score_se")), ("0.500000".into(), "0.176777".into()));
        assert_eq!(col(seat0, "score_ci_high"), format!("{:.6}", 0.5 + Z_95 * 0.125f64.sqrt() / 2.0));
        assert_eq!(col(seat0, "elo"), "", "no Elo for a seat");
    }

    fn four_deals_rows() -> Vec<SummaryRow> {
        let bots = ["a".to_string(), "b".to_string()];
        summary_rows(&MatchupLabels { game: "g", bots: &bots, flags: "", seed: 3, seating: "all" }, &four_deals(), &[])
    }

    #[test]
    fn games_with_rates_get_a_rate_with_its_interval_per_bot() {
        use crate::runner::{RateDef, RateSet, MAX_SEATS};
        static SET: RateSet = RateSet { per: "deal", rates: &[RateDef { name: "calls_per_deal", doc: "" }] };
        let mut s = MatchupStats::with_rates(2, 2, 0, false, Some(SET));
        // Two deals, both seatings, 2 deals per match: bot a calls 2 and 0 times in deal
        // 0's seatings, 1 and 1 in deal 1's; b never.
        for calls in [[2, 0], [1, 1]] {
            let mut tally = DealTally::default();
            for (k, seat_bots) in [[0, 1], [1, 0]].into_iter().enumerate() {
                let mut r = rec(0, 0);
                r.exposure = [2; MAX_SEATS];
                r.counts[k][0] = calls[k];
                s.record(&seat_bots, &r, &mut tally);
            }
            s.end_deal(&tally);
        }
        let bots = ["a".to_string(), "b".to_string()];
        let rows = summary_rows(&MatchupLabels { game: "g", bots: &bots, flags: "", seed: 3, seating: "all" }, &s, &[]);
        let header = &rows[0].header;
        let at = header.iter().position(|h| h == "calls_per_deal").unwrap();
        assert_eq!(header[at..at + 5], ["calls_per_deal", "calls_per_deal_se", "calls_per_deal_ci_low", "calls_per_deal_ci_high", SUFFICIENT_COLUMNS[0]]);
        // a: 4 calls over 8 deals = 0.5; per deal (2, 4) and (2, 4): no residual, SE 0.
        assert_eq!([col(&rows[0], "calls_per_deal"), col(&rows[0], "calls_per_deal_se")], ["0.500000", "0.000000"]);
        // Its sums: exposure 8 (4 per deal: 16 + 16), counts 4 (2 per deal: 4 + 4), cross 8 + 8.
        let sums: Vec<String> = ["exposure", "exposure_deal_sum_sq", "calls_per_deal_count", "calls_per_deal_deal_sum_sq", "calls_per_deal_deal_cross"].iter().map(|c| col(&rows[0], c)).collect();
        assert_eq!(sums, ["8", "32", "4", "8", "16"]);
        // a in seat 0 (first seatings): 2 + 1 calls over 4 deals; no interval on seat rows.
        assert_eq!([col(&rows[1], "calls_per_deal"), col(&rows[1], "calls_per_deal_se")], ["0.750000", ""]);
        let any1 = rows.iter().find(|r| col(r, "bot") == ANY_BOT && col(r, "seat") == "1").unwrap();
        assert_eq!(col(any1, "calls_per_deal"), "0.125000", "seat 1: a's 0 + 1 calls and b's none over 8 deals");
        let mut printed = Vec::new();
        print_summary(&mut printed, &rows, &s).unwrap();
        assert!(String::from_utf8(printed).unwrap().contains("a: per deal: calls_per_deal 0.500000 [0.500000, 0.500000]"));
    }

    /// Two bots, both seatings of every deal (seating 0: `a` in seat 0); `outcomes[d][k]`
    /// is `a`'s result in seating `k` of deal `d`: 'W' won, 'L' lost, 'D' no winner.
    fn two_bot_deals(outcomes: &[[char; 2]]) -> MatchupStats {
        let mut s = MatchupStats::new(2, 2, 1, false);
        for o in outcomes {
            let mut tally = DealTally::default();
            for (k, &r) in o.iter().enumerate() {
                let (seat_bots, a_seat) = if k == 0 { ([0, 1], 0) } else { ([1, 0], 1) };
                let winner = match r { 'W' => Some(a_seat), 'L' => Some(1 - a_seat), _ => None };
                s.record(&seat_bots, &MatchRecord { winner, metrics: [7; MAX_METRICS], ..MatchRecord::default() }, &mut tally);
            }
            s.end_deal(&tally);
        }
        s
    }

    fn rows_of(s: &MatchupStats) -> Vec<SummaryRow> {
        let bots = ["a".to_string(), "b".to_string()];
        summary_rows(&MatchupLabels { game: "g", bots: &bots, flags: "", seed: 3, seating: "all" }, s, &[])
    }

    #[test]
    fn deals_all_won_and_none_won_are_not_swapped() {
        // a wins both seatings of deals 0 and 1, one of deal 2, none of deal 3.
        let rows = rows_of(&two_bot_deals(&[['W', 'W'], ['W', 'W'], ['W', 'L'], ['L', 'L']]));
        let a = &rows[0];
        assert_eq!([col(a, "deals_all_won"), col(a, "deals_split"), col(a, "deals_none_won")], ["2", "1", "1"]);
        let b = rows.iter().find(|r| col(r, "bot") == "b" && col(r, "seat") == "all").unwrap();
        assert_eq!([col(b, "deals_all_won"), col(b, "deals_split"), col(b, "deals_none_won")], ["1", "1", "2"]);
    }

    #[test]
    fn any_rows_score_the_seat_not_the_bot() {
        // Seat 0 wins every match: a wins seating 0 (in seat 0), b wins seating 1.
        let rows = rows_of(&two_bot_deals(&[['W', 'L'], ['W', 'L'], ['W', 'L']]));
        assert_eq!((col(&rows[0], "score"), col(&rows[0], "score_se")), ("0.500000".into(), "0.000000".into()));
        let seat = |s: &str| rows.iter().find(|r| col(r, "bot") == ANY_BOT && col(r, "seat") == s).unwrap().clone();
        assert_eq!([col(&seat("0"), "score"), col(&seat("0"), "score_units_sum"), col(&seat("0"), "pairs_ww")], ["1.000000", "12", "3"]);
        assert_eq!([col(&seat("1"), "score"), col(&seat("1"), "pairs_ll")], ["0.000000", "3"]);
    }

    #[test]
    fn deft_deff_and_pair_counts_with_draws_by_hand() {
        // a per deal: (W, D) 3 units, (D, D) 2, (L, W) 2, (L, L) 0.
        let rows = rows_of(&two_bot_deals(&[['W', 'D'], ['D', 'D'], ['L', 'W'], ['L', 'L']]));
        let a = &rows[0];
        let pairs: Vec<String> = ["ll", "ld", "wl", "dd", "wd", "ww"].iter().map(|p| col(a, &format!("pairs_{p}"))).collect();
        assert_eq!(pairs, ["1", "0", "1", "1", "1", "0"]);
        assert_eq!([col(a, "score_units"), col(a, "score_units_sum"), col(a, "score_units_sum_sq"), col(a, "draws")], ["4", "7", "17", "3"]);
        // Deal scores .75, .5, .5, 0: mean 7/16, E x^2 = 17/64, variance 0.07421875,
        // SE sqrt(0.07421875 / 4) = 0.136216. Per match (8): 2 wins, 3 without winner
        // (1/2 each): E x^2 = (2 + 3/4) / 8 = 0.34375, variance 0.15234375, game-level
        // SE sqrt(0.15234375 / 8) = 0.137996; deft 0.98710, deff 0.97436 (hand computed).
        // (The binomial SE sqrt(7/16 * 9/16 / 8) = 0.175390 would give 0.7766.)
        assert_eq!([col(a, "score"), col(a, "score_se")], ["0.437500", "0.136216"]);
        assert_eq!([col(a, "deft"), col(a, "deff")], ["0.9871", "0.9744"]);
        // Seat 0 per deal: W then D (WD); D, D (DD); L then L, as a lost in seat 0 and
        // won in seat 1 (LL); L then W (WL).
        let seat0 = rows.iter().find(|r| col(r, "bot") == ANY_BOT && col(r, "seat") == "0").unwrap();
        let pairs: Vec<String> = ["ll", "ld", "wl", "dd", "wd", "ww"].iter().map(|p| col(seat0, &format!("pairs_{p}"))).collect();
        assert_eq!(pairs, ["1", "0", "1", "1", "1", "0"]);
    }

    #[test]
    fn tables_of_other_player_counts_share_one_header_by_name() {
        let mut rows = Vec::new();
        for seats in [2usize, 3] {
            let mut s = MatchupStats::new(seats, 1, 1, true);
            let mut tally = DealTally::default();
            let mut r = rec(0, 2000);
            r.points[0] = 5;
            s.record(&(0..seats).collect::<Vec<_>>(), &r, &mut tally);
            s.end_deal(&tally);
            let bots: Vec<String> = (0..seats).map(|b| format!("b{b}")).collect();
            let defs = [MetricDef { name: "seconds", scale: 1000, doc: "" }];
            rows.extend(summary_rows(&MatchupLabels { game: "g", bots: &bots, flags: "", seed: 1, seating: "one" }, &s, &defs));
        }
        let (header, values) = one_table(&rows);
        let at = |name: &str| header.iter().position(|h| h == name).unwrap();
        assert!(at("rank_1") < at("rank_2") && at("rank_2") < at("seconds_mean"), "{header:?}");
        for (r, v) in rows.iter().zip(&values) {
            assert_eq!(v.len(), header.len());
            for name in ["seconds_mean", "points", "rank_0", "score_units", "points_deal_sum"] {
                assert_eq!(v[at(name)], col(r, name), "{name}");
            }
        }
        let two_seat = &values[0];
        assert_eq!((two_seat[at("seconds_mean")].as_str(), two_seat[at("rank_2")].as_str()), ("2.000", ""));
        let text = String::from_utf8(csv_bytes(&rows).unwrap()).unwrap();
        let first_data = text.lines().nth(1).unwrap();
        assert_eq!(first_data.split(',').nth(at("seconds_mean")), Some("2.000"), "{first_data}");
    }
}
