//! `cardsim sprt` as a user meets it: a verdict line, results that depend only on the
//! seed, and one-line errors for impossible parameters.

use std::process::{Command, Output};

fn cardsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("run cardsim")
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn a_clearly_stronger_bot_is_accepted_and_the_run_depends_only_on_the_seed() {
    let args = |threads: &'static str| ["sprt", "speed", "--bot", "smart@expert", "--bot", "random@expert", "--elo0", "0", "--elo1", "10", "--seed", "3", "--threads", threads];
    let one = stdout(&cardsim(&args("1")));
    let two = stdout(&cardsim(&args("2")));
    assert_eq!(one, two, "thread count changed the test");
    let last = one.lines().last().unwrap();
    assert!(last.starts_with("SPRT: H1 accepted after "), "{last}");
    assert!(last.contains("biased"), "an early stop says its estimate is biased: {last}");
    assert!(one.lines().any(|l| l.starts_with("games ") && l.contains("LLR")), "progress lines show the LLR");
}

#[test]
fn the_order_of_the_bots_sets_which_one_is_a() {
    let out = stdout(&cardsim(&["sprt", "speed", "--bot", "random@expert", "--bot", "smart@expert", "--elo0", "0", "--elo1", "10", "--seed", "3"]));
    assert!(out.lines().last().unwrap().starts_with("SPRT: H0 accepted"), "{out}");
}

#[test]
fn max_games_ends_without_a_decision() {
    let out = stdout(&cardsim(&["sprt", "spit", "--bot", "greedy@expert", "--bot", "greedy@expert", "--elo0", "-5", "--elo1", "5", "--max-games", "200"]));
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("SPRT: no decision after 200 games (100 deals)"), "{last}");
}

#[test]
fn impossible_parameters_get_one_line_errors() {
    for (args, needle) in [
        (vec!["--elo0", "10", "--elo1", "0"], "must be less than elo1"),
        (vec!["--elo0", "0", "--elo1", "10", "--alpha", "0"], "alpha (0) must be between 0 and 1"),
        (vec!["--elo0", "0", "--elo1", "10", "--model", "bayes"], "bayes"),
        (vec!["--elo0", "0", "--elo1", "10", "--max-games", "1"], "--max-games must be at least 2"),
        (vec!["--elo0", "0", "--elo1", "10", "--bot", "random"], "exactly 2 --bot"),
    ] {
        let mut all = vec!["sprt", "spit", "--bot", "greedy", "--bot", "smart"];
        all.extend(args);
        let out = cardsim(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{all:?}: {err}");
    }
}
