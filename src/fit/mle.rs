//! Maximum-likelihood fits with Wald intervals from the observed Fisher information.
//!
//! The log-likelihood is maximised by Nelder–Mead ([`super::optimise`]) in
//! unconstrained coordinates ([`Family::to_free`]) from several starting points (the
//! moment-based one first; for the shifted lognormal also shifts of 0, ½ and 0.9 of
//! the smallest time), keeping the best. The observed information is minus the
//! Hessian of the log-likelihood at the estimate, in the natural parameters, by central
//! differences; its inverse is the covariance. A location (ex-Gaussian `mu`,
//! lognormal `shift` and `mu`) gets estimate ± 1.96 SE; a positive parameter (`sigma`,
//! `tau`) the interval of its logarithm, estimate · exp(± 1.96 SE / estimate), which
//! stays positive.

use super::families::{Family, Moments};
use super::ks::{ks_test, KsResult};
use super::optimise::{minimise, Options};

/// z-value of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A fitted family.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Which family.
    pub family: Family,
    /// Maximum-likelihood estimates, in the order of [`Family::param_names`].
    pub params: [f64; 3],
    /// Standard errors from the observed information (NaN if it is not positive definite).
    pub se: [f64; 3],
    /// 95 % intervals (module docs); NaN bounds when there is no standard error.
    pub ci: [(f64, f64); 3],
    /// Log-likelihood at the estimate.
    pub log_likelihood: f64,
    /// Akaike's information criterion, 2k − 2 ln L with k = 3.
    pub aic: f64,
    /// Kolmogorov–Smirnov test of the sample against the fitted distribution.
    pub ks: KsResult,
    /// True if the optimiser met its tolerances.
    pub converged: bool,
    /// Warnings about the fit (boundary estimates, no intervals), one sentence each.
    pub notes: Vec<String>,
}

/// Fits `family` to the times `xs` (ms; at least 3, finite, positive, not all equal).
pub fn fit(family: Family, xs: &[f64]) -> Fit {
    let m = Moments::of(xs);
    let min = m.min;
    let neg_ll = |f: &[f64]| -family.log_likelihood(&family.from_free(f, min), xs);
    let mut starts = vec![family.start(&m, xs)];
    if family == Family::ShiftedLognormal {
        starts.extend([1e-6, 0.5, 0.9].map(|s| family.start_with_shift(s * min, xs)));
    }
    let steps = family.free_steps(&m);
    let best = starts
        .iter()
        .map(|s| minimise(&neg_ll, &family.to_free(s, min), &steps, Options::default()))
        .min_by(|a, b| a.f.total_cmp(&b.f))
        .expect("at least one start");
    let params = family.from_free(&best.x, min);
    let log_likelihood = -best.f;
    let mut notes = Vec::new();
    if !best.converged {
        notes.push("the optimiser stopped before meeting its tolerance".to_string());
    }
    let cov = information(family, &params, xs, &m).and_then(|h| invert_positive(&h));
    let mut se = match cov {
        Some(c) => [c[0][0].sqrt(), c[1][1].sqrt(), c[2][2].sqrt()],
        None => {
            notes.push("the observed information is not positive definite, so there are no intervals".to_string());
            [f64::NAN; 3]
        }
    };
    // An estimate at the edge of its range has no Wald interval.
    let at_edge = match family {
        Family::ExGaussian if params[2] < 0.01 * params[1] => {
            Some((2, "tau is near 0 (no interval): the times look normal rather than right-skewed"))
        }
        Family::ShiftedLognormal if params[0] < 1e-3 * min => Some((0, "the shift is at its lower bound 0 (no interval)")),
        Family::ShiftedLognormal if params[0] > (1.0 - 1e-6) * min => {
            Some((0, "the shift is at the smallest time, where the likelihood is unbounded (no interval)"))
        }
        _ => None,
    };
    if let Some((i, note)) = at_edge {
        se[i] = f64::NAN;
        notes.push(note.to_string());
    }
    for (i, name) in family.param_names().iter().enumerate() {
        if family.positive()[i] && se[i] > params[i] {
            notes.push(format!("{name} is poorly determined: its standard error is larger than the estimate"));
        }
    }
    let positive = family.positive();
    let ci = std::array::from_fn(|i| {
        let (v, s) = (params[i], se[i]);
        if positive[i] {
            (v * (-Z95 * s / v).exp(), v * (Z95 * s / v).exp())
        } else {
            (v - Z95 * s, v + Z95 * s)
        }
    });
    let ks = ks_test(xs, |x| family.cdf(&params, x));
    Fit { family, params, se, ci, log_likelihood, aic: 6.0 - 2.0 * log_likelihood, ks, converged: best.converged, notes }
}

/// The observed information −∂²ln L/∂θ∂θ' at `p`, by central differences with steps
/// of 10⁻⁴ of each parameter's size (or of its typical size when it is near 0), kept
/// inside the support; `None` if a value is not finite.
pub fn information(family: Family, p: &[f64; 3], xs: &[f64], m: &Moments) -> Option<[[f64; 3]; 3]> {
    let typical = family.typical(m);
    let mut h: [f64; 3] = std::array::from_fn(|i| 1e-4 * p[i].abs().max(1e-2 * typical[i]));
    if family == Family::ShiftedLognormal {
        h[0] = h[0].min(0.25 * (m.min - p[0]));
    }
    let ll = |d: [f64; 3]| family.log_likelihood(&std::array::from_fn(|i| p[i] + d[i]), xs);
    let at = |i: usize, si: f64, j: usize, sj: f64| {
        let mut d = [0.0; 3];
        d[i] += si * h[i];
        d[j] += sj * h[j];
        ll(d)
    };
    let centre = ll([0.0; 3]);
    let mut info = [[0.0; 3]; 3];
    for i in 0..3 {
        info[i][i] = -(at(i, 1.0, i, 0.0) - 2.0 * centre + at(i, -1.0, i, 0.0)) / (h[i] * h[i]);
        for j in 0..i {
            let v = -(at(i, 1.0, j, 1.0) - at(i, 1.0, j, -1.0) - at(i, -1.0, j, 1.0) + at(i, -1.0, j, -1.0)) / (4.0 * h[i] * h[j]);
            info[i][j] = v;
            info[j][i] = v;
        }
    }
    info.iter().flatten().all(|v| v.is_finite()).then_some(info)
}

/// The inverse of a symmetric 3×3 matrix if it is positive definite (all leading
/// minors above 0), else `None`.
pub fn invert_positive(a: &[[f64; 3]; 3]) -> Option<[[f64; 3]; 3]> {
    let minor2 = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    let cof = |r: usize, c: usize| {
        let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
        let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
        a[r1][c1] * a[r2][c2] - a[r1][c2] * a[r2][c1]
    };
    let det = a[0][0] * cof(0, 0) + a[0][1] * cof(0, 1) + a[0][2] * cof(0, 2);
    if !(a[0][0] > 0.0 && minor2 > 0.0 && det > 0.0) {
        return None;
    }
    Some(std::array::from_fn(|i| std::array::from_fn(|j| cof(j, i) / det)))
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use crate::reaction::Dist;
    use crate::rng::rng_from;

    fn draws(d: Dist, n: usize, seed: u64) -> Vec<f64> {
        let mut rng = rng_from(seed);
        (0..n).map(|_| d.sample(&mut rng)).collect()
    }

    /// Estimates within 3 standard errors of the truth, and the 95 % intervals covering it.
    fn check_recovery(family: Family, truth: [f64; 3], seed: u64) -> Fit {
        let xs = draws(family.dist(&truth), 5_000, seed);
        let f = fit(family, &xs);
        assert!(f.converged && f.notes.is_empty(), "{f:?}");
        for i in 0..3 {
            let name = family.param_names()[i];
            println!("{} {name}: true {} estimate {:.4} (SE {:.4}, 95% {:.4} to {:.4})", family.name(), truth[i], f.params[i], f.se[i], f.ci[i].0, f.ci[i].1);
            assert!((f.params[i] - truth[i]).abs() < 3.0 * f.se[i], "{name}: {} vs {} (SE {})", f.params[i], truth[i], f.se[i]);
            assert!(f.ci[i].0 < truth[i] && truth[i] < f.ci[i].1, "{name}: {:?} misses {}", f.ci[i], truth[i]);
        }
        // The fit is at least as likely as the truth, and the true model is not rejected.
        assert!(f.log_likelihood >= family.log_likelihood(&truth, &xs) - 1e-6);
        assert!(f.ks.p > 0.01, "{:?}", f.ks);
        f
    }

    #[test]
    fn fit_recovers_an_ex_gaussian_drawn_by_cardsim() {
        let f = check_recovery(Family::ExGaussian, [400.0, 40.0, 100.0], 20_240_611);
        // SE of mu for n = 5000 is about 1.5 ms: the estimates are tight.
        assert!(f.se[0] < 3.0 && f.se[2] < 4.0, "{:?}", f.se);
        // mu: estimate ± 1.96 SE; sigma, tau: the interval of the logarithm, whose SE is
        // SE / estimate (delta method), so ln(high / low) = 2 · 1.96 · SE / estimate.
        assert!((f.ci[0].1 - f.params[0] - 1.959_964 * f.se[0]).abs() < 1e-4 && (f.params[0] - f.ci[0].0 - 1.959_964 * f.se[0]).abs() < 1e-4);
        for i in [1, 2] {
            let (lo, hi) = f.ci[i];
            assert!(((hi / lo).ln() - 2.0 * 1.959_964 * f.se[i] / f.params[i]).abs() < 1e-6, "{i}: [{lo}, {hi}] {:?}", f);
            assert!((lo * hi / (f.params[i] * f.params[i]) - 1.0).abs() < 1e-9, "symmetric on the log scale");
        }
    }

    #[test]
    fn fit_recovers_a_shifted_lognormal_drawn_by_cardsim() {
        check_recovery(Family::ShiftedLognormal, [250.0, 5.5, 0.45], 77);
    }

    #[test]
    fn fit_the_right_family_wins_on_aic() {
        let eg = draws(Dist::ExGaussian { mu: 300.0, sigma: 30.0, tau: 150.0, floor: 0.0 }, 3_000, 5);
        assert!(fit(Family::ExGaussian, &eg).aic < fit(Family::ShiftedLognormal, &eg).aic);
        let ln = draws(Dist::ShiftedLognormal { shift: 100.0, mu: 6.0, sigma: 0.7 }, 3_000, 6);
        assert!(fit(Family::ShiftedLognormal, &ln).aic < fit(Family::ExGaussian, &ln).aic);
    }

    #[test]
    fn fit_boundary_estimates_get_a_note_and_no_interval() {
        // A symmetric sample: no skew for tau or for a lognormal's shift to explain.
        let half = draws(Dist::ExGaussian { mu: 1000.0, sigma: 100.0, tau: 1e-9, floor: 0.0 }, 500, 4);
        let xs: Vec<f64> = half.iter().flat_map(|&x| [x, 2000.0 - x]).collect();
        let eg = fit(Family::ExGaussian, &xs);
        assert!(eg.notes.iter().any(|n| n.starts_with("tau is near 0")), "{eg:?}");
        assert!(eg.se[2].is_nan() && eg.se[0].is_finite(), "{eg:?}");
        let ln = fit(Family::ShiftedLognormal, &xs);
        assert!(ln.notes.iter().any(|n| n.starts_with("the shift is at its lower bound 0")), "{ln:?}");
        assert!(ln.se[0].is_nan(), "{ln:?}");
    }

    /// Coverage of the 95 % intervals over 400 samples of 300 times per family (about
    /// 20 s; run by hand with `cargo test --release --lib fit_interval_coverage -- --ignored
    /// --nocapture`). Each parameter's interval should cover the truth in about 95 % of
    /// samples (binomial SE 1.1 %).
    #[test]
    #[ignore]
    fn fit_interval_coverage() {
        for (family, truth) in [(Family::ExGaussian, [900.0, 80.0, 250.0]), (Family::ShiftedLognormal, [600.0, 6.0, 0.5])] {
            let mut covered = [0usize; 3];
            let reps = 400;
            for r in 0..reps {
                let f = fit(family, &draws(family.dist(&truth), 300, 1_000 + r));
                for i in 0..3 {
                    covered[i] += (f.ci[i].0 < truth[i] && truth[i] < f.ci[i].1) as usize;
                }
            }
            let rates: Vec<f64> = covered.iter().map(|&c| c as f64 / reps as f64).collect();
            println!("{}: coverage {:?} of {:?}", family.name(), rates, family.param_names());
            assert!(rates.iter().all(|&r| r > 0.90), "{rates:?}");
        }
    }

    #[test]
    fn fit_information_matches_the_normal_case_by_hand() {
        // An ex-Gaussian with a tiny tau is a normal: the information of mu is n/σ².
        let xs = draws(Dist::ExGaussian { mu: 500.0, sigma: 50.0, tau: 1e-4, floor: 0.0 }, 2_000, 9);
        let m = Moments::of(&xs);
        let info = information(Family::ExGaussian, &[500.0, 50.0, 1e-4], &xs, &m).unwrap();
        assert!((info[0][0] / (2_000.0 / 2_500.0) - 1.0).abs() < 0.01, "{info:?}");
    }

    #[test]
    fn fit_inverse_of_a_positive_definite_matrix() {
        let a = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]];
        let inv = invert_positive(&a).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                let v: f64 = (0..3).map(|k| a[i][k] * inv[k][j]).sum();
                assert!((v - if i == j { 1.0 } else { 0.0 }).abs() < 1e-12);
            }
        }
        assert!(invert_positive(&[[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]).is_none());
    }
}
