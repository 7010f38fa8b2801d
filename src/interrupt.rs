//! Ctrl-C: the first press asks running work to stop at the next deal boundary (the
//! runner then skips the deals not yet started, and the command prints what finished,
//! marked partial, writes no result file and exits with 130); a second press exits at
//! once.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit code of an interrupted command (128 + SIGINT).
pub const EXIT_CODE: i32 = 130;

/// The error text a command returns when it stopped on Ctrl-C (`main` exits with
/// [`EXIT_CODE`] and prints no `error:` line for it).
pub const INTERRUPTED: &str = "interrupted";

/// Installs the Ctrl-C handler (once; later calls do nothing).
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if REQUESTED.swap(true, Ordering::SeqCst) {
                std::process::exit(EXIT_CODE);
            }
            eprintln!("\ninterrupted: finishing the deals in progress (Ctrl-C again to quit at once)");
        });
    });
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
