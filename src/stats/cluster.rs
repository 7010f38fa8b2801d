//! Ratio estimators over independent clusters (Lopti sessions' groups, fit-rt's matches
//! in play), with the linearised, cluster-robust standard error and a Student's t
//! interval (docs/statistics.md, "Normal or t").

use super::interval::t_95;

/// `Σx / Σy` over clusters `(x_i, y_i)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClusterRatio {
    /// The ratio r = Σx / Σy (NaN when Σy = 0).
    pub value: f64,
    /// `sqrt(G/(G-1) Σ (x_i - r y_i)²) / Σy` over G clusters (NaN below 2 clusters or
    /// when Σy = 0).
    pub se: f64,
    /// `r - t_{0.975, G-1} se`.
    pub lo: f64,
    /// `r + t_{0.975, G-1} se`.
    pub hi: f64,
    /// Σx.
    pub x: f64,
    /// Σy.
    pub y: f64,
}

/// The ratio of the sums of `clusters` with its cluster-robust 95% interval.
pub fn cluster_ratio(clusters: &[(f64, f64)]) -> ClusterRatio {
    let (x, y): (f64, f64) = clusters.iter().fold((0.0, 0.0), |(a, b), &(p, q)| (a + p, b + q));
    if y == 0.0 {
        return ClusterRatio { value: f64::NAN, se: f64::NAN, lo: f64::NAN, hi: f64::NAN, x, y };
    }
    let r = x / y;
    let g = clusters.len() as f64;
    let ss: f64 = clusters.iter().map(|&(p, q)| (p - r * q).powi(2)).sum();
    let se = if g > 1.0 { (g / (g - 1.0) * ss).sqrt() / y } else { f64::NAN };
    let q = t_95(g - 1.0);
    ClusterRatio { value: r, se, lo: r - q * se, hi: r + q * se, x, y }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_ratio_by_hand() {
        // Three clusters 1/2, 2/2, 0/2: r = 1/2, residuals 0, 1, -1, SE = sqrt(3/2 * 2) / 6,
        // interval ∓ t_{0.975, 2} = 4.302653 SE.
        let c = cluster_ratio(&[(1.0, 2.0), (2.0, 2.0), (0.0, 2.0)]);
        let se = 3f64.sqrt() / 6.0;
        assert_eq!((c.value, c.x, c.y), (0.5, 3.0, 6.0));
        assert!((c.se - se).abs() < 1e-15 && (c.hi - (0.5 + 4.302_653 * se)).abs() < 1e-6 && (c.lo - (0.5 - 4.302_653 * se)).abs() < 1e-6, "{c:?}");
        assert!(cluster_ratio(&[(1.0, 2.0)]).se.is_nan(), "one cluster has no SE");
        assert!(cluster_ratio(&[(0.0, 0.0)]).value.is_nan());
    }
}
