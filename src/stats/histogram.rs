//! An exact integer histogram: merging two is `+=` on counts, so the order in which
//! threads finish never changes a printed number.

use std::collections::BTreeMap;

/// Counts of non-negative integer observations, with exact sums for mean and variance.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Histogram {
    counts: BTreeMap<u64, u64>,
    n: u64,
    sum: u128,
    sum_sq: u128,
}

impl Histogram {
    /// An empty histogram.
    pub fn new() -> Self {
        Self::default()
    }
    /// Records one observation.
    pub fn add(&mut self, v: u64) {
        *self.counts.entry(v).or_insert(0) += 1;
        self.n += 1;
        self.sum += v as u128;
        self.sum_sq += (v as u128) * (v as u128);
    }
    /// Adds every observation of `other`.
    pub fn merge(&mut self, other: &Histogram) {
        for (&v, &c) in &other.counts {
            *self.counts.entry(v).or_insert(0) += c;
        }
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }
    /// Number of observations.
    pub fn count(&self) -> u64 {
        self.n
    }
    /// Each observed value with its count, ascending.
    pub fn counts(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.counts.iter().map(|(&v, &c)| (v, c))
    }
    /// Sum of the observations.
    pub fn sum(&self) -> u64 {
        self.sum as u64
    }
    /// Arithmetic mean (0 when empty).
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }
    /// Sample standard deviation (n − 1 in the denominator; 0 with fewer than 2 values).
    pub fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as u128;
        // n·Σx² − (Σx)² is exact in integers.
        let num = n * self.sum_sq - self.sum * self.sum;
        (num as f64 / (self.n as f64 * (self.n - 1) as f64)).sqrt()
    }
    /// Nearest-rank percentile: the smallest value v with at least `p`% of the
    /// observations ≤ v (0 when empty).
    pub fn percentile(&self, p: f64) -> u64 {
        if self.n == 0 {
            return 0;
        }
        let rank = ((p / 100.0) * self.n as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (&v, &c) in &self.counts {
            seen += c;
            if seen >= rank {
                return v;
            }
        }
        self.max()
    }
    /// Largest observation (0 when empty).
    pub fn max(&self) -> u64 {
        self.counts.keys().next_back().copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_moments_and_percentiles() {
        let mut h = Histogram::new();
        for v in [2, 4, 4, 4, 5, 5, 7, 9] {
            h.add(v);
        }
        assert_eq!(h.count(), 8);
        assert_eq!(h.mean(), 5.0);
        // Σ(x−5)² = 9+1+1+1+0+0+4+16 = 32; 32/7 = 4.571428...
        assert!((h.sd() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!(h.percentile(50.0), 4); // rank 4 of 8
        assert_eq!(h.percentile(90.0), 9); // rank ceil(7.2) = 8
        assert_eq!(h.percentile(62.5), 5); // rank 5
        assert_eq!(h.max(), 9);
    }

    #[test]
    fn merge_equals_adding_everything_to_one() {
        let (mut a, mut b, mut all) = (Histogram::new(), Histogram::new(), Histogram::new());
        for v in 0..100u64 {
            let x = v * v % 37;
            if v % 3 == 0 { a.add(x) } else { b.add(x) }
            all.add(x);
        }
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b;
        ba.merge(&a);
        assert_eq!(ab, all);
        assert_eq!(ba, all);
    }

    #[test]
    fn empty_histogram_is_all_zero() {
        let h = Histogram::new();
        assert_eq!((h.mean(), h.sd(), h.percentile(50.0), h.max()), (0.0, 0.0, 0, 0));
    }
}
