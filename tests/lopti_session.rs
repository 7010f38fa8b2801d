//! `cardsim session lopti` as a user runs it: the CSV is byte-identical on 1 and 2
//! threads and for every order of `--bot`; the trace shows a whole session (rules made,
//! votes, every RPS throw) as text and JSON Lines; bad input is a one-line error with no
//! output file; rules from files are checked when loaded (LOPTI-MAKE-3).

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("the binary runs")
}

fn cardsim(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "cardsim {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn temp(tag: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("cardsim-lopti-session-{}-{tag}", std::process::id()))
}

/// The session CSV for `bots` in this order on `threads` threads.
fn csv(bots: &[&str], threads: &str, tag: &str) -> String {
    let path = temp(&format!("{tag}.csv"));
    let p = path.to_str().unwrap().to_string();
    let mut args = vec!["session", "lopti", "--rounds", "6", "--sessions", "48", "--seed", "3", "--quiet", "--threads", threads, "--csv", &p,
        "--set", "session.quick_rounds=120"];
    for b in bots {
        args.extend(["--bot", b]);
    }
    let out = cardsim(&args);
    assert!(out.contains("throughput:") && out.contains("rich get richer"), "{out}");
    let text = std::fs::read_to_string(&path).expect("the CSV was written");
    std::fs::remove_file(&path).ok();
    text
}

#[test]
fn the_csv_is_the_same_on_one_and_two_threads_and_for_every_order_of_bots() {
    let bots = ["lowest", "burner,voter=fair,rps=exploit", "random,maker=random", "lowest,rps=pattern"];
    let first = csv(&bots, "1", "a");
    assert_eq!(first, csv(&bots, "2", "b"), "1 and 2 threads");
    for (k, order) in [[3, 1, 0, 2], [2, 3, 1, 0], [1, 0, 3, 2]].iter().enumerate() {
        let b: Vec<&str> = order.iter().map(|&i| bots[i]).collect();
        assert_eq!(first, csv(&b, "2", &format!("o{k}")), "order {b:?}");
    }
    let header = first.lines().next().unwrap();
    assert_eq!(header, "game,bots,flags,seed,rounds,target_wins,sessions,section,subject,measure,value,ci_low,ci_high,count,total");
    assert!(first.contains("burner,voter=fair,rps=exploit vs lowest vs lowest,rps=pattern vs random,maker=random"), "bots sorted by label");
    for needle in [",bot,lowest,rounds_won,", ",bot,lowest,sessions_won,", ",all,all,win_after_win_lift,", ",rule,clear_gift,maker_effect,",
        ",rule,clear_gift,voted_away,", ",rule,straight_clear,rounds_in_force,", ",all,all,votes_tied,", ",all,all,ties_decided_by_rps,"] {
        assert!(first.contains(needle), "the CSV has {needle}");
    }
}

#[test]
fn a_session_trace_shows_rules_votes_and_every_rps_throw_as_text_and_jsonl() {
    let base = ["session", "lopti", "--bot", "lowest", "--bot", "burner", "--bot", "random", "--bot", "lowest,maker=random", "--rounds", "8", "--seed", "1",
        "--set", "session.quick_rounds=120"];
    // Find a session with a tie-break (most have one within 8 rounds).
    let (index, lines) = (0..20)
        .map(|i| {
            let mut a = base.to_vec();
            let i_text = i.to_string();
            a.extend(["--trace-index", &i_text, "--format", "jsonl"]);
            (i, cardsim(&a))
        })
        .find(|(_, out)| out.contains("\"rps_throw\""))
        .expect("a session with a tie-break");
    let events: Vec<serde_json::Value> = lines.lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect();
    let kinds: std::collections::BTreeSet<&str> = events.iter().map(|e| e["event"].as_str().unwrap()).collect();
    for k in ["session_start", "round_start", "deal", "turn", "play", "end", "round_end", "rule_made", "vote", "vote_result", "rps_throw", "rps_result", "session_end"] {
        assert!(kinds.contains(k), "the trace has {k} events: {kinds:?}");
    }
    assert_eq!(events[0]["event"], "session_start");
    assert_eq!(events[0]["index"], index);
    assert_eq!(events.last().unwrap()["event"], "session_end");
    assert_eq!(events.iter().filter(|e| e["event"] == "round_start").count(), 8);
    // Every throw is logged: the score of the last throw is the match result.
    let result = events.iter().find(|e| e["event"] == "rps_result").unwrap();
    let throws: Vec<&serde_json::Value> = events.iter().filter(|e| e["event"] == "rps_throw" && e["round"] == result["round"]).collect();
    assert_eq!(throws.last().unwrap()["score"], result["score"]);
    let decisive = throws.iter().filter(|t| t["decisive"] == true).count();
    assert!(decisive == 30 || decisive == 31, "LOPTI-RPS-2: 30 decisive throws (31 after 15-15)");
    // The text form of the same session.
    let mut a = base.to_vec();
    let i_text = index.to_string();
    a.extend(["--trace-index", &i_text]);
    let text = cardsim(&a);
    assert!(text.contains("Rule Vote:") && text.contains("RPS throw 1:") && text.contains("makes rule #1"), "{}", &text[..2000.min(text.len())]);
    assert_eq!(text.lines().count(), events.len(), "one line per event in both formats");
}

fn error_of(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "cardsim {args:?} fails");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    err
}

#[test]
fn bad_input_is_a_one_line_error_and_no_csv() {
    let path = temp("never.csv");
    let p = path.to_str().unwrap();
    let e = error_of(&["session", "lopti", "--bot", "lowest", "--bot", "clever", "--csv", p]);
    assert!(e.contains("unknown strategy 'clever'") && e.contains("lowest"), "{e}");
    let e = error_of(&["session", "lopti", "--bot", "lowest", "--bot", "burner,maker=greedy", "--csv", p]);
    assert!(e.contains("maker=greedy") && e.contains("selfish, random, none"), "{e}");
    let e = error_of(&["session", "lopti", "--bot", "lowest", "--bot", "burner,rps=spock"]);
    assert!(e.contains("uniform, biased, pattern, exploit"), "{e}");
    let e = error_of(&["session", "lopti", "--bot", "lowest", "--set", "lopti.rps_knockout=coin"]);
    assert!(e.contains("needs 2 to 5") || e.contains("select_representative|decide_dispute"), "{e}");
    let e = error_of(&["session", "lopti", "--bot", "lowest", "--bot", "burner", "--set", "lopti.rps_knockout=coin"]);
    assert!(e.contains("select_representative|decide_dispute"), "{e}");
    let e = error_of(&["session", "lopti", "--bot", "lowest", "--bot", "burner", "--rounds", "5", "--target-wins", "6"]);
    assert!(e.contains("--target-wins"), "{e}");
    let e = error_of(&["session", "spit", "--bot", "smart", "--bot", "greedy"]);
    assert!(e.contains("only lopti"), "{e}");
    // LOPTI-MAKE-3: "an 8 makes the next player skip its draw" is rejected when loaded.
    let rules = temp("rules.toml");
    std::fs::write(&rules, "[[rule]]\nid = \"eight_skips_draw\"\ntext = \"An 8 makes the next player skip its draw.\"\n[[rule.hook]]\nwhen = \"after\"\nevent = \"PLAY\"\nif = [{ rank = [\"8\"] }]\ndo = [{ skip_draw = { who = \"next\" } }]\n").unwrap();
    let r = rules.to_str().unwrap();
    let e = error_of(&["session", "lopti", "--bot", "lowest", "--bot", "burner", "--rules", r, "--csv", p]);
    assert!(e.contains("eight_skips_draw") && e.contains("LOPTI-MAKE-3") && e.contains("rules.toml"), "{e}");
    assert!(!path.exists(), "no CSV after an error");
    // A valid rule from a file joins the catalog.
    std::fs::write(&rules, "[[rule]]\nid = \"ace_tax\"\ntext = \"After an ace, the next player draws one card.\"\n[[rule.hook]]\nwhen = \"after\"\nevent = \"PLAY\"\nif = [{ rank = [\"A\"] }]\ndo = [{ draw = { who = \"next\", cards = 1 } }]\n").unwrap();
    let out = cardsim(&["session", "lopti", "--list-rules", "--rules", r]);
    assert!(out.contains("ace_tax") && out.contains("clear_gift") && out.contains("lopti.rps_knockout=select_representative"), "{out}");
    let out = cardsim(&["session", "lopti", "--bot", "lowest", "--bot", "burner,maker=random", "--rules", r, "--rounds", "4", "--sessions", "4", "--quiet",
        "--set", "session.quick_rounds=50"]);
    assert!(out.contains("ace_tax"), "{out}");
    std::fs::remove_file(&rules).ok();
}
