//! Ctrl-C: a run stops at the next deal boundary, prints what finished marked partial,
//! writes no result file and exits with 130; an interrupted experiment resumes from
//! its checkpoint and ends with the same bytes as an uninterrupted run.

#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

fn scratch(name: &str) -> common::Scratch {
    common::scratch("int", name)
}

/// Starts cardsim held at `step` (`playing`, or `checkpoint`: the first unit is saved;
/// see `cardsim::faults`), sends SIGINT there, waits for the handler's word on stderr,
/// lets it go on, and returns (exit code, stdout, stderr). Every wait is on an event.
fn interrupted(args: &[&str], step: &str) -> (Option<i32>, String, String) {
    use std::io::{BufRead, Read, Write};
    let fifo = std::env::temp_dir().join(format!("cardsim-int-hold-{}-{step}", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardsim"))
        .args(args)
        .env("CARDSIM_FAULT_HOLD_AT", step)
        .env("CARDSIM_FAULT_HOLD_FIFO", &fifo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Opening the pipe returns once cardsim has opened it: it is held at the step.
    let mut hold = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("interrupted: finishing") {
        let mut line = String::new();
        assert!(err.read_line(&mut line).unwrap() > 0, "stderr closed before the handler spoke: {seen}");
        seen += &line;
    }
    hold.write_all(b"go").unwrap();
    drop(hold);
    err.read_to_string(&mut seen).unwrap();
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(&fifo);
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), seen)
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).map(|p| (p.file_name().unwrap().to_str().unwrap().to_string(), std::fs::read(&p).unwrap())).collect();
    v.sort();
    v
}

#[test]
fn ctrl_c_prints_a_partial_summary_writes_nothing_and_exits_130() {
    let dir = scratch("match");
    let csv = dir.join("out.csv");
    let (code, out, _) = interrupted(&["match", "spit", "--games", "100000000", "--quiet", "--csv", csv.to_str().unwrap()], "playing");
    assert_eq!(code, Some(130), "{out}");
    assert!(out.contains("PARTIAL RESULTS (interrupted)"), "{out}");
    assert!(out.contains("smart@skilled"), "the summary of what finished: {out}");
    assert!(!csv.exists(), "no CSV after an interrupted run");
}

#[test]
fn an_interrupted_experiment_resumes_to_the_same_bytes() {
    let root = scratch("resume");
    let file = root.join("long.toml");
    std::fs::write(&file, "description = \"l\"\ngame = \"spit\"\nseed = 9\ngames = 16000\n[[matchup]]\nbots = [\"smart@skilled\", \"greedy@skilled\"]\n[[matchup]]\nbots = [\"greedy@expert\", \"greedy@skilled\"]\n").unwrap();
    let (f, a, b) = (file.to_str().unwrap(), root.join("a"), root.join("b"));
    let (code, out, err) = interrupted(&["run", f, "--out", a.to_str().unwrap(), "--quiet"], "checkpoint");
    assert_eq!(code, Some(130), "{out} {err}");
    assert!(out.contains("PARTIAL RESULTS"), "{out}");
    assert!(!a.join("summary.csv").exists(), "no result file");
    assert!(a.join(".resume-1-of-1.json").exists(), "a checkpoint: {err}");
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let note = run(&["run", f, "--out", a.to_str().unwrap(), "--quiet", "--resume"]);
    assert!(note.contains("resuming"), "{note}");
    assert!(!a.join(".resume-1-of-1.json").exists(), "the checkpoint goes when the run completes");
    run(&["run", f, "--out", b.to_str().unwrap(), "--quiet"]);
    assert_eq!(files(&a), files(&b), "resumed and uninterrupted runs differ");
    let o = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(["run", f, "--out", b.to_str().unwrap(), "--resume"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no interrupted run"));
}
