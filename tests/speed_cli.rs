//! Speed through the command line (thread-count determinism, seeds, trace, list) and
//! through the library (no allocation while a match runs).

use cardsim::bot::BotSpec;
use cardsim::settings::Settings;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;
use std::process::Command;

/// Counts the allocations of the current thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count_one() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn cardsim(args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("cardsim runs");
    assert!(out.status.success(), "cardsim {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cardsim-speed-{}-{name}", std::process::id()))
}

fn csv_of(seed: &str, threads: &str, name: &str) -> Vec<u8> {
    let path = temp(name);
    let p = path.to_str().unwrap();
    cardsim(&["match", "speed", "--bot", "smart@skilled", "--bot", "random@casual", "--games", "600", "--seed", seed, "--threads", threads,
        "--set", "speed.target=6", "--quiet", "--csv", p]);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    bytes
}

#[test]
fn speed_csv_is_byte_identical_on_one_and_two_threads_and_depends_on_the_seed() {
    let one = csv_of("5", "1", "a.csv");
    let two = csv_of("5", "2", "b.csv");
    assert_eq!(one, two, "thread count changed the CSV");
    let text = String::from_utf8(one.clone()).unwrap();
    let header = text.lines().next().unwrap();
    for col in ["game", "win_rate", "win_ci_low", "deals_split", "capped", "rounds_mean", "flips_mean", "margin_mean", "seconds_p99"] {
        assert!(header.split(',').any(|h| h == col), "missing column {col} in {header}");
    }
    assert_eq!(text.lines().count(), 1 + 8, "header plus bot rows (all, seat 0, seat 1) for two bots and two pooled seat rows");
    assert!(text.lines().skip(1).all(|l| l.starts_with("speed,")));
    assert_ne!(one, csv_of("6", "2", "c.csv"), "another seed gave the same CSV");
}

#[test]
fn speed_trace_jsonl_has_the_documented_events() {
    let out = cardsim(&["trace", "speed", "--bot", "greedy@skilled", "--bot", "smart@skilled", "--index", "3", "--format", "jsonl"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        assert!(v["event"] == "match_start" || (v["pile_tops"].is_array() && v["side_sizes"].is_array()), "{line}");
        kinds.insert(v["event"].as_str().unwrap().to_string());
    }
    for k in ["deal", "hands", "opening", "start", "play", "draw", "deal_end", "match_end"] {
        assert!(kinds.contains(k), "no {k} event in {kinds:?}");
    }
    let again = cardsim(&["trace", "speed", "--bot", "greedy@skilled", "--bot", "smart@skilled", "--index", "3", "--format", "jsonl"]);
    assert_eq!(text.as_bytes(), &again.stdout[..], "a trace replays from its seed");
}

#[test]
fn speed_is_listed_with_its_flags_and_metrics() {
    let text = String::from_utf8(cardsim(&["list"]).stdout).unwrap();
    for s in ["speed (real-time; 2 players)", "speed.side_pile_size=10", "speed.wrap=true", "speed.score_counts=stock_only", "speed.target=0", "margin"] {
        assert!(text.contains(s), "`cardsim list` lacks {s}");
    }
}

#[test]
fn a_running_speed_match_does_not_allocate() {
    let entry = cardsim::games::find("speed").unwrap();
    let bots = [BotSpec::parse("smart@skilled").unwrap(), BotSpec::parse("random@expert").unwrap()];
    let settings = Settings::parse(entry.flags(), &["speed.target=10".into()]).unwrap();
    let counted = ALLOCATIONS.with(|n| n.get());
    let game = entry.build(&bots, &settings).unwrap();
    assert!(ALLOCATIONS.with(|n| n.get()) > counted, "the counter sees the bots being built");
    let game = game.as_match_game();
    game.play(&[0, 1], &cardsim::rng::MatchSeeds::of_deal(1));
    let before = ALLOCATIONS.with(|n| n.get());
    let mut deals = 0;
    for seed in 0..200 {
        deals += game.play(&[0, 1], &cardsim::rng::MatchSeeds::of_deal(seed)).metrics[0];
    }
    assert!(deals >= 200);
    assert_eq!(ALLOCATIONS.with(|n| n.get()) - before, 0, "allocations while matches ran");
}
