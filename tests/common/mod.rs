//! Helpers the integration tests share: a scratch folder per test and the binary under
//! test. Each test crate uses what it needs of them.
#![allow(dead_code)]

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

/// The binary under test run with `args` and the environment variables `env`, to its end.
pub fn cardsim_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cardsim"));
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}
