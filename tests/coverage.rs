//! Long statistical checks, run by hand (`cargo test --test coverage -- --ignored`;
//! measured: speed 0.9500, spit 0.9453, lopti 0.9495 over 4,000 runs of 100 deals each;
//! over 300 seeds of 100 deals: spit 0.9533, speed 0.9167, nerts (target 30) 0.9433,
//! lopti 0.9333; Lopti sessions of 3 random bots, 60 sessions in 10 groups, with the
//! normal quantile: 0.890, 0.903, 0.910 for the three bots' `rounds_won`, against 0.918
//! expected with 9 degrees of freedom; the sessions' intervals now use t_{0.975, 9}):
//! in mirror matches each bot's true score is exactly 1/2 by symmetry, so the 95%
//! interval of the paired score must cover 1/2 in about 95% of independent runs.

mod common;

use cardsim::bot::BotSpec;
use cardsim::games;
use cardsim::output::summary::paired_figures;
use cardsim::runner::{run, RunConfig, SeatingDesign};
use cardsim::settings::Settings;
use cardsim::stats::Z_95;

/// Share of `reps` runs of `deals` deals whose interval for bot 0 covers 1/2.
fn coverage(game: &str, bot: &str, deals: u64, reps: u64) -> f64 {
    coverage_with(game, bot, &[], deals, reps)
}

/// [`coverage`] with flags `sets` in force.
fn coverage_with(game: &str, bot: &str, sets: &[&str], deals: u64, reps: u64) -> f64 {
    let entry = games::find(game).unwrap();
    let specs = vec![BotSpec::parse(bot).unwrap(), BotSpec::parse(bot).unwrap()];
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let g = entry.build(&specs, &Settings::parse(entry.flags(), &sets).unwrap()).unwrap();
    let mut covered = 0;
    for rep in 0..reps {
        let cfg = RunConfig { games: 2 * deals, seed: 1_000_003 * rep + 17, seating: SeatingDesign::All, twin_rank: vec![0, 1], quiet: true };
        let stats = run(g.as_match_game(), &cfg);
        let f = paired_figures(&stats, 0);
        let half = Z_95 * f.score.se();
        covered += ((f.score.mean - 0.5).abs() <= half) as u64;
    }
    covered as f64 / reps as f64
}

#[test]
#[ignore = "statistical: about six minutes in release mode on 2 cores"]
fn paired_intervals_cover_the_true_score_95_percent_of_the_time() {
    for (game, bot) in [("speed", "greedy@skilled"), ("spit", "random@expert"), ("lopti", "random")] {
        let c = coverage(game, bot, 100, 4000);
        println!("{game} {bot}: coverage {c:.4}");
        assert!((0.94..=0.96).contains(&c), "{game}: coverage {c}");
    }
}

/// Share of `reps` seeds whose `rounds_won` interval covers 1/3 for each of three
/// identical session bots (by symmetry every bot's true share), over runs of `sessions`
/// Lopti sessions with the default (selfish) rule makers and voters and a short quick
/// simulation, played by the binary.
fn session_coverage(sessions: u64, reps: u64) -> [f64; 3] {
    let dir = common::scratch("coverage", &format!("{sessions}-{reps}"));
    let path = dir.join("sessions.csv");
    let mut covered = [0u64; 3];
    for rep in 0..reps {
        let seed = (1_000_003 * rep + 17).to_string();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cardsim"))
            .args(["session", "lopti", "--bot", "random", "--bot", "random", "--bot", "random", "--sessions", &sessions.to_string(), "--seed", &seed])
            .args(["--set", "session.quick_rounds=50", "--quiet", "--csv", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let mut r = csv::Reader::from_path(&path).unwrap();
        let h: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
        let at = |n: &str| h.iter().position(|x| x == n).unwrap();
        let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).filter(|x| &x[at("measure")] == "rounds_won" && &x[at("section")] == "bot").collect();
        assert_eq!(rows.len(), 3);
        for (b, row) in rows.iter().enumerate() {
            let (lo, hi): (f64, f64) = (row[at("ci_low")].parse().unwrap(), row[at("ci_high")].parse().unwrap());
            covered[b] += (lo <= 1.0 / 3.0 && 1.0 / 3.0 <= hi) as u64;
        }
    }
    covered.map(|c| c as f64 / reps as f64)
}

/// The coverages of issue 18's closing note, 300 seeds each (`cargo test --test coverage
/// -- --ignored --nocapture three_hundred_seeds`; about 8 minutes on 2 loaded cores).
/// With 300 seeds a true 95% shows within 0.912 to 0.988 (three binomial SEs), which
/// the assertion allows; every coverage is printed before it is checked.
#[test]
#[ignore = "statistical: several minutes"]
fn three_hundred_seeds_per_game_and_for_sessions() {
    let mut all = Vec::new();
    for (game, bot, sets) in [("spit", "random@expert", &[][..]), ("speed", "greedy@skilled", &[][..]), ("nerts", "balanced@skilled", &["nerts.target=30"][..]), ("lopti", "random", &[][..])] {
        let c = coverage_with(game, bot, sets, 100, 300);
        println!("{game} {bot} {sets:?}: 100 deals, 300 seeds: coverage {c:.4}");
        all.push((game.to_string(), c));
    }
    for (what, c) in all {
        assert!((0.912..=0.988).contains(&c), "{what}: coverage {c}");
    }
    // Sessions: the cluster SE over 10 groups has 9 degrees of freedom; with the normal
    // quantile the intervals covered P(|T_9| < 1.96) = 0.918 (measured 0.890, 0.903,
    // 0.910), with the t quantile (2.262) they should cover 0.95. Checked within three
    // binomial SEs.
    let expected: f64 = 0.95;
    let c = session_coverage(60, 300);
    println!("lopti sessions, 3 x random, 60 sessions (10 groups), 300 seeds: rounds_won coverage {c:?} (expected with the t quantile: {expected:.4})");
    let band = 3.0 * (expected * (1.0 - expected) / 300.0).sqrt();
    assert!(c.iter().all(|c| (c - expected).abs() <= band), "sessions: coverage {c:?}, expected {expected:.4} ± {band:.4}");
}
