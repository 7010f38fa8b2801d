//! The Python package (`python/`, docs/python.md) is part of the one test command: this
//! test builds it with maturin into a virtual environment under `target/` (from the
//! package registries on the first run), and runs its pytest suite against the binary
//! built from the same source. It needs `python3` with `venv` and `pip`; set
//! `CARDSIM_SKIP_PYTHON=1` to leave the Python package out on a machine without them.

use std::fs::File;
use std::path::Path;
use std::process::Command;

fn run(what: &str, cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot start: {e} (python3 with venv and pip is needed; CARDSIM_SKIP_PYTHON=1 leaves the Python package out)"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    print!("{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn the_python_package_builds_and_passes_its_tests() {
    if std::env::var_os("CARDSIM_SKIP_PYTHON").is_some() {
        println!("SKIPPED: CARDSIM_SKIP_PYTHON is set");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = root.join("target");
    std::fs::create_dir_all(&target).unwrap();
    // Two suites in one checkout share the environment: one installs at a time.
    let lock = File::create(target.join("python-venv.lock")).unwrap();
    lock.lock().unwrap();
    let venv = target.join("python-venv");
    let python = venv.join("bin/python");
    if !python.exists() {
        run("python3 -m venv", Command::new("python3").args(["-m", "venv"]).arg(&venv));
    }
    run(
        "pip install python[test]",
        Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "./python[test]"])
            .current_dir(root)
            .env("CARGO_TARGET_DIR", target.join("python-build")),
    );
    // From target/, so that the source folder python/cardsim does not shadow the
    // installed package; the tests' temporary folders under target/ too (pytest empties
    // its --basetemp at each run), not in the system's temporary folder.
    run(
        "pytest python/tests",
        Command::new(&python)
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp"])
            .arg(target.join("pytest-tmp"))
            .arg(root.join("python/tests"))
            .current_dir(&target)
            .env("CARDSIM_BIN", env!("CARGO_BIN_EXE_cardsim")),
    );
}
