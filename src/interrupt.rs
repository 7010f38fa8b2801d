//! Ctrl-C, SIGTERM (what `kill`, Slurm's `scancel` and its time limit send) and SIGHUP:
//! the first signal asks running work to stop at the next deal boundary (the runner then
//! skips the deals not yet started, and the command prints what finished, marked
//! partial, writes no result file and exits with 130; `cardsim run` keeps its
//! checkpoint); a second signal exits at once.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Set when cardsim runs inside another program ([`embed`]).
static EMBEDDED: AtomicBool = AtomicBool::new(false);

/// Marks cardsim as running inside another program (the Python package): [`install`]
/// then leaves the process's signals to it (Python's Ctrl-C stays Python's).
pub fn embed() {
    EMBEDDED.store(true, Ordering::SeqCst);
}

/// The exit code of an interrupted command (128 + SIGINT).
pub const EXIT_CODE: i32 = 130;

/// The error text a command returns when it stopped on Ctrl-C (`main` exits with
/// [`EXIT_CODE`] and prints no `error:` line for it).
pub const INTERRUPTED: &str = "interrupted";

/// Installs the handler of Ctrl-C, SIGTERM and SIGHUP (once; later calls do nothing;
/// never once [`embed`] was called).
/// Commands call it just before play starts, which tells a test waiting for that
/// moment ([`crate::faults::notify_playing`]).
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    if !EMBEDDED.load(Ordering::SeqCst) {
        ONCE.call_once(|| {
            let _ = ctrlc::set_handler(|| {
                if REQUESTED.swap(true, Ordering::SeqCst) {
                    std::process::exit(EXIT_CODE);
                }
                eprintln!("\ninterrupted: finishing the deals in progress (a second Ctrl-C or SIGTERM quits at once)");
            });
        });
    }
    crate::faults::notify_playing();
    crate::faults::step("playing");
}

/// True once Ctrl-C was pressed (or [`request`] called).
#[inline]
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Asks running work to stop, as Ctrl-C does (for tests).
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}
