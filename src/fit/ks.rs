//! The one-sample Kolmogorov–Smirnov goodness-of-fit test, by `statrs`
//! (`stats_tests::ks_test::ks_onesample`).
//!
//! The statistic is D = sup |F_n(x) − F(x)|, the largest gap between the sample's
//! empirical distribution function and the fitted one. The p-value assumes F was fixed
//! in advance; when F's parameters were estimated from the same sample (as in `fit-rt`)
//! the fit is pulled towards the data, D is smaller than under that assumption and the
//! p-value is too large (conservative; Lilliefors 1967). It is approximate in any case:
//! below 140 times twice the exact one-sided p-value (Birnbaum & Tingey 1951), which is
//! close to the two-sided one for small p; from 140 on Kolmogorov's asymptotic series.

use statrs::distribution::ContinuousCDF;
use statrs::statistics::{Max, Min};
use statrs::stats_tests::ks_test::{ks_onesample, KSOneSampleAlternativeMethod};
use statrs::stats_tests::NaNPolicy;

/// Smallest sample for which the asymptotic p-value is used.
pub const ASYMPTOTIC_FROM: usize = 140;

/// Result of a Kolmogorov–Smirnov test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KsResult {
    /// D: the largest distance between the empirical and the tested distribution function.
    pub d: f64,
    /// Approximate two-sided p-value (module docs).
    pub p: f64,
}

/// A distribution function given as a closure, in the form `statrs` tests against.
struct CdfFn<F>(F);

impl<F: Fn(f64) -> f64> ContinuousCDF<f64, f64> for CdfFn<F> {
    fn cdf(&self, x: f64) -> f64 {
        (self.0)(x)
    }
}

impl<F> Min<f64> for CdfFn<F> {
    fn min(&self) -> f64 {
        f64::NEG_INFINITY
    }
}

impl<F> Max<f64> for CdfFn<F> {
    fn max(&self) -> f64 {
        f64::INFINITY
    }
}

/// Tests the sample `xs` (at least two finite values) against the distribution function
/// `cdf`.
pub fn ks_test(xs: &[f64], cdf: impl Fn(f64) -> f64) -> KsResult {
    let method = if xs.len() < ASYMPTOTIC_FROM { KSOneSampleAlternativeMethod::TwoSidedApproximate } else { KSOneSampleAlternativeMethod::TwoSidedAsymptotic };
    let (d, p) = ks_onesample(xs.to_vec(), &CdfFn(cdf), method, NaNPolicy::Error).expect("a sample of finite times, at least two");
    KsResult { d, p }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::families::Family;

    fn uniform(x: f64) -> f64 {
        x.clamp(0.0, 1.0)
    }

    /// By hand: sorted sample 0.1, 0.4, 0.7 against Uniform(0, 1). D⁺ = max(i/n − F(xᵢ))
    /// = max(1/3 − 0.1, 2/3 − 0.4, 1 − 0.7) = 0.3; D⁻ = max(F(xᵢ) − (i−1)/n)
    /// = max(0.1, 0.4 − 1/3, 0.7 − 2/3) = 0.1; D = 0.3. One-sided p (Birnbaum–Tingey,
    /// n = 3, d = 0.3): 0.3·Σ_{j=0}^{2} C(3,j)(j/3 + 0.3)^{j−1}(0.7 − j/3)^{3−j}
    /// = 0.3·(1.143333 + 0.403333 + 0.096667) = 0.493, so p = 0.986.
    #[test]
    fn fit_ks_statistic_of_a_tiny_sample_by_hand() {
        let r = ks_test(&[0.7, 0.1, 0.4], uniform);
        assert!((r.d - 0.3).abs() < 1e-12, "{r:?}");
        assert!((r.p - 0.986).abs() < 1e-3, "{r:?}");
    }

    /// By hand against ExGaussian(400, 40, 100) (F from Python's math.erfc):
    /// F(380) = 0.065002, F(450) = 0.367177, F(520) = 0.673891, F(700) = 0.946066.
    /// D⁺ = max(0.25 − 0.065002, 0.5 − 0.367177, 0.75 − 0.673891, 1 − 0.946066) = 0.184998;
    /// D⁻ = max(0.065002, 0.367177 − 0.25, 0.673891 − 0.5, 0.946066 − 0.75) = 0.196066.
    #[test]
    fn fit_ks_statistic_against_an_ex_gaussian_by_hand() {
        let p = [400.0, 40.0, 100.0];
        let r = ks_test(&[520.0, 380.0, 700.0, 450.0], |x| Family::ExGaussian.cdf(&p, x));
        assert!((r.d - 0.196_066_312_7).abs() < 1e-9, "{r:?}");
    }

    /// Sample (i − 1)/n + d against Uniform(0, 1) has D = d exactly (for d ≥ 1/n).
    fn sample_with_d(n: usize, d: f64) -> Vec<f64> {
        (0..n).map(|i| i as f64 / n as f64 + d).collect()
    }

    #[test]
    fn fit_ks_p_values_match_the_tables() {
        // Massey (1951): the two-sided 5 % critical value is 0.294 at n = 20 and
        // 1.358/√n for large n.
        let r = ks_test(&sample_with_d(20, 0.294), uniform);
        assert!((r.d - 0.294).abs() < 1e-12 && (r.p - 0.05).abs() < 0.003, "{r:?}");
        let d = 1.358 / 1000f64.sqrt();
        let r = ks_test(&sample_with_d(1000, d), uniform);
        assert!((r.d - d).abs() < 1e-12 && (r.p - 0.05).abs() < 0.003, "{r:?}");
    }
}
