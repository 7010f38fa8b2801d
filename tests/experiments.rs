//! Experiment files end to end: results folders, reproducible bytes on any thread count,
//! shards merged into exactly the bytes of a single run, sweeps with paired comparisons,
//! round robins with ratings, and bad input.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cardsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("cardsim runs")
}

fn ok(args: &[&str]) -> String {
    let out = cardsim(args);
    assert!(out.status.success(), "cardsim {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn fails(args: &[&str]) -> String {
    let out = cardsim(args);
    assert_eq!(out.status.code(), Some(2), "cardsim {args:?} should fail with exit 2: {}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    err
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> common::Scratch {
    common::scratch("exp", name)
}

/// Writes `experiments/NAME.toml` under `root` and returns its path.
fn experiment(root: &Path, name: &str, text: &str) -> String {
    let dir = root.join("experiments");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// Every file of a folder, sorted, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).map(|p| (p.file_name().unwrap().to_str().unwrap().to_string(), std::fs::read(&p).unwrap())).collect();
    v.sort();
    v
}

const SPEED: &str = "description = \"small\"\ngame = \"speed\"\nseed = 4\ngames = 400\n\n[[matchup]]\nbots = [\"smart@skilled\", \"greedy@skilled\"]\n\n[[matchup]]\nbots = [\"smart@skilled\", \"greedy@skilled\"]\nset = [\"speed.wrap=false\"]\n";

#[test]
fn a_run_writes_its_folder_the_same_on_one_and_two_threads() {
    let root = scratch("folder");
    let file = experiment(&root, "small", SPEED);
    ok(&["run", &file, "--threads", "1", "--quiet"]);
    let out = root.join("results/small");
    let one = files(&out);
    let names: Vec<&str> = one.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["lengths.csv", "lengths.svg", "manifest.toml", "summary.csv"]);
    let manifest = String::from_utf8(one[2].1.clone()).unwrap();
    for key in ["experiment = \"small.toml\"", "experiment_sha256 = ", "cardsim_version = ", "code_commit = ", "seed = 4", "games = 400", "[[cell]]"] {
        assert!(manifest.contains(key), "manifest lacks {key}: {manifest}");
    }
    ok(&["run", &file, "--threads", "2", "--quiet"]);
    assert_eq!(files(&out), one, "a rerun on two threads changed a byte");
    // A quick check with --games goes beside the committed folder, not over it.
    let text = ok(&["run", &file, "--games", "40", "--quiet"]);
    assert!(text.contains("small-games-40"), "{text}");
    assert_eq!(files(&out), one);
    assert!(root.join("results/small-games-40/summary.csv").exists());
}

#[test]
fn three_shards_merged_equal_a_single_run_byte_for_byte() {
    let root = scratch("shards");
    let file = experiment(&root, "small", SPEED);
    let whole = root.join("whole");
    ok(&["run", &file, "--out", whole.to_str().unwrap(), "--quiet"]);
    let parts: Vec<PathBuf> = (1..=3).map(|k| root.join(format!("part{k}"))).collect();
    for (k, dir) in parts.iter().enumerate() {
        ok(&["run", &file, "--shard", &format!("{}/3", k + 1), "--out", dir.to_str().unwrap(), "--quiet", "--threads", if k == 1 { "1" } else { "2" }]);
    }
    let merged = root.join("merged");
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--out", merged.to_str().unwrap()]);
    ok(&args);
    assert_eq!(files(&merged), files(&whole));
    // A shard given twice, a missing shard, parts of another experiment.
    let twice = [&args[..2], &[parts[0].to_str().unwrap()], &args[2..]].concat();
    assert!(fails(&twice).contains("given twice"));
    assert!(fails(&["merge", parts[0].to_str().unwrap(), parts[1].to_str().unwrap(), "--out", merged.to_str().unwrap()]).contains("missing shard 3/3"));
    let other = experiment(&root, "other", &SPEED.replace("seed = 4", "seed = 5"));
    let odd = root.join("odd");
    ok(&["run", &other, "--shard", "3/3", "--out", odd.to_str().unwrap(), "--quiet"]);
    assert!(fails(&["merge", parts[0].to_str().unwrap(), parts[1].to_str().unwrap(), odd.to_str().unwrap(), "--out", merged.to_str().unwrap()]).contains("different runs"));
    for bad in ["0/3", "4/3", "x"] {
        assert!(fails(&["run", &file, "--shard", bad, "--out", odd.to_str().unwrap()]).contains("expected K/N"));
    }
}

#[test]
fn a_sweep_compares_every_point_with_the_first_on_the_same_deals() {
    let root = scratch("sweep");
    let file = experiment(&root, "sweep", "description = \"s\"\ngame = \"speed\"\nseed = 2\ngames = 600\n\n[[matchup]]\nbots = [\"smart@skilled\", \"greedy@skilled\"]\n\n[[vary]]\nparam = \"look.mu\"\nbot = 0\nvalues = [280, 380]\n");
    let text = ok(&["run", &file, "--quiet"]);
    assert!(text.contains("bot 0 look.mu=380: seat 0 edge"), "{text}");
    let sweep = std::fs::read_to_string(root.join("results/sweep/sweep.csv")).unwrap();
    let mut lines = sweep.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[..4], ["point", "bot0.look.mu", "figure", "bot"]);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    // The first point against itself: no difference.
    let base = rows.iter().find(|r| r[0] == "1" && r[at("figure")] == "score" && r[at("bot")].starts_with("smart")).unwrap();
    assert_eq!((base[at("diff")], base[at("p_value")]), ("0.000000", "1.000000"));
    // A slower look costs the smart bot score: a negative difference.
    let slow = rows.iter().find(|r| r[0] == "2" && r[at("figure")] == "score" && r[at("bot")].starts_with("smart")).unwrap();
    assert!(slow[at("bot")].contains("look.mu=380"), "{slow:?}");
    assert!(slow[at("diff")].parse::<f64>().unwrap() < 0.0, "{slow:?}");
    let summary = std::fs::read_to_string(root.join("results/sweep/summary.csv")).unwrap();
    assert!(summary.contains("smart@skilled look.mu=380"));
    for chart in ["sweep.svg", "differences.svg", "lengths.svg"] {
        assert!(root.join("results/sweep").join(chart).exists(), "{chart}");
    }
    // `cardsim plot` redraws the charts from the CSVs, byte for byte.
    let before = std::fs::read(root.join("results/sweep/sweep.svg")).unwrap();
    std::fs::remove_file(root.join("results/sweep/sweep.svg")).unwrap();
    ok(&["plot", root.join("results/sweep").to_str().unwrap()]);
    assert_eq!(std::fs::read(root.join("results/sweep/sweep.svg")).unwrap(), before);
}

#[test]
fn a_players_sweep_tests_the_edge_its_interval_shows() {
    // seat0_edge is the first seat's score less the fair share 1/n, and n changes with
    // the point: the difference from the first point, its interval and its p-value are
    // all of the edge (score0 - 1/n at this point, less score0 - 1/2 at the first).
    // Recomputed here from each deal's match, traced one by one (seating one: one match
    // a deal), not by the sweep's own arithmetic, on a mirror table (no edge expected at
    // either point; the p-value of the unshifted score difference was 0.334 here, the
    // edge's is 0.073).
    let root = scratch("players-sweep");
    let deals = 120;
    let file = experiment(&root, "players", &format!("description = \"p\"\ngame = \"lopti\"\nseed = 4\ngames = {deals}\nseating = \"one\"\n\n[[matchup]]\nbots = [\"random\", \"random\"]\n\n[[vary]]\nparam = \"players\"\nvalues = [2, 3]\n"));
    ok(&["run", &file, "--quiet"]);
    let sweep = std::fs::read_to_string(root.join("results/players/sweep.csv")).unwrap();
    let mut lines = sweep.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let edge_row = |point: &str| rows.iter().find(|r| r[0] == point && r[at("figure")] == "seat0_edge").unwrap().clone();
    let num = |r: &Vec<&str>, name: &str| r[at(name)].parse::<f64>().unwrap();
    // Per deal and point, the first seat's score (1 for a win, 1/n each for a match
    // without a winner, else 0) less 1/n.
    let edges: Vec<Vec<f64>> = [(1, 2.0), (2, 3.0)]
        .iter()
        .map(|&(point, n)| {
            (0..deals)
                .map(|d| {
                    let trace = ok(&["trace", "--experiment", &file, "--matchup", &point.to_string(), "--index", &d.to_string(), "--format", "jsonl"]);
                    let end: serde_json::Value = trace.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()).find(|e| e["event"] == "end").expect("an end event");
                    let score0 = match end["winner"].as_u64() {
                        Some(0) => 1.0,
                        Some(_) => 0.0,
                        None => 1.0 / n,
                    };
                    score0 - 1.0 / n
                })
                .collect()
        })
        .collect();
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    for (point, e) in ["1", "2"].iter().zip(&edges) {
        assert!((num(&edge_row(point), "value") - mean(e)).abs() < 1e-6, "point {point}: the sweep's edge is the traced deals' mean edge");
    }
    let diffs: Vec<f64> = edges[1].iter().zip(&edges[0]).map(|(b, a)| b - a).collect();
    let m = mean(&diffs);
    let se = (diffs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / deals as f64 / deals as f64).sqrt();
    use statrs::distribution::ContinuousCDF;
    let p = 2.0 * (1.0 - statrs::distribution::Normal::standard().cdf((m / se).abs()));
    let row = edge_row("2");
    let close = |name: &str, want: f64| assert!((num(&row, name) - want).abs() < 2e-6, "{name}: sweep {} against {want:.6} computed from the deals", row[at(name)]);
    close("diff", m);
    close("diff_se", se);
    close("diff_ci_low", m - 1.959963984540054 * se);
    close("diff_ci_high", m + 1.959963984540054 * se);
    close("p_value", p);
    assert!(p > 1e-3, "a mirror table: no significant change of the edge (p = {p})");
}

#[test]
fn a_round_robin_writes_ratings() {
    let root = scratch("rr");
    let file = experiment(&root, "rr", "description = \"r\"\ngame = \"lopti\"\nseed = 3\ngames = 600\nformat = \"round-robin\"\npool = [\"random\", \"lowest\", \"burner\"]\n");
    let text = ok(&["run", &file, "--quiet"]);
    assert!(text.contains("ratings (Bradley-Terry"), "{text}");
    let ratings = std::fs::read_to_string(root.join("results/rr/ratings.csv")).unwrap();
    let rows: Vec<&str> = ratings.lines().collect();
    assert_eq!(rows[0], "rank,bot,elo,elo_se,elo_ci_low,elo_ci_high,tables,games,wins");
    assert_eq!(rows.len(), 4);
    assert!(rows[3].starts_with("3,random,"), "random is weakest: {ratings}");
}

#[test]
fn bad_experiments_fail_before_playing_with_one_line() {
    let root = scratch("bad");
    for (text, want) in [
        ("description = \"d\"\ngame = \"speed\"\nseed = 1\ngames = 10\ncolour = 1\n[[matchup]]\nbots = [\"smart\", \"greedy\"]\n", "line 5"),
        ("description = \"d\"\ngame = \"speed\"\nseed = 1\ngames = 10\n", "no [[matchup]]"),
        ("description = \"d\"\ngame = \"speed\"\nseed = 1\ngames = 10\n[[matchup]]\nbots = []\n", "table 1"),
        ("description = \"d\"\ngame = \"speed\"\nseed = 1\ngames = 10\n[[matchup]]\nbots = [\"smart\", \"greedy\"]\n[[vary]]\nparam = \"speed.wrap\"\nvalues = []\n", "give either values"),
        ("description = \"d\"\ngame = \"speed\"\nseed = 1\ngames = 10\n[[matchup]]\nbots = [\"smart\", \"greedy\"]\n[[vary]]\nparam = \"look.mu\"\nbot = 0\nvalues = [99999]\n", "look.mu"),
    ] {
        let file = experiment(&root, "bad", text);
        let err = fails(&["run", &file, "--quiet"]);
        assert!(err.contains("bad") && err.contains(want), "{want}: {err}");
        assert!(!root.join("results/bad/summary.csv").exists());
    }
    let file = experiment(&root, "good", SPEED);
    let err = fails(&["run", &file, "--out", root.join("no/such/dir").to_str().unwrap()]);
    assert!(err.contains("does not exist"), "{err}");
    assert!(fails(&["run", &file, "--shard", "1/2"]).contains("--shard needs --out"));
}

#[test]
fn bot_files_in_an_experiment_are_found_beside_the_file() {
    let root = scratch("paths");
    std::fs::create_dir_all(root.join("experiments/bots")).unwrap();
    std::fs::write(root.join("experiments/bots/quick.toml"), "game = \"speed\"\nstrategy = \"greedy\"\npreset = \"expert\"\n").unwrap();
    let file = experiment(&root, "paths", "description = \"p\"\ngame = \"speed\"\nseed = 1\ngames = 20\n[[matchup]]\nbots = [\"bots/quick.toml\", \"smart@skilled\"]\n");
    // Run from another folder: the bot file and the results folder are found from the file.
    let out = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(["run", &file, "--quiet"]).current_dir(std::env::temp_dir()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(root.join("results/paths/summary.csv").exists());
}

#[test]
fn a_stale_checkpoint_is_replaced_without_resume_and_refused_with_it() {
    let root = scratch("stale");
    let file = experiment(&root, "small", SPEED);
    let out = root.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join(".resume-1-of-1.json"), b"{\"not\": \"ours\"}").unwrap();
    assert!(fails(&["run", &file, "--out", out.to_str().unwrap(), "--resume"]).contains("not a cardsim checkpoint"));
    let run = cardsim(&["run", &file, "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stderr).contains("starting over"));
    assert!(out.join("summary.csv").exists() && !out.join(".resume-1-of-1.json").exists());
}


#[test]
fn a_partial_with_a_tampered_length_histogram_is_refused_naming_the_field() {
    let root = scratch("tampered-histogram");
    let file = experiment(&root, "small", SPEED);
    let parts: Vec<PathBuf> = (1..=2).map(|k| root.join(format!("part{k}"))).collect();
    for (k, dir) in parts.iter().enumerate() {
        ok(&["run", &file, "--shard", &format!("{}/2", k + 1), "--out", dir.to_str().unwrap(), "--quiet"]);
    }
    let partial = parts[0].join("partial-1-of-2.json");
    let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(&partial).unwrap()).unwrap();
    let seconds = &mut json["state"]["stats"][0]["metrics"][2];
    assert_eq!(seconds["layout"], serde_json::json!([14, 10]), "the saved layout: {seconds}");
    // One more match claimed than the buckets hold.
    let n = seconds["n"].as_u64().unwrap();
    seconds["n"] = (n + 1).into();
    std::fs::write(&partial, serde_json::to_vec(&json).unwrap()).unwrap();
    let merged = root.join("merged");
    let err = fails(&["merge", parts[0].to_str().unwrap(), parts[1].to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    assert!(err.contains("partial-1-of-2.json") && err.contains(&format!("histogram: `buckets` hold {n} observations but `n` is {}", n + 1)), "{err}");
    assert!(!merged.exists() || std::fs::read_dir(&merged).unwrap().next().is_none(), "nothing written");
}
