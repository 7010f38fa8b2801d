//! The `search` strategy: it decides from the view alone, its think time is charged,
//! its matches are the same bytes on any thread count, and the invariants hold with it
//! under random flags.

use super::{bots, c, position, random_flags};
use crate::bot::BotSpec;
use crate::games::spit::tests::kit::constant_model;
use crate::games::speed::config::SpeedConfig;
use crate::games::speed::game::play_match;
use crate::games::speed::invariants::InvariantChecker;
use crate::games::speed::moves::SpeedMoves;
use crate::games::speed::rules::{SpeedAction, SpeedRules};
use crate::games::speed::state::SpeedState;
use crate::games::speed::strategies::{SpeedStrategy, REGISTRY};
use crate::games::speed::view::SpeedView;
use crate::reaction::{ms_to_us, Preset};
use crate::realtime::{play_round, Bot, EngineEvent, EngineObserver, LegalMoves, MatchRngs, Micros, RoundCounts, Seated, MAX_PLAYERS};
use crate::rng::{rng_from, ChanceKey, MatchSeeds};
use rand::RngExt;

fn search(text: &str) -> Box<dyn SpeedStrategy> {
    let spec = BotSpec::parse(text).unwrap();
    REGISTRY.iter().find(|r| r.info.name == "search").unwrap().make_for(&spec).unwrap()
}

/// Tops 7c and 10d; player 0 holds four plays (6h, 8s on the 7; 9d, Jc on the 10) and a
/// 2h, so he can draw too; player 1 holds an 8c (it fits the 7) and four cards that fit
/// nothing.
fn rich() -> SpeedState {
    let hands: [&[_]; 2] = [&[c(6, 2), c(8, 3), c(9, 1), c(11, 0), c(2, 2)], &[c(8, 0), c(13, 1), c(4, 3), c(3, 2), c(5, 0)]];
    let mut s = position(hands, [c(7, 0), c(10, 1)], [8, 10], &mut rng_from(5));
    s.players[0].hand.remove(c(2, 2));
    s.players[0].stock.insert(c(2, 2));
    s
}

/// `s` with the same view for player 0 but other hidden cards: player 1's playable 8c
/// exchanged with a stock card of player 0 that fits no top, a card of each stock
/// exchanged with a side-pile card, and a new hidden-zone key.
fn other_hidden(s: &SpeedState) -> SpeedState {
    let cfg = SpeedConfig::default();
    let fits = |x: crate::cards::Card| (0..2).any(|j| s.centre[j].top.is_some_and(|t| super::super::rules::playable_on(&cfg, x, t)));
    let mut t = *s;
    let a = c(8, 0);
    let b = t.players[0].stock.iter().find(|&x| !fits(x)).unwrap();
    t.players[1].hand.remove(a);
    t.players[0].stock.remove(b);
    t.players[1].hand.insert(b);
    t.players[0].stock.insert(a);
    for p in 0..2 {
        let x = t.players[p].stock.iter().next().unwrap();
        let y = t.side[p].iter().next().unwrap();
        t.players[p].stock.remove(x);
        t.side[p].remove(y);
        t.players[p].stock.insert(y);
        t.side[p].insert(x);
    }
    t.zone = ChanceKey(0x1234_5678);
    t
}

#[test]
fn search_decides_from_the_view_alone() {
    let cfg = SpeedConfig::default();
    let s = rich();
    let t = other_hidden(&s);
    for p in 0..2 {
        assert_ne!(s.players[p].stock, t.players[p].stock);
        assert_ne!(s.side[p], t.side[p]);
    }
    assert_ne!(s.players[1].hand, t.players[1].hand);
    // Not vacuous: the hidden cards differ where it matters, the opponent's plays
    // (SPEED-PLAY-1: the 8c fits the 7c in one state, he has no play in the other).
    assert_eq!(SpeedMoves::of(&cfg, &s, 1).count(), 1);
    assert_eq!(SpeedMoves::of(&cfg, &t, 1).count(), 0);
    // The views agree on everything they show.
    let (vs, vt) = (SpeedView::new(&s, 0, &cfg), SpeedView::new(&t, 0, &cfg));
    assert_eq!((vs.hand(), vs.unseen(), vs.shown()), (vt.hand(), vt.unseen(), vt.shown()));
    for mine in [true, false] {
        assert_eq!((vs.hand_count(mine), vs.stock_count(mine), vs.in_flight(mine)), (vt.hand_count(mine), vt.stock_count(mine), vt.in_flight(mine)));
    }
    for j in 0..2 {
        assert_eq!((vs.pile_top(j), vs.centre_cards(j), vs.side_count(j)), (vt.pile_top(j), vt.centre_cards(j), vt.side_count(j)));
    }

    let bot = search("search,rollouts=6");
    for preset in [Preset::Expert, Preset::Novice] {
        let model = preset.model();
        for seed in 0..24 {
            let ask = |state: &SpeedState| {
                let mut rng = rng_from(seed);
                let moves = SpeedMoves::of(&cfg, state, 0);
                let (choice, think) = bot.choose_timed(&SpeedView::new(state, 0, &cfg), &moves, &model, &mut rng);
                (choice, think, rng.random::<u64>())
            };
            let (a, b) = (ask(&s), ask(&t));
            assert_eq!(a, b, "seed {seed}: the same view and stream give the same decision, think time and stream");
            assert!(matches!(a.0, Some(SpeedAction::Play { .. })), "{:?}: it plays, never draws with a play (SPEED-PLAY-2)", a.0);
            assert_eq!(a.1, 6.0 * 4.0 * 0.05, "four plays, six rollouts each at the default 0.05 ms");
        }
    }
}

/// The first action player 0 starts: when, what, and when it lands.
#[derive(Default)]
struct FirstStart(Option<(Micros, SpeedAction, Micros)>);

impl EngineObserver<SpeedState, SpeedAction> for FirstStart {
    fn on_event(&mut self, t: Micros, ev: EngineEvent<SpeedAction>, _: &SpeedState) {
        if let (None, EngineEvent::Start { player: 0, action, lands, .. }) = (self.0, ev) {
            self.0 = Some((t, action, lands));
        }
    }
}

#[test]
fn search_think_time_is_charged_to_its_action() {
    let cfg = SpeedConfig::default();
    // Player 0 has exactly two candidates (8s on the 7c, Jh on the 10d) and a full hand,
    // so no draw (SPEED-PLAY-2); player 1 plays greedily.
    let hands: [&[_]; 2] = [&[c(8, 3), c(11, 2), c(13, 0), c(4, 1), c(2, 3)], &[c(8, 0), c(13, 1), c(4, 3), c(3, 2), c(5, 0)]];
    let s = position(hands, [c(7, 0), c(10, 1)], [8, 10], &mut rng_from(9));
    assert_eq!(SpeedMoves::of(&cfg, &s, 0).count(), 2);
    let model = constant_model(300.0, 100.0, 200.0);
    let first_start = |text: &str| {
        let searcher = Bot { strategy: search(text), reaction: model };
        let other = Bot { strategy: REGISTRY.iter().find(|r| r.info.name == "greedy").unwrap().make_default(), reaction: model };
        let mut state = s;
        let mut rec = FirstStart::default();
        let (mut budget, mut counts) = (100_000, RoundCounts::default());
        play_round(&SpeedRules::new(cfg), &Seated::new(&[&searcher, &other]), &mut state, 0, [false; MAX_PLAYERS], &mut budget, &mut counts, &mut MatchRngs::of_deal(5), &mut rec);
        rec.0.unwrap()
    };
    let (t0, a0, free) = first_start("search,rollouts=4,ms_per_rollout=0");
    let (t1, a1, charged) = first_start("search,rollouts=4,ms_per_rollout=2.5");
    assert_eq!((t0, t1), (0, 0), "both decide at the start");
    assert!(matches!(a0, SpeedAction::Play { .. }) && matches!(a1, SpeedAction::Play { .. }), "{a0:?} {a1:?}");
    // Constant model: 300 ms look + two 100 ms movements; 2 candidates x 4 rollouts x 2.5 ms.
    assert_eq!(free, ms_to_us(500.0), "SPEED-RT-1: a play's action time");
    assert_eq!(charged - free, 20_000, "20 ms of thinking, charged");
    let (_, a2, doubled) = first_start("search,rollouts=8,ms_per_rollout=2.5");
    assert!(matches!(a2, SpeedAction::Play { .. }), "{a2:?}");
    assert_eq!(doubled - charged, 20_000, "8 rollouts instead of 4: 20 ms more");
    let params = REGISTRY.iter().find(|r| r.info.name == "search").unwrap().info.params;
    let searcher = crate::games::speed::strategies::Search::new(&crate::games::params::ParamValues::resolve("s", params, &[("rollouts".into(), 4.0), ("ms_per_rollout".into(), 2.5)]).unwrap());
    assert_eq!(searcher.think_ms(2), 20.0);
    assert_eq!(searcher.think_ms(1), 0.0, "one candidate: nothing to think about, nothing charged");
}

#[test]
fn search_matches_are_the_same_bytes_on_one_and_two_threads() {
    let run = |threads: usize| {
        crate::api::Match::new("speed").bot("search@expert,rollouts=2").bot("smart@expert").games(8).seed(11).threads(threads).run().unwrap().csv().unwrap()
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert!(String::from_utf8(one).unwrap().contains("search@expert"));
}

/// The searching strategy under random flags and presets against the other strategies
/// (with a small budget, to keep it short): SPEED-INV-1 and the rule invariants hold
/// after every event, its sampled positions never run out of cards (a draw from an
/// empty set would panic), and every match ends uncapped.
#[test]
fn speed_inv_1_and_rule_invariants_hold_with_the_searching_bot_under_random_flags() {
    let names = ["random", "greedy", "smart"];
    let presets = ["novice", "casual", "skilled", "expert", "machine"];
    let mut rng = rng_from(2026);
    let mut events = 0;
    for i in 0..150u64 {
        let cfg = random_flags(&mut rng);
        let a = format!("search@{},rollouts=2,horizon=6", presets[rng.random_range(0..5)]);
        let b = format!("{}@{}", names[rng.random_range(0..3)], presets[rng.random_range(0..5)]);
        let mut specs = [a.as_str(), b.as_str()];
        if i % 2 == 1 {
            specs.swap(0, 1);
        }
        let bots = bots(&specs);
        let rules = SpeedRules::new(cfg);
        let mut checker = InvariantChecker::new(cfg);
        let out = play_match(&rules, &Seated::new(&[&bots[0], &bots[1]]), &MatchSeeds::of_deal(i), &mut checker);
        assert!(!out.capped, "match {i} ({specs:?}, {cfg:?}) hit the cap");
        events += checker.events;
    }
    assert!(events > 150 * 40, "only {events} events checked");
}
