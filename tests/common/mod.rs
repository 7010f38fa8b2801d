//! Helpers the integration tests share: a scratch folder per test and the binary under
//! test. Each test crate uses what it needs of them.
#![allow(dead_code)]

use std::process::{Command, Output};

#[path = "../../src/scratch.rs"]
mod scratch_folder;
pub use scratch_folder::{scratch, Scratch};

/// The binary under test run with `args` and the environment variables `env`, to its end.
pub fn cardsim_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cardsim"));
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

thread_local! {
    static TEST_FOLDER: std::cell::RefCell<Option<Scratch>> = const { std::cell::RefCell::new(None) };
}

/// The path `name` (which may name subfolders that do not exist) in the scratch folder
/// `cardsim-KIND-PID-THREAD` of the test running on this thread; the test harness runs
/// each test on a thread of its own, and the folder is removed when that thread ends.
pub fn test_path(kind: &str, name: &str) -> std::path::PathBuf {
    TEST_FOLDER.with(|folder| {
        let mut folder = folder.borrow_mut();
        let dir = folder.get_or_insert_with(|| {
            let thread = format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "");
            scratch(kind, &thread)
        });
        dir.join(name)
    })
}
