//! From a fitted distribution to a bot file that plays at the person's pace.
//!
//! **What the times stand for.** A measured move time is taken as the whole time of a
//! card play, from the moment the table changed to the card landing. In cardsim that
//! time is `look + scan + Hick + movement − overlap` ([`ReactionModel::action_time`]).
//! The fitted distribution therefore stands for the *sum*, not for one stage, and is
//! written so that a play takes exactly the fitted time:
//!
//! - the **movement** of a play is a constant M: the base preset's Fitts time for a
//!   play (2·`fitts_a` + 4.29·`fitts_b` + `grasp_release`), `motor_cv` = 0 and
//!   `p_fumble` = 0;
//! - the **look** is the fitted distribution less M (ex-Gaussian `mu` − M, or
//!   lognormal `shift` − M), with `floor` 0;
//! - **scan**, **Hick**, **overlap** and **misses** are 0 (`scan_per_item`, `hick_b`,
//!   `overlap`, `p_miss`): the person's search, choice, lapses and fumbles are already in
//!   the measured times, and counting them again would slow the bot down.
//!
//! So look + M is the fitted distribution (the look is drawn first from the bot's
//! stream, exactly as `Dist::sample` draws it). M must not exceed the fastest plausible
//! time: the lognormal's shift, or the ex-Gaussian's 0.1 % quantile (so its look is cut
//! at 0 at most 0.1 % of the time). When the preset's M is larger, `fitts_a`, `fitts_b` and
//! `grasp_release` are scaled down by the same factor and written into the file.
//!
//! **What the times do not say** comes from the base preset, by default the human preset
//! (novice to expert) nearest in pace in play ([`super::pace`]; the bot is first built on
//! the one whose mean play time in the reference situation of reaction-time.md §5.2 (5
//! candidate cards, 1 legal move) is nearest to the fitted mean, [`nearest_preset`]):
//! the simple reaction time of slaps and stall recognition, and the movements of
//! returns, spits and slaps (now without noise). Flips and fills take the fitted look
//! plus their own, shorter, constant movement, and the time of a move no longer depends
//! on how many cards and moves there are to choose from.

use super::mle::Fit;
use super::Family;
use crate::bot::BotSpec;
use crate::reaction::presets::ALL_PRESETS;
use crate::reaction::{Dist, Motion, Preset, ReactionModel};
use crate::rng::rng_from;

/// Quantile of the fitted ex-Gaussian that the constant movement may not exceed.
pub const EX_GAUSSIAN_CUT: f64 = 0.001;

/// A bot made from a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct BotPlan {
    /// Game the bot is for.
    pub game: String,
    /// Strategy it plays.
    pub strategy: String,
    /// Base preset, for everything the times do not measure.
    pub preset: Preset,
    /// True if the preset was chosen by pace (no `--preset`).
    pub preset_by_pace: bool,
    /// Label in tables and CSV.
    pub label: String,
    /// The fitted family.
    pub family: Family,
    /// Its parameters.
    pub params: [f64; 3],
    /// Constant movement time of a play (ms): M.
    pub motor: f64,
    /// Factor applied to the preset's Fitts and grasp times (1 = unchanged).
    pub motor_scale: f64,
    /// The look: the fitted distribution less M.
    pub look: Dist,
}

/// Mean action time of a play of `p`'s model in the reference situation (5 candidates,
/// 1 legal move), from 20,000 draws with a fixed seed.
pub fn preset_play_mean(p: Preset) -> f64 {
    let model = p.model().prepare();
    let mut rng = rng_from(0x6669_7472);
    (0..20_000).map(|_| model.action_time(Motion::Play, 5, 1, &mut rng)).sum::<f64>() / 20_000.0
}

/// The human preset (not `machine`) whose mean play time is nearest to `mean` ms.
pub fn nearest_preset(mean: f64) -> Preset {
    ALL_PRESETS
        .into_iter()
        .filter(|&p| p != Preset::Machine)
        .min_by(|&a, &b| (preset_play_mean(a) - mean).abs().total_cmp(&(preset_play_mean(b) - mean).abs()))
        .expect("human presets exist")
}

impl BotPlan {
    /// The bot for `fit`; `preset` None chooses the preset by pace in the reference
    /// situation ([`nearest_preset`]). Fails if the result
    /// is outside the accepted reaction values (docs/usage.md, "Accepted reaction values").
    pub fn new(fit: &Fit, game: &str, strategy: &str, preset: Option<Preset>, label: &str) -> Result<BotPlan, String> {
        BotPlan::new_on(fit.family, fit.params, game, strategy, preset, label)
    }

    /// [`BotPlan::new`] from a family and its parameters.
    fn new_on(family: Family, params: [f64; 3], game: &str, strategy: &str, preset: Option<Preset>, label: &str) -> Result<BotPlan, String> {
        let preset_by_pace = preset.is_none();
        let preset = preset.unwrap_or_else(|| nearest_preset(family.mean(&params)));
        let full = preset.model().motor_mean(Motion::Play);
        let limit = match family {
            Family::ExGaussian => family.quantile(&params, EX_GAUSSIAN_CUT).max(0.0),
            Family::ShiftedLognormal => params[0],
        };
        let motor_scale = if full > limit { if full > 0.0 { limit / full } else { 1.0 } } else { 1.0 };
        let motor = full * motor_scale;
        let look = match family {
            Family::ExGaussian => Dist::ExGaussian { mu: params[0] - motor, sigma: params[1], tau: params[2], floor: 0.0 },
            Family::ShiftedLognormal => Dist::ShiftedLognormal { shift: (params[0] - motor).max(0.0), mu: params[1], sigma: params[2] },
        };
        let plan = BotPlan { game: game.to_string(), strategy: strategy.to_string(), preset, preset_by_pace, label: label.to_string(), family, params, motor, motor_scale, look };
        plan.model().validate().map_err(|e| format!("the fitted {} cannot be written as a bot: reaction.{e}", family.name()))?;
        Ok(plan)
    }

    /// The same fit on base preset `preset` (chosen, not by pace).
    pub fn with_preset(&self, preset: Preset) -> Result<BotPlan, String> {
        BotPlan::new_on(self.family, self.params, &self.game, &self.strategy, Some(preset), &self.label)
    }

    /// The bot's reaction model.
    pub fn model(&self) -> ReactionModel {
        let base = self.preset.model();
        ReactionModel {
            look: self.look,
            scan_per_item: 0.0,
            hick_b: 0.0,
            fitts_a: base.fitts_a * self.motor_scale,
            fitts_b: base.fitts_b * self.motor_scale,
            grasp_release: base.grasp_release * self.motor_scale,
            motor_cv: 0.0,
            overlap: 0.0,
            p_miss: 0.0,
            p_fumble: 0.0,
            ..base
        }
    }

    /// The bot file; `provenance` lines become comments at its top.
    pub fn toml(&self, provenance: &[String]) -> String {
        let mut out = String::new();
        for line in provenance {
            out.push_str(&format!("# {line}\n"));
        }
        let q = |s: &str| toml::Value::String(s.to_string()).to_string();
        out.push_str(&format!("game = {}\nstrategy = {}\npreset = {}\nlabel = {}\n\n[reaction]\n", q(&self.game), q(&self.strategy), q(self.preset.name()), q(&self.label)));
        let look = look_toml(&self.look);
        out.push_str(&format!("look = {look}\nscan_per_item = 0\nhick_b = 0\noverlap = 0\nmotor_cv = 0\np_miss = 0\np_fumble = 0\n"));
        if self.motor_scale < 1.0 {
            let m = self.model();
            out.push_str(&format!(
                "# the {} preset's movements scaled by {}, so that a play's movement ({} ms) stays below the fastest plausible time\n",
                self.preset.name(),
                num(self.motor_scale, 4),
                ms(self.motor)
            ));
            out.push_str(&format!("fitts_a = {}\nfitts_b = {}\ngrasp_release = {}\n", ms(m.fitts_a), ms(m.fitts_b), ms(m.grasp_release)));
        }
        out
    }
}

/// A fitted look as a bot file writes it, e.g.
/// `{ dist = "ex_gaussian", mu = 218.583, sigma = 75.387, tau = 251.911, floor = 0 }`.
pub fn look_toml(look: &Dist) -> String {
    match *look {
        Dist::ExGaussian { mu, sigma, tau, floor } => {
            format!("{{ dist = \"ex_gaussian\", mu = {}, sigma = {}, tau = {}, floor = {} }}", ms(mu), ms(sigma), ms(tau), ms(floor))
        }
        Dist::ShiftedLognormal { shift, mu, sigma } => {
            format!("{{ dist = \"shifted_lognormal\", shift = {}, mu = {}, sigma = {} }}", ms(shift), num(mu, 6), num(sigma, 6))
        }
        Dist::Constant(v) => format!("{{ dist = \"constant\", ms = {} }}", ms(v)),
        Dist::ShiftedWald { shift, mean, shape } => format!("{{ dist = \"shifted_wald\", shift = {}, mean = {}, shape = {} }}", ms(shift), ms(mean), ms(shape)),
    }
}

/// A time in ms to the microsecond (the engine's resolution).
fn ms(v: f64) -> String {
    num(v, 3)
}

/// `v` with at most `decimals` decimals, trailing zeros dropped.
fn num(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

/// Checks that `text` loads as a bot file, by the loader `--bot FILE.toml` uses
/// ([`BotSpec::from_file`], which also checks every reaction value), through a temporary
/// copy; returns the bot.
pub fn check_loads(text: &str) -> Result<BotSpec, String> {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = std::env::temp_dir().join(format!("cardsim-fit-rt-{}-{n}.toml", std::process::id()));
    let result = std::fs::write(&tmp, text)
        .map_err(|e| format!("cannot check the bot file: {}: {e}", tmp.display()))
        .and_then(|_| BotSpec::from_file(&tmp).map_err(|e| format!("the fitted bot does not load: {e}")));
    let _ = std::fs::remove_file(&tmp);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::fit;

    fn sample(d: Dist, n: usize, seed: u64) -> Vec<f64> {
        let mut rng = rng_from(seed);
        (0..n).map(|_| d.sample(&mut rng)).collect()
    }

    #[test]
    fn fit_presets_by_pace() {
        // Simulated means with misses and fumbles: novice ≈2280, casual ≈1674, skilled ≈1044, expert ≈733 ms.
        assert_eq!(nearest_preset(2500.0), Preset::Novice);
        assert_eq!(nearest_preset(1600.0), Preset::Casual);
        assert_eq!(nearest_preset(1100.0), Preset::Skilled);
        assert_eq!(nearest_preset(400.0), Preset::Expert);
    }

    /// A play by the written bot takes exactly the fitted time: with the same random
    /// stream, its action time is the fitted distribution's draw.
    #[test]
    fn fit_bot_plays_take_exactly_the_fitted_time() {
        let cases = [
            (Family::ExGaussian, Dist::ExGaussian { mu: 1000.0, sigma: 60.0, tau: 200.0, floor: 0.0 }),
            (Family::ShiftedLognormal, Dist::ShiftedLognormal { shift: 700.0, mu: 5.8, sigma: 0.5 }),
        ];
        for (family, d) in cases {
            let f = fit(family, &sample(d, 2_000, 1));
            let plan = BotPlan::new(&f, "spit", "smart", None, "me").unwrap();
            assert_eq!((plan.preset, plan.motor_scale), (Preset::Skilled, 1.0), "{plan:?}");
            let spec = check_loads(&plan.toml(&["test".to_string()])).unwrap();
            assert_eq!((spec.label.as_str(), spec.strategy.as_str(), spec.preset), ("me", "smart", Some(Preset::Skilled)));
            let model = spec.reaction(Preset::Casual).prepare();
            let fitted = family.dist(&f.params);
            let (mut a, mut b) = (rng_from(9), rng_from(9));
            for _ in 0..1_000 {
                let play = model.action_time(Motion::Play, 1, 3, &mut a);
                let want = fitted.sample(&mut b);
                // Equal up to the written rounding (µs, and 6 decimals of the log-scale parameters).
                assert!((play - want).abs() < 0.01 + 2e-6 * want, "{family:?}: {play} vs {want}");
            }
        }
    }

    #[test]
    fn fit_fast_person_scales_the_movement_down() {
        // Mean ≈ 450 ms: nearest is expert (play movement ≈ 555 ms), too slow for these times.
        let xs = sample(Dist::ShiftedLognormal { shift: 250.0, mu: 5.2, sigma: 0.4 }, 3_000, 2);
        let f = fit(Family::ShiftedLognormal, &xs);
        let plan = BotPlan::new(&f, "spit", "greedy", None, "quick").unwrap();
        assert_eq!(plan.preset, Preset::Expert);
        assert!(plan.motor_scale < 1.0 && (plan.motor - f.params[0]).abs() < 1e-9, "{plan:?}");
        let text = plan.toml(&[]);
        assert!(text.contains("fitts_a = ") && text.contains("scaled by"), "{text}");
        let spec = check_loads(&text).unwrap();
        let m = spec.reaction(Preset::Casual);
        assert!((m.motor_mean(Motion::Play) - plan.motor).abs() < 0.01);
        // An explicit preset is kept.
        let plan = BotPlan::new(&f, "spit", "greedy", Some(Preset::Novice), "q").unwrap();
        assert_eq!((plan.preset, plan.preset_by_pace), (Preset::Novice, false));
    }

    #[test]
    fn fit_numbers_are_written_plainly() {
        assert_eq!(num(400.0, 3), "400");
        assert_eq!(num(400.12345, 3), "400.123");
        assert_eq!(num(-0.0001, 3), "0");
        assert_eq!(num(5.5, 6), "5.5");
    }
}
