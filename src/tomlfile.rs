//! Reading the project's TOML files (bots, experiments) with one-line errors.

use serde::de::DeserializeOwned;
use std::path::Path;

/// Most bytes cardsim reads from one input file (a bot, experiment, rule or position
/// file is a few kilobytes): a bigger file, or an endless one (`/dev/zero`, a pipe), is
/// an error instead of eating the memory.
pub const MAX_INPUT: u64 = 64 << 20;

/// Reads a UTF-8 text file, or standard input for `-`, of at most [`MAX_INPUT`] bytes
/// ([`read_bytes`]); errors are one line starting with `shown` (how the file is named to
/// the user).
pub fn read_text(path: &Path, shown: &str) -> Result<String, String> {
    let bytes = read_bytes(path, shown, false)?;
    String::from_utf8(bytes).map_err(|e| format!("{shown}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
}

/// Reads at most [`MAX_INPUT`] bytes of a file, or of standard input for `-`. With
/// `regular_only` (state cardsim wrote itself: checkpoints, partials) anything but a
/// regular file is refused. Otherwise a pipe (`<(...)`) is read while a writer has it
/// open, and a pipe with no writer reads as empty instead of waiting forever: the file
/// is opened without blocking.
pub fn read_bytes(path: &Path, shown: &str, regular_only: bool) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let fail = |e: std::io::Error| format!("{shown}: cannot read: {e}");
    let reader: Box<dyn Read> = if path == Path::new("-") && !regular_only {
        Box::new(std::io::stdin())
    } else {
        let file = open_without_blocking(path).map_err(fail)?;
        let kind = file.metadata().map_err(fail)?.file_type();
        if kind.is_dir() {
            return Err(format!("{shown}: is a folder, not a file"));
        }
        if regular_only && !kind.is_file() {
            return Err(format!("{shown}: not a regular file"));
        }
        Box::new(file)
    };
    let mut bytes = Vec::new();
    reader.take(MAX_INPUT + 1).read_to_end(&mut bytes).map_err(fail)?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(format!("{shown}: more than {} MiB; not an input file cardsim reads", MAX_INPUT >> 20));
    }
    Ok(bytes)
}

/// Opens `path` for reading without waiting for a pipe's writer, then makes reads
/// blocking again (a writer that is there is waited for; none reads as end of file).
#[cfg(unix)]
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    // SAFETY: fcntl on a descriptor this function owns.
    unsafe {
        let flags = libc::fcntl(file.as_raw_fd(), libc::F_GETFL);
        if flags < 0 || libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(file)
}

#[cfg(not(unix))]
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Reads and parses a TOML file; errors are one line naming the file, line and problem.
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = read_text(path, &crate::output::quote::clip_path(path))?;
    parse(&text, path)
}

/// Parses the TOML `text` of the file at `path` (named in errors, with the line).
pub fn parse<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, String> {
    let where_ = path.display();
    toml::from_str(text).map_err(|e| {
        // The message may quote the file's text (a 50 MB string): clipped.
        let msg = crate::output::quote::clip_to(&e.message().trim().replace('\n', " "), 200);
        match e.span() {
            Some(span) => {
                let line = text[..span.start].matches('\n').count() + 1;
                format!("{where_}: line {line}: {msg}")
            }
            None => format!("{where_}: {msg}"),
        }
    })
}
