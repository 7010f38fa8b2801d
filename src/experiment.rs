//! Experiment files (`experiments/*.toml`): a game, a seed, a number of matches and a
//! list of matchups, so that a study can be rerun exactly and its CSV (`results/`)
//! checked against the committed one.

use crate::runner::SeatingDesign;
use serde::Deserialize;
use std::path::{Path, PathBuf};

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
    /// Matches per matchup.
    pub games: u64,
    /// Play each deal once (the same as `seating = "one"`).
    #[serde(default)]
    pub no_swap: bool,
    /// Seat orders per deal: `all` (default), `rotations` or `one`.
    pub seating: Option<SeatingDesign>,
    /// Flags for every matchup.
    #[serde(default)]
    pub set: Vec<String>,
    /// CSV path (default `results/<file stem>.csv`).
    pub output: Option<PathBuf>,
    /// The matchups, in order; every matchup plays the same deals.
    #[serde(rename = "matchup")]
    pub matchups: Vec<Matchup>,
}

impl Experiment {
    /// Reads and checks an experiment file.
    pub fn load(path: &Path) -> Result<Experiment, String> {
        let mut e: Experiment = crate::tomlfile::read(path)?;
        if e.matchups.is_empty() {
            return Err(format!("{}: no [[matchup]] given", path.display()));
        }
        if e.no_swap && e.seating.is_some_and(|s| s != SeatingDesign::One) {
            return Err(format!("{}: no_swap = true contradicts seating = {:?}", path.display(), e.seating.unwrap_or(SeatingDesign::All)));
        }
        if e.games == 0 {
            return Err(format!("{}: games must be at least 1", path.display()));
        }
        if e.output.is_none() {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("experiment");
            e.output = Some(PathBuf::from("results").join(format!("{stem}.csv")));
        }
        Ok(e)
    }

    /// The seating design of every matchup.
    pub fn seating(&self) -> SeatingDesign {
        if self.no_swap { SeatingDesign::One } else { self.seating.unwrap_or(SeatingDesign::All) }
    }

    /// Flags of matchup `i`: the experiment's, then the matchup's.
    pub fn flags(&self, i: usize) -> Vec<String> {
        self.set.iter().chain(&self.matchups[i].set).cloned().collect()
    }
}
