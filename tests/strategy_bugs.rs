//! A strategy that chooses an action it was not offered is a bug in that strategy: the
//! engine never applies the action, stops the match (capped) and the run reports one
//! line naming the strategy, its seat, the action index, the deal and the seed, with
//! the command that replays the match. Checked with deliberately broken strategies on
//! the real-time engine (Spit) and on Lopti's turn engine.

use cardsim::games::lopti::config::Rules;
use cardsim::games::lopti::entry::LoptiGame;
use cardsim::games::lopti::rules::{Action, Actions};
use cardsim::games::lopti::state::Swap;
use cardsim::games::lopti::strategies::Strategy;
use cardsim::games::lopti::view::View;
use cardsim::games::spit::config::SpitConfig;
use cardsim::games::spit::rules::SpitAction;
use cardsim::games::spit::strategies::SpitStrategy;
use cardsim::games::spit::view::SpitView;
use cardsim::games::spit::Spit;
use cardsim::reaction::Preset;
use cardsim::realtime::{Bot, RealtimeMatch};
use cardsim::rng::SimRng;
use cardsim::runner::{run, Ending, MatchGame, RunConfig};
use rand::RngExt;

/// Plays the first legal action, but now and then (one decision in 300, from its own
/// dice) flips stockpile 7, which no Spit layout has.
struct BrokenSpit;
impl SpitStrategy for BrokenSpit {
    fn choose(&self, _: &SpitView, legal: &[SpitAction], rng: &mut SimRng) -> Option<SpitAction> {
        Some(if rng.random_range(0..300) == 0 { SpitAction::Flip { slot: 7 } } else { legal[0] })
    }
}

/// Plays the first legal action; one decision in 40 it plays nine cards of a rank.
struct BrokenLopti;
impl Strategy for BrokenLopti {
    fn swap(&self, _: &View, _: &mut SimRng) -> Option<Swap> {
        None
    }
    fn act(&self, _: &View, legal: &Actions, rng: &mut SimRng) -> Action {
        if rng.random_range(0..40) == 0 { Action::Play { rank: 5, count: 9 } } else { legal[0] }
    }
}

/// Runs `games` matches of `game` from `seed` with two bots labelled `labels`; returns
/// the run's report, and checks that replaying the reported match (its seeds and
/// seating, from the same master seed) reports the same illegal choice.
fn report(game: &dyn MatchGame, labels: &[&str], seed: u64, games: u64) -> (String, u8, u64) {
    let cfg = RunConfig::distinct(games, seed, 2);
    let stats = run(game, &cfg);
    let bug = stats.strategy_bug.expect("the broken strategy was caught");
    let labels: Vec<String> = labels.iter().map(|l| l.to_string()).collect();
    let message = stats.check_strategies(&labels, seed, "cardsim trace GAME ...").expect_err("the run reports the bug");
    // Replaying match `match_index` of the run reproduces it.
    let (seat_bots, seeds) = cfg.match_at(2, bug.match_index);
    let replay = game.play(&seat_bots[..2], &seeds);
    assert_eq!(replay.illegal, Some(bug.choice), "the replay meets the same illegal choice");
    assert_eq!(replay.ending, Ending::Capped, "the match stopped there, counted as capped");
    assert_eq!(bug.bot(), 0, "the broken bot is bot 0");
    // The earliest match is reported, whatever the thread count.
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| run(game, &cfg));
    assert_eq!(one.strategy_bug, stats.strategy_bug);
    (message, bug.choice.seat, bug.choice.index)
}

#[test]
fn a_real_time_strategy_that_chooses_an_illegal_action_is_reported_with_seat_index_and_seed() {
    let bots = vec![
        Bot { strategy: Box::new(BrokenSpit) as Box<dyn SpitStrategy>, reaction: Preset::Skilled.model() },
        Bot { strategy: cardsim::games::spit::strategies::REGISTRY[0].make_default(), reaction: Preset::Skilled.model() },
    ];
    let game = RealtimeMatch::<Spit> { cfg: SpitConfig::default(), bots };
    let (message, seat, index) = report(&game, &["broken", "fine"], 41, 200);
    let expected = format!("strategy 'broken' (seat {seat}) chose an illegal action Flip {{ slot: 7 }} at action index {index} of deal ");
    assert!(message.starts_with(&expected), "{message}");
    assert!(message.contains("(seed 41, match ") && message.contains("a bug in that strategy; reproduce with: cardsim trace GAME ... --index "), "{message}");
    assert!(!message.contains('\n'), "one line");
}

#[test]
fn a_lopti_strategy_that_chooses_an_illegal_action_is_reported_with_seat_index_and_seed() {
    let lowest = cardsim::games::lopti::strategies::build("lowest", &cardsim::games::lopti::strategies::Params { mcts_iterations: 10 }).unwrap();
    let game = LoptiGame::new(Rules::default(), vec![Box::new(BrokenLopti), lowest]);
    let (message, seat, index) = report(&game, &["broken", "fine"], 8, 100);
    let action = Action::Play { rank: 5, count: 9 };
    let expected = format!("strategy 'broken' (seat {seat}) chose an illegal action {action} at action index {index} of deal ");
    assert!(message.starts_with(&expected), "{message}");
    assert!(message.contains("(seed 8, match "), "{message}");
}
