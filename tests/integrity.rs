//! A study's results are all old or all new and pinned to its inputs (issue 16): a kill
//! at each step of the final write, a full disk, inputs changed between an interrupt
//! and `--resume` or between shards, tampered checkpoints and partials, a second run
//! into a live run's folder, special files where a state file is expected. Faults come
//! from the hooks of `cardsim::faults`; waits are on events (a file the program writes
//! once it is playing, a process exit), never on sleeps.

#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> common::Scratch {
    common::scratch("integrity", name)
}

use common::cardsim_env as cardsim;

fn ok(args: &[&str]) -> String {
    let o = cardsim(args, &[]);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The one-line error of a command that must fail with exit 2.
fn error(args: &[&str], env: &[(&str, &str)]) -> String {
    let o = cardsim(args, env);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: exit 2 expected: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The folder's files (name, bytes), sorted; bookkeeping files included.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).map(|p| (p.file_name().unwrap().to_str().unwrap().to_string(), std::fs::read(&p).unwrap())).collect();
    v.sort();
    v
}

/// Only the result files (no checkpoint or lock).
fn results(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files(dir).into_iter().filter(|(n, _)| !n.starts_with('.')).collect()
}

/// Entries of `dir`'s parent that a write left behind (temporary folders).
fn leftovers(dir: &Path) -> Vec<String> {
    let name = dir.file_name().unwrap().to_str().unwrap().to_string();
    std::fs::read_dir(dir.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name().to_str().unwrap().to_string()).filter(|n| n.starts_with(&format!(".{name}."))).collect()
}

/// An experiment of two tables (two units of work each) and its bot file.
fn study(root: &Path) -> (PathBuf, PathBuf) {
    let bot = root.join("fast.toml");
    std::fs::write(&bot, "game = \"speed\"\nstrategy = \"greedy\"\npreset = \"expert\"\n").unwrap();
    let exp = root.join("study.toml");
    std::fs::write(&exp, "description = \"s\"\ngame = \"speed\"\nseed = 5\ngames = 400\n[[matchup]]\nbots = [\"fast.toml\", \"smart\"]\n[[matchup]]\nbots = [\"greedy\", \"smart\"]\n").unwrap();
    (exp, bot)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_kill_at_any_step_of_the_final_write_leaves_the_old_folder_or_the_new() {
    let root = scratch("kill");
    let (exp, _) = study(&root);
    let clean = root.join("clean");
    ok(&["run", s(&exp), "--out", s(&clean), "--quiet"]);
    let new = results(&clean);
    // An old folder of the same experiment, from fewer games.
    let out = root.join("out");
    for step in ["switch-write:summary.csv", "switch-write:manifest.toml", "switch-exchange", "switch-exchanged"] {
        let _ = std::fs::remove_dir_all(&out);
        ok(&["run", s(&exp), "--out", s(&out), "--quiet", "--games", "40"]);
        let old = results(&out);
        assert_ne!(old, new);
        let o = cardsim(&["run", s(&exp), "--out", s(&out), "--quiet"], &[("CARDSIM_FAULT_ABORT_AT", step)]);
        assert!(!o.status.success(), "{step}: the hook aborts");
        let now = results(&out);
        if step == "switch-exchanged" {
            assert_eq!(now, new, "{step}: after the switch the folder is the new one");
        } else {
            assert_eq!(now, old, "{step}: before the switch the folder is the old one, whole");
            assert!(out.join(".resume-1-of-1.json").exists(), "{step}: the checkpoint is kept until the switch");
            let note = ok(&["run", s(&exp), "--out", s(&out), "--quiet", "--resume"]);
            assert!(note.contains("resuming") && note.contains("already played"), "{step}: {note}");
            assert_eq!(files(&out), new, "{step}: the resumed run writes the clean run's bytes, and nothing else stays");
        }
        // What the killed write left beside the folder is only its temporary folder.
        for l in leftovers(&out) {
            assert!(l.ends_with(".new") || l.ends_with(".old"), "{l}");
            std::fs::remove_dir_all(root.join(l)).unwrap();
        }
    }
}

#[test]
fn a_full_disk_in_the_final_write_keeps_the_old_folder_and_the_checkpoint() {
    let root = scratch("full");
    let (exp, _) = study(&root);
    let out = root.join("out");
    ok(&["run", s(&exp), "--out", s(&out), "--quiet", "--games", "40"]);
    let old = results(&out);
    // Enough room for the checkpoints, not for the results folder.
    let o = cardsim(&["run", s(&exp), "--out", s(&out), "--quiet"], &[("CARDSIM_FAULT_DISK_FULL_AFTER", "60000")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("No space left on device"), "{err}");
    assert_eq!(results(&out), old, "the old folder, whole");
    assert!(leftovers(&out).is_empty(), "the temporary folder is removed: {:?}", leftovers(&out));
    if out.join(".resume-1-of-1.json").exists() {
        ok(&["run", s(&exp), "--out", s(&out), "--quiet", "--resume"]);
    } else {
        ok(&["run", s(&exp), "--out", s(&out), "--quiet"]);
    }
    let clean = root.join("clean");
    ok(&["run", s(&exp), "--out", s(&clean), "--quiet"]);
    assert_eq!(files(&out), files(&clean));
}

/// Runs `args` until the first checkpoint is saved, then kills it there (as kill -9).
fn killed_after_first_unit(args: &[&str]) {
    let o = cardsim(args, &[("CARDSIM_FAULT_ABORT_AT", "checkpoint")]);
    assert!(!o.status.success());
}

#[test]
fn a_changed_bot_file_or_experiment_between_interrupt_and_resume_is_refused() {
    let root = scratch("changed");
    let (exp, bot) = study(&root);
    let out = root.join("out");
    killed_after_first_unit(&["run", s(&exp), "--out", s(&out), "--quiet"]);
    assert!(out.join(".resume-1-of-1.json").exists());
    std::fs::write(&bot, "game = \"speed\"\nstrategy = \"greedy\"\npreset = \"novice\"\n").unwrap();
    let err = error(&["run", s(&exp), "--out", s(&out), "--quiet", "--resume"], &[]);
    assert!(err.contains("fast.toml changed since the run was interrupted"), "{err}");
    std::fs::write(&bot, "game = \"speed\"\nstrategy = \"greedy\"\npreset = \"expert\"\n").unwrap();
    let mut text = std::fs::read_to_string(&exp).unwrap();
    text = text.replace("description = \"s\"", "description = \"t\"");
    std::fs::write(&exp, &text).unwrap();
    let err = error(&["run", s(&exp), "--out", s(&out), "--quiet", "--resume"], &[]);
    assert!(err.contains("study.toml changed since the run was interrupted"), "{err}");
}

/// Rewrites a state file's JSON with `edit`, then (with `resign`) its checksum.
fn tamper(path: &Path, resign: bool, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    edit(&mut v);
    if resign {
        let state = serde_json::to_vec(&v["state"]).unwrap();
        v["state_sha256"] = cardsim::experiment::pins::sha256_hex(&state).into();
    }
    std::fs::write(path, serde_json::to_vec(&v).unwrap()).unwrap();
}

#[test]
fn a_tampered_checkpoint_is_refused_naming_the_field() {
    let root = scratch("checkpoint");
    let (exp, _) = study(&root);
    let out = root.join("out");
    killed_after_first_unit(&["run", s(&exp), "--out", s(&out), "--quiet"]);
    let cp = out.join(".resume-1-of-1.json");
    let saved = std::fs::read(&cp).unwrap();
    let resume = ["run", s(&exp), "--out", s(&out), "--quiet", "--resume"];
    let cases: Vec<(bool, &str, Corruption)> = vec![
        (false, "does not match its checksum", Box::new(|v| v["state"]["stats"][0]["wins"][0][0] = 1.into())),
        (true, "units_done: 999 of", Box::new(|v| v["units_done"] = 999.into())),
        (true, "state.stats[0].games", Box::new(|v| v["units_done"] = 2.into())),
        (true, "state.stats[0].games", Box::new(|v| v["units_done"] = 0.into())),
        (true, "state.stats[0].wins: more wins than games", Box::new(|v| v["state"]["stats"][0]["wins"][0][0] = 10_000.into())),
        (true, "state.stats[0].games[1]: 1 entries", Box::new(|v| { v["state"]["stats"][0]["games"][1].as_array_mut().unwrap().pop(); })),
        (true, "state.stats: 1 entries where the experiment's table has 2", Box::new(|v| { v["state"]["stats"].as_array_mut().unwrap().pop(); })),
        (true, "state.stats[0].games", Box::new(|v| v["state"]["stats"][0]["games"][0][0] = u64::MAX.into())),
        (true, "not a shard", Box::new(|v| v["shard"]["k"] = 7.into())),
    ];
    for (resign, needle, edit) in cases {
        std::fs::write(&cp, &saved).unwrap();
        tamper(&cp, resign, edit);
        let err = error(&resume, &[]);
        assert!(err.contains(".resume-1-of-1.json") && err.contains(needle), "{needle}: {err}");
    }
    // Untouched, it resumes.
    std::fs::write(&cp, &saved).unwrap();
    ok(&resume);
}

#[test]
fn shards_merge_only_when_every_input_and_count_holds() {
    let root = scratch("shards");
    let (exp, bot) = study(&root);
    let parts = root.join("parts");
    ok(&["run", s(&exp), "--shard", "1/2", "--out", s(&parts), "--quiet"]);
    // The second shard plays with a changed bot file.
    std::fs::write(&bot, "game = \"speed\"\nstrategy = \"greedy\"\npreset = \"novice\"\n").unwrap();
    ok(&["run", s(&exp), "--shard", "2/2", "--out", s(&parts), "--quiet"]);
    let merged = root.join("merged");
    let err = error(&["merge", s(&parts), "--out", s(&merged)], &[]);
    assert!(err.contains("parts of different runs: fast.toml changed since the first shard ran"), "{err}");
    std::fs::write(&bot, "game = \"speed\"\nstrategy = \"greedy\"\npreset = \"expert\"\n").unwrap();
    ok(&["run", s(&exp), "--shard", "2/2", "--out", s(&parts), "--quiet"]);
    // Merged where the experiment is named from elsewhere (another working folder).
    let o = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(["merge", "parts", "--out", "merged", "--experiment", "study.toml"]).current_dir(&root).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let single = root.join("single");
    ok(&["run", s(&exp), "--out", s(&single), "--quiet"]);
    assert_eq!(files(&merged), files(&single), "merged shards and a single run");
    let part = parts.join("partial-2-of-2.json");
    let saved = std::fs::read(&part).unwrap();
    let merge = ["merge", s(&parts), "--out", s(&merged)];
    let cases: Vec<(bool, &str, Corruption)> = vec![
        (true, "more wins than games", Box::new(|v| v["state"]["stats"][1]["wins"][1][1] = 100_000.into())),
        (true, "1 entries where the experiment's table has 2", Box::new(|v| { v["state"]["stats"][1]["deal_wins"].as_array_mut().unwrap().pop(); })),
        (true, "bot-seat games where", Box::new(|v| v["state"]["stats"][0]["games"][0][0] = (u64::MAX - 5).into())),
        (false, "not a shard", Box::new(|v| v["shard"]["k"] = 5.into())),
        (false, "holds shard 1/2, whose file is partial-1-of-2.json", Box::new(|v| v["shard"]["k"] = 0.into())),
        (false, "does not match its checksum", Box::new(|v| v["state"]["stats"][0]["draws"] = 3.into())),
    ];
    for (resign, needle, edit) in cases {
        std::fs::write(&part, &saved).unwrap();
        tamper(&part, resign, edit);
        let err = error(&merge, &[]);
        assert!(err.contains(needle), "{needle}: {err}");
        assert_eq!(files(&merged), files(&single), "{needle}: a refused merge leaves the folder as it was");
    }
    std::fs::write(&part, &saved).unwrap();
    // The output may not hold the merge's own inputs, nor be another experiment's.
    assert!(error(&["merge", s(&parts), "--out", s(&parts)], &[]).contains("an input of this command"));
}

#[test]
fn a_second_run_into_a_live_runs_folder_is_refused_naming_the_holder() {
    let root = scratch("lock");
    let (exp, _) = study(&root);
    let out = root.join("out");
    let first = playing_long_run(&exp, &out, &root.join("ready"));
    let err = error(&["run", s(&exp), "--out", s(&out), "--quiet"], &[]);
    assert!(err.contains(&format!("in use by another cardsim (process {} on host", first.id())), "{err}");
    assert!(error(&["run", s(&exp), "--out", s(&out), "--quiet", "--resume"], &[]).contains("in use by another cardsim"));
    signal(&first, "TERM");
    let o = first.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "SIGTERM stops a run as Ctrl-C does: {}", String::from_utf8_lossy(&o.stderr));
    // Free again once the first is gone.
    let second = cardsim(&["run", s(&exp), "--out", s(&out), "--quiet", "--games", "40"], &[]);
    assert!(second.status.success(), "{}", String::from_utf8_lossy(&second.stderr));
}

/// Starts a run of `exp` into `out` far too long to finish and returns it once it is
/// playing (it has created `ready`).
fn playing_long_run(exp: &Path, out: &Path, ready: &Path) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardsim"))
        .args(["run", s(exp), "--out", s(out), "--quiet", "--games", "100000000"])
        .env("CARDSIM_NOTIFY_PLAYING", ready)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(ready, &mut child);
    child
}

/// Waits until `child` has created `ready` (it is playing), failing if it exits first.
fn wait_for(ready: &Path, child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(300);
    while !ready.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("exited before it played: {status}");
        }
        assert!(Instant::now() < deadline, "never started playing");
        std::thread::yield_now();
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn signal(child: &Child, sig: &str) {
    assert!(Command::new("kill").args([&format!("-{sig}"), &child.id().to_string()]).status().unwrap().success());
}

#[test]
fn a_signal_at_any_moment_leaves_a_valid_checkpoint_or_says_nothing_was_saved() {
    let root = scratch("signal");
    let (exp, _) = study(&root);
    for (i, sig) in ["INT", "TERM", "HUP"].iter().enumerate() {
        let out = root.join(format!("out{i}"));
        let child = playing_long_run(&exp, &out, &root.join(format!("ready{i}")));
        signal(&child, sig);
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(130), "{sig}: {err}");
        let cp = out.join(".resume-1-of-1.json");
        if err.contains("nothing was saved") {
            assert!(!cp.exists(), "{sig}: {err}");
        } else {
            assert!(err.contains("units are saved in"), "{sig}: {err}");
            assert!(cp.exists(), "{sig}: {err}");
            // The checkpoint holds up: --resume reads and checks it (then stops dead).
            let o = cardsim(&["run", s(&exp), "--out", s(&out), "--quiet", "--games", "100000000", "--resume"], &[("CARDSIM_FAULT_ABORT_AT", "playing")]);
            assert!(String::from_utf8_lossy(&o.stderr).contains("resuming"), "{sig}: {}", String::from_utf8_lossy(&o.stderr));
        }
    }
}

#[test]
fn special_files_where_state_or_input_is_expected_never_block_or_flood() {
    let root = scratch("special");
    let (exp, _) = study(&root);
    let out = root.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let fifo = out.join(".resume-1-of-1.json");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let err = error(&["run", s(&exp), "--out", s(&out), "--quiet", "--resume"], &[]);
    assert!(err.contains("not a regular file"), "{err}");
    std::fs::remove_file(&fifo).unwrap();
    if Path::new("/dev/zero").exists() {
        std::os::unix::fs::symlink("/dev/zero", &fifo).unwrap();
        let err = error(&["run", s(&exp), "--out", s(&out), "--quiet", "--resume"], &[]);
        assert!(err.contains("not a regular file"), "{err}");
        std::fs::remove_file(&fifo).unwrap();
    }
    // A bot file that is a pipe nobody writes reads as empty, at once.
    let bot = root.join("pipe.toml");
    assert!(Command::new("mkfifo").arg(&bot).status().unwrap().success());
    let err = error(&["match", "speed", "--bot", s(&bot), "--bot", "smart", "--games", "2"], &[]);
    assert!(err.contains("pipe.toml"), "{err}");
}

#[test]
fn outputs_never_overwrite_inputs_or_land_outside_the_experiments_tree() {
    let root = scratch("inputs");
    let times = root.join("times.toml");
    let text: String = (0..40).map(|i| format!("{}\n", 400 + 7 * (i % 13) + i)).collect();
    std::fs::write(&times, &text).unwrap();
    let err = error(&["fit-rt", s(&times), "--out", s(&times)], &[]);
    assert!(err.contains("is the input file"), "{err}");
    assert_eq!(std::fs::read_to_string(&times).unwrap(), text, "the measured times are kept");
    let link = root.join("link.toml");
    std::os::unix::fs::symlink(&times, &link).unwrap();
    assert!(error(&["fit-rt", s(&times), "--out", s(&link)], &[]).contains("is the input file"));
    for (out, needle) in [("\"/tmp/elsewhere\"", "must be relative"), ("\"../../x\"", "climbs out"), ("\".\"", "not a folder inside it"), ("\"sub/../../y\"", "climbs out")] {
        let exp = root.join("e.toml");
        std::fs::write(&exp, format!("description = \"d\"\ngame = \"speed\"\nseed = 1\ngames = 4\nout = {out}\n[[matchup]]\nbots = [\"smart\", \"greedy\"]\n")).unwrap();
        let err = error(&["run", s(&exp), "--quiet"], &[]);
        assert!(err.contains("out = ") && err.contains(needle), "{out}: {err}");
    }
    // The default of a file in experiments/ climbs one level, as the committed ones do.
    std::fs::create_dir_all(root.join("experiments")).unwrap();
    let exp = root.join("experiments/e.toml");
    std::fs::write(&exp, "description = \"d\"\ngame = \"speed\"\nseed = 1\ngames = 4\nout = \"../results/e2\"\n[[matchup]]\nbots = [\"smart\", \"greedy\"]\n").unwrap();
    ok(&["run", s(&exp), "--quiet"]);
    assert!(root.join("results/e2/manifest.toml").exists());
    // `run dir/manifest.toml --out dir`: the experiment would be replaced; refused.
    let manifest = root.join("results/e2/manifest.toml");
    let copy = root.join("results/e2/again.toml");
    std::fs::write(&copy, "description = \"d\"\ngame = \"speed\"\nseed = 1\ngames = 4\n[[matchup]]\nbots = [\"smart\", \"greedy\"]\n").unwrap();
    assert!(error(&["run", s(&copy), "--out", s(&root.join("results/e2"))], &[]).contains("an input of this command"));
    let _ = manifest;
}

#[test]
fn an_external_bots_script_is_pinned_like_a_bot_file() {
    let root = scratch("exec");
    for f in ["speed_random.py", "botlib.py"] {
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bots").join(f), root.join(f)).unwrap();
    }
    let script = root.join("speed_random.py");
    let exp = root.join("ext.toml");
    std::fs::write(&exp, format!("description = \"e\"\ngame = \"speed\"\nseed = 2\ngames = 20\n[[matchup]]\nbots = [\"exec:python3,{}\", \"greedy\"]\n", script.display())).unwrap();
    let parts = root.join("parts");
    ok(&["run", s(&exp), "--shard", "1/2", "--out", s(&parts), "--quiet", "--threads", "1"]);
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str("\n# changed between the shards\n");
    std::fs::write(&script, text).unwrap();
    ok(&["run", s(&exp), "--shard", "2/2", "--out", s(&parts), "--quiet", "--threads", "1"]);
    let err = error(&["merge", s(&parts), "--out", s(&root.join("merged"))], &[]);
    assert!(err.contains("speed_random.py changed since the first shard ran"), "{err}");
}

/// A change made to a saved JSON file to corrupt it.
type Corruption = Box<dyn FnOnce(&mut serde_json::Value)>;
