//! Hostile input: output paths that are links, pipes, devices, read-only files or
//! missing folders; standard output closed early; absurd counts. Every error is one
//! line on stderr starting `error: `, exit code 2, and no output file.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn cardsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("run cardsim")
}

/// A fresh folder for one test.
fn dir(name: &str) -> common::Scratch {
    common::scratch("bad", name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Asserts a one-line `error: ` on stderr mentioning every needle, exit code 2, nothing on stdout.
fn assert_error(out: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "exit code 2 expected; stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
    assert!(err.starts_with("error: "), "{err:?}");
    for n in needles {
        assert!(err.contains(n), "error {err:?} does not mention {n:?}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

/// A small match writing its CSV to `csv`.
fn small_match(csv: &str) -> Output {
    cardsim(&["match", "speed", "--games", "20", "--threads", "1", "--quiet", "--csv", csv])
}

fn assert_csv(text: &str) {
    assert!(text.starts_with("game,bots,flags,seed,"), "not the CSV: {text:.80}");
    assert_eq!(text.lines().count(), 9, "header and 8 rows");
}

#[cfg(unix)]
#[test]
fn csv_through_a_symlink_writes_the_target_and_keeps_the_link() {
    let d = dir("symlink");
    let target = d.join("real.csv");
    std::fs::write(&target, "old").unwrap();
    let link = d.join("link.csv");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = small_match(s(&link));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced by a file");
    assert_csv(&std::fs::read_to_string(&target).unwrap());
}

#[cfg(unix)]
#[test]
fn csv_to_a_named_pipe_is_streamed_and_the_pipe_stays() {
    use std::os::unix::fs::FileTypeExt;
    let d = dir("fifo");
    let fifo = d.join("pipe.csv");
    if !Command::new("mkfifo").arg(&fifo).status().is_ok_and(|st| st.success()) {
        eprintln!("no mkfifo: skipped");
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = small_match(s(&fifo));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_csv(&reader.join().unwrap());
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo(), "the pipe was replaced");
    let leftovers: Vec<_> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[cfg(unix)]
#[test]
fn csv_to_dev_null_writes_directly() {
    use std::os::unix::fs::FileTypeExt;
    let out = small_match("/dev/null");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device(), "/dev/null is no longer a device");
}

#[test]
fn csv_dash_is_standard_output_and_the_summary_goes_to_stderr() {
    let out = small_match("-");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_csv(&String::from_utf8(out.stdout).unwrap());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("throughput:"), "the summary is on stderr: {err}");
    assert!(!err.contains("wrote"), "{err}");
}

#[cfg(unix)]
#[test]
fn csv_to_dev_stdout_is_standard_output() {
    if !Path::new("/dev/stdout").exists() {
        return;
    }
    let out = small_match("/dev/stdout");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_csv(&String::from_utf8(out.stdout).unwrap());
}

#[cfg(unix)]
#[test]
fn a_read_only_csv_is_refused_and_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let d = dir("readonly");
    let ro = d.join("ro.csv");
    std::fs::write(&ro, "keep me").unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    assert_error(&small_match(s(&ro)), &["--csv", "ro.csv", "read-only"]);
    assert_eq!(std::fs::read_to_string(&ro).unwrap(), "keep me");
    assert_eq!(std::fs::metadata(&ro).unwrap().permissions().mode() & 0o777, 0o444, "still read-only");
}

#[test]
fn output_paths_are_checked_before_the_first_match() {
    // 10^12 matches would run for days: each error must come at once.
    let d = dir("early");
    let huge = "1000000000000";
    let missing = d.join("no/such/folder/out.csv");
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec!["match", "spit", "--games", huge, "--csv", s(&missing)], vec!["--csv", "does not exist"]),
        (vec!["match", "spit", "--games", huge, "--csv", s(&d)], vec!["--csv", "is a folder"]),
        (vec!["session", "lopti", "--sessions", huge, "--csv", s(&missing)], vec!["--csv", "does not exist"]),
        (vec!["bench", "--csv", s(&missing)], vec!["--csv", "does not exist"]),
    ];
    for (args, needles) in cases {
        let start = Instant::now();
        let out = cardsim(&args);
        assert_error(&out, &needles);
        assert!(start.elapsed() < Duration::from_secs(20), "{args:?} ran before failing");
    }
    assert!(!missing.exists());
}

#[cfg(unix)]
#[test]
fn an_unwritable_folder_is_refused_before_the_first_match() {
    use std::os::unix::fs::PermissionsExt;
    let d = dir("unwritable");
    let locked = d.join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(locked.join("probe"), "").is_ok() {
        eprintln!("running as root: a 0555 folder is writable, skipped");
        return;
    }
    assert_error(&cardsim(&["match", "spit", "--games", "1000000000000", "--csv", s(&locked.join("o.csv"))]), &["--csv", "cannot create a file"]);
}

/// Runs cardsim with a reader that goes away before the first line is printed (as
/// `| head -0` would).
fn with_closed_stdout(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_stdout_still_writes_the_csv_and_ends_quietly() {
    let d = dir("pipe");
    let csv = d.join("o.csv");
    let out = with_closed_stdout(&["match", "spit", "--games", "200", "--threads", "1", "--quiet", "--csv", s(&csv)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}: {err}", out.status.code());
    assert!(err.is_empty(), "nothing on stderr (no panic, no broken pipe): {err}");
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 9, "the CSV was written");
    // The same for an experiment's results folder.
    let exp = d.join("exp.toml");
    std::fs::write(&exp, "description = \"t\"\ngame = \"speed\"\nseed = 3\ngames = 200\n[[matchup]]\nbots = [\"smart\", \"greedy\"]\n").unwrap();
    let out = with_closed_stdout(&["run", s(&exp), "--threads", "1", "--quiet", "--out", s(&d.join("out"))]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.is_empty(), "exit {:?}: {err}", out.status.code());
    assert!(d.join("out/summary.csv").exists(), "the results folder was written");
}

#[test]
fn absurd_counts_are_refused_with_the_limit() {
    assert_error(&cardsim(&["match", "spit", "--games", "18446744073709551615"]), &["--games", "at most 1000000000000"]);
    assert_error(&cardsim(&["match", "spit", "--games", "1000000000000000000"]), &["--games", "at most"]);
    assert_error(&cardsim(&["match", "spit", "--games", "10", "--threads", "100000"]), &["--threads", "at most 1024"]);
    assert_error(&cardsim(&["match", "spit", "--games", "10", "--threads", "0"]), &["--threads must be at least 1"]);
    assert_error(&cardsim(&["sprt", "spit", "--bot", "smart", "--bot", "greedy", "--elo0", "0", "--elo1", "10", "--max-games", "18446744073709551615"]), &["--max-games", "at most"]);
    assert_error(&cardsim(&["session", "lopti", "--sessions", "18446744073709551615"]), &["--sessions", "at most"]);
    assert_error(&cardsim(&["session", "lopti", "--trace-index", "18446744073709551615"]), &["--trace-index", "at most"]);
    assert_error(&cardsim(&["session", "lopti", "--sessions", "10", "--threads", "5000"]), &["--threads", "at most 1024"]);
    assert_error(&cardsim(&["balance", "spit", "--vary", "spit.num_stockpiles=5,4", "--games", "18446744073709551615"]), &["--games", "at most"]);
    assert_error(&cardsim(&["bench", "--repeat", "0"]), &["--repeat 0", "1 to 99"]);
    // Refused before the bot is copied once per player.
    assert_error(&cardsim(&["match", "nerts", "--players", "1000000000", "--bot", "balanced"]), &["--players 1000000000: at most 8 players"]);
    assert_error(&cardsim(&["match", "nerts", "--players", "18446744073709551615", "--bot", "balanced"]), &["--players", "at most 8 players"]);
    assert_error(&cardsim(&["bench", "--seconds", "1e9"]), &["--seconds", "at most 600"]);
    let d = dir("counts");
    let exp = d.join("exp.toml");
    std::fs::write(&exp, "description = \"t\"\ngame = \"speed\"\nseed = 3\ngames = 18446744073709551615\n[[matchup]]\nbots = [\"smart\", \"greedy\"]\n").unwrap();
    assert_error(&cardsim(&["run", s(&exp), "--out", s(&d.join("out"))]), &["exp.toml: games", "at most"]);
    assert_error(&cardsim(&["run", s(&exp), "--games", "10000000000000", "--out", s(&d.join("out"))]), &["--games", "at most"]);
}

/// The `flags` column of a CSV written to standard output, and the summary's first line.
fn flags_of(args: &[&str]) -> (String, String) {
    let out = cardsim(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut r = csv::Reader::from_reader(out.stdout.as_slice());
    let col = r.headers().unwrap().iter().position(|h| h == "flags").unwrap();
    let flags = r.records().next().unwrap().unwrap()[col].to_string();
    (flags, String::from_utf8(out.stderr).unwrap().lines().next().unwrap_or_default().to_string())
}

#[test]
fn set_values_are_parsed_once_and_compared_as_values() {
    let run = |set: &str| flags_of(&["match", "speed", "--games", "4", "--quiet", "--csv", "-", "--set", set]);
    let (flags, title) = run("sim.max_actions=0200000");
    assert_eq!(flags, "", "0200000 is the default 200000");
    assert!(title.ends_with("| default rules"), "{title}");
    assert_eq!(run("sim.max_actions=0300000").0, "sim.max_actions=300000", "labels show the canonical form");
    assert_eq!(run("speed.side_pile_size=05").0, "speed.side_pile_size=5");
    assert_eq!(flags_of(&["match", "nerts", "--games", "2", "--quiet", "--csv", "-", "--set", "nerts.tie_window=0.050"]).0, "", "0.050 s is the default 0.05");
    assert_eq!(flags_of(&["match", "nerts", "--games", "2", "--quiet", "--csv", "-", "--set", "nerts.tie_window=0.25"]).0, "nerts.tie_window=0.25", "any window to the microsecond");
    assert_error(&cardsim(&["match", "nerts", "--set", "nerts.tie_window=0.0000001"]), &["--set nerts.tie_window=0.0000001: invalid value", "at most 6 decimals"]);
}

#[test]
fn a_flag_given_twice_is_an_error() {
    assert_error(&cardsim(&["match", "spit", "--set", "spit.num_stockpiles=4", "--set", "spit.num_stockpiles=5"]), &["--set spit.num_stockpiles: given twice (4, then 5)"]);
    assert_error(&cardsim(&["session", "lopti", "--set", "lopti.hook_depth=4", "--set", "lopti.hook_depth=4"]), &["lopti.hook_depth: given twice"]);
}

#[test]
fn a_flag_without_effect_is_an_error_saying_what_it_needs() {
    assert_error(&cardsim(&["match", "spit", "--set", "spit.points_round_mode=fresh_deal"]), &["--set spit.points_round_mode=fresh_deal: has no effect unless spit.scoring=points"]);
    let ok = cardsim(&["match", "spit", "--games", "2", "--quiet", "--set", "spit.points_round_mode=fresh_deal", "--set", "spit.scoring=points"]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    assert_error(&cardsim(&["match", "nerts", "--set", "nerts.joker_identity=until_uncovered"]), &["nerts.jokers_per_deck=1 or 2"]);
    assert_error(&cardsim(&["match", "nerts", "--set", "nerts.short_packet=flip", "--set", "nerts.flip_count=1"]), &["nerts.flip_count=3"]);
    assert_error(&cardsim(&["match", "nerts", "--set", "nerts.tie_policy=first_only", "--set", "nerts.tie_window=0"]), &["has no effect unless"]);
    assert_error(&cardsim(&["match", "nerts", "--set", "nerts.partnership_mode=separate_layouts_summed"]), &["nerts.partnership_mode", "without teams", "4 players"]);
    assert_error(&cardsim(&["match", "lopti", "--set", "lopti.mcts_iterations=50"]), &["lopti.mcts_iterations=50", "without an mcts bot"]);
    assert_error(&cardsim(&["match", "lopti", "--bot", "lowest", "--bot", "burner", "--set", "lopti.play_for_rankings=true"]), &["with 2 players"]);
    assert_error(&cardsim(&["session", "lopti", "--set", "lopti.returning_rules=together"]), &["session.series above 1"]);
}

#[test]
fn long_values_are_clipped_in_errors() {
    let long = "x".repeat(100_000);
    let set_value = format!("spit.num_stockpiles={long}");
    let set_key = format!("{long}=1");
    let session_bot = format!("lowest,maker={long}");
    for args in [
        vec!["match", long.as_str()],
        vec!["match", "spit", "--seed", long.as_str()],
        vec!["match", "spit", "--bot", long.as_str(), "--bot", "greedy"],
        vec!["match", "spit", "--bot", "smart", "--bot", &format!("greedy@{long}")],
        vec!["match", "spit", "--set", set_value.as_str()],
        vec!["match", "spit", "--set", set_key.as_str()],
        vec!["session", "lopti", "--bot", session_bot.as_str(), "--bot", "random"],
        vec!["sprt", "spit", "--bot", "smart", "--bot", "greedy", "--elo0", "0", "--elo1", "5", "--model", long.as_str()],
    ] {
        let out = cardsim(&args);
        assert_error(&out, &["…"]);
        assert!(out.stderr.len() < 1000, "{} bytes of error for {:.40?}", out.stderr.len(), args);
    }
}

#[test]
fn a_50_mb_value_in_a_file_gives_a_short_error() {
    let d = dir("huge");
    let huge = "x".repeat(50_000_000);
    let position = d.join("position.json");
    std::fs::write(&position, format!(r#"{{"players": 2, "hand": ["{huge}"], "face_up": [], "face_down": 0, "pile": []}}"#)).unwrap();
    let out = cardsim(&["legal", "lopti", "--position", s(&position)]);
    assert_error(&out, &["hand[0]:", "…", "is not a rank"]);
    assert!(out.stderr.len() < 500, "{} bytes", out.stderr.len());
    let exp = d.join("exp.toml");
    std::fs::write(&exp, format!("description = \"x\"\ngame = \"spit\"\nseed = \"{huge}\"\ngames = 10\n[[matchup]]\nbots = [\"smart\", \"greedy\"]\n")).unwrap();
    let out = cardsim(&["run", s(&exp)]);
    assert_error(&out, &["line 3", "…"]);
    assert!(out.stderr.len() < 500, "{} bytes", out.stderr.len());
}

#[test]
fn lopti_positions_out_of_range_or_with_a_key_twice_are_errors() {
    let d = dir("position");
    let write = |name: &str, json: &str| {
        let p = d.join(name);
        std::fs::write(&p, json).unwrap();
        p
    };
    let plays = [r#"["2"]"#, r#"["4"]"#].repeat(23).join(", ");
    let long_pile = write("pile.json", &format!(r#"{{"players": 2, "hand": ["K"], "face_up": [], "face_down": 0, "pile": [{plays}]}}"#));
    assert_error(&cardsim(&["legal", "lopti", "--position", s(&long_pile)]), &["pile: 46 plays", "at most 44"]);
    let plays = [r#"["2"]"#, r#"["4"]"#].repeat(5).join(", ");
    let fifth_two = write("two.json", &format!(r#"{{"players": 2, "hand": ["K"], "face_up": [], "face_down": 0, "pile": [{plays}]}}"#));
    assert_error(&cardsim(&["legal", "lopti", "--position", s(&fifth_two)]), &["pile[8]: more than four 2s"]);
    let twice = write("twice.json", r#"{"players": 2, "players": 5, "hand": ["K"], "face_up": [], "face_down": 0, "pile": []}"#);
    assert_error(&cardsim(&["legal", "lopti", "--position", s(&twice)]), &["players: key given twice"]);
    let nested = write("nested.json", r#"{"players": 2, "hand": ["K"], "face_up": [], "face_down": 0, "pile": [], "rules": {"seven_on_seven": "free", "seven_on_seven": "free"}}"#);
    assert_error(&cardsim(&["legal", "lopti", "--position", s(&nested)]), &["rules.seven_on_seven: key given twice"]);
}

/// Writes a Spit bot file with this label.
fn bot_file(d: &Path, name: &str, label: &str) -> PathBuf {
    let p = d.join(name);
    std::fs::write(&p, format!("game = \"spit\"\nstrategy = \"greedy\"\npreset = \"expert\"\nlabel = {}\n", toml_string(label))).unwrap();
    p
}

fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[test]
fn bot_labels_with_commas_and_quotes_survive_and_control_characters_are_refused() {
    let d = dir("labels");
    let odd = bot_file(&d, "odd.toml", r#"fast, "quoted" bot"#);
    let out = cardsim(&["match", "spit", "--bot", s(&odd), "--bot", "smart@expert", "--games", "4", "--quiet", "--csv", "-"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut r = csv::Reader::from_reader(out.stdout.as_slice());
    let col = r.headers().unwrap().iter().position(|h| h == "bot").unwrap();
    let bots: Vec<String> = r.records().map(|rec| rec.unwrap()[col].to_string()).collect();
    assert!(bots.contains(&r#"fast, "quoted" bot"#.to_string()), "the CSV keeps the label whole: {bots:?}");
    let table = String::from_utf8(out.stderr).unwrap();
    assert!(table.lines().any(|l| l.trim_start().starts_with(r#"fast, "quoted" bot  "#)), "a table row starts with the label:\n{table}");
    for (name, label, needle) in [("nl.toml", "two\nlines", "control characters"), ("tab.toml", "a\tb", "control characters"), ("empty.toml", " ", "visible character"), ("long.toml", &"l".repeat(65), "longer than 64")] {
        let f = bot_file(&d, name, label);
        assert_error(&cardsim(&["match", "spit", "--bot", s(&f), "--bot", "smart"]), &[name, "label:", needle]);
    }
}

#[test]
fn two_different_bots_may_not_share_a_label_and_copies_get_one_row_each() {
    let d = dir("labels");
    let f = d.join("imposter.toml");
    std::fs::write(&f, "game = \"spit\"\nstrategy = \"greedy\"\npreset = \"novice\"\nlabel = \"smart@skilled\"\n").unwrap();
    assert_error(&cardsim(&["match", "spit", "--bot", s(&f), "--bot", "smart@skilled", "--games", "2"]), &["--bot smart@skilled: two different bots share this label", "imposter.toml"]);
    let out = cardsim(&["match", "lopti", "--bot", "lowest", "--bot", "lowest", "--bot", "random", "--games", "12", "--quiet", "--csv", "-"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut r = csv::Reader::from_reader(out.stdout.as_slice());
    let col = r.headers().unwrap().iter().position(|h| h == "bot").unwrap();
    let mut bots: Vec<String> = r.records().map(|rec| rec.unwrap()[col].to_string()).collect();
    bots.sort();
    bots.dedup();
    assert_eq!(bots, ["any", "lowest#1", "lowest#2", "random"]);
}

#[cfg(unix)]
#[test]
fn run_replaces_its_results_folder_whole_and_never_a_strangers() {
    let d = dir("run");
    let exp = d.join("exp.toml");
    std::fs::write(&exp, "description = \"t\"\ngame = \"speed\"\nseed = 3\ngames = 20\n[[matchup]]\nbots = [\"smart\", \"greedy\"]\n").unwrap();
    let out = d.join("out");
    std::fs::create_dir(&out).unwrap();
    // A folder of other files (here a link to a file elsewhere) is not replaced.
    let elsewhere = d.join("kept-summary.csv");
    std::fs::write(&elsewhere, "old").unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("summary.csv")).unwrap();
    assert_error(&cardsim(&["run", s(&exp), "--quiet", "--threads", "1", "--out", s(&out)]), &["--out", "not a cardsim results folder", "--force"]);
    assert!(std::fs::symlink_metadata(out.join("summary.csv")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "old");
    // --force replaces it: the folder then holds exactly the results, the link is gone
    // and the file it pointed to untouched.
    let ok = cardsim(&["run", s(&exp), "--quiet", "--threads", "1", "--out", s(&out), "--force"]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    assert!(!std::fs::symlink_metadata(out.join("summary.csv")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "old");
    // A rerun of the same experiment replaces its own folder; files it does not write go.
    std::fs::write(out.join("notes.txt"), "x").unwrap();
    let ok = cardsim(&["run", s(&exp), "--quiet", "--threads", "1", "--out", s(&out)]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    assert!(!out.join("notes.txt").exists());
    assert!(out.join("manifest.toml").exists());
    // Another experiment's results are not replaced without --force.
    let other = d.join("other.toml");
    std::fs::copy(&exp, &other).unwrap();
    assert_error(&cardsim(&["run", s(&other), "--quiet", "--threads", "1", "--out", s(&out)]), &["holds the results of another experiment (exp.toml, not other.toml)", "--force"]);
    // Nor a folder that holds an input of the run.
    let inside = out.join("exp2.toml");
    std::fs::copy(&exp, &inside).unwrap();
    assert_error(&cardsim(&["run", s(&inside), "--quiet", "--out", s(&out), "--force"]), &["holds", "exp2.toml", "an input of this command"]);
}

#[cfg(unix)]
#[test]
fn endless_or_binary_input_files_are_refused() {
    if Path::new("/dev/zero").exists() {
        assert_error(&cardsim(&["legal", "lopti", "--position", "/dev/zero"]), &["--position /dev/zero: more than 64 MiB"]);
    }
    let d = dir("binary");
    let bin = d.join("bot.toml");
    std::fs::write(&bin, [0x67, 0x61, 0xff, 0xfe, 0x00]).unwrap();
    assert_error(&cardsim(&["match", "spit", "--bot", s(&bin), "--bot", "smart"]), &["bot.toml: not UTF-8"]);
    assert_error(&cardsim(&["run", s(&bin)]), &["bot.toml: not UTF-8"]);
}
