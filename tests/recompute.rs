//! Every figure of the files the binary writes, recomputed from their sufficient
//! statistics alone, as docs/statistics.md ("Recomputing the figures") tells a reader
//! to: the formulas are written out here again, independently of the code that printed
//! the figures (only the normal CDF comes from a library, statrs).

mod common;

use statrs::distribution::{ContinuousCDF, Normal};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

const Z: f64 = 1.959_963_984_540_054;

/// A path in this test's scratch folder, removed when the test ends.
fn tmp(name: &str) -> PathBuf {
    common::test_path("recompute", name)
}

/// Runs cardsim; its standard output (it must succeed).
fn cardsim(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("run cardsim");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A CSV file as rows of column name to value.
fn read_csv(path: &std::path::Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records().map(|rec| header.iter().cloned().zip(rec.unwrap().iter().map(String::from)).collect()).collect()
}

fn num(row: &HashMap<String, String>, name: &str) -> f64 {
    row.get(name).unwrap_or_else(|| panic!("no column {name}")).parse().unwrap_or_else(|_| panic!("{name} = {:?}", row[name]))
}

/// Asserts that a printed figure equals `want` to the printed precision.
fn printed(row: &HashMap<String, String>, name: &str, want: f64, tol: f64) {
    let got = num(row, name);
    assert!((got - want).abs() <= tol, "{name}: printed {got}, recomputed {want}");
}

fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Checks the score, its SE and interval, deft and deff of a row from `deals`,
/// `score_units`, `score_units_sum` and `score_units_sum_sq`, and the game-level SE
/// from `games`, `wins`, `draws`, `capped`, `cycled`; returns (mean, se).
fn check_score(row: &HashMap<String, String>, seats: f64) -> (f64, f64) {
    let (d, u, s, q) = (num(row, "deals"), num(row, "score_units"), num(row, "score_units_sum"), num(row, "score_units_sum_sq"));
    let mean = s / (d * u);
    let var = q / (d * u * u) - mean * mean;
    let se = (var / d).sqrt();
    printed(row, "score", mean, 1e-6);
    printed(row, "score_se", se, 1e-6);
    printed(row, "score_ci_low", mean - Z * se, 1e-6);
    printed(row, "score_ci_high", mean + Z * se, 1e-6);
    let (g, w) = (num(row, "games"), num(row, "wins"));
    let undecided = num(row, "draws") + num(row, "capped") + num(row, "cycled");
    let game_mean = (w + undecided / seats) / g;
    assert!((game_mean - mean).abs() < 1e-12, "the deal and game means agree");
    let game_se = (((w + undecided / (seats * seats)) / g - game_mean * game_mean) / g).sqrt();
    printed(row, "deft", se / game_se, 1e-4);
    printed(row, "deff", (se / game_se).powi(2), 1e-4);
    (mean, se)
}

#[test]
fn a_two_bot_run_with_undecided_matches_recomputes_from_its_csv() {
    // Spit capped at 600 actions: about a quarter of the matches end without a winner.
    let path = tmp("two.csv");
    cardsim(&["match", "spit", "--games", "200", "--seed", "3", "--set", "sim.max_actions=600", "--quiet", "--csv", path.to_str().unwrap()]);
    let rows = read_csv(&path);
    let a = &rows[0];
    assert_eq!((a["seat"].as_str(), a["bot"].as_str()), ("all", "greedy@skilled"));
    assert!(num(a, "capped") > 20.0, "the example needs matches without a winner");
    let (mean, se) = check_score(a, 2.0);
    // The pair counts: they add up to the deals and give the same units.
    let pairs: Vec<f64> = ["ll", "ld", "wl", "dd", "wd", "ww"].iter().map(|p| num(a, &format!("pairs_{p}"))).collect();
    assert!(pairs[3] > 0.0, "some deals have two capped matches");
    assert_eq!(pairs.iter().sum::<f64>(), num(a, "deals"));
    let units = [0.0, 1.0, 2.0, 2.0, 3.0, 4.0];
    assert_eq!(pairs.iter().zip(units).map(|(c, t)| c * t).sum::<f64>(), num(a, "score_units_sum"));
    assert_eq!(pairs.iter().zip(units).map(|(c, t)| c * t * t).sum::<f64>(), num(a, "score_units_sum_sq"));
    // Elo: the symmetric interval of fastchess; LOS the normal CDF of the z score.
    printed(a, "elo", elo(mean), 0.005);
    let half = (elo(mean + Z * se) - elo(mean - Z * se)) / 2.0;
    printed(a, "elo_ci_low", elo(mean) - half, 0.006);
    printed(a, "elo_ci_high", elo(mean) + half, 0.006);
    printed(a, "los", Normal::standard().cdf((mean - 0.5) / se), 1e-6);
    // The seat rows too.
    for seat in ["0", "1"] {
        let r = rows.iter().find(|r| r["bot"] == "any" && r["seat"] == seat).unwrap();
        check_score(r, 2.0);
        assert_eq!(num(r, "pairs_dd"), pairs[3], "both matches without a winner is the same for every seat and bot");
    }
}

#[test]
fn a_four_player_run_recomputes_its_score_se_from_its_csv() {
    let path = tmp("four.csv");
    cardsim(&["match", "lopti", "--bot", "random", "--bot", "lowest", "--bot", "random", "--bot", "lowest", "--games", "480", "--seed", "5", "--quiet", "--csv", path.to_str().unwrap()]);
    let rows = read_csv(&path);
    let bot_rows: Vec<&HashMap<String, String>> = rows.iter().filter(|r| r["seat"] == "all" && r["after"].is_empty()).collect();
    assert_eq!(bot_rows.len(), 4);
    for r in &bot_rows {
        assert_eq!(num(r, "score_units"), 4.0 * 24.0, "4 seats x 24 seatings");
        check_score(r, 4.0);
        assert!(r["pairs_ll"].is_empty() && r["elo"].is_empty());
    }
    for r in rows.iter().filter(|r| r["bot"] == "any") {
        check_score(r, 4.0);
    }
}

#[test]
fn rates_and_points_recompute_from_their_sums() {
    // Nerts reports points and per-deal rates.
    let path = tmp("nerts.csv");
    cardsim(&["match", "nerts", "--players", "3", "--bot", "balanced@skilled", "--games", "60", "--seed", "2", "--set", "nerts.target=20", "--quiet", "--csv", path.to_str().unwrap()]);
    let rows = read_csv(&path);
    let bot_rows: Vec<&HashMap<String, String>> = rows.iter().filter(|r| r["seat"] == "all" && r["after"].is_empty()).collect();
    let rates: Vec<String> = rows[0].keys().filter_map(|k| k.strip_suffix("_deal_cross").map(String::from)).collect();
    assert!(!rates.is_empty(), "Nerts has rates");
    for r in bot_rows {
        let y = num(r, "exposure");
        for name in &rates {
            let rate = num(r, &format!("{name}_count")) / y;
            let ss = num(r, &format!("{name}_deal_sum_sq")) - 2.0 * rate * num(r, &format!("{name}_deal_cross")) + rate * rate * num(r, "exposure_deal_sum_sq");
            printed(r, name, rate, 1e-6);
            printed(r, &format!("{name}_se"), ss.max(0.0).sqrt() / y, 1e-6);
        }
        // Points per match and their paired SE, k seatings per deal.
        let (d, k) = (num(r, "deals"), num(r, "games") / num(r, "deals"));
        let mean = num(r, "points_deal_sum") / (d * k);
        printed(r, "points", mean, 1e-6);
        printed(r, "points_se", ((num(r, "points_deal_sum_sq") / (d * k * k) - mean * mean) / d).sqrt(), 1e-6);
    }
}

/// Maximum-likelihood pair distribution with expected score `s` given the observed one
/// (cells scoring 0, 1/4, 1/2, 3/4, 1): p_i = phat_i / (1 + theta (a_i - s)) with theta
/// solving sum_i phat_i (a_i - s) / (1 + theta (a_i - s)) = 0, found by bisection.
fn mle(phat: &[f64; 5], s: f64) -> [f64; 5] {
    let a = [0.0, 0.25, 0.5, 0.75, 1.0];
    let g = |t: f64| (0..5).map(|i| phat[i] * (a[i] - s) / (1.0 + t * (a[i] - s))).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / (1.0 - s) + 1e-12, 1.0 / s - 1e-12);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 { lo = mid } else { hi = mid }
    }
    let t = 0.5 * (lo + hi);
    std::array::from_fn(|i| phat[i] / (1.0 + t * (a[i] - s)))
}

#[test]
fn sprt_writes_its_counts_at_every_batch_and_they_give_its_llr() {
    let path = tmp("sprt.csv");
    let out = cardsim(&[
        "sprt", "spit", "--bot", "greedy@skilled", "--bot", "greedy@skilled", "--set", "sim.max_actions=600", "--elo0", "-3", "--elo1", "3",
        "--model", "logistic", "--max-games", "1500", "--seed", "3", "--csv", path.to_str().unwrap(),
    ]);
    let rows = read_csv(&path);
    assert_eq!(rows.len(), 3, "750 deals: batches of 256, 256, 238");
    assert_eq!(rows.last().unwrap()["deals"], "750");
    assert_eq!(rows.last().unwrap()["verdict"], "no decision", "stopped by --max-games; the file is written anyway");
    let (s0, s1) = (1.0 / (1.0 + 10f64.powf(3.0 / 400.0)), 1.0 / (1.0 + 10f64.powf(-3.0 / 400.0)));
    for r in &rows {
        let c: Vec<f64> = ["ll", "ld", "wl", "dd", "wd", "ww"].iter().map(|p| num(r, &format!("pairs_{p}"))).collect();
        assert_eq!(c.iter().sum::<f64>(), num(r, "deals"));
        assert_eq!(num(r, "games"), 2.0 * num(r, "deals"));
        // Pentanomial cells, an empty one counted as 0.001 pairs.
        let cells = [c[0], c[1], c[2] + c[3], c[4], c[5]].map(|x| if x == 0.0 { 1e-3 } else { x });
        let n: f64 = cells.iter().sum();
        let phat = cells.map(|x| x / n);
        let (p0, p1) = (mle(&phat, s0), mle(&phat, s1));
        let llr = n * (0..5).map(|i| phat[i] * (p1[i] / p0[i]).ln()).sum::<f64>();
        printed(r, "llr", llr, 1e-5);
        printed(r, "llr_upper", (0.95f64 / 0.05).ln(), 1e-6);
        printed(r, "llr_lower", (0.05f64 / 0.95).ln(), 1e-6);
    }
    // The closing line's figures from the last counts: normalised Elo has two games per pair.
    let last = rows.last().unwrap();
    let c: Vec<f64> = ["ll", "ld", "wl", "dd", "wd", "ww"].iter().map(|p| num(last, &format!("pairs_{p}"))).collect();
    let d = num(last, "deals");
    let scores = [0.0, 0.25, 0.5, 0.5, 0.75, 1.0];
    let mean = c.iter().zip(scores).map(|(k, x)| k * x).sum::<f64>() / d;
    let var = c.iter().zip(scores).map(|(k, x)| k * (x - mean).powi(2)).sum::<f64>() / d;
    let nelo = (mean - 0.5) / (2.0 * var).sqrt() * 800.0 / std::f64::consts::LN_10;
    let line = out.lines().find(|l| l.starts_with("SPRT: no decision")).unwrap();
    assert!(line.contains(&format!("normalized Elo {nelo:.1} [")), "recomputed {nelo:.1}: {line}");
    assert!(line.contains(&format!("Elo {:.1} [", elo(mean))), "{line}");
    assert!(line.contains(&format!("LL {} LD {} WL {} DD {} WD {} WW {}", c[0], c[1], c[2], c[3], c[4], c[5])), "{line}");
}

#[test]
fn a_balance_sweep_recomputes_its_differences_and_verdicts_from_sweep_csv() {
    let dir = tmp("balance");
    let out = cardsim(&["balance", "spit", "--vary", "spit.num_stockpiles=5,4", "--games", "400", "--seed", "4", "--quiet", "--out", dir.to_str().unwrap()]);
    let rows = read_csv(&dir.join("sweep.csv"));
    let of = |point: &str, figure: &str, bot: &str| rows.iter().find(|r| r["point"] == point && r["figure"] == figure && r["bot"] == bot).unwrap();
    let mut verdicts = Vec::new();
    for (figure, bot) in [("seat0_edge", ""), ("seconds", ""), ("score", "greedy@skilled")] {
        let (base, var) = (of("1", figure, bot), of("2", figure, bot));
        let d = num(var, "deals");
        assert_eq!(d, num(base, "deals"), "the same deals");
        let (dv, db) = (num(var, "per_deal"), num(base, "per_deal"));
        let (a, b) = (num(var, "sum") / (d * dv), num(base, "sum") / (d * db));
        let se = ((num(var, "sum_sq") / (d * dv * dv) - a * a) / d).sqrt();
        printed(var, "value", a - num(var, "offset"), 1e-6);
        printed(var, "se", se, 1e-6);
        // The paired difference: E[(y/dv - x/db)^2] from the squares and the cross sum.
        let sq = num(var, "sum_sq") / (d * dv * dv) - 2.0 * num(var, "sum_x_base") / (d * dv * db) + num(base, "sum_sq") / (d * db * db);
        let diff = a - b - num(var, "offset") + num(base, "offset");
        let diff_se = ((sq - (a - b) * (a - b)) / d).sqrt();
        printed(var, "diff", diff, 1e-6);
        printed(var, "diff_se", diff_se, 1e-6);
        printed(var, "diff_ci_low", diff - Z * diff_se, 1e-6);
        printed(var, "p_value", 2.0 * (1.0 - Normal::standard().cdf((diff / diff_se).abs())), 1e-6);
        if figure == "seat0_edge" {
            for r in [base, var] {
                let (e, lo, hi) = (num(r, "value"), num(r, "ci_low"), num(r, "ci_high"));
                let want = if lo >= -0.01 && hi <= 0.01 {
                    "balanced within ±1 point at 95% (seat 0 edge "
                } else if lo > 0.0 {
                    "seat 0 favoured by "
                } else if hi < 0.0 {
                    "seat 0 at a disadvantage: "
                } else {
                    "inconclusive: seat 0 edge "
                };
                let v = &r["verdict"];
                assert!(v.starts_with(want), "{v}: want {want}");
                // The edge and its interval in points, to the printed 0.1 (the CSV's
                // values are rounded to 6 places, the verdict's from the full values).
                let numbers: Vec<f64> = v.split([' ', '[', ']', ',', '(', ')']).filter(|t| t.starts_with(['+', '-'])).map(|t| t.parse().unwrap()).collect();
                assert_eq!(numbers.len(), 3, "{v}");
                for (got, x) in numbers.iter().zip([e, lo, hi]) {
                    assert!((got - 100.0 * x).abs() <= 0.05 + 1e-4, "{v}: {x}");
                }
                let want = v.clone();
                verdicts.push(want);
            }
        }
    }
    // The printed report ends with one verdict per value.
    let lines: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("verdict per value")).skip(1).take(2).collect();
    assert_eq!(lines, [format!("spit.num_stockpiles=5: {}", verdicts[0]), format!("spit.num_stockpiles=4: {}", verdicts[1])], "{out}");
}

#[test]
fn balance_errors_name_the_option_not_a_file_the_user_never_wrote() {
    let out = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(["balance", "spit", "--vary", "spit.num_stockpiles=5,4,3", "--games", "10"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("--vary spit.num_stockpiles=3: invalid value; valid values: 5|4"), "{err}");
    assert!(!err.contains("balance.toml"), "{err}");
}
