//! An exact integer histogram: merging two is `+=` on counts, so the order in which
//! threads finish never changes a printed number.
//!
//! A histogram that will receive a known number of observations (a chunk of a run) can
//! [`reserve`](Histogram::reserve) room for them first: they are then kept in a buffer
//! and counted into the ordered map only when read, merged or settled, so recording a
//! match never allocates (`tests/no_alloc.rs`).

use std::borrow::Cow;
use std::collections::BTreeMap;

/// Counts of non-negative integer observations, with exact sums for mean and variance.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(into = "Counted", from = "Counted")]
pub struct Histogram {
    counts: BTreeMap<u64, u64>,
    /// Observations recorded into reserved room and not yet in `counts`.
    pending: Vec<u64>,
    n: u64,
    sum: u128,
    sum_sq: u128,
}

/// A histogram with every observation counted: what is saved and compared.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Counted {
    counts: BTreeMap<u64, u64>,
    n: u64,
    sum: u128,
    sum_sq: u128,
}

impl From<Histogram> for Counted {
    fn from(h: Histogram) -> Counted {
        let counts = h.settled().into_owned();
        Counted { counts, n: h.n, sum: h.sum, sum_sq: h.sum_sq }
    }
}

impl From<Counted> for Histogram {
    fn from(c: Counted) -> Histogram {
        Histogram { counts: c.counts, pending: Vec::new(), n: c.n, sum: c.sum, sum_sq: c.sum_sq }
    }
}

impl PartialEq for Histogram {
    fn eq(&self, other: &Histogram) -> bool {
        (self.n, self.sum, self.sum_sq) == (other.n, other.sum, other.sum_sq) && self.settled() == other.settled()
    }
}

impl Eq for Histogram {}

impl Histogram {
    /// An empty histogram.
    pub fn new() -> Self {
        Self::default()
    }
    /// Makes room for `extra` more observations, so that adding them allocates nothing.
    pub fn reserve(&mut self, extra: usize) {
        self.pending.reserve_exact(extra);
    }
    /// Records one observation.
    pub fn add(&mut self, v: u64) {
        if self.pending.len() < self.pending.capacity() {
            self.pending.push(v);
        } else {
            *self.counts.entry(v).or_insert(0) += 1;
        }
        self.n += 1;
        self.sum += v as u128;
        self.sum_sq += (v as u128) * (v as u128);
    }
    /// Counts the buffered observations into the map (keeping the reserved room).
    pub fn settle(&mut self) {
        count_into(&mut self.counts, &mut self.pending);
    }
    /// Every observation counted: the map itself when nothing is buffered.
    fn settled(&self) -> Cow<'_, BTreeMap<u64, u64>> {
        if self.pending.is_empty() {
            Cow::Borrowed(&self.counts)
        } else {
            let (mut counts, mut pending) = (self.counts.clone(), self.pending.clone());
            count_into(&mut counts, &mut pending);
            Cow::Owned(counts)
        }
    }
    /// Adds every observation of `other`.
    pub fn merge(&mut self, other: &Histogram) {
        for (&v, &c) in &other.counts {
            *self.counts.entry(v).or_insert(0) += c;
        }
        for &v in &other.pending {
            *self.counts.entry(v).or_insert(0) += 1;
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
        self.settled().into_owned().into_iter()
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
        for (&v, &c) in self.settled().iter() {
            seen += c;
            if seen >= rank {
                return v;
            }
        }
        self.max()
    }
    /// Largest observation (0 when empty).
    pub fn max(&self) -> u64 {
        self.settled().keys().next_back().copied().unwrap_or(0)
    }
}

/// Counts the values in `pending` into `counts` and empties `pending`.
fn count_into(counts: &mut BTreeMap<u64, u64>, pending: &mut Vec<u64>) {
    pending.sort_unstable();
    for run in pending.chunk_by(|a, b| a == b) {
        *counts.entry(run[0]).or_insert(0) += run.len() as u64;
    }
    pending.clear();
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
    fn buffered_observations_count_like_direct_ones() {
        let (mut direct, mut buffered) = (Histogram::new(), Histogram::new());
        buffered.reserve(60);
        for v in 0..100u64 {
            direct.add(v * 7 % 13);
            buffered.add(v * 7 % 13); // the first 60 are buffered, the rest counted
        }
        assert_eq!(buffered.pending.len(), 60);
        assert_eq!(buffered, direct);
        assert_eq!(buffered.counts().collect::<Vec<_>>(), direct.counts().collect::<Vec<_>>());
        assert_eq!((buffered.percentile(50.0), buffered.max()), (direct.percentile(50.0), direct.max()));
        assert_eq!(serde_json::to_string(&buffered).unwrap(), serde_json::to_string(&direct).unwrap());
        let mut merged = Histogram::new();
        merged.merge(&buffered);
        assert_eq!(merged, direct);
        buffered.settle();
        assert!(buffered.pending.is_empty() && buffered.pending.capacity() >= 60);
        assert_eq!(buffered.counts, direct.counts);
    }

    #[test]
    fn empty_histogram_is_all_zero() {
        let h = Histogram::new();
        assert_eq!((h.mean(), h.sd(), h.percentile(50.0), h.max()), (0.0, 0.0, 0, 0));
    }
}
