//! Confidence intervals for proportions.

/// The two-sided 95% normal quantile.
pub const Z_95: f64 = 1.959_963_984_540_054;

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
    use statrs::distribution::{ContinuousCDF, Normal};

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
