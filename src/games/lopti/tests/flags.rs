//! One test per flag of lopti.md §20 (and the `sim.max_actions` cap): the behaviour
//! changes as the flag says. (`lopti.seven_on_seven` is also tested in rules.rs, and
//! `lopti.swap_order` in engine.rs.)

use crate::runner::Ending;
use super::{cards, drew, table};
use crate::games::lopti::config::{DrawTiming, SevenOnSeven, FLAGS};
use crate::games::lopti::entry::LOPTI;
use crate::games::lopti::events::Event;
use crate::games::GameEntry;
use crate::bot::BotSpec;
use crate::settings::Settings;

#[test]
fn seven_on_seven_free_allows_a_single_seven_lopti_7_5() {
    let t = table(2).pile("Q|7").hand(0, "7 9").down(1, "4").start();
    assert_eq!(t.legal(), ["pickup"], "LOPTI-7-5: equal_more");
    let mut t = table(2).pile("Q|7").hand(0, "7 9").down(1, "4").rules(|r| r.seven_on_seven = SevenOnSeven::Free).start();
    t.act("play 7 x1");
    assert_eq!(t.st.pile.top_run(), 2, "LOPTI-7-5: free");
}

#[test]
fn draw_timing_end_of_turn_moves_the_draw_after_the_bonus_lopti_draw_4() {
    let b = || table(2).pile("K").hand(0, "10").up(0, "Q Q 4").down(0, "5 5 5").down(1, "4").draw("6 6");
    let mut t = b().rules(|r| r.draw_timing = DrawTiming::EndOfTurn).start();
    t.act("play 10 x1");
    assert!(!drew(&t.events()), "LOPTI-DRAW-4: end_of_turn: no draw before the bonus play");
    assert_eq!(t.hand(0), cards("Q Q 4"), "LOPTI-FU-1 catch-all: the empty hand takes the face-up cards for the bonus play");
    t.act("play 4 x1");
    let ev = t.events();
    assert!(drew(&ev) && t.hand(0) == cards("6 Q Q"), "LOPTI-DRAW-4: end_of_turn: the draw comes when the turn ends");
    let mut t = b().start();
    t.act("play 10 x1");
    assert_eq!(t.hand(0), cards("6"), "LOPTI-DRAW-4: before_bonus (EX-23)");
}

#[test]
fn empty_clear_bonus_false_makes_four_threes_on_an_empty_table_no_clear_lopti_3_6() {
    let b = || table(2).run3(3).hand(0, "3 9").down(1, "4");
    let mut t = b().start();
    t.act("play 3 x1");
    assert!(t.st.turn.bonus && t.st.counters.clears == 1, "LOPTI-3-6: empty_clear_bonus=true");
    let mut t = b().rules(|r| r.empty_clear_bonus = false).start();
    t.act("play 3 x1");
    assert_eq!((t.st.current, t.st.run3, t.st.counters.clears), (1, 0, 0), "LOPTI-3-6: empty_clear_bonus=false: no clear, no bonus, run3 back to 0");
}

#[test]
fn facedown_may_pickup_true_allows_taking_the_pile_lopti_fd_4() {
    let mut t = table(2).pile("A").down(0, "5").down(1, "4").rules(|r| r.facedown_may_pickup = true).start();
    t.act("pickup");
    assert_eq!((t.hand(0), t.st.players[0].face_down.len()), (cards("A"), 1), "LOPTI-FD-4: took the pile without revealing");
}

#[test]
fn bonus_optional_true_allows_passing_lopti_bonus_1() {
    let mut t = table(2).hand(0, "10 9").down(1, "4").rules(|r| r.bonus_optional = true).start();
    t.act("play 10 x1");
    assert_eq!(t.legal(), ["play 9 x1", "pass"], "LOPTI-BONUS-1: bonus_optional=true");
    t.act("pass");
    assert_eq!((t.st.current, t.hand(0)), (1, cards("9")), "LOPTI-BONUS-1: the turn ends");
    assert!(t.events().iter().any(|e| matches!(e, Event::Pass { seat: 0 })));
}

#[test]
fn play_for_rankings_true_plays_on_lopti_win_4() {
    let b = || table(3).pile("8").hand(0, "9").hand(1, "5 6").hand(2, "7 A");
    let mut t = b().rules(|r| r.play_for_rankings = true).start();
    t.act("play 9 x1");
    t.act("pickup").act("play 7 x1").act("play 5 x1");
    assert_eq!(t.st.finished, 1, "LOPTI-WIN-4: play goes on after the winner");
    let mut t = b().start();
    t.act("play 9 x1");
    assert_eq!(t.st.phase, crate::games::lopti::state::Phase::Over, "LOPTI-WIN-4: play_for_rankings=false");
}

fn run(bots: &[&str], sets: &[&str], deals: u64) -> Vec<crate::runner::MatchRecord> {
    let bots: Vec<BotSpec> = bots.iter().map(|b| BotSpec::parse(b).unwrap()).collect();
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let game = LOPTI.build(&bots, &Settings::parse(&FLAGS, &sets).unwrap()).unwrap();
    let seats: Vec<usize> = (0..bots.len()).collect();
    (0..deals).map(|d| game.as_match_game().play(&seats, &crate::rng::MatchSeeds::of_deal(d))).collect()
}

#[test]
fn sim_max_actions_caps_the_turns() {
    let capped = run(&["random", "random"], &["sim.max_actions=100"], 50);
    assert!(capped.iter().any(|r| (r.ending == Ending::Capped) && r.winner.is_none() && r.metrics[0] == 100), "a capped game stops at 100 turns");
    assert!(capped.iter().all(|r| r.metrics[0] <= 100));
    let free = run(&["random", "random"], &[], 50);
    assert!(free.iter().all(|r| !(r.ending == Ending::Capped)), "the default cap is not reached");
}

#[test]
fn mcts_iterations_changes_the_search() {
    let few = run(&["mcts", "lowest"], &["lopti.mcts_iterations=1"], 20);
    let many = run(&["mcts", "lowest"], &["lopti.mcts_iterations=100"], 20);
    assert_ne!(few, many, "a bigger budget makes different decisions");
    let wins = |rs: &[crate::runner::MatchRecord]| rs.iter().filter(|r| r.winner == Some(0)).count();
    assert!(wins(&many) >= wins(&few), "more search does not lose more on these deals: {} vs {}", wins(&many), wins(&few));
}
