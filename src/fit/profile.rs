//! Profile-likelihood 95 % intervals.
//!
//! For parameter i the profile log-likelihood at a value v is the largest
//! log-likelihood with θ_i = v, maximised over the other two parameters (Nelder–Mead in
//! the unconstrained coordinates of [`Family::to_free`], warm-started from the last
//! profile point). The interval is the set of values around the estimate where
//! 2·(ln L_max − ln L_profile(v)) ≤ χ²₁(0.95) = 3.841: from the estimate, each side is
//! searched outward in the free coordinate (from 1.96 Wald SEs, doubling) until the
//! drop exceeds the limit, and the crossing is then found by the Illinois method. A side
//! that reaches the parameter's edge (0 for sigma and tau and the lognormal shift, the
//! smallest time for the shift) without crossing ends at that edge, marked as such.

use super::families::{Family, Moments};
use super::optimise::{minimise, Options};

/// χ²₁(0.95), the profile-likelihood drop (twice the log-likelihood ratio) that bounds a
/// 95 % interval (the square of the normal 97.5 % quantile).
pub const CHI2_1_95: f64 = 3.841_458_820_694_124;

/// How far (in free coordinates) a side is searched before it counts as reaching the
/// parameter's edge (log and logit scales: a factor of e⁴⁰) or as unbounded.
const REACH: f64 = 40.0;

/// One end of an interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// The profile crosses the limit here.
    At(f64),
    /// The profile stays within the limit up to the parameter's edge, this value
    /// (0, or the smallest time for the lognormal shift).
    Edge(f64),
    /// The profile stays within the limit as far as it was searched, on a side without
    /// an edge.
    Open,
}

impl Bound {
    /// The bound as a number: the edge for [`Bound::Edge`], ±∞ for [`Bound::Open`]
    /// (`sign` −1 for a lower bound, +1 for an upper one).
    pub fn value(self, sign: f64) -> f64 {
        match self {
            Bound::At(v) | Bound::Edge(v) => v,
            Bound::Open => sign * f64::INFINITY,
        }
    }
}

/// A 95 % profile-likelihood interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower end.
    pub low: Bound,
    /// Upper end.
    pub high: Bound,
}

impl Interval {
    /// True if `v` lies in the interval (an edge counts as inside).
    pub fn covers(&self, v: f64) -> bool {
        self.low.value(-1.0) <= v && v <= self.high.value(1.0)
    }
}

/// The profile-likelihood intervals of all three parameters of `family` fitted to `xs`,
/// at the estimate `free_hat` (free coordinates) with log-likelihood `ll_max`; `steps`
/// are the first search steps in free coordinates (the Wald SEs there, or the
/// optimiser's steps when those are not finite); `restart`, if given, is a second
/// starting point (free coordinates) for every inner maximisation, for an estimate at
/// the edge of its range, from which the others may not be able to move far enough.
pub fn intervals(family: Family, xs: &[f64], m: &Moments, free_hat: &[f64; 3], ll_max: f64, steps: [f64; 3], restart: Option<[f64; 3]>) -> [Interval; 3] {
    std::array::from_fn(|i| {
        let side = |dir: f64| bound(family, xs, m, free_hat, ll_max, i, dir, &steps, restart);
        Interval { low: side(-1.0), high: side(1.0) }
    })
}

/// Settings of the inner maximisations: warm-started close to their optimum, one
/// restart is enough, and the free coordinates need no more than 10⁻⁷.
const INNER: Options = Options { f_tol: 1e-12, x_tol: 1e-7, max_evals: 20_000, restarts: 1 };

/// The profile log-likelihood of free coordinate `i` at `u`, maximised over the other two
/// coordinates from `others` (updated to the maximiser), with first simplex steps
/// `steps` (free coordinates, all three).
pub fn profile_ll(family: Family, xs: &[f64], m: &Moments, i: usize, u: f64, others: &mut [f64; 2], steps: &[f64; 3]) -> f64 {
    let rest: Vec<usize> = (0..3).filter(|&j| j != i).collect();
    let full = |o: &[f64]| {
        let mut f = [0.0; 3];
        f[i] = u;
        f[rest[0]] = o[0];
        f[rest[1]] = o[1];
        f
    };
    let neg_ll = |o: &[f64]| -family.log_likelihood(&family.from_free(&full(o), m.min), xs);
    let best = minimise(&neg_ll, &others[..], &[steps[rest[0]], steps[rest[1]]], INNER);
    *others = [best.x[0], best.x[1]];
    -best.f
}

/// One end of the interval of free coordinate `i`, searched in direction `dir` (±1).
#[allow(clippy::too_many_arguments)]
fn bound(family: Family, xs: &[f64], m: &Moments, free_hat: &[f64; 3], ll_max: f64, i: usize, dir: f64, steps: &[f64; 3], restart: Option<[f64; 3]>) -> Bound {
    let rest: Vec<usize> = (0..3).filter(|&j| j != i).collect();
    let mut others = [free_hat[rest[0]], free_hat[rest[1]]];
    let excess = |u: f64, others: &mut [f64; 2]| {
        let mut ll = profile_ll(family, xs, m, i, u, others, steps);
        if let Some(r) = restart {
            let mut again = [r[rest[0]], r[rest[1]]];
            let ll2 = profile_ll(family, xs, m, i, u, &mut again, steps);
            if ll2 > ll {
                (ll, *others) = (ll2, again);
            }
        }
        2.0 * (ll_max - ll) - CHI2_1_95
    };
    let natural = |u: f64| {
        let mut f = *free_hat;
        f[i] = u;
        family.from_free(&f, m.min)[i]
    };
    // Expand outward until the drop exceeds the limit, from where a quadratic profile
    // would cross it (1.96 Wald SEs).
    let step = steps[i];
    let (mut inner, mut g_inner) = (free_hat[i], -CHI2_1_95);
    let mut d = CHI2_1_95.sqrt() * step;
    let (outer, g_outer) = loop {
        let u = free_hat[i] + dir * d;
        if d > REACH * step.max(1.0) {
            return match family.edge(i, dir > 0.0, m.min) {
                Some(e) => Bound::Edge(e),
                None => Bound::Open,
            };
        }
        let g = excess(u, &mut others);
        if g > 0.0 {
            break (u, g);
        }
        (inner, g_inner) = (u, g);
        d *= 2.0;
    };
    // Illinois (modified regula falsi) between the last point inside and the first outside.
    let (mut a, mut ga, mut b, mut gb) = (inner, g_inner, outer, g_outer);
    let mut side = 0;
    for _ in 0..100 {
        let c = b - gb * (b - a) / (gb - ga);
        let gc = excess(c, &mut others);
        if gc.abs() < 1e-6 || (b - a).abs() < 1e-12 * (1.0 + c.abs()) {
            return Bound::At(natural(c));
        }
        if (gc > 0.0) == (gb > 0.0) {
            (b, gb) = (c, gc);
            if side == -1 {
                ga *= 0.5;
            }
            side = -1;
        } else {
            (a, ga) = (c, gc);
            if side == 1 {
                gb *= 0.5;
            }
            side = 1;
        }
    }
    Bound::At(natural(0.5 * (a + b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::{ChiSquared, ContinuousCDF};

    #[test]
    fn fit_chi2_limit_is_the_95_percent_quantile() {
        let q = ChiSquared::new(1.0).unwrap().inverse_cdf(0.95);
        assert!((q - CHI2_1_95).abs() < 1e-9, "{q}");
    }

    #[test]
    fn fit_interval_coverage_counts_an_edge_as_inside() {
        let iv = Interval { low: Bound::Edge(0.0), high: Bound::At(5.0) };
        assert!(iv.covers(0.0) && iv.covers(5.0) && !iv.covers(5.1) && !iv.covers(-0.1));
        assert!(Interval { low: Bound::At(1.0), high: Bound::Open }.covers(1e300));
    }
}
