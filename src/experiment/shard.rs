//! Partial states. Studies split across machines: `cardsim run FILE --shard K/N --out
//! DIR` plays only its share of the deals and writes its exact partial state; `cardsim
//! merge DIR... --out DIR` adds the parts and writes exactly the files a single run
//! writes. Interrupted runs: a checkpoint after every finished unit of work lets
//! `cardsim run FILE --resume` continue without replaying it.

use super::run::{Shard, Study, StudyState};
use super::Experiment;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One shard's exact partial result, as written to `partial-K-of-N.json`.
#[derive(Serialize, Deserialize)]
pub struct Partial {
    /// The experiment file (absolute path when it could be resolved).
    pub experiment: PathBuf,
    /// SHA-256 of the experiment file when the shard ran.
    pub experiment_sha256: String,
    /// Matches per cell asked for.
    pub games: u64,
    /// The code that played it ([`super::folder::CODE_COMMIT`]).
    pub code_commit: String,
    /// Which shard.
    pub shard: Shard,
    /// Its counts and histograms.
    pub state: StudyState,
}

/// The file name of shard `shard`'s partial state (`partial-2-of-8.json`, from 1).
pub fn file_name(shard: Shard) -> String {
    format!("partial-{}-of-{}.json", shard.k + 1, shard.n)
}

/// The partial state of a shard as JSON bytes.
pub fn to_bytes(study: &Study, file: &Path, shard: Shard, state: StudyState) -> Result<Vec<u8>, String> {
    let experiment = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let p = Partial { experiment, experiment_sha256: study.exp.sha256.clone(), games: study.games, code_commit: super::folder::CODE_COMMIT.into(), shard, state };
    serde_json::to_vec(&p).map_err(|e| e.to_string())
}

/// Reads every `partial-*.json` in `dirs`, checks that they are the shards 1..N of one
/// run of one experiment file (unchanged since), each exactly once, and returns the
/// study and the merged state.
pub fn merge(dirs: &[PathBuf]) -> Result<(Study, StudyState), String> {
    let mut parts: Vec<(PathBuf, Partial)> = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
        let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("partial-") && n.ends_with(".json"))).collect();
        names.sort();
        for path in names {
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
            let p: Partial = serde_json::from_slice(&bytes).map_err(|e| format!("{}: not a cardsim partial result: {e}", path.display()))?;
            parts.push((path, p));
        }
    }
    let Some((first_path, first)) = parts.first() else { return Err(format!("no partial-*.json in {}", dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", "))) };
    for (path, p) in &parts[1..] {
        let same = p.experiment == first.experiment && p.experiment_sha256 == first.experiment_sha256 && p.games == first.games && p.shard.n == first.shard.n;
        if !same {
            return Err(format!("{} and {} are parts of different runs (experiment, its contents, games or shard count differ)", first_path.display(), path.display()));
        }
        if p.code_commit != first.code_commit {
            return Err(format!("{} and {} were played by different code ({} and {})", first_path.display(), path.display(), first.code_commit, p.code_commit));
        }
    }
    let n = first.shard.n;
    let mut seen = vec![None::<&PathBuf>; n as usize];
    for (path, p) in &parts {
        if let Some(other) = seen[p.shard.k as usize] {
            return Err(format!("shard {}/{n} is given twice ({} and {})", p.shard.k + 1, other.display(), path.display()));
        }
        seen[p.shard.k as usize] = Some(path);
    }
    let missing: Vec<String> = (0..n).filter(|&k| seen[k as usize].is_none()).map(|k| format!("{}/{n}", k + 1)).collect();
    if !missing.is_empty() {
        return Err(format!("missing shard{} {}", if missing.len() > 1 { "s" } else { "" }, missing.join(", ")));
    }
    let exp = Experiment::load(&first.experiment)?;
    if exp.sha256 != first.experiment_sha256 {
        return Err(format!("{}: changed since the shards ran (its SHA-256 differs)", first.experiment.display()));
    }
    let study = Study::new(exp, first.games)?;
    let mut state = study.empty_state();
    for (path, p) in &parts {
        if p.state.stats.len() != state.stats.len() || p.state.paired.len() != state.paired.len() {
            return Err(format!("{}: does not match the experiment's tables", path.display()));
        }
        state.merge(&p.state);
    }
    Ok((study, state))
}

/// A run's checkpoint in its results folder: the finished units and their state.
#[derive(Serialize, Deserialize)]
pub struct Checkpoint {
    /// SHA-256 of the experiment file.
    pub experiment_sha256: String,
    /// Matches per cell asked for.
    pub games: u64,
    /// The code that played it.
    pub code_commit: String,
    /// Which shard.
    pub shard: Shard,
    /// Units of work finished.
    pub units_done: usize,
    /// Their counts and histograms.
    pub state: StudyState,
}

/// The checkpoint file of a shard (`.resume-1-of-1.json` for a whole run).
pub fn checkpoint_name(shard: Shard) -> String {
    format!(".resume-{}-of-{}.json", shard.k + 1, shard.n)
}

/// Writes the checkpoint after `units_done` units.
pub fn save_checkpoint(dir: &Path, study: &Study, shard: Shard, state: &StudyState, units_done: usize) -> Result<(), String> {
    let c = Checkpoint { experiment_sha256: study.exp.sha256.clone(), games: study.games, code_commit: super::folder::CODE_COMMIT.into(), shard, units_done, state: state.clone() };
    super::folder::write(dir, &checkpoint_name(shard), &serde_json::to_vec(&c).map_err(|e| e.to_string())?).map(|_| ())
}

/// The checkpoint of this run in `dir`, if there is one: an error if it belongs to
/// another run (experiment contents, games, shard or code differ).
pub fn load_checkpoint(dir: &Path, study: &Study, shard: Shard) -> Result<Option<(StudyState, usize)>, String> {
    let path = dir.join(checkpoint_name(shard));
    let Ok(bytes) = std::fs::read(&path) else { return Ok(None) };
    let c: Checkpoint = serde_json::from_slice(&bytes).map_err(|e| format!("{}: not a cardsim checkpoint: {e}", path.display()))?;
    if c.experiment_sha256 != study.exp.sha256 || c.games != study.games || c.shard != shard || c.code_commit != super::folder::CODE_COMMIT {
        return Err(format!("{}: from another run (the experiment file, --games, --shard or the code changed); delete it to start over", path.display()));
    }
    let empty = study.empty_state();
    if c.state.stats.len() != empty.stats.len() || c.state.paired.len() != empty.paired.len() {
        return Err(format!("{}: does not match the experiment's tables", path.display()));
    }
    Ok(Some((c.state, c.units_done)))
}
