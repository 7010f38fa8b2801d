//! The parallel match runner shared by every game: deals seeded from
//! `(master seed, matchup, deal)`, each deal played under every seat rotation,
//! integer aggregation that merges exactly, and a progress bar.

use crate::rng::{deal_seed, play_seed};
use crate::stats::Histogram;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::io::IsTerminal;

/// Most seats any game has.
pub const MAX_SEATS: usize = 5;
/// Most length metrics a game reports per match.
pub const MAX_METRICS: usize = 6;

/// A per-match quantity a game reports, such as rounds or simulated seconds.
#[derive(Clone, Copy, Debug)]
pub struct MetricDef {
    /// Column stem in the CSV, e.g. `seconds` gives `seconds_mean`, `seconds_p50`, ...
    pub name: &'static str,
    /// The stored integer is divided by this before printing (1000 for milliseconds → seconds).
    pub scale: u32,
    /// One line for the README and `cardsim list`.
    pub doc: &'static str,
}

/// What one played match reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchRecord {
    /// Seat of the winner; `None` for a draw or a capped match.
    pub winner: Option<u8>,
    /// The match hit its cap before it ended.
    pub capped: bool,
    /// Values of the game's metrics, in the order of [`MatchGame::metrics`].
    pub metrics: [u64; MAX_METRICS],
}

/// A game with its bots and rule settings, ready to play matches.
pub trait MatchGame: Sync {
    /// Game name, e.g. `spit`.
    fn name(&self) -> &'static str;
    /// Number of seats (= number of bots).
    fn seats(&self) -> usize;
    /// The metrics each [`MatchRecord`] carries.
    fn metrics(&self) -> &'static [MetricDef];
    /// Plays one match. `seat_bots[s]` is the index of the bot sitting in seat `s`.
    /// The cards dealt depend only on `deal_seed`; everything else on `play_seed`.
    fn play(&self, seat_bots: &[usize], deal_seed: u64, play_seed: u64) -> MatchRecord;
}

/// How many matches to run and how.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Matches requested; rounded up to a whole number of deals.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Identifies the matchup within an experiment (0 for a single `match`).
    pub matchup: u64,
    /// Play each deal under every seat rotation (two-player: both seat orders).
    pub rotate_seats: bool,
    /// Show no progress bar.
    pub quiet: bool,
}

impl RunConfig {
    /// Seat rotations per deal for `seats` players.
    pub fn rotations(&self, seats: usize) -> u64 {
        if self.rotate_seats { seats as u64 } else { 1 }
    }
    /// Number of deals needed for at least `games` matches.
    pub fn deals(&self, seats: usize) -> u64 {
        self.games.div_ceil(self.rotations(seats))
    }
}

/// The bot sitting in seat `seat` under rotation `rotation`.
pub fn bot_in_seat(seat: usize, rotation: u64, seats: usize) -> usize {
    (seat + rotation as usize) % seats
}

/// Exact aggregate of a matchup: counts and histograms only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchupStats {
    /// Seats in the game.
    pub seats: usize,
    /// Rotations each deal was played under.
    pub rotations: u64,
    /// `games[bot][seat]`: matches bot played in seat.
    pub games: Vec<Vec<u64>>,
    /// `wins[bot][seat]`.
    pub wins: Vec<Vec<u64>>,
    /// Matches that ended without a winner (draws; capped matches not included).
    pub draws: u64,
    /// Matches stopped at the cap.
    pub capped: u64,
    /// `deal_wins[bot][k]`: deals in which the bot won k of its rotations.
    pub deal_wins: Vec<Vec<u64>>,
    /// One histogram per metric, over all matches.
    pub metrics: Vec<Histogram>,
}

impl MatchupStats {
    /// Empty stats for a game shape.
    pub fn new(seats: usize, rotations: u64, n_metrics: usize) -> Self {
        MatchupStats {
            seats,
            rotations,
            games: vec![vec![0; seats]; seats],
            wins: vec![vec![0; seats]; seats],
            draws: 0,
            capped: 0,
            deal_wins: vec![vec![0; rotations as usize + 1]; seats],
            metrics: vec![Histogram::new(); n_metrics],
        }
    }
    /// Adds everything counted in `other`.
    pub fn merge(&mut self, other: &MatchupStats) {
        let add = |a: &mut Vec<Vec<u64>>, b: &Vec<Vec<u64>>| {
            a.iter_mut().zip(b).for_each(|(x, y)| x.iter_mut().zip(y).for_each(|(p, q)| *p += q))
        };
        add(&mut self.games, &other.games);
        add(&mut self.wins, &other.wins);
        add(&mut self.deal_wins, &other.deal_wins);
        self.draws += other.draws;
        self.capped += other.capped;
        self.metrics.iter_mut().zip(&other.metrics).for_each(|(a, b)| a.merge(b));
    }
    /// Total matches played.
    pub fn total_games(&self) -> u64 {
        self.games[0].iter().sum()
    }
    /// Records one match played with `seat_bots`.
    pub fn record(&mut self, seat_bots: &[usize], rec: &MatchRecord) {
        for (seat, &bot) in seat_bots.iter().enumerate() {
            self.games[bot][seat] += 1;
        }
        match (rec.winner, rec.capped) {
            (_, true) => self.capped += 1,
            (Some(w), false) => self.wins[seat_bots[w as usize]][w as usize] += 1,
            (None, false) => self.draws += 1,
        }
        for (h, &v) in self.metrics.iter_mut().zip(&rec.metrics) {
            h.add(v);
        }
    }
}

/// Plays deal `deal` under every rotation and adds it to `stats`.
fn play_deal(game: &dyn MatchGame, cfg: &RunConfig, deal: u64, stats: &mut MatchupStats) {
    let seats = game.seats();
    let ds = deal_seed(cfg.seed, cfg.matchup, deal);
    let mut won = [0usize; MAX_SEATS];
    let mut seat_bots = [0usize; MAX_SEATS];
    for r in 0..stats.rotations {
        for (s, b) in seat_bots[..seats].iter_mut().enumerate() {
            *b = bot_in_seat(s, r, seats);
        }
        let rec = game.play(&seat_bots[..seats], ds, play_seed(ds, r));
        stats.record(&seat_bots[..seats], &rec);
        if let (Some(w), false) = (rec.winner, rec.capped) {
            won[seat_bots[w as usize]] += 1;
        }
    }
    for (bot, &k) in won[..seats].iter().enumerate() {
        stats.deal_wins[bot][k] += 1;
    }
}

/// Deals per parallel work item (also the progress bar's step).
const CHUNK: u64 = 256;

/// Runs a matchup on the current rayon pool and returns its exact aggregate.
pub fn run(game: &dyn MatchGame, cfg: &RunConfig) -> MatchupStats {
    let seats = game.seats();
    let rotations = cfg.rotations(seats);
    let deals = cfg.deals(seats);
    let bar = progress_bar(deals * rotations, cfg.quiet, game.name());
    let empty = || MatchupStats::new(seats, rotations, game.metrics().len());
    let stats = (0..deals.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut s = empty();
            let end = ((chunk + 1) * CHUNK).min(deals);
            for deal in chunk * CHUNK..end {
                play_deal(game, cfg, deal, &mut s);
            }
            bar.inc((end - chunk * CHUNK) * rotations);
            s
        })
        .reduce(empty, |mut a, b| {
            a.merge(&b);
            a
        });
    bar.finish_and_clear();
    stats
}

fn progress_bar(total: u64, quiet: bool, label: &str) -> ProgressBar {
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

    /// A toy game: seat 0 wins when the deal seed is even, with one metric.
    struct Coin;
    static COIN_METRICS: [MetricDef; 1] = [MetricDef { name: "len", scale: 1, doc: "" }];
    impl MatchGame for Coin {
        fn name(&self) -> &'static str { "coin" }
        fn seats(&self) -> usize { 2 }
        fn metrics(&self) -> &'static [MetricDef] { &COIN_METRICS }
        fn play(&self, _: &[usize], deal_seed: u64, play_seed: u64) -> MatchRecord {
            let mut metrics = [0; MAX_METRICS];
            metrics[0] = play_seed % 10;
            MatchRecord { winner: Some((deal_seed % 2) as u8), capped: false, metrics }
        }
    }

    #[test]
    fn seat_rotation_pairs_every_deal_and_counts_add_up() {
        let cfg = RunConfig { games: 1001, seed: 3, matchup: 0, rotate_seats: true, quiet: true };
        let s = run(&Coin, &cfg);
        assert_eq!(s.total_games(), 1002, "rounded up to whole deals");
        // The same seat wins both rotations of a deal, so every deal is a split.
        assert_eq!(s.deal_wins[0][1], 501);
        assert_eq!(s.deal_wins[1][1], 501);
        assert_eq!(s.wins[0][0] + s.wins[1][0] + s.wins[0][1] + s.wins[1][1], 1002);
        assert_eq!(s.wins[0][0], s.wins[1][0], "seat-0 wins split evenly between the bots");
        assert_eq!(s.metrics[0].count(), 1002);
    }

    #[test]
    fn result_does_not_depend_on_thread_count() {
        let cfg = RunConfig { games: 5000, seed: 9, matchup: 1, rotate_seats: true, quiet: true };
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| run(&Coin, &cfg));
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| run(&Coin, &cfg));
        assert_eq!(one, two);
    }
}
