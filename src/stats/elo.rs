//! Elo difference, normalised Elo and likelihood of superiority for paired comparisons.
//!
//! The formulas follow fastchess (`app/src/matchmaking/elo/elo_pentanomial.cpp` and
//! `elo_wdl.cpp`): a score distribution over independent units (a pair of games with
//! colours, seats or deals swapped is fastchess's pentanomial unit; a single game is its
//! trinomial unit) gives a mean score and a per-unit population variance, and everything
//! else is a normal approximation around that mean.

use std::f64::consts::{LN_10, SQRT_2};

use statrs::function::erf::erfc;

/// Normalised Elo per unit of `(score - 0.5) / sigma`: `800 / ln 10`.
pub(crate) const NELO_SCALE: f64 = 800.0 / LN_10;

/// Logistic Elo difference for an expected score `score` in `[0, 1]`:
/// `-400 log10(1 / score - 1)`.
///
/// Returns `-infinity` at `score == 0`, `+infinity` at `score == 1`, and NaN outside `[0, 1]`.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score for a logistic Elo difference `elo`: `1 / (1 + 10^(-elo / 400))`,
/// the inverse of [`score_to_elo`].
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and per-unit variance of the score over `n` independent units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedScore {
    /// Number of units (pairs for pentanomial counts, games for trinomial counts).
    pub n: u64,
    /// Mean score per unit, in `[0, 1]`; NaN when `n == 0`.
    pub mean: f64,
    /// Population variance of one unit's score, `sum_k p_k (x_k - mean)^2` with
    /// `p_k = counts[k] / n` (divisor `n`, not `n - 1`, as in fastchess); NaN when `n == 0`.
    pub variance: f64,
}

impl PairedScore {
    /// Standard error of the mean score: `sqrt(variance / n)`.
    pub fn se(&self) -> f64 {
        (self.variance / self.n as f64).sqrt()
    }
}

/// Summarises `counts`, where `counts[k]` is the number of units whose score was
/// `k / (counts.len() - 1)`.
///
/// Length 5 is fastchess's pentanomial model (pair scores 0, 1/4, 1/2, 3/4, 1: LL, LD,
/// WL+DD, WD, WW); length 3 is the trinomial L/D/W per game.
///
/// # Panics
/// If `counts.len() < 2`, or if the total count overflows `u64`.
pub fn paired_score(counts: &[u64]) -> PairedScore {
    assert!(
        counts.len() >= 2,
        "paired_score needs at least two score levels"
    );
    let levels = (counts.len() - 1) as f64;
    let n: u64 = counts.iter().sum();
    let total = n as f64;
    let level = |k: usize| k as f64 / levels;
    let mean: f64 = counts
        .iter()
        .enumerate()
        .map(|(k, &c)| c as f64 / total * level(k))
        .sum();
    let variance: f64 = counts
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            let dev = level(k) - mean;
            c as f64 / total * dev * dev
        })
        .sum();
    PairedScore { n, mean, variance }
}

/// Logistic Elo estimate with fastchess's interval: `(elo, elo - half, elo + half)`, where
/// `elo = score_to_elo(mean)` and
/// `half = (score_to_elo(mean + z se) - score_to_elo(mean - z se)) / 2`.
///
/// Like fastchess (which prints `elo +/- half`) the interval is symmetric about the
/// estimate; it is not the pair of transformed endpoints. Endpoints `mean ± z se` outside
/// `[0, 1]` are clamped, so `half` is infinite where fastchess would print `nan`.
/// Zero variance gives `half == 0`; `n == 0` gives NaN.
pub fn elo_with_interval(ps: &PairedScore, z: f64) -> (f64, f64, f64) {
    let elo = score_to_elo(ps.mean);
    let spread = z * ps.se();
    let high = score_to_elo((ps.mean + spread).min(1.0));
    let low = score_to_elo((ps.mean - spread).max(0.0));
    let half = if spread == 0.0 {
        0.0
    } else {
        (high - low) / 2.0
    };
    (elo, elo - half, elo + half)
}

/// Normalised Elo estimate and interval, `(nelo, nelo - half, nelo + half)`, as fastchess
/// computes it: `nelo = (mean - 0.5) / sqrt(g variance) * 800 / ln 10` and
/// `half = z se / sqrt(g variance) * 800 / ln 10`, with `g = games_per_unit`
/// (fastchess uses 2 for pentanomial pairs and 1 for single games).
///
/// This is the unit of `elo0`/`elo1` under the normalised SPRT model. Zero variance gives
/// an infinite estimate (NaN at `mean == 0.5`); `n == 0` gives NaN.
pub fn nelo_with_interval(ps: &PairedScore, games_per_unit: u32, z: f64) -> (f64, f64, f64) {
    let sigma = (f64::from(games_per_unit) * ps.variance).sqrt();
    let nelo = (ps.mean - 0.5) / sigma * NELO_SCALE;
    let half = z * ps.se() / sigma * NELO_SCALE;
    (nelo, nelo - half, nelo + half)
}

/// Likelihood of superiority, `Phi((mean - 0.5) / se)`, as fastchess computes it
/// (`(1 - erf(-(mean - 0.5) / sqrt(2 se^2))) / 2`, evaluated here with statrs's `erfc`,
/// relative error about 1e-10, so tiny values do not round to 0).
///
/// Zero variance gives 1 above 0.5, 0 below, and 0.5 at exactly 0.5 (fastchess gives NaN
/// there); `n == 0` gives NaN.
pub fn los(ps: &PairedScore) -> f64 {
    let excess = ps.mean - 0.5;
    if excess == 0.0 {
        return 0.5;
    }
    0.5 * erfc(-excess / (SQRT_2 * ps.se()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::tests::close;
    use crate::stats::Z_95;


    /// fastchess's `Stats(ll, ld, wl, dd, wd, ww)` as pentanomial counts.
    fn penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> PairedScore {
        paired_score(&[ll, ld, wl + dd, wd, ww])
    }

    /// fastchess's `Stats(wins, losses, draws)` as per-game counts (L, D, W).
    fn wdl(wins: u64, losses: u64, draws: u64) -> PairedScore {
        paired_score(&[losses, draws, wins])
    }

    #[test]
    fn score_to_elo_hand_values() {
        assert_eq!(score_to_elo(0.5), 0.0);
        // 400 log10(3) = 190.848501887865
        close(score_to_elo(0.75), 190.848_501_887_865, 1e-9);
        close(score_to_elo(0.25), -190.848_501_887_865, 1e-9);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert!(score_to_elo(1.5).is_nan());
        for elo in [-700.0, -35.5, 0.0, 2.0, 400.0] {
            close(score_to_elo(elo_to_score(elo)), elo, 1e-9);
        }
        // 10^(-400/400) = 0.1, so 1 / 1.1
        close(elo_to_score(400.0), 1.0 / 1.1, 1e-15);
    }

    #[test]
    fn paired_score_hand_values() {
        // Pairs 1 x 0-2, 2 x 1-1, 1 x 2-0: mean 1/2, variance (1/4 + 1/4) / 4 = 1/8.
        let ps = paired_score(&[1, 0, 2, 0, 1]);
        assert_eq!(
            ps,
            PairedScore {
                n: 4,
                mean: 0.5,
                variance: 0.125
            }
        );
        close(ps.se(), (0.125f64 / 4.0).sqrt(), 1e-15);
        // Four levels 0, 1/3, 2/3, 1 with counts 0, 1, 1, 2: mean 3/4,
        // variance ((5/12)^2 + (1/12)^2 + 2 (1/4)^2) / 4 = (44/144) / 4 = 11/144.
        let ps = paired_score(&[0, 1, 1, 2]);
        assert_eq!(ps.n, 4);
        close(ps.mean, 0.75, 1e-15);
        close(ps.variance, 11.0 / 144.0, 1e-15);
        let empty = paired_score(&[0, 0, 0]);
        assert_eq!(empty.n, 0);
        assert!(empty.mean.is_nan() && empty.variance.is_nan() && los(&empty).is_nan());
    }

    #[test]
    fn hand_checked_interval_nelo_and_los() {
        // Pair scores 1/4, 1/2, 3/4, 1 once each: mean 5/8,
        // variance (0.375^2 + 0.125^2 + 0.125^2 + 0.375^2) / 4 = 0.078125, se = 0.1397542.
        let ps = paired_score(&[0, 1, 1, 1, 1]);
        close(ps.mean, 0.625, 1e-15);
        close(ps.variance, 0.078_125, 1e-15);
        let (elo, lo, hi) = elo_with_interval(&ps, Z_95);
        // 400 log10(5/3) = 88.7395; endpoints 0.625 ± 0.2739093 -> 348.3546 and -137.9638.
        close(elo, 88.739_499_846_542_5, 1e-9);
        close(hi - elo, 243.159_208_846_115_7, 1e-9);
        close(elo - lo, hi - elo, 1e-12);
        // nElo: 0.125 / sqrt(2 * 0.078125) * 347.4355 = 0.3162278 * 347.4355 = 109.8688;
        // half-width z * 347.4355 / sqrt(2 * 4) = 240.7562.
        let (nelo, nlo, nhi) = nelo_with_interval(&ps, 2, Z_95);
        close(nelo, 109.868_779_044_564_3, 1e-9);
        close(nhi - nelo, 240.756_153_345_471_5, 1e-9);
        close(nelo - nlo, nhi - nelo, 1e-12);
        // LOS: Phi(0.125 / 0.1397542) = Phi(2 / sqrt 5) = Phi(0.8944272) = 0.8144533.
        close(los(&ps), 0.814_453_315_238_651_3, 1e-10);
    }

    #[test]
    fn zero_variance_is_finite_where_possible() {
        let draws = paired_score(&[0, 0, 7, 0, 0]);
        assert_eq!(draws.variance, 0.0);
        assert_eq!(elo_with_interval(&draws, Z_95), (0.0, 0.0, 0.0));
        assert_eq!(los(&draws), 0.5);
        let wins = paired_score(&[0, 0, 0, 0, 3]);
        assert_eq!(los(&wins), 1.0);
        assert_eq!(elo_with_interval(&wins, Z_95).0, f64::INFINITY);
        assert_eq!(los(&paired_score(&[0, 3, 0, 0, 0])), 0.0);
        // Interval reaching past 1: clamped, so infinite rather than NaN.
        let (_, _, hi) = elo_with_interval(&paired_score(&[0, 0, 0, 1, 3]), Z_95);
        assert_eq!(hi, f64::INFINITY);
    }

    /// fastchess `app/tests/elo_test.cpp`, TEST_CASEs "EloPentanomial 1" to "3". The
    /// published figures are 2 decimals (checked to half a unit in the last place);
    /// the 13-digit values come from compiling fastchess's own `elo_pentanomial.cpp`
    /// (commit 74deac23) and printing with `%.15g`.
    #[test]
    fn fastchess_elo_pentanomial_cases() {
        struct Case {
            ps: PairedScore,
            published: [f64; 6], // diff, error, nElo, nElo error, LOS %, score
            full: [f64; 4],      // diff, error, nElo, nElo error
        }
        let cases = [
            Case {
                ps: penta(34, 54, 31, 32, 64, 75),
                published: [55.58, 27.65, 57.94, 28.28, 100.00, 0.579],
                full: [
                    55.579_780_420_445_9,
                    27.653_429_506_393_5,
                    57.935_599_938_124_3,
                    28.275_376_243_408_7,
                ],
            },
            Case {
                ps: penta(332, 433, 457, 41, 333, 334),
                published: [-8.64, 10.33, -9.17, 10.96, 5.05, 0.488],
                full: [
                    -8.642_667_267_969_01,
                    10.334_194_424_393,
                    -9.172_914_270_047_14,
                    10.960_458_877_511_1,
                ],
            },
            Case {
                ps: penta(7895, 8757, 5485, 200, 568, 9999),
                published: [-21.04, 2.95, -19.01, 2.65, 0.00, 0.470],
                full: [
                    -21.043_520_578_172_8,
                    2.945_280_868_527_82,
                    -19.012_834_278_884,
                    2.654_501_916_502_47,
                ],
            },
        ];
        for case in &cases {
            let (elo, lo, hi) = elo_with_interval(&case.ps, Z_95);
            let (nelo, nlo, nhi) = nelo_with_interval(&case.ps, 2, Z_95);
            let got = [elo, (hi - lo) / 2.0, nelo, (nhi - nlo) / 2.0];
            for ((&g, &published), &full) in got.iter().zip(&case.published).zip(&case.full) {
                close(g, published, 0.005 + 1e-9);
                close(g, full, 1e-9);
            }
            close(100.0 * los(&case.ps), case.published[4], 0.005);
            close(case.ps.mean, case.published[5], 0.0005);
        }
    }

    /// fastchess `app/tests/elo_test.cpp`, TEST_CASEs "EloWDL 1" to "3" (per-game L/D/W
    /// counts, one game per unit); full values as for the pentanomial cases.
    #[test]
    fn fastchess_elo_wdl_cases() {
        let ps = wdl(76, 89, 123);
        let (nelo, nlo, _) = nelo_with_interval(&ps, 1, Z_95);
        close(nelo, -20.76, 0.005);
        close(nelo - nlo, 40.13, 0.005);
        close(nelo, -20.756_449_777_395_4, 1e-9);
        close(100.0 * los(&ps), 15.53, 0.005);
        close(ps.mean, 0.477, 0.0005);

        let ps = wdl(136, 96, 111);
        let (nelo, nlo, _) = nelo_with_interval(&ps, 1, Z_95);
        close(nelo, 49.77, 0.005);
        close(nelo - nlo, 36.77, 0.005);
        let (elo, lo, _) = elo_with_interval(&ps, Z_95);
        close(elo, 40.70, 0.005);
        close(elo - lo, 30.43, 0.005);
        close(elo - lo, 30.427_217_943_601, 1e-9);
        close(100.0 * los(&ps), 99.60, 0.005);
        close(ps.mean, 0.558, 0.0005);

        let ps = wdl(34, 356, 0);
        let (nelo, nlo, _) = nelo_with_interval(&ps, 1, Z_95);
        close(nelo, -508.44, 0.005);
        close(nelo - nlo, 34.48, 0.005);
        close(ps.mean, 0.087, 0.0005);
    }
}
