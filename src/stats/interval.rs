//! Confidence intervals for proportions, and the quantiles of 95% intervals.

use statrs::distribution::{ContinuousCDF, StudentsT};

/// The two-sided 95% normal quantile.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom (the 97.5%
/// point), for an interval whose standard error comes from `df + 1` clusters (docs/statistics.md,
/// "Normal or t"); NaN below 1 degree of freedom, where there is no interval.
///
/// Up to [`T_SERIES_FROM`] degrees of freedom the quantile is statrs's; from there on it
/// is the Cornish–Fisher series in 1/df (Abramowitz and Stegun 26.7.5, two terms, error
/// below 10⁻⁹), because statrs's inverse loses digits at large df (off by 10⁻⁵ at 10⁵).
pub fn t_95(df: f64) -> f64 {
    if df >= T_SERIES_FROM {
        let z = Z_95;
        return z + (z.powi(3) + z) / (4.0 * df) + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * df * df);
    }
    match StudentsT::new(0.0, 1.0, df) {
        Ok(t) if df >= 1.0 => t.inverse_cdf(0.975),
        _ => f64::NAN,
    }
}

/// Degrees of freedom from which [`t_95`] uses the series.
pub const T_SERIES_FROM: f64 = 1_000.0;

/// Wilson score interval for `successes` out of `trials` at normal quantile `z`.
/// Returns `(low, high)`; `(0, 1)` when there are no trials.
pub fn wilson_interval(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::Normal;

    /// Against printed tables (e.g. NIST/SEMATECH, t at 0.975): 12.706205 at 1, 4.302653
    /// at 2, 2.262157 at 9, 2.039513 at 31, 1.983972 at 100, 1.962339 at 1,000 (the
    /// series).
    #[test]
    fn t_quantile_matches_the_tables() {
        for (df, want) in [(1.0, 12.706_205), (2.0, 4.302_653), (9.0, 2.262_157), (31.0, 2.039_513), (100.0, 1.983_972), (1_000.0, 1.962_339)] {
            assert!((t_95(df) - want).abs() < 1e-6, "t_95({df}) = {}, table {want}", t_95(df));
        }
        // The series and statrs agree where they meet; the normal quantile is the limit.
        let exact = StudentsT::new(0.0, 1.0, T_SERIES_FROM).unwrap().inverse_cdf(0.975);
        assert!((t_95(T_SERIES_FROM) - exact).abs() < 1e-8, "{} vs {exact}", t_95(T_SERIES_FROM));
        assert!((t_95(1e9) - Z_95).abs() < 1e-8);
        assert!(t_95(0.0).is_nan() && t_95(f64::NAN).is_nan());
    }

    #[test]
    fn z_matches_normal_quantile() {
        let q = Normal::standard().inverse_cdf(0.975);
        assert!((q - Z_95).abs() < 1e-9);
    }

    #[test]
    fn wilson_hand_computed_values() {
        // 50/100: centre 0.5, half = 1.96*sqrt(0.0025 + 0.000096)/1.038416 = 0.096170
        let (lo, hi) = wilson_interval(50, 100, Z_95);
        assert!((lo - 0.403_830).abs() < 1e-5, "{lo}");
        assert!((hi - 0.596_170).abs() < 1e-5, "{hi}");
        // 0/10: low is 0, high = z²/n / (1+z²/n) = 0.384146/1.384146 = 0.277533
        let (lo, hi) = wilson_interval(0, 10, Z_95);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.277_533).abs() < 1e-5, "{hi}");
        // 9/10: centre (0.9+0.192073)/1.384146 = 0.788986, half 0.19314 (hand computed)
        let (lo, hi) = wilson_interval(9, 10, Z_95);
        assert!((lo - 0.595_8).abs() < 1e-3, "{lo}");
        assert!((hi - 0.982_1).abs() < 1e-3, "{hi}");
        assert_eq!(wilson_interval(0, 0, Z_95), (0.0, 1.0));
    }
}
