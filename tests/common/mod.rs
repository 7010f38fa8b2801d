//! Helpers the integration tests share: a scratch folder per test and the binary under
//! test. Each test crate uses what it needs of them.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// A fresh, empty scratch folder `cardsim-KIND-PID-NAME` in the temporary directory.
pub fn scratch(kind: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cardsim-{kind}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
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
