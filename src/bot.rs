//! Bot specifications: `STRATEGY[@PRESET]` on the command line, or a bot file
//! (`strategies/*.toml`) naming a game, a strategy, a preset and optional overrides of
//! the preset's reaction-time parameters.

use crate::reaction::{Dist, Preset, ReactionModel};
use serde::Deserialize;
use std::path::Path;

/// A parsed `--bot` argument.
#[derive(Clone, Debug, PartialEq)]
pub struct BotSpec {
    /// Strategy name, e.g. `smart`.
    pub strategy: String,
    /// Reaction preset, if given.
    pub preset: Option<Preset>,
    /// Changes to the preset's parameters (bot files only).
    pub overrides: ReactionOverrides,
    /// Game a bot file was written for.
    pub game: Option<String>,
    /// The bot's label in tables and CSV.
    pub label: String,
}

impl BotSpec {
    /// Parses `STRATEGY[@PRESET]`, or reads a bot file when the text ends in `.toml`.
    pub fn parse(text: &str) -> Result<BotSpec, String> {
        if text.ends_with(".toml") {
            return BotSpec::from_file(Path::new(text));
        }
        let (strategy, preset) = match text.split_once('@') {
            Some((s, p)) => (s, Some(Preset::parse(p).map_err(|e| format!("--bot {text}: {e}"))?)),
            None => (text, None),
        };
        if strategy.is_empty() {
            return Err(format!("--bot {text}: missing strategy name before '@'"));
        }
        Ok(BotSpec { strategy: strategy.to_string(), preset, overrides: ReactionOverrides::default(), game: None, label: text.to_string() })
    }

    /// Reads a bot file.
    pub fn from_file(path: &Path) -> Result<BotSpec, String> {
        let where_ = path.display();
        let file: BotFile = crate::tomlfile::read(path)?;
        let preset = file.preset.as_deref().map(Preset::parse).transpose().map_err(|e| format!("{where_}: preset: {e}"))?;
        file.reaction.validate().map_err(|e| format!("{where_}: reaction.{e}"))?;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("bot").to_string();
        Ok(BotSpec { strategy: file.strategy, preset, overrides: file.reaction, game: Some(file.game), label: file.label.unwrap_or(stem) })
    }

    /// Checks the strategy against the names a game knows, and a bot file's game.
    pub fn check_strategy(&self, game: &str, known: &[&str]) -> Result<(), String> {
        if let Some(g) = self.game.as_deref().filter(|&g| g != game) {
            return Err(format!("--bot {}: this bot is for {g}, not {game}", self.label));
        }
        if known.contains(&self.strategy.as_str()) {
            Ok(())
        } else {
            Err(format!("--bot {}: unknown strategy '{}' for {game}; known strategies: {}", self.label, self.strategy, known.join(", ")))
        }
    }

    /// True if the bot sets reaction times (a preset or overrides).
    pub fn has_reaction(&self) -> bool {
        self.preset.is_some() || self.overrides != ReactionOverrides::default()
    }

    /// The bot's reaction model: its preset (or `default`) with the overrides applied.
    pub fn reaction(&self, default: Preset) -> ReactionModel {
        self.overrides.apply(self.preset.unwrap_or(default).model())
    }
}

/// A bot file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotFile {
    game: String,
    strategy: String,
    preset: Option<String>,
    label: Option<String>,
    #[serde(default)]
    reaction: ReactionOverrides,
}

/// A distribution as written in a bot file (milliseconds).
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(tag = "dist", rename_all = "snake_case", deny_unknown_fields)]
pub enum DistSpec {
    /// Always `ms`.
    Constant { ms: f64 },
    /// Normal(mu, sigma) + Exp(tau), floored.
    ExGaussian { mu: f64, sigma: f64, tau: f64, floor: f64 },
    /// shift + exp(Normal(mu, sigma)).
    ShiftedLognormal { shift: f64, mu: f64, sigma: f64 },
    /// shift + InverseGaussian(mean, shape).
    ShiftedWald { shift: f64, mean: f64, shape: f64 },
}

impl DistSpec {
    fn validate(&self) -> Result<(), String> {
        let ok = |v: f64| v.is_finite() && v >= 0.0;
        let valid = match *self {
            DistSpec::Constant { ms } => ok(ms),
            DistSpec::ExGaussian { mu, sigma, tau, floor } => ok(mu) && ok(sigma) && ok(tau) && tau > 0.0 && ok(floor),
            DistSpec::ShiftedLognormal { shift, mu, sigma } => ok(shift) && mu.is_finite() && ok(sigma),
            DistSpec::ShiftedWald { shift, mean, shape } => ok(shift) && ok(mean) && mean > 0.0 && ok(shape) && shape > 0.0,
        };
        if valid { Ok(()) } else { Err(format!("{self:?}: parameters must be finite and non-negative (tau, mean, shape > 0)")) }
    }

    fn dist(self) -> Dist {
        match self {
            DistSpec::Constant { ms } => Dist::Constant(ms),
            DistSpec::ExGaussian { mu, sigma, tau, floor } => Dist::ExGaussian { mu, sigma, tau, floor },
            DistSpec::ShiftedLognormal { shift, mu, sigma } => Dist::ShiftedLognormal { shift, mu, sigma },
            DistSpec::ShiftedWald { shift, mean, shape } => Dist::ShiftedWald { shift, mean, shape },
        }
    }
}

/// Changes to a preset's reaction-time parameters; unset fields keep the preset's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactionOverrides {
    /// Time of one look.
    pub look: Option<DistSpec>,
    /// Simple reaction time (slaps, stall recognition).
    pub simple: Option<DistSpec>,
    /// Visual search per candidate card (ms).
    pub scan_per_item: Option<f64>,
    /// Hick–Hyman slope (ms/bit).
    pub hick_b: Option<f64>,
    /// Fitts intercept per movement (ms).
    pub fitts_a: Option<f64>,
    /// Fitts slope (ms/bit).
    pub fitts_b: Option<f64>,
    /// Grasp plus release (ms).
    pub grasp_release: Option<f64>,
    /// Motor-time coefficient of variation.
    pub motor_cv: Option<f64>,
    /// Pipelining overlap, 0..1.
    pub overlap: Option<f64>,
    /// Probability of missing a move per look, 0..1.
    pub p_miss: Option<f64>,
    /// Probability of a motor fumble, 0..1.
    pub p_fumble: Option<f64>,
}

impl ReactionOverrides {
    fn validate(&self) -> Result<(), String> {
        for (name, d) in [("look", self.look), ("simple", self.simple)] {
            if let Some(d) = d {
                d.validate().map_err(|e| format!("{name}: {e}"))?;
            }
        }
        let non_negative = [("scan_per_item", self.scan_per_item), ("hick_b", self.hick_b), ("fitts_a", self.fitts_a), ("fitts_b", self.fitts_b), ("grasp_release", self.grasp_release), ("motor_cv", self.motor_cv)];
        for (name, v) in non_negative {
            if v.is_some_and(|v| !(v.is_finite() && v >= 0.0)) {
                return Err(format!("{name}: must be a finite number >= 0"));
            }
        }
        for (name, v) in [("overlap", self.overlap), ("p_miss", self.p_miss), ("p_fumble", self.p_fumble)] {
            if v.is_some_and(|v| !(0.0..=1.0).contains(&v)) {
                return Err(format!("{name}: must be between 0 and 1"));
            }
        }
        Ok(())
    }

    /// The model with these changes.
    pub fn apply(&self, mut m: ReactionModel) -> ReactionModel {
        if let Some(d) = self.look {
            m.look = d.dist();
        }
        if let Some(d) = self.simple {
            m.simple = d.dist();
        }
        let fields = [
            (self.scan_per_item, &mut m.scan_per_item),
            (self.hick_b, &mut m.hick_b),
            (self.fitts_a, &mut m.fitts_a),
            (self.fitts_b, &mut m.fitts_b),
            (self.grasp_release, &mut m.grasp_release),
            (self.motor_cv, &mut m.motor_cv),
            (self.overlap, &mut m.overlap),
            (self.p_miss, &mut m.p_miss),
            (self.p_fumble, &mut m.p_fumble),
        ];
        for (v, field) in fields {
            if let Some(v) = v {
                *field = v;
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("cardsim-bot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn command_line_specs() {
        let b = BotSpec::parse("smart@expert").unwrap();
        assert_eq!((b.strategy.as_str(), b.preset), ("smart", Some(Preset::Expert)));
        assert!(BotSpec::parse("smart@turbo").unwrap_err().contains("known presets"));
        assert!(BotSpec::parse("@expert").unwrap_err().contains("missing strategy"));
    }

    #[test]
    fn bot_file_with_overrides() {
        let p = write("quick.toml", "game = \"spit\"\nstrategy = \"greedy\"\npreset = \"casual\"\n[reaction]\nhick_b = 10\nlook = { dist = \"constant\", ms = 80 }\n");
        let b = BotSpec::parse(p.to_str().unwrap()).unwrap();
        assert_eq!((b.label.as_str(), b.game.as_deref()), ("quick", Some("spit")));
        let m = b.reaction(Preset::Novice);
        assert_eq!((m.hick_b, m.look, m.fitts_b), (10.0, Dist::Constant(80.0), Preset::Casual.model().fitts_b));
        assert!(b.check_strategy("speed", &["greedy"]).unwrap_err().contains("for spit, not speed"));
    }

    #[test]
    fn bad_bot_files_say_what_and_where() {
        let p = write("bad1.toml", "game = \"spit\"\nstrategy = \"greedy\"\ncolour = 3\n");
        let e = BotSpec::parse(p.to_str().unwrap()).unwrap_err();
        assert!(e.contains("bad1.toml") && e.contains("colour"), "{e}");
        let p = write("bad2.toml", "game = \"spit\"\nstrategy = \"greedy\"\n[reaction]\noverlap = 2\n");
        let e = BotSpec::parse(p.to_str().unwrap()).unwrap_err();
        assert!(e.contains("reaction.overlap: must be between 0 and 1"), "{e}");
        let e = BotSpec::parse("/no/such/bot.toml").unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
    }
}
