//! The library API (`cardsim::api`): a match run through it gives the bytes `cardsim
//! match --csv` writes; custom strategies written from the rules of built-in ones
//! (examples/custom_strategy.rs) are bit-for-bit twins of them; a custom strategy's
//! figures do not depend on the thread count or the order bots are added in; a custom
//! strategy cannot make an action or a swap it was not offered land.

use cardsim::api::{lopti, Custom, Match, Seating, SimRng};
use rand::RngExt;
use std::process::Command;

#[path = "../examples/custom_strategy.rs"]
mod example;

/// The CSV `cardsim match` writes to standard output for these arguments.
fn cli_csv(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(["match", "--quiet", "--csv", "-"]).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_match_of_built_in_bots_gives_the_cli_csv() {
    let api = Match::new("lopti").bot("lowest").bot("burner").bot("random").set("lopti.bonus_optional=true").games(300).seed(7).threads(2).run().unwrap();
    let cli = cli_csv(&["lopti", "--bot", "lowest", "--bot", "burner", "--bot", "random", "--set", "lopti.bonus_optional=true", "--games", "300", "--seed", "7", "--threads", "1"]);
    assert_eq!(api.csv_text(), cli);
    let api = Match::new("spit").bot("greedy@skilled").bot("smart@expert").games(60).seed(4).seating(Seating::Rotations).run().unwrap();
    let cli = cli_csv(&["spit", "--bot", "greedy@skilled", "--bot", "smart@expert", "--games", "60", "--seed", "4", "--seating", "rotations"]);
    assert_eq!(api.csv_text(), cli);
    // No bot: the game's default bots, as on the command line.
    assert_eq!(Match::new("speed").games(20).run().unwrap().csv_text(), cli_csv(&["speed", "--games", "20"]));
}

/// The CSV of `custom` (labelled `label`) with `others`, its label written as `builtin`.
fn custom_csv(game: &str, label: &str, custom: Custom, builtin: &str, others: &[&str], games: u64) -> String {
    let mut m = Match::new(game).custom(label, custom);
    for o in others {
        m = m.bot(o);
    }
    let csv = m.games(games).seed(11).run().unwrap().csv_text();
    assert!(csv.contains(label));
    csv.replace(label, builtin)
}

/// The CSV of the built-in `builtin` with `others`.
fn builtin_csv(game: &str, builtin: &str, others: &[&str], games: u64) -> String {
    let mut m = Match::new(game).bot(builtin);
    for o in others {
        m = m.bot(o);
    }
    m.games(games).seed(11).run().unwrap().csv_text()
}

#[test]
fn the_lopti_lowest_clone_is_a_twin() {
    // Labels sort as the built-in's does (burner < lowest, my-lowest < random): the same
    // seatings get the same seeds.
    let others = ["burner", "random"];
    let twin = custom_csv("lopti", "my-lowest", Custom::lopti(|| example::MyLowest), "lowest", &others, 600);
    assert_eq!(twin, builtin_csv("lopti", "lowest", &others, 600), "MyLowest plays exactly as lowest");
    // Against deterministic bots only, games that repeat a position are stopped as
    // cycled, as for the built-in (lowest-vs-lowest deals cycle).
    let twin = custom_csv("lopti", "my-lowest", Custom::lopti(|| example::MyLowest), "lowest", &["burner"], 400);
    assert_eq!(twin, builtin_csv("lopti", "lowest", &["burner"], 400), "MyLowest is deterministic as lowest is");
}

#[test]
fn the_spit_greedy_clone_is_a_twin() {
    let others = ["smart@expert"];
    let twin = custom_csv("spit", "my-greedy@skilled", Custom::spit(|| example::MyGreedy), "greedy@skilled", &others, 120);
    assert_eq!(twin, builtin_csv("spit", "greedy@skilled", &others, 120), "MyGreedy plays exactly as greedy");
}

/// A Lopti strategy that rolls its dice for every choice.
struct Dice;

impl lopti::Strategy for Dice {
    fn swap(&self, view: &lopti::View, rng: &mut SimRng) -> Option<lopti::Swap> {
        let hand: Vec<lopti::Rank> = view.hand().ranks().collect();
        let face_up: Vec<lopti::Rank> = view.face_up().ranks().collect();
        (rng.random_range(0..2) == 1).then(|| lopti::Swap { hand: hand[rng.random_range(0..hand.len())], face_up: face_up[rng.random_range(0..face_up.len())] })
    }
    fn act(&self, _: &lopti::View, legal: &lopti::Actions, rng: &mut SimRng) -> lopti::Action {
        legal[rng.random_range(0..legal.len())]
    }
}

#[test]
fn a_custom_strategy_is_reproducible_on_any_thread_count_and_bot_order() {
    let run = |threads: usize, first: bool, seed: u64| {
        let m = Match::new("lopti");
        let m = if first { m.custom("dice", Custom::lopti(|| Dice)).bot("lowest").bot("burner") } else { m.bot("lowest").bot("burner").custom("dice", Custom::lopti(|| Dice)) };
        m.games(900).seed(seed).threads(threads).run().unwrap().csv_text()
    };
    let one = run(1, true, 5);
    assert_eq!(one, run(2, true, 5), "same seed, 1 and 2 threads");
    assert_eq!(one, run(2, false, 5), "same seed, other --bot order");
    assert_ne!(one, run(1, true, 6), "the dice come from the seed");
}

/// Plays the first legal action but answers `bad` when `act` is true (a move never
/// offered) or swaps a card it does not hold when `act` is false.
struct Cheat {
    act: bool,
}

impl lopti::Strategy for Cheat {
    fn swap(&self, view: &lopti::View, _: &mut SimRng) -> Option<lopti::Swap> {
        let missing = (0..13).find(|&r| view.hand().count(r) == 0).expect("a rank not in a 3-card hand");
        (!self.act).then(|| lopti::Swap { hand: missing, face_up: view.face_up().ranks().next().expect("face-up cards at setup") })
    }
    fn act(&self, _: &lopti::View, legal: &lopti::Actions, _: &mut SimRng) -> lopti::Action {
        if self.act {
            lopti::Action::Play { rank: lopti::TEN, count: 0 }
        } else {
            legal[0]
        }
    }
}

#[test]
fn a_custom_strategy_cannot_make_an_unoffered_choice_land() {
    for (act, shown) in [(true, "play 10 x0"), (false, "swap hand")] {
        let err = Match::new("lopti").custom("cheat", Custom::lopti(move || Cheat { act })).bot("lowest").games(10).run().err().expect("the run fails");
        assert!(err.contains("cheat") && err.contains(shown), "the report names the bot and its choice: {err}");
    }
}

#[test]
fn bad_custom_bots_are_refused_with_one_line() {
    let err = Match::new("spit").custom("mine", Custom::lopti(|| example::MyLowest)).bot("greedy").games(10).run().err().unwrap();
    assert_eq!(err, "--bot mine: a lopti strategy cannot play spit");
    let err = Match::new("lopti").custom("mine@expert", Custom::lopti(|| example::MyLowest)).bot("lowest").games(10).run().err().unwrap();
    assert!(err.contains("turn-based") && !err.contains('\n'), "{err}");
    let err = Match::new("lopti").custom("exec:x.py", Custom::lopti(|| example::MyLowest)).bot("lowest").games(10).run().err().unwrap();
    assert!(err.contains("a label, not a bot file"), "{err}");    // Two different strategies under one label would pass for identical copies.
    let err = Match::new("lopti").custom("mine", Custom::lopti(|| example::MyLowest)).custom("mine", Custom::lopti(|| Dice)).games(10).run().err().unwrap();
    assert!(err.contains("two different strategies share this label"), "{err}");
    let err = Match::new("lopti").custom("lowest", Custom::lopti(|| example::MyLowest)).bot("lowest").games(10).run().err().unwrap();
    assert!(err.contains("two different bots share this label"), "{err}");
    // The same one twice is two identical copies, as a built-in bot given twice.
    let mine = Custom::lopti(|| example::MyLowest);
    let copies = Match::new("lopti").custom("mine", mine.clone()).custom("mine", mine).bot("burner").games(60).seed(2).run().unwrap().csv_text();
    let builtin = Match::new("lopti").bot("lowest").bot("lowest").bot("burner").games(60).seed(2).run().unwrap().csv_text();
    assert_eq!(copies.replace("mine", "lowest"), builtin);
}

#[test]
fn the_example_runs() {
    example::main();
    let [lopti, spit] = example::summaries(200).unwrap();
    for (s, bots) in [(&lopti, &["my-lowest", "burner", "random"][..]), (&spit, &["my-greedy@skilled", "smart@skilled"][..])] {
        let wins: u64 = bots.iter().map(|b| s.value(b, "wins").unwrap().parse::<u64>().unwrap()).sum();
        let cell = |c: &str| s.value(bots[0], c).unwrap().parse::<u64>().unwrap();
        // 200 rounded up to whole deals (3 bots: 6 seatings per deal).
        assert_eq!(cell("games"), if bots.len() == 3 { 204 } else { 200 });
        assert_eq!(wins + cell("draws") + cell("capped") + cell("cycled"), cell("games"), "every match is won by one bot or by nobody");
    }
}
