//! The `search` strategy: it decides from the view alone, its think time is charged,
//! and its matches are the same bytes on any thread count.

use super::kit::{bot, constant_model, plays_only, position, run_round, Recorder};
use crate::bot::BotSpec;
use crate::games::spit::config::SpitConfig;
use crate::games::spit::moves::SpitMoves;
use crate::games::spit::rules::{SpitAction, SpitRules};
use crate::games::spit::state::SpitState;
use crate::games::spit::strategies::{SpitStrategy, REGISTRY};
use crate::games::spit::view::SpitView;
use crate::reaction::{ms_to_us, Preset};
use crate::realtime::{EngineEvent, RealtimeRules};
use crate::rng::{rng_from, ChanceKey};
use rand::RngExt;

fn search(text: &str) -> Box<dyn SpitStrategy> {
    let spec = BotSpec::parse(text).unwrap();
    REGISTRY.iter().find(|r| r.info.name == "search").unwrap().make_for(&spec).unwrap()
}

/// A position where player 0 has several moves worth searching (two plays, flips, an
/// exposing fill) and player 1 holds face-down and spit cards.
fn rich() -> SpitState {
    position([&["7h", "1/8s", "2/?", "-", "3/Kd"], &["Qc", "1/4d", "2/Jh", "3/?", "4/5s"]], [6, 5], [Some("6c"), Some("9d")])
}

/// `s` with the same view for both players but other hidden cards: a card of each
/// player's hidden set and a spit-pile card exchanged, new hidden-zone keys.
fn other_hidden(s: &SpitState) -> SpitState {
    let mut t = *s;
    let a = t.players[0].hidden.iter().next().unwrap();
    let b = t.players[1].hidden.iter().next().unwrap();
    let c = t.piles[0].cards.iter().find(|&c| Some(c) != t.piles[0].top).unwrap();
    t.players[0].hidden.remove(a);
    t.players[1].hidden.remove(b);
    t.piles[0].cards.remove(c);
    t.players[0].hidden.insert(c);
    t.players[1].hidden.insert(a);
    t.piles[0].cards.insert(b);
    t.players[0].zone = ChanceKey(0x1234_5678);
    t.players[1].zone = ChanceKey(0x8765_4321);
    t
}

#[test]
fn search_decides_from_the_view_alone() {
    let cfg = SpitConfig::default();
    let rules = SpitRules { cfg };
    let s = rich();
    let t = other_hidden(&s);
    assert_ne!(s.players[0].hidden, t.players[0].hidden);
    assert_ne!(s.players[1].hidden, t.players[1].hidden);
    // Not vacuous: the hidden cards differ where it matters, the card a flip turns up.
    let flip = SpitAction::Flip { slot: 2 };
    let (mut fs, mut ft) = (s, t);
    rules.land(&mut fs, 0, flip, 0);
    rules.land(&mut ft, 0, flip, 0);
    assert_ne!(fs.players[0].slots[2].up, ft.players[0].slots[2].up, "the two states turn up different cards");

    let bot = search("search,rollouts=6");
    for preset in [Preset::Expert, Preset::Novice] {
        let model = preset.model();
        for seed in 0..24 {
            let ask = |state: &SpitState| {
                let mut rng = rng_from(seed);
                let moves = SpitMoves::of(&cfg, state, 0);
                let (choice, think) = bot.choose_timed(&SpitView::new(state, 0, &cfg), &moves, &model, &mut rng);
                (choice, think, rng.random::<u64>())
            };
            let (a, b) = (ask(&s), ask(&t));
            assert_eq!(a, b, "seed {seed}: the same view and stream give the same decision, think time and stream");
            assert!(a.0.is_some() && a.1 > 0.0);
        }
    }
}

#[test]
fn search_think_time_is_charged_to_its_action() {
    let cfg = SpitConfig::default();
    // Player 0 has exactly two candidates (7h on 6c, 8s on 9d; no face-down card, so no
    // flip and no exposing fill); player 1 plays whatever he can.
    let s = position([&["7h", "8s", "-", "-", "-"], &["Qc", "1/4d", "2/Jh", "3/?", "4/5s"]], [3, 3], [Some("6c"), Some("9d")]);
    let model = constant_model(300.0, 100.0, 200.0);
    let first_start = |text: &str| {
        let searcher = bot(search(text), model);
        let other = bot(plays_only(), model);
        let mut state = s;
        let mut rec = Recorder::default();
        run_round(cfg, [&searcher, &other], &mut state, 5, &mut rec);
        rec.engine
            .iter()
            .find_map(|(t, e, _)| match *e {
                EngineEvent::Start { player: 0, action, lands, .. } => Some((*t, action, lands)),
                _ => None,
            })
            .unwrap()
    };
    let (t0, a0, free) = first_start("search,rollouts=4,ms_per_rollout=0");
    let (t1, a1, charged) = first_start("search,rollouts=4,ms_per_rollout=2.5");
    assert_eq!((t0, t1), (0.0, 0.0), "both decide at the start");
    assert!(matches!(a0, SpitAction::Play { .. }) && matches!(a1, SpitAction::Play { .. }), "{a0:?} {a1:?}");
    // Constant model: 300 ms look + two 100 ms movements; 2 candidates x 4 rollouts x 2.5 ms.
    assert_eq!(free, ms_to_us(500.0));
    assert_eq!(charged - free, 20_000, "20 ms of thinking, charged");
    // A larger budget at the same price: twice the rollouts, twice the think time.
    let (_, a2, doubled) = first_start("search,rollouts=8,ms_per_rollout=2.5");
    assert!(matches!(a2, SpitAction::Play { .. }), "{a2:?}");
    assert_eq!(doubled - charged, 20_000, "8 rollouts instead of 4: 20 ms more");
    let params = REGISTRY.iter().find(|r| r.info.name == "search").unwrap().info.params;
    let searcher = crate::games::spit::strategies::Search::new(&crate::games::params::ParamValues::resolve("s", params, &[("rollouts".into(), 4.0), ("ms_per_rollout".into(), 2.5)]).unwrap());
    assert_eq!(searcher.think_ms(2), 20.0);
    assert_eq!(searcher.think_ms(1), 0.0, "one candidate: nothing to think about, nothing charged");
}

#[test]
fn search_matches_are_the_same_bytes_on_one_and_two_threads() {
    let run = |threads: usize| {
        crate::api::Match::new("spit").bot("search@expert,rollouts=2").bot("smart@expert").games(8).seed(11).threads(threads).run().unwrap().csv().unwrap()
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert!(String::from_utf8(one).unwrap().contains("search@expert"));
}
