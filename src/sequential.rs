//! The sequential probability ratio test on paired deals (`cardsim sprt`): deals are
//! played in fixed batches (in parallel within a batch), each deal under both seatings,
//! and after every batch the generalised SPRT looks at the pentanomial counts of the
//! deal outcomes, as fastchess and fishtest do. The batch size does not depend on the
//! thread count, so the verdict and the number of games depend only on the seed.

use crate::runner::{run_deals, MatchGame, RunConfig, StrategyBug};
use crate::stats::{Sprt, SprtVerdict};
use indicatif::ProgressBar;

/// Deals per batch between two looks at the LLR.
pub const BATCH_DEALS: u64 = 256;

/// The state of a sequential test after a batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// Deals played so far.
    pub deals: u64,
    /// Matches played so far (two per deal).
    pub games: u64,
    /// `penta[k]`: deals in which bot A scored `k / 4` over its two seatings.
    pub penta: [u64; 5],
    /// A's deals by their two results: LL, LD, WL, DD, WD, WW (L lost, D no winner,
    /// W won): `penta` with its middle cell split into WL and DD.
    pub pairs: [u64; 6],
    /// Log-likelihood ratio of H1 over H0.
    pub llr: f64,
    /// The test's decision so far.
    pub verdict: SprtVerdict,
    /// A strategy chose an illegal action in the last batch (its earliest match): the
    /// test stops there, undecided, and the command reports it.
    pub strategy_bug: Option<StrategyBug>,
}

/// Runs the test for bot `a` (index into the game's bots) until the SPRT decides or
/// `max_games` matches were played, calling `report` after every batch.
pub fn run_sprt(game: &dyn MatchGame, cfg: &RunConfig, a: usize, sprt: &Sprt, max_games: u64, mut report: impl FnMut(&SprtStatus)) -> SprtStatus {
    assert_eq!(game.seats(), 2, "the SPRT compares two bots in two seats");
    let max_deals = cfg.deals(2).min(max_games.div_ceil(cfg.seatings(2)));
    let mut status = SprtStatus { deals: 0, games: 0, penta: [0; 5], pairs: [0; 6], llr: 0.0, verdict: SprtVerdict::Continue, strategy_bug: None };
    let hidden = ProgressBar::hidden();
    while status.deals < max_deals && status.verdict == SprtVerdict::Continue {
        let end = (status.deals + BATCH_DEALS).min(max_deals);
        let batch = run_deals(game, cfg, status.deals..end, &hidden);
        if batch.strategy_bug.is_some() {
            status.strategy_bug = batch.strategy_bug;
            return status;
        }
        for (k, c) in batch.deal_score[a].iter().enumerate() {
            status.penta[k] += c;
        }
        // One win and one match without winner make 3 units (WD): the other deals with
        // one win are WL.
        let wl = batch.deal_wins[a][1] - batch.deal_score[a][3];
        status.pairs = [status.penta[0], status.penta[1], status.pairs[2] + wl, status.pairs[3] + batch.deal_score[a][2] - wl, status.penta[3], status.penta[4]];
        status.deals = end;
        status.games += batch.total_games();
        status.llr = sprt.llr(&status.penta);
        status.verdict = sprt.verdict(status.llr);
        report(&status);
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::MatchSeeds;
    use crate::runner::{MatchRecord, MetricDef};
    use crate::stats::SprtModel;

    /// Bot 0 wins with probability `p` in every match, from the seat's player stream.
    struct Biased(f64);
    impl MatchGame for Biased {
        fn name(&self) -> &'static str { "biased" }
        fn seats(&self) -> usize { 2 }
        fn metrics(&self) -> &'static [MetricDef] { &[] }
        fn play(&self, seat_bots: &[usize], seeds: &MatchSeeds) -> MatchRecord {
            let u = crate::rng::mix(&[seeds.players[0], seeds.players[1], seat_bots[0] as u64]) as f64 / u64::MAX as f64;
            let bot0_seat = seat_bots.iter().position(|&b| b == 0).unwrap() as u8;
            let winner = if u < self.0 { bot0_seat } else { 1 - bot0_seat };
            MatchRecord { winner: Some(winner), ..MatchRecord::default() }
        }
    }

    #[test]
    fn a_clear_edge_accepts_h1_and_no_edge_accepts_h0() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        let cfg = RunConfig::distinct(u64::MAX / 4, 1, 2);
        let strong = run_sprt(&Biased(0.6), &cfg, 0, &sprt, 1_000_000, |_| {});
        assert_eq!(strong.verdict, SprtVerdict::AcceptH1);
        assert!(strong.llr >= sprt.bounds().1);
        let even = run_sprt(&Biased(0.5), &cfg, 0, &sprt, 10_000_000, |_| {});
        assert_eq!(even.verdict, SprtVerdict::AcceptH0);
        assert!(even.llr <= sprt.bounds().0);
        assert_eq!(even.games, 2 * even.deals);
        assert_eq!(even.deals % BATCH_DEALS, 0, "the test looks only between whole batches");
        // Biased has no draws: every middle deal is a WL.
        assert_eq!(even.pairs, [even.penta[0], even.penta[1], even.penta[2], 0, even.penta[3], even.penta[4]]);
    }

    #[test]
    fn the_verdict_and_length_do_not_depend_on_threads_and_max_games_stops_it() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        let cfg = RunConfig::distinct(u64::MAX / 4, 7, 2);
        let on = |t: usize| rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap().install(|| run_sprt(&Biased(0.52), &cfg, 0, &sprt, 1_000_000, |_| {}));
        assert_eq!(on(1), on(2));
        let capped = run_sprt(&Biased(0.5), &cfg, 0, &sprt, 1000, |_| {});
        assert_eq!((capped.games, capped.verdict), (1000, SprtVerdict::Continue));
    }
}
