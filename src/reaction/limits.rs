//! Plausible ranges of every reaction-time parameter, so that a bot file cannot break
//! simulated time with an absurd value (docs/usage.md, "Bot files and experiments").
//!
//! - Times in milliseconds (constant `ms`, ex-Gaussian `mu`, `sigma`, `tau`, `floor`,
//!   shifts, per-item, Hick and Fitts times, grasp + release): finite, 0 to [`MAX_MS`].
//!   An ex-Gaussian `sigma` or `tau` of 0 is allowed (a shifted exponential, or a normal
//!   cut at the floor). A Wald `mean` must be above 0.
//! - Shifted lognormal `mu` is the log of milliseconds: 0 (median 1 ms) to
//!   [`LOG_MU_MAX`] (median about 60 s); `sigma` above 0 and at most 3.
//! - Wald `shape` (ms): above 0 and at most [`WALD_SHAPE_MAX`].
//! - Probabilities (`p_miss`, `p_fumble`): at least 0 and below 1.
//! - `motor_cv` 0 to 1; `overlap` 0 to 1.
//! - The mean of every distribution, and of every movement (Fitts' law), at most
//!   [`MAX_MS`].
//!
//! NaN and infinities fail every range.

use super::{Dist, ReactionModel, MAX_MS, MOTION_GEOMETRY};
use std::fmt;

/// Largest shifted-lognormal `mu`: exp(11) ≈ 59,900 ms, just under [`MAX_MS`].
pub const LOG_MU_MAX: f64 = 11.0;

/// Largest Wald shape (ms). Larger shapes make the Wald a constant in all but name (cv
/// below 0.8 % at a 60 s mean) and overflow its sampler near 1e300.
pub const WALD_SHAPE_MAX: f64 = 1e9;

/// A reaction parameter outside its plausible range.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamError {
    /// Path of the offending field, e.g. `look.mu`.
    pub field: String,
    /// What is wrong, with the accepted range.
    pub message: String,
}

impl ParamError {
    /// The same error seen from the enclosing table: `field` becomes `parent.field`, or
    /// `parent` when the error is about the whole value (empty `field`).
    pub fn within(self, parent: &str) -> ParamError {
        let field = if self.field.is_empty() { parent.to_string() } else { format!("{parent}.{}", self.field) };
        ParamError { field, ..self }
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// An interval of accepted values and how to explain it.
struct Range {
    lo: f64,
    lo_open: bool,
    hi: f64,
    hi_open: bool,
    /// What the value is, e.g. "time".
    what: &'static str,
    /// Unit after the bounds, with its leading space.
    unit: &'static str,
    /// Extra advice after the range, with its leading separator.
    hint: &'static str,
}

const TIME: Range = Range { lo: 0.0, lo_open: false, hi: MAX_MS, hi_open: false, what: "time", unit: " ms", hint: "" };
const WALD_MEAN: Range = Range { lo_open: true, what: "Wald mean", ..TIME };
const WALD_SHAPE: Range = Range { lo: 0.0, lo_open: true, hi: WALD_SHAPE_MAX, hi_open: false, what: "Wald shape", unit: " ms", hint: "" };
const LOG_MU: Range = Range {
    lo: 0.0,
    lo_open: false,
    hi: LOG_MU_MAX,
    hi_open: false,
    what: "log-scale mean",
    unit: "",
    hint: "; shifted_lognormal's mu is the log of milliseconds, e.g. 5.6 for about 270 ms",
};
const LOG_SIGMA: Range = Range { lo: 0.0, lo_open: true, hi: 3.0, hi_open: false, what: "log-scale spread", unit: "", hint: "" };
const PROBABILITY: Range = Range { lo: 0.0, lo_open: false, hi: 1.0, hi_open: true, what: "probability", unit: "", hint: "" };
const MOTOR_CV: Range = Range { hi_open: false, what: "coefficient of variation", ..PROBABILITY };
const OVERLAP: Range = Range { hi_open: false, what: "overlap share", ..PROBABILITY };

impl Range {
    fn check(&self, field: &str, v: f64) -> Result<(), ParamError> {
        let above_lo = if self.lo_open { v > self.lo } else { v >= self.lo };
        let below_hi = if self.hi_open { v < self.hi } else { v <= self.hi };
        if above_lo && below_hi {
            return Ok(());
        }
        let (lo, hi) = (number(self.lo), number(self.hi));
        let bounds = match (self.lo_open, self.hi_open) {
            (false, false) => format!("between {lo} and {hi}"),
            (lo_open, hi_open) => format!("{} {lo} and {} {hi}", if lo_open { "above" } else { "at least" }, if hi_open { "below" } else { "at most" }),
        };
        let message = format!("{} is not a plausible {} (must be {bounds}{}{})", number(v), self.what, self.unit, self.hint);
        Err(ParamError { field: field.to_string(), message })
    }
}

/// A number as a user wrote it: `280`, `0.5`, `1e300`, `NaN`, `inf`.
fn number(v: f64) -> String {
    if v.is_finite() && v.abs() < 1e9 { format!("{v}") } else { format!("{v:e}") }
}

/// Checks a mean against [`MAX_MS`]; `how` says how it was computed.
fn check_mean(field: &str, mean: f64, how: &str) -> Result<(), ParamError> {
    if mean <= MAX_MS {
        return Ok(());
    }
    let message = format!("mean {} ms{how} is above the {} ms limit of a reaction time", number(mean.round()), number(MAX_MS));
    Err(ParamError { field: field.to_string(), message })
}

impl Dist {
    /// Checks every parameter and the mean against the plausible ranges (module docs).
    /// Fields are named as in a bot file (`ms`, `mu`, …); an error about the whole
    /// distribution (its mean) has an empty field.
    pub fn validate(&self) -> Result<(), ParamError> {
        match *self {
            Dist::Constant(ms) => TIME.check("ms", ms)?,
            Dist::ExGaussian { mu, sigma, tau, floor } => {
                for (name, v) in [("mu", mu), ("sigma", sigma), ("tau", tau), ("floor", floor)] {
                    TIME.check(name, v)?;
                }
            }
            Dist::ShiftedLognormal { shift, mu, sigma } => {
                TIME.check("shift", shift)?;
                LOG_MU.check("mu", mu)?;
                LOG_SIGMA.check("sigma", sigma)?;
            }
            Dist::ShiftedWald { shift, mean, shape } => {
                TIME.check("shift", shift)?;
                WALD_MEAN.check("mean", mean)?;
                WALD_SHAPE.check("shape", shape)?;
            }
        }
        let how = match self {
            Dist::Constant(_) => "",
            Dist::ExGaussian { .. } => " (mu + tau)",
            Dist::ShiftedLognormal { .. } => " (shift + exp(mu + sigma²/2))",
            Dist::ShiftedWald { .. } => " (shift + mean)",
        };
        check_mean("", self.mean(), how)
    }
}

impl ReactionModel {
    /// Checks every parameter against the plausible ranges (module docs), and the mean
    /// of the longest movement by Fitts' law. Fields are named as in a bot file's
    /// `[reaction]` table.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.look.validate().map_err(|e| e.within("look"))?;
        self.simple.validate().map_err(|e| e.within("simple"))?;
        let fields = [
            ("scan_per_item", self.scan_per_item, &TIME),
            ("hick_b", self.hick_b, &TIME),
            ("fitts_a", self.fitts_a, &TIME),
            ("fitts_b", self.fitts_b, &TIME),
            ("grasp_release", self.grasp_release, &TIME),
            ("motor_cv", self.motor_cv, &MOTOR_CV),
            ("overlap", self.overlap, &OVERLAP),
            ("p_miss", self.p_miss, &PROBABILITY),
            ("p_fumble", self.p_fumble, &PROBABILITY),
        ];
        for (name, v, range) in fields {
            range.check(name, v)?;
        }
        let (mean, (moves, bits, grasp)) = MOTION_GEOMETRY.into_iter().map(|g| (self.geometry_mean(g), g)).max_by(|a, b| a.0.total_cmp(&b.0)).expect("there are motions");
        let how = format!(" of the longest movement ({moves} × {} + {bits:.2} × {} + {grasp} × {})", number(self.fitts_a), number(self.fitts_b), number(self.grasp_release));
        check_mean("fitts_a/fitts_b/grasp_release", mean, &how)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reaction::presets::ALL_PRESETS;

    fn err(d: Dist) -> ParamError {
        d.validate().expect_err("should be rejected")
    }

    #[test]
    fn every_preset_passes() {
        for p in ALL_PRESETS {
            assert_eq!(p.model().validate(), Ok(()), "{p:?}");
        }
    }

    #[test]
    fn a_huge_constant_is_rejected() {
        let e = err(Dist::Constant(1e300));
        assert_eq!(e.to_string(), "ms: 1e300 is not a plausible time (must be between 0 and 60000 ms)");
        assert_eq!(Dist::Constant(60_000.0).validate(), Ok(()));
    }

    #[test]
    fn nan_and_infinities_are_rejected_everywhere() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(err(Dist::ExGaussian { mu: 300.0, sigma: 40.0, tau: bad, floor: 0.0 }).field, "tau");
            assert_eq!(err(Dist::ShiftedLognormal { shift: 0.0, mu: bad, sigma: 0.3 }).field, "mu");
            assert_eq!(err(Dist::ShiftedWald { shift: bad, mean: 200.0, shape: 900.0 }).field, "shift");
            let m = ReactionModel { p_fumble: bad, ..crate::reaction::Preset::Casual.model() };
            assert_eq!(m.validate().unwrap_err().field, "p_fumble");
        }
        assert!(err(Dist::Constant(f64::NAN)).message.starts_with("NaN is not"));
    }

    #[test]
    fn lognormal_mu_in_milliseconds_is_explained() {
        let e = err(Dist::ShiftedLognormal { shift: 0.0, mu: 280.0, sigma: 0.3 });
        assert_eq!(e.field, "mu");
        assert!(e.message.starts_with("280 is not a plausible log-scale mean (must be between 0 and 11;"), "{e}");
        assert!(e.message.contains("log of milliseconds"), "{e}");
    }

    #[test]
    fn lognormal_sigma_must_be_in_0_to_3() {
        assert_eq!(err(Dist::ShiftedLognormal { shift: 0.0, mu: 5.0, sigma: 3.5 }).field, "sigma");
        assert_eq!(err(Dist::ShiftedLognormal { shift: 0.0, mu: 5.0, sigma: 0.0 }).field, "sigma");
        assert_eq!(Dist::ShiftedLognormal { shift: 0.0, mu: 5.0, sigma: 3.0 }.validate(), Ok(()));
    }

    #[test]
    fn wald_shape_must_be_positive() {
        let e = err(Dist::ShiftedWald { shift: 100.0, mean: 200.0, shape: 0.0 });
        assert_eq!(e.to_string(), "shape: 0 is not a plausible Wald shape (must be above 0 and at most 1e9 ms)");
        assert_eq!(err(Dist::ShiftedWald { shift: 100.0, mean: 0.0, shape: 900.0 }).field, "mean");
    }

    #[test]
    fn a_mean_above_a_minute_is_rejected() {
        // Each parameter is in range, the mean is not.
        let e = err(Dist::ShiftedLognormal { shift: 100.0, mu: 11.0, sigma: 1.0 });
        assert_eq!(e.field, "");
        assert!(e.message.starts_with("mean 98816 ms (shift + exp(mu + sigma²/2)) is above the 60000 ms limit"), "{e}");
        assert_eq!(err(Dist::ExGaussian { mu: 40_000.0, sigma: 10.0, tau: 30_000.0, floor: 0.0 }).within("look").field, "look");
        let m = ReactionModel { fitts_b: 14_000.0, ..crate::reaction::Preset::Novice.model() };
        let e = m.validate().unwrap_err();
        assert_eq!(e.field, "fitts_a/fitts_b/grasp_release");
        assert!(e.message.contains("2 × 150 + 4.29 × 14000 + 1 × 200"), "{e}");
    }

    #[test]
    fn probabilities_must_be_below_one_and_times_not_negative() {
        let base = crate::reaction::Preset::Skilled.model();
        let e = ReactionModel { p_miss: 1.0, ..base }.validate().unwrap_err();
        assert_eq!(e.to_string(), "p_miss: 1 is not a plausible probability (must be at least 0 and below 1)");
        let e = ReactionModel { hick_b: -5.0, ..base }.validate().unwrap_err();
        assert_eq!(e.field, "hick_b");
        assert_eq!(ReactionModel { motor_cv: 1.5, ..base }.validate().unwrap_err().field, "motor_cv");
        assert_eq!(ReactionModel { overlap: 1.0, ..base }.validate(), Ok(()));
        let e = ReactionModel { look: Dist::ExGaussian { mu: 200.0, sigma: -1.0, tau: 50.0, floor: 0.0 }, ..base }.validate().unwrap_err();
        assert_eq!(e.field, "look.sigma");
    }
}
