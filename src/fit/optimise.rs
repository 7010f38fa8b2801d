//! A Nelder–Mead simplex minimiser (Nelder & Mead 1965, with the standard coefficients:
//! reflection 1, expansion 2, contraction ½, shrink ½) and restarts from the best point,
//! for the maximum-likelihood fits. It needs no derivatives and treats NaN and +∞ as
//! "worse than anything", so a step outside the support is simply rejected.

/// Settings of [`minimise`].
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Stop when the simplex's function values differ by at most
    /// `f_tol · (1 + |f_best|)`…
    pub f_tol: f64,
    /// …and every vertex is within `x_tol` of the best in every coordinate.
    pub x_tol: f64,
    /// Most function evaluations per run.
    pub max_evals: usize,
    /// Runs restarted from the best point (with the initial steps) after the first; the
    /// search stops early when a restart no longer improves.
    pub restarts: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { f_tol: 1e-12, x_tol: 1e-9, max_evals: 20_000, restarts: 4 }
    }
}

/// The result of [`minimise`].
#[derive(Clone, Debug, PartialEq)]
pub struct Minimum {
    /// Best point found.
    pub x: Vec<f64>,
    /// Function value there.
    pub f: f64,
    /// Function evaluations used in all runs.
    pub evals: usize,
    /// True if the last run met the tolerances before `max_evals`.
    pub converged: bool,
}

/// Minimises `f` from `x0`, the first simplex spanned by `steps` along each coordinate.
pub fn minimise(f: &dyn Fn(&[f64]) -> f64, x0: &[f64], steps: &[f64], opt: Options) -> Minimum {
    let mut best = run(f, x0, steps, opt);
    for _ in 0..opt.restarts {
        let again = run(f, &best.x, steps, opt);
        let improved = again.f < best.f - opt.f_tol * (1.0 + best.f.abs());
        let evals = best.evals + again.evals;
        if again.f <= best.f {
            best = Minimum { evals, ..again };
        } else {
            best.evals = evals;
        }
        if !improved {
            break;
        }
    }
    best
}

/// `f(x)` with NaN mapped to +∞.
fn value(f: &dyn Fn(&[f64]) -> f64, x: &[f64]) -> f64 {
    let v = f(x);
    if v.is_nan() {
        f64::INFINITY
    } else {
        v
    }
}

/// One Nelder–Mead run.
fn run(f: &dyn Fn(&[f64]) -> f64, x0: &[f64], steps: &[f64], opt: Options) -> Minimum {
    let n = x0.len();
    let mut simplex: Vec<Vec<f64>> = vec![x0.to_vec()];
    for i in 0..n {
        let mut v = x0.to_vec();
        v[i] += steps[i];
        simplex.push(v);
    }
    let mut fs: Vec<f64> = simplex.iter().map(|v| value(f, v)).collect();
    let mut evals = n + 1;
    let mut converged = false;
    while evals < opt.max_evals {
        // Order: best first.
        let mut order: Vec<usize> = (0..=n).collect();
        order.sort_by(|&a, &b| fs[a].total_cmp(&fs[b]));
        simplex = order.iter().map(|&i| simplex[i].clone()).collect();
        fs = order.iter().map(|&i| fs[i]).collect();
        let spread = fs[n] - fs[0];
        let width = simplex[1..].iter().flat_map(|v| v.iter().zip(&simplex[0]).map(|(a, b)| (a - b).abs())).fold(0.0, f64::max);
        if fs[0].is_finite() && spread <= opt.f_tol * (1.0 + fs[0].abs()) && width <= opt.x_tol {
            converged = true;
            break;
        }
        let centroid: Vec<f64> = (0..n).map(|j| simplex[..n].iter().map(|v| v[j]).sum::<f64>() / n as f64).collect();
        let towards = |t: f64| -> Vec<f64> { (0..n).map(|j| centroid[j] + t * (simplex[n][j] - centroid[j])).collect() };
        let xr = towards(-1.0);
        let fr = value(f, &xr);
        evals += 1;
        if fr < fs[0] {
            let xe = towards(-2.0);
            let fe = value(f, &xe);
            evals += 1;
            if fe < fr {
                (simplex[n], fs[n]) = (xe, fe);
            } else {
                (simplex[n], fs[n]) = (xr, fr);
            }
            continue;
        }
        if fr < fs[n - 1] {
            (simplex[n], fs[n]) = (xr, fr);
            continue;
        }
        // Contract: outside if the reflection beat the worst, else inside.
        let xc = towards(if fr < fs[n] { -0.5 } else { 0.5 });
        let fc = value(f, &xc);
        evals += 1;
        if fc < fs[n].min(fr) {
            (simplex[n], fs[n]) = (xc, fc);
            continue;
        }
        // Shrink towards the best vertex.
        for i in 1..=n {
            simplex[i] = (0..n).map(|j| simplex[0][j] + 0.5 * (simplex[i][j] - simplex[0][j])).collect();
            fs[i] = value(f, &simplex[i]);
        }
        evals += n;
    }
    let best = (0..=n).min_by(|&a, &b| fs[a].total_cmp(&fs[b])).expect("simplex has vertices");
    Minimum { x: simplex[best].clone(), f: fs[best], evals, converged }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_nelder_mead_finds_the_rosenbrock_minimum() {
        let rosen = |x: &[f64]| (1.0 - x[0]).powi(2) + 100.0 * (x[1] - x[0] * x[0]).powi(2);
        let m = minimise(&rosen, &[-1.2, 1.0], &[0.5, 0.5], Options::default());
        assert!(m.converged, "{m:?}");
        assert!((m.x[0] - 1.0).abs() < 1e-6 && (m.x[1] - 1.0).abs() < 1e-6, "{m:?}");
    }

    #[test]
    fn fit_nelder_mead_steps_around_infinite_and_nan_regions() {
        // A quadratic with its minimum at (2, 3, −1), undefined (NaN) for x₀ < 0 and
        // infinite for x₁ > 10.
        let f = |x: &[f64]| {
            if x[0] < 0.0 {
                f64::NAN
            } else if x[1] > 10.0 {
                f64::INFINITY
            } else {
                (x[0] - 2.0).powi(2) + 3.0 * (x[1] - 3.0).powi(2) + (x[2] + 1.0).powi(2) + 0.5 * (x[0] - 2.0) * (x[2] + 1.0)
            }
        };
        let m = minimise(&f, &[0.1, 9.0, 5.0], &[5.0, 5.0, 5.0], Options::default());
        for (got, want) in m.x.iter().zip([2.0, 3.0, -1.0]) {
            assert!((got - want).abs() < 1e-6, "{m:?}");
        }
    }
}
