//! The two fitted families, in the parameterisations of cardsim's own
//! [`Dist`]: log-densities, log-likelihoods, distribution
//! functions, moment-based starting values and the unconstrained coordinates the
//! optimiser works in.
//!
//! - **Ex-Gaussian** `(mu, sigma, tau)`: Normal(mu, sigma) + Exponential(mean tau), all
//!   in ms, as `Dist::ExGaussian` (whose `floor` is not fitted: the fit has none).
//! - **Shifted lognormal** `(shift, mu, sigma)`: `shift + exp(Normal(mu, sigma))`, shift
//!   in ms, `mu` and `sigma` of the log of (time − shift) in ms, as
//!   `Dist::ShiftedLognormal`.

use crate::reaction::Dist;
use statrs::function::erf::erfc;
use std::f64::consts::SQRT_2;

/// ln(2π) / 2.
const HALF_LN_2PI: f64 = 0.918_938_533_204_672_8;

/// A family of move-time distributions that `fit-rt` fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Normal(mu, sigma) + Exponential(mean tau).
    ExGaussian,
    /// shift + exp(Normal(mu, sigma)).
    ShiftedLognormal,
}

/// Both families, in the order they are printed.
pub const FAMILIES: [Family; 2] = [Family::ExGaussian, Family::ShiftedLognormal];

/// Summary statistics of a sample used for starting values and step sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    /// Number of times.
    pub n: usize,
    /// Sample mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1).
    pub sd: f64,
    /// Sample skewness (moment estimator, m3 / m2^1.5).
    pub skew: f64,
    /// Smallest time.
    pub min: f64,
    /// Largest time.
    pub max: f64,
}

impl Moments {
    /// The moments of a sample of at least two values.
    pub fn of(xs: &[f64]) -> Moments {
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let m2 = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
        let m3 = xs.iter().map(|x| (x - mean).powi(3)).sum::<f64>() / n;
        let skew = if m2 > 0.0 { m3 / m2.powf(1.5) } else { 0.0 };
        let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
        let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Moments { n: xs.len(), mean, sd: (m2 * n / (n - 1.0)).sqrt(), skew, min, max }
    }
}

/// ln Φ(z), the log of the standard normal distribution function, accurate far into the
/// lower tail (a continued fraction for the Mills ratio below −5).
pub fn ln_norm_cdf(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    if z > -5.0 {
        return (0.5 * erfc(-z / SQRT_2)).ln();
    }
    -0.5 * z * z - HALF_LN_2PI - mills_denominator(-z).ln()
}

/// D(t) = t + 1/(t + 2/(t + 3/(t + …))) for t ≥ 5, so that Φ(−t) = φ(t) / D(t).
fn mills_denominator(t: f64) -> f64 {
    let mut d = t;
    for k in (1..=80).rev() {
        d = t + k as f64 / d;
    }
    d
}

/// ln of the ex-Gaussian's tail factor exp(−u·r + r²/2)·Φ(u − r), with u = (x − μ)/σ and
/// r = σ/τ: the ex-Gaussian density is this over τ, and its distribution function is
/// Φ(u) minus its exponential. Below u − r = −5 the large terms cancel analytically:
/// it is −u²/2 − ln √(2π) − ln D(r − u), which stays exact as τ → 0.
fn ex_gaussian_ln_tail(u: f64, r: f64) -> f64 {
    let z = u - r;
    if z > -5.0 {
        -u * r + 0.5 * r * r + ln_norm_cdf(z)
    } else {
        -0.5 * u * u - HALF_LN_2PI - mills_denominator(-z).ln()
    }
}

/// Φ(z), the standard normal distribution function.
pub fn norm_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / SQRT_2)
}

impl Family {
    /// Name as printed, e.g. `ex-Gaussian`.
    pub fn name(self) -> &'static str {
        match self {
            Family::ExGaussian => "ex-Gaussian",
            Family::ShiftedLognormal => "shifted lognormal",
        }
    }

    /// Names of the three parameters, as in a bot file.
    pub fn param_names(self) -> [&'static str; 3] {
        match self {
            Family::ExGaussian => ["mu", "sigma", "tau"],
            Family::ShiftedLognormal => ["shift", "mu", "sigma"],
        }
    }

    /// Which parameters must be positive (their intervals are computed on the log scale).
    pub fn positive(self) -> [bool; 3] {
        match self {
            Family::ExGaussian => [false, true, true],
            Family::ShiftedLognormal => [false, false, true],
        }
    }

    /// Log-density at `x` (ms) of the distribution with parameters `p`; −∞ outside the
    /// support or for invalid parameters.
    pub fn ln_pdf(self, p: &[f64; 3], x: f64) -> f64 {
        match self {
            Family::ExGaussian => {
                let [mu, sigma, tau] = *p;
                if !(sigma > 0.0 && tau > 0.0) {
                    return f64::NEG_INFINITY;
                }
                // f(x) = (1/τ) exp((μ − x)/τ + σ²/(2τ²)) Φ((x − μ)/σ − σ/τ)
                -tau.ln() + ex_gaussian_ln_tail((x - mu) / sigma, sigma / tau)
            }
            Family::ShiftedLognormal => {
                let [shift, mu, sigma] = *p;
                let y = x - shift;
                if !(sigma > 0.0 && y > 0.0) {
                    return f64::NEG_INFINITY;
                }
                let z = (y.ln() - mu) / sigma;
                -y.ln() - sigma.ln() - HALF_LN_2PI - 0.5 * z * z
            }
        }
    }

    /// Log-likelihood of the sample `xs` (ms).
    pub fn log_likelihood(self, p: &[f64; 3], xs: &[f64]) -> f64 {
        let ll: f64 = xs.iter().map(|&x| self.ln_pdf(p, x)).sum();
        if ll.is_nan() {
            f64::NEG_INFINITY
        } else {
            ll
        }
    }

    /// Distribution function at `x` (ms).
    pub fn cdf(self, p: &[f64; 3], x: f64) -> f64 {
        match self {
            Family::ExGaussian => {
                let [mu, sigma, tau] = *p;
                let u = (x - mu) / sigma;
                // F(x) = Φ(u) − exp((μ − x)/τ + σ²/(2τ²)) Φ(u − σ/τ)
                (norm_cdf(u) - ex_gaussian_ln_tail(u, sigma / tau).exp()).clamp(0.0, 1.0)
            }
            Family::ShiftedLognormal => {
                let [shift, mu, sigma] = *p;
                let y = x - shift;
                if y <= 0.0 {
                    0.0
                } else {
                    norm_cdf((y.ln() - mu) / sigma)
                }
            }
        }
    }

    /// The `q`-quantile (0 < q < 1), by bisection on [`Family::cdf`].
    pub fn quantile(self, p: &[f64; 3], q: f64) -> f64 {
        let (mut lo, mut hi) = match self {
            Family::ExGaussian => (p[0] - 40.0 * p[1] - 1.0, p[0] + 40.0 * (p[1] + p[2]) + 1.0),
            Family::ShiftedLognormal => (p[0], p[0] + (p[1] + 40.0 * p[2]).exp()),
        };
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if self.cdf(p, mid) < q {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }

    /// Mean of the distribution (ms).
    pub fn mean(self, p: &[f64; 3]) -> f64 {
        self.dist(p).mean()
    }

    /// The same distribution as cardsim's [`Dist`] (the ex-Gaussian with `floor` 0).
    pub fn dist(self, p: &[f64; 3]) -> Dist {
        match self {
            Family::ExGaussian => Dist::ExGaussian { mu: p[0], sigma: p[1], tau: p[2], floor: 0.0 },
            Family::ShiftedLognormal => Dist::ShiftedLognormal { shift: p[0], mu: p[1], sigma: p[2] },
        }
    }

    /// Starting values from the sample's moments.
    ///
    /// Ex-Gaussian: skewness = 2τ³ / (σ² + τ²)^1.5, so τ = sd·(skew/2)^⅓ (skew/2 clamped
    /// to 0.01–0.9), σ² = sd² − τ², μ = mean − τ. Shifted lognormal: σ from the skewness
    /// (skew = (ω + 2)·√(ω − 1), ω = e^σ²), then the shift that matches mean and sd,
    /// clamped into [0, 0.99·min]; μ and σ are then the moments of ln(x − shift).
    pub fn start(self, m: &Moments, xs: &[f64]) -> [f64; 3] {
        match self {
            Family::ExGaussian => {
                let r = (m.skew / 2.0).clamp(0.01, 0.9).cbrt();
                let tau = m.sd * r;
                let sigma = m.sd * (1.0 - r * r).max(0.01).sqrt();
                [m.mean - tau, sigma, tau]
            }
            Family::ShiftedLognormal => {
                let shift = if m.skew > 0.0 {
                    // Solve (ω + 2)√(ω − 1) = skew for ω > 1 by bisection (increasing in ω).
                    let (mut lo, mut hi) = (1.0f64, 1.0 + 1e6);
                    for _ in 0..200 {
                        let w = 0.5 * (lo + hi);
                        if (w + 2.0) * (w - 1.0).sqrt() < m.skew {
                            lo = w;
                        } else {
                            hi = w;
                        }
                    }
                    let w = 0.5 * (lo + hi);
                    // sd² = (ω − 1)·ω·e^{2μ}, mean = shift + e^μ·√ω.
                    let e_mu = m.sd / ((w - 1.0) * w).sqrt();
                    m.mean - e_mu * w.sqrt()
                } else {
                    0.5 * m.min
                };
                let shift = shift.clamp(0.0, 0.99 * m.min);
                self.start_with_shift(shift, xs)
            }
        }
    }

    /// Shifted lognormal start with a given shift: μ and σ are the mean and sd of
    /// ln(x − shift).
    pub fn start_with_shift(self, shift: f64, xs: &[f64]) -> [f64; 3] {
        let logs: Vec<f64> = xs.iter().map(|x| (x - shift).ln()).collect();
        let n = logs.len() as f64;
        let mu = logs.iter().sum::<f64>() / n;
        let sd = (logs.iter().map(|l| (l - mu).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        [shift, mu, sd.max(1e-3)]
    }

    /// Natural parameters to the optimiser's unconstrained coordinates: log for the
    /// positive ones; the lognormal shift as logit(shift / min), keeping it in (0, min).
    pub fn to_free(self, p: &[f64; 3], min: f64) -> [f64; 3] {
        match self {
            Family::ExGaussian => [p[0], p[1].ln(), p[2].ln()],
            Family::ShiftedLognormal => {
                let s = (p[0] / min).clamp(1e-9, 1.0 - 1e-9);
                [(s / (1.0 - s)).ln(), p[1], p[2].ln()]
            }
        }
    }

    /// The inverse of [`Family::to_free`].
    pub fn from_free(self, f: &[f64], min: f64) -> [f64; 3] {
        match self {
            Family::ExGaussian => [f[0], f[1].exp(), f[2].exp()],
            Family::ShiftedLognormal => [min / (1.0 + (-f[0]).exp()), f[1], f[2].exp()],
        }
    }

    /// The edge of parameter `i`'s range on its upper (`upper`) or lower side, if it has
    /// one: 0 below sigma and tau and the lognormal shift, the smallest time `min` above
    /// the shift; `None` for a side that is unbounded.
    pub fn edge(self, i: usize, upper: bool, min: f64) -> Option<f64> {
        match (self, i, upper) {
            (Family::ExGaussian, 1 | 2, false) | (Family::ShiftedLognormal, 0 | 2, false) => Some(0.0),
            (Family::ShiftedLognormal, 0, true) => Some(min),
            _ => None,
        }
    }

    /// Initial simplex steps in free coordinates (a tenth of a standard deviation for a
    /// location in ms, 0.2 on log scales, 1 on the logit scale).
    pub fn free_steps(self, m: &Moments) -> [f64; 3] {
        match self {
            Family::ExGaussian => [0.1 * m.sd.max(1e-6), 0.2, 0.2],
            Family::ShiftedLognormal => [1.0, 0.1, 0.2],
        }
    }

    /// A typical size of each natural parameter, for numeric-derivative steps.
    pub fn typical(self, m: &Moments) -> [f64; 3] {
        match self {
            Family::ExGaussian => [m.sd.max(1e-6), m.sd.max(1e-6), m.sd.max(1e-6)],
            Family::ShiftedLognormal => [m.sd.max(1e-6), 1.0, 0.1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_ln_norm_cdf_matches_erfc_and_the_far_tail() {
        for z in [-4.9, -2.0, 0.0, 1.5, 6.0] {
            assert!((ln_norm_cdf(z) - norm_cdf(z).ln()).abs() < 1e-12, "{z}");
        }
        // The continued fraction below −5 agrees with erfc while erfc is still accurate,
        // and with the asymptote ln Φ(z) ≈ −z²/2 − ln(−z) − ln√(2π) + ln(1 − z⁻² + 3z⁻⁴) far out.
        for z in [-5.0 - 1e-9, -6.0, -9.0, -20.0] {
            let direct = (0.5 * erfc(-z / SQRT_2)).ln();
            assert!((ln_norm_cdf(z) - direct).abs() < 1e-9 * direct.abs(), "{z}: {} vs {direct}", ln_norm_cdf(z));
        }
        let z = -40.0f64;
        let asymptote = -z * z / 2.0 - (-z).ln() - HALF_LN_2PI + (1.0 - 1.0 / (z * z) + 3.0 / z.powi(4)).ln();
        assert!((ln_norm_cdf(z) - asymptote).abs() < 1e-8, "{} vs {asymptote}", ln_norm_cdf(z));
    }

    /// Hand-computed (Φ from Python's math.erfc): ExGaussian(400, 40, 100) at 500 ms has
    /// z = 100/40 − 40/100 = 2.1 and
    /// ln f = −ln 100 + (400 − 500)/100 + 40²/(2·100²) + ln Φ(2.1)
    /// = −4.6051702 − 1 + 0.08 + ln 0.98213558 = −5.5431961015.
    /// At 350 ms z = −1.25 − 0.4 = −1.65 and
    /// ln f = −4.6051702 + 0.5 + 0.08 + ln 0.04947147 = −7.0315293649.
    #[test]
    fn fit_ex_gaussian_log_likelihood_at_a_known_point() {
        let p = [400.0, 40.0, 100.0];
        let got = Family::ExGaussian.ln_pdf(&p, 500.0);
        assert!((got - (-5.543_196_101_545_82)).abs() < 1e-9, "{got}");
        let got = Family::ExGaussian.ln_pdf(&p, 350.0);
        assert!((got - (-7.031_529_364_940_508)).abs() < 1e-9, "{got}");
        let ll = Family::ExGaussian.log_likelihood(&p, &[500.0, 350.0]);
        assert!((ll - (-5.543_196_101_545_82 - 7.031_529_364_940_508)).abs() < 1e-9, "{ll}");
    }

    /// ShiftedLognormal(200, 5.5, 0.4) at 500 ms: y = 300, z = (ln 300 − 5.5)/0.4
    /// = 0.50946, ln f = −ln 300 − ln 0.4 − ln √(2π) − z²/2 = −5.8362030790 (by hand).
    #[test]
    fn fit_lognormal_log_likelihood_at_a_known_point() {
        let p = [200.0, 5.5, 0.4];
        let got = Family::ShiftedLognormal.ln_pdf(&p, 500.0);
        assert!((got - (-5.836_203_079_039_86)).abs() < 1e-9, "{got}");
        assert!((Family::ShiftedLognormal.log_likelihood(&p, &[500.0, 500.0]) - 2.0 * got).abs() < 1e-12);
        assert_eq!(Family::ShiftedLognormal.ln_pdf(&p, 199.0), f64::NEG_INFINITY);
        assert_eq!(Family::ShiftedLognormal.log_likelihood(&p, &[500.0, 199.0]), f64::NEG_INFINITY);
        assert_eq!(Family::ShiftedLognormal.cdf(&p, 150.0), 0.0);
        assert!((Family::ShiftedLognormal.cdf(&p, 200.0 + 5.5f64.exp()) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn fit_cdf_and_quantile_agree_with_sampling() {
        use crate::rng::rng_from;
        for (fam, p) in [(Family::ExGaussian, [400.0, 40.0, 100.0]), (Family::ShiftedLognormal, [200.0, 5.5, 0.4])] {
            let d = fam.dist(&p);
            let mut rng = rng_from(3);
            let q = fam.quantile(&p, 0.9);
            assert!((fam.cdf(&p, q) - 0.9).abs() < 1e-9);
            let below = (0..100_000).filter(|_| d.sample(&mut rng) < q).count() as f64 / 1e5;
            assert!((below - 0.9).abs() < 0.005, "{fam:?}: {below}");
        }
    }

    #[test]
    fn fit_free_coordinates_round_trip() {
        for (fam, p) in [(Family::ExGaussian, [400.0, 40.0, 100.0]), (Family::ShiftedLognormal, [200.0, 5.5, 0.4])] {
            let back = fam.from_free(&fam.to_free(&p, 300.0), 300.0);
            for i in 0..3 {
                assert!((back[i] - p[i]).abs() < 1e-9 * p[i].abs().max(1.0), "{fam:?} {back:?}");
            }
        }
    }
}
