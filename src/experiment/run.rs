//! Playing an experiment and writing its results: every cell on the same deals, the
//! summary rows, a sweep's paired comparisons with its first point, ratings for round
//! robins and gauntlets, length histograms and the manifest.

use super::pins::InputFile;
use super::cells::{Cell, Format};
use super::folder::{self, Manifest, ManifestCell, CODE_COMMIT};
use super::Experiment;
use crate::bot::BotSpec;
use crate::games::{self, TracedGame};
use crate::output::summary::{print_metric_lines, print_summary, SummaryRow};
use crate::realtime::DEFAULT_PRESET;
use crate::runner::{for_deals, length_metric, play_deal, DealTally, MatchupStats, RunConfig};
use crate::stats::paired::{edge_verdict_text, PairedSums, BALANCE_TOLERANCE};
use crate::stats::ratings::{bradley_terry, Pairwise};
use crate::stats::Z_95;
use crate::table::Table;
use std::io::Write;
use std::ops::Range;

/// One deal's figures of one sweep cell (see `Study::figures`): fixed room, no heap.
type Figures = arrayvec::ArrayVec<i64, { 2 + crate::rng::MAX_SEATS }>;

/// A CSV's header and rows, as text.
type HeaderAndRows = (Vec<String>, Vec<Vec<String>>);

/// Segments per table (or per sweep) a run is played in: the unit of resuming.
pub const SEGMENTS: u64 = 32;

/// What a run played.
pub struct Played {
    /// The finished units' exact aggregate (what a resumed run continues from).
    pub state: StudyState,
    /// Everything that finished, including an interrupted unit's finished deals (for
    /// the partial summary).
    pub shown: StudyState,
    /// False when Ctrl-C stopped the run.
    pub complete: bool,
    /// Units finished (and saved by the checkpoint callback), earlier ones included.
    pub units_done: usize,
}

/// Which share of the deals a run plays: shard `k` of `n` (0-based), `0/1` for all.
/// Read back from a file it is checked as on the command line (`k < n <= 10^6`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "ShardFields")]
pub struct Shard {
    /// This shard, from 0.
    pub k: u64,
    /// Shards in all.
    pub n: u64,
}

/// A shard as written in a file, before its check.
#[derive(serde::Deserialize)]
struct ShardFields {
    k: u64,
    n: u64,
}

impl TryFrom<ShardFields> for Shard {
    type Error = String;
    fn try_from(f: ShardFields) -> Result<Shard, String> {
        if f.n == 0 || f.k >= f.n || f.n > MAX_SHARDS {
            return Err(format!("shard {{k: {}, n: {}}} is not a shard (0 <= k < n <= {MAX_SHARDS})", f.k, f.n));
        }
        Ok(Shard { k: f.k, n: f.n })
    }
}

/// Most shards a study may be split into.
pub const MAX_SHARDS: u64 = 1_000_000;

impl Shard {
    /// Every deal.
    pub const ALL: Shard = Shard { k: 0, n: 1 };

    /// Parses `K/N` as written on the command line, counting from 1 (`1/3` .. `3/3`).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {text}: expected K/N with 1 <= K <= N, e.g. 2/8");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if k == 0 || k > n || n > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { k: k - 1, n })
    }

    /// This shard's part of deals `0..deals`.
    pub fn range(&self, deals: u64) -> Range<u64> {
        let at = |i: u64| (deals as u128 * i as u128 / self.n as u128) as u64;
        at(self.k)..at(self.k + 1)
    }
}

/// An experiment ready to play: its cells, each as a checked table and a built game.
pub struct Study {
    /// The experiment.
    pub exp: Experiment,
    /// Matches per cell asked for.
    pub games: u64,
    /// The cells, in order.
    pub cells: Vec<Cell>,
    /// Each cell's table.
    pub tables: Vec<Table>,
    built: Vec<Box<dyn TracedGame>>,
    /// [`Study::inputs`].
    inputs: Vec<InputFile>,
}

/// The exact aggregate of a run (or of a shard): per cell its stats and, for sweeps,
/// its paired sums against the first cell.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StudyState {
    /// Per cell.
    pub stats: Vec<MatchupStats>,
    /// Per cell, for sweeps; empty otherwise.
    pub paired: Vec<PairedSums>,
}

impl StudyState {
    /// Adds everything counted in `other`.
    pub fn merge(&mut self, other: &StudyState) {
        self.stats.iter_mut().zip(&other.stats).for_each(|(a, b)| a.merge(b));
        self.paired.iter_mut().zip(&other.paired).for_each(|(a, b)| a.merge(b));
    }
}

/// The table of a cell: its bots parsed, the point's tweaks applied.
fn cell_table(game: &str, cell: &Cell, seating: crate::runner::SeatingDesign) -> Result<Table, String> {
    let entry = games::find(game)?;
    let mut bots = cell.bots.iter().map(|t| BotSpec::parse(t)).collect::<Result<Vec<_>, _>>()?;
    for t in &cell.tweaks {
        bots[t.bot] = bots[t.bot].tweaked(&t.param, &t.value, DEFAULT_PRESET)?;
    }
    Table::new(entry, bots, &cell.flags, seating)
}

impl Study {
    /// Checks every cell of `exp` (so a typo fails before anything runs) and builds it.
    pub fn new(exp: Experiment, games: u64) -> Result<Study, String> {
        let cells = exp.cells()?;
        let mut tables = cells
            .iter()
            .enumerate()
            .map(|(i, c)| cell_table(&exp.game, c, exp.seating()).map_err(|e| format!("{}: table {} ({}): {e}", exp.path.display(), i + 1, c.label)))
            .collect::<Result<Vec<_>, _>>()?;
        for t in &mut tables {
            t.set_bot_timeout(exp.bot_timeout)?;
        }
        if matches!(exp.format, Format::RoundRobin | Format::Gauntlet | Format::HeadToHead) {
            let mut labels: Vec<String> = exp.pool.iter().chain(&exp.challenger).filter_map(|b| BotSpec::parse(&exp.bot_path(b)).ok()).map(|b| b.label).collect();
            labels.sort();
            if labels.windows(2).any(|w| w[0] == w[1]) {
                return Err(format!("{}: the pool names a bot twice ({}): ratings need distinct bots", exp.path.display(), labels.windows(2).find(|w| w[0] == w[1]).map_or("", |w| &w[0])));
            }
        }
        let built = tables.iter().map(Table::build).collect::<Result<Vec<_>, _>>()?;
        let inputs = Study::read_inputs(&exp, &tables);
        Ok(Study { exp, games, cells, tables, built, inputs })
    }

    /// Every file the study read, pinned by its SHA-256: the experiment file (by its
    /// name), each bot file (by its path relative to the experiment's folder) and, for
    /// an external bot, each word of its command that names a regular file (its program
    /// or script), sorted. Computed once, when the study is built.
    pub fn inputs(&self) -> Vec<InputFile> {
        self.inputs.clone()
    }

    fn read_inputs(exp: &Experiment, tables: &[Table]) -> Vec<InputFile> {
        let shown = |path: &std::path::Path| path.strip_prefix(&exp.dir).unwrap_or(path).display().to_string();
        let mut files = vec![InputFile { path: exp.file_name(), sha256: exp.sha256.clone() }];
        for bot in tables.iter().flat_map(|t| &t.bots) {
            if let Some(src) = &bot.source {
                files.push(InputFile { path: shown(std::path::Path::new(&src.path)), sha256: src.sha256.clone() });
            }
            for word in bot.external.iter().flat_map(|e| &e.command) {
                let path = std::path::Path::new(word);
                if path.is_file() {
                    if let Ok(bytes) = crate::tomlfile::read_bytes(path, word, true) {
                        files.push(InputFile { path: shown(path), sha256: super::pins::sha256_hex(&bytes) });
                    }
                }
            }
        }
        files.sort();
        files.dedup();
        files
    }

    /// The deals of each cell that the first `done` units of shard `shard` play.
    pub fn deals_done(&self, shard: Shard, done: usize) -> Vec<u64> {
        let mut deals = vec![0; self.cells.len()];
        for (cell, range) in self.units(shard).into_iter().take(done) {
            let len = range.end - range.start;
            match cell {
                Some(c) => deals[c] += len,
                None => deals.iter_mut().for_each(|d| *d += len),
            }
        }
        deals
    }

    /// Checks a state read back from a file (a checkpoint, a shard's partial) against
    /// the study, given the deals each cell must hold: the shape of every table (seats,
    /// seatings, array lengths, which optional parts it has), then the counts: exactly
    /// the matches those deals make, wins within games, every per-deal distribution
    /// adding up to the deals, finished matches within the matches. These bounds also
    /// keep every later sum far from overflowing. `Err` names the field.
    pub fn check_state(&self, state: &StudyState, deals: &[u64]) -> Result<(), String> {
        let reference = serde_json::to_value(self.empty_state()).map_err(|e| e.to_string())?;
        let read = serde_json::to_value(state).map_err(|e| e.to_string())?;
        super::pins::check_shape(&reference, &read, "state")?;
        for (c, s) in state.stats.iter().enumerate() {
            let at = format!("state.stats[{c}]");
            let empty = &self.empty_state().stats[c];
            if (s.seats, s.seatings, s.length_metric) != (empty.seats, empty.seatings, empty.length_metric) {
                return Err(format!("{at}: seats, seatings or length metric differ from the experiment's table"));
            }
            let matches = deals[c].checked_mul(s.seatings).ok_or_else(|| format!("{at}: too many deals"))?;
            let seat_games: u128 = s.games.iter().flatten().map(|&g| g as u128).sum();
            if seat_games != matches as u128 * s.seats as u128 {
                return Err(format!("{at}.games: {seat_games} bot-seat games where {} deals make {}", deals[c], matches as u128 * s.seats as u128));
            }
            let within = |a: &Vec<Vec<u64>>, b: &Vec<Vec<u64>>| a.iter().flatten().zip(b.iter().flatten()).all(|(x, y)| x <= y);
            if !within(&s.wins, &s.games) {
                return Err(format!("{at}.wins: more wins than games"));
            }
            if !within(&s.after_wins, &s.after_games) || s.after_games.iter().flatten().map(|&g| g as u128).sum::<u128>() > seat_games {
                return Err(format!("{at}.after_wins: more wins than games"));
            }
            for (name, dist) in [("deal_wins", &s.deal_wins), ("deal_score", &s.deal_score), ("seat_deal_score", &s.seat_deal_score)] {
                if let Some(b) = dist.iter().position(|d| d.iter().map(|&x| x as u128).sum::<u128>() != deals[c] as u128) {
                    return Err(format!("{at}.{name}[{b}]: does not add up to the {} deals played", deals[c]));
                }
            }
            if s.draws as u128 + s.capped as u128 + s.cycled as u128 > matches as u128 {
                return Err(format!("{at}: more draws, capped and cycled matches than matches"));
            }
            if let Some(m) = s.metrics.iter().position(|h| h.count() > matches) {
                return Err(format!("{at}.metrics[{m}]: more observations than matches"));
            }
        }
        for (c, p) in state.paired.iter().enumerate() {
            if p.deals != deals[c] {
                return Err(format!("state.paired[{c}].deals: {} where {} deals were played", p.deals, deals[c]));
            }
        }
        Ok(())
    }

    /// True for a sweep: every point plays the same deals and is compared with the first.
    pub fn is_sweep(&self) -> bool {
        !self.exp.vary.is_empty()
    }

    fn config(&self, c: usize) -> RunConfig {
        self.tables[c].run_config(self.games, self.exp.seed, true)
    }

    /// Seatings per deal of cell `c`.
    fn seatings(&self, c: usize) -> u64 {
        self.config(c).seatings(self.built[c].seats())
    }

    /// Deals cell `c` plays: enough for `games` matches; in a sweep, as many as the
    /// first point needs, at every point.
    pub fn deals(&self, c: usize) -> u64 {
        let at = if self.is_sweep() { 0 } else { c };
        self.config(at).deals(self.built[at].seats())
    }

    /// Matches shard `shard` plays.
    pub fn matches(&self, shard: Shard) -> u64 {
        (0..self.cells.len()).map(|c| (shard.range(self.deals(c)).end - shard.range(self.deals(c)).start) * self.seatings(c)).sum()
    }

    /// The per-deal figures of cell `c` compared across a sweep: seat 0's score units,
    /// the summed length metric ([`length_metric`]), then each bot's score units in
    /// table order.
    fn figures(&self, c: usize, tally: &DealTally) -> Figures {
        let t = &self.tables[c];
        let mut y: Figures = std::iter::repeat_n(0, 2 + t.bots.len()).collect();
        y[0] = tally.seat_units[0] as i64;
        y[1] = tally.length as i64;
        for (i, &pos) in t.table_of.iter().enumerate() {
            y[2 + pos] = tally.units[i] as i64;
        }
        y
    }

    /// The work of a shard in order: per cell (all cells at once in a sweep, which
    /// compares them deal by deal) its deals in up to [`SEGMENTS`] segments. A run
    /// interrupted by Ctrl-C resumes after the last finished unit.
    fn units(&self, shard: Shard) -> Vec<(Option<usize>, Range<u64>)> {
        let split = |cell: Option<usize>, r: Range<u64>| {
            let len = r.end - r.start;
            let step = len.div_ceil(SEGMENTS).max(1);
            (0..len.div_ceil(step)).map(move |i| (cell, r.start + i * step..(r.start + (i + 1) * step).min(r.end))).collect::<Vec<_>>()
        };
        if self.is_sweep() {
            split(None, shard.range(self.deals(0)))
        } else {
            (0..self.cells.len()).flat_map(|c| split(Some(c), shard.range(self.deals(c)))).collect()
        }
    }

    /// The number of units of work of a shard: per cell (all cells at once in a sweep)
    /// its deals in up to `SEGMENTS` segments; a checkpoint is saved after each.
    pub fn units_len(&self, shard: Shard) -> usize {
        self.units(shard).len()
    }

    /// Plays one unit on the current rayon pool into a fresh state.
    fn play_unit(&self, (cell, deals): (Option<usize>, Range<u64>), bar: &indicatif::ProgressBar) -> StudyState {
        let mut state = self.empty_state();
        match cell {
            Some(c) => state.stats[c] = crate::runner::run_deals(self.built[c].as_match_game(), &self.config(c), deals, bar),
            None => {
                let configs: Vec<RunConfig> = (0..self.cells.len()).map(|c| self.config(c)).collect();
                let (stats, paired, _) = for_deals(
                    deals,
                    |chunk_deals| {
                        let mut stats = self.empty_state().stats;
                        stats.iter_mut().for_each(|s| s.reserve(chunk_deals * s.seatings));
                        // Per cell, the deal's figures: room made once per chunk.
                        (stats, vec![PairedSums::default(); self.cells.len()], Vec::with_capacity(self.cells.len()))
                    },
                    |(stats, paired, ys), deal| {
                        ys.clear();
                        ys.extend((0..self.cells.len()).map(|c| {
                            let tally = play_deal(self.built[c].as_match_game(), &configs[c], deal, &mut stats[c]);
                            bar.inc(stats[c].seatings);
                            self.figures(c, &tally)
                        }));
                        for (p, y) in paired.iter_mut().zip(ys.iter()) {
                            p.add(y, &ys[0]);
                        }
                    },
                    |(a, pa, _), (b, pb, _)| {
                        a.iter_mut().zip(&b).for_each(|(x, y)| x.merge(y));
                        pa.iter_mut().zip(&pb).for_each(|(x, y)| x.merge(y));
                    },
                );
                state = StudyState { stats, paired };
            }
        }
        state
    }

    /// Plays this shard's deals of every cell on the current rayon pool, starting after
    /// the first `done` units whose results `state` already holds, and calls
    /// `checkpoint(state, units done)` after each unit. On Ctrl-C it stops at the next
    /// deal boundary; the outcome then says what finished.
    pub fn play_from(&self, shard: Shard, quiet: bool, mut state: StudyState, done: usize, mut checkpoint: impl FnMut(&StudyState, usize) -> Result<(), String>) -> Result<Played, String> {
        let units = self.units(shard);
        let matches = |u: &(Option<usize>, Range<u64>)| match u.0 {
            Some(c) => (u.1.end - u.1.start) * self.seatings(c),
            None => (u.1.end - u.1.start) * (0..self.cells.len()).map(|c| self.seatings(c)).sum::<u64>(),
        };
        let bar = crate::runner::progress_bar(units.iter().map(matches).sum(), quiet, &self.exp.name);
        bar.inc(units.iter().take(done).map(matches).sum());
        for (i, unit) in units.iter().enumerate().skip(done) {
            let part = self.play_unit(unit.clone(), &bar);
            if crate::interrupt::requested() {
                bar.finish_and_clear();
                let mut shown = state.clone();
                shown.merge(&part);
                return Ok(Played { state, shown, complete: false, units_done: i });
            }
            state.merge(&part);
            self.check_strategies(&state)?;
            checkpoint(&state, i + 1)?;
        }
        bar.finish_and_clear();
        Ok(Played { shown: state.clone(), state, complete: true, units_done: units.len() })
    }

    /// `Err` with the one-line report of the first strategy bug in `state` (a strategy
    /// that chose an illegal action), naming the table and the trace that replays it.
    pub fn check_strategies(&self, state: &StudyState) -> Result<(), String> {
        for (c, stats) in state.stats.iter().enumerate() {
            let repro = format!("cardsim trace --experiment {} --matchup {}", self.exp.path.display(), c + 1);
            stats.check_strategies(&self.tables[c].labels(), self.exp.seed, &repro).map_err(|e| format!("{}: table {} ({}): {e}", self.exp.path.display(), c + 1, self.cells[c].label))?;
        }
        Ok(())
    }

    /// Plays this shard's deals of every cell on the current rayon pool; `Err` reports a
    /// strategy that chose an illegal action ([`Study::check_strategies`]).
    pub fn play(&self, shard: Shard, quiet: bool) -> Result<StudyState, String> {
        Ok(self.play_from(shard, quiet, self.empty_state(), 0, |_, _| Ok(()))?.shown)
    }

    /// An empty state of the right shape (for merging shards).
    pub fn empty_state(&self) -> StudyState {
        StudyState {
            stats: (0..self.cells.len()).map(|c| MatchupStats::for_game(self.built[c].as_match_game(), self.seatings(c))).collect(),
            paired: if self.is_sweep() { vec![PairedSums::default(); self.cells.len()] } else { Vec::new() },
        }
    }

    /// The summary rows of cell `c`.
    fn rows(&self, state: &StudyState, c: usize) -> Vec<SummaryRow> {
        self.tables[c].summary_rows(self.exp.seed, &state.stats[c], self.built[c].metrics())
    }

    /// Prints every cell's summary, then the sweep's comparisons or the ratings.
    pub fn print(&self, out: &mut dyn Write, state: &StudyState) -> Result<(), String> {
        self.print_summaries(out, state, None)
    }

    /// Prints what an interrupted run finished, marked partial: the summaries of the
    /// tables that played deals, without comparisons or ratings.
    pub fn print_partial(&self, out: &mut dyn Write, state: &StudyState, shard: Shard) -> Result<(), String> {
        self.print_summaries(out, state, Some(shard))
    }

    /// The summaries; `interrupted` names the shard of an interrupted run (whose share
    /// of the matches is the total shown).
    fn print_summaries(&self, out: &mut dyn Write, state: &StudyState, interrupted: Option<Shard>) -> Result<(), String> {
        let io = |e: std::io::Error| e.to_string();
        writeln!(out, "{}: {}", self.exp.name, self.exp.description).map_err(io)?;
        let partial = interrupted.is_some();
        if let Some(shard) = interrupted {
            let (done, all): (u64, u64) = (state.stats.iter().map(|s| s.total_games()).sum(), self.matches(shard));
            writeln!(out, "PARTIAL RESULTS (interrupted): {done} of {all} matches finished; no file was written").map_err(io)?;
        }
        for c in 0..self.cells.len() {
            if partial && state.stats[c].deals() == 0 {
                writeln!(out, "\n[{}] {}: not started", c + 1, self.cells[c].label).map_err(io)?;
                continue;
            }
            let t = &self.tables[c];
            let flags = t.settings.non_default();
            writeln!(out, "\n[{}] {} | {} | seed {} | {}", c + 1, t.entry.name(), t.labels().join(" vs "), self.exp.seed, if flags.is_empty() { "default rules" } else { &flags }).map_err(io)?;
            print_summary(out, &self.rows(state, c), &state.stats[c]).map_err(io)?;
            print_metric_lines(out, &state.stats[c], self.built[c].metrics()).map_err(io)?;
        }
        if partial {
            return Ok(());
        }
        if self.is_sweep() {
            writeln!(out, "\npaired comparisons with the first point ({}), same deals:", self.cells[0].label).map_err(io)?;
            for line in self.sweep_lines(state) {
                writeln!(out, "{line}").map_err(io)?;
            }
            writeln!(out, "\nverdict per value: seat 0's edge (its score less 1/players) under it, 95% interval; balanced = the interval within ±1 point:").map_err(io)?;
            for line in self.sweep_verdicts(state) {
                writeln!(out, "{line}").map_err(io)?;
            }
        }
        if let Some((header, rows)) = self.ratings(state)? {
            writeln!(out, "\nratings (Bradley-Terry, Elo scale, 95% interval):").map_err(io)?;
            let table: Vec<SummaryRow> = rows.into_iter().map(|values| SummaryRow { header: header.clone(), values }).collect();
            crate::output::summary::print_table(out, &table.iter().collect::<Vec<_>>(), &["rank", "bot", "elo", "elo_ci_low", "elo_ci_high", "games", "wins"]).map_err(io)?;
        }
        Ok(())
    }

    /// Denominators of the sweep figures of cell `c`: score units per deal (players x
    /// seatings) and matches per deal times the first metric's scale.
    fn dens(&self, c: usize) -> (f64, f64) {
        let s = self.seatings(c) as f64;
        let metrics = self.built[c].metrics();
        let scale = metrics.get(length_metric(metrics)).map_or(1, |m| m.scale) as f64;
        (self.built[c].seats() as f64 * s, s * scale)
    }

    /// The sweep table: per point, seat 0's edge (its score less a fair share), the
    /// length, each bot's score; each with its paired difference from the first point.
    pub fn sweep_table(&self, state: &StudyState) -> (Vec<String>, Vec<Vec<String>>) {
        let mut header: Vec<String> = vec!["point".into()];
        header.extend(self.exp.vary.iter().map(|v| match v.bot {
            Some(b) => format!("bot{b}.{}", v.param),
            None => v.param.clone(),
        }));
        header.extend(["figure", "bot", "value", "se", "ci_low", "ci_high", "diff", "diff_se", "diff_ci_low", "diff_ci_high", "p_value", "change", "verdict", "deals", "per_deal", "offset", "sum", "sum_sq", "sum_x_base"].map(String::from));
        let f = |x: f64| format!("{:.6}", x + 0.0);
        let base = &state.paired[0];
        let (score0, len0) = self.dens(0);
        let n0 = self.built[0].seats();
        let metrics = self.built[0].metrics();
        let metric = metrics.get(length_metric(metrics)).map_or("length", |m| m.name);
        let mut rows = Vec::new();
        for c in 0..self.cells.len() {
            let p = &state.paired[c];
            let (score_den, len_den) = self.dens(c);
            let n = self.built[c].seats();
            let mut push = |figure: String, bot: String, j: usize, den: f64, base_den: f64, shift: f64, base_shift: f64, comparable: bool, ratio: bool| {
                let (m, se) = p.mean_se(j, den);
                let mut r = vec![(c + 1).to_string()];
                r.extend(self.cells[c].point.iter().cloned());
                r.extend([figure, bot, f(m - shift), f(se), f(m - shift - Z_95 * se), f(m - shift + Z_95 * se)]);
                if comparable {
                    // The interval and the p-value of one quantity: the shifted difference.
                    let d = p.difference(base, j, den, base_den).shifted(base_shift - shift);
                    let change = if ratio { f(m / base.mean_se(j, base_den).0 - 1.0) } else { String::new() };
                    r.extend([f(d.mean), f(d.se), f(d.mean - Z_95 * d.se), f(d.mean + Z_95 * d.se), format!("{:.6}", d.p), change]);
                } else {
                    r.extend(std::iter::repeat_n(String::new(), 6));
                }
                r.push(if j == 0 { edge_verdict_text("seat 0", m - shift, m - shift - Z_95 * se, m - shift + Z_95 * se, BALANCE_TOLERANCE) } else { String::new() });
                r.extend([p.deals.to_string(), den.to_string(), format!("{shift}"), p.sum[j].to_string(), p.sum_sq[j].to_string(), p.cross[j].to_string()]);
                rows.push(r);
            };
            push("seat0_edge".into(), String::new(), 0, score_den, score0, 1.0 / n as f64, 1.0 / n0 as f64, true, false);
            push(metric.into(), String::new(), 1, len_den, len0, 0.0, 0.0, true, true);
            let labels: Vec<String> = self.cells[c].bots.iter().enumerate().map(|(pos, _)| self.tables[c].bots[self.tables[c].table_of.iter().position(|&q| q == pos).expect("a permutation")].label.clone()).collect();
            for (pos, label) in labels.into_iter().enumerate() {
                push("score".into(), label, 2 + pos, score_den, score0, 0.0, 0.0, n == n0, false);
            }
        }
        (header, rows)
    }

    /// One plain line per point after the first: seat 0's edge and the length against
    /// the first point.
    pub fn sweep_lines(&self, state: &StudyState) -> Vec<String> {
        let (header, rows) = self.sweep_table(state);
        let col = |r: &Vec<String>, name: &str| r[header.iter().position(|h| h == name).expect("column")].clone();
        let num = |r: &Vec<String>, name: &str| col(r, name).parse::<f64>().unwrap_or(f64::NAN);
        let mut lines = Vec::new();
        for c in 1..self.cells.len() {
            let mine: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == (c + 1).to_string()).collect();
            let edge = mine[0];
            let len = mine[1];
            let change = num(len, "change") * 100.0;
            let length = if change.abs() < 0.05 {
                "matches as long".to_string()
            } else {
                format!("matches {:.1}% {} ({})", change.abs(), if change < 0.0 { "shorter" } else { "longer" }, p_text(num(len, "p_value")))
            };
            let mut line = format!(
                "{}: seat 0 edge {:+.1} points [{:+.1}, {:+.1}], {}; {length}",
                self.cells[c].label,
                num(edge, "diff") * 100.0,
                num(edge, "diff_ci_low") * 100.0,
                num(edge, "diff_ci_high") * 100.0,
                p_text(num(edge, "p_value")),
            );
            for s in mine[2..].iter().filter(|r| !col(r, "diff").is_empty()) {
                line += &format!("; {} {:+.1} points [{:+.1}, {:+.1}]", col(s, "bot"), num(s, "diff") * 100.0, num(s, "diff_ci_low") * 100.0, num(s, "diff_ci_high") * 100.0);
            }
            lines.push(line);
        }
        lines
    }

    /// One line per point: its label and the verdict on seat 0's edge under it
    /// ([`edge_verdict_text`]).
    pub fn sweep_verdicts(&self, state: &StudyState) -> Vec<String> {
        let (header, rows) = self.sweep_table(state);
        let at = |name: &str| header.iter().position(|h| h == name).expect("column");
        rows.iter()
            .filter(|r| r[at("figure")] == "seat0_edge")
            .map(|r| format!("{}: {}", self.cells[r[0].parse::<usize>().expect("a point number") - 1].label, r[at("verdict")]))
            .collect()
    }

    /// Ratings of a round robin, gauntlet or head-to-head: `rank, bot, elo, elo_se,
    /// elo_ci_low, elo_ci_high, tables, games, wins`, best first.
    fn ratings(&self, state: &StudyState) -> Result<Option<HeaderAndRows>, String> {
        if self.exp.format == Format::Matchups {
            return Ok(None);
        }
        let mut names: Vec<String> = Vec::new();
        for t in &self.tables {
            for l in t.labels() {
                if !names.contains(&l) {
                    names.push(l);
                }
            }
        }
        let mut pw = Pairwise::new(names.len());
        let (mut tables, mut games, mut wins) = (vec![0u64; names.len()], vec![0u64; names.len()], vec![0u64; names.len()]);
        for (t, s) in self.tables.iter().zip(&state.stats) {
            let idx: Vec<usize> = t.labels().iter().map(|l| names.iter().position(|n| n == l).expect("collected")).collect();
            let won: Vec<u64> = (0..idx.len()).map(|b| s.wins[b].iter().sum()).collect();
            pw.add_table(&idx, &won, s.total_games());
            for (b, &i) in idx.iter().enumerate() {
                tables[i] += 1;
                games[i] += s.total_games();
                wins[i] += won[b];
            }
        }
        let ratings = bradley_terry(&pw).map_err(|e| format!("{}: {e}", self.exp.path.display()))?;
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&a, &b| ratings[b].elo.total_cmp(&ratings[a].elo).then(names[a].cmp(&names[b])));
        let e = |x: f64| if x.is_finite() { format!("{:.2}", x + 0.0) } else if x > 0.0 { "inf".into() } else { "-inf".into() };
        let header = ["rank", "bot", "elo", "elo_se", "elo_ci_low", "elo_ci_high", "tables", "games", "wins"].map(String::from).to_vec();
        let rows = order
            .iter()
            .enumerate()
            .map(|(rank, &i)| {
                let (lo, hi) = ratings[i].interval();
                vec![(rank + 1).to_string(), names[i].clone(), e(ratings[i].elo), e(ratings[i].se), e(lo), e(hi), tables[i].to_string(), games[i].to_string(), wins[i].to_string()]
            })
            .collect();
        Ok(Some((header, rows)))
    }

    /// Every results file of a finished run, name and bytes: `summary.csv`,
    /// `lengths.csv`, `sweep.csv` (sweeps), `ratings.csv` (round robins, gauntlets,
    /// head-to-heads), the charts drawn from them ([`crate::output::charts`]) and
    /// `manifest.toml`.
    pub fn files(&self, state: &StudyState) -> Result<Vec<(String, Vec<u8>)>, String> {
        let mut files = Vec::new();
        let rows: Vec<SummaryRow> = (0..self.cells.len()).flat_map(|c| self.rows(state, c)).collect();
        let (header, values) = crate::output::summary::one_table(&rows);
        files.push(("summary.csv".to_string(), folder::csv_bytes(&header, &values)?));
        let lengths: Vec<Vec<String>> = (0..self.cells.len())
            .flat_map(|c| {
                let metrics = self.built[c].metrics();
                let at = length_metric(metrics);
                let (m, scale) = metrics.get(at).map_or(("", 1), |m| (m.name, m.scale));
                state.stats[c].metrics.get(at).into_iter().flat_map(move |h| h.counts().map(move |(v, n)| {
                    let value = if scale == 1 { v.to_string() } else { format!("{:.3}", v as f64 / scale as f64) };
                    vec![(c + 1).to_string(), m.to_string(), value, n.to_string()]
                }))
            })
            .collect();
        files.push(("lengths.csv".into(), folder::csv_bytes(&["cell", "metric", "value", "matches"].map(String::from), &lengths)?));
        if self.is_sweep() {
            let (h, r) = self.sweep_table(state);
            files.push(("sweep.csv".into(), folder::csv_bytes(&h, &r)?));
        }
        if let Some((h, r)) = self.ratings(state)? {
            files.push(("ratings.csv".into(), folder::csv_bytes(&h, &r)?));
        }
        files.extend(crate::output::charts::draw(&files)?);
        let manifest = Manifest {
            experiment: format!("{}.toml", self.exp.name),
            experiment_sha256: self.exp.sha256.clone(),
            cardsim_version: env!("CARGO_PKG_VERSION").into(),
            code_commit: CODE_COMMIT.into(),
            game: self.exp.game.clone(),
            seed: self.exp.seed,
            games: self.games,
            seating: format!("{:?}", self.exp.seating()).to_lowercase(),
            files: files.iter().map(|(n, _)| n.clone()).collect(),
            inputs: self.inputs(),
            cells: (0..self.cells.len())
                .map(|c| ManifestCell {
                    label: self.cells[c].label.clone(),
                    bots: self.tables[c].labels(),
                    flags: self.tables[c].settings.non_default(),
                    deals: state.stats[c].deals(),
                    matches: state.stats[c].total_games(),
                })
                .collect(),
        };
        files.push(("manifest.toml".into(), manifest.to_bytes()?));
        Ok(files)
    }
}

fn p_text(p: f64) -> String {
    if p < 0.001 { "p < 0.001".into() } else { format!("p = {p:.3}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_deals_without_gap_or_overlap() {
        let parts: Vec<Range<u64>> = (1..=3).map(|k| Shard::parse(&format!("{k}/3")).unwrap().range(10)).collect();
        assert_eq!(parts, [0..3, 3..6, 6..10]);
        assert_eq!(Shard::ALL.range(7), 0..7);
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(Shard::parse(bad).unwrap_err().contains("expected K/N"), "{bad}");
        }
    }
}
