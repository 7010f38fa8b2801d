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

/// The tolerance of [`edge_verdict`]: an edge whose 95% interval lies within ±1
/// point (0.01 of a score) counts as balanced.
pub const BALANCE_TOLERANCE: f64 = 0.01;

/// A plain verdict on a seat's edge (its score less its fair share) from its interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeVerdict {
    /// The whole interval lies within ±tolerance: balanced in practice.
    Balanced,
    /// The interval lies above 0 and reaches past +tolerance: the seat is favoured.
    Favoured,
    /// The interval lies below 0 and reaches past -tolerance: the seat is at a
    /// disadvantage.
    Disfavoured,
    /// The interval holds 0 and reaches past ±tolerance: more deals are needed.
    Inconclusive,
}

/// The verdict on an edge with interval `[low, high]` (docs/statistics.md, "Verdicts"):
/// balanced when `-tolerance <= low` and `high <= tolerance`; else favoured when
/// `low > 0`, disfavoured when `high < 0`, inconclusive otherwise.
pub fn edge_verdict(low: f64, high: f64, tolerance: f64) -> EdgeVerdict {
    if low >= -tolerance && high <= tolerance {
        EdgeVerdict::Balanced
    } else if low > 0.0 {
        EdgeVerdict::Favoured
    } else if high < 0.0 {
        EdgeVerdict::Disfavoured
    } else {
        EdgeVerdict::Inconclusive
    }
}

/// The verdict on `who`'s edge `edge` with interval `[low, high]` (scores; printed in
/// points, hundredths of a score) as a sentence, e.g. "seat 0 favoured by +2.1 points
/// [+1.0, +3.2]".
pub fn edge_verdict_text(who: &str, edge: f64, low: f64, high: f64, tolerance: f64) -> String {
    let pt = |x: f64| format!("{:+.1}", 100.0 * x + 0.0);
    let tol = format!("±{} point{}", 100.0 * tolerance, if tolerance == 0.01 { "" } else { "s" });
    let interval = format!("{} points [{}, {}]", pt(edge), pt(low), pt(high));
    match edge_verdict(low, high, tolerance) {
        EdgeVerdict::Balanced => format!("balanced within {tol} at 95% ({who} edge {interval})"),
        EdgeVerdict::Favoured => format!("{who} favoured by {interval}"),
        EdgeVerdict::Disfavoured => format!("{who} at a disadvantage: {interval}"),
        EdgeVerdict::Inconclusive => format!("inconclusive: {who} edge {interval}, an interval that holds 0 and reaches past {tol}"),
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

    #[test]
    fn verdicts_on_constructed_intervals() {
        let t = BALANCE_TOLERANCE;
        assert_eq!(edge_verdict(-0.004, 0.009, t), EdgeVerdict::Balanced);
        assert_eq!(edge_verdict(-0.01, 0.01, t), EdgeVerdict::Balanced, "the bounds count as within");
        assert_eq!(edge_verdict(0.002, 0.008, t), EdgeVerdict::Balanced, "an edge within the tolerance is balanced even when it excludes 0");
        assert_eq!(edge_verdict(0.010, 0.032, t), EdgeVerdict::Favoured);
        assert_eq!(edge_verdict(-0.032, -0.0001, t), EdgeVerdict::Disfavoured);
        assert_eq!(edge_verdict(-0.005, 0.0101, t), EdgeVerdict::Inconclusive);
        assert_eq!(edge_verdict(-0.2, 0.2, t), EdgeVerdict::Inconclusive);
        assert_eq!(edge_verdict_text("seat 0", 0.021, 0.010, 0.032, t), "seat 0 favoured by +2.1 points [+1.0, +3.2]");
        assert_eq!(edge_verdict_text("seat 0", 0.001, -0.004, 0.006, t), "balanced within ±1 point at 95% (seat 0 edge +0.1 points [-0.4, +0.6])");
        assert_eq!(edge_verdict_text("seat 0", -0.05, -0.07, -0.03, t), "seat 0 at a disadvantage: -5.0 points [-7.0, -3.0]");
        assert_eq!(
            edge_verdict_text("seat 0", 0.003, -0.012, 0.018, t),
            "inconclusive: seat 0 edge +0.3 points [-1.2, +1.8], an interval that holds 0 and reaches past ±1 point"
        );
    }
}
