//! A scratch folder for tests, removed when the test that made it ends. Compiled only
//! for tests: the unit tests use it as `crate::scratch`, and the integration tests
//! include this same file from `tests/common`.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A scratch folder that is removed when it goes out of scope, except when its test
/// failed (the thread is panicking): then it stays for inspection. Dereferences to its
/// path.
pub struct Scratch(PathBuf);

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A fresh, empty scratch folder `cardsim-KIND-PID-NAME` in the temporary directory,
/// removed at the end of the test that made it (kept if the test fails).
pub fn scratch(kind: &str, name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("cardsim-{kind}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}
