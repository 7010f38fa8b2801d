//! Partial states. Studies split across machines: `cardsim run FILE --shard K/N --out
//! DIR` plays only its share of the deals and writes its exact partial state; `cardsim
//! merge DIR... --out DIR` adds the parts and writes exactly the files a single run
//! writes. Interrupted runs: a checkpoint after every finished unit of work lets
//! `cardsim run FILE --resume` continue without replaying it.
//!
//! Both files are read back with every check a stranger's file needs: at most
//! [`crate::tomlfile::MAX_INPUT`] bytes of a regular file; every input of the study
//! pinned ([`super::pins`]); the state's checksum, shape and counts against the
//! experiment's tables ([`Study::check_state`]). A failure is one line naming the file
//! and what is wrong.

use super::pins::{self, InputFile};
use super::run::{Shard, Study, StudyState};
use super::Experiment;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One shard's exact partial result, as written to `partial-K-of-N.json`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partial {
    /// The experiment file as named on the shard's command line.
    pub experiment: PathBuf,
    /// SHA-256 of the experiment file when the shard ran: what identifies the study.
    pub experiment_sha256: String,
    /// Every input of the study ([`Study::inputs`]).
    pub inputs: Vec<InputFile>,
    /// Matches per cell asked for.
    pub games: u64,
    /// The code that played it ([`super::folder::CODE_COMMIT`]).
    pub code_commit: String,
    /// Which shard.
    pub shard: Shard,
    /// Its counts and histograms.
    pub state: StudyState,
    /// SHA-256 of `state` as written.
    pub state_sha256: String,
}

/// The file name of shard `shard`'s partial state (`partial-2-of-8.json`, from 1).
pub fn file_name(shard: Shard) -> String {
    format!("partial-{}-of-{}.json", shard.k + 1, shard.n)
}

/// The SHA-256 of a state as canonical JSON (fields in sorted order, as
/// `serde_json::Value` writes them), so anyone can recompute it from the file.
pub fn state_sha256(state: &StudyState) -> Result<String, String> {
    let value = serde_json::to_value(state).map_err(|e| e.to_string())?;
    Ok(pins::sha256_hex(&serde_json::to_vec(&value).map_err(|e| e.to_string())?))
}

/// The partial state of a shard as JSON bytes.
pub fn to_bytes(study: &Study, file: &Path, shard: Shard, state: StudyState) -> Result<Vec<u8>, String> {
    let state_sha256 = state_sha256(&state)?;
    let p = Partial { experiment: file.to_path_buf(), experiment_sha256: study.exp.sha256.clone(), inputs: study.inputs(), games: study.games, code_commit: super::folder::CODE_COMMIT.into(), shard, state, state_sha256 };
    serde_json::to_vec(&p).map_err(|e| e.to_string())
}

/// Reads a state file (a partial or a checkpoint) of at most
/// [`crate::tomlfile::MAX_INPUT`] bytes, refusing anything but a regular file.
fn read_state_file<T: for<'de> Deserialize<'de>>(path: &Path, what: &str) -> Result<T, String> {
    let shown = path.display().to_string();
    let bytes = crate::tomlfile::read_bytes(path, &shown, true)?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{shown}: not a {what} of this version of cardsim: {}", crate::output::quote::clip_to(&e.to_string(), 160)))
}

/// What differs between two shards' records, or `None` if they are parts of one run.
fn difference(a: &Partial, b: &Partial) -> Option<String> {
    if a.experiment_sha256 != b.experiment_sha256 {
        return Some(format!("the experiment file's contents differ ({} has SHA-256 {}, the other {})", a.experiment.display(), short(&a.experiment_sha256), short(&b.experiment_sha256)));
    }
    if let Err(e) = pins::compare(&a.inputs, &b.inputs, "the first shard ran") {
        return Some(e);
    }
    if a.games != b.games {
        return Some(format!("games per table differ ({} and {})", a.games, b.games));
    }
    if a.shard.n != b.shard.n {
        return Some(format!("shard counts differ ({} and {})", a.shard.n, b.shard.n));
    }
    if a.code_commit != b.code_commit {
        return Some(format!("they were played by different code ({} and {})", a.code_commit, b.code_commit));
    }
    None
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(12)]
}

/// Reads every `partial-*.json` in `dirs`, checks that they are the shards 1..N of one
/// run of one study, each exactly once, each valid, and returns the study and the
/// merged state. The study is identified by the contents of its experiment file: it is
/// looked for at `experiment` if given, else where the shards' command line named it
/// (relative to the current folder), and must have the SHA-256 the shards recorded;
/// every bot file it names must be unchanged too.
pub fn merge(dirs: &[PathBuf], experiment: Option<&Path>) -> Result<(Study, StudyState), String> {
    let mut parts: Vec<(PathBuf, Partial)> = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
        let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("partial-") && n.ends_with(".json"))).collect();
        names.sort();
        for path in names {
            let p: Partial = read_state_file(&path, "cardsim partial result")?;
            if path.file_name().and_then(|n| n.to_str()) != Some(file_name(p.shard).as_str()) {
                return Err(format!("{}: holds shard {}/{}, whose file is {}", path.display(), p.shard.k + 1, p.shard.n, file_name(p.shard)));
            }
            parts.push((path, p));
        }
    }
    let Some((first_path, first)) = parts.first() else { return Err(format!("no partial-*.json in {}", dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", "))) };
    for (path, p) in &parts[1..] {
        if let Some(what) = difference(first, p) {
            return Err(format!("{} and {} are parts of different runs: {what}", first_path.display(), path.display()));
        }
    }
    let n = first.shard.n;
    let mut seen = std::collections::BTreeMap::<u64, &PathBuf>::new();
    for (path, p) in &parts {
        if let Some(other) = seen.insert(p.shard.k, path) {
            return Err(format!("shard {}/{n} is given twice ({} and {})", p.shard.k + 1, other.display(), path.display()));
        }
    }
    if seen.len() as u64 != n {
        let missing: Vec<String> = (0..n).filter(|k| !seen.contains_key(k)).take(10).map(|k| format!("{}/{n}", k + 1)).collect();
        let more = n - seen.len() as u64 - missing.len() as u64;
        return Err(format!("missing shard{} {}{}", if n - seen.len() as u64 > 1 { "s" } else { "" }, missing.join(", "), if more > 0 { format!(" and {more} more") } else { String::new() }));
    }
    let file = experiment.unwrap_or(&first.experiment);
    if !file.exists() {
        return Err(format!("{}: the experiment file the shards ran is not here; name it with --experiment FILE", file.display()));
    }
    let exp = Experiment::load(file)?;
    if exp.sha256 != first.experiment_sha256 {
        return Err(format!("{}: not the experiment the shards played (its SHA-256 is {}, theirs {}); name the right file with --experiment", file.display(), short(&exp.sha256), short(&first.experiment_sha256)));
    }
    let study = Study::new(exp, first.games)?;
    pins::compare(&first.inputs, &study.inputs(), "the shards ran").map_err(|e| format!("{}: {e}", first_path.display()))?;
    let mut state = study.empty_state();
    for (path, p) in &parts {
        check_read_state(&study, &p.state, &p.state_sha256, p.shard, study.units_len(p.shard)).map_err(|e| format!("{}: {e}", path.display()))?;
        state.merge(&p.state);
    }
    Ok((study, state))
}

/// Checks a state read back: its checksum, then [`Study::check_state`] for the deals the
/// first `units_done` units of `shard` play.
fn check_read_state(study: &Study, state: &StudyState, sha: &str, shard: Shard, units_done: usize) -> Result<(), String> {
    if state_sha256(state)? != sha {
        return Err("state_sha256: the state does not match its checksum (the file was changed or damaged)".into());
    }
    study.check_state(state, &study.deals_done(shard, units_done))
}

/// A run's checkpoint in its results folder: the finished units and their state.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// SHA-256 of the experiment file.
    pub experiment_sha256: String,
    /// Every input of the study ([`Study::inputs`]).
    pub inputs: Vec<InputFile>,
    /// Matches per cell asked for.
    pub games: u64,
    /// The code that played it.
    pub code_commit: String,
    /// Which shard.
    pub shard: Shard,
    /// Units of work in all.
    pub units: usize,
    /// Units of work finished.
    pub units_done: usize,
    /// Their counts and histograms.
    pub state: StudyState,
    /// SHA-256 of `state` as written.
    pub state_sha256: String,
}

/// The checkpoint file of a shard (`.resume-1-of-1.json` for a whole run).
pub fn checkpoint_name(shard: Shard) -> String {
    format!(".resume-{}-of-{}.json", shard.k + 1, shard.n)
}

/// Writes the checkpoint after `units_done` units.
pub fn save_checkpoint(dir: &Path, study: &Study, shard: Shard, state: &StudyState, units_done: usize) -> Result<(), String> {
    let c = Checkpoint {
        experiment_sha256: study.exp.sha256.clone(),
        inputs: study.inputs(),
        games: study.games,
        code_commit: super::folder::CODE_COMMIT.into(),
        shard,
        units: study.units_len(shard),
        units_done,
        state: state.clone(),
        state_sha256: state_sha256(state)?,
    };
    super::folder::write(dir, &checkpoint_name(shard), &serde_json::to_vec(&c).map_err(|e| e.to_string())?)?;
    crate::faults::step("checkpoint");
    Ok(())
}

/// True if `dir` holds a checkpoint file of `shard` (of any run), without reading it.
pub fn has_checkpoint(dir: &Path, shard: Shard) -> bool {
    std::fs::symlink_metadata(dir.join(checkpoint_name(shard))).is_ok()
}

/// The checkpoint of this run in `dir`, if there is one: an error naming the file and
/// what differs if it belongs to another run (an input file, --games, the shard or the
/// code changed) or does not hold up ([`Study::check_state`]).
pub fn load_checkpoint(dir: &Path, study: &Study, shard: Shard) -> Result<Option<(StudyState, usize)>, String> {
    let path = dir.join(checkpoint_name(shard));
    if !has_checkpoint(dir, shard) {
        return Ok(None);
    }
    let shown = path.display();
    let c: Checkpoint = read_state_file(&path, "cardsim checkpoint")?;
    let restart = "rerun without --resume to start over";
    if c.experiment_sha256 != study.exp.sha256 {
        return Err(format!("{shown}: {} changed since the run was interrupted (its SHA-256 differs); {restart}", study.exp.path.display()));
    }
    pins::compare(&c.inputs, &study.inputs(), "the run was interrupted").map_err(|e| format!("{shown}: {e}; {restart}"))?;
    if c.games != study.games || c.shard != shard || c.code_commit != super::folder::CODE_COMMIT {
        return Err(format!("{shown}: from another run (--games, --shard or the code changed); {restart}"));
    }
    let units = study.units_len(shard);
    if c.units != units || c.units_done > units {
        return Err(format!("{shown}: units_done: {} of {} units, but this run has {units}", c.units_done, c.units));
    }
    check_read_state(study, &c.state, &c.state_sha256, shard, c.units_done).map_err(|e| format!("{shown}: {e}"))?;
    Ok(Some((c.state, c.units_done)))
}
