//! Experiment files (`experiments/*.toml`): a game, a seed, a number of matches and what
//! to play — a list of matchups, a round robin or a gauntlet over a pool of bots, or one
//! table swept over one or two parameters — so that a study reruns exactly and its
//! results folder (`results/NAME/`) can be checked against the committed one.
//!
//! Paths in the file (bot files, `out`) are relative to the file, not to the current
//! folder.

pub mod cells;
pub mod folder;
pub mod pins;
pub mod run;
pub mod shard;

use crate::runner::SeatingDesign;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

pub use cells::{Cell, Format};

/// One matchup of an experiment.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Matchup {
    /// Bot specs (`STRATEGY[@PRESET]` or bot files), one per seat.
    pub bots: Vec<String>,
    /// Flags for this matchup, added after the experiment's own.
    #[serde(default)]
    pub set: Vec<String>,
}

/// One swept parameter (`[[vary]]`): a rule flag (`spit.num_stockpiles`, `sim.*`, a
/// strategy's flag such as `lopti.mcts_iterations`), `preset` or a reaction parameter
/// (`look.mu`, `hick_b`, ... ) of one bot, or `players`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vary {
    /// What is varied.
    pub param: String,
    /// For `preset` and reaction parameters: the bot of the table (from 0).
    pub bot: Option<usize>,
    /// The values, in order; the first is the baseline the others are compared with.
    #[serde(default)]
    pub values: Vec<toml::Value>,
    /// Instead of `values`: from, to (inclusive) and step.
    pub from: Option<f64>,
    /// Last value (inclusive).
    pub to: Option<f64>,
    /// Step between values.
    pub step: Option<f64>,
}

/// A parsed experiment file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// What the experiment asks.
    pub description: String,
    /// Game name.
    pub game: String,
    /// Master seed.
    pub seed: u64,
    /// Matches per matchup (for a sweep: per point, counted at the first point; every
    /// point plays the same deals).
    pub games: u64,
    /// Play each deal once (the same as `seating = "one"`).
    #[serde(default)]
    pub no_swap: bool,
    /// Seat orders per deal: `all` (default), `rotations` or `one`.
    pub seating: Option<SeatingDesign>,
    /// Flags for every matchup.
    #[serde(default)]
    pub set: Vec<String>,
    /// Results folder, relative to this file. Default: `../results/NAME` for a file in a
    /// folder named `experiments`, else `NAME-results` beside the file.
    pub out: Option<PathBuf>,
    /// What is played: `matchups` (default), `head-to-head`, `round-robin`, `gauntlet`.
    #[serde(default)]
    pub format: Format,
    /// The matchups (`format = "matchups"`; exactly one with `[[vary]]`).
    #[serde(default, rename = "matchup")]
    pub matchups: Vec<Matchup>,
    /// Bots of a head-to-head (two), round robin or gauntlet.
    #[serde(default)]
    pub pool: Vec<String>,
    /// Players per table of a round robin or gauntlet (default 2).
    pub players: Option<usize>,
    /// The bot a gauntlet runs against the pool.
    pub challenger: Option<String>,
    /// One or two swept parameters.
    #[serde(default, rename = "vary")]
    pub vary: Vec<Vary>,
    /// Longest wait, in seconds, for one line from an external bot (as `--bot-timeout`,
    /// which overrides it; default 10). It changes no result, only when a slow bot fails.
    pub bot_timeout: Option<f64>,
    /// Set by [`Experiment::load`]: the file's path as given.
    #[serde(skip)]
    pub path: PathBuf,
    /// Set by [`Experiment::load`]: the file's stem.
    #[serde(skip)]
    pub name: String,
    /// Set by [`Experiment::load`]: the file's folder.
    #[serde(skip)]
    pub dir: PathBuf,
    /// Set by [`Experiment::load`]: SHA-256 of the file's bytes, hex.
    #[serde(skip)]
    pub sha256: String,
}

impl Experiment {
    /// Reads and checks an experiment file (and every table it describes, except the
    /// bots and flags, which the game checks).
    pub fn load(path: &Path) -> Result<Experiment, String> {
        let text = crate::tomlfile::read_text(path, &crate::output::quote::clip_path(path))?;
        Experiment::parse(&text, path)
    }

    /// Parses and checks the text of an experiment file that lives (or would live) at
    /// `path`.
    pub fn parse(text: &str, path: &Path) -> Result<Experiment, String> {
        let mut e: Experiment = crate::tomlfile::parse(text, path)?;
        let where_ = path.display();
        e.sha256 = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        e.path = path.to_path_buf();
        e.name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("experiment").to_string();
        e.dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
        if e.no_swap && e.seating.is_some_and(|s| s != SeatingDesign::One) {
            return Err(format!("{where_}: no_swap = true contradicts seating = {:?}", e.seating.unwrap_or(SeatingDesign::All)));
        }
        if e.games == 0 {
            return Err(format!("{where_}: games must be at least 1"));
        }
        if let Some(t) = e.bot_timeout {
            crate::external::timeout_ms(t).map_err(|err| format!("{where_}: bot_timeout = {}", err.trim_start_matches("--bot-timeout ")))?;
        }
        if let Some(out) = &e.out {
            e.check_out(out).map_err(|err| format!("{where_}: out = {}: {err}", crate::output::quote::clip_path(out)))?;
        }
        e.cells().map_err(|err| format!("{where_}: {err}"))?;
        Ok(e)
    }

    /// Checks the file's `out`: a relative path that stays inside the experiment's folder
    /// tree (the folder that holds `experiments/` for a file there, as the default
    /// `../results/NAME` does; else the file's own folder), and is not that folder
    /// itself. A shared experiment file can then never replace files elsewhere.
    fn check_out(&self, out: &Path) -> Result<(), String> {
        use std::path::Component;
        let mut depth: i64 = if self.dir.file_name().is_some_and(|n| n == "experiments") { 1 } else { 0 };
        for c in out.components() {
            match c {
                Component::Normal(_) => depth += 1,
                Component::CurDir => {}
                Component::ParentDir => {
                    depth -= 1;
                    if depth < 0 {
                        return Err("climbs out of the experiment's folder tree; give a folder inside it (or --out on the command line)".into());
                    }
                }
                Component::RootDir | Component::Prefix(_) => return Err("must be relative to the experiment file (or give --out on the command line)".into()),
            }
        }
        if depth < 1 {
            return Err("names the experiment's own folder tree, not a folder inside it".into());
        }
        Ok(())
    }

    /// The experiment file's name (`spit-presets.toml`), as manifests record it.
    pub fn file_name(&self) -> String {
        self.path.file_name().map_or_else(|| self.name.clone(), |n| n.to_string_lossy().into_owned())
    }

    /// The seating design of every matchup.
    pub fn seating(&self) -> SeatingDesign {
        if self.no_swap { SeatingDesign::One } else { self.seating.unwrap_or(SeatingDesign::All) }
    }

    /// A bot spec as written in the file, with a bot file's path made relative to the
    /// experiment file's folder.
    pub fn bot_path(&self, spec: &str) -> String {
        if spec.ends_with(".toml") && Path::new(spec).is_relative() { self.dir.join(spec).to_string_lossy().into_owned() } else { spec.to_string() }
    }

    /// The results folder the file names (or the default), relative to the file.
    pub fn default_out(&self) -> PathBuf {
        match &self.out {
            Some(out) => self.dir.join(out),
            None if self.dir.file_name().is_some_and(|n| n == "experiments") => self.dir.parent().unwrap_or(Path::new("")).join("results").join(&self.name),
            None => self.dir.join(format!("{}-results", self.name)),
        }
    }
}
