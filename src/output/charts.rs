//! Charts of an experiment's results folder, drawn as SVG with plotters from the CSV
//! files the run wrote (nothing is simulated again).
//!
//! Which chart answers which question:
//!
//! | file | question (its title) | what it shows |
//! |---|---|---|
//! | `sweep.svg` | How does each bot's score change with the swept parameter? Does the first seat have an edge at each value? | Top: each bot's `score` (win = 1) against the first swept parameter, one series per bot (named `bot I: LABEL`, I its position in the matchup as in `botI.PARAM`) with its 95% interval. With a second swept parameter: small multiples, one score panel per value of the others. The fair share 1/n is a line across only if every point has as many players; otherwise a short mark at each point. Bottom: `seat0_edge` (seat 0's score less 1/n) with its interval and a zero line, one series per value of the other parameters. |
//! | `differences.svg` | Which points differ from the first one? | Each point after the first: its paired difference from the first point (same deals), in the CSV's unit (win = 1), a dot with its 95% interval as a horizontal bar, for `seat0_edge` and each bot's score; a bar that misses the zero line is a difference the run can tell apart from luck. |
//! | `lengths.svg` | How long are the matches in each cell? | The distribution of the game's first length metric (finished matches only), each bin's count as a share of that cell's matches, in about 60 bins of a round width (1, 2 or 5 times a power of ten, from a multiple of it). Up to four cells overlaid as outlined histograms with a legend (in a sweep, with each point's parameter values); more cells get one panel each on the same axes. |
//! | `trajectory.svg` (`cardsim tune`) | How did each parameter move while SPSA tuned it? | One panel per tuned parameter in its own unit: its value after each iteration, the start as a grey line. |
//! | `ratings.svg` | Which bot is strongest in a round robin or gauntlet, and by how much? | Each bot's Bradley–Terry Elo (mean 0) with its 95% interval, best at the top; bots with an infinite rating (never lost or never won) are named in the title and left out. |
//!
//! The x axis of a sweep is discrete for whole-number, `true`/`false` and named values
//! (a tick per value, none between, `false` before `true`, numbers in numeric order,
//! evenly spaced): points with interval bars, never a line from one value to the
//! next. Only other numbers get a numeric axis with lines and shaded bands. Names too
//! long to sit side by side (a swept `set`) are turned a quarter, reading downwards,
//! cut at 40 characters; an empty value (`set` with no flag) is shown as `(none)`.
//!
//! The output is byte-identical for the same input: no clock, no hash-map order, every
//! series in the order of the CSV rows or sorted, and no system font is read (plotters
//! is built without its font features, so the SVG names the `sans-serif` family and
//! the viewer picks the face).

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Font family of every text (the viewer's sans-serif face).
const FONT: &str = "sans-serif";
/// Width of every chart in pixels.
const WIDTH: u32 = 960;
/// Width of the legend column to the right of the plots.
const LEGEND: u32 = 300;
/// Most characters of a row or category label.
const ROW_LABEL: usize = 64;
/// Most characters of a category label on an x axis.
const X_LABEL: usize = 40;
/// Most bins of a length histogram (about: the width is rounded up to 1, 2 or 5 times
/// a power of ten).
const MAX_BINS: f64 = 60.0;
/// Most cells whose length histograms are overlaid in one plot; more get one panel each.
const OVERLAID: usize = 4;
/// Height of one cell's panel of lengths.
const LENGTH_PANEL: u32 = 170;

/// Series colours (Tableau 10), used in order.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];
/// Colour of seat 0's edge and of reference lines.
const DARK: RGBColor = RGBColor(60, 60, 60);
/// Colour of the zero and fair-share lines.
const REFERENCE: RGBColor = RGBColor(150, 150, 150);

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Draws the charts of a results folder from its CSV files.
///
/// `files` are the folder's files by name and bytes, as `Study::files` returns them
/// (other names, such as `manifest.toml`, are ignored). `summary.csv` and
/// `lengths.csv` must be present; `sweep.csv` and `ratings.csv` are charted when
/// present. Returns the SVG files by name and bytes, in this order: `sweep.svg` and
/// `differences.svg` (sweeps; the latter only with more than one point),
/// `lengths.svg`, `ratings.svg` (round robins, gauntlets, head-to-heads). The same
/// input always gives the same bytes.
///
/// Errors are one line: `not a cardsim results folder (no lengths.csv)` for a missing
/// file, `NAME.csv: line N: what is wrong` for a malformed one.
pub fn draw(files: &[(String, Vec<u8>)]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let get = |name: &str| files.iter().find(|(n, _)| n == name).map(|(_, b)| b.as_slice());
    for required in ["summary.csv", "lengths.csv"] {
        if get(required).is_none() {
            return Err(format!("not a cardsim results folder (no {required})"));
        }
    }
    let mut out = Vec::new();
    // In a sweep, cell N is point N: the lengths chart names its parameter values.
    let mut points: BTreeMap<u64, String> = BTreeMap::new();
    let mut params = String::new();
    if let Some(bytes) = get("sweep.csv") {
        let sweep = Sweep::parse(&Table::parse("sweep.csv", bytes)?)?;
        out.push(("sweep.svg".to_string(), sweep_svg(&sweep)?));
        if sweep.points.len() > 1 {
            out.push(("differences.svg".to_string(), differences_svg(&sweep)?));
        }
        points = sweep.points.iter().map(|p| (p.number, p.values.join(", "))).collect();
        params = sweep.params.join(", ");
    }
    let lengths = Lengths::parse(&Table::parse("lengths.csv", get("lengths.csv").expect("checked"))?)?;
    out.push(("lengths.svg".to_string(), lengths_svg(&lengths, &points, &params)?));
    if let Some(bytes) = get("ratings.csv") {
        let ratings = Ratings::parse(&Table::parse("ratings.csv", bytes)?)?;
        out.push(("ratings.svg".to_string(), ratings_svg(&ratings)?));
    }
    Ok(out)
}

/// Reads the CSV files of the results folder `dir`, draws its charts ([`draw`]) and
/// writes each SVG into `dir` through a temporary file renamed into place. Returns the
/// paths written, in [`draw`]'s order.
///
/// Errors are one line naming the folder or the file: `DIR: not a cardsim results
/// folder (no lengths.csv)`, `DIR/sweep.csv: line N: ...`, `DIR/lengths.svg: cannot
/// write: ...`.
pub fn plot_folder(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let shown = dir.display();
    if !dir.is_dir() {
        return Err(format!("{shown}: not a folder"));
    }
    let mut files = Vec::new();
    for name in ["summary.csv", "lengths.csv", "sweep.csv", "ratings.csv"] {
        let path = dir.join(name);
        if std::fs::symlink_metadata(&path).is_err() {
            if name == "summary.csv" || name == "lengths.csv" {
                return Err(format!("{shown}: not a cardsim results folder (no {name})"));
            }
            continue;
        }
        files.push((name.to_string(), crate::tomlfile::read_bytes(&path, &path.display().to_string(), true)?));
    }
    let charts = draw(&files).map_err(|e| {
        if files.iter().any(|(n, _)| e.starts_with(&format!("{n}: "))) {
            format!("{}", dir.join(e).display())
        } else {
            format!("{shown}: {e}")
        }
    })?;
    charts.iter().map(|(name, bytes)| write_atomically(dir, name, bytes)).collect()
}

/// Writes `dir/name` as every output file is written ([`super::sink`]): through a
/// temporary file in its folder renamed into place (a symlink's target, a pipe or
/// device directly); a read-only file in the way is an error.
fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, String> {
    let path = dir.join(name);
    super::OutputPath::check("chart", &path)?.write(bytes)?;
    Ok(path)
}

// ---------------------------------------------------------------------------------
// Reading the CSV files

/// A CSV file: its header and its records with their line numbers.
struct Table {
    name: String,
    header: Vec<String>,
    rows: Vec<(u64, Vec<String>)>,
}

impl Table {
    fn parse(name: &str, bytes: &[u8]) -> Result<Table, String> {
        let fail = |e: csv::Error| {
            let line = e.position().map_or(1, |p| p.line());
            let what = match e.kind() {
                csv::ErrorKind::UnequalLengths { expected_len, len, .. } => format!("{len} fields where the header has {expected_len}"),
                csv::ErrorKind::Utf8 { .. } => "not valid UTF-8".to_string(),
                _ => e.to_string(),
            };
            format!("{name}: line {line}: {what}")
        };
        let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(bytes);
        let header: Vec<String> = reader.headers().map_err(fail)?.iter().map(str::to_string).collect();
        if header.iter().all(|h| h.is_empty()) {
            return Err(format!("{name}: line 1: empty file (no header)"));
        }
        let mut rows = Vec::new();
        for record in reader.records() {
            let record = record.map_err(fail)?;
            let line = record.position().map_or(0, |p| p.line());
            rows.push((line, record.iter().map(str::to_string).collect()));
        }
        Ok(Table { name: name.to_string(), header, rows })
    }

    /// The index of column `col`.
    fn col(&self, col: &str) -> Result<usize, String> {
        self.header.iter().position(|h| h == col).ok_or_else(|| format!("{}: line 1: no column `{col}`", self.name))
    }

    fn bad(&self, line: u64, col: usize, what: &str) -> String {
        format!("{}: line {line}: {}: {what}", self.name, self.header[col])
    }

    /// The number in column `col` of a record; `finite` rejects infinities.
    fn num(&self, (line, row): &(u64, Vec<String>), col: usize, finite: bool) -> Result<f64, String> {
        let text = row[col].trim();
        if text.is_empty() {
            return Err(self.bad(*line, col, "empty, expected a number"));
        }
        match text.parse::<f64>() {
            Ok(v) if v.is_nan() => Err(self.bad(*line, col, "NaN is not a number")),
            Ok(v) if finite && v.is_infinite() => Err(self.bad(*line, col, &format!("`{text}` is not a finite number"))),
            Ok(v) => Ok(v),
            Err(_) => Err(self.bad(*line, col, &format!("`{}` is not a number", clip_label(text, 40)))),
        }
    }

    /// The number in column `col`, or `None` when the field is empty.
    fn opt_num(&self, record: &(u64, Vec<String>), col: usize) -> Result<Option<f64>, String> {
        if record.1[col].trim().is_empty() { Ok(None) } else { self.num(record, col, true).map(Some) }
    }

    /// A whole number in column `col`.
    fn count(&self, record: &(u64, Vec<String>), col: usize) -> Result<u64, String> {
        let text = record.1[col].trim();
        text.parse::<u64>().map_err(|_| self.bad(record.0, col, &format!("`{}` is not a whole number", clip_label(text, 40))))
    }
}

/// A bot's label without the ` PARAM=VALUE` suffixes a sweep adds, so one bot keeps
/// one name at every point.
fn base_label(label: &str) -> &str {
    let mut base = label.trim_end();
    while let Some((head, last)) = base.rsplit_once(' ') {
        if last.contains('=') && !head.trim().is_empty() {
            base = head.trim_end();
        } else {
            break;
        }
    }
    base
}

/// A figure with its 95% interval and, when comparable, its paired difference from
/// the first point with the difference's interval.
#[derive(Clone, Debug)]
struct Figure {
    value: f64,
    low: f64,
    high: f64,
    diff: Option<(f64, f64, f64)>,
}

/// One point of a sweep.
#[derive(Debug)]
struct Point {
    /// The `point` number.
    number: u64,
    /// The swept parameters' values, in header order.
    values: Vec<String>,
    /// `seat0_edge`.
    edge: Option<Figure>,
    /// Each bot's score in table order: label without the sweep suffix, figure.
    scores: Vec<(String, Figure)>,
}

/// `sweep.csv`: the swept parameters and the points in `point` order.
#[derive(Debug)]
struct Sweep {
    params: Vec<String>,
    points: Vec<Point>,
}

impl Sweep {
    fn parse(t: &Table) -> Result<Sweep, String> {
        if t.header.first().map(String::as_str) != Some("point") {
            return Err(format!("{}: line 1: the first column is not `point`", t.name));
        }
        let figure = t.col("figure")?;
        if figure < 2 {
            return Err(format!("{}: line 1: no swept parameter between `point` and `figure`", t.name));
        }
        let params = t.header[1..figure].to_vec();
        let [bot, value, low, high, diff, diff_low, diff_high] =
            ["bot", "value", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high"].map(|c| t.col(c));
        let (bot, value, low, high, diff, diff_low, diff_high) = (bot?, value?, low?, high?, diff?, diff_low?, diff_high?);
        let mut points: BTreeMap<u64, Point> = BTreeMap::new();
        for record in &t.rows {
            let (line, row) = record;
            let number = t.count(record, 0)?;
            let values = row[1..figure].to_vec();
            let point = points.entry(number).or_insert_with(|| Point { number, values: values.clone(), edge: None, scores: Vec::new() });
            if point.values != values {
                return Err(format!("{}: line {line}: point {number} has other parameter values than on an earlier line", t.name));
            }
            let what = row[figure].as_str();
            if what != "seat0_edge" && what != "score" {
                continue;
            }
            let d = match (t.opt_num(record, diff)?, t.opt_num(record, diff_low)?, t.opt_num(record, diff_high)?) {
                (Some(d), Some(l), Some(h)) => Some((d, l, h)),
                _ => None,
            };
            let f = Figure { value: t.num(record, value, true)?, low: t.num(record, low, true)?, high: t.num(record, high, true)?, diff: d };
            if what == "seat0_edge" {
                if point.edge.is_some() {
                    return Err(format!("{}: line {line}: a second seat0_edge row for point {number}", t.name));
                }
                point.edge = Some(f);
            } else {
                point.scores.push((base_label(&row[bot]).to_string(), f));
            }
        }
        if points.is_empty() {
            return Err(format!("{}: line 2: no points", t.name));
        }
        Ok(Sweep { params, points: points.into_values().collect() })
    }

    /// `PARAM=VALUE, ...` of a point (the parameters from index `from` on).
    fn describe(&self, p: &Point, from: usize) -> String {
        self.params.iter().zip(&p.values).skip(from).map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")
    }
}

/// `lengths.csv`: per cell, its metric's values with their counts.
struct Lengths {
    metrics: Vec<String>,
    cells: BTreeMap<u64, Vec<(f64, u64)>>,
}

impl Lengths {
    fn parse(t: &Table) -> Result<Lengths, String> {
        let [cell, metric, value, matches] = ["cell", "metric", "value", "matches"].map(|c| t.col(c));
        let (cell, metric, value, matches) = (cell?, metric?, value?, matches?);
        let mut metrics: Vec<String> = Vec::new();
        let mut cells: BTreeMap<u64, Vec<(f64, u64)>> = BTreeMap::new();
        for record in &t.rows {
            let c = t.count(record, cell)?;
            let v = t.num(record, value, true)?;
            let n = t.count(record, matches)?;
            let m = &record.1[metric];
            if !metrics.contains(m) {
                metrics.push(m.clone());
            }
            cells.entry(c).or_default().push((v, n));
        }
        metrics.sort();
        Ok(Lengths { metrics, cells })
    }
}

/// One bot of `ratings.csv`.
struct Rating {
    bot: String,
    elo: f64,
    low: f64,
    high: f64,
}

/// `ratings.csv`.
struct Ratings {
    bots: Vec<Rating>,
}

impl Ratings {
    fn parse(t: &Table) -> Result<Ratings, String> {
        let [bot, elo, low, high] = ["bot", "elo", "elo_ci_low", "elo_ci_high"].map(|c| t.col(c));
        let (bot, elo, low, high) = (bot?, elo?, low?, high?);
        let mut bots = Vec::new();
        for record in &t.rows {
            bots.push(Rating { bot: record.1[bot].clone(), elo: t.num(record, elo, false)?, low: t.num(record, low, false)?, high: t.num(record, high, false)? });
        }
        if bots.is_empty() {
            return Err(format!("{}: line 2: no bots", t.name));
        }
        Ok(Ratings { bots })
    }
}

// ---------------------------------------------------------------------------------
// Axes and drawing helpers

/// A number as a label: whole numbers without decimals, others with at most six,
/// never `-0`.
fn num_label(v: f64) -> String {
    let text = if v == v.round() && v.abs() < 1e15 {
        format!("{:.0}", v)
    } else {
        let s = format!("{:.6}", v);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    if text == "-0" { "0".into() } else { text }
}

/// Cuts a label to `n` characters.
fn clip_label(s: &str, n: usize) -> String {
    if s.chars().count() <= n { s.to_string() } else { format!("{}…", s.chars().take(n - 1).collect::<String>()) }
}

/// Round tick positions from `lo` to `hi`, at most about `max` of them, at steps of
/// 1, 2 or 5 times a power of ten.
fn nice_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    let span = hi - lo;
    if span.is_nan() || span <= 0.0 {
        return vec![lo];
    }
    let step = round_width(span / max.max(1) as f64);
    let (first, last) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
    (first..=last).map(|k| k as f64 * step).collect()
}

/// The smallest width of 1, 2 or 5 times a power of ten that is at least `raw`.
fn round_width(raw: f64) -> f64 {
    if !(raw > 0.0 && raw.is_finite()) {
        return 1.0;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|w| *w >= raw).unwrap_or(10.0 * magnitude)
}

/// One axis: its range, tick positions, tick labels (numbers, or names for a
/// categorical axis) and description.
#[derive(Clone)]
struct Axis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
    names: Option<Vec<String>>,
    desc: String,
}

impl Axis {
    /// A numeric axis over the values in `data` with 5% padding, containing `also`.
    fn numeric(data: impl IntoIterator<Item = f64>, also: &[f64], desc: String, max_ticks: usize) -> Axis {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in data.into_iter().chain(also.iter().copied()).filter(|v| v.is_finite()) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if !lo.is_finite() {
            (lo, hi) = (0.0, 1.0);
        }
        let pad = if hi > lo { (hi - lo) * 0.05 } else if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        let (lo, hi) = (lo - pad, hi + pad);
        Axis { lo, hi, ticks: nice_ticks(lo, hi, max_ticks), names: None, desc }
    }

    /// A categorical axis with `names` at 0, 1, 2, ...
    fn categories(names: Vec<String>, desc: String) -> Axis {
        let n = names.len().max(1) as f64;
        Axis { lo: -0.5, hi: n - 0.5, ticks: (0..names.len()).map(|i| i as f64).collect(), names: Some(names), desc }
    }

    fn label(&self, v: f64) -> String {
        match &self.names {
            // An empty value (a swept `set` with no flag: the rules as they are) is named.
            Some(names) => names.get(v.round() as usize).filter(|_| v >= -0.5).map(|s| if s.is_empty() { "(none)".into() } else { clip_label(s, ROW_LABEL) }).unwrap_or_default(),
            None => num_label(v),
        }
    }

    /// Extra pixels below the plot when this axis, as the x axis, names categories too
    /// long to sit side by side: its labels are then turned a quarter (reading
    /// downwards) so none covers another.
    fn turned_labels(&self) -> Option<u32> {
        let names = self.names.as_ref()?;
        let widest = names.iter().map(|n| clip_label(n, X_LABEL).chars().count()).max().unwrap_or(0) as u32;
        (names.len() as u32 * (7 * widest + 10) > WIDTH - LEGEND - 100).then_some(6 * widest + 8)
    }

    fn coord(&self) -> Ticked {
        Ticked { inner: (self.lo..self.hi).into(), ticks: self.ticks.clone() }
    }
}

/// A linear `f64` axis with the tick positions given (grid lines at the ticks only).
struct Ticked {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() { Vec::new() } else { self.ticks.clone() }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<Ticked, Ticked>>;

fn drawing<E: std::fmt::Display>(e: E) -> String {
    format!("drawing the chart: {e}")
}

/// A chart with its caption, axes, grid and tick labels drawn; `y_area` is the width
/// of the y labels in pixels.
fn frame<'a, 'b>(area: &'a Area<'b>, caption: &str, x: &Axis, y: &Axis, y_area: u32) -> Result<Chart<'a, 'b>, String> {
    let turned = x.turned_labels();
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 16))
        .margin(12)
        .x_label_area_size(48 + turned.unwrap_or(0))
        .y_label_area_size(y_area)
        .build_cartesian_2d(x.coord(), y.coord())
        .map_err(drawing)?;
    // Turned labels are drawn below, each starting at its tick.
    let fx = |v: &f64| if turned.is_some() { String::new() } else { x.label(*v) };
    let fy = |v: &f64| y.label(*v);
    chart
        .configure_mesh()
        .x_desc(x.desc.as_str())
        .y_desc(y.desc.as_str())
        .x_label_formatter(&fx)
        .y_label_formatter(&fy)
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .bold_line_style(RGBColor(228, 228, 228))
        .draw()
        .map_err(drawing)?;
    if turned.is_some() {
        let (bx, by) = area.get_base_pixel();
        let style = (FONT, 13).into_font().transform(FontTransform::Rotate90).color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
        for t in &x.ticks {
            let (px, py) = chart.backend_coord(&(*t, y.lo));
            area.draw(&Text::new(clip_label(&x.label(*t), X_LABEL), (px - bx, py - by + 8), style.clone())).map_err(drawing)?;
        }
    }
    Ok(chart)
}

/// Pixels for the y labels of a chart with rows named `names` (and its description).
fn row_label_area(names: &[String]) -> u32 {
    let widest = names.iter().map(|n| clip_label(n, ROW_LABEL).chars().count()).max().unwrap_or(8) as u32;
    (40 + 6 * widest).min(460)
}

/// A blank white SVG of `height` pixels, drawn by `paint`, as bytes.
fn svg(height: u32, paint: impl FnOnce(&Area) -> Result<(), String>) -> Result<Vec<u8>, String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        paint(&root)?;
        root.present().map_err(drawing)?;
    }
    Ok(text.into_bytes())
}

/// What a legend entry looks like.
enum Key {
    /// A line with a shaded band behind it.
    Band(RGBColor),
    /// A thin reference line.
    Line(RGBColor),
    /// An outlined, lightly filled box (a histogram).
    Box(RGBColor),
}

/// Draws legend entries from the top of `area` (pixel coordinates); an entry's label
/// may hold several lines.
fn legend(area: &Area, heading: &str, entries: &[(String, Key)]) -> Result<(), String> {
    let mut y = 44;
    if !heading.is_empty() {
        area.draw(&Text::new(clip_label(heading, 44), (8, y), (FONT, 13).into_font().color(&DARK))).map_err(drawing)?;
        y += 22;
    }
    for (label, key) in entries {
        let mid = y + 8;
        match key {
            Key::Band(c) => {
                area.draw(&Rectangle::new([(8, mid - 6), (36, mid + 6)], c.mix(0.2).filled())).map_err(drawing)?;
                area.draw(&PathElement::new(vec![(8, mid), (36, mid)], c.stroke_width(2))).map_err(drawing)?;
                area.draw(&Circle::new((22, mid), 3, c.filled())).map_err(drawing)?;
            }
            Key::Line(c) => area.draw(&PathElement::new(vec![(8, mid), (36, mid)], c.stroke_width(1))).map_err(drawing)?,
            Key::Box(c) => {
                area.draw(&Rectangle::new([(8, mid - 6), (36, mid + 6)], c.mix(0.12).filled())).map_err(drawing)?;
                area.draw(&Rectangle::new([(8, mid - 6), (36, mid + 6)], c.stroke_width(2))).map_err(drawing)?;
            }
        }
        for line in label.lines() {
            area.draw(&Text::new(clip_label(line, 40), (44, y), (FONT, 13).into_font().color(&BLACK))).map_err(drawing)?;
            y += 16;
        }
        y += 6;
    }
    Ok(())
}

/// A line through `(x, value)` with markers and a shaded band from `low` to `high`.
fn band_line(chart: &mut Chart, c: RGBColor, pts: &[(f64, f64, f64, f64)]) -> Result<(), String> {
    let mut band: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.3)).collect();
    band.extend(pts.iter().rev().map(|p| (p.0, p.2)));
    if pts.len() > 1 {
        chart.draw_series(std::iter::once(Polygon::new(band, c.mix(0.18).filled()))).map_err(drawing)?;
    }
    // A lone point, or a categorical axis: the interval as a bar at each point too.
    chart.draw_series(pts.iter().map(|p| PathElement::new(vec![(p.0, p.2), (p.0, p.3)], c.mix(0.6).stroke_width(2)))).map_err(drawing)?;
    chart.draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.1)), c.stroke_width(2))).map_err(drawing)?;
    chart.draw_series(pts.iter().map(|p| Circle::new((p.0, p.1), 3, c.filled()))).map_err(drawing)?;
    Ok(())
}

/// A horizontal reference line across the chart at `y`.
fn hline(chart: &mut Chart, x: &Axis, y: f64) -> Result<(), String> {
    chart.draw_series(std::iter::once(PathElement::new(vec![(x.lo, y), (x.hi, y)], REFERENCE.stroke_width(1)))).map_err(drawing)?;
    Ok(())
}

// ---------------------------------------------------------------------------------
// sweep.svg

/// Where the points of a sweep go along x: the first swept parameter's values.
struct XLayout {
    axis: Axis,
    /// Each value's position.
    at: Vec<(String, f64)>,
    /// Whole numbers, true/false or names: points with interval bars, never a line
    /// between two values; otherwise a line with a shaded band.
    discrete: bool,
}

impl XLayout {
    /// Booleans as `false`, `true`; whole numbers in numeric order, evenly spaced (a
    /// tick per value, no tick between two values); other numbers on a numeric axis;
    /// anything else as names in the order of the points.
    fn of(s: &Sweep, desc: String) -> XLayout {
        let mut values: Vec<String> = Vec::new();
        for p in &s.points {
            if !values.contains(&p.values[0]) {
                values.push(p.values[0].clone());
            }
        }
        let nums: Option<Vec<f64>> = values.iter().map(|v| v.trim().parse::<f64>().ok().filter(|x| x.is_finite())).collect();
        if values.iter().all(|v| v == "true" || v == "false") {
            values.sort_by_key(|v| v == "true");
        } else if let Some(nums) = nums.as_ref().filter(|n| n.iter().all(|x| *x == x.round())) {
            let mut order: Vec<(f64, String)> = nums.iter().copied().zip(values.iter().cloned()).collect();
            order.sort_by(|a, b| a.0.total_cmp(&b.0));
            values = order.into_iter().map(|(_, v)| v).collect();
        } else if let Some(nums) = nums {
            let at = values.iter().cloned().zip(nums.iter().copied()).collect();
            return XLayout { axis: Axis::numeric(nums, &[], desc, 10), at, discrete: false };
        }
        let at = values.iter().cloned().enumerate().map(|(i, v)| (v, i as f64)).collect();
        XLayout { axis: Axis::categories(values, desc), at, discrete: true }
    }

    fn x(&self, p: &Point) -> f64 {
        self.at.iter().find(|(v, _)| *v == p.values[0]).expect("every value placed").1
    }
}

/// A series `(x, value, low, high)`: a line with a band on a continuous axis; points
/// with interval bars on a discrete one, series `i` of `n` shifted a little so their
/// bars do not cover each other.
fn series(chart: &mut Chart, x: &XLayout, c: RGBColor, pts: &[(f64, f64, f64, f64)], i: usize, n: usize) -> Result<(), String> {
    if !x.discrete {
        return band_line(chart, c, pts);
    }
    let shift = if n > 1 { (i as f64 - (n - 1) as f64 / 2.0) * (0.5 / n as f64).min(0.12) } else { 0.0 };
    for &(at, v, lo, hi) in pts {
        let at = at + shift;
        let style = c.stroke_width(2);
        chart
            .draw_series([
                PathElement::new(vec![(at, lo), (at, hi)], style),
                PathElement::new(vec![(at - 0.04, lo), (at + 0.04, lo)], style),
                PathElement::new(vec![(at - 0.04, hi), (at + 0.04, hi)], style),
            ])
            .map_err(drawing)?;
        chart.draw_series(std::iter::once(Circle::new((at, v), 4, c.filled()))).map_err(drawing)?;
    }
    Ok(())
}

/// Height of one panel of bot scores, and of the seat 0 edge panel.
const SCORE_PANEL: u32 = 470;
const PANEL: u32 = 300;
const EDGE_PANEL: u32 = 330;

fn sweep_svg(s: &Sweep) -> Result<Vec<u8>, String> {
    let first = &s.params[0];
    let x = XLayout::of(s, format!("{first} (first swept parameter)"));
    let rest = |p: &Point| s.describe(p, 1);

    // Small multiples: one score panel per value of the other swept parameters (in
    // order of first appearance), one series per bot position in each. A bot keeps its
    // position at every point; its label may change with the point (a swept preset
    // renames `smart@casual` to `smart@expert`).
    type Series = (Vec<String>, Vec<(f64, f64, f64, f64)>);
    let mut panels: Vec<(String, Vec<Series>)> = Vec::new();
    let mut edges: Vec<(String, Series)> = Vec::new();
    // The fair share 1/n of each point (n = its players), at its x.
    let mut fair: Vec<(f64, usize)> = Vec::new();
    for p in &s.points {
        let at = x.x(p);
        let others = rest(p);
        let panel = match panels.iter().position(|(k, _)| *k == others) {
            Some(i) => i,
            None => {
                panels.push((others.clone(), Vec::new()));
                panels.len() - 1
            }
        };
        for (pos, (label, f)) in p.scores.iter().enumerate() {
            let bots = &mut panels[panel].1;
            while bots.len() <= pos {
                bots.push((Vec::new(), Vec::new()));
            }
            let (labels, pts) = &mut bots[pos];
            if !labels.contains(label) {
                labels.push(label.clone());
            }
            pts.push((at, f.value, f.low, f.high));
        }
        if !p.scores.is_empty() && !fair.contains(&(at, p.scores.len())) {
            fair.push((at, p.scores.len()));
        }
        if let Some(f) = &p.edge {
            match edges.iter_mut().find(|(k, _)| *k == others) {
                Some((_, (_, pts))) => pts.push((at, f.value, f.low, f.high)),
                None => edges.push((others.clone(), (vec![if others.is_empty() { "seat 0 edge".into() } else { others.clone() }], vec![(at, f.value, f.low, f.high)]))),
            }
        }
    }
    // A bot renamed by the sweep (`smart@casual`, `smart@expert`) shows the common
    // start of its labels (`smart@…`).
    let bot_name = |pos: usize, labels: &[String]| {
        let label = match labels {
            [one] => one.clone(),
            [first, rest @ ..] => {
                let common = rest.iter().fold(first.chars().count(), |n, l| first.chars().zip(l.chars()).take(n).take_while(|(a, b)| a == b).count());
                if common > 0 { format!("{}…", first.chars().take(common).collect::<String>()) } else { labels.join(" / ") }
            }
            [] => String::new(),
        };
        format!("bot {pos}: {label}")
    };
    let mut names: Vec<Vec<String>> = Vec::new();
    for (_, bots) in &panels {
        for (pos, (labels, _)) in bots.iter().enumerate() {
            if names.len() <= pos {
                names.push(Vec::new());
            }
            for l in labels {
                if !names[pos].contains(l) {
                    names[pos].push(l.clone());
                }
            }
        }
    }
    for pts in panels.iter_mut().flat_map(|p| p.1.iter_mut().map(|b| &mut b.1)).chain(edges.iter_mut().map(|e| &mut e.1 .1)) {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    // The fair share is a line across the chart only if every point has as many
    // players; otherwise a short mark at each point, where it holds.
    let one_fair = match fair.as_slice() {
        [] => None,
        [(_, n), rest @ ..] => rest.iter().all(|(_, m)| m == n).then_some(*n),
    };
    let gap = {
        let mut xs: Vec<f64> = fair.iter().map(|f| f.0).collect();
        xs.sort_by(f64::total_cmp);
        xs.windows(2).map(|w| w[1] - w[0]).filter(|d| *d > 0.0).fold(f64::INFINITY, f64::min)
    };
    let half = if x.discrete { 0.3 } else if gap.is_finite() { gap * 0.3 } else { (x.axis.hi - x.axis.lo) * 0.05 };
    let y_all: Vec<f64> = panels.iter().flat_map(|(_, b)| b.iter().flat_map(|(_, p)| p.iter().flat_map(|q| [q.2, q.3]))).collect();
    let fair_values: Vec<f64> = fair.iter().map(|(_, n)| 1.0 / *n as f64).collect();
    let multiple = panels.len() > 1;
    let extra = x.axis.turned_labels().unwrap_or(0);
    let panel_height = if multiple { PANEL } else { SCORE_PANEL } + extra;
    let height = panel_height * panels.len().max(1) as u32 + EDGE_PANEL + extra;

    svg(height, |root| {
        let (plots, keys) = root.split_horizontally(WIDTH - LEGEND);
        let (tops, bottom) = plots.split_vertically(panel_height * panels.len().max(1) as u32);
        let (top_keys, bottom_keys) = keys.split_vertically(panel_height * panels.len().max(1) as u32);
        let cuts: Vec<i32> = (1..panels.len()).map(|k| (k as u32 * panel_height) as i32).collect();
        let areas = tops.split_by_breakpoints(Vec::<i32>::new(), cuts);
        let y = Axis::numeric(y_all.iter().copied(), &fair_values, "score (win = 1, mean over each deal's seatings)".into(), if multiple { 6 } else { 10 });
        for ((others, bots), area) in panels.iter().zip(&areas) {
            let title = if others.is_empty() {
                format!("How does each bot's score change with {first}? (win = 1, 95% interval)")
            } else {
                format!("Each bot's score by {first} at {others} (win = 1, 95% interval)")
            };
            let mut chart = frame(area, &title, &x.axis, &y, 64)?;
            match one_fair {
                Some(n) => hline(&mut chart, &x.axis, 1.0 / n as f64)?,
                None => {
                    for (at, n) in &fair {
                        let f = 1.0 / *n as f64;
                        chart.draw_series(std::iter::once(PathElement::new(vec![(at - half, f), (at + half, f)], REFERENCE.stroke_width(2)))).map_err(drawing)?;
                    }
                }
            }
            for (pos, (_, pts)) in bots.iter().enumerate() {
                series(&mut chart, &x, colour(pos), pts, pos, bots.len())?;
            }
        }
        let mut entries: Vec<(String, Key)> = names.iter().enumerate().map(|(pos, labels)| (bot_name(pos, labels), Key::Band(colour(pos)))).collect();
        match one_fair {
            Some(n) => entries.push((format!("fair share 1/{n} = {}", num_label((1000.0 / n as f64).round() / 1000.0)), Key::Line(REFERENCE))),
            None if !fair.is_empty() => entries.push(("fair share 1/n at each point\n(n = its players)".into(), Key::Line(REFERENCE))),
            None => {}
        }
        legend(&top_keys, if x.discrete { "bot (bar: 95% interval)" } else { "bot (shaded: 95% interval)" }, &entries)?;

        let y = Axis::numeric(edges.iter().flat_map(|(_, (_, p))| p.iter().flat_map(|q| [q.2, q.3])), &[0.0], "seat 0 score − 1/n (win = 1)".into(), 6);
        let mut chart = frame(&bottom, &format!("Does the first seat have an edge at each {first}? (seat 0's score less 1/n, 95% interval)"), &x.axis, &y, 64)?;
        hline(&mut chart, &x.axis, 0.0)?;
        let colour_of = |i: usize| if edges.len() == 1 { DARK } else { colour(i) };
        for (i, (_, (_, pts))) in edges.iter().enumerate() {
            series(&mut chart, &x, colour_of(i), pts, i, edges.len())?;
        }
        let mut entries: Vec<(String, Key)> = edges.iter().enumerate().map(|(i, (_, (n, _)))| (n[0].clone(), Key::Band(colour_of(i)))).collect();
        entries.push(("0: no first-seat advantage".into(), Key::Line(REFERENCE)));
        legend(&bottom_keys, "", &entries)
    })
}

// ---------------------------------------------------------------------------------
// differences.svg

fn differences_svg(s: &Sweep) -> Result<Vec<u8>, String> {
    let base = &s.points[0];
    // Rows from the top: per point after the first, seat 0's edge then each bot.
    let mut rows: Vec<(String, RGBColor, (f64, f64, f64))> = Vec::new();
    let mut skipped = 0;
    for p in &s.points[1..] {
        let at = p.values.join(", ");
        let mut push = |what: &str, c: RGBColor, f: Option<&Figure>| match f.and_then(|f| f.diff) {
            Some(d) => rows.push((format!("{at} | {what}"), c, d)),
            None => skipped += 1,
        };
        push("seat 0 edge", DARK, p.edge.as_ref());
        for (pos, (label, f)) in p.scores.iter().enumerate() {
            push(&format!("bot {pos}: {label}"), colour(pos), Some(f));
        }
    }
    let n = rows.len();
    let names: Vec<String> = rows.iter().rev().map(|r| r.0.clone()).collect();
    let area = row_label_area(&names);
    let y = Axis::categories(names, format!("{} | figure", s.params.join(", ")));
    let x = Axis::numeric(rows.iter().flat_map(|r| [r.2 .1, r.2 .2]), &[0.0], "paired difference from the first point (win = 1, as the score)".into(), 10);
    let mut title = format!("Which points differ from point {} ({})? Paired difference on the same deals, 95% interval", base.number, s.describe(base, 0));
    if skipped > 0 {
        title += &format!(" ({skipped} not comparable, not shown)");
    }
    svg(140 + 26 * n.max(1) as u32, |root| {
        let mut chart = frame(root, &title, &x, &y, area)?;
        let (lo, hi) = (y.lo, y.hi);
        chart.draw_series(std::iter::once(PathElement::new(vec![(0.0, lo), (0.0, hi)], REFERENCE.stroke_width(1)))).map_err(drawing)?;
        for (i, (_, c, (d, l, h))) in rows.iter().enumerate() {
            let at = (n - 1 - i) as f64;
            let style = c.stroke_width(2);
            chart
                .draw_series([
                    PathElement::new(vec![(*l, at), (*h, at)], style),
                    PathElement::new(vec![(*l, at - 0.2), (*l, at + 0.2)], style),
                    PathElement::new(vec![(*h, at - 0.2), (*h, at + 0.2)], style),
                ])
                .map_err(drawing)?;
            chart.draw_series(std::iter::once(Circle::new((*d, at), 4, c.filled()))).map_err(drawing)?;
        }
        Ok(())
    })
}

// ---------------------------------------------------------------------------------
// lengths.svg

/// `points`: a sweep's parameter values by cell, `params` their names (empty if not a
/// sweep).
fn lengths_svg(l: &Lengths, points: &BTreeMap<u64, String>, params: &str) -> Result<Vec<u8>, String> {
    let metric = if l.metrics.is_empty() { "length".to_string() } else { l.metrics.join("/") };
    let values = || l.cells.values().flat_map(|v| v.iter().map(|(x, _)| *x));
    let (min, max) = values().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let whole = values().all(|v| v == v.round());
    // Equal-width bins of a round width (1, 2 or 5 times a power of ten) at multiples
    // of that width; whole numbers get a whole width, a bin of width 1 centred on its
    // value.
    let (start, width, bins) = if !min.is_finite() {
        (0.0, 1.0, 0usize)
    } else if whole {
        let width = round_width((max - min + 1.0) / MAX_BINS).max(1.0);
        let start = if width == 1.0 { min - 0.5 } else { (min / width).floor() * width };
        (start, width, ((max + if width == 1.0 { 0.5 } else { 1.0 } - start) / width).ceil() as usize)
    } else if max > min {
        let width = round_width((max - min) / MAX_BINS);
        let start = (min / width).floor() * width;
        (start, width, (((max - start) / width).floor() as usize + 1).max(1))
    } else {
        (min - 0.5, 1.0, 1)
    };
    let bin_of = |v: f64| (((v - start) / width).floor().max(0.0) as usize).min(bins.saturating_sub(1));
    let mut series: Vec<(u64, Vec<f64>)> = Vec::new();
    for (&cell, counts) in &l.cells {
        let total: u64 = counts.iter().map(|(_, n)| n).sum();
        let mut shares = vec![0.0; bins];
        for &(v, n) in counts {
            shares[bin_of(v)] += n as f64;
        }
        if total > 0 {
            shares.iter_mut().for_each(|s| *s /= total as f64);
        }
        series.push((cell, shares));
    }
    let edges = |k: usize| start + k as f64 * width;
    let bin_text = if !whole || width > 1.0 { format!("; bins of {}", num_label(width)) } else { String::new() };
    let mut x = Axis::numeric([edges(0), edges(bins)], &[], format!("{metric} per match (finished matches{bin_text})"), 12);
    if whole {
        // Whole values: ticks on whole numbers only (a single value gets its own tick).
        x.ticks.retain(|t| *t == t.round());
        if x.ticks.is_empty() {
            x.ticks = vec![min.round()];
        }
    }
    let y = Axis::numeric(series.iter().flat_map(|(_, s)| s.iter().copied()), &[0.0], "share of the cell's finished matches".into(), 8);
    let y = Axis { lo: 0.0, ticks: y.ticks.into_iter().filter(|t| *t >= 0.0).collect(), ..y };
    let mut title = format!("How long are the matches in each cell? Distribution of {metric} per match");
    if series.is_empty() {
        title += " (no lengths recorded)";
    }
    let names: Vec<String> = series.iter().map(|(cell, _)| points.get(cell).map_or(format!("cell {cell}"), |at| format!("cell {cell}: {at}"))).collect();
    let outline = |shares: &[f64]| {
        let mut o = vec![(edges(0), 0.0)];
        for (k, s) in shares.iter().enumerate() {
            o.push((edges(k), *s));
            o.push((edges(k + 1), *s));
        }
        o.push((edges(bins), 0.0));
        o
    };
    let draw_cell = |chart: &mut Chart, i: usize, shares: &[f64]| -> Result<(), String> {
        let c = colour(i);
        chart.draw_series(std::iter::once(Polygon::new(outline(shares), c.mix(0.12).filled()))).map_err(drawing)?;
        chart.draw_series(LineSeries::new(outline(shares), c.stroke_width(2))).map_err(drawing)?;
        Ok(())
    };
    if series.len() > OVERLAID {
        // Small multiples: one panel per cell on the same axes, so no outline hides another.
        let height = 40 + LENGTH_PANEL * series.len() as u32;
        return svg(height, |root| {
            root.draw(&Text::new(clip_label(&title, 110), (12, 12), (FONT, 16).into_font().color(&BLACK))).map_err(drawing)?;
            let (_, panels) = root.split_vertically(40);
            let cuts: Vec<i32> = (1..series.len()).map(|k| (k as u32 * LENGTH_PANEL) as i32).collect();
            let y = Axis { desc: "share of matches".into(), ..y.clone() };
            for (i, ((_, shares), area)) in series.iter().zip(panels.split_by_breakpoints(Vec::<i32>::new(), cuts)).enumerate() {
                let mut chart = frame(&area, &clip_label(&names[i], 90), &x, &y, 64)?;
                draw_cell(&mut chart, i, shares)?;
            }
            Ok(())
        });
    }
    let height = 520u32.max(120 + 22 * series.len() as u32);
    svg(height, |root| {
        let (plot, keys) = root.split_horizontally(WIDTH - LEGEND);
        let mut chart = frame(&plot, &title, &x, &y, 64)?;
        for (i, (_, shares)) in series.iter().enumerate() {
            draw_cell(&mut chart, i, shares)?;
        }
        let entries: Vec<(String, Key)> = names.iter().enumerate().map(|(i, n)| (n.clone(), Key::Box(colour(i)))).collect();
        let heading = if points.is_empty() { "cell (table of the experiment)".to_string() } else { format!("cell: {params}") };
        legend(&keys, &heading, &entries)
    })
}

// ---------------------------------------------------------------------------------
// ratings.svg

fn ratings_svg(r: &Ratings) -> Result<Vec<u8>, String> {
    let mut shown: Vec<&Rating> = r.bots.iter().filter(|b| b.elo.is_finite()).collect();
    shown.sort_by(|a, b| b.elo.total_cmp(&a.elo).then(a.bot.cmp(&b.bot)));
    let mut infinite: Vec<&Rating> = r.bots.iter().filter(|b| !b.elo.is_finite()).collect();
    infinite.sort_by(|a, b| b.elo.total_cmp(&a.elo).then(a.bot.cmp(&b.bot)));
    let open: Vec<&str> = shown.iter().filter(|b| !(b.low.is_finite() && b.high.is_finite())).map(|b| b.bot.as_str()).collect();
    let mut title = "Which bot is strongest, by how much? Elo rating (Bradley–Terry, mean 0), 95% interval".to_string();
    if !infinite.is_empty() {
        let names: Vec<String> = infinite.iter().map(|b| format!("{} {}", b.bot, if b.elo > 0.0 { "+inf" } else { "-inf" })).collect();
        title += &format!("; not shown, infinite: {}", clip_label(&names.join(", "), 60));
    }
    if !open.is_empty() {
        title += &format!("; no finite interval: {}", clip_label(&open.join(", "), 40));
    }
    let n = shown.len();
    let names: Vec<String> = shown.iter().rev().map(|b| b.bot.clone()).collect();
    let area = row_label_area(&names);
    let y = Axis::categories(names, "bot, best first".into());
    let x = Axis::numeric(shown.iter().flat_map(|b| [b.elo, b.low, b.high]), &[0.0], "Elo (Bradley–Terry; 0 = mean of the finite ratings)".into(), 10);
    svg(140 + 28 * n.max(1) as u32, |root| {
        let mut chart = frame(root, &title, &x, &y, area)?;
        chart.draw_series(std::iter::once(PathElement::new(vec![(0.0, y.lo), (0.0, y.hi)], REFERENCE.stroke_width(1)))).map_err(drawing)?;
        for (i, b) in shown.iter().enumerate() {
            let at = (n - 1 - i) as f64;
            let c = colour(i);
            if b.low.is_finite() && b.high.is_finite() {
                let style = c.stroke_width(2);
                chart
                    .draw_series([
                        PathElement::new(vec![(b.low, at), (b.high, at)], style),
                        PathElement::new(vec![(b.low, at - 0.2), (b.low, at + 0.2)], style),
                        PathElement::new(vec![(b.high, at - 0.2), (b.high, at + 0.2)], style),
                    ])
                    .map_err(drawing)?;
            }
            chart.draw_series(std::iter::once(Circle::new((b.elo, at), 4, c.filled()))).map_err(drawing)?;
        }
        Ok(())
    })
}

// ---------------------------------------------------------------------------------
// trajectory.svg (`cardsim tune`)

/// Height of one parameter's panel of a tuning trajectory.
const TRAJECTORY_PANEL: u32 = 190;

/// The chart of a `cardsim tune` run: "How did each parameter move while SPSA tuned
/// it?", one panel per tuned parameter (each in its own unit, with the y axis of its
/// range's part the run visited), its value after each iteration as a line, its start
/// as a grey reference line. `series` holds (name, start, value after iteration
/// 1, 2, ...). The same input gives the same bytes.
pub fn trajectory_svg(series: &[(String, f64, Vec<f64>)]) -> Result<Vec<u8>, String> {
    let iterations = series.iter().map(|s| s.2.len()).max().unwrap_or(0);
    let x = Axis::numeric([0.0, iterations as f64], &[], "iteration".into(), 10);
    let x = Axis { lo: 0.0, ticks: x.ticks.into_iter().filter(|t| *t >= 0.0 && *t == t.round()).collect(), ..x };
    let title = "How did each parameter move while SPSA tuned it? (grey: the start)";
    let height = 40 + TRAJECTORY_PANEL * series.len().max(1) as u32;
    svg(height, |root| {
        root.draw(&Text::new(title, (12, 12), (FONT, 16).into_font().color(&BLACK))).map_err(drawing)?;
        let (_, panels) = root.split_vertically(40);
        let cuts: Vec<i32> = (1..series.len()).map(|k| (k as u32 * TRAJECTORY_PANEL) as i32).collect();
        for (i, ((name, start, values), area)) in series.iter().zip(panels.split_by_breakpoints(Vec::<i32>::new(), cuts)).enumerate() {
            let y = Axis::numeric(values.iter().copied(), &[*start], name.clone(), 6);
            let mut chart = frame(&area, &clip_label(name, 90), &x, &y, 72)?;
            hline(&mut chart, &x, *start)?;
            let pts = std::iter::once((0.0, *start)).chain(values.iter().enumerate().map(|(k, v)| ((k + 1) as f64, *v)));
            chart.draw_series(LineSeries::new(pts, colour(i).stroke_width(2))).map_err(drawing)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_suffixes_are_stripped_from_bot_labels() {
        assert_eq!(base_label("smart@skilled look.mu=300"), "smart@skilled");
        assert_eq!(base_label("smart@skilled look.mu=300 look.sigma=40"), "smart@skilled");
        assert_eq!(base_label("greedy@skilled"), "greedy@skilled");
        assert_eq!(base_label("a=b"), "a=b");
    }

    #[test]
    fn ticks_are_round_and_labels_short() {
        assert_eq!(nice_ticks(0.0, 1.0, 5), vec![0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]);
        assert_eq!(num_label(0.6000000000000001), "0.6");
        assert_eq!(num_label(-0.0), "0");
        assert_eq!(num_label(250.0), "250");
        assert_eq!(nice_ticks(3.0, 3.0, 5), vec![3.0]);
    }
}
