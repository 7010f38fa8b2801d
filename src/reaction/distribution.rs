//! Reaction-time distributions (milliseconds).

use crate::fpmath;
use rand::Rng;
use rand_distr::{Distribution, Exp1, InverseGaussian, StandardNormal};

/// A distribution of a time in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dist {
    /// Always the same value.
    Constant(f64),
    /// Normal(mu, sigma) + Exponential(mean tau), redrawn below `floor` (at most 8 times,
    /// then `floor`): the standard descriptive RT model.
    ExGaussian { mu: f64, sigma: f64, tau: f64, floor: f64 },
    /// `shift + exp(Normal(mu, sigma))`.
    ShiftedLognormal { shift: f64, mu: f64, sigma: f64 },
    /// `shift + InverseGaussian(mean, shape)`: a one-boundary diffusion (Wald).
    ShiftedWald { shift: f64, mean: f64, shape: f64 },
}

impl Dist {
    /// Draws one time.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        match *self {
            Dist::Constant(v) => v,
            Dist::ExGaussian { mu, sigma, tau, floor } => {
                for _ in 0..8 {
                    let z: f64 = StandardNormal.sample(rng);
                    let e: f64 = Exp1.sample(rng);
                    let x = mu + sigma * z + tau * e;
                    if x >= floor {
                        return x;
                    }
                }
                floor
            }
            Dist::ShiftedLognormal { shift, mu, sigma } => {
                let z: f64 = StandardNormal.sample(rng);
                shift + fpmath::exp(mu + sigma * z)
            }
            Dist::ShiftedWald { shift, mean, shape } => {
                shift + InverseGaussian::new(mean, shape).expect("validated parameters").sample(rng)
            }
        }
    }

    /// Theoretical mean (ignoring the ex-Gaussian floor).
    pub fn mean(&self) -> f64 {
        match *self {
            Dist::Constant(v) => v,
            Dist::ExGaussian { mu, tau, .. } => mu + tau,
            Dist::ShiftedLognormal { shift, mu, sigma } => shift + fpmath::exp(mu + sigma * sigma / 2.0),
            Dist::ShiftedWald { shift, mean, .. } => shift + mean,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from;

    fn moments(d: Dist, n: usize) -> (f64, f64) {
        let mut rng = rng_from(11);
        let xs: Vec<f64> = (0..n).map(|_| d.sample(&mut rng)).collect();
        let m = xs.iter().sum::<f64>() / n as f64;
        let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
        (m, v.sqrt())
    }

    #[test]
    fn ex_gaussian_moments() {
        // reaction-time.md 4.5: ExGaussian(400, 40, 100): mean 500, sd sqrt(40²+100²) = 107.7.
        let (m, sd) = moments(Dist::ExGaussian { mu: 400.0, sigma: 40.0, tau: 100.0, floor: 0.0 }, 200_000);
        assert!((m - 500.0).abs() < 1.5, "{m}");
        assert!((sd - 107.7).abs() < 1.5, "{sd}");
    }

    #[test]
    fn ex_gaussian_respects_its_floor() {
        let d = Dist::ExGaussian { mu: 100.0, sigma: 80.0, tau: 10.0, floor: 90.0 };
        let mut rng = rng_from(5);
        assert!((0..10_000).all(|_| d.sample(&mut rng) >= 90.0));
    }

    #[test]
    fn shifted_lognormal_and_wald_moments() {
        let ln = Dist::ShiftedLognormal { shift: 100.0, mu: 5.0, sigma: 0.3 };
        let (m, _) = moments(ln, 200_000);
        assert!((m - ln.mean()).abs() / ln.mean() < 0.01, "{m} vs {}", ln.mean());
        // reaction-time.md 4.5: 150 + InverseGaussian(250, 1500): mean 400, sd 102.1.
        let (m, sd) = moments(Dist::ShiftedWald { shift: 150.0, mean: 250.0, shape: 1500.0 }, 200_000);
        assert!((m - 400.0).abs() < 1.5 && (sd - 102.1).abs() < 2.0, "{m} {sd}");
    }

    #[test]
    fn constant_is_constant() {
        let mut rng = rng_from(1);
        assert_eq!(Dist::Constant(42.0).sample(&mut rng), 42.0);
    }
}
