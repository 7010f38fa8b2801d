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
/// be created in it (under a name no other process picks: see
/// [`crate::output::sink::temporary_next_to`]). Creates `dir`.
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
    crate::output::OutputPath::check(flag, &dir.join(".cardsim-probe")).map(|_| ()).map_err(|e| format!("{flag} {shown}: cannot write there ({e})"))
}

/// The name of the lock file a writer holds in a results folder: `.cardsim-lock` for a
/// whole run, a merge or a balance, `.cardsim-lock-K-of-N` for a shard (shards of one
/// study share their folder and run at once).
pub fn lock_name(shard: Option<(u64, u64)>) -> String {
    match shard {
        None => ".cardsim-lock".into(),
        Some((k, n)) => format!(".cardsim-lock-{}-of-{n}", k + 1),
    }
}

/// An advisory lock (`flock`) on a results folder, held while a command plays into it
/// and writes it: a second command asking for the same lock fails at once with one line
/// naming the holder (its process id and host, which the holder writes into the lock
/// file). Released when dropped (the lock file is removed).
pub struct Lock {
    path: PathBuf,
    /// Held open: closing it releases the lock.
    _file: std::fs::File,
}

impl Lock {
    /// Takes the lock `name` in `dir` ([`lock_name`]).
    pub fn take(dir: &Path, name: &str, flag: &str) -> Result<Lock, String> {
        use std::io::{Read, Seek, Write};
        let path = dir.join(name);
        let fail = |e: std::io::Error| format!("{flag} {}: cannot take the lock {name}: {e}", dir.display());
        let mut file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path).map_err(fail)?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: flock on a descriptor this function owns.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                let err = std::io::Error::last_os_error();
                if err.raw_os_error() == Some(libc::EWOULDBLOCK) {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    let holder = crate::output::quote::clip_to(holder.trim(), 120);
                    return Err(format!("{flag} {}: in use by another cardsim ({}); wait for it to finish or stop it", dir.display(), if holder.is_empty() { "process unknown".into() } else { holder }));
                }
                return Err(fail(err));
            }
        }
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").map(|h| h.trim().to_string()).unwrap_or_default();
        let who = format!("process {} on host {}", std::process::id(), if host.is_empty() { "unknown" } else { &host });
        file.set_len(0).and_then(|_| file.rewind()).and_then(|_| file.write_all(who.as_bytes())).map_err(fail)?;
        Ok(Lock { path, _file: file })
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held: a process that opened it meanwhile locks a file no
        // longer in the folder and finds the folder free on its next try.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// True for the files cardsim itself keeps in a results folder while it works: lock
/// files, checkpoints, temporary files of an interrupted write.
pub fn is_bookkeeping(name: &str) -> bool {
    name.starts_with(".cardsim-lock") || name.starts_with(".resume-") || name.starts_with(".cardsim-probe")
}

/// Checks that a whole results folder `dir` may be replaced by the results of
/// `experiment` (the experiment file's name, as its manifest records it): it is empty
/// (but for cardsim's own bookkeeping files), or its `manifest.toml` names the same
/// experiment. Anything else (another experiment's results, a folder of other files) is
/// refused unless `force`, in which case its files are replaced and those the new
/// results do not have are removed.
pub fn check_replaceable(dir: &Path, experiment: &str, flag: &str, force: bool) -> Result<(), String> {
    if force {
        return Ok(());
    }
    let shown = dir.display();
    let mut strangers: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{flag} {shown}: cannot read: {e}"))? {
        let name = entry.map_err(|e| format!("{flag} {shown}: cannot read: {e}"))?.file_name().to_string_lossy().into_owned();
        if !is_bookkeeping(&name) {
            strangers.push(name);
        }
    }
    if strangers.is_empty() {
        return Ok(());
    }
    let manifest = dir.join("manifest.toml");
    if !manifest.is_file() {
        strangers.sort();
        return Err(format!(
            "{flag} {shown}: holds files that are not a cardsim results folder (no manifest.toml; e.g. {}); choose another folder, or --force to replace its contents",
            crate::output::quote::clip_to(&strangers[0], 60)
        ));
    }
    let text = crate::tomlfile::read_text(&manifest, &manifest.display().to_string())?;
    let named = toml::from_str::<toml::Table>(&text).ok().and_then(|t| t.get("experiment").and_then(|v| v.as_str().map(str::to_string)));
    match named {
        Some(name) if name == experiment => Ok(()),
        Some(name) => Err(format!("{flag} {shown}: holds the results of another experiment ({}, not {experiment}); choose another folder, or --force to replace them", crate::output::quote::clip_to(&name, 80))),
        None => Err(format!("{flag} {shown}: its manifest.toml names no experiment; choose another folder, or --force to replace its contents")),
    }
}

/// Refuses a results folder `dir` that holds one of the command's `inputs` (the
/// experiment file, a bot file, a shard's partial): the folder is replaced as a whole,
/// so the input would be lost.
pub fn check_holds_no_input<'a>(dir: &Path, inputs: impl IntoIterator<Item = &'a Path>, flag: &str) -> Result<(), String> {
    let Ok(dir_real) = std::fs::canonicalize(dir) else { return Ok(()) };
    for input in inputs {
        if let Ok(real) = std::fs::canonicalize(input) {
            if real.starts_with(&dir_real) {
                return Err(format!("{flag} {}: holds {}, an input of this command, and the folder is replaced as a whole; choose another folder", dir.display(), input.display()));
            }
        }
    }
    Ok(())
}

/// Replaces the results folder `out` (which exists: see [`prepare`]) by a folder holding
/// exactly `files`, all at once: the files are written and synced in a temporary sibling
/// folder, which then trades places with `out` in one `renameat2(RENAME_EXCHANGE)`, and
/// the old folder (with any checkpoint it held) is removed last. A kill or a full disk
/// at any step leaves `out` entirely old (and an interrupted run still resumable) or
/// entirely new. Where the file system cannot exchange two folders (some network file
/// systems), the old folder is renamed aside first: a crash in the instant between the
/// two renames leaves the old folder beside `out`, named `.NAME.*.old`.
pub fn replace(out: &Path, files: &[(String, Vec<u8>)]) -> Result<(), String> {
    use std::io::Write;
    let shown = out.display();
    let target = std::fs::canonicalize(out).map_err(|e| format!("{shown}: {e}"))?;
    let fail = |e: std::io::Error| format!("{shown}: cannot write the results: {e}");
    let staging = loop {
        let p = crate::output::sink::temporary_next_to(&target, "new");
        match std::fs::create_dir(&p) {
            Ok(()) => break p,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(fail(e)),
        }
    };
    let written = (|| -> std::io::Result<()> {
        if let Ok(m) = std::fs::metadata(&target) {
            std::fs::set_permissions(&staging, m.permissions())?;
        }
        for (name, bytes) in files {
            crate::faults::step(&format!("switch-write:{name}"));
            let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(staging.join(name))?;
            crate::faults::write_all(&mut f, bytes)?;
            f.flush()?;
            f.sync_all()?;
        }
        std::fs::File::open(&staging)?.sync_all()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(fail(e));
    }
    crate::faults::step("switch-exchange");
    let old = match exchange(&staging, &target) {
        Ok(()) => staging,
        Err(_) => {
            let aside = crate::output::sink::temporary_next_to(&target, "old");
            let moved = std::fs::rename(&target, &aside).and_then(|_| std::fs::rename(&staging, &target));
            if let Err(e) = moved {
                if !target.exists() {
                    let _ = std::fs::rename(&aside, &target);
                }
                let _ = std::fs::remove_dir_all(&staging);
                return Err(fail(e));
            }
            aside
        }
    };
    crate::faults::step("switch-exchanged");
    if let Some(parent) = target.parent() {
        let _ = std::fs::File::open(parent).and_then(|d| d.sync_all());
    }
    let _ = std::fs::remove_dir_all(&old);
    Ok(())
}

/// Swaps two paths atomically (`renameat2` with `RENAME_EXCHANGE`, Linux 3.15 and later).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let ca = std::ffi::CString::new(a.as_os_str().as_bytes())?;
    let cb = std::ffi::CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: two valid NUL-terminated paths; the call only reads them.
    let r = unsafe { libc::renameat2(libc::AT_FDCWD, ca.as_ptr(), libc::AT_FDCWD, cb.as_ptr(), libc::RENAME_EXCHANGE) };
    if r == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other("no atomic exchange of folders on this system"))
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
    crate::output::format::Table { header: header.to_vec(), rows: rows.to_vec() }.csv()
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
    /// Every file the study read and its SHA-256 ([`super::run::Study::inputs`]).
    #[serde(rename = "input")]
    pub inputs: Vec<super::pins::InputFile>,
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
        let base = crate::scratch::scratch("folder", "prepare");
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
