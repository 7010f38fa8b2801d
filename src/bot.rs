//! Bot specifications: `STRATEGY[@PRESET]` on the command line, or a bot file
//! (`strategies/*.toml`) naming a game, a strategy, a preset and optional overrides of
//! the preset's reaction-time parameters. An external bot (docs/bot-protocol.md) is
//! `exec:PATH[,ARG...][@PRESET]` or a bot file with `command = [...]`.

use crate::output::quote::{clip, clip_path};
use crate::reaction::presets::ALL_PRESETS;
use crate::reaction::{Dist, ParamError, Preset, ReactionModel};
use crate::external::ExternalSpec;
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
    /// For an external bot, how to run it (its `strategy` is then [`EXEC`]).
    pub external: Option<ExternalSpec>,
    /// The bot file it was read from and its SHA-256 (bot files only): a study pins it,
    /// so a resumed or merged run refuses a bot file changed since.
    pub source: Option<crate::experiment::pins::InputFile>,
    /// Strategy parameters set away from their defaults, as (name, value) in the order
    /// given (`STRATEGY[@PRESET],NAME=VALUE,...` or a bot file's `[params]`); the game
    /// checks them against the strategy's when it builds the bot
    /// ([`crate::games::params`]).
    pub params: Vec<(String, f64)>,
}

/// The strategy name of every external bot.
pub const EXEC: &str = "exec";

/// The strategy name of a bot whose strategy a library user supplies ([`crate::api`]);
/// the game is built with that strategy object ([`crate::games::GameEntry::build_with`]).
pub const CUSTOM: &str = "custom";

impl BotSpec {
    /// Parses `STRATEGY[@PRESET][,NAME=VALUE...]` (strategy parameters after the
    /// commas), or reads a bot file when the text ends in `.toml`.
    pub fn parse(text: &str) -> Result<BotSpec, String> {
        if text.ends_with(".toml") {
            return BotSpec::from_file(Path::new(text));
        }
        if let Some(rest) = text.strip_prefix("exec:") {
            return BotSpec::parse_exec(text, rest);
        }
        let (head, params) = match text.split_once(',') {
            Some((head, rest)) => {
                check_label(text).map_err(|e| format!("--bot {}: as a label: {e}", clip(text)))?;
                (head, crate::games::params::parse_assignments(text, rest.split(','))?)
            }
            None => (text, Vec::new()),
        };
        let (strategy, preset) = match head.split_once('@') {
            Some((s, p)) => (s, Some(Preset::parse(p).map_err(|e| format!("--bot {}: {e}", clip(text)))?)),
            None => (head, None),
        };
        if strategy.is_empty() {
            return Err(format!("--bot {}: missing strategy name before '@'", clip(text)));
        }
        Ok(BotSpec { strategy: strategy.to_string(), preset, overrides: ReactionOverrides::default(), game: None, label: text.to_string(), external: None, source: None, params })
    }

    /// An in-process bot labelled `label` (`LABEL@PRESET` gives a real-time bot that
    /// reaction preset, as for `exec:`) that talks to `peer` instead of a process
    /// ([`crate::api::Match::peer`], and the Python package's `sprt` and `trace`).
    pub fn peer(label: &str, peer: std::sync::Arc<dyn crate::external::channel::Peer>) -> Result<BotSpec, String> {
        let mut spec = BotSpec::parse(label).map_err(|e| e.replace("--bot", "in-process bot"))?;
        if spec.is_external() || spec.source.is_some() {
            return Err(format!("in-process bot {}: a label, not a bot file or exec: command", clip(label)));
        }
        let command = vec![std::mem::replace(&mut spec.strategy, EXEC.to_string())];
        let peer = Some(crate::external::channel::PeerRef(peer));
        spec.external = Some(ExternalSpec { command, timeout_ms: crate::external::DEFAULT_TIMEOUT_MS, stderr: None, log: None, peer });
        Ok(spec)
    }

    /// Parses `exec:PATH[,ARG...][@PRESET]` (`rest` is the text after `exec:`): only a
    /// final `@` followed by a preset name is a preset, so a path may hold an `@`.
    fn parse_exec(text: &str, rest: &str) -> Result<BotSpec, String> {
        let (command, preset) = match rest.rsplit_once('@') {
            Some((c, p)) if Preset::parse(p).is_ok() => (c, Some(Preset::parse(p).expect("checked"))),
            _ => (rest, None),
        };
        let external = ExternalSpec::parse(command).map_err(|e| format!("--bot {}: {e}", clip(text)))?;
        check_label(text).map_err(|e| format!("--bot {}: as a label: {e}", clip(text)))?;
        Ok(BotSpec { strategy: EXEC.into(), preset, overrides: ReactionOverrides::default(), game: None, label: text.to_string(), external: Some(external), source: None, params: Vec::new() })
    }

    /// True for an external bot.
    pub fn is_external(&self) -> bool {
        self.external.is_some()
    }

    /// Reads a bot file; every reaction parameter must be in its plausible range
    /// ([`crate::reaction::limits`]), or the one-line error names the file and the field.
    pub fn from_file(path: &Path) -> Result<BotSpec, String> {
        let text = crate::tomlfile::read_text(path, &clip_path(path))?;
        BotSpec::from_text(&text, path)
    }

    /// Parses and checks the text of a bot file that lives (or would live) at `path`
    /// (its name is the default label and is named in errors), as [`BotSpec::from_file`].
    pub fn from_text(text: &str, path: &Path) -> Result<BotSpec, String> {
        let where_ = clip_path(path);
        let file: BotFile = crate::tomlfile::parse(text, path)?;
        let preset = file.preset.as_deref().map(Preset::parse).transpose().map_err(|e| format!("{where_}: preset: {e}"))?;
        file.reaction.validate(preset).map_err(|e| format!("{where_}: {}", e.within("reaction")))?;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("bot").to_string();
        let label = file.label.unwrap_or(stem);
        check_label(&label).map_err(|e| format!("{where_}: label: {e}"))?;
        if file.stderr.is_some() && file.command.is_none() {
            return Err(format!("{where_}: stderr: only an external bot (command = [...]) has a standard error to send to a file"));
        }
        let (strategy, external) = match (file.strategy, file.command) {
            (Some(s), None) => (s, None),
            (None, Some(command)) if command.first().is_some_and(|c| !c.is_empty()) => (EXEC.to_string(), Some(ExternalSpec { command, timeout_ms: crate::external::DEFAULT_TIMEOUT_MS, stderr: file.stderr, log: None, peer: None })),
            (None, Some(_)) => return Err(format!("{where_}: command: needs at least the program, e.g. command = [\"python3\", \"bot.py\"]")),
            (Some(_), Some(_)) => return Err(format!("{where_}: give either strategy (a built-in strategy) or command (an external bot), not both")),
            (None, None) => return Err(format!("{where_}: missing field `strategy` (a built-in strategy) or `command` (an external bot)")),
        };
        if external.is_some() && !file.params.is_empty() {
            return Err(format!("{where_}: params: only a built-in strategy has parameters; an external bot takes its own settings in command = [...]"));
        }
        let source = Some(crate::experiment::pins::InputFile { path: path.display().to_string(), sha256: crate::experiment::pins::sha256_hex(text.as_bytes()) });
        let params = file.params.into_iter().collect();
        Ok(BotSpec { strategy, preset, overrides: file.reaction, game: Some(file.game), label, external, source, params })
    }

    /// Checks the strategy against the names a game knows, and a bot file's game.
    pub fn check_strategy(&self, game: &str, known: &[&str]) -> Result<(), String> {
        if let Some(g) = self.game.as_deref().filter(|&g| g != game) {
            return Err(format!("--bot {}: this bot is for {}, not {game}", clip(&self.label), clip(g)));
        }
        if self.is_external() || self.strategy == CUSTOM || known.contains(&self.strategy.as_str()) {
            Ok(())
        } else {
            Err(format!("--bot {}: unknown strategy '{}' for {game}; known strategies: {}", clip(&self.label), clip(&self.strategy), known.join(", ")))
        }
    }

    /// The bot with its preset (`param` = `preset`), one strategy parameter
    /// (`params.NAME`) or one reaction parameter changed:
    /// a field of a table (`scan_per_item`, `hick_b`, ...) or of a distribution
    /// (`look.mu`, `simple.tau`, ...), starting from the bot's model (its preset, or
    /// `default`, with its overrides). The result is checked against the plausible
    /// ranges; its label gains ` PARAM=VALUE` (a command-line bot changing its preset
    /// becomes `STRATEGY@PRESET`).
    pub fn tweaked(&self, param: &str, value: &str, default: Preset) -> Result<BotSpec, String> {
        let mut b = self.clone();
        if param == "preset" {
            b.preset = Some(Preset::parse(value).map_err(|e| format!("preset {value}: {e}"))?);
            b.label = if self.game.is_none() { format!("{}@{value}", self.strategy) } else { format!("{} preset={value}", self.label) };
            return Ok(b);
        }
        let x: f64 = value.parse().map_err(|_| format!("{param}={value}: not a number"))?;
        if let Some(name) = param.strip_prefix("params.") {
            // A strategy parameter: checked against the strategy's when the game builds it.
            b.params.retain(|(n, _)| n != name);
            b.params.push((name.to_string(), x));
            b.label = format!("{} {param}={value}", self.label);
            return Ok(b);
        }
        let model = self.reaction(default);
        if let Some((dist, field)) = param.split_once('.') {
            let current = match dist {
                "look" => model.look,
                "simple" => model.simple,
                _ => return Err(format!("{param}: unknown reaction distribution '{dist}' (look or simple)")),
            };
            let spec = DistSpec::from_dist(current).with_field(field, x).map_err(|e| format!("{param}: {e}"))?;
            if dist == "look" { b.overrides.look = Some(spec) } else { b.overrides.simple = Some(spec) }
        } else {
            let o = &mut b.overrides;
            let slot = match param {
                "scan_per_item" => &mut o.scan_per_item,
                "hick_b" => &mut o.hick_b,
                "fitts_a" => &mut o.fitts_a,
                "fitts_b" => &mut o.fitts_b,
                "grasp_release" => &mut o.grasp_release,
                "motor_cv" => &mut o.motor_cv,
                "overlap" => &mut o.overlap,
                "p_miss" => &mut o.p_miss,
                "p_fumble" => &mut o.p_fumble,
                _ => return Err(format!("{param}: unknown reaction parameter")),
            };
            *slot = Some(x);
        }
        b.preset = Some(self.preset.unwrap_or(default));
        b.overrides.apply(b.preset.expect("set").model()).validate().map_err(|e| format!("{} {param}={value}: {e}", self.label))?;
        b.label = format!("{} {param}={value}", self.label);
        Ok(b)
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

/// Most characters of a bot label.
pub const MAX_LABEL: usize = 64;

/// Checks a bot label for tables and CSV: not empty, at most [`MAX_LABEL`] characters,
/// no control characters (a line break would break the printed table). Commas and
/// quotes are fine: the CSV quotes them.
pub fn check_label(label: &str) -> Result<(), String> {
    if label.trim().is_empty() {
        Err("a label needs at least one visible character".into())
    } else if label.chars().count() > MAX_LABEL {
        Err(format!("{}: longer than {MAX_LABEL} characters", clip(label)))
    } else if label.contains(char::is_control) {
        Err(format!("{}: control characters (line breaks, tabs, escapes) are not allowed", clip(label)))
    } else {
        Ok(())
    }
}

/// A bot file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotFile {
    game: String,
    strategy: Option<String>,
    command: Option<Vec<String>>,
    stderr: Option<std::path::PathBuf>,
    preset: Option<String>,
    label: Option<String>,
    #[serde(default)]
    reaction: ReactionOverrides,
    /// Strategy parameters (sorted by name, as TOML tables are read).
    #[serde(default)]
    params: std::collections::BTreeMap<String, f64>,
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
    /// The spec of a distribution.
    pub fn from_dist(d: Dist) -> DistSpec {
        match d {
            Dist::Constant(ms) => DistSpec::Constant { ms },
            Dist::ExGaussian { mu, sigma, tau, floor } => DistSpec::ExGaussian { mu, sigma, tau, floor },
            Dist::ShiftedLognormal { shift, mu, sigma } => DistSpec::ShiftedLognormal { shift, mu, sigma },
            Dist::ShiftedWald { shift, mean, shape } => DistSpec::ShiftedWald { shift, mean, shape },
        }
    }

    /// The spec with field `name` set to `x`, or an error naming the fields it has.
    pub fn with_field(mut self, name: &str, x: f64) -> Result<DistSpec, String> {
        let (slot, fields): (Option<&mut f64>, &str) = match &mut self {
            DistSpec::Constant { ms } => ((name == "ms").then_some(ms), "ms"),
            DistSpec::ExGaussian { mu, sigma, tau, floor } => (match name { "mu" => Some(mu), "sigma" => Some(sigma), "tau" => Some(tau), "floor" => Some(floor), _ => None }, "mu, sigma, tau, floor"),
            DistSpec::ShiftedLognormal { shift, mu, sigma } => (match name { "shift" => Some(shift), "mu" => Some(mu), "sigma" => Some(sigma), _ => None }, "shift, mu, sigma"),
            DistSpec::ShiftedWald { shift, mean, shape } => (match name { "shift" => Some(shift), "mean" => Some(mean), "shape" => Some(shape), _ => None }, "shift, mean, shape"),
        };
        match slot {
            Some(v) => {
                *v = x;
                Ok(self)
            }
            None => Err(format!("this distribution has no field '{name}' (it has {fields})")),
        }
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
    /// Checks the overrides against the plausible ranges by validating the model they make
    /// of `preset`, or of every preset when none is named (the default is chosen later).
    /// Presets pass on their own, so an error names a field set here.
    fn validate(&self, preset: Option<Preset>) -> Result<(), ParamError> {
        let presets = preset.as_ref().map_or(&ALL_PRESETS[..], std::slice::from_ref);
        presets.iter().try_for_each(|p| self.apply(p.model()).validate())
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

    /// Writes `text` to the file `name` in a scratch folder of its own, which is removed
    /// when the returned guard is dropped.
    fn write(name: &str, text: &str) -> (crate::scratch::Scratch, std::path::PathBuf) {
        let dir = crate::scratch::scratch("bot", name);
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        (dir, p)
    }

    #[test]
    fn command_line_specs() {
        let b = BotSpec::parse("smart@expert").unwrap();
        assert_eq!((b.strategy.as_str(), b.preset), ("smart", Some(Preset::Expert)));
        assert!(BotSpec::parse("smart@turbo").unwrap_err().contains("known presets"));
        assert!(BotSpec::parse("@expert").unwrap_err().contains("missing strategy"));
    }

    #[test]
    fn external_bots_on_the_command_line_and_in_bot_files() {
        let b = BotSpec::parse("exec:bots/my@bot.py,--fast,2@expert").unwrap();
        let e = b.external.as_ref().unwrap();
        assert_eq!((e.command.as_slice(), b.preset, b.strategy.as_str()), (&["bots/my@bot.py".to_string(), "--fast".into(), "2".into()][..], Some(Preset::Expert), EXEC));
        assert_eq!(BotSpec::parse("exec:bots/my@bot.py").unwrap().preset, None, "an @ not followed by a preset is part of the path");
        assert!(BotSpec::parse("exec:").unwrap_err().contains("needs a program"));
        assert!(b.check_strategy("spit", &["greedy"]).is_ok());
        let (_dir, p) = write("ext.toml", "game = \"lopti\"\ncommand = [\"python3\", \"bot.py\"]\nstderr = \"bot.log\"\n");
        let b = BotSpec::parse(p.to_str().unwrap()).unwrap();
        let e = b.external.unwrap();
        assert_eq!((e.command.len(), e.stderr.as_deref(), b.label.as_str()), (2, Some(Path::new("bot.log")), "ext"));
        let (_dir, p) = write("both.toml", "game = \"lopti\"\nstrategy = \"lowest\"\ncommand = [\"bot.py\"]\n");
        assert!(BotSpec::parse(p.to_str().unwrap()).unwrap_err().contains("not both"));
        let (_dir, p) = write("neither.toml", "game = \"lopti\"\n");
        assert!(BotSpec::parse(p.to_str().unwrap()).unwrap_err().contains("missing field `strategy`"));
        let (_dir, p) = write("errs.toml", "game = \"lopti\"\nstrategy = \"lowest\"\nstderr = \"x.log\"\n");
        assert!(BotSpec::parse(p.to_str().unwrap()).unwrap_err().contains("only an external bot"));
    }

    #[test]
    fn bot_file_with_overrides() {
        let (_dir, p) = write("quick.toml", "game = \"spit\"\nstrategy = \"greedy\"\npreset = \"casual\"\n[reaction]\nhick_b = 10\nlook = { dist = \"constant\", ms = 80 }\n");
        let b = BotSpec::parse(p.to_str().unwrap()).unwrap();
        assert_eq!((b.label.as_str(), b.game.as_deref()), ("quick", Some("spit")));
        let m = b.reaction(Preset::Novice);
        assert_eq!((m.hick_b, m.look, m.fitts_b), (10.0, Dist::Constant(80.0), Preset::Casual.model().fitts_b));
        assert!(b.check_strategy("speed", &["greedy"]).unwrap_err().contains("for spit, not speed"));
    }

    #[test]
    fn bad_bot_files_say_what_and_where() {
        let (_dir, p) = write("bad1.toml", "game = \"spit\"\nstrategy = \"greedy\"\ncolour = 3\n");
        let e = BotSpec::parse(p.to_str().unwrap()).unwrap_err();
        assert!(e.contains("bad1.toml") && e.contains("colour"), "{e}");
        let (_dir, p) = write("bad2.toml", "game = \"spit\"\nstrategy = \"greedy\"\n[reaction]\noverlap = 2\n");
        let e = BotSpec::parse(p.to_str().unwrap()).unwrap_err();
        assert!(e.contains("reaction.overlap: 2 is not a plausible overlap share (must be between 0 and 1)"), "{e}");
        let e = BotSpec::parse("/no/such/bot.toml").unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
    }

    /// The error for a bot file with this `[reaction]` table, checked to be one line
    /// that starts with the file and `reaction.FIELD`.
    fn rejected(name: &str, reaction: &str, field: &str) -> String {
        let (_dir, p) = write(name, &format!("game = \"spit\"\nstrategy = \"greedy\"\npreset = \"expert\"\n[reaction]\n{reaction}\n"));
        let e = BotSpec::parse(p.to_str().unwrap()).unwrap_err();
        assert!(e.starts_with(&format!("{}: reaction.{field}: ", p.display())), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        e
    }

    #[test]
    fn huge_constant_time() {
        let e = rejected("huge.toml", "look = { dist = \"constant\", ms = 1e300 }", "look.ms");
        assert!(e.ends_with("1e300 is not a plausible time (must be between 0 and 60000 ms)"), "{e}");
    }

    #[test]
    fn nan_and_infinity() {
        rejected("nan.toml", "hick_b = nan", "hick_b");
        rejected("inf.toml", "simple = { dist = \"ex_gaussian\", mu = 200, sigma = 20, tau = inf, floor = 100 }", "simple.tau");
        rejected("ninf.toml", "p_miss = -inf", "p_miss");
    }

    #[test]
    fn lognormal_mu_written_in_milliseconds() {
        let e = rejected("lnms.toml", "look = { dist = \"shifted_lognormal\", shift = 0, mu = 280, sigma = 0.3 }", "look.mu");
        assert!(e.contains("280 is not a plausible log-scale mean") && e.contains("e.g. 5.6 for about 270 ms"), "{e}");
    }

    #[test]
    fn lognormal_sigma_too_big() {
        rejected("lnsigma.toml", "look = { dist = \"shifted_lognormal\", shift = 100, mu = 5, sigma = 4 }", "look.sigma");
    }

    #[test]
    fn negative_time() {
        rejected("neg.toml", "fitts_a = -10", "fitts_a");
        rejected("negshift.toml", "simple = { dist = \"shifted_wald\", shift = -1, mean = 200, shape = 900 }", "simple.shift");
    }

    #[test]
    fn probability_of_one_or_more() {
        rejected("p1.toml", "p_fumble = 1", "p_fumble");
        rejected("p2.toml", "p_miss = 1.5", "p_miss");
    }

    #[test]
    fn wald_shape_zero() {
        rejected("wald.toml", "simple = { dist = \"shifted_wald\", shift = 100, mean = 200, shape = 0 }", "simple.shape");
    }

    #[test]
    fn mean_above_a_minute() {
        let e = rejected("mean.toml", "look = { dist = \"ex_gaussian\", mu = 50000, sigma = 10, tau = 20000, floor = 100 }", "look");
        assert!(e.contains("mean 70000 ms (mu + tau) is above the 60000 ms limit"), "{e}");
        rejected("motor.toml", "fitts_b = 20000", "fitts_a/fitts_b/grasp_release");
    }

    #[test]
    fn motor_cv_and_overlap_out_of_range() {
        rejected("cv.toml", "motor_cv = 2", "motor_cv");
        rejected("overlap.toml", "overlap = -0.1", "overlap");
    }

    #[test]
    fn without_a_preset_the_overrides_must_suit_every_preset() {
        // 2 × 50 + 4.29 × 13,900 + 90 ms is fine for the expert, not for the novice's Fitts intercept and grasp.
        let (_dir, p) = write("nopreset.toml", "game = \"spit\"\nstrategy = \"greedy\"\n[reaction]\nfitts_b = 13900\n");
        let e = BotSpec::parse(p.to_str().unwrap()).unwrap_err();
        assert!(e.contains("reaction.fitts_a/fitts_b/grasp_release: mean 60131 ms"), "{e}");
        let (_dir, p) = write("expert.toml", "game = \"spit\"\nstrategy = \"greedy\"\npreset = \"expert\"\n[reaction]\nfitts_b = 13900\n");
        assert!(BotSpec::parse(p.to_str().unwrap()).is_ok());
    }

    #[test]
    fn shipped_bot_files_are_valid() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            BotSpec::from_file(&path).unwrap();
        }
    }
}
