//! Simultaneous perturbation stochastic approximation (Spall 1992) with the
//! parametrisation fishtest uses to tune chess engines: per parameter an end
//! perturbation `c_end` and an end learning rate `r_end`, gains
//! `c_k = c / k^gamma` and `a_k = a / (A + k)^alpha` (k = 1, 2, ...) with
//! `c = c_end * N^gamma`, `a = r_end * c_end^2 * (A + N)^alpha`, `A` = 10% of the `N`
//! iterations, `alpha` = 0.602 and `gamma` = 0.101. Iteration k perturbs every
//! parameter at once by `±c_k` (one random sign each), measures `result`, the
//! objective at `theta + c_k * flip` less the objective at `theta - c_k * flip`
//! (fishtest: wins less losses of the plus bot against the minus bot), and moves
//! `theta += a_k / c_k * result * flip`, clipped to the ranges. At the last iteration the
//! step for a result of 1 is `r_end * c_end`.
//!
//! Everything is a function of the seed and the iteration, so a run stopped after
//! iteration k and resumed from `theta` gives the same trajectory.

use crate::fpmath;
use crate::rng::{mix, rng_from};
use rand::RngExt;

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// Its name.
    pub name: String,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Perturbation at the last iteration.
    pub c_end: f64,
    /// Learning rate at the last iteration.
    pub r_end: f64,
}

/// The gain schedules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Number of iterations N.
    pub iterations: u64,
    /// Decay of the learning rate (0.602).
    pub alpha: f64,
    /// Decay of the perturbation (0.101).
    pub gamma: f64,
    /// Stability constant A (10% of N).
    pub big_a: f64,
}

impl Schedule {
    /// fishtest's defaults for `iterations`.
    pub fn standard(iterations: u64) -> Schedule {
        Schedule { iterations, alpha: 0.602, gamma: 0.101, big_a: 0.1 * iterations as f64 }
    }
}

/// The perturbed points of one iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration, from 1.
    pub k: u64,
    /// The sign of each parameter's perturbation.
    pub flip: Vec<f64>,
    /// Each parameter's perturbation size `c_k`.
    pub c: Vec<f64>,
    /// `theta + c_k * flip`, clipped.
    pub plus: Vec<f64>,
    /// `theta - c_k * flip`, clipped.
    pub minus: Vec<f64>,
}

/// A tuning run: the parameters, the schedule and the current point.
#[derive(Clone, Debug)]
pub struct Spsa {
    params: Vec<SpsaParam>,
    schedule: Schedule,
    seed: u64,
    theta: Vec<f64>,
    done: u64,
}

/// Domain tag of the perturbation signs.
const TAG_FLIP: u64 = 0x7370_7361; // "spsa"

impl Spsa {
    /// A run from `start` (clipped into the ranges); `seed` draws the signs.
    pub fn new(params: Vec<SpsaParam>, schedule: Schedule, seed: u64, start: &[f64]) -> Result<Spsa, String> {
        if params.is_empty() {
            return Err("nothing to tune: no parameters".into());
        }
        if schedule.iterations == 0 {
            return Err("iterations: at least 1".into());
        }
        if start.len() != params.len() {
            return Err(format!("{} start values for {} parameters", start.len(), params.len()));
        }
        for p in &params {
            // Written as one conjunction so that a NaN anywhere fails it.
            let valid = p.min < p.max && p.c_end > 0.0 && p.r_end > 0.0 && p.c_end.is_finite() && p.r_end.is_finite();
            if !valid {
                return Err(format!("{}: needs min < max and positive c_end and r_end", p.name));
            }
        }
        let theta = params.iter().zip(start).map(|(p, &x)| x.clamp(p.min, p.max)).collect();
        Ok(Spsa { params, schedule, seed, theta, done: 0 })
    }

    /// The run resumed after `done` iterations at `theta` (from a checkpoint).
    pub fn resume(params: Vec<SpsaParam>, schedule: Schedule, seed: u64, theta: &[f64], done: u64) -> Result<Spsa, String> {
        let mut s = Spsa::new(params, schedule, seed, theta)?;
        if done > schedule.iterations {
            return Err(format!("{done} iterations done of {}", schedule.iterations));
        }
        s.done = done;
        Ok(s)
    }

    /// The current point.
    pub fn theta(&self) -> &[f64] {
        &self.theta
    }

    /// Iterations done.
    pub fn done(&self) -> u64 {
        self.done
    }

    /// True when every iteration is done.
    pub fn finished(&self) -> bool {
        self.done >= self.schedule.iterations
    }

    /// The parameters.
    pub fn params(&self) -> &[SpsaParam] {
        &self.params
    }

    /// Gains of iteration `k` for parameter `p`: (`c_k`, `a_k`).
    fn gains(&self, p: &SpsaParam, k: u64) -> (f64, f64) {
        let s = &self.schedule;
        let n = s.iterations as f64;
        let c = p.c_end * fpmath::powf(n, s.gamma);
        let a = p.r_end * p.c_end * p.c_end * fpmath::powf(s.big_a + n, s.alpha);
        (c / fpmath::powf(k as f64, s.gamma), a / fpmath::powf(s.big_a + k as f64, s.alpha))
    }

    /// The points to measure at the next iteration.
    pub fn perturb(&self) -> Perturbation {
        let k = self.done + 1;
        let mut rng = rng_from(mix(&[self.seed, TAG_FLIP, k]));
        let flip: Vec<f64> = self.params.iter().map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 }).collect();
        let c: Vec<f64> = self.params.iter().map(|p| self.gains(p, k).0).collect();
        let at = |sign: f64| self.params.iter().enumerate().map(|(i, p)| (self.theta[i] + sign * c[i] * flip[i]).clamp(p.min, p.max)).collect();
        Perturbation { k, plus: at(1.0), minus: at(-1.0), flip, c }
    }

    /// Takes the measured `result` of `step` (objective at plus less at minus) and moves
    /// the point.
    pub fn update(&mut self, step: &Perturbation, result: f64) {
        assert_eq!(step.k, self.done + 1, "the perturbation of the next iteration");
        for (i, p) in self.params.iter().enumerate() {
            let (c, a) = self.gains(p, step.k);
            self.theta[i] = (self.theta[i] + a / c * result * step.flip[i]).clamp(p.min, p.max);
        }
        self.done += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_distr::{Distribution, Normal};

    fn param(name: &str, c_end: f64, r_end: f64) -> SpsaParam {
        SpsaParam { name: name.into(), min: -10.0, max: 10.0, c_end, r_end }
    }

    /// A noisy quadratic with a known optimum: the result of an iteration is
    /// f(plus) - f(minus) plus normal noise of sd `noise`, f(x) = -sum w_i (x_i - opt_i)^2.
    fn tune(seed: u64, iterations: u64, noise: f64) -> Vec<f64> {
        let opt = [3.0, -2.0, 0.5];
        let w = [1.0, 1.0, 2.0];
        let f = |x: &[f64]| -x.iter().zip(opt).zip(w).map(|((x, o), w)| w * (x - o) * (x - o)).sum::<f64>();
        let params = vec![param("a", 0.5, 0.02), param("b", 0.5, 0.02), param("c", 0.5, 0.02)];
        let mut s = Spsa::new(params, Schedule::standard(iterations), seed, &[0.0, 0.0, 0.0]).unwrap();
        let mut rng = rng_from(seed ^ 0xABCD);
        let eps = Normal::new(0.0, noise).unwrap();
        while !s.finished() {
            let p = s.perturb();
            let result = f(&p.plus) - f(&p.minus) + eps.sample(&mut rng);
            s.update(&p, result);
        }
        s.theta().to_vec()
    }

    #[test]
    fn recovers_the_optimum_of_a_noisy_quadratic() {
        // Start 3.6 away from the optimum (3, -2, 0.5), with noise of sd 1 on every result.
        for seed in 1..=5 {
            let theta = tune(seed, 4000, 1.0);
            let err = [theta[0] - 3.0, theta[1] + 2.0, theta[2] - 0.5];
            assert!(err.iter().all(|e| e.abs() < 0.25), "seed {seed}: {theta:?}");
        }
    }

    #[test]
    fn gains_follow_the_fishtest_schedule() {
        let s = Spsa::new(vec![param("a", 2.0, 0.002)], Schedule::standard(1000), 1, &[0.0]).unwrap();
        let p = &s.params[0];
        // At k = N the perturbation is c_end and a_N / c_N^2 = r_end.
        let (c, a) = s.gains(p, 1000);
        assert!((c - 2.0).abs() < 1e-9, "{c}");
        assert!((a / (c * c) - 0.002).abs() < 1e-12, "{a}");
        // At k = 1: c_1 = c_end * N^gamma, a_1 = r_end c_end^2 ((A + N) / (A + 1))^alpha.
        let (c1, a1) = s.gains(p, 1);
        assert!((c1 - 2.0 * 1000f64.powf(0.101)).abs() < 1e-9);
        assert!((a1 - 0.002 * 4.0 * (1100.0f64 / 101.0).powf(0.602)).abs() < 1e-12);
    }

    #[test]
    fn a_resumed_run_follows_the_same_trajectory() {
        let params = vec![param("a", 0.5, 0.02), param("b", 0.5, 0.02)];
        let run = |s: &mut Spsa, upto: u64| {
            while s.done() < upto {
                let p = s.perturb();
                let r = p.plus[0] - p.minus[0] - 2.0 * (p.plus[1] - p.minus[1]);
                s.update(&p, r);
            }
        };
        let mut whole = Spsa::new(params.clone(), Schedule::standard(50), 7, &[1.0, 1.0]).unwrap();
        run(&mut whole, 50);
        let mut first = Spsa::new(params.clone(), Schedule::standard(50), 7, &[1.0, 1.0]).unwrap();
        run(&mut first, 20);
        let mut second = Spsa::resume(params, Schedule::standard(50), 7, first.theta(), 20).unwrap();
        run(&mut second, 50);
        assert_eq!(whole.theta(), second.theta());
    }

    #[test]
    fn points_stay_within_the_ranges() {
        let p = SpsaParam { name: "a".into(), min: 0.0, max: 1.0, c_end: 0.5, r_end: 10.0 };
        let mut s = Spsa::new(vec![p], Schedule::standard(100), 3, &[5.0]).unwrap();
        assert_eq!(s.theta(), &[1.0]);
        while !s.finished() {
            let step = s.perturb();
            assert!(step.plus[0] >= 0.0 && step.plus[0] <= 1.0 && step.minus[0] >= 0.0 && step.minus[0] <= 1.0);
            s.update(&step, 100.0);
            assert!((0.0..=1.0).contains(&s.theta()[0]));
        }
    }
}
