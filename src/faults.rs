//! Fault injection for the integrity tests (`tests/integrity.rs`). Three environment
//! variables, read only around file writes and at the start of play, never inside a
//! match:
//!
//! - `CARDSIM_FAULT_ABORT_AT=STEP` stops the process dead (`abort`, no clean-up, as
//!   `kill -9` would) when it reaches the named step of a write: `checkpoint` (a
//!   checkpoint was just saved), `switch-write:FILE` (before writing FILE of a results
//!   folder), `switch-exchange` (every file written, before the switch),
//!   `switch-exchanged` (just after the switch, before the old folder is removed),
//!   `rename:FILE` (a single output file such as a shard's partial or a checkpoint is
//!   written in full, before its rename into place), `tune-checkpoint:K` (`cardsim
//!   tune` saved its checkpoint after iteration K).
//! - `CARDSIM_FAULT_DISK_FULL_AFTER=N` makes every file write fail with "No space left on
//!   device" once this process has written N bytes to files (a full disk, without a
//!   tmpfs).
//! - `CARDSIM_FAULT_HOLD_AT=STEP` with `CARDSIM_FAULT_HOLD_FIFO=PATH` (a named pipe)
//!   holds the process the first time it reaches STEP (`checkpoint`, or `playing`: the
//!   signal handlers are installed, play is about to start) until a test has opened
//!   the pipe (which tells it the step is reached) and written a byte: the test can
//!   deliver a signal at exactly that step.
//! - `CARDSIM_NOTIFY_PLAYING=PATH` creates the file PATH once the Ctrl-C and SIGTERM
//!   handlers are installed and play is about to start, so a test can send a signal on
//!   that event instead of after a sleep.
//!
//! Without them nothing changes.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};

/// Aborts the process if `CARDSIM_FAULT_ABORT_AT` names `step`; holds it there the
/// first time if `CARDSIM_FAULT_HOLD_AT` names it (see the module docs).
pub fn step(step: &str) {
    if std::env::var_os("CARDSIM_FAULT_ABORT_AT").is_some_and(|v| v == step) {
        std::process::abort();
    }
    if std::env::var_os("CARDSIM_FAULT_HOLD_AT").is_some_and(|v| v == step) {
        static HELD: std::sync::Once = std::sync::Once::new();
        HELD.call_once(|| {
            use std::io::Read;
            if let Some(fifo) = std::env::var_os("CARDSIM_FAULT_HOLD_FIFO") {
                // Opening waits for the test's writer; reading waits for its byte.
                if let Ok(mut f) = std::fs::File::open(fifo) {
                    let _ = f.read(&mut [0u8]);
                }
            }
        });
    }
}

/// Creates the file `CARDSIM_NOTIFY_PLAYING` names, if set.
pub fn notify_playing() {
    if let Some(path) = std::env::var_os("CARDSIM_NOTIFY_PLAYING") {
        let _ = std::fs::write(path, b"playing\n");
    }
}

static WRITTEN: AtomicU64 = AtomicU64::new(0);

/// Writes all of `bytes` to a file, as `write_all`, failing like a full disk once the
/// process has written `CARDSIM_FAULT_DISK_FULL_AFTER` bytes (half of them land, as a
/// real short write would leave).
pub fn write_all(f: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    if let Some(limit) = std::env::var("CARDSIM_FAULT_DISK_FULL_AFTER").ok().and_then(|v| v.parse::<u64>().ok()) {
        let before = WRITTEN.fetch_add(bytes.len() as u64, Ordering::SeqCst);
        if before + bytes.len() as u64 > limit {
            let room = limit.saturating_sub(before).min(bytes.len() as u64) as usize;
            f.write_all(&bytes[..room / 2])?;
            return Err(io::Error::from_raw_os_error(28));
        }
    }
    f.write_all(bytes)
}
