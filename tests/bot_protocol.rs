//! External bots over the bot protocol (docs/bot-protocol.md): the Python clones of
//! built-in strategies are bit-for-bit twins, runs with an external bot are
//! reproducible on any thread count and `--bot` order, every fault fails the run with
//! one line and no output file, and no bot process outlives a run (also after Ctrl-C
//! and a closed output). Needs `python3`.

#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> common::Scratch {
    common::scratch("bp", name)
}

fn cardsim(args: &[&str]) -> Output {
    with_pids(args, Path::new("/dev/null")).output().unwrap()
}

/// cardsim with `args`, its `faulty.py` bots writing their pids to `pidfile`.
fn with_pids(args: &[&str], pidfile: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cardsim"));
    c.current_dir(root()).args(args).env("FAULTY_PIDS", pidfile);
    c
}

/// The CSV of `match GAME` with these bots and options.
fn csv(game: &str, bots: &[&str], extra: &[&str], dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    let mut args = vec!["match", game, "--seed", "3", "--quiet", "--csv", path.to_str().unwrap()];
    for b in bots {
        args.extend(["--bot", b]);
    }
    args.extend(extra);
    let out = cardsim(&args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_to_string(&path).unwrap()
}

/// The twin test: the clone's CSV equals the built-in strategy's, labels aside.
fn twin(game: &str, clone: &str, builtin: &str, others: &[&str], games: &str) {
    let dir = scratch(&format!("twin-{game}"));
    let label = format!("exec:examples/bots/{clone}");
    let mut ext = vec![label.as_str()];
    ext.extend(others);
    let mut int = vec![builtin];
    int.extend(others);
    let a = csv(game, &ext, &["--games", games], &dir, "ext.csv");
    let b = csv(game, &int, &["--games", games], &dir, "int.csv");
    assert!(a.contains(&label));
    assert_eq!(a.replace(&label, builtin), b, "{clone} plays exactly as {builtin}");
}

#[test]
fn spit_greedy_clone_is_a_twin() {
    twin("spit", "spit_greedy.py", "greedy", &["smart@expert"], "120");
}

#[test]
fn speed_greedy_clone_is_a_twin() {
    twin("speed", "speed_greedy.py", "greedy", &["random"], "120");
}

#[test]
fn lopti_lowest_clone_is_a_twin() {
    twin("lopti", "lopti_lowest.py", "lowest", &["burner", "random"], "240");
}

#[test]
fn nerts_lazy_clone_is_a_twin() {
    twin("nerts", "nerts_lazy.py", "lazy", &["balanced"], "20");
}

#[test]
fn runs_with_an_external_bot_are_the_same_on_any_thread_count_and_bot_order() {
    let dir = scratch("determinism");
    let bots = ["exec:examples/bots/lopti_random.py", "lowest", "burner"];
    let first = csv("lopti", &bots, &["--games", "120", "--threads", "1"], &dir, "t1.csv");
    assert_eq!(csv("lopti", &bots, &["--games", "120", "--threads", "2"], &dir, "t2.csv"), first, "2 threads");
    for order in [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
        let shuffled: Vec<&str> = order.iter().map(|&i| bots[i]).collect();
        assert_eq!(csv("lopti", &shuffled, &["--games", "120", "--threads", "2"], &dir, "o.csv"), first, "order {order:?}");
    }
    // The random bot's dice come from its seed: another seed, another result.
    let other = cardsim(&["match", "spit", "--bot", "exec:examples/bots/spit_random.py", "--bot", "greedy", "--games", "60", "--quiet", "--seed", "3", "--threads", "1"]);
    let again = cardsim(&["match", "spit", "--bot", "exec:examples/bots/spit_random.py", "--bot", "greedy", "--games", "60", "--quiet", "--seed", "3", "--threads", "2"]);
    let table = |o: &Output| String::from_utf8_lossy(&o.stdout).lines().filter(|l| !l.starts_with("throughput")).collect::<Vec<_>>().join("\n");
    assert!(other.status.success() && again.status.success());
    assert_eq!(table(&other), table(&again), "Spit with a random external bot, 1 and 2 threads");
}

/// The process ids a `faulty.py` bot wrote.
fn pids(file: &Path) -> Vec<u32> {
    std::fs::read_to_string(file).unwrap_or_default().split_inclusive('\n').filter_map(|l| l.strip_suffix('\n')?.parse().ok()).collect()
}

/// Asserts that none of the processes is left (not running, not a zombie).
fn all_reaped(file: &Path) {
    let pids = pids(file);
    for p in pids {
        assert!(!Path::new(&format!("/proc/{p}")).exists(), "bot process {p} outlived the run: {:?}", std::fs::read_to_string(format!("/proc/{p}/stat")));
    }
}

/// Runs `faulty.py MODE` in `game` against `other` with a CSV requested, and returns
/// the error line after checking exit 2, one line, no CSV, and every process reaped.
fn fault(mode: &str, game: &str, other: &str) -> String {
    let dir = scratch(&format!("fault-{mode}-{game}"));
    let pidfile = dir.join("pids");
    let bot = format!("exec:tests/bots/faulty.py,{mode}");
    let out_csv = dir.join("out.csv");
    // Only `hang` needs the timeout to fire; for every other fault it is generous, so
    // that a Python start slowed by a loaded machine is never taken for the fault.
    let timeout = if mode == "hang" { "3" } else { "120" };
    let out = with_pids(&["match", game, "--bot", &bot, "--bot", other, "--games", "40", "--quiet", "--bot-timeout", timeout, "--csv", out_csv.to_str().unwrap()], &pidfile).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{mode}: {err}");
    assert_eq!(err.lines().count(), 1, "{mode}: one line: {err}");
    assert!(!out_csv.exists(), "{mode}: no CSV after a fault");
    assert!(err.contains(&format!("bot '{bot}' (seat ")) && err.contains("of deal ") && err.contains("(seed 1, match ") && err.contains(&format!("reproduce with: cardsim trace {game} --bot ")) && err.contains(" --index "), "{mode}: {err}");
    assert!(!pids(&pidfile).is_empty(), "{mode}: the bot ran: {err}");
    all_reaped(&pidfile);
    err
}

#[test]
fn a_bot_that_cannot_start_fails_the_run() {
    let out = cardsim(&["match", "spit", "--bot", "exec:tests/bots/no-such-bot.py", "--bot", "greedy", "--games", "4", "--quiet"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("could not be started at its start (hello)") && err.contains("no-such-bot.py: No such file"), "{err}");
}

#[test]
fn a_bot_that_exits_fails_the_run() {
    assert!(fault("exit_hello", "speed", "greedy").contains("exited (its output ended) while an answer was due at its start (hello)"));
    let e = fault("exit_decide", "lopti", "lowest");
    assert!(e.contains("exited") && e.contains("at its decision 2 of the match") && e.contains("line: 'exit status 3'"), "{e}");
}

#[test]
fn a_bot_that_hangs_times_out() {
    let e = fault("hang", "spit", "greedy");
    assert!(e.contains("timed out: no answer line within 3 s (--bot-timeout) at its decision 2"), "{e}");
}

#[test]
fn a_line_that_is_not_json_fails_the_run() {
    let e = fault("not_json", "nerts", "lazy");
    assert!(e.contains("wrote a line that is not one JSON object") && e.contains("line: 'this is not json, the index is 0'"), "{e}");
}

#[test]
fn an_index_out_of_range_fails_the_run() {
    let e = fault("out_of_range", "speed", "greedy");
    assert!(e.contains("answered an index out of range (0 to "), "{e}");
}

#[test]
fn protocol_breaks_fail_the_run() {
    assert!(fault("bad_hello", "spit", "greedy").contains("its hello needs"));
    assert!(fault("wrong_version", "lopti", "lowest").contains("speaks another protocol version"));
    assert!(fault("no_index", "spit", "greedy").contains("an answer needs an integer \"index\""));
    // Staying idle is for real-time moves; Lopti must answer.
    assert!(fault("idle", "lopti", "lowest").contains("allowed only in a move of a real-time game"));
}

#[test]
fn an_illegal_answer_never_lands() {
    // The trace of the match stops before the bad answer: the bot's two good answers
    // landed, the third (out of range) did not, and the trace command fails the same way.
    let dir = scratch("never-lands");
    let pidfile = dir.join("pids");
    let bot = "exec:tests/bots/faulty.py,out_of_range".to_string();
    let out = with_pids(&["trace", "speed", "--bot", &bot, "--bot", "greedy", "--seating", "one", "--format", "jsonl"], &pidfile).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let starts = String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.contains("\"event\":\"start\"") && l.contains("\"seat\":0")).count();
    assert_eq!(starts, 2, "only the two legal answers were played");
    assert!(String::from_utf8_lossy(&out.stderr).contains("answered an index out of range"));
    all_reaped(&pidfile);
}

#[test]
fn no_bot_process_outlives_ctrl_c_or_a_closed_output() {
    use std::io::BufRead;
    // Ctrl-C: wait until the bot has started (it writes its pid), then interrupt.
    let dir = scratch("ctrl-c");
    let pidfile = dir.join("pids");
    let bot = "exec:tests/bots/faulty.py,ok".to_string();
    let mut child = with_pids(&["match", "speed", "--bot", &bot, "--bot", "greedy", "--games", "1000000", "--threads", "1"], &pidfile)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    // The event: the bot has written its pid (first thing, before it reads its hello;
    // cardsim installs its Ctrl-C handler before it starts any bot).
    while pids(&pidfile).is_empty() {
        std::thread::yield_now();
    }
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let mut line = String::new();
    let _ = stderr.read_line(&mut line);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "interrupted: {line}");
    all_reaped(&pidfile);

    // | head: read the first line of the summary, close the pipe.
    let dir = scratch("head");
    let pidfile = dir.join("pids");
    let bot = "exec:tests/bots/faulty.py,ok".to_string();
    let mut child = with_pids(&["match", "speed", "--bot", &bot, "--bot", "greedy", "--games", "40", "--quiet"], &pidfile)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    drop(out);
    assert!(child.wait().unwrap().success(), "a closed output is not an error");
    assert!(!pids(&pidfile).is_empty());
    all_reaped(&pidfile);
}

/// The built-in `greedy`, noting the view and the actions the protocol would send for
/// each of its decisions.
struct Recording {
    inner: Box<dyn cardsim::games::spit::strategies::SpitStrategy>,
    seen: std::sync::Arc<std::sync::Mutex<Vec<(serde_json::Value, serde_json::Value)>>>,
}

impl cardsim::games::spit::strategies::SpitStrategy for Recording {
    fn choose(&self, view: &cardsim::games::spit::view::SpitView, legal: &[cardsim::games::spit::rules::SpitAction], rng: &mut cardsim::rng::SimRng) -> Option<cardsim::games::spit::rules::SpitAction> {
        use cardsim::games::spit::protocol::{action_json, view_json};
        let actions = legal.iter().enumerate().map(|(i, &a)| {
            let mut v = action_json(view, a);
            v["index"] = serde_json::json!(i);
            v
        });
        self.seen.lock().unwrap().push((view_json(view), serde_json::Value::Array(actions.collect())));
        self.inner.choose(view, legal, rng)
    }
}

#[test]
fn the_view_sent_is_the_view_the_built_in_strategy_gets() {
    use cardsim::games::spit::strategies::REGISTRY;
    use cardsim::realtime::{Bot, RealtimeMatch};
    use cardsim::runner::{MatchGame, SeatingDesign};
    let make = |name: &str| REGISTRY.iter().find(|r| r.info.name == name).unwrap().make_default();
    let casual = cardsim::reaction::Preset::Casual.model();
    // The built-in greedy in seat 0 against random, one match.
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let builtin = RealtimeMatch::<cardsim::games::spit::Spit> {
        cfg: cardsim::games::spit::config::SpitConfig::default(),
        bots: vec![Bot { strategy: Box::new(Recording { inner: make("greedy"), seen: seen.clone() }), reaction: casual }, Bot { strategy: make("random"), reaction: casual }],
    };
    // The same match with the Python clone in its place, every line logged.
    let dir = scratch("views");
    let log = dir.join("exchange.log");
    let mut table = cardsim::table::Table::parse("spit", &["exec:examples/bots/spit_greedy.py".into(), "random".into()], &[], SeatingDesign::One).unwrap();
    table.bots[0].external.as_mut().unwrap().log = Some(log.clone());
    let (seat_bots, seeds) = table.run_config(1, 5, true).match_at(2, 0);
    let external = table.build().unwrap();
    let a = builtin.play(&seat_bots[..2], &seeds);
    let b = external.play(&seat_bots[..2], &seeds);
    drop(external);
    assert_eq!((a.winner, a.metrics), (b.winner, b.metrics), "the twin plays the same match");
    let sent: Vec<(serde_json::Value, serde_json::Value)> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("> "))
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|m| m["type"] == "decide" && m["decision"] == "move")
        .map(|m| (m["view"].clone(), m["actions"].clone()))
        .collect();
    let seen = seen.lock().unwrap();
    assert!(seen.len() > 20, "a whole match of decisions: {}", seen.len());
    assert_eq!(sent.len(), seen.len(), "one decide message per decision of the built-in strategy");
    for (k, (s, b)) in sent.iter().zip(seen.iter()).enumerate() {
        assert_eq!(s, b, "decision {k}: the view and actions sent are the built-in strategy's");
    }
}

/// Runs `args` (a command that plays, with the `hang` bot) and returns its error line
/// after checking exit 2, one line, nothing written at `unwritten`, and every bot process
/// reaped.
/// The run ends on the fault itself (the bot's timeout), so nothing waits on a clock.
fn hung(args: &[&str], dir: &Path, unwritten: &Path) -> String {
    let pidfile = dir.join("pids");
    let out = with_pids(args, &pidfile).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    // A results folder may be there (it is checked and created before play), empty.
    assert!(!unwritten.is_file() && std::fs::read_dir(unwritten).map_or(true, |mut d| d.next().is_none()), "{args:?}: nothing written after a fault");
    assert!(!pids(&pidfile).is_empty(), "{args:?}: the bot ran");
    all_reaped(&pidfile);
    err
}

#[test]
fn bot_timeout_applies_to_sprt_balance_and_run() {
    let bot = "exec:tests/bots/faulty.py,hang";
    let timed_out = "timed out: no answer line within 3 s (--bot-timeout) at its decision 2";
    let dir = scratch("timeout-sprt");
    let e = hung(&["sprt", "spit", "--bot", bot, "--bot", "greedy", "--elo0", "0", "--elo1", "10", "--max-games", "40", "--bot-timeout", "3"], &dir, &dir.join("none"));
    assert!(e.contains(timed_out) && e.contains(&format!("bot '{bot}' (seat ")), "sprt: {e}");

    let dir = scratch("timeout-balance");
    let out = dir.join("res");
    let e = hung(&["balance", "speed", "--bot", bot, "--bot", "greedy", "--vary", "speed.wrap=true,false", "--games", "20", "--quiet", "--bot-timeout", "3.0", "--out", out.to_str().unwrap()], &dir, &out);
    assert!(e.contains(timed_out), "balance: {e}");

    // An experiment file's bot_timeout, and --bot-timeout over it.
    let dir = scratch("timeout-run");
    let file = dir.join("hang.toml");
    let out = dir.join("res");
    let write = |timeout: &str| std::fs::write(&file, format!("description = \"a hanging bot\"\ngame = \"spit\"\nseed = 1\ngames = 20\nbot_timeout = {timeout}\n\n[[matchup]]\nbots = [\"{bot}\", \"greedy\"]\n")).unwrap();
    write("3.0");
    let e = hung(&["run", file.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"], &dir, &out);
    assert!(e.contains(timed_out), "run: {e}");
    write("3600.0");
    let e = hung(&["run", file.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet", "--bot-timeout", "3"], &dir, &out);
    assert!(e.contains(timed_out), "run --bot-timeout over the file's: {e}");
    write("7200.0");
    let bad = cardsim(&["run", file.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2));
    assert!(err.contains("hang.toml: bot_timeout = 7200: must be from 0.001 to 3600 seconds") && err.lines().count() == 1, "{err}");
}

#[test]
fn help_names_every_game_and_explains_external_bots() {
    let root = cardsim(&["--help"]);
    let text = String::from_utf8_lossy(&root.stdout);
    let games: Vec<String> = ["spit", "speed", "nerts", "lopti"].iter().filter(|g| !text.to_lowercase().contains(*g)).map(|g| g.to_string()).collect();
    assert!(root.status.success() && games.is_empty(), "cardsim --help leaves out {games:?}: {text}");
    for cmd in ["match", "trace", "sprt", "balance", "session"] {
        let out = cardsim(&[cmd, "--help"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{cmd} --help");
        for needle in ["exec:PATH[,ARG...][@PRESET]", "command = [", "docs/bot-protocol.md", "--bot-timeout"] {
            assert!(text.contains(needle), "cardsim {cmd} --help does not mention {needle}: {text}");
        }
    }
    // Every command that plays takes --bot-timeout.
    for cmd in ["match", "trace", "run", "sprt", "balance", "session", "bot-check"] {
        let text = String::from_utf8_lossy(&cardsim(&[cmd, "--help"]).stdout).into_owned();
        assert!(text.contains("--bot-timeout <SECONDS>"), "{cmd} --help");
    }
}

/// The CSV of `session lopti` with these bots.
fn session_csv(bots: &[&str], dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    let mut args = vec!["session", "lopti", "--rounds", "4", "--sessions", "12", "--seed", "3", "--quiet", "--threads", "2", "--set", "session.quick_rounds=12", "--csv", path.to_str().unwrap()];
    for b in bots {
        args.extend(["--bot", b]);
    }
    let out = cardsim(&args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn a_lopti_session_with_the_lowest_clone_is_a_twin() {
    // The clone plays every round (and the selfish strategies' quick simulation) over
    // the protocol; its built-in maker, voter and rps make its session decisions.
    let dir = scratch("session-twin");
    let label = "exec:examples/bots/lopti_lowest.py,rps=exploit";
    let a = session_csv(&[label, "burner", "random,maker=random"], &dir, "ext.csv");
    let b = session_csv(&["lowest,rps=exploit", "burner", "random,maker=random"], &dir, "int.csv");
    assert!(a.contains(label), "{a}");
    assert_eq!(a.replace(label, "lowest,rps=exploit"), b, "the clone plays its sessions exactly as lowest");
}

#[test]
fn a_bot_fault_in_a_session_fails_the_run_with_one_line() {
    let bot = "exec:tests/bots/faulty.py,exit_decide";
    // In the rounds of a session (no selfish strategy: no quick simulation).
    let dir = scratch("session-fault");
    let csv = dir.join("s.csv");
    let bots = [format!("{bot},maker=none,voter=none"), "lowest,maker=none,voter=none".into()];
    let mut args = vec!["session", "lopti", "--rounds", "3", "--sessions", "4", "--quiet", "--csv", csv.to_str().unwrap()];
    bots.iter().for_each(|b| args.extend(["--bot", b.as_str()]));
    let e = hung(&args, &dir, &csv);
    assert!(e.contains(&format!("bot '{bot},maker=none,voter=none' (seat ")) && e.contains("exited (its output ended) while an answer was due at its decision 2 of the match of round ") && e.contains(" of session ") && e.contains("line: 'exit status 3'") && e.contains("--trace-index"), "{e}");
    // In the quick simulation of the selfish strategies, with --bot-timeout.
    let dir = scratch("session-fault-quick");
    let csv = dir.join("s.csv");
    let e = hung(&["session", "lopti", "--bot", "exec:tests/bots/faulty.py,hang", "--bot", "lowest", "--rounds", "3", "--sessions", "4", "--quiet", "--bot-timeout", "3", "--csv", csv.to_str().unwrap()], &dir, &csv);
    assert!(e.contains("bot 'exec:tests/bots/faulty.py,hang' (seat ") && e.contains("timed out: no answer line within 3 s (--bot-timeout) at its decision 2 of the match in the quick simulation"), "{e}");
}

#[test]
fn a_lopti_session_with_the_selfish_clone_is_a_twin() {
    // The clone answers the rule making, the proposals, the votes and every
    // rock-paper-scissors throw itself, from the options, values and seeds cardsim
    // sends: the same sessions as the built-in lowest with the selfish maker and voter
    // and uniform RPS. Against a fair voter, two players tie every contested vote.
    let dir = scratch("session-selfish-twin");
    let label = "exec:examples/bots/lopti_session_selfish.py";
    for (others, name) in [(&["burner,voter=fair"][..], "two"), (&["burner,voter=fair", "lowest,rps=exploit"][..], "three")] {
        let bots = |first: &'static str| std::iter::once(first).chain(others.iter().copied()).collect::<Vec<_>>();
        let a = session_csv(&bots(label), &dir, &format!("ext-{name}.csv"));
        let b = session_csv(&bots("lowest"), &dir, &format!("int-{name}.csv"));
        assert!(a.contains(label), "{a}");
        assert_eq!(a.replace(label, "lowest"), b, "{name}: the clone plays and makes its session decisions exactly as lowest (selfish, selfish, uniform)");
        // Its session decisions matter: without them (no rules made, no proposals,
        // abstain) the sessions differ.
        let c = session_csv(&bots("lowest,maker=none,voter=none"), &dir, &format!("none-{name}.csv"));
        assert_ne!(c.replace("lowest,maker=none,voter=none", "lowest"), b, "{name}: the selfish decisions change the sessions");
    }
    // Rock-paper-scissors was played: the two-player sessions' ties.
    let out = cardsim(&["session", "lopti", "--bot", label, "--bot", "burner,voter=fair", "--rounds", "4", "--sessions", "12", "--seed", "3", "--quiet", "--set", "session.quick_rounds=12"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let rps: u64 = text.split(" settled by rock-paper-scissors").next().and_then(|l| l.rsplit(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(out.status.success() && rps > 10, "{rps} tie-breaks: {text}");
}

#[test]
fn botlib_cardsim_rng_draws_what_cardsim_draws() {
    use rand::RngExt;
    let seeds = [0u64, 1, 7, 0x6D65_7461, u64::MAX, 12_345_678_901_234_567_890];
    let script = format!(
        "import sys; sys.path.insert(0, 'examples/bots'); import botlib\nfor s in {seeds:?}:\n    r = botlib.CardsimRng(s)\n    print(' '.join([str(r.next_u64()) for _ in range(3)] + [str(r.below(n)) for n in [3, 3, 6, 10, 3] * 40]))\n"
    );
    let out = Command::new("python3").current_dir(root()).args(["-c", &script]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
    for (s, line) in seeds.iter().zip(&lines) {
        let mut r = cardsim::rng::rng_from(*s);
        let mut want: Vec<String> = (0..3).map(|_| rand::Rng::next_u64(&mut r).to_string()).collect();
        want.extend([3usize, 3, 6, 10, 3].repeat(40).into_iter().map(|n| r.random_range(0..n).to_string()));
        assert_eq!(line, &want.join(" "), "seed {s}");
    }
    assert_eq!(lines.len(), seeds.len());
}
