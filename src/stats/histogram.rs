//! A fixed-layout integer histogram, in the spirit of HdrHistogram: every value below
//! [`EXACT`] (16,384) has a bucket of its own, so small counts (turns, actions,
//! rounds) are counted exactly; above it every octave `[2^e, 2^(e+1))` is split into
//! [`SUB`] (1,024) buckets of equal width `2^(e-10)`, so a bucket's width is at most
//! 1/1,024 of its lowest value. The layout has [`BUCKETS`] buckets whatever the data,
//! so memory is bounded by the layout, not by the number of matches; only non-empty
//! buckets are stored (a list sorted by bucket).
//!
//! What is exact and what is not:
//! - the count, sum and sum of squares are exact integers, so the mean and the sample
//!   standard deviation are those of the raw values, and the maximum is kept exactly;
//! - a percentile is the nearest-rank percentile's bucket reported by its middle value
//!   ([`Histogram::percentile`]): exact below [`EXACT`], and within 1/2,048 (0.049%)
//!   of the exact nearest-rank value above it (`docs/statistics.md`).
//!
//! Merging two histograms is `+=` on bucket counts and sums, so the order in which
//! threads, shards or checkpoints are merged never changes a printed number. A
//! histogram that will receive a known number of observations (a chunk of a run) can
//! [`reserve`](Histogram::reserve) room for them first: they are then kept in a buffer
//! of bucket numbers and counted into the list only when read, merged or settled, so
//! recording a match never allocates (`tests/no_alloc.rs`).
//!
//! Saved (checkpoints, shard partials) as `{layout, n, sum, sum_sq, min, max,
//! buckets: [[bucket, count], ...]}`; reading it back checks the layout, the buckets
//! and that the totals agree, with a one-line error naming the field.

use std::borrow::Cow;

/// log2 of [`EXACT`].
pub const EXACT_BITS: u32 = 14;
/// Values below this (16,384) are counted exactly, one bucket per value.
pub const EXACT: u64 = 1 << EXACT_BITS;
/// log2 of [`SUB`].
pub const SUB_BITS: u32 = 10;
/// Buckets per octave at and above [`EXACT`] (1,024).
pub const SUB: u64 = 1 << SUB_BITS;
/// Buckets in the layout, covering every `u64`: 16,384 + 50 × 1,024 = 67,584.
pub const BUCKETS: u32 = (EXACT + (64 - EXACT_BITS as u64) * SUB) as u32;

/// Observations buffered before they are counted into the list when no room was
/// reserved (bounds the buffer of a histogram filled one value at a time).
const UNRESERVED_ROOM: usize = 4096;

/// The bucket holding value `v`.
pub fn bucket_of(v: u64) -> u32 {
    if v < EXACT {
        v as u32
    } else {
        let e = 63 - v.leading_zeros(); // 2^e <= v < 2^(e+1), e >= EXACT_BITS
        let sub = (v >> (e - SUB_BITS)) - SUB; // 0..SUB
        (EXACT + (e - EXACT_BITS) as u64 * SUB + sub) as u32
    }
}

/// The lowest and highest value of bucket `b` (`b < BUCKETS`).
pub fn bucket_range(b: u32) -> (u64, u64) {
    let b = b as u64;
    if b < EXACT {
        return (b, b);
    }
    let (octave, sub) = ((b - EXACT) / SUB, (b - EXACT) % SUB);
    let shift = EXACT_BITS as u64 + octave - SUB_BITS as u64;
    let low = (SUB + sub) << shift;
    (low, low + ((1u64 << shift) - 1))
}

/// Counts of non-negative integer observations in the fixed layout, with exact sums
/// for mean and variance and the exact extremes.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(into = "Saved", try_from = "Saved")]
pub struct Histogram {
    /// Non-empty buckets, ascending: (bucket, count).
    buckets: Vec<(u32, u64)>,
    /// Buckets of observations recorded into reserved room and not yet counted.
    pending: Vec<u32>,
    n: u64,
    sum: u128,
    sum_sq: u128,
    /// Smallest observation (`u64::MAX` when empty).
    min: u64,
    /// Largest observation (0 when empty).
    max: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram { buckets: Vec::new(), pending: Vec::new(), n: 0, sum: 0, sum_sq: 0, min: u64::MAX, max: 0 }
    }
}

/// A histogram as saved: every observation counted, the layout named.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Saved {
    /// `[EXACT_BITS, SUB_BITS]` of the code that wrote it.
    layout: [u32; 2],
    n: u64,
    sum: u128,
    sum_sq: u128,
    /// 0 when empty.
    min: u64,
    max: u64,
    buckets: Vec<(u32, u64)>,
}

impl From<Histogram> for Saved {
    fn from(h: Histogram) -> Saved {
        let buckets = h.settled().into_owned();
        Saved { layout: [EXACT_BITS, SUB_BITS], n: h.n, sum: h.sum, sum_sq: h.sum_sq, min: if h.n == 0 { 0 } else { h.min }, max: h.max, buckets }
    }
}

impl TryFrom<Saved> for Histogram {
    type Error = String;
    /// Checks what was read back: the layout, buckets in range, ascending and
    /// non-empty, and totals that agree with them (count, extremes, sums).
    fn try_from(s: Saved) -> Result<Histogram, String> {
        let bad = |what: String| Err(format!("histogram: {what}"));
        if s.layout != [EXACT_BITS, SUB_BITS] {
            return bad(format!("`layout` {:?} is not this build's [{EXACT_BITS}, {SUB_BITS}]", s.layout));
        }
        if let Some(&(b, _)) = s.buckets.iter().find(|&&(b, _)| b >= BUCKETS) {
            return bad(format!("`buckets` names bucket {b}; the layout has {BUCKETS}"));
        }
        if s.buckets.windows(2).any(|w| w[0].0 >= w[1].0) {
            return bad("`buckets` is not in strictly ascending bucket order".into());
        }
        if let Some(&(b, _)) = s.buckets.iter().find(|&&(_, c)| c == 0) {
            return bad(format!("`buckets` gives bucket {b} a count of 0"));
        }
        let total = s.buckets.iter().try_fold(0u64, |t, &(_, c)| t.checked_add(c));
        if total != Some(s.n) {
            return bad(format!("`buckets` hold {} observations but `n` is {}", total.map_or("more than 2^64".into(), |t| t.to_string()), s.n));
        }
        let (Some(&(first, _)), Some(&(last, _))) = (s.buckets.first(), s.buckets.last()) else {
            if (s.sum, s.sum_sq, s.min, s.max) != (0, 0, 0, 0) {
                return bad("no observations but `sum`, `sum_sq`, `min` or `max` is not 0".into());
            }
            return Ok(Histogram::default());
        };
        if s.min > s.max || bucket_of(s.min) != first || bucket_of(s.max) != last {
            return bad(format!("`min` {} or `max` {} is not in the first or last bucket", s.min, s.max));
        }
        // Each observation lies in its bucket and between min and max: the sums must too.
        let bounds = |power: fn(u64) -> Option<u128>| -> Option<(u128, u128)> {
            s.buckets.iter().try_fold((0u128, 0u128), |(lo, hi), &(b, c)| {
                let (l, h) = bucket_range(b);
                let (l, h) = (l.max(s.min), h.min(s.max));
                Some((lo.checked_add(power(l)?.checked_mul(c as u128)?)?, hi.checked_add(power(h)?.checked_mul(c as u128)?)?))
            })
        };
        let in_range = |v: u128, b: Option<(u128, u128)>| b.is_some_and(|(lo, hi)| (lo..=hi).contains(&v));
        if !in_range(s.sum, bounds(|v| Some(v as u128))) {
            return bad(format!("`sum` {} does not fit the buckets", s.sum));
        }
        if !in_range(s.sum_sq, bounds(|v| (v as u128).checked_mul(v as u128))) {
            return bad(format!("`sum_sq` {} does not fit the buckets", s.sum_sq));
        }
        // The variance's n·Σx² − (Σx)² must be computable and not negative.
        match ((s.n as u128).checked_mul(s.sum_sq), s.sum.checked_mul(s.sum)) {
            (Some(a), Some(b)) if a >= b => {}
            _ => return bad(format!("`sum_sq` {} and `sum` {} give no variance over {} observations", s.sum_sq, s.sum, s.n)),
        }
        Ok(Histogram { buckets: s.buckets, pending: Vec::new(), n: s.n, sum: s.sum, sum_sq: s.sum_sq, min: s.min, max: s.max })
    }
}

impl PartialEq for Histogram {
    fn eq(&self, other: &Histogram) -> bool {
        (self.n, self.sum, self.sum_sq, self.min, self.max) == (other.n, other.sum, other.sum_sq, other.min, other.max) && self.settled() == other.settled()
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
        if self.pending.len() == self.pending.capacity() {
            // No reserved room left: count what is buffered and buffer in bounded room.
            self.settle();
            self.pending.reserve_exact(UNRESERVED_ROOM);
        }
        self.pending.push(bucket_of(v));
        self.n += 1;
        self.sum += v as u128;
        self.sum_sq += (v as u128) * (v as u128);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }
    /// Counts the buffered observations into the list (keeping the reserved room).
    pub fn settle(&mut self) {
        if !self.pending.is_empty() {
            self.pending.sort_unstable();
            add_into(&mut self.buckets, runs(&self.pending));
            self.pending.clear();
        }
    }
    /// Every observation counted: the list itself when nothing is buffered.
    fn settled(&self) -> Cow<'_, [(u32, u64)]> {
        if self.pending.is_empty() {
            Cow::Borrowed(&self.buckets)
        } else {
            let (mut buckets, mut pending) = (self.buckets.clone(), self.pending.clone());
            pending.sort_unstable();
            add_into(&mut buckets, runs(&pending));
            Cow::Owned(buckets)
        }
    }
    /// Adds every observation of `other`.
    pub fn merge(&mut self, other: &Histogram) {
        self.settle();
        add_into(&mut self.buckets, other.settled().iter().copied());
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }
    /// Number of observations.
    pub fn count(&self) -> u64 {
        self.n
    }
    /// The value a bucket stands for: its middle value (rounded down), kept within the
    /// observed minimum and maximum; in the exact range, the value itself.
    fn value_of(&self, b: u32) -> u64 {
        let (low, high) = bucket_range(b);
        (low + (high - low) / 2).clamp(self.min, self.max)
    }
    /// Each non-empty bucket's value ([`Histogram::percentile`]'s) with its count,
    /// ascending: below [`EXACT`] every observed value with its exact count.
    pub fn counts(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.settled().into_owned().into_iter().map(|(b, c)| (self.value_of(b), c))
    }
    /// Sum of the observations.
    pub fn sum(&self) -> u64 {
        self.sum as u64
    }
    /// Arithmetic mean (0 when empty), from the exact sum.
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }
    /// Sample standard deviation (n − 1 in the denominator; 0 with fewer than 2
    /// values), from the exact sums.
    pub fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as u128;
        // n·Σx² − (Σx)² is exact in integers.
        let num = n * self.sum_sq - self.sum * self.sum;
        (num as f64 / (self.n as f64 * (self.n - 1) as f64)).sqrt()
    }
    /// Nearest-rank percentile: the bucket of the smallest value v with at least `p`%
    /// of the observations ≤ v, reported by the bucket's value (0 when empty). Exact
    /// when v < [`EXACT`]; otherwise within v/2,048 of v, and never outside the
    /// observed minimum and maximum.
    pub fn percentile(&self, p: f64) -> u64 {
        if self.n == 0 {
            return 0;
        }
        let rank = ((p / 100.0) * self.n as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for &(b, c) in self.settled().iter() {
            seen += c;
            if seen >= rank {
                return self.value_of(b);
            }
        }
        self.max
    }
    /// Largest observation, exact (0 when empty).
    pub fn max(&self) -> u64 {
        self.max
    }
}

/// Counts of each bucket of the sorted bucket numbers `sorted`, ascending.
fn runs(sorted: &[u32]) -> impl DoubleEndedIterator<Item = (u32, u64)> + Clone + '_ {
    sorted.chunk_by(|a, b| a == b).map(|run| (run[0], run.len() as u64))
}

/// Adds the ascending bucket counts `b` into the ascending list `a` in place: `a`
/// grows only by the buckets new to it, so merging into a list that already has every
/// bucket allocates nothing (a run's accumulator, once its range is covered).
fn add_into<I: DoubleEndedIterator<Item = (u32, u64)> + Clone>(a: &mut Vec<(u32, u64)>, b: I) {
    let mut new = 0;
    let mut i = 0;
    for (bb, _) in b.clone() {
        while i < a.len() && a[i].0 < bb {
            i += 1;
        }
        new += (i == a.len() || a[i].0 != bb) as usize;
    }
    // Merge from the back into the grown list: each entry moves at most once.
    let mut read = a.len();
    a.reserve_exact(new);
    a.resize(read + new, (0, 0));
    let mut write = a.len();
    for (bb, bc) in b.rev() {
        while read > 0 && a[read - 1].0 > bb {
            a[write - 1] = a[read - 1];
            (read, write) = (read - 1, write - 1);
        }
        if read > 0 && a[read - 1].0 == bb {
            a[write - 1] = (bb, a[read - 1].1 + bc);
            read -= 1;
        } else {
            a[write - 1] = (bb, bc);
        }
        write -= 1;
    }
    debug_assert_eq!(read, write, "the entries before the first new one stay in place");
}

#[cfg(test)]
mod tests;
