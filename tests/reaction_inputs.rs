//! Implausible reaction parameters in a bot file stop a run before it starts: exit code
//! 2, one line on stderr naming the file and the field, and no output file.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

/// Writes an expert greedy Spit bot with this `[reaction]` table to its own temporary
/// directory, and runs 10 matches of it against `greedy@expert` with `--csv` into that
/// directory. Returns the directory, the bot file, the CSV path and the run's output.
fn run_bot(name: &str, reaction: &str) -> (common::Scratch, PathBuf, PathBuf, Output) {
    let dir = common::scratch("reaction", name);
    let bot = dir.join(format!("{name}.toml"));
    std::fs::write(&bot, format!("game = \"spit\"\nstrategy = \"greedy\"\npreset = \"expert\"\n[reaction]\n{reaction}\n")).unwrap();
    let csv = dir.join("out.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_cardsim"))
        .args(["match", "spit", "--bot", bot.to_str().unwrap(), "--bot", "greedy@expert", "--games", "10", "--quiet", "--csv", csv.to_str().unwrap()])
        .output()
        .expect("run cardsim");
    (dir, bot, csv, out)
}

/// Runs a bot with this `[reaction]` table and checks that it fails cleanly, naming
/// `reaction.FIELD`; returns stderr.
fn rejected(name: &str, reaction: &str, field: &str) -> String {
    let (dir, bot, _, out) = run_bot(name, reaction);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one-line error: {err}");
    assert!(err.contains(&format!("{}: reaction.{field}: ", bot.display())), "error {err:?} does not name the file and reaction.{field}");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).filter(|n| n != bot.file_name().unwrap()).collect();
    assert!(left.is_empty(), "a failed run left {left:?}");
    err
}

#[test]
fn a_huge_constant_time_is_rejected() {
    let err = rejected("huge", "look = { dist = \"constant\", ms = 1e300 }", "look.ms");
    assert!(err.contains("1e300 is not a plausible time"), "{err}");
}

#[test]
fn a_lognormal_mu_in_milliseconds_is_rejected() {
    let err = rejected("lnms", "look = { dist = \"shifted_lognormal\", shift = 0, mu = 280, sigma = 0.3 }", "look.mu");
    assert!(err.contains("log of milliseconds"), "{err}");
}

#[test]
fn nan_and_probabilities_of_one_are_rejected() {
    rejected("nan", "scan_per_item = nan", "scan_per_item");
    rejected("p1", "p_miss = 1", "p_miss");
}

#[test]
fn a_plausible_bot_file_runs() {
    let (_dir, _, csv, out) = run_bot("ok", "look = { dist = \"shifted_lognormal\", shift = 100, mu = 5.6, sigma = 0.3 }");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(csv.exists());
}
