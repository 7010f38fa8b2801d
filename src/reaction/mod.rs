//! Reaction-time models: how long a bot takes to see, decide and move
//! (`docs/rules/reaction-time.md`, section 5). All times are in milliseconds
//! here; the real-time engine works in integer microseconds.
//!
//! A [`ReactionModel`] is the parameters (bot files, presets, fitting build it by its
//! fields); the engine draws from its [`PreparedModel`], made once per match, which gives
//! the same times from the same random numbers with less work per draw.

pub mod distribution;
pub mod limits;
pub mod presets;

pub use distribution::Dist;
pub use limits::ParamError;
pub use presets::Preset;

use crate::fpmath;
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
        self.prepare().motor_time(m, rng)
    }

    /// Perception and decision time: one look (plus another on a miss), a visual scan of
    /// `candidates` items (self-terminating when `found`), and Hick–Hyman over `options`.
    pub fn cognition_time<R: Rng + ?Sized>(&self, candidates: u32, options: u32, found: bool, rng: &mut R) -> f64 {
        self.prepare().cognition_time(candidates, options, found, rng)
    }

    /// Time from decision to commit of an action (ms): cognition plus movement, less the
    /// pipelined overlap (reaction-time.md section 5.1).
    pub fn action_time<R: Rng + ?Sized>(&self, m: Motion, candidates: u32, options: u32, rng: &mut R) -> f64 {
        self.prepare().action_time(m, candidates, options, rng)
    }

    /// Time to slap a pile after a predictable cue (ms).
    pub fn slap_time<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        self.prepare().slap_time(rng)
    }

    /// Time to recognise a predictable event such as a stall (ms).
    pub fn recognition_time<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        self.simple.sample(rng)
    }

    /// The model prepared for drawing many times: see [`PreparedModel`]. The model's own
    /// draw methods prepare it on every call; a match prepares each seat's model once
    /// ([`crate::realtime::Seated`]).
    pub fn prepare(&self) -> PreparedModel {
        let lognormal = (self.motor_cv != 0.0).then(|| {
            let s2 = fpmath::ln(1.0 + self.motor_cv * self.motor_cv);
            Lognormal { sigma: s2.sqrt(), half_s2: s2 / 2.0 }
        });
        PreparedModel {
            look: self.look,
            simple: self.simple,
            scan_per_item: self.scan_per_item,
            hick_b: self.hick_b,
            overlap: self.overlap,
            motor_mean: std::array::from_fn(|m| self.geometry_mean(MOTION_GEOMETRY[m])),
            lognormal,
            miss: Coin::new(self.p_miss),
            fumble: Coin::new(self.p_fumble),
        }
    }
}

/// A [`ReactionModel`] prepared for drawing: what every draw computed from the
/// parameters alone is computed once, by the same `f64` expressions, so every draw gives
/// the same value from the same random numbers, consumed in the same order, as the model
/// itself (the model's draw methods are this type's). Built only from a model
/// ([`ReactionModel::prepare`]) and never edited, so it cannot disagree with it.
///
/// Prepared: the mean motor time of every motion (Fitts' law), the lognormal σ and σ²/2
/// of the motor noise, and the miss and fumble probabilities as integer thresholds: a
/// coin `rng.random::<f64>() < p` is `(u >> 11) < ⌈p · 2⁵³⌉` on the same `u64` `u`, the
/// same answer for every `u` and `p` (the proof is on the private `Coin`).
#[derive(Clone, Copy, Debug)]
pub struct PreparedModel {
    look: Dist,
    simple: Dist,
    scan_per_item: f64,
    hick_b: f64,
    overlap: f64,
    /// [`ReactionModel::motor_mean`] of every motion, by [`Motion`] index.
    motor_mean: [f64; MOTIONS],
    /// The motor noise; `None` for a `motor_cv` of 0 (constant motor times).
    lognormal: Option<Lognormal>,
    /// A look misses (`p_miss`).
    miss: Coin,
    /// A movement fumbles (`p_fumble`).
    fumble: Coin,
}

/// The lognormal factor of motor times, `exp(σZ − σ²/2)` with `σ² = ln(1 + cv²)`:
/// its mean is 1 and its coefficient of variation `cv`.
#[derive(Clone, Copy, Debug)]
struct Lognormal {
    /// σ = `s2.sqrt()`.
    sigma: f64,
    /// σ²/2 = `s2 / 2.0`.
    half_s2: f64,
}

impl PreparedModel {
    /// [`ReactionModel::motor_time`]: the motion's mean times the lognormal factor drawn
    /// from a standard normal, plus [`FUMBLE_MS`] when the fumble coin (drawn only for a
    /// `p_fumble` above 0) falls.
    #[inline]
    pub fn motor_time<R: Rng + ?Sized>(&self, m: Motion, rng: &mut R) -> f64 {
        let mean = self.motor_mean[m as usize];
        let mut t = match self.lognormal {
            None => mean,
            Some(Lognormal { sigma, half_s2 }) => {
                let z: f64 = StandardNormal.sample(rng);
                mean * fpmath::exp(sigma * z - half_s2)
            }
        };
        if self.fumble.flip(rng) {
            t += FUMBLE_MS;
        }
        t
    }

    /// [`ReactionModel::cognition_time`]: a look, another when the miss coin (drawn only
    /// for a `p_miss` above 0) falls, a scan of `candidates` items (of a uniform number
    /// of them from 1 when `found`), and Hick–Hyman over `options`.
    #[inline]
    pub fn cognition_time<R: Rng + ?Sized>(&self, candidates: u32, options: u32, found: bool, rng: &mut R) -> f64 {
        let mut look = self.look.sample(rng);
        if self.miss.flip(rng) {
            look += self.look.sample(rng);
        }
        let scanned = if found && candidates > 1 { rng.random_range(1..=candidates) } else { candidates };
        look + self.scan_per_item * scanned as f64 + self.hick_b * log2_of(options + 1)
    }

    /// [`ReactionModel::action_time`]: cognition (of a found move), then movement, less
    /// the overlap.
    #[inline]
    pub fn action_time<R: Rng + ?Sized>(&self, m: Motion, candidates: u32, options: u32, rng: &mut R) -> f64 {
        let cog = self.cognition_time(candidates, options, true, rng);
        let motor = self.motor_time(m, rng);
        cog + motor - self.overlap * cog.min(motor)
    }

    /// [`ReactionModel::slap_time`]: a simple reaction time, then a slap.
    #[inline]
    pub fn slap_time<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        self.simple.sample(rng) + self.motor_time(Motion::Slap, rng)
    }

    /// [`ReactionModel::recognition_time`]: a simple reaction time.
    #[inline]
    pub fn recognition_time<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        self.simple.sample(rng)
    }
}

/// A biased coin of probability `p`, tossed exactly as `p > 0.0 && rng.random::<f64>() < p`
/// (no draw when `p` is not above 0) but compared in integers.
///
/// rand 0.10 makes `rng.random::<f64>()` from one `u64` `u` as `x = k · 2⁻⁵³` with
/// `k = u >> 11` (`k < 2⁵³`; the product is exact). Scaling by a power of two is exact
/// and monotone, so `x < p` exactly when `k < t` with `t = p · 2⁵³` (for `p` so large
/// that `t` overflows to infinity both sides are true), and for a whole `k` that is
/// `k < ⌈t⌉`. `threshold = ⌈t⌉ as u64` keeps this for every `p`: the cast saturates
/// (`t` above 2⁶⁴ still admits every `k`) and makes a NaN or non-positive `t` 0, which
/// no `k` is below, like `x < p`. And `threshold > 0` exactly when `p > 0.0`.
#[derive(Clone, Copy, Debug)]
struct Coin {
    threshold: u64,
}

impl Coin {
    /// The coin of probability `p` (any `f64`).
    fn new(p: f64) -> Coin {
        const TWO_53: f64 = (1u64 << 53) as f64;
        Coin { threshold: (p * TWO_53).ceil() as u64 }
    }

    /// Whether a toss of `u`, a `u64` from the generator, falls (is below `p`).
    #[inline]
    fn falls(self, u: u64) -> bool {
        u >> 11 < self.threshold
    }

    /// Tosses the coin: draws one `u64` when `p` is above 0, else nothing and false.
    #[inline]
    fn flip<R: Rng + ?Sized>(self, rng: &mut R) -> bool {
        self.threshold > 0 && self.falls(rng.next_u64())
    }
}

/// Entries of [`log2_of`]'s table: every option count a real-time action list can hold.
const LOG2_TABLE_LEN: usize = 129;

/// [`fpmath::log2`] of `n`, from a table for small `n` (the same numbers).
#[inline]
fn log2_of(n: u32) -> f64 {
    static TABLE: std::sync::LazyLock<[f64; LOG2_TABLE_LEN]> = std::sync::LazyLock::new(|| std::array::from_fn(|n| fpmath::log2(n as f64)));
    if (n as usize) < LOG2_TABLE_LEN { TABLE[n as usize] } else { fpmath::log2(n as f64) }
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
/// makes for `round`: the fraction `x - trunc(x)` is exact in that range. The
/// conversions go through `i64`, one instruction each way on x86-64 (through `u64`
/// they test for values of 2^63 and more); below 2^63 they give the same numbers.
#[inline]
fn round_half_up(x: f64) -> u64 {
    let whole = x as i64;
    (whole + (x - whole as f64 >= 0.5) as i64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from, SimRng};
    use presets::ALL_PRESETS;

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
    fn log2_table_equals_the_library_log2() {
        for n in (0..300).chain([u32::MAX - 1, u32::MAX]) {
            assert_eq!(log2_of(n).to_bits(), fpmath::log2(n as f64).to_bits(), "log2 {n}");
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

    /// The bits of drawn times do not depend on the processor: the draws go through
    /// [`fpmath`], not the C library, whose `exp` rounds differently on processors with
    /// and without fused multiply-add (see [`fpmath`]). The checksum below was computed on
    /// one machine; every other machine must reproduce it bit for bit, whatever its
    /// processor. It covers 100,000 action times of every preset (lognormal motor times,
    /// ex-Gaussian looks, coins, scans) and 100,000 draws of a shifted lognormal; with
    /// the standard library's `exp` on a processor with FMA it changes (checked when it
    /// was written, and under `GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA` it must not).
    #[test]
    fn drawn_times_have_the_same_bits_on_every_processor() {
        let mut rng = rng_from(2026);
        let mut sum = 0u64;
        let mut add = |x: f64| sum = crate::rng::splitmix64(sum ^ x.to_bits());
        for preset in super::presets::ALL_PRESETS {
            let m = preset.model().prepare();
            for i in 0..100_000u32 {
                add(m.action_time(Motion::Play, i % 7, 1 + i % 11, &mut rng));
            }
        }
        let lognormal = Dist::ShiftedLognormal { shift: 150.0, mu: 5.0, sigma: 0.6 };
        for _ in 0..100_000 {
            add(lognormal.sample(&mut rng));
        }
        assert_eq!(sum, 10_220_801_283_307_200_381, "checksum of the drawn bits");
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

    /// A generator that returns one `u64` over and over.
    struct Fixed(u64);

    impl rand::TryRng for Fixed {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.0 as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(self.0)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.fill(0);
            Ok(())
        }
    }

    #[test]
    fn integer_coins_equal_rands_float_comparison() {
        let mut rng = rng_from(19);
        let two_53 = (1u64 << 53) as f64;
        let edges = [
            0.0,
            -0.0,
            f64::from_bits(1),
            f64::MIN_POSITIVE,
            1.0 / two_53,
            (1.0 / two_53).next_up(),
            (1.0 / two_53).next_down(),
            0.5 / two_53,
            1.5 / two_53,
            0.5,
            0.015,
            0.02,
            0.03,
            0.04,
            0.05,
            0.1,
            1.0 - 1.0 / two_53,
            (1.0 - 1.0 / two_53).next_down(),
            1.0f64.next_down(),
            1.0,
            1.0f64.next_up(),
            2.0,
            1e300,
            f64::MAX,
            f64::INFINITY,
            -1e-300,
            -1.0,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        let uniform: Vec<f64> = (0..20_000).map(|_| rng.random::<f64>()).collect();
        let any_bits: Vec<f64> = (0..20_000).map(|_| f64::from_bits(rng.next_u64())).collect();
        for p in edges.into_iter().chain(uniform).chain(any_bits) {
            let coin = Coin::new(p);
            assert_eq!(coin.threshold > 0, p > 0.0, "p {p:e}");
            // Tosses right at the threshold, at both ends of the range, and at random.
            let t = coin.threshold.min(1 << 53);
            let ks = [0, 1, t.saturating_sub(2), t.saturating_sub(1), t, t + 1, (1 << 53) - 2, (1 << 53) - 1];
            let near = ks.into_iter().filter(|&k| k < 1 << 53).flat_map(|k| [k << 11, k << 11 | 0x7ff, k << 11 | 0x400]);
            let random: Vec<u64> = (0..8).map(|_| rng.next_u64()).collect();
            for u in near.chain(random).chain([0, u64::MAX]) {
                assert_eq!(coin.falls(u), Fixed(u).random::<f64>() < p, "p {p:e}, u {u:#x}");
            }
        }
    }

    /// The draws as written before [`PreparedModel`], from the model's fields alone.
    mod reference {
        use super::*;

        pub fn motor_time(m: &ReactionModel, motion: Motion, rng: &mut SimRng) -> f64 {
            let mean = m.motor_mean(motion);
            let mut t = if m.motor_cv == 0.0 {
                mean
            } else {
                let s2 = fpmath::ln(1.0 + m.motor_cv * m.motor_cv);
                let sigma = s2.sqrt();
                let z: f64 = StandardNormal.sample(rng);
                mean * fpmath::exp(sigma * z - s2 / 2.0)
            };
            if m.p_fumble > 0.0 && rng.random::<f64>() < m.p_fumble {
                t += FUMBLE_MS;
            }
            t
        }

        pub fn cognition_time(m: &ReactionModel, candidates: u32, options: u32, found: bool, rng: &mut SimRng) -> f64 {
            let mut look = m.look.sample(rng);
            if m.p_miss > 0.0 && rng.random::<f64>() < m.p_miss {
                look += m.look.sample(rng);
            }
            let scanned = if found && candidates > 1 { rng.random_range(1..=candidates) } else { candidates };
            look + m.scan_per_item * scanned as f64 + m.hick_b * fpmath::log2((options + 1) as f64)
        }

        pub fn action_time(m: &ReactionModel, motion: Motion, candidates: u32, options: u32, rng: &mut SimRng) -> f64 {
            let cog = cognition_time(m, candidates, options, true, rng);
            let motor = motor_time(m, motion, rng);
            cog + motor - m.overlap * cog.min(motor)
        }

        pub fn slap_time(m: &ReactionModel, rng: &mut SimRng) -> f64 {
            m.simple.sample(rng) + motor_time(m, Motion::Slap, rng)
        }
    }

    /// A random model of any distributions, often with a parameter at 0 (no noise, no coin).
    fn random_model(rng: &mut SimRng) -> ReactionModel {
        fn often_0(rng: &mut SimRng, hi: f64) -> f64 {
            if rng.random_range(0..4) == 0 { 0.0 } else { rng.random::<f64>() * hi }
        }
        fn dist(rng: &mut SimRng) -> Dist {
            let mut x = |hi: f64| often_0(rng, hi);
            match x(4.0) as u32 {
                0 => Dist::Constant(x(400.0)),
                1 => Dist::ExGaussian { mu: x(500.0), sigma: x(100.0), tau: x(200.0), floor: x(200.0) },
                2 => Dist::ShiftedLognormal { shift: x(200.0), mu: x(6.0), sigma: 0.01 + x(1.0) },
                _ => Dist::ShiftedWald { shift: x(200.0), mean: 1.0 + x(300.0), shape: 1.0 + x(3000.0) },
            }
        }
        ReactionModel {
            look: dist(rng),
            scan_per_item: often_0(rng, 60.0),
            hick_b: often_0(rng, 200.0),
            fitts_a: often_0(rng, 150.0),
            fitts_b: often_0(rng, 150.0),
            grasp_release: often_0(rng, 200.0),
            motor_cv: often_0(rng, 1.0),
            overlap: often_0(rng, 1.0),
            simple: dist(rng),
            p_miss: often_0(rng, 1.0),
            p_fumble: often_0(rng, 1.0),
        }
    }

    #[test]
    fn prepared_draws_equal_the_original_draws_value_for_value() {
        let mut models = rng_from(20);
        let mut args = rng_from(21);
        let motions = [Motion::Play, Motion::Flip, Motion::Fill, Motion::Return, Motion::Sync, Motion::Draw, Motion::Slap];
        let presets = ALL_PRESETS.iter().map(|p| p.model());
        for (i, m) in presets.chain((0..2000).map(|_| random_model(&mut models))).enumerate() {
            let prepared = m.prepare();
            let (mut a, mut b) = (rng_from(i as u64), rng_from(i as u64));
            for _ in 0..50 {
                let motion = motions[args.random_range(0..MOTIONS)];
                let (candidates, options, found) = (args.random_range(0..12), args.random_range(0..200), args.random());
                let pairs = [
                    (prepared.action_time(motion, candidates, options, &mut a), reference::action_time(&m, motion, candidates, options, &mut b)),
                    (m.action_time(motion, candidates, options, &mut a), reference::action_time(&m, motion, candidates, options, &mut b)),
                    (prepared.motor_time(motion, &mut a), reference::motor_time(&m, motion, &mut b)),
                    (m.motor_time(motion, &mut a), reference::motor_time(&m, motion, &mut b)),
                    (prepared.cognition_time(candidates, options, found, &mut a), reference::cognition_time(&m, candidates, options, found, &mut b)),
                    (m.cognition_time(candidates, options, found, &mut a), reference::cognition_time(&m, candidates, options, found, &mut b)),
                    (prepared.slap_time(&mut a), reference::slap_time(&m, &mut b)),
                    (m.slap_time(&mut a), reference::slap_time(&m, &mut b)),
                    (prepared.recognition_time(&mut a), m.simple.sample(&mut b)),
                ];
                for (k, (got, want)) in pairs.into_iter().enumerate() {
                    assert_eq!(got.to_bits(), want.to_bits(), "model {i} {m:?}, draw {k}: {got} vs {want}");
                }
                assert_eq!(a, b, "model {i}: the same random numbers consumed");
            }
        }
    }
}
