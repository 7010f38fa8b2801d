//! `cardsim legal lopti`: every worked example of lopti.md §18 that concerns the base
//! game, answered by the binary, and the errors for impossible positions.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `cardsim legal lopti --position -` on `json`; returns (success, stdout, stderr).
fn legal(json: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardsim"))
        .args(["legal", "lopti", "--position", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(json.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// A position with the given JSON fields added to the defaults below.
fn position(fields: &str) -> String {
    let mut obj: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(r#"{"players": 3, "face_up": [], "face_down": 3, "hand": [], "pile": [], "draw_pile": 5}"#).unwrap();
    let extra: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&format!("{{{fields}}}")).unwrap();
    obj.extend(extra);
    serde_json::Value::Object(obj).to_string()
}

fn check(id: &str, fields: &str, expected: &[&str]) {
    let (ok, out, err) = legal(&position(fields));
    assert!(ok, "{id}: failed: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, expected, "{id}: {fields}");
}

#[test]
fn basic_play_and_four_of_a_kind_lopti_ex_1_to_4() {
    check(
        "LOPTI-EX-1",
        r#""pile": [["5"], ["8","8"]], "hand": ["8","8","9","J","4","6","2","3","7","10","5"]"#,
        &["play 2 x1", "play 3 x1", "play 7 x1", "play 8 x2", "play 9 x1", "play 10 x1", "play J x1", "pickup"],
    );
    check("LOPTI-EX-2", r#""pile": [["4"], ["4","4"]], "hand": ["4","9"]"#, &["play 4 x1", "play 9 x1", "pickup"]);
    check("LOPTI-EX-2", r#""pile": [["4"]], "hand": ["4","4","K"]"#, &["play 4 x2", "play K x1", "pickup"]);
    check("LOPTI-EX-3", r#""pile": [["9","9","9"], ["K"]], "hand": ["9","A"]"#, &["play A x1", "pickup"]);
    check("LOPTI-EX-4", r#""pile": [["4"], ["6","6"]], "hand": ["6","6","5"]"#, &["play 6 x2", "pickup"]);
}

#[test]
fn seven_low_rule_lopti_ex_5_to_9() {
    let ex5 = r#""pile": [["Q"], ["7"]], "hand": ["2","3","4","5","6","6","6","6","7","7","7","8","8","8","8","10","K"]"#;
    check(
        "LOPTI-EX-5",
        ex5,
        &["play 2 x1", "play 3 x1", "play 4 x1", "play 5 x1", "play 6 x1", "play 6 x2", "play 6 x3", "play 6 x4", "play 7 x2", "play 7 x3", "pickup"],
    );
    check(
        "LOPTI-EX-5 seven_on_seven=free",
        &format!(r#"{ex5}, "rules": {{"seven_on_seven": "free"}}"#),
        &["play 2 x1", "play 3 x1", "play 4 x1", "play 5 x1", "play 6 x1", "play 6 x2", "play 6 x3", "play 6 x4", "play 7 x1", "play 7 x2", "play 7 x3", "pickup"],
    );
    check(
        "LOPTI-EX-6",
        r#""pile": [["7"], ["5"]], "hand": ["4","6","8","A","2","10","5","5"]"#,
        &["play 2 x1", "play 5 x2", "play 6 x1", "play 8 x1", "play 10 x1", "play A x1", "pickup"],
    );
    check("LOPTI-EX-7", r#""pile": [["7"], ["5"], ["7"]], "hand": ["8","6","4","K"]"#, &["play 4 x1", "play 6 x1", "pickup"]);
    check("LOPTI-EX-8", r#""pile": [["7"], ["7","7"]], "hand": ["7","K"]"#, &["play 7 x1", "pickup"]);
    check("LOPTI-EX-9", r#""pile": [["7"], ["2"]], "hand": ["K"]"#, &["play K x1", "pickup"]);
}

#[test]
fn twos_and_tens_lopti_ex_10_to_14() {
    check("LOPTI-EX-10", r#""pile": [["Q"], ["2"]], "hand": ["2","2","4","10"]"#, &["play 2 x2", "play 4 x1", "play 10 x1", "pickup"]);
    check("LOPTI-EX-11", r#""pile": [["Q"], ["2"], ["2","2"]], "hand": ["2"]"#, &["play 2 x1", "pickup"]);
    check("LOPTI-EX-12", r#""pile": [["K"]], "run3": 1, "obligation": true, "hand": ["2","7","10","3"]"#, &["play 3 x1", "pickup"]);
    check("LOPTI-EX-13", r#""pile": [["A"]], "hand": ["10"]"#, &["play 10 x1", "pickup"]);
    check("LOPTI-EX-13", r#""pile": [["7"]], "hand": ["10"]"#, &["pickup"]);
    check("LOPTI-EX-13", r#""hand": ["10"]"#, &["play 10 x1"]);
    check("LOPTI-EX-14", r#""pile": [["A"]], "hand": ["10","10","6"], "draw_pile": 0"#, &["play 10 x1", "play 10 x2", "pickup"]);
    check("LOPTI-EX-14", r#""bonus": true, "hand": ["10","6"], "draw_pile": 0"#, &["play 6 x1", "play 10 x1"]);
}

#[test]
fn obligation_chains_lopti_ex_15_to_19() {
    check("LOPTI-EX-15", r#""pile": [["9"], ["Q"]], "run3": 1, "obligation": true, "hand": ["3","3","K"]"#, &["play 3 x1", "play 3 x2", "pickup"]);
    check("LOPTI-EX-15", r#""pile": [["9"], ["Q"]], "run3": 3, "obligation": true, "hand": ["3","A"]"#, &["play 3 x1", "pickup"]);
    check("LOPTI-EX-16", r#""pile": [["K"]], "run3": 1, "obligation": true, "hand": ["10","2","7","K"]"#, &["pickup"]);
    check("LOPTI-EX-17", r#""pile": [["7"]], "run3": 1, "obligation": true, "hand": ["3","4","K"]"#, &["play 3 x1", "pickup"]);
    check("LOPTI-EX-18", r#""run3": 1, "hand": ["3","3","K"]"#, &["play 3 x1", "play 3 x2", "play K x1"]);
    check("LOPTI-EX-18", r#""run3": 3, "hand": ["3","K"]"#, &["play 3 x1", "play K x1"]);
    check("LOPTI-EX-19", r#""run3": 2, "hand": ["8"]"#, &["play 8 x1"]);
}

#[test]
fn draws_and_takeover_lopti_ex_20_to_23() {
    check("LOPTI-EX-20", r#""pile": [["8"]], "hand": ["5","9","K"]"#, &["play 9 x1", "play K x1", "pickup"]);
    check(
        "LOPTI-EX-21",
        r#""pile": [["8"]], "hand": ["9","9","9","K","A"]"#,
        &["play 9 x1", "play 9 x2", "play 9 x3", "play K x1", "play A x1", "pickup"],
    );
    check("LOPTI-EX-22", r#""pile": [["K"]], "hand": ["10"], "face_up": ["Q","Q","4"], "draw_pile": 0"#, &["play 10 x1", "pickup"]);
    check("LOPTI-EX-22", r#""bonus": true, "face_up": ["Q","Q","4"], "draw_pile": 0"#, &["play 4 x1", "play Q x1", "play Q x2"]);
    check("LOPTI-EX-23", r#""bonus": true, "hand": ["5"], "face_up": ["Q","Q","4"]"#, &["play 5 x1"]);
}

#[test]
fn face_down_play_lopti_ex_24_to_26() {
    check("LOPTI-EX-24", r#""pile": [["K"]], "face_down": 2"#, &["blind"]);
    check("LOPTI-EX-25", r#""pile": [["J"]], "run3": 1, "obligation": true, "face_down": 2"#, &["blind"]);
    check(
        "LOPTI-EX-25 (c)",
        r#""pile": [["J"]], "run3": 1, "obligation": true, "face_down": 2, "rules": {"facedown_may_pickup": true}"#,
        &["blind", "pickup"],
    );
    check("LOPTI-EX-26", r#""bonus": true, "face_down": 2"#, &["blind"]);
}

#[test]
fn going_out_and_other_lopti_ex_27_to_31() {
    check("LOPTI-EX-27", r#""pile": [["9"], ["J"]], "face_down": 1"#, &["blind"]);
    check("LOPTI-EX-28", r#""pile": [["7"]], "face_down": 1"#, &["blind"]);
    check("LOPTI-EX-28", r#""pile": [["7"]], "hand": ["7", "10"], "face_down": 0"#, &["pickup"]);
    check("LOPTI-EX-29", r#""pile": [["Q"], ["Q","Q"]], "face_down": 1"#, &["blind"]);
    check("LOPTI-EX-30", r#""pile": [["K"]], "run3": 1, "obligation": true, "hand": ["7","3"]"#, &["play 3 x1", "pickup"]);
    check("LOPTI-EX-30", r#""pile": [["K"], ["7"]], "hand": ["8","5"]"#, &["play 5 x1", "pickup"]);
    check("LOPTI-EX-31", r#""pile": [["K"]], "hand": ["A"]"#, &["play A x1", "pickup"]);
    check("bonus_optional", r#""bonus": true, "hand": ["A"], "rules": {"bonus_optional": "true"}"#, &["play A x1", "pass"]);
}

#[test]
fn the_issue_example_and_a_file_argument() {
    let json = r#"{"players": 3, "hand": ["9","9","K"], "face_up": ["4","J","A"], "face_down": 3,
        "pile": [["9"], ["Q","Q"]], "run3": 0, "obligation": false, "draw_pile": 10,
        "rules": {"seven_on_seven": "equal_more"}}"#;
    let path = std::env::temp_dir().join(format!("lopti-position-{}.json", std::process::id()));
    std::fs::write(&path, json).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(["legal", "lopti", "--position"]).arg(&path).output().unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "play K x1\npickup\n");
}

#[test]
fn impossible_positions_name_the_field() {
    let cases = [
        (r#""pile": [["9"], ["3"]], "hand": ["K"]"#, "pile[1]:"),
        (r#""pile": [["10"]], "hand": ["K"]"#, "pile[0]:"),
        (r#""pile": [["K"], ["5"]], "hand": ["A"]"#, "pile[1]: {5} cannot be played on [K]"),
        (r#""pile": [["6","6"], ["6","6"]], "hand": ["A"]"#, "pile[1]:"),
        (r#""pile": [["9","9"]], "hand": ["9","9","9"]"#, "hand: with face_up and pile, more than four 9s"),
        (r#""hand": ["9","9","9","9","9"]"#, "hand: more than four 9s"),
        (r#""hand": ["K"], "obligation": true, "run3": 1"#, "obligation:"),
        (r#""hand": ["K"], "pile": [["9"]], "obligation": true"#, "obligation:"),
        (r#""hand": ["K"], "pile": [["9"]], "run3": 2"#, "obligation:"),
        (r#""hand": ["K"], "run3": 4"#, "run3:"),
        (r#""hand": ["3","3"], "run3": 3"#, "run3:"),
        (r#""hand": ["K"], "face_up": ["4","5"]"#, "face_up:"),
        (r#""hand": ["K"], "face_up": ["4","5","6"], "face_down": 2"#, "face_down:"),
        (r#""face_down": 0"#, "hand:"),
        (r#""hand": ["Z"]"#, "hand[0]:"),
        (r#""hand": "K""#, "hand:"),
        (r#""hand": ["K"], "players": 6"#, "players: expected a whole number from 2 to 5, got 6"),
        (r#""hand": ["K"], "players": 1"#, "players: expected a whole number from 2 to 5, got 1"),
        (r#""hand": ["K"], "draw_pile": 26"#, "draw_pile:"),
        (r#""hand": ["K"], "bonus": true, "pile": [["9"]]"#, "bonus:"),
        (r#""hand": ["K"], "colour": "red""#, "colour: unknown field"),
        (r#""hand": ["K"], "rules": {"sevens": "free"}"#, "rules.sevens: unknown rule"),
        (r#""hand": ["K"], "rules": {"seven_on_seven": "often"}"#, "rules.seven_on_seven: invalid value"),
    ];
    for (fields, expected) in cases {
        let (ok, out, err) = legal(&position(fields));
        assert!(!ok && out.is_empty(), "{fields}: should be rejected, printed {out}");
        assert_eq!(err.lines().count(), 1, "{fields}: one-line error, got {err}");
        assert!(err.starts_with("error: ") && err.contains(expected), "{fields}: expected '{expected}' in {err}");
    }
    let (ok, _, err) = legal("{\"players\": 3,");
    assert!(!ok && err.contains("position: invalid JSON"), "{err}");
    let (ok, _, err) = legal(r#"{"players": 3, "hand": ["K"], "face_up": [], "face_down": 3}"#);
    assert!(!ok && err.contains("pile: missing"), "{err}");
}
