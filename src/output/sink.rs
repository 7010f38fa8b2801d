//! Output files (`--csv PATH` and every other file cardsim writes): what a path names is
//! checked before any simulation ([`OutputPath::check`]), and the bytes are written
//! only at the end ([`OutputPath::write`]), so bad paths fail at once and a run never
//! leaves half a file.
//!
//! What happens by what the path names:
//!
//! | path | write |
//! |---|---|
//! | `-` (or a path naming this process's standard output, e.g. `/dev/stdout`) | streamed to standard output |
//! | a new file in an existing, writable folder | temporary file in that folder, renamed into place |
//! | an existing regular file | the same (atomic replacement), keeping the file's permissions |
//! | a symlink (a chain of them) to a regular or missing file | written through to the link's final target, atomically; the link stays |
//! | a pipe, a device (`/dev/null`), a socket, or anything reached through `/proc` or `/dev/fd` | opened and written directly (streaming, no rename) |
//!
//! Refused with a one-line error naming the flag and the path: a missing folder, a
//! folder or a path through a file, a read-only file (never replaced), a folder where
//! no file can be created, a symlink loop.

use super::quote::clip_path;
use std::fs::{self, OpenOptions, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Most symlinks followed from an output path (as Linux's own limit).
const MAX_LINKS: usize = 40;

/// Where the bytes go.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Dest {
    /// This process's standard output.
    Stdout,
    /// A pipe, device or socket, opened for writing at the end.
    Stream(PathBuf),
    /// A regular file, new or replaced through a temporary file renamed over it.
    Replace {
        /// The final target (symlinks resolved).
        target: PathBuf,
        /// The permissions of the file replaced (the new file gets them).
        permissions: Option<Permissions>,
    },
}

/// An output path, checked and ready to be written once.
#[derive(Clone, Debug)]
pub struct OutputPath {
    /// The option or field the path came from (`--csv`, `experiments/x.toml: output`).
    flag: String,
    /// The path as given.
    given: PathBuf,
    dest: Dest,
}

/// The path of a symlink chain's final target, and whether a hop went through `/proc`
/// or `/dev/fd` (a process's own descriptors: written directly, never replaced).
struct Resolved {
    path: PathBuf,
    exists: bool,
    via_descriptor: bool,
}

fn is_descriptor_path(p: &Path) -> bool {
    p.starts_with("/proc") || p.starts_with("/dev/fd") || p == Path::new("/dev/stdout") || p == Path::new("/dev/stderr") || p == Path::new("/dev/stdin")
}

/// Follows `path` through symlinks to what it finally names.
fn resolve(path: &Path) -> io::Result<Resolved> {
    let mut p = path.to_path_buf();
    let mut via_descriptor = is_descriptor_path(&p);
    for _ in 0..=MAX_LINKS {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p)?;
                p = if to.is_absolute() { to } else { p.parent().unwrap_or(Path::new("")).join(to) };
                via_descriptor |= is_descriptor_path(&p);
            }
            Ok(_) => return Ok(Resolved { path: p, exists: true, via_descriptor }),
            // Missing, or a path through a file: the folder check below explains which.
            Err(e) if matches!(e.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory) => return Ok(Resolved { path: p, exists: false, via_descriptor }),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!("more than {MAX_LINKS} symlinks (a loop?)")))
}

/// True if `m` is the file this process's standard output writes to.
#[cfg(unix)]
fn is_our_stdout(m: &fs::Metadata) -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() else { return false };
    fs::File::from(fd).metadata().is_ok_and(|o| o.dev() == m.dev() && o.ino() == m.ino())
}

#[cfg(not(unix))]
fn is_our_stdout(_: &fs::Metadata) -> bool {
    false
}

/// A name for a temporary file or folder next to `target` that no process is likely
/// to pick too: the process id (the same in every container, where cardsim is often
/// process 1), the time in nanoseconds and a per-process counter. Whoever creates it
/// uses `create_new` (or `create_dir`) and asks again if it was taken.
pub fn temporary_next_to(target: &Path, tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = folder_of(target);
    let name = target.file_name().map_or("out".into(), |n| n.to_string_lossy().into_owned());
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let k = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{name}.{}-{nanos:x}-{k}.{tag}", std::process::id()))
}

/// Creates a new file next to `target` for writing, under a fresh temporary name.
fn create_temporary(target: &Path, tag: &str) -> io::Result<(PathBuf, fs::File)> {
    loop {
        let p = temporary_next_to(target, tag);
        match OpenOptions::new().write(true).create_new(true).open(&p) {
            Ok(f) => return Ok((p, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The folder a file lives in (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

impl OutputPath {
    /// Checks `path` given as `flag` before anything runs: its folder exists and takes
    /// new files, it is not a folder, an existing file is writable. `-` is standard output.
    pub fn check(flag: &str, path: &Path) -> Result<OutputPath, String> {
        let shown = clip_path(path);
        let fail = |what: String| format!("{flag} {shown}: {what}");
        let make = |dest| Ok(OutputPath { flag: flag.to_string(), given: path.to_path_buf(), dest });
        if path == Path::new("-") {
            return make(Dest::Stdout);
        }
        if path.as_os_str().is_empty() {
            return Err(format!("{flag}: empty path (use - for standard output)"));
        }
        let r = resolve(path).map_err(|e| fail(format!("cannot follow the path: {e}")))?;
        if r.via_descriptor {
            // /dev/stdout, /proc/self/fd/N ...: the kernel resolves these; write directly.
            let m = fs::metadata(path).map_err(|e| fail(format!("cannot open: {e}")))?;
            if m.is_dir() {
                return Err(fail("is a folder, not a file".into()));
            }
            if is_our_stdout(&m) {
                return make(Dest::Stdout);
            }
            OpenOptions::new().append(true).open(path).map_err(|e| fail(format!("cannot open for writing: {e}")))?;
            return make(Dest::Stream(path.to_path_buf()));
        }
        let target = r.path;
        let via_link = target != path;
        let target_shown = if via_link { format!(" (symlink to {})", clip_path(&target)) } else { String::new() };
        if !r.exists {
            let dir = folder_of(&target);
            match fs::metadata(&dir) {
                Err(_) => return Err(fail(format!("folder {} does not exist{target_shown}", clip_path(&dir)))),
                Ok(m) if !m.is_dir() => return Err(fail(format!("{} is not a folder{target_shown}", clip_path(&dir)))),
                Ok(_) => {}
            }
            Self::probe_folder(&target).map_err(|e| fail(format!("cannot create a file in folder {}: {e}{target_shown}", clip_path(&dir))))?;
            return make(Dest::Replace { target, permissions: None });
        }
        let m = fs::metadata(&target).map_err(|e| fail(format!("cannot read its metadata: {e}{target_shown}")))?;
        let kind = m.file_type();
        if kind.is_dir() {
            return Err(fail(format!("is a folder, not a file{target_shown}")));
        }
        if is_our_stdout(&m) {
            return make(Dest::Stdout);
        }
        if kind.is_file() {
            if m.permissions().readonly() {
                return Err(fail(format!("is read-only; not replacing it{target_shown}")));
            }
            // Opening for writing without truncating changes nothing; it asks the system.
            OpenOptions::new().write(true).open(&target).map_err(|e| fail(format!("is not writable: {e}{target_shown}")))?;
            Self::probe_folder(&target)
                .map_err(|e| fail(format!("cannot create the temporary file in folder {} to replace it: {e}{target_shown}", clip_path(&folder_of(&target)))))?;
            return make(Dest::Replace { target, permissions: Some(m.permissions()) });
        }
        if !Self::is_fifo(&kind) {
            // A device or socket: opening it now shows whether it can be written
            // (opening a pipe would wait for a reader, so pipes are opened at the end).
            OpenOptions::new().append(true).open(&target).map_err(|e| fail(format!("cannot open for writing: {e}{target_shown}")))?;
        }
        make(Dest::Stream(target))
    }

    #[cfg(unix)]
    fn is_fifo(kind: &fs::FileType) -> bool {
        use std::os::unix::fs::FileTypeExt;
        kind.is_fifo()
    }

    #[cfg(not(unix))]
    fn is_fifo(_: &fs::FileType) -> bool {
        false
    }

    /// Creates and removes an empty file next to `target`: can the folder take the
    /// temporary file?
    fn probe_folder(target: &Path) -> io::Result<()> {
        let (probe, _) = create_temporary(target, "check")?;
        fs::remove_file(&probe)
    }

    /// Refuses an output that is the same file as the input `input` (the same device
    /// and inode, through any links): writing it would destroy what was read, such as a
    /// person's measured times, which cannot be measured again.
    #[cfg(unix)]
    pub fn refuse_input(&self, input: &Path) -> Result<(), String> {
        use std::os::unix::fs::MetadataExt;
        let target = match &self.dest {
            Dest::Replace { target, .. } => target.as_path(),
            Dest::Stream(p) => p.as_path(),
            Dest::Stdout => return Ok(()),
        };
        match (fs::metadata(target), fs::metadata(input)) {
            (Ok(o), Ok(i)) if (o.dev(), o.ino()) == (i.dev(), i.ino()) => Err(format!("{} {}: is the input file {}; not overwriting an input", self.flag, clip_path(&self.given), clip_path(input))),
            _ => Ok(()),
        }
    }

    /// Refuses an output that is the same file as an input (not checked on this system).
    #[cfg(not(unix))]
    pub fn refuse_input(&self, _input: &Path) -> Result<(), String> {
        Ok(())
    }

    /// True if the bytes go to standard output (`-`, `/dev/stdout`).
    pub fn is_stdout(&self) -> bool {
        self.dest == Dest::Stdout
    }

    /// The path as given, for messages (clipped).
    pub fn shown(&self) -> String {
        if self.is_stdout() { "standard output".into() } else { clip_path(&self.given) }
    }

    /// Writes `bytes` as the whole content: atomically for files, streamed to pipes,
    /// devices and standard output. A closed standard output (`| head`) is not an error.
    pub fn write(&self, bytes: &[u8]) -> Result<(), String> {
        let fail = |e: io::Error| format!("{} {}: cannot write: {e}", self.flag, clip_path(&self.given));
        match &self.dest {
            Dest::Stdout => {
                let mut out = io::stdout().lock();
                match out.write_all(bytes).and_then(|_| out.flush()) {
                    Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(fail(e)),
                    _ => Ok(()),
                }
            }
            Dest::Stream(p) => {
                let mut f = OpenOptions::new().append(true).open(p).map_err(fail)?;
                f.write_all(bytes).and_then(|_| f.flush()).map_err(fail)
            }
            Dest::Replace { target, permissions } => {
                let (tmp, mut f) = create_temporary(target, "tmp").map_err(fail)?;
                let result = (|| {
                    crate::faults::write_all(&mut f, bytes)?;
                    f.sync_all()?;
                    if let Some(p) = permissions {
                        fs::set_permissions(&tmp, p.clone())?;
                    }
                    crate::faults::step(&format!("rename:{}", target.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned())));
                    fs::rename(&tmp, target)
                })();
                result.map_err(|e| {
                    let _ = fs::remove_file(&tmp);
                    fail(e)
                })
            }
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, PermissionsExt};

    fn dir(name: &str) -> crate::scratch::Scratch {
        crate::scratch::scratch("sink", name)
    }

    fn leftovers(d: &Path) -> Vec<String> {
        fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).filter(|n| n.starts_with('.')).collect()
    }

    #[test]
    fn new_and_existing_files_are_replaced_atomically_keeping_permissions() {
        let d = dir("replace");
        let p = d.join("out.csv");
        OutputPath::check("--csv", &p).unwrap().write(b"a\n").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"a\n");
        fs::set_permissions(&p, Permissions::from_mode(0o640)).unwrap();
        OutputPath::check("--csv", &p).unwrap().write(b"b\n").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"b\n");
        assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o640);
        assert!(leftovers(&d).is_empty(), "no temporary file left: {:?}", leftovers(&d));
    }

    #[test]
    fn a_symlink_is_written_through_and_stays_a_link() {
        let d = dir("link");
        let target = d.join("real.csv");
        fs::write(&target, "old").unwrap();
        let link = d.join("link.csv");
        symlink("real.csv", &link).unwrap();
        OutputPath::check("--csv", &link).unwrap().write(b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
        assert_eq!(fs::read(&target).unwrap(), b"new");
        // A dangling link creates its target, as a shell's > does.
        let dangling = d.join("dangling.csv");
        symlink("made.csv", &dangling).unwrap();
        OutputPath::check("--csv", &dangling).unwrap().write(b"x").unwrap();
        assert_eq!(fs::read(d.join("made.csv")).unwrap(), b"x");
        // A loop is an error.
        symlink("loop2", d.join("loop1")).unwrap();
        symlink("loop1", d.join("loop2")).unwrap();
        assert!(OutputPath::check("--csv", &d.join("loop1")).unwrap_err().contains("symlinks"));
    }

    #[test]
    fn refusals_name_the_flag_and_the_path() {
        let d = dir("refuse");
        let e = OutputPath::check("--csv", &d.join("no/such/out.csv")).unwrap_err();
        assert!(e.starts_with("--csv ") && e.contains("does not exist"), "{e}");
        let e = OutputPath::check("--csv", &d).unwrap_err();
        assert!(e.contains("is a folder"), "{e}");
        let file = d.join("f");
        fs::write(&file, "").unwrap();
        let e = OutputPath::check("--csv", &file.join("out.csv")).unwrap_err();
        assert!(e.contains("is not a folder"), "{e}");
        let ro = d.join("ro.csv");
        fs::write(&ro, "keep").unwrap();
        fs::set_permissions(&ro, Permissions::from_mode(0o444)).unwrap();
        let e = OutputPath::check("--bench-csv", &ro).unwrap_err();
        assert!(e.starts_with("--bench-csv ") && e.contains("read-only"), "{e}");
        assert_eq!(fs::read(&ro).unwrap(), b"keep");
        assert!(OutputPath::check("--csv", Path::new("")).unwrap_err().contains("empty path"));
    }

    #[test]
    fn devices_are_written_directly_and_stay_devices() {
        let null = Path::new("/dev/null");
        if !null.exists() {
            return;
        }
        let o = OutputPath::check("--csv", null).unwrap();
        assert_eq!(o.dest, Dest::Stream(null.to_path_buf()));
        o.write(b"x").unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::metadata(null).unwrap().file_type().is_char_device(), "/dev/null is still a device");
        assert!(OutputPath::check("--csv", Path::new("-")).unwrap().is_stdout());
    }
}
