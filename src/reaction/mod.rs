//! Reaction-time models: how long a bot takes to see, decide and move
//! (`docs/rules/reaction-time.md`, section 5). All times are in milliseconds
//! here; the real-time engine works in integer microseconds.

pub mod distribution;
pub mod limits;
pub mod presets;

pub use distribution::Dist;
pub use limits::ParamError;
pub use presets::Preset;

use rand::{Rng, RngExt};
use rand_distr::{Distribution, StandardNormal};

/// Kinds of hand movement, each with its own motor time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Motion {
    /// Card from own pile to a centre pile.
    Play = 0,
    /// Turn a face-down card up in place.
    Flip,
    /// Move a card between two of one's own piles.
    Fill,
    /// Take what a rejected action carried back to where it came from.
    Return,
    /// The movement of a synchronised event: a reserve card flipped onto a centre pile
    /// (Spit's spit, Speed's side-pile flip), a stock turned over.
    Sync,
    /// Take a card from one's stock into the hand.
    Draw,
    /// Slap a pile.
    Slap,
}

/// Number of [`Motion`] kinds.
pub const MOTIONS: usize = 7;

/// Movements, total Fitts index of difficulty (bits) and share of grasp+release per
/// motion, from the table geometry of reaction-time.md section 1.5: reaching 15 cm to a
/// 6.3 cm pile is 1.76 bits, moving 30 cm to a centre pile 2.53 bits, a 30 cm slap at a
/// 8.8 cm pile 2.14 bits; turning a card in place is taken as 1 bit.
const MOTION_GEOMETRY: [(f64, f64, f64); MOTIONS] = [
    (2.0, 1.76 + 2.53, 1.0), // Play
    (2.0, 1.76 + 1.0, 1.0),  // Flip
    (2.0, 1.76 + 1.76, 1.0), // Fill
    (1.0, 1.76, 0.5),        // Return
    (2.0, 1.76 + 2.53, 1.0), // Sync
    (2.0, 1.76 + 1.76, 1.0), // Draw
    (1.0, 2.14, 0.0),        // Slap
];

/// Longest plausible reaction time (ms): one minute. Bot-file parameters and the mean of
/// every distribution are checked against it ([`limits`]), and every drawn time is
/// clamped to it by [`ms_to_us`].
pub const MAX_MS: f64 = 60_000.0;

/// Extra time of a motor fumble (MTM "position" element, about 200 ms).
const FUMBLE_MS: f64 = 200.0;

/// A complete reaction-time model of one bot.
#[derive(Clone, Copy, Debug)]
pub struct ReactionModel {
    /// Time of one look at the table.
    pub look: Dist,
    /// Visual search cost per candidate card (ms).
    pub scan_per_item: f64,
    /// Hick–Hyman slope (ms per bit of log2(options + 1)).
    pub hick_b: f64,
    /// Fitts intercept per movement (ms).
    pub fitts_a: f64,
    /// Fitts slope (ms per bit).
    pub fitts_b: f64,
    /// Grasp plus release (ms).
    pub grasp_release: f64,
    /// Coefficient of variation of motor times (lognormal); 0 = constant.
    pub motor_cv: f64,
    /// Share of the shorter of cognition and movement hidden by pipelining (0..1).
    pub overlap: f64,
    /// Simple reaction time to a predictable cue (slap, stall recognition).
    pub simple: Dist,
    /// Probability that a look misses the move it should have seen (one more look).
    pub p_miss: f64,
    /// Probability that a movement fumbles (adds a positioning motion).
    pub p_fumble: f64,
}

impl ReactionModel {
    /// Mean motor time of a motion (ms).
    pub fn motor_mean(&self, m: Motion) -> f64 {
        self.geometry_mean(MOTION_GEOMETRY[m as usize])
    }

    /// Mean motor time of a movement given as (movements, bits, share of grasp+release).
    fn geometry_mean(&self, (moves, bits, grasp): (f64, f64, f64)) -> f64 {
        moves * self.fitts_a + self.fitts_b * bits + grasp * self.grasp_release
    }

    /// Draws a motor time (lognormal with the model's cv around the mean).
    pub fn motor_time<R: Rng + ?Sized>(&self, m: Motion, rng: &mut R) -> f64 {
        let mean = self.motor_mean(m);
        let mut t = if self.motor_cv == 0.0 {
            mean
        } else {
            // Lognormal with this mean and cv: mean · exp(σZ − σ²/2), σ² = ln(1 + cv²).
            let (s2, sigma) = lognormal_sigma(self.motor_cv);
            let z: f64 = StandardNormal.sample(rng);
            mean * (sigma * z - s2 / 2.0).exp()
        };
        if self.p_fumble > 0.0 && rng.random::<f64>() < self.p_fumble {
            t += FUMBLE_MS;
        }
        t
    }

    /// Perception and decision time: one look (plus another on a miss), a visual scan of
    /// `candidates` items (self-terminating when `found`), and Hick–Hyman over `options`.
    pub fn cognition_time<R: Rng + ?Sized>(&self, candidates: u32, options: u32, found: bool, rng: &mut R) -> f64 {
        let mut look = self.look.sample(rng);
        if self.p_miss > 0.0 && rng.random::<f64>() < self.p_miss {
            look += self.look.sample(rng);
        }
        let scanned = if found && candidates > 1 { rng.random_range(1..=candidates) } else { candidates };
        look + self.scan_per_item * scanned as f64 + self.hick_b * log2_of(options + 1)
    }

    /// Time from decision to commit of an action (ms): cognition plus movement, less the
    /// pipelined overlap (reaction-time.md section 5.1).
    pub fn action_time<R: Rng + ?Sized>(&self, m: Motion, candidates: u32, options: u32, rng: &mut R) -> f64 {
        let cog = self.cognition_time(candidates, options, true, rng);
        let motor = self.motor_time(m, rng);
        cog + motor - self.overlap * cog.min(motor)
    }

    /// Time to slap a pile after a predictable cue (ms).
    pub fn slap_time<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        self.simple.sample(rng) + self.motor_time(Motion::Slap, rng)
    }

    /// Time to recognise a predictable event such as a stall (ms).
    pub fn recognition_time<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        self.simple.sample(rng)
    }
}

/// `(s2, s2.sqrt())` with `s2 = ln(1 + cv²)`, the lognormal σ² for a coefficient of
/// variation `cv`, remembered per thread for the last `cv` asked (a model asks for
/// the same one every time): the same numbers as computing them afresh.
#[inline]
fn lognormal_sigma(cv: f64) -> (f64, f64) {
    use std::cell::Cell;
    thread_local! {
        static LAST: Cell<Option<(u64, f64, f64)>> = const { Cell::new(None) };
    }
    LAST.with(|last| match last.get() {
        Some((bits, s2, sigma)) if bits == cv.to_bits() => (s2, sigma),
        _ => {
            let s2 = (1.0 + cv * cv).ln();
            let sigma = s2.sqrt();
            last.set(Some((cv.to_bits(), s2, sigma)));
            (s2, sigma)
        }
    })
}

/// Entries of [`log2_of`]'s table: every option count a real-time action list can hold.
const LOG2_TABLE_LEN: usize = 129;

/// `(n as f64).log2()`, from a table for small `n` (the same numbers).
#[inline]
fn log2_of(n: u32) -> f64 {
    static TABLE: std::sync::LazyLock<[f64; LOG2_TABLE_LEN]> = std::sync::LazyLock::new(|| std::array::from_fn(|n| (n as f64).log2()));
    if (n as usize) < LOG2_TABLE_LEN { TABLE[n as usize] } else { (n as f64).log2() }
}

/// A drawn time in milliseconds to whole microseconds, saturating: the time is first
/// clamped to [0, [`MAX_MS`]] (NaN becomes 0), so even a sampled outlier or a broken
/// parameter cannot overflow or wrap simulated time; the result is never below 1 µs, so
/// time always advances.
#[inline]
pub fn ms_to_us(ms: f64) -> u64 {
    let ms = if ms.is_nan() { 0.0 } else { ms.clamp(0.0, MAX_MS) };
    round_half_up(ms * 1000.0).max(1)
}

/// `x.round() as u64` for `0 <= x < 2^52`, without the library call baseline x86-64
/// makes for `round`: the fraction `x - trunc(x)` is exact in that range.
#[inline]
fn round_half_up(x: f64) -> u64 {
    let whole = x as u64;
    whole + (x - whole as f64 >= 0.5) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from;

    fn mean_of(n: usize, mut f: impl FnMut() -> f64) -> f64 {
        (0..n).map(|_| f()).sum::<f64>() / n as f64
    }

    #[test]
    fn ms_to_us_saturates_at_a_minute_and_never_wraps() {
        assert_eq!(ms_to_us(1.5), 1500);
        assert_eq!(ms_to_us(0.0), 1, "time always advances");
        assert_eq!(ms_to_us(MAX_MS), 60_000_000);
        for huge in [60_000.4, 1e300, f64::INFINITY, f64::MAX] {
            assert_eq!(ms_to_us(huge), 60_000_000, "{huge}");
        }
        for low in [-5.0, f64::NEG_INFINITY, f64::NAN] {
            assert_eq!(ms_to_us(low), 1, "{low}");
        }
    }

    #[test]
    fn rounding_to_microseconds_equals_the_library_round() {
        let mut rng = rng_from(4);
        let edges = [0.0, 0.5, 1.5, 2.5, 0.49999999999999994, 1e-300, 4503599627370495.5, 59_999_999.5, 12.4999999, 12.5000001];
        let random = (0..200_000).map(|_| rng.random::<f64>() * 6e7).chain((0..1000).map(|i| i as f64 / 2.0));
        for x in edges.into_iter().chain(random) {
            assert_eq!(round_half_up(x), x.round() as u64, "{x:e}");
        }
    }

    #[test]
    fn cached_constants_equal_fresh_ones() {
        for n in (0..300).chain([u32::MAX - 1, u32::MAX]) {
            assert_eq!(log2_of(n).to_bits(), (n as f64).log2().to_bits(), "log2 {n}");
        }
        for cv in [0.15f64, 0.2, 0.15, 0.0, 1e-9, 3.0, 0.2] {
            let s2 = (1.0 + cv * cv).ln();
            assert_eq!(lognormal_sigma(cv), (s2, s2.sqrt()), "cv {cv}");
        }
    }

    #[test]
    fn machine_preset_is_the_constant_reference() {
        let m = Preset::Machine.model();
        let mut rng = rng_from(1);
        // 50 ms look + 200 ms motor − full overlap of the 50 ms = 200 ms (reaction-time.md 5.2).
        assert_eq!(m.action_time(Motion::Play, 5, 1, &mut rng), 200.0);
        assert_eq!(m.slap_time(&mut rng), 200.0);
    }

    #[test]
    fn presets_are_ordered_by_speed_and_match_the_reference_table() {
        // Reference (reaction-time.md 5.2, k = 5 candidates, n = 1 option): serial means
        // novice 2203, casual 1643, skilled 1254, expert 979 ms; with overlap skilled ≈1031, expert ≈727.
        let expected = [(Preset::Novice, 2203.0), (Preset::Casual, 1643.0), (Preset::Skilled, 1031.0), (Preset::Expert, 727.0)];
        let mut rng = rng_from(2);
        let mut last = f64::INFINITY;
        for (p, want) in expected {
            let m = p.model();
            let got = mean_of(40_000, || m.action_time(Motion::Play, 5, 1, &mut rng));
            assert!((got - want).abs() / want < 0.08, "{p:?}: mean {got:.0} ms, reference {want} ms");
            assert!(got < last, "{p:?} should be faster than the previous preset");
            last = got;
        }
    }

    #[test]
    fn motor_times_are_lognormal_with_the_preset_mean_and_cv() {
        let m = ReactionModel { p_fumble: 0.0, ..Preset::Novice.model() };
        let mut rng = rng_from(8);
        let xs: Vec<f64> = (0..100_000).map(|_| m.motor_time(Motion::Play, &mut rng)).collect();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len() - 1) as f64).sqrt();
        // Novice PLAY: 2 × 150 + 150 × 4.29 + 200 = 1143.5 ms, cv 0.15.
        assert!((mean - 1143.5).abs() < 3.0, "mean {mean}");
        assert!((sd / mean - 0.15).abs() < 0.003, "cv {}", sd / mean);
    }

    #[test]
    fn hick_hyman_time_grows_with_options() {
        let m = Preset::Casual.model();
        let mut rng = rng_from(3);
        let one = mean_of(20_000, || m.cognition_time(3, 1, true, &mut rng));
        let seven = mean_of(20_000, || m.cognition_time(3, 7, true, &mut rng));
        // 150 ms/bit × (log2 8 − log2 2) = 300 ms more.
        assert!((seven - one - 300.0).abs() < 25.0, "difference {}", seven - one);
    }

    #[test]
    fn slap_means_follow_the_presets() {
        // Slap SRT means 410/300/235/205 ms plus a 2.14-bit movement.
        let mut rng = rng_from(4);
        for (p, srt) in [(Preset::Novice, 410.0), (Preset::Expert, 205.0)] {
            let m = p.model();
            let want = srt + m.motor_mean(Motion::Slap) + m.p_fumble * FUMBLE_MS;
            let got = mean_of(40_000, || m.slap_time(&mut rng));
            assert!((got - want).abs() / want < 0.05, "{p:?} {got} vs {want}");
        }
    }
}
