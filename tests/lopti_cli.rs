//! `cardsim match lopti`, `cardsim trace lopti` and `cardsim list` from the command line.

use std::process::Command;

fn cardsim(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("the binary runs");
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn match_prints_per_seat_rows_and_the_lopti_metrics() {
    let (ok, out, err) = cardsim(&["match", "lopti", "--bot", "lowest", "--bot", "mcts", "--bot", "random", "--games", "30", "--quiet", "--set", "lopti.mcts_iterations=10"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("lopti | lowest vs mcts vs random | seed 1 | lopti.mcts_iterations=10"), "{out}");
    for needle in ["mcts     0", "turns: mean", "pickups: mean", "clears: mean", "capped: 0"] {
        assert!(out.contains(needle), "missing {needle} in {out}");
    }
    let (ok, _, err) = cardsim(&["match", "lopti", "--bot", "lowest", "--bot", "lowest@expert"]);
    assert!(!ok && err.contains("turn-based"), "{err}");
    let (ok, _, err) = cardsim(&["match", "lopti", "--bot", "lowest", "--set", "lopti.seven_on_seven=x"]);
    assert!(!ok && err.lines().count() == 1, "{err}");
}

#[test]
fn trace_jsonl_is_one_documented_object_per_line_and_repeatable() {
    let args = ["trace", "lopti", "--bot", "burner", "--bot", "random", "--index", "3", "--format", "jsonl"];
    let (ok, out, err) = cardsim(&args);
    assert!(ok, "{err}");
    let kinds = ["match_start", "deal", "swap", "turn", "takeover", "reveal", "play", "obligation", "clear", "bonus", "pass", "draw", "pickup", "out", "end"];
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON object per line");
        let kind = v["event"].as_str().expect("an event kind");
        assert!(kinds.contains(&kind), "undocumented event {kind}");
    }
    assert!(out.lines().last().unwrap().contains("\"event\":\"end\""));
    assert_eq!(cardsim(&args).1, out, "the same index gives the same trace");
    let (ok, text, _) = cardsim(&["trace", "lopti", "--bot", "burner", "--bot", "random", "--index", "3"]);
    assert!(ok && text.lines().count() == out.lines().count(), "text and JSON Lines log the same events");
}

#[test]
fn list_shows_lopti_flags_and_strategies() {
    let (ok, out, _) = cardsim(&["list"]);
    assert!(ok);
    for needle in ["lopti (turn-based; 2-5 players)", "mcts", "lopti.seven_on_seven=equal_more", "sim.max_actions=200000", "turns "] {
        assert!(out.contains(needle), "missing {needle}");
    }
}
