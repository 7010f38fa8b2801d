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

#[test]
fn cycled_games_are_counted_apart_and_their_trace_says_so() {
    let path = std::env::temp_dir().join(format!("cardsim-lopti-cycled-{}.csv", std::process::id()));
    let p = path.to_str().unwrap();
    let (ok, _, err) = cardsim(&["match", "lopti", "--bot", "lowest", "--bot", "lowest", "--games", "4000", "--seed", "1", "--quiet", "--csv", p]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| row[header.iter().position(|h| *h == name).unwrap()].parse::<u64>().unwrap();
    assert!(col("cycled") > 0 && col("capped") == 0, "two lowest bots cycle now and then; never capped: {text}");
    // The first cycled match of the run: its end event names the repeated turn.
    let end = (0..2000)
        .map(|i| {
            let (ok, out, err) = cardsim(&["trace", "lopti", "--bot", "lowest", "--bot", "lowest", "--seed", "1", "--index", &i.to_string(), "--format", "jsonl"]);
            assert!(ok, "{err}");
            serde_json::from_str::<serde_json::Value>(out.lines().last().unwrap()).unwrap()
        })
        .find(|end| end["ending"] == "cycled")
        .expect("a cycled match among the first 2000");
    assert_eq!((&end["event"], &end["cycled"], &end["capped"], &end["winner"]), (&"end".into(), &true.into(), &false.into(), &serde_json::Value::Null));
    for field in ["turns", "pickups", "clears", "finish"] {
        assert!(!end[field].is_null(), "the end event keeps {field}");
    }
    assert!(end["repeat_of"].as_u64().unwrap() < end["turns"].as_u64().unwrap(), "{end}");
}
