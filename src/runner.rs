//! The parallel match runner shared by every game: deals seeded from
//! `(master seed, deal)` and shared by every matchup, each deal played under a seating
//! design (every seat order by default), common random numbers across seatings,
//! integer aggregation that merges exactly, and a progress bar.

use crate::rng::{deal_seed, MatchSeeds};
pub use crate::rng::MAX_SEATS;
use crate::stats::Histogram;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::io::IsTerminal;

/// Most length metrics a game reports per match.
pub const MAX_METRICS: usize = 6;

/// A per-match quantity a game reports, such as rounds or simulated seconds.
#[derive(Clone, Copy, Debug)]
pub struct MetricDef {
    /// Column stem in the CSV, e.g. `seconds` gives `seconds_mean`, `seconds_p50`, ...
    pub name: &'static str,
    /// The stored integer is divided by this before printing (1000 for milliseconds → seconds).
    pub scale: u32,
    /// One line for docs/usage.md and `cardsim list`.
    pub doc: &'static str,
}

/// Most per-seat rates a game reports ([`MatchGame::rates`]).
pub const MAX_RATES: usize = 4;

/// A per-seat count a game reports, aggregated per bot as a rate per unit of exposure
/// (e.g. Nerts calls per deal played: the Nerts-out rate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateDef {
    /// CSV column stem: `name`, `name_se`, `name_ci_low`, `name_ci_high`.
    pub name: &'static str,
    /// One line for docs/usage.md and `cardsim list`.
    pub doc: &'static str,
}

/// The per-seat rates of a game and the exposure they are counted per.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateSet {
    /// The unit of exposure, e.g. `deal` ([`MatchRecord::exposure`] counts them).
    pub per: &'static str,
    /// The rates, in the order of [`MatchRecord::counts`].
    pub rates: &'static [RateDef],
}

/// How a match ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it (with a winner, or as a draw).
    #[default]
    Finished,
    /// It reached the `sim.max_actions` cap before it ended.
    Capped,
    /// Deterministic play repeated a position, so it could never end; stopped.
    Cycled,
}

impl Ending {
    /// `Capped` when `capped`, else `Finished`.
    pub fn capped_if(capped: bool) -> Ending {
        if capped { Ending::Capped } else { Ending::Finished }
    }
}

/// A strategy chose an action that was not among the legal ones it was offered: a bug
/// in that strategy. The engine never applies such an action; it stops the match there
/// (counted as capped) and the match record carries this report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct IllegalChoice {
    /// Seat of the strategy that chose it.
    pub seat: u8,
    /// The match's action index when it was chosen, counted from 0: the decisions the
    /// engine had asked of the bots (real-time games), or the turns started (Lopti).
    pub index: u64,
    /// The action as the game prints it, cut to the first 64 bytes (for an external
    /// bot's fault: the offending line, clipped).
    pub action: arrayvec::ArrayString<64>,
    /// Set when the strategy is an external bot that broke the protocol
    /// ([`crate::external`]); `index` is then the bot's decision number in the match.
    #[serde(default)]
    pub fault: Option<crate::external::Fault>,
}

impl IllegalChoice {
    /// The report of `action` chosen by seat `seat` at action index `index` (no heap:
    /// the text is written into a fixed buffer).
    #[cold]
    #[inline(never)]
    pub fn new(seat: usize, index: u64, action: impl std::fmt::Display) -> IllegalChoice {
        use std::fmt::Write;
        let mut text = Clipped(arrayvec::ArrayString::new());
        let _ = write!(text, "{action}");
        IllegalChoice { seat: seat as u8, index, action: text.0, fault: None }
    }
}

/// A fixed buffer that keeps the first characters written to it that fit.
struct Clipped(arrayvec::ArrayString<64>);

impl std::fmt::Write for Clipped {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for c in s.chars() {
            if self.0.try_push(c).is_err() {
                return Err(std::fmt::Error);
            }
        }
        Ok(())
    }
}

/// The first strategy bug of a run: the match it happened in and the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StrategyBug {
    /// Index of the match in the run (deal × seatings + seating).
    pub match_index: u64,
    /// Who sat where in that match: `seat_bots[s]` is the bot in seat `s`.
    pub seat_bots: [u8; MAX_SEATS],
    /// What was chosen, by whom, when.
    pub choice: IllegalChoice,
}

impl StrategyBug {
    /// The bot (index into the matchup's bots) whose strategy chose the illegal action.
    pub fn bot(&self) -> usize {
        self.seat_bots[self.choice.seat as usize] as usize
    }
    /// The one-line report: `labels` are the matchup's bot labels, `repro` the command
    /// that replays the match without its index ([`crate::table::Table::trace_command`];
    /// [`crate::table::repro_at`] adds it).
    pub fn message(&self, labels: &[String], deal: u64, seed: u64, repro: &str) -> String {
        let c = &self.choice;
        if let Some(fault) = c.fault {
            return format!(
                "{} of deal {deal} (seed {seed}, match {}); line: {}; reproduce with: {}",
                crate::external::fault_words(labels.get(self.bot()).map_or("?", |l| l.as_str()), c, fault),
                self.match_index,
                crate::external::fault_line(c),
                crate::table::repro_at(repro, self.match_index)
            );
        }
        format!(
            "strategy '{}' (seat {}) chose an illegal action {} at action index {} of deal {deal} (seed {seed}, match {}): a bug in that strategy; reproduce with: {}",
            labels.get(self.bot()).map_or("?", |l| l.as_str()),
            c.seat,
            c.action,
            c.index,
            self.match_index,
            crate::table::repro_at(repro, self.match_index)
        )
    }
}

/// What one played match reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchRecord {
    /// Seat of the winner; `None` for a draw, a capped or a cycled match. With teams,
    /// every seat of the winner's team wins.
    pub winner: Option<u8>,
    /// How the match ended; only finished matches count in the length metrics.
    pub ending: Ending,
    /// Values of the game's metrics, in the order of [`MatchGame::metrics`].
    pub metrics: [u64; MAX_METRICS],
    /// Actions that took effect in the match (landed moves; Lopti: turns), for
    /// throughput figures.
    pub actions: u64,
    /// Points of each seat, for games that report points ([`MatchGame::reports_points`]);
    /// every seat of a team carries the team's points. Capped and cycled matches report
    /// the points so far.
    pub points: [i32; MAX_SEATS],
    /// Finishing rank of each seat, 0 = first, for games that report points: tied seats
    /// share the better rank and the next rank is skipped (points 5, 5, 3 give ranks
    /// 0, 0, 2); a team's seats share its rank.
    pub rank: [u8; MAX_SEATS],
    /// Team of each seat (partnerships): seats with the same id share one result.
    /// `None`: everyone plays alone.
    pub teams: Option<[u8; MAX_SEATS]>,
    /// Exposure of each seat for games with rates ([`MatchGame::rates`]), e.g. deals played.
    pub exposure: [u32; MAX_SEATS],
    /// Each seat's counts of the game's rates, in the order of [`RateSet::rates`].
    pub counts: [[u32; MAX_RATES]; MAX_SEATS],
    /// Set when a strategy chose an illegal action; the match stopped there.
    pub illegal: Option<IllegalChoice>,
}

impl MatchRecord {
    /// True if `seat` won: it is the winner's seat or on the winner's team.
    pub fn won(&self, seat: usize) -> bool {
        match (self.ending, self.winner, self.teams) {
            (Ending::Finished, Some(w), None) => w as usize == seat,
            (Ending::Finished, Some(w), Some(t)) => t[w as usize] == t[seat],
            _ => false,
        }
    }
}

/// A game with its bots and rule settings, ready to play matches.
pub trait MatchGame: Sync {
    /// Game name, e.g. `spit`.
    fn name(&self) -> &'static str;
    /// Number of seats (= number of bots).
    fn seats(&self) -> usize;
    /// The metrics each [`MatchRecord`] carries.
    fn metrics(&self) -> &'static [MetricDef];
    /// True if each [`MatchRecord`] carries points and ranks per seat, which the runner
    /// then aggregates ([`PointStats`]) and the CSV reports. Default: no.
    fn reports_points(&self) -> bool {
        false
    }
    /// True if each [`MatchRecord`] carries the seats' points for the bot protocol's
    /// `match_end` message (docs/bot-protocol.md section 3.5), also where the runner
    /// does not aggregate them (Speed's match points). Default: [`MatchGame::reports_points`].
    fn end_points(&self) -> bool {
        self.reports_points()
    }
    /// The per-seat rates each [`MatchRecord`] counts, aggregated per bot with an
    /// interval; `None` (the default) for games without them.
    fn rates(&self) -> Option<&'static RateSet> {
        None
    }
    /// Plays one match. `seat_bots[s]` is the index of the bot sitting in seat `s`.
    /// Cards and every hidden card come from the deal's seeds, so that every seating of
    /// a deal sees the same cards; reactions and bots' dice from the seat's player stream.
    fn play(&self, seat_bots: &[usize], seeds: &MatchSeeds) -> MatchRecord;
}

/// Which seat orders each deal is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatingDesign {
    /// Every seat order when there are at most 4 players (2, 6 or 24 per deal); with 5 or
    /// more, a random order per deal played under its n rotations and the n rotations
    /// of its reverse, so every bot sits in every seat and after each neighbour equally
    /// often on average. Results do not depend on the order the bots are listed in.
    All,
    /// The n rotations of the listed order (a bot always has the same neighbours).
    Rotations,
    /// One seating per deal: bot i in seat i.
    One,
}

/// Seatings per deal for `n` players under `design`.
pub fn seatings_per_deal(design: SeatingDesign, n: usize) -> u64 {
    match design {
        SeatingDesign::All if n <= 4 => (1..=n as u64).product(),
        SeatingDesign::All => 2 * n as u64,
        SeatingDesign::Rotations => n as u64,
        SeatingDesign::One => 1,
    }
}

/// Seating `k` of a deal: `seat_bots[s]` is the bot sitting in seat `s`.
pub fn seating(design: SeatingDesign, n: usize, deal_seed: u64, k: u64) -> [usize; MAX_SEATS] {
    let mut seat_bots = [0usize; MAX_SEATS];
    for (s, b) in seat_bots[..n].iter_mut().enumerate() {
        *b = s;
    }
    match design {
        SeatingDesign::One => {}
        SeatingDesign::Rotations => seat_bots[..n].rotate_left(k as usize % n),
        SeatingDesign::All if n <= 4 => {
            // The k-th permutation in lexicographic order (factorial number system).
            let mut pool = seat_bots;
            let mut rest = k;
            for (s, slot) in seat_bots[..n].iter_mut().enumerate() {
                let f: u64 = (1..(n - s) as u64).product();
                let pick = (rest / f) as usize;
                rest %= f;
                *slot = pool[pick];
                pool.copy_within(pick + 1..n - s, pick);
            }
        }
        SeatingDesign::All => {
            // A random order drawn from the deal, then rotation k % n of it or of its reverse.
            let mut rng = crate::rng::rng_from(crate::rng::mix(&[deal_seed, 0x7365_6174]));
            for i in (1..n).rev() {
                seat_bots.swap(i, rand::RngExt::random_range(&mut rng, 0..=i));
            }
            if k >= n as u64 {
                seat_bots[..n].reverse();
            }
            seat_bots[..n].rotate_left(k as usize % n);
        }
    }
    seat_bots
}

/// For each bot, its rank among the bots with the same label (0 for a bot without a
/// twin), which keeps the player streams of identical bots apart.
pub fn twin_ranks(labels: &[String]) -> Vec<usize> {
    (0..labels.len()).map(|i| labels[..i].iter().filter(|l| **l == labels[i]).count()).collect()
}

/// How many matches to run and how.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Matches requested; rounded up to a whole number of deals.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Seat orders each deal is played under.
    pub seating: SeatingDesign,
    /// Per bot, its rank among identical bots (see [`twin_ranks`]).
    pub twin_rank: Vec<usize>,
    /// Show no progress bar.
    pub quiet: bool,
}

impl RunConfig {
    /// Every seating, `bots` distinct bots, no progress bar (tests, benchmarks).
    pub fn distinct(games: u64, seed: u64, bots: usize) -> RunConfig {
        RunConfig { games, seed, seating: SeatingDesign::All, twin_rank: vec![0; bots], quiet: true }
    }
    /// Seatings per deal for `seats` players.
    pub fn seatings(&self, seats: usize) -> u64 {
        seatings_per_deal(self.seating, seats)
    }
    /// Number of deals needed for at least `games` matches.
    pub fn deals(&self, seats: usize) -> u64 {
        self.games.div_ceil(self.seatings(seats))
    }
    /// Who sits where in match `index` of the run, and its seeds: match `index` is
    /// seating `index % seatings` of deal `index / seatings`. The seeds depend on the
    /// deal and on who sits where, never on the seating's number.
    pub fn match_at(&self, seats: usize, index: u64) -> ([usize; MAX_SEATS], MatchSeeds) {
        let per = self.seatings(seats);
        let ds = deal_seed(self.seed, index / per);
        let seat_bots = seating(self.seating, seats, ds, index % per);
        let mut ranks = [0usize; MAX_SEATS];
        for s in 0..seats {
            ranks[s] = self.twin_rank[seat_bots[s]];
        }
        (seat_bots, MatchSeeds::new(ds, &ranks[..seats]))
    }
}

/// Exact aggregate of a matchup: counts and histograms only, so that merging partial
/// results in any order gives the same numbers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MatchupStats {
    /// Seats in the game.
    pub seats: usize,
    /// Seatings each deal was played under.
    pub seatings: u64,
    /// `games[bot][seat]`: matches bot played in seat.
    pub games: Vec<Vec<u64>>,
    /// `wins[bot][seat]`.
    pub wins: Vec<Vec<u64>>,
    /// `after_games[bot][other]`: matches in which `other` sat just before `bot` (plays
    /// right before it; seat s − 1, wrapping).
    pub after_games: Vec<Vec<u64>>,
    /// `after_wins[bot][other]`: those of them that `bot` won.
    pub after_wins: Vec<Vec<u64>>,
    /// Finished matches without a winner.
    pub draws: u64,
    /// Matches stopped at the cap.
    pub capped: u64,
    /// Matches stopped because play repeated a position.
    pub cycled: u64,
    /// `deal_wins[bot][k]`: deals in which the bot won k of its seatings.
    pub deal_wins: Vec<Vec<u64>>,
    /// `deal_score[bot][t]`: deals in which the bot's summed score was `t` units, where a
    /// win is `seats` units (for each seat of a winning team) and a match without a
    /// winner gives every seat 1 unit (an equal share); the deal score is
    /// `t / (seats × seatings)`.
    pub deal_score: Vec<Vec<u64>>,
    /// `seat_deal_score[seat][t]`: the same for whoever sat in the seat: deals in which
    /// the seat's summed score over the deal's seatings was `t` units. It gives the seat
    /// rows a standard error that counts the deal as the independent unit.
    pub seat_deal_score: Vec<Vec<u64>>,
    /// One histogram per metric, over finished matches only.
    pub metrics: Vec<Histogram>,
    /// Points and ranks, for games that report them ([`MatchGame::reports_points`]).
    pub points: Option<PointStats>,
    /// Per-seat rates, for games that count them ([`MatchGame::rates`]).
    pub rates: Option<RateStats>,
    /// Actions over every match ([`MatchRecord::actions`]).
    pub actions: u64,
    /// The metric that measures a match's length ([`length_metric`]).
    pub length_metric: usize,
    /// The strategy bug of the earliest match in which a strategy chose an illegal
    /// action, if any: the run's figures are then void and the command reports it.
    #[serde(default)]
    pub strategy_bug: Option<StrategyBug>,
}

/// Exact aggregate of a game's per-seat rates ([`MatchGame::rates`]), every match
/// included.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RateStats {
    /// What is counted (not serialised: a partial state is merged into stats made for
    /// the game, which carry it).
    #[serde(skip)]
    pub set: RateSet,
    /// `exposure[bot][seat]`: the bot's exposure in that seat (e.g. deals played).
    pub exposure: Vec<Vec<u64>>,
    /// `counts[bot][seat][r]`: the bot's count of rate `r` in that seat.
    pub counts: Vec<Vec<[u64; MAX_RATES]>>,
    /// `deal_exposure_sq[bot]`: over deals, the square of the bot's exposure summed over
    /// the deal's seatings.
    pub deal_exposure_sq: Vec<u128>,
    /// `deal_count_sq[bot][r]`: over deals, the square of the bot's per-deal count.
    pub deal_count_sq: Vec<[u128; MAX_RATES]>,
    /// `deal_cross[bot][r]`: over deals, per-deal count times per-deal exposure.
    pub deal_cross: Vec<[u128; MAX_RATES]>,
}

impl RateStats {
    fn new(set: RateSet, seats: usize) -> Self {
        RateStats {
            set,
            exposure: vec![vec![0; seats]; seats],
            counts: vec![vec![[0; MAX_RATES]; seats]; seats],
            deal_exposure_sq: vec![0; seats],
            deal_count_sq: vec![[0; MAX_RATES]; seats],
            deal_cross: vec![[0; MAX_RATES]; seats],
        }
    }
    fn merge(&mut self, other: &RateStats) {
        self.exposure.iter_mut().flatten().zip(other.exposure.iter().flatten()).for_each(|(a, b)| *a += b);
        self.counts.iter_mut().flatten().flatten().zip(other.counts.iter().flatten().flatten()).for_each(|(a, b)| *a += b);
        self.deal_exposure_sq.iter_mut().zip(&other.deal_exposure_sq).for_each(|(a, b)| *a += b);
        self.deal_count_sq.iter_mut().flatten().zip(other.deal_count_sq.iter().flatten()).for_each(|(a, b)| *a += b);
        self.deal_cross.iter_mut().flatten().zip(other.deal_cross.iter().flatten()).for_each(|(a, b)| *a += b);
    }
    /// Rate `r` of `bots` over `seats`: their counts over their exposure (NaN without).
    pub fn rate(&self, bots: &[usize], seats: &[usize], r: usize) -> f64 {
        let sum = |f: &dyn Fn(usize, usize) -> u64| -> u64 { bots.iter().flat_map(|&b| seats.iter().map(move |&s| (b, s))).map(|(b, s)| f(b, s)).sum() };
        sum(&|b, s| self.counts[b][s][r]) as f64 / sum(&|b, s| self.exposure[b][s]) as f64
    }
    /// Rate `r` of `bot` over all seats and its standard error with the deal as the
    /// independent unit: the ratio estimator R = X / Y of per-deal counts x and
    /// exposures y, SE = sqrt(sum over deals of (x - R y)^2) / Y (the delta method; it
    /// equals the paired SE of a mean when every deal has the same exposure).
    pub fn rate_and_se(&self, bot: usize, r: usize) -> (f64, f64) {
        let x: u64 = self.counts[bot].iter().map(|c| c[r]).sum();
        let y: u64 = self.exposure[bot].iter().sum();
        let (x, y) = (x as f64, y as f64);
        let rate = x / y;
        let ss = self.deal_count_sq[bot][r] as f64 - 2.0 * rate * self.deal_cross[bot][r] as f64 + rate * rate * self.deal_exposure_sq[bot] as f64;
        (rate, ss.max(0.0).sqrt() / y)
    }
}

/// Exact aggregate of the points and ranks of a game that reports them, every match
/// included (capped and cycled ones with the points so far).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PointStats {
    /// `sum[bot][seat]`: the bot's points summed over its matches in that seat.
    pub sum: Vec<Vec<i64>>,
    /// `deal_sum[bot]`: over deals, the bot's points summed over the deal's seatings.
    pub deal_sum: Vec<i128>,
    /// `deal_sum_sq[bot]`: over deals, the square of that per-deal sum.
    pub deal_sum_sq: Vec<i128>,
    /// `ranks[bot][seat][r]`: matches in which the bot, in that seat, finished at rank r.
    pub ranks: Vec<Vec<Vec<u64>>>,
}

impl PointStats {
    fn new(seats: usize) -> Self {
        PointStats { sum: vec![vec![0; seats]; seats], deal_sum: vec![0; seats], deal_sum_sq: vec![0; seats], ranks: vec![vec![vec![0; seats]; seats]; seats] }
    }
    fn merge(&mut self, other: &PointStats) {
        self.sum.iter_mut().flatten().zip(other.sum.iter().flatten()).for_each(|(a, b)| *a += b);
        self.deal_sum.iter_mut().zip(&other.deal_sum).for_each(|(a, b)| *a += b);
        self.deal_sum_sq.iter_mut().zip(&other.deal_sum_sq).for_each(|(a, b)| *a += b);
        self.ranks.iter_mut().flatten().flatten().zip(other.ranks.iter().flatten().flatten()).for_each(|(a, b)| *a += b);
    }
    /// Mean points per match of `bot` and the standard error of that mean counting the
    /// pairing: the deal is the independent unit, its value the bot's mean points over
    /// the deal's `seatings`, and the SE is sqrt(population variance / deals), as for
    /// the paired score. `(NaN, NaN)` without deals.
    pub fn mean_and_se(&self, bot: usize, deals: u64, seatings: u64) -> (f64, f64) {
        let (d, k) = (deals as f64, seatings as f64);
        let mean = self.deal_sum[bot] as f64 / (d * k);
        let variance = (self.deal_sum_sq[bot] as f64 / (d * k * k) - mean * mean).max(0.0);
        (mean, (variance / d).sqrt())
    }
}

/// What one deal's seatings add up to for each bot, before [`MatchupStats::end_deal`].
#[derive(Clone, Copy, Debug, Default)]
pub struct DealTally {
    /// Score units (see [`MatchupStats::deal_score`]).
    pub units: [u64; MAX_SEATS],
    /// Score units per seat (see [`MatchupStats::seat_deal_score`]).
    pub seat_units: [u64; MAX_SEATS],
    /// Seatings won.
    pub won: [usize; MAX_SEATS],
    /// Points.
    pub points: [i64; MAX_SEATS],
    /// Exposure (games with rates).
    pub exposure: [u64; MAX_SEATS],
    /// Counts of each rate (games with rates).
    pub counts: [[u64; MAX_RATES]; MAX_SEATS],
    /// The length metric ([`length_metric`]) summed over the deal's matches, capped and
    /// cycled ones included (for paired comparisons of length).
    pub length: u64,
}

impl MatchupStats {
    /// Empty stats for a game shape; `points` for games that report points.
    pub fn new(seats: usize, seatings: u64, n_metrics: usize, points: bool) -> Self {
        Self::with_rates(seats, seatings, n_metrics, points, None)
    }
    /// Empty stats for `game` with `seatings` seatings per deal.
    pub fn for_game(game: &dyn MatchGame, seatings: u64) -> Self {
        let mut s = Self::with_rates(game.seats(), seatings, game.metrics().len(), game.reports_points(), game.rates().copied());
        s.length_metric = length_metric(game.metrics());
        s
    }
    /// Empty stats for a game shape that also counts `rates`.
    pub fn with_rates(seats: usize, seatings: u64, n_metrics: usize, points: bool, rates: Option<RateSet>) -> Self {
        let square = vec![vec![0; seats]; seats];
        MatchupStats {
            seats,
            seatings,
            games: square.clone(),
            wins: square.clone(),
            after_games: square.clone(),
            after_wins: square,
            draws: 0,
            capped: 0,
            cycled: 0,
            deal_wins: vec![vec![0; seatings as usize + 1]; seats],
            deal_score: vec![vec![0; seats * seatings as usize + 1]; seats],
            seat_deal_score: vec![vec![0; seats * seatings as usize + 1]; seats],
            metrics: vec![Histogram::new(); n_metrics],
            points: points.then(|| PointStats::new(seats)),
            rates: rates.map(|set| RateStats::new(set, seats)),
            actions: 0,
            length_metric: 0,
            strategy_bug: None,
        }
    }
    /// Adds everything counted in `other`.
    pub fn merge(&mut self, other: &MatchupStats) {
        let add = |a: &mut Vec<Vec<u64>>, b: &Vec<Vec<u64>>| {
            a.iter_mut().zip(b).for_each(|(x, y)| x.iter_mut().zip(y).for_each(|(p, q)| *p += q))
        };
        add(&mut self.games, &other.games);
        add(&mut self.wins, &other.wins);
        add(&mut self.after_games, &other.after_games);
        add(&mut self.after_wins, &other.after_wins);
        add(&mut self.deal_wins, &other.deal_wins);
        add(&mut self.deal_score, &other.deal_score);
        add(&mut self.seat_deal_score, &other.seat_deal_score);
        self.draws += other.draws;
        self.capped += other.capped;
        self.cycled += other.cycled;
        self.actions += other.actions;
        self.metrics.iter_mut().zip(&other.metrics).for_each(|(a, b)| a.merge(b));
        if let (Some(a), Some(b)) = (&mut self.points, &other.points) {
            a.merge(b);
        }
        if let (Some(a), Some(b)) = (&mut self.rates, &other.rates) {
            a.merge(b);
        }
        if let Some(b) = other.strategy_bug {
            self.note_bug(b);
        }
    }
    /// Keeps `bug` if it happened in an earlier match than the one kept so far (so the
    /// report does not depend on the order deals finish in).
    fn note_bug(&mut self, bug: StrategyBug) {
        if self.strategy_bug.is_none_or(|k| bug.match_index < k.match_index) {
            self.strategy_bug = Some(bug);
        }
    }
    /// `Err` with the one-line report of the first strategy bug of the run, if any
    /// (see [`StrategyBug::message`]).
    pub fn check_strategies(&self, labels: &[String], seed: u64, repro: &str) -> Result<(), String> {
        match self.strategy_bug {
            None => Ok(()),
            Some(bug) => Err(bug.message(labels, bug.match_index / self.seatings, seed, repro)),
        }
    }
    /// Makes room for `matches` more finished matches in the length histograms, so
    /// that recording them allocates nothing.
    pub fn reserve(&mut self, matches: u64) {
        self.metrics.iter_mut().for_each(|h| h.reserve(matches as usize));
    }
    /// Total matches played.
    pub fn total_games(&self) -> u64 {
        self.games[0].iter().sum()
    }
    /// Deals played.
    pub fn deals(&self) -> u64 {
        self.deal_wins[0].iter().sum()
    }
    /// Records one match played with `seat_bots` and adds what each bot got to the
    /// deal's `tally`.
    pub fn record(&mut self, seat_bots: &[usize], rec: &MatchRecord, tally: &mut DealTally) {
        let n = seat_bots.len();
        let decided = rec.ending == Ending::Finished && rec.winner.is_some();
        for (seat, &bot) in seat_bots.iter().enumerate() {
            self.games[bot][seat] += 1;
            let before = seat_bots[(seat + n - 1) % n];
            self.after_games[bot][before] += 1;
            if rec.won(seat) {
                self.wins[bot][seat] += 1;
                self.after_wins[bot][before] += 1;
                tally.units[bot] += n as u64;
                tally.seat_units[seat] += n as u64;
                tally.won[bot] += 1;
            } else if !decided {
                tally.units[bot] += 1;
                tally.seat_units[seat] += 1;
            }
            if let Some(pts) = &mut self.points {
                debug_assert!((rec.rank[seat] as usize) < n, "rank {} of seat {seat} with {n} seats", rec.rank[seat]);
                debug_assert!(rec.teams.is_none_or(|t| (0..n).all(|q| t[q] != t[seat] || (rec.points[q], rec.rank[q]) == (rec.points[seat], rec.rank[seat]))), "a team shares its points and rank");
                pts.sum[bot][seat] += rec.points[seat] as i64;
                pts.ranks[bot][seat][rec.rank[seat] as usize] += 1;
                tally.points[bot] += rec.points[seat] as i64;
            }
            if let Some(rates) = &mut self.rates {
                rates.exposure[bot][seat] += rec.exposure[seat] as u64;
                tally.exposure[bot] += rec.exposure[seat] as u64;
                for r in 0..rates.set.rates.len() {
                    rates.counts[bot][seat][r] += rec.counts[seat][r] as u64;
                    tally.counts[bot][r] += rec.counts[seat][r] as u64;
                }
            }
        }
        self.actions += rec.actions;
        tally.length += rec.metrics[self.length_metric];
        match rec.ending {
            Ending::Capped => self.capped += 1,
            Ending::Cycled => self.cycled += 1,
            Ending::Finished => {
                self.draws += !decided as u64;
                for (h, &v) in self.metrics.iter_mut().zip(&rec.metrics) {
                    h.add(v);
                }
            }
        }
    }
    /// Adds a deal whose seatings were all recorded into `tally`.
    pub fn end_deal(&mut self, tally: &DealTally) {
        for b in 0..self.seats {
            self.deal_wins[b][tally.won[b]] += 1;
            self.deal_score[b][tally.units[b] as usize] += 1;
            self.seat_deal_score[b][tally.seat_units[b] as usize] += 1;
            if let Some(pts) = &mut self.points {
                let p = tally.points[b] as i128;
                pts.deal_sum[b] += p;
                pts.deal_sum_sq[b] += p * p;
            }
            if let Some(rates) = &mut self.rates {
                let y = tally.exposure[b] as u128;
                rates.deal_exposure_sq[b] += y * y;
                for r in 0..rates.set.rates.len() {
                    let x = tally.counts[b][r] as u128;
                    rates.deal_count_sq[b][r] += x * x;
                    rates.deal_cross[b][r] += x * y;
                }
            }
        }
    }
}

/// The metric that measures a match's length in paired comparisons: simulated
/// `seconds` where a game has them, else its first metric.
pub fn length_metric(metrics: &[MetricDef]) -> usize {
    metrics.iter().position(|m| m.name == "seconds").unwrap_or(0)
}

/// Plays deal `deal` under every seating, adds it to `stats` and returns what each
/// bot got in it.
pub fn play_deal(game: &dyn MatchGame, cfg: &RunConfig, deal: u64, stats: &mut MatchupStats) -> DealTally {
    let seats = game.seats();
    let mut tally = DealTally::default();
    for k in 0..stats.seatings {
        let index = deal * stats.seatings + k;
        let (seat_bots, seeds) = cfg.match_at(seats, index);
        let rec = game.play(&seat_bots[..seats], &seeds);
        if let Some(choice) = rec.illegal {
            stats.note_bug(StrategyBug { match_index: index, seat_bots: std::array::from_fn(|s| seat_bots[s] as u8), choice });
        }
        stats.record(&seat_bots[..seats], &rec, &mut tally);
    }
    stats.end_deal(&tally);
    tally
}

/// Most deals per parallel work item (also the progress bar's step).
const MAX_CHUNK: u64 = 256;

/// Fewest deals per work item once a run has [`MIN_CHUNKS`] items of that size: each
/// item's statistics are merged into the total at its end (about 15,000 instructions for
/// a matchup, as much as a few Speed matches), so items are not made smaller than this
/// for the sake of more of them.
const MIN_CHUNK: u64 = 16;

/// Work items a run is split into at least, where it has that many deals: enough for
/// every thread to stay busy and the progress bar to move.
const MIN_CHUNKS: u64 = 64;

/// Deals per work item for a run of `deals`: about a 1,024th of the run, between
/// [`MIN_CHUNK`] (fewer for a run shorter than [`MIN_CHUNKS`] such items, down to one deal
/// per item, so that a short run of a slow game still keeps every thread busy) and
/// [`MAX_CHUNK`]. The aggregate is exact integers, so the chunking never changes it.
fn chunk_size(deals: u64) -> u64 {
    let least = (deals / MIN_CHUNKS).clamp(1, MIN_CHUNK);
    (deals / 1024).clamp(least, MAX_CHUNK)
}

/// Runs a matchup on the current rayon pool and returns its exact aggregate.
pub fn run(game: &dyn MatchGame, cfg: &RunConfig) -> MatchupStats {
    let seatings = cfg.seatings(game.seats());
    let deals = cfg.deals(game.seats());
    let bar = progress_bar(deals * seatings, cfg.quiet, game.name());
    let stats = run_deals(game, cfg, 0..deals, &bar);
    bar.finish_and_clear();
    stats
}

/// Plays deals `deals` of a matchup on the current rayon pool, advancing `bar` by the
/// matches played, and returns their exact aggregate (the same on any thread count).
pub fn run_deals(game: &dyn MatchGame, cfg: &RunConfig, deals: std::ops::Range<u64>, bar: &ProgressBar) -> MatchupStats {
    let seatings = cfg.seatings(game.seats());
    let empty = |deals: u64| {
        let mut stats = MatchupStats::for_game(game, seatings);
        stats.reserve(deals * seatings);
        stats
    };
    for_deals(
        deals,
        empty,
        |s, deal| {
            play_deal(game, cfg, deal, s);
            bar.inc(seatings);
        },
        |a, b| a.merge(&b),
    )
}

/// Plays `deals` in parallel chunks on the current rayon pool: each chunk starts from
/// `empty(k)` (`k`: the deals it will play, 0 for a merge's start), `play` adds one deal to it, and `merge` folds the chunks together. With
/// exact integer aggregates the result is the same on any thread count. After Ctrl-C
/// ([`crate::interrupt`]) the deals not yet started are skipped: the result then covers
/// only the deals that finished.
pub fn for_deals<S: Send>(deals: std::ops::Range<u64>, empty: impl Fn(u64) -> S + Sync + Send, play: impl Fn(&mut S, u64) + Sync + Send, merge: impl Fn(&mut S, S) + Sync + Send) -> S {
    let first = deals.start;
    let chunk_len = chunk_size(deals.end - first);
    (0..(deals.end - first).div_ceil(chunk_len))
        .into_par_iter()
        .map(|chunk| {
            let chunk_deals = first + chunk * chunk_len..(first + (chunk + 1) * chunk_len).min(deals.end);
            let mut s = empty(chunk_deals.end - chunk_deals.start);
            for deal in chunk_deals {
                if crate::interrupt::requested() {
                    break;
                }
                play(&mut s, deal);
            }
            s
        })
        .reduce(|| empty(0), |mut a, b| {
            merge(&mut a, b);
            a
        })
}

/// A progress bar for `total` matches on stderr (hidden with `quiet` or when stderr is
/// not a terminal).
pub fn progress_bar(total: u64, quiet: bool, label: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:40}] {human_pos}/{human_len} matches  {rate}  eta {eta}")
            .expect("valid template")
            .with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0} matches/s", s.per_sec());
            })
            .progress_chars("=> "),
    );
    bar.set_prefix(label.to_string());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_a_1024th_of_a_run_within_their_bounds() {
        // One deal per item below 128 deals (at least 64 items), 16 from 1,024 deals.
        assert_eq!([1, 10, 127, 128, 640, 1_024, 20_000, 100_000, 10_000_000].map(chunk_size), [1, 1, 1, 2, 10, 16, 19, 97, 256]);
    }

    /// A toy game: the winner and the ending are drawn from the seeds; one metric.
    struct Toy {
        seats: usize,
    }
    static TOY_METRICS: [MetricDef; 1] = [MetricDef { name: "len", scale: 1, doc: "" }];
    impl MatchGame for Toy {
        fn name(&self) -> &'static str { "toy" }
        fn seats(&self) -> usize { self.seats }
        fn metrics(&self) -> &'static [MetricDef] { &TOY_METRICS }
        fn play(&self, seat_bots: &[usize], seeds: &MatchSeeds) -> MatchRecord {
            let h = crate::rng::mix(&[seeds.deal, seeds.players[0], seat_bots[0] as u64]);
            let ending = match h % 50 {
                0 => Ending::Capped,
                1 => Ending::Cycled,
                _ => Ending::Finished,
            };
            let winner = (h % 7 != 3).then_some(((h >> 8) % self.seats as u64) as u8);
            let mut metrics = [0; MAX_METRICS];
            metrics[0] = (h >> 20) % 100;
            MatchRecord { winner, ending, metrics, ..MatchRecord::default() }
        }
    }

    #[test]
    fn seatings_per_deal_by_design() {
        let per: Vec<u64> = (2..=MAX_SEATS).map(|n| seatings_per_deal(SeatingDesign::All, n)).collect();
        assert_eq!(per, [2, 6, 24, 10, 12, 14, 16]);
        assert_eq!(seatings_per_deal(SeatingDesign::Rotations, 3), 3);
        assert_eq!(seatings_per_deal(SeatingDesign::One, 4), 1);
    }

    #[test]
    fn all_design_plays_every_seat_order_once_up_to_four_players() {
        for n in 2..=4 {
            let per = seatings_per_deal(SeatingDesign::All, n);
            let mut seen: Vec<Vec<usize>> = (0..per).map(|k| seating(SeatingDesign::All, n, 77, k)[..n].to_vec()).collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len() as u64, per, "{n} players: every seating distinct");
            assert!(seen.iter().all(|p| { let mut q = p.clone(); q.sort(); q == (0..n).collect::<Vec<_>>() }), "each is a permutation");
        }
    }

    #[test]
    fn balanced_design_from_five_to_eight_balances_seats_and_neighbours() {
        for n in 5..=MAX_SEATS {
            let per = seatings_per_deal(SeatingDesign::All, n);
            assert_eq!(per, 2 * n as u64);
            for deal in 0..20u64 {
                let mut in_seat = [[0; MAX_SEATS]; MAX_SEATS];
                let mut after = [[0; MAX_SEATS]; MAX_SEATS];
                for k in 0..per {
                    let sb = seating(SeatingDesign::All, n, deal, k);
                    for s in 0..n {
                        in_seat[sb[s]][s] += 1;
                        after[sb[s]][sb[(s + n - 1) % n]] += 1;
                    }
                }
                assert!(in_seat[..n].iter().all(|row| row[..n].iter().all(|&c| c == 2)), "{n} players: every bot twice in every seat within a deal: {in_seat:?}");
                for row in &after[..n] {
                    let mut nonzero: Vec<i32> = row.iter().copied().filter(|&c| c > 0).collect();
                    nonzero.sort();
                    assert_eq!(nonzero, [n as i32, n as i32], "{n} players: each bot follows each of its two neighbours {n} times: {row:?}");
                }
            }
        }
    }

    #[test]
    fn rotations_and_one_follow_the_listed_order() {
        assert_eq!(seating(SeatingDesign::Rotations, 3, 1, 1)[..3], [1, 2, 0]);
        assert_eq!(seating(SeatingDesign::One, 3, 1, 0)[..3], [0, 1, 2]);
    }

    #[test]
    fn twins_get_their_own_rank() {
        let labels: Vec<String> = ["a", "b", "a", "a"].iter().map(|s| s.to_string()).collect();
        assert_eq!(twin_ranks(&labels), [0, 0, 1, 2]);
    }

    #[test]
    fn seeds_depend_on_who_sits_where_not_on_the_seating_number() {
        let cfg = RunConfig::distinct(10, 5, 3);
        // Two seatings of one deal share the deal seed; each seat keeps its stream.
        let (a, sa) = cfg.match_at(3, 0);
        let (b, sb) = cfg.match_at(3, 1);
        assert_ne!(a, b);
        assert_eq!(sa, sb, "distinct bots: the seeds are the deal's and the seats'");
        let twins = RunConfig { twin_rank: vec![0, 1, 0], ..cfg };
        let (_, t0) = twins.match_at(3, 0);
        let (_, t1) = twins.match_at(3, 2);
        assert_ne!(t0.players, t1.players, "a twin moving seats changes that seat's stream");
    }

    #[test]
    fn counts_add_up_and_lengths_cover_finished_matches_only() {
        let s = run(&Toy { seats: 3 }, &RunConfig::distinct(6000, 3, 3));
        let total = s.total_games();
        assert_eq!(total, 6000);
        assert_eq!(s.deals(), 1000);
        assert!(s.capped > 0 && s.cycled > 0, "the toy caps and cycles some matches");
        let wins: u64 = s.wins.iter().flatten().sum();
        assert_eq!(wins + s.draws + s.capped + s.cycled, total);
        assert_eq!(s.metrics[0].count(), total - s.capped - s.cycled);
        for b in 0..3 {
            assert_eq!(s.deal_score[b].iter().sum::<u64>(), 1000);
            assert_eq!(s.after_games[b].iter().sum::<u64>(), total, "every bot plays every match");
            assert_eq!(s.after_games[b][b], 0, "nobody plays right after himself");
            // Deal score units: a win is 3, a match without a winner 1 each.
            let units: u64 = s.deal_score[b].iter().enumerate().map(|(t, c)| t as u64 * c).sum();
            let own_wins: u64 = s.wins[b].iter().sum();
            assert_eq!(units, 3 * own_wins + (s.draws + s.capped + s.cycled));
        }
    }

    #[test]
    fn merging_parts_equals_the_whole_including_capped_and_cycled() {
        let game = Toy { seats: 2 };
        let cfg = RunConfig::distinct(4000, 9, 2);
        let whole = run(&game, &cfg);
        let mut parts = MatchupStats::new(2, 2, 1, false);
        let mut other = MatchupStats::new(2, 2, 1, false);
        for deal in 0..2000 {
            play_deal(&game, &cfg, deal, if deal % 3 == 0 { &mut parts } else { &mut other });
        }
        parts.merge(&other);
        assert_eq!(parts, whole);
        assert!(whole.capped > 0 && whole.cycled > 0);
    }

    #[test]
    fn result_does_not_depend_on_thread_count() {
        let cfg = RunConfig::distinct(5000, 9, 4);
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| run(&Toy { seats: 4 }, &cfg));
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| run(&Toy { seats: 4 }, &cfg));
        assert_eq!(one, two);
    }

    /// A toy game with points: each deal gives every bot fixed points (whatever its
    /// seat), ranks follow the points with ties, the top scorer wins (a tie at the top is
    /// a draw). `table[d][bot]` are the points in deal `d`.
    struct PointsToy {
        deal_seeds: Vec<u64>,
        table: Vec<Vec<i32>>,
    }
    impl PointsToy {
        fn new(seed: u64, table: Vec<Vec<i32>>) -> Self {
            PointsToy { deal_seeds: (0..table.len() as u64).map(|d| deal_seed(seed, d)).collect(), table }
        }
    }
    impl MatchGame for PointsToy {
        fn name(&self) -> &'static str { "points-toy" }
        fn seats(&self) -> usize { self.table[0].len() }
        fn metrics(&self) -> &'static [MetricDef] { &[] }
        fn reports_points(&self) -> bool { true }
        fn play(&self, seat_bots: &[usize], seeds: &MatchSeeds) -> MatchRecord {
            let d = self.deal_seeds.iter().position(|&x| x == seeds.deal).expect("a deal of the table");
            let mut rec = MatchRecord::default();
            for (seat, &bot) in seat_bots.iter().enumerate() {
                rec.points[seat] = self.table[d][bot];
            }
            for seat in 0..seat_bots.len() {
                rec.rank[seat] = (0..seat_bots.len()).filter(|&q| rec.points[q] > rec.points[seat]).count() as u8;
            }
            let top: Vec<usize> = (0..seat_bots.len()).filter(|&q| rec.rank[q] == 0).collect();
            rec.winner = (top.len() == 1).then_some(top[0] as u8);
            rec
        }
    }

    #[test]
    fn points_and_rank_shares_by_hand_with_ties() {
        // Deal 0: a 3, b 3, c 1 (a and b tie for first: a draw, ranks 0 0 2);
        // deal 1: a 0, b 2, c 4 (c wins; ranks 2 1 0). Six seatings per deal.
        let game = PointsToy::new(4, vec![vec![3, 3, 1], vec![0, 2, 4]]);
        let s = run(&game, &RunConfig::distinct(12, 4, 3));
        let pts = s.points.as_ref().expect("the game reports points");
        assert_eq!((s.total_games(), s.deals(), s.draws), (12, 2, 6));
        assert_eq!(s.wins[2].iter().sum::<u64>(), 6, "c wins every seating of deal 1");
        // Deal means: a 3 and 0 (mean 1.5, population variance 2.25, SE sqrt(2.25 / 2));
        // b 3 and 2 (2.5, 0.25, sqrt(0.125)); c 1 and 4 (2.5, 2.25).
        let close = |(m, se): (f64, f64), (em, ese): (f64, f64)| assert!((m - em).abs() < 1e-12 && (se - ese).abs() < 1e-12, "{m} ± {se}, expected {em} ± {ese}");
        close(pts.mean_and_se(0, s.deals(), s.seatings), (1.5, 1.125f64.sqrt()));
        close(pts.mean_and_se(1, s.deals(), s.seatings), (2.5, 0.125f64.sqrt()));
        close(pts.mean_and_se(2, s.deals(), s.seatings), (2.5, 1.125f64.sqrt()));
        assert_eq!((pts.deal_sum.clone(), pts.deal_sum_sq.clone()), (vec![18, 30, 30], vec![18 * 18, 18 * 18 + 12 * 12, 6 * 6 + 24 * 24]));
        // Rank counts over all seats: a 6 first (tied) and 6 third; b 6 first, 6 second;
        // c 6 third, 6 first. Every bot sits in every seat twice per deal.
        let by_rank = |b: usize| (0..3).map(|r| pts.ranks[b].iter().map(|seat| seat[r]).sum::<u64>()).collect::<Vec<_>>();
        assert_eq!([by_rank(0), by_rank(1), by_rank(2)], [vec![6, 0, 6], vec![6, 6, 0], vec![6, 0, 6]]);
        assert!(pts.ranks.iter().flatten().all(|seat| seat.iter().sum::<u64>() == 4), "each bot 4 times in each seat");
        assert_eq!(pts.sum[0], vec![6, 6, 6], "a: 2 x 3 + 2 x 0 points in each seat");
    }

    /// Four seats in two teams (seats 0 and 2 against 1 and 3): the team with bot 0
    /// wins and scores 2 points, the other 0.
    struct TeamToy;
    impl MatchGame for TeamToy {
        fn name(&self) -> &'static str { "team-toy" }
        fn seats(&self) -> usize { 4 }
        fn metrics(&self) -> &'static [MetricDef] { &[] }
        fn reports_points(&self) -> bool { true }
        fn play(&self, seat_bots: &[usize], _: &MatchSeeds) -> MatchRecord {
            let zero = seat_bots.iter().position(|&b| b == 0).unwrap();
            let mut rec = MatchRecord { winner: Some(zero as u8), teams: Some(std::array::from_fn(|s| (s % 2) as u8)), ..MatchRecord::default() };
            for seat in 0..4 {
                let with_zero = seat % 2 == zero % 2;
                (rec.points[seat], rec.rank[seat]) = if with_zero { (2, 0) } else { (0, 1) };
            }
            rec
        }
    }

    #[test]
    fn a_team_shares_its_win_points_and_rank() {
        // Under every seat order (24 per deal) each other bot is bot 0's partner in 8.
        let s = run(&TeamToy, &RunConfig::distinct(48, 1, 4));
        let pts = s.points.as_ref().unwrap();
        let wins: Vec<u64> = s.wins.iter().map(|w| w.iter().sum()).collect();
        assert_eq!(wins, [48, 16, 16, 16], "the partner of the winner wins too");
        assert_eq!(s.draws, 0);
        // Deal score: bot 0 all 24 seatings (1), the others 8 of 24 (a third): every winner
        // of a team gets a whole win.
        assert_eq!(s.deal_score[0][4 * 24], 2);
        assert_eq!(s.deal_score[1][4 * 8], 2);
        let (mean, se) = pts.mean_and_se(1, s.deals(), s.seatings);
        assert!((mean - 2.0 / 3.0).abs() < 1e-12 && se.abs() < 1e-9, "{mean} ± {se}");
        let firsts: Vec<u64> = (0..4).map(|b| pts.ranks[b].iter().map(|seat| seat[0]).sum()).collect();
        assert_eq!(firsts, [48, 16, 16, 16]);
        // Points merge exactly across work items and threads.
        let cfg = RunConfig::distinct(24 * 600, 1, 4);
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| run(&TeamToy, &cfg));
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| run(&TeamToy, &cfg));
        assert_eq!(one, two);
        assert_eq!(one.points.unwrap().deal_sum, [2 * 24 * 600, 2 * 8 * 600, 2 * 8 * 600, 2 * 8 * 600]);
    }

    #[test]
    fn rates_are_ratios_with_the_deal_as_the_unit() {
        static SET: RateSet = RateSet { per: "deal", rates: &[RateDef { name: "calls", doc: "" }] };
        let mut s = MatchupStats::with_rates(2, 2, 0, false, Some(SET));
        // Deal 0: bot 0 plays 2 and 3 deals in its two seatings and calls 1 and 2 times;
        // deal 1: 1 and 1 deals, 0 and 1 calls. Bot 1 calls nothing.
        for (exposure, calls) in [([2, 3], [1, 2]), ([1, 1], [0, 1])] {
            let mut tally = DealTally::default();
            for k in 0..2 {
                let seat_bots = if k == 0 { [0, 1] } else { [1, 0] };
                let mut rec = MatchRecord { winner: Some(0), ..MatchRecord::default() };
                let bot0 = seat_bots.iter().position(|&b| b == 0).unwrap();
                rec.exposure = [exposure[k]; MAX_SEATS];
                rec.counts[bot0][0] = calls[k];
                s.record(&seat_bots, &rec, &mut tally);
            }
            s.end_deal(&tally);
        }
        let rates = s.rates.as_ref().unwrap();
        // Bot 0: X = 4 calls over Y = 7 deals. Per deal (x, y) = (3, 5) and (1, 2):
        // residuals 3 - 20/7 = 1/7 and 1 - 8/7 = -1/7; SE = sqrt(2/49) / 7 (hand computed).
        let (rate, se) = rates.rate_and_se(0, 0);
        assert!((rate - 4.0 / 7.0).abs() < 1e-12 && (se - (2.0f64 / 49.0).sqrt() / 7.0).abs() < 1e-12, "{rate} {se}");
        assert_eq!(rates.rate_and_se(1, 0), (0.0, 0.0));
        // Per seat: bot 0 sat in seat 0 in the first seating of each deal (2 + 1 deals, 1 call).
        assert!((rates.rate(&[0], &[0], 0) - 1.0 / 3.0).abs() < 1e-12);
        // Merging two halves gives the whole.
        let mut half = MatchupStats::with_rates(2, 2, 0, false, Some(SET));
        half.merge(&s);
        half.merge(&MatchupStats::with_rates(2, 2, 0, false, Some(SET)));
        assert_eq!(half, s);
    }

}
