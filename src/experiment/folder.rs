//! An experiment's results folder (`results/NAME/`): checked before the first match,
//! written only when everything is computed, one file at a time through a temporary
//! file renamed into place, and described by a reproducible `manifest.toml`.

use serde::Serialize;
use std::path::{Path, PathBuf};

/// The commit of the code that built this binary: the last commit that changed `src/`,
/// `Cargo.toml`, `Cargo.lock` or `build.rs`, `-dirty` when the tree changed them, or
/// `unknown` (see `build.rs`). Results only change when the code does, so rerunning a
/// committed experiment at a later commit that changed only docs or results gives the
/// same manifest.
pub const CODE_COMMIT: &str = env!("CARDSIM_CODE_COMMIT");

/// Checks that `dir` can be written as a results folder: it is a folder or does not
/// exist yet while its parent does (or, with `parents`, may be created), and a file can
/// be created in it. Creates `dir`.
pub fn prepare(dir: &Path, flag: &str, parents: bool) -> Result<(), String> {
    let shown = dir.display();
    if dir.exists() && !dir.is_dir() {
        return Err(format!("{flag} {shown}: exists and is not a folder"));
    }
    if !dir.exists() {
        let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        if !parent.is_dir() && !parents {
            return Err(format!("{flag} {shown}: folder {} does not exist", parent.display()));
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{flag} {shown}: cannot create: {e}"))?;
    }
    let probe = dir.join(format!(".cardsim-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| format!("{flag} {shown}: cannot write there: {e}"))?;
    std::fs::remove_file(&probe).map_err(|e| format!("{flag} {shown}: {e}"))
}

/// Writes `bytes` to `dir/name` as every output file is written
/// ([`crate::output::sink`]): a regular file through a temporary file renamed into
/// place, a symlink through to its target, a pipe or device directly; a read-only
/// file or a folder in the way is a one-line error.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, String> {
    let path = dir.join(name);
    crate::output::OutputPath::check("results file", &path)?.write(bytes)?;
    Ok(path)
}

/// CSV bytes of a header and rows.
pub fn csv_bytes(header: &[String], rows: &[Vec<String>]) -> Result<Vec<u8>, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).map_err(|e| e.to_string())?;
    for r in rows {
        w.write_record(r).map_err(|e| e.to_string())?;
    }
    w.into_inner().map_err(|e| e.to_string())
}

/// One played table in the manifest.
#[derive(Serialize)]
pub struct ManifestCell {
    /// The table's label.
    pub label: String,
    /// Bot labels in the order that defines the seatings.
    pub bots: Vec<String>,
    /// Non-default flags.
    pub flags: String,
    /// Deals played.
    pub deals: u64,
    /// Matches played.
    pub matches: u64,
}

/// What produced a results folder. Every value is reproducible: no dates, timings,
/// thread counts or machine names.
#[derive(Serialize)]
pub struct Manifest {
    /// The experiment file's name.
    pub experiment: String,
    /// SHA-256 of the experiment file.
    pub experiment_sha256: String,
    /// cardsim's version.
    pub cardsim_version: String,
    /// [`CODE_COMMIT`].
    pub code_commit: String,
    /// Game.
    pub game: String,
    /// Master seed.
    pub seed: u64,
    /// Matches per table asked for.
    pub games: u64,
    /// Seating design.
    pub seating: String,
    /// The files written beside the manifest.
    pub files: Vec<String>,
    /// The tables, in order.
    #[serde(rename = "cell")]
    pub cells: Vec<ManifestCell>,
}

impl Manifest {
    /// The manifest as TOML with a header comment.
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let body = toml::to_string(self).map_err(|e| e.to_string())?;
        Ok(format!("# Written by `cardsim run`: what produced the files in this folder. Every value is\n# reproducible (no dates, timings or machine): rerunning the experiment gives these bytes.\n{body}").into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepare_checks_and_creates_the_folder() {
        let base = std::env::temp_dir().join(format!("cardsim-folder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let dir = base.join("out");
        prepare(&dir, "--out", false).unwrap();
        assert!(dir.is_dir());
        assert!(prepare(&base.join("no/such/out"), "--out", false).unwrap_err().contains("does not exist"));
        prepare(&base.join("made/with/parents"), "out", true).unwrap();
        std::fs::write(base.join("file"), b"x").unwrap();
        assert!(prepare(&base.join("file"), "--out", false).unwrap_err().contains("not a folder"));
        let p = write(&dir, "a.csv", b"1,2\n").unwrap();
        assert_eq!(std::fs::read(p).unwrap(), b"1,2\n");
        assert!(!dir.join(".a.csv.tmp").exists());
    }
}
