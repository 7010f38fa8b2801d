//! Paired comparisons between configurations played on the same deals (the points of a
//! sweep, the values of a balance report). Each configuration reports per deal a few
//! integer numerators (a seat's or a bot's score units, a summed length); exact integer
//! sums of them, of their squares and of their products with the baseline's give the
//! mean of each figure, the mean of its per-deal difference from the baseline, and
//! their standard errors with the deal as the unit.

use statrs::distribution::{ContinuousCDF, Normal};

/// Exact sums over deals of one configuration's per-deal figures.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PairedSums {
    /// Deals added.
    pub deals: u64,
    /// Per figure: the sum of its per-deal numerators.
    pub sum: Vec<i128>,
    /// Per figure: the sum of their squares.
    pub sum_sq: Vec<i128>,
    /// Per figure: the sum of its numerator times the baseline's same figure.
    pub cross: Vec<i128>,
}

impl PairedSums {
    /// Adds one deal: this configuration's numerators `y` and the baseline's `base`
    /// (compared figure by figure where both have it).
    pub fn add(&mut self, y: &[i64], base: &[i64]) {
        if self.sum.len() < y.len() {
            self.sum.resize(y.len(), 0);
            self.sum_sq.resize(y.len(), 0);
            self.cross.resize(y.len(), 0);
        }
        self.deals += 1;
        for (j, &v) in y.iter().enumerate() {
            let v = v as i128;
            self.sum[j] += v;
            self.sum_sq[j] += v * v;
            self.cross[j] += v * base.get(j).copied().unwrap_or(0) as i128;
        }
    }

    /// Adds everything counted in `other`.
    pub fn merge(&mut self, other: &PairedSums) {
        if self.sum.len() < other.sum.len() {
            self.sum.resize(other.sum.len(), 0);
            self.sum_sq.resize(other.sum.len(), 0);
            self.cross.resize(other.sum.len(), 0);
        }
        self.deals += other.deals;
        for j in 0..other.sum.len() {
            self.sum[j] += other.sum[j];
            self.sum_sq[j] += other.sum_sq[j];
            self.cross[j] += other.cross[j];
        }
    }

    /// Mean and SE of figure `j` whose per-deal value is numerator / `den`.
    pub fn mean_se(&self, j: usize, den: f64) -> (f64, f64) {
        let d = self.deals as f64;
        let mean = self.sum[j] as f64 / (d * den);
        let var = (self.sum_sq[j] as f64 / (d * den * den) - mean * mean).max(0.0);
        (mean, (var / d).sqrt())
    }

    /// The per-deal difference of figure `j` (numerator / `den`) from the baseline's
    /// (numerator / `base_den`, sums `base`): its mean, SE and two-sided p-value
    /// (normal approximation; 1 when both SE and mean are 0).
    pub fn difference(&self, base: &PairedSums, j: usize, den: f64, base_den: f64) -> Difference {
        let d = self.deals as f64;
        let (a, b) = (self.mean_se(j, den).0, base.mean_se(j, base_den).0);
        let mean = a - b;
        let sq = self.sum_sq[j] as f64 / (d * den * den) - 2.0 * self.cross[j] as f64 / (d * den * base_den) + base.sum_sq[j] as f64 / (d * base_den * base_den);
        let se = ((sq - mean * mean).max(0.0) / d).sqrt();
        Difference { mean, se, p: two_sided_p(mean, se) }
    }
}

/// Two-sided p-value of "the mean is 0" for an estimate `mean` with standard error
/// `se` (normal approximation; 1 when both are 0, 0 when only the SE is).
fn two_sided_p(mean: f64, se: f64) -> f64 {
    if se > 0.0 {
        2.0 * (1.0 - Normal::standard().cdf((mean / se).abs()))
    } else if mean == 0.0 {
        1.0
    } else {
        0.0
    }
}

/// A paired difference from the baseline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// Mean per-deal difference.
    pub mean: f64,
    /// Its standard error (deal as the unit).
    pub se: f64,
    /// Two-sided p-value of "no difference".
    pub p: f64,
}

impl Difference {
    /// The difference of figures shifted by a known constant (`mean + by`, e.g. a score
    /// less a fair share that changes between the points), with the same SE and the
    /// p-value of the shifted mean, so that the interval and the p-value test one
    /// quantity.
    pub fn shifted(self, by: f64) -> Difference {
        let mean = self.mean + by;
        Difference { mean, se: self.se, p: two_sided_p(mean, self.se) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_differences_and_p_values_by_hand() {
        // Baseline per deal 1, 2, 3 (den 1); the variant 2, 4, 4 (den 2: 1, 2, 2).
        let (base_y, var_y) = ([1i64, 2, 3], [2i64, 4, 4]);
        let (mut base, mut var) = (PairedSums::default(), PairedSums::default());
        for (b, v) in base_y.iter().zip(&var_y) {
            base.add(&[*b], &[*b]);
            var.add(&[*v], &[*b]);
        }
        let (m, se) = var.mean_se(0, 2.0);
        // Values 1, 2, 2: mean 5/3, population variance 2/9, SE sqrt(2/27).
        assert!((m - 5.0 / 3.0).abs() < 1e-12 && (se - (2.0f64 / 27.0).sqrt()).abs() < 1e-12);
        // Differences 0, 0, -1: mean -1/3, population variance 2/9, SE sqrt(2/27).
        let d = var.difference(&base, 0, 2.0, 1.0);
        assert!((d.mean + 1.0 / 3.0).abs() < 1e-12 && (d.se - (2.0f64 / 27.0).sqrt()).abs() < 1e-12, "{d:?}");
        // z = -1.2247: p = 0.2207 (normal tables).
        assert!((d.p - 0.2207).abs() < 1e-3, "{}", d.p);
        assert_eq!(base.difference(&base, 0, 1.0, 1.0), Difference { mean: 0.0, se: 0.0, p: 1.0 });
        let mut whole = PairedSums::default();
        whole.merge(&var);
        assert_eq!(whole, var);
    }
}
