//! The command line as a user meets it: reproducible CSV, clear one-line errors, traces.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

fn cardsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("run cardsim")
}

/// A path in this test's scratch folder, removed when the test ends.
fn tmp(name: &str) -> PathBuf {
    common::test_path("cli", name)
}

fn run_csv(game: &str, bots: &[&str], seed: &str, threads: &str, name: &str, extra: &[&str]) -> String {
    let path = tmp(name);
    let mut args = vec!["match", game, "--games", "400", "--seed", seed, "--threads", threads, "--quiet", "--csv", path.to_str().unwrap()];
    for b in bots {
        args.extend(["--bot", b]);
    }
    args.extend(extra);
    let out = cardsim(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn same_seed_gives_identical_csv_on_one_and_two_threads() {
    let bots = ["smart@expert", "random@novice"];
    let one = run_csv("spit", &bots, "7", "1", "t1.csv", &["--set", "spit.num_stockpiles=4"]);
    let two = run_csv("spit", &bots, "7", "2", "t2.csv", &["--set", "spit.num_stockpiles=4"]);
    assert_eq!(one, two, "thread count changed the CSV");
    let other = run_csv("spit", &bots, "8", "2", "t3.csv", &["--set", "spit.num_stockpiles=4"]);
    assert_ne!(one, other, "a different seed gave the same CSV");
}

#[test]
fn csv_has_the_documented_columns_and_one_row_per_bot_and_seat() {
    let csv = run_csv("spit", &["greedy", "smart"], "1", "2", "cols.csv", &[]);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for col in ["game", "bot", "seat", "games", "wins", "win_rate", "win_ci_low", "win_ci_high", "deals_all_won", "deals_split", "deals_none_won", "capped", "rounds_mean", "actions_p90", "seconds_p99", "seconds_max"] {
        assert!(header.contains(&col), "missing column {col}");
    }
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 8, "2 bots × (all + 2 seats) + 2 pooled seat rows");
    let games = header.iter().position(|&h| h == "games").unwrap();
    let seat = header.iter().position(|&h| h == "seat").unwrap();
    assert_eq!(rows[0][seat], "all");
    assert_eq!(rows[0][games], "400");
    assert_eq!(rows[1][games], "200", "each seat gets half the matches with seat swapping");
}

fn assert_one_line_error(out: &Output, needle: &str) {
    assert!(!out.status.success(), "expected failure");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "error is one line: {err}");
    assert!(err.contains(needle), "error {err:?} does not mention {needle:?}");
}

#[test]
fn bad_input_gets_a_one_line_error_and_no_output_file() {
    let path = tmp("never.csv");
    let p = path.to_str().unwrap();
    assert_one_line_error(&cardsim(&["match", "spit", "--bot", "clever", "--bot", "greedy", "--csv", p]), "known strategies: random, greedy, smart");
    assert_one_line_error(&cardsim(&["match", "spit", "--bot", "smart@turbo", "--bot", "greedy", "--csv", p]), "known presets: novice");
    assert_one_line_error(&cardsim(&["match", "spit", "--set", "spit.colour=red", "--csv", p]), "valid flags: spit.num_stockpiles");
    assert_one_line_error(&cardsim(&["match", "spit", "--set", "spit.num_stockpiles=3", "--csv", p]), "valid values: 5|4");
    assert_one_line_error(&cardsim(&["match", "chess", "--csv", p]), "known games: spit");
    assert_one_line_error(&cardsim(&["match", "spit", "--bot", "smart", "--csv", p]), "exactly 2 --bot");
    assert_one_line_error(&cardsim(&["match", "spit", "--games", "0", "--csv", p]), "--games must be at least 1");
    assert_one_line_error(&cardsim(&["match", "spit", "--seed", "x", "--csv", p]), "invalid value 'x' for '--seed <SEED>'");
    assert_one_line_error(&cardsim(&["match", "--csv", p]), "required arguments were not provided: <GAME>");
    assert_one_line_error(&cardsim(&["trace", "spit", "--format", "xml"]), "possible values: text, jsonl");
    assert!(!path.exists(), "a failed run left an output file");
    let missing = tmp("no/such/dir/out.csv");
    assert_one_line_error(&cardsim(&["match", "spit", "--games", "10", "--quiet", "--csv", missing.to_str().unwrap()]), "does not exist");
}

#[test]
fn trace_jsonl_is_one_json_object_per_line_and_replays_the_match() {
    let out = cardsim(&["trace", "spit", "--bot", "smart@expert", "--bot", "greedy@casual", "--seed", "5", "--index", "3", "--format", "jsonl"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let events: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("valid JSON line")).collect();
    assert_eq!(events[0]["event"], "match_start");
    assert_eq!(events[0]["game"], "spit");
    assert_eq!(events[0]["seed"], 5);
    assert_eq!(events[0]["index"], 3);
    assert_eq!(events[0]["flags"]["spit.num_stockpiles"], "5");
    assert_eq!(events[0]["seats"].as_array().unwrap().len(), 2);
    assert_eq!(events[1]["event"], "deal");
    assert_eq!(events.last().unwrap()["event"], "match_end");
    let kinds: std::collections::HashSet<&str> = events.iter().map(|e| e["event"].as_str().unwrap()).collect();
    for k in ["opening", "start", "play", "flip", "spit", "round_end", "slap", "collect"] {
        assert!(kinds.contains(k), "no {k} event in the trace");
    }
    let times: Vec<f64> = events.iter().filter_map(|e| e["t"].as_f64()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1] + 1.0), "events roughly in time order");
    let again = cardsim(&["trace", "spit", "--bot", "smart@expert", "--bot", "greedy@casual", "--seed", "5", "--index", "3", "--format", "jsonl"]);
    assert_eq!(text, String::from_utf8(again.stdout).unwrap(), "a trace is reproducible");
}

#[test]
fn trace_replays_the_match_the_run_counted() {
    // Match I of a run is deal I / 2 under rotation I % 2; with --no-swap match I is deal I.
    // For several single-match runs, the trace's winner is the run's winner.
    for seed in ["11", "12", "13"] {
        let path = tmp(&format!("single-{seed}.csv"));
        let out = cardsim(&["match", "spit", "--bot", "smart", "--bot", "random@novice", "--games", "1", "--no-swap", "--seed", seed, "--quiet", "--csv", path.to_str().unwrap()]);
        assert!(out.status.success());
        let csv = std::fs::read_to_string(&path).unwrap();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let wins = header.iter().position(|&h| h == "wins").unwrap();
        let bot0_won = csv.lines().nth(1).unwrap().split(',').nth(wins).unwrap() == "1";
        let trace = cardsim(&["trace", "spit", "--bot", "smart", "--bot", "random@novice", "--seed", seed, "--index", "0", "--no-swap", "--format", "jsonl"]);
        let text = String::from_utf8(trace.stdout).unwrap();
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(last["winner"] == 0, bot0_won, "seed {seed}: trace and run disagree");
    }
}

#[test]
fn list_shows_games_strategies_presets_and_flags() {
    let out = cardsim(&["list"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in ["spit", "smart", "expert", "spit.num_stockpiles=5", "spit.points_round_mode=carry_over_unplayed", "sim.max_actions"] {
        assert!(text.contains(needle), "cardsim list lacks {needle}");
    }
}

#[test]
fn experiment_file_runs_every_matchup_into_one_summary() {
    let exp = tmp("exp.toml");
    std::fs::write(&exp, "description = \"test\"\ngame = \"spit\"\nseed = 3\ngames = 50\n[[matchup]]\nbots = [\"smart\", \"greedy\"]\n[[matchup]]\nbots = [\"greedy@expert\", \"random\"]\nset = [\"spit.num_stockpiles=4\"]\n").unwrap();
    let dir = tmp("exp-out");
    let _ = std::fs::remove_dir_all(&dir);
    let out = cardsim(&["run", exp.to_str().unwrap(), "--quiet", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    assert_eq!(text.lines().count(), 1 + 2 * 8, "header + 8 rows per matchup");
    assert!(text.contains("spit.num_stockpiles=4"), "the matchup's flags are recorded");
    std::fs::write(&exp, "description = \"bad\"\ngame = \"spit\"\nseed = 3\ngames = 50\n[[matchup]]\nbots = [\"smart\", \"clever\"]\n").unwrap();
    assert_one_line_error(&cardsim(&["run", exp.to_str().unwrap(), "--quiet", "--out", dir.to_str().unwrap()]), "exp.toml: table 1 (smart vs clever): --bot clever: unknown strategy");
    std::fs::write(&exp, "description = \"bad\"\ngame = \"spit\"\nseed = \"x\"\n").unwrap();
    assert_one_line_error(&cardsim(&["run", exp.to_str().unwrap()]), "line 3");
}
