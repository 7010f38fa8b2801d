//! `cardsim fit-rt` as a user meets it: times drawn with cardsim's own distributions are
//! fitted back (estimates and intervals around the truth), the written bot file loads and
//! plays a match, and every bad input is a one-line error with exit code 2 that writes
//! nothing.

mod common;

use cardsim::reaction::Dist;
use cardsim::rng::rng_from;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cardsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("run cardsim")
}

/// A path in this test's scratch folder, removed when the test ends.
fn tmp(name: &str) -> PathBuf {
    common::test_path("fit-rt", name)
}

fn draws(d: Dist, n: usize, seed: u64) -> Vec<f64> {
    let mut rng = rng_from(seed);
    (0..n).map(|_| d.sample(&mut rng)).collect()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The printed estimate and 95 % interval of `param` in the section of `family`.
fn estimate(out: &str, family: &str, param: &str) -> (f64, f64, f64) {
    let section = out.split("\n\n").find(|b| b.starts_with(&format!("{family}:"))).unwrap_or_else(|| panic!("no {family} section in {out}"));
    let line = section.lines().find(|l| l.trim_start().starts_with(&format!("{param} "))).unwrap_or_else(|| panic!("no {param} in {section}"));
    let nums: Vec<f64> = line.split(|c: char| c.is_whitespace() || "[],".contains(c)).filter_map(|w| w.parse().ok()).collect();
    (nums[0], nums[1], nums[2])
}

/// Runs the fit and checks each parameter of `family`: the interval covers the truth,
/// and the estimate is within 3 standard errors (interval half-width / 1.96; for the
/// log-scale intervals of sigma and tau, the larger half).
fn check_recovered(out: &str, family: &str, truth: &[(&str, f64)]) {
    for &(param, want) in truth {
        let (est, lo, hi) = estimate(out, family, param);
        let se = (hi - est).max(est - lo) / 1.96;
        println!("{family} {param}: true {want}, estimate {est} [{lo}, {hi}]");
        assert!(lo < want && want < hi, "{family} {param}: [{lo}, {hi}] misses {want}\n{out}");
        assert!((est - want).abs() < 3.0 * se, "{family} {param}: {est} vs {want}, SE {se}");
    }
}

#[test]
fn fits_an_ex_gaussian_and_the_written_bot_plays_spit() {
    let truth = Dist::ExGaussian { mu: 900.0, sigma: 80.0, tau: 250.0, floor: 0.0 };
    let times = tmp("eg.txt");
    let text: String = draws(truth, 5_000, 2024).iter().map(|x| format!("{x:.3}\n")).collect();
    std::fs::write(&times, text).unwrap();
    let bot = tmp("fitted.toml");
    let o = cardsim(&["fit-rt", s(&times), "--out", s(&bot)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    check_recovered(&out, "ex-Gaussian", &[("mu", 900.0), ("sigma", 80.0), ("tau", 250.0)]);
    for want in ["log-likelihood", "AIC", "Kolmogorov-Smirnov D = ", "approximate", "Better fit by AIC: ex-Gaussian", "shifted lognormal:", "profile likelihood 95%"] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    let file = std::fs::read_to_string(&bot).unwrap();
    for want in ["game = \"spit\"", "strategy = \"smart\"", "preset = \"skilled\"", "label = \"fitted\"", "dist = \"ex_gaussian\"", "hick_b = 0", "p_miss = 0"] {
        assert!(file.contains(want), "missing {want:?} in\n{file}");
    }
    let o = cardsim(&["match", "spit", "--bot", s(&bot), "--bot", "greedy", "--games", "20", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("fitted"), "{}", stdout(&o));
}

#[test]
fn fits_a_shifted_lognormal_column_with_a_chosen_strategy() {
    let truth = Dist::ShiftedLognormal { shift: 600.0, mu: 6.0, sigma: 0.5 };
    let times = tmp("ln.csv");
    let rows: String = draws(truth, 5_000, 7).iter().enumerate().map(|(i, x)| format!("{i},{x:.4},spit\n")).collect();
    std::fs::write(&times, format!("trial,move_ms,game\n{rows}")).unwrap();
    let bot = tmp("slow.toml");
    let o = cardsim(&["fit-rt", s(&times), "--column", "move_ms", "--out", s(&bot), "--strategy", "greedy"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("column 'move_ms'") && out.contains("Better fit by AIC: shifted lognormal"), "{out}");
    check_recovered(&out, "shifted lognormal", &[("shift", 600.0), ("mu", 6.0), ("sigma", 0.5)]);
    let file = std::fs::read_to_string(&bot).unwrap();
    assert!(file.contains("strategy = \"greedy\"") && file.contains("dist = \"shifted_lognormal\""), "{file}");
    let o = cardsim(&["match", "spit", "--bot", s(&bot), "--bot", "smart", "--games", "20", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn help_says_what_the_times_stand_for() {
    let o = cardsim(&["fit-rt", "--help"]);
    let help = stdout(&o);
    assert!(o.status.success());
    for want in ["What the times stand for", "whole action time", "--column", "--strategy", "--out", "profile likelihood 95%", "Pace in play", "nearest in play"] {
        assert!(help.contains(want), "missing {want:?} in\n{help}");
    }
}

/// A bad input: exit code 2, one line `error: …` containing `want`, nothing on stdout
/// (no fit was printed) and no bot file.
fn rejected(args: &[&str], want: &str) {
    let bot = tmp("never.toml");
    let _ = std::fs::remove_file(&bot);
    let mut all = vec!["fit-rt"];
    all.extend(args);
    all.extend(["--out", s(&bot)]);
    let o = cardsim(&all);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: ") && err.trim_end().lines().count() == 1, "{args:?}: {err:?}");
    assert!(err.contains(want), "{args:?}: {err:?} lacks {want:?}");
    assert!(stdout(&o).is_empty(), "{args:?} printed {}", stdout(&o));
    assert!(!bot.exists(), "{args:?} wrote a bot file");
}

fn times_file(name: &str, text: &str) -> String {
    let p = tmp(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn good_lines(n: usize) -> String {
    (0..n).map(|i| format!("{}\n", 500 + 13 * (i % 17) + i)).collect()
}

#[test]
fn missing_file() {
    rejected(&["/no/such/times.csv"], "/no/such/times.csv: cannot read:");
}

#[test]
fn no_numbers() {
    let f = times_file("empty.csv", "");
    rejected(&[&f], &format!("{f}: no times found"));
    let f = times_file("header.csv", "ms\n");
    rejected(&[&f], &format!("{f}: no times found in column 'ms'"));
}

#[test]
fn non_numeric_line() {
    let f = times_file("word.csv", &format!("{}abc\n{}", good_lines(30), good_lines(5)));
    rejected(&[&f], &format!("{f}: line 31, field 1: 'abc' is not a number"));
}

#[test]
fn negative_zero_and_non_finite_times() {
    for (name, bad, want) in [("neg.csv", "-12", "-12 is not a positive time"), ("zero.csv", "0", "0 is not a positive time"), ("inf.csv", "inf", "'inf' is not a finite time"), ("nan.csv", "NaN", "'NaN' is not a finite time")] {
        let f = times_file(name, &format!("{}{bad}\n", good_lines(25)));
        rejected(&[&f], &format!("{f}: line 26, field 1: {want}"));
    }
}

#[test]
fn too_few_times() {
    let f = times_file("few.csv", &good_lines(12));
    rejected(&[&f], &format!("{f}: only 12 times; fitting needs at least 20"));
}

#[test]
fn named_column_missing() {
    let rows: String = (0..30).map(|i| format!("{i},{}\n", 400 + i)).collect();
    let f = times_file("cols.csv", &format!("trial,ms\n{rows}"));
    rejected(&[&f, "--column", "rt"], &format!("{f}: line 1: --column rt: no such column in the header (columns: 'trial', 'ms')"));
    rejected(&[&f], "the header has 2 columns ('trial', 'ms'); choose one with --column NAME");
    let f = times_file("cols-short.csv", &format!("trial,ms\n{rows}31\n"));
    rejected(&[&f, "--column", "ms"], "line 32, column 'ms': missing (the line has 1 field)");
}

#[test]
fn unknown_strategy_game_or_preset() {
    let f = times_file("ok.csv", &good_lines(30));
    rejected(&[&f, "--strategy", "psychic"], "--strategy psychic: unknown strategy for spit; known strategies:");
    rejected(&[&f, "--game", "lopti"], "--game lopti: lopti is turn-based");
    rejected(&[&f, "--preset", "turbo"], "--preset: unknown reaction preset 'turbo'");
}

#[test]
fn out_into_a_missing_folder_fails_before_fitting() {
    let f = times_file("fine.csv", &good_lines(30));
    let o = cardsim(&["fit-rt", &f, "--out", "/no/such/folder/bot.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "error: --out /no/such/folder/bot.toml: folder /no/such/folder does not exist\n");
    assert!(stdout(&o).is_empty(), "it fitted first: {}", stdout(&o));
    // Checked even before the times are read.
    let o = cardsim(&["fit-rt", "/no/such/times.csv", "--out", "/no/such/folder/bot.toml"]);
    assert!(stderr(&o).contains("folder /no/such/folder does not exist"), "{}", stderr(&o));
    let o = cardsim(&["fit-rt", &f, "--out", s(&tmp("bot.txt"))]);
    assert!(stderr(&o).contains("a bot file must end in .toml"), "{}", stderr(&o));
    assert!(!tmp("bot.txt").exists());
}

/// The per-match (total ms, landed plays) of `bot`'s card plays in the mirror matches
/// fit-rt plays (spit, seed 1, matches 0 to 39), from `cardsim trace --format jsonl`:
/// each `play` event is paired with the `start` event of the same seat that announced
/// it (the same card and slot, `lands` at the play's time).
fn plays_in_trace(bot: &str) -> Vec<(f64, f64)> {
    (0..40)
        .map(|i| {
            let o = cardsim(&["trace", "spit", "--bot", bot, "--bot", bot, "--seed", "1", "--index", &i.to_string(), "--format", "jsonl"]);
            assert!(o.status.success(), "{}", stderr(&o));
            let events: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
            let us = |v: &serde_json::Value| (v.as_f64().unwrap() * 1e6).round() as i64;
            let (mut total, mut plays) = (0i64, 0u64);
            for (k, e) in events.iter().enumerate().filter(|(_, e)| e["event"] == "play") {
                let start = events[..k]
                    .iter()
                    .rev()
                    .find(|s| s["event"] == "start" && s["seat"] == e["seat"] && s["action"] == "play" && s["slot"] == e["slot"] && s["card"] == e["card"] && us(&s["lands"]) == us(&e["t"]))
                    .unwrap_or_else(|| panic!("match {i}: no start for {e}"));
                total += us(&e["t"]) - us(&start["t"]);
                plays += 1;
            }
            (total as f64 / 1e3, plays as f64)
        })
        .collect()
}

/// Mean, 95% interval over matches (cluster-robust SE, t with 39 degrees of freedom)
/// and count, as fit-rt prints them.
fn pace_from(matches: &[(f64, f64)]) -> String {
    let (x, y) = matches.iter().fold((0.0, 0.0), |(a, b), m| (a + m.0, b + m.1));
    let (r, g) = (x / y, matches.len() as f64);
    let se = (g / (g - 1.0) * matches.iter().map(|m| (m.0 - r * m.1).powi(2)).sum::<f64>()).sqrt() / y;
    let t = 2.022_690_9; // t_{0.975, 39}, from the tables
    format!("{r:.2} ms [{:.2}, {:.2}], {y} plays", r - t * se, r + t * se)
}

/// issue 18: the fitted bot's pace is measured in play. The printed pace of the fitted bot
/// and of each human preset equals a computation from the JSONL traces of the same
/// matches, and the base preset is the nearest in play. The times (ExGaussian(690, 60,
/// 220), mean 910 ms) are a case where the reference situation chooses otherwise:
/// skilled's 1,044 ms there is nearer than expert's 733 ms, but in play expert's plays
/// take about 750 ms and skilled's 1,100, and the fitted bot's about 900.
#[test]
fn pace_in_play_equals_the_traces_and_chooses_the_nearest_preset_in_play() {
    let times = tmp("pace.txt");
    let text: String = draws(Dist::ExGaussian { mu: 690.0, sigma: 60.0, tau: 220.0, floor: 0.0 }, 2_000, 77).iter().map(|x| format!("{x:.3}\n")).collect();
    std::fs::write(&times, text).unwrap();
    let bot = tmp("paced.toml");
    let o = cardsim(&["fit-rt", s(&times), "--out", s(&bot)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let printed = |name: &str| out.lines().find(|l| l.trim_start().starts_with(name)).unwrap_or_else(|| panic!("no {name} line in\n{out}")).trim_start()[name.len()..].trim().to_string();
    let fitted = printed("fitted bot 'paced'");
    assert_eq!(fitted, pace_from(&plays_in_trace(s(&bot))), "{out}");
    let mut nearest = ("", f64::INFINITY);
    let mean = |p: &str| p.split(' ').next().unwrap().parse::<f64>().unwrap();
    for preset in ["novice", "casual", "skilled", "expert"] {
        let b = format!("smart@{preset}");
        let p = printed(&b);
        assert_eq!(p, pace_from(&plays_in_trace(&b)), "{b}");
        if (mean(&p) - mean(&fitted)).abs() < nearest.1 {
            nearest = (preset, (mean(&p) - mean(&fitted)).abs());
        }
    }
    assert_eq!(nearest.0, "expert");
    assert!(out.contains("Nearest preset in play: expert") && out.contains("by the reference situation (5 cards, 1 move) it would be skilled"), "{out}");
    let file = std::fs::read_to_string(&bot).unwrap();
    assert!(file.contains("preset = \"expert\"") && file.contains(&format!("Pace in play (40 mirror matches from seed 1, start to landing of a landed card play): {fitted}")), "{file}");
    assert!(file.contains("# Nearest preset in play: expert"), "{file}");
}
