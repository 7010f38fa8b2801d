//! The legal moves as bit sets ([`SpitMoves`]) against the list the rules text gives
//! (SPIT-PLAY-1..3, SPIT-AMB-2), on every state of whole matches under several flag
//! sets, and the built-in strategies' choice from the moves against their choice from
//! the list; and the moves the state keeps up to date against a full rebuild after
//! every engine event of matches under random flags.

use crate::bot::BotSpec;
use crate::games::spit::config::{Allocation, PlayTarget, PointsMode, Scoring, ShortDeal, SpitConfig, SpitTarget};
use crate::games::spit::game::{play_match, SpitEvent};
use crate::games::spit::moves::SpitMoves;
use crate::games::spit::rules::{is_progress, may_target, playable_on, SpitAction, SpitRules};
use crate::games::spit::state::{SpitState, MAX_SLOTS};
use crate::games::spit::strategies::{SpitStrategy, REGISTRY};
use crate::games::spit::view::SpitView;
use crate::realtime::{build_bots, EngineEvent, EngineObserver, LegalMoves, MatchObserver, Micros, RealtimeRules, Seated};
use crate::rng::{rng_from, MatchSeeds, SimRng};
use rand::RngExt;
use crate::settings::Settings;

/// Player `p`'s legal actions as the rules text lists them, card by card.
fn listed(cfg: &SpitConfig, s: &SpitState, p: usize) -> Vec<SpitAction> {
    let slots = &s.players[p].slots[..cfg.slots as usize];
    let mut out = Vec::new();
    for (i, x) in slots.iter().enumerate() {
        if let Some(c) = x.up {
            for j in [p, 1 - p] {
                if may_target(cfg, s, p, j) && s.piles[j].top.is_some_and(|t| playable_on(cfg, c, t)) {
                    out.push(SpitAction::Play { slot: i as u8, pile: j as u8 });
                }
            }
        }
    }
    out.extend(slots.iter().enumerate().filter(|(_, x)| x.up.is_none() && x.down > 0).map(|(i, _)| SpitAction::Flip { slot: i as u8 }));
    for (i, _) in slots.iter().enumerate().filter(|(_, x)| x.up.is_some()) {
        out.extend(slots.iter().enumerate().filter(|(_, y)| y.is_empty()).map(|(k, _)| SpitAction::Fill { from: i as u8, to: k as u8 }));
    }
    out
}

/// Every action a Spit player could name.
fn every_action() -> Vec<SpitAction> {
    let n = MAX_SLOTS as u8;
    let plays = (0..n).flat_map(|slot| (0..2).map(move |pile| SpitAction::Play { slot, pile }));
    let fills = (0..n).flat_map(|from| (0..n).map(move |to| SpitAction::Fill { from, to }));
    plays.chain((0..n).map(|slot| SpitAction::Flip { slot })).chain(fills).collect()
}

/// Checks both players' moves on every state the match passes through.
struct Check {
    cfg: SpitConfig,
    every: Vec<SpitAction>,
    strategies: Vec<Box<dyn SpitStrategy>>,
    states: usize,
    choices: usize,
}

impl Check {
    /// `engine`: a state the engine hands the rules (a match event's may come before the
    /// round's kept moves are built, and `has_progress` reads them).
    fn check(&mut self, s: &SpitState, engine: bool) {
        self.states += 1;
        for p in 0..2 {
            let list = listed(&self.cfg, s, p);
            let moves = SpitMoves::of(&self.cfg, s, p);
            assert_eq!(moves.iter().collect::<Vec<_>>(), list, "legal order, player {p}, {s:?}");
            assert_eq!(moves.count(), list.len());
            assert_eq!(moves.is_empty(), list.is_empty());
            let progress = list.iter().any(|&a| is_progress(s, p, a));
            if engine {
                assert_eq!(SpitRules { cfg: self.cfg }.has_progress(s, p), progress, "SPIT-STALL-1, player {p}, {s:?}");
            }
            for &a in &self.every {
                assert_eq!(moves.contains(a), list.contains(&a), "{a:?}, player {p}, {s:?}");
            }
            if list.is_empty() {
                continue;
            }
            let view = SpitView::new(s, p, &self.cfg);
            for strategy in &self.strategies {
                // Deterministic strategies: the generator is not drawn from.
                let (mut r1, mut r2) = (rng_from(1), rng_from(1));
                assert_eq!(strategy.choose_moves(&view, &moves, &mut r1), strategy.choose(&view, &list, &mut r2), "player {p}, {s:?}");
                self.choices += 1;
            }
        }
    }
}

impl EngineObserver<SpitState, SpitAction> for Check {
    fn on_event(&mut self, _: Micros, _: EngineEvent<SpitAction>, s: &SpitState) {
        self.check(s, true);
    }
}

impl MatchObserver<SpitState, SpitAction, SpitEvent> for Check {
    fn on_match_event(&mut self, _: Micros, _: SpitEvent, s: &SpitState) {
        self.check(s, false);
    }
}

#[test]
fn bit_set_moves_are_the_listed_moves_and_strategies_choose_the_same_from_them() {
    let flag_sets: [&[&str]; 4] = [
        &[],
        &["spit.num_stockpiles=4", "spit.alternate_colors=true"],
        &["spit.play_target=own", "spit.stall_spit_target=any"],
        &["spit.short_deal=pilewise", "spit.round_end_allocation=first_out_chooses"],
    ];
    let specs: Vec<BotSpec> = ["random@expert", "smart@expert"].iter().map(|s| BotSpec::parse(s).unwrap()).collect();
    let bots = build_bots(&specs, &REGISTRY).unwrap();
    let seats = Seated::new(&[&bots[0], &bots[1]]);
    for flags in flag_sets {
        let flags: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
        let cfg = SpitConfig::from_settings(&Settings::parse(&crate::games::spit::config::SPIT_FLAGS, &flags).unwrap());
        // smart also with weights under which flips and fills outrank plays and tie them.
        let odd = ["smart,flip=1000,fill=1100,follow_cost=0,uncover=0", "smart,flip=1300,fill=1298,keep_follow=-3"];
        let named = ["greedy", "smart"].map(|name| REGISTRY.iter().find(|r| r.info.name == name).unwrap().make_default());
        let strategies = named.into_iter().chain(odd.map(|spec| REGISTRY.iter().find(|r| r.info.name == "smart").unwrap().make_for(&BotSpec::parse(spec).unwrap()).unwrap())).collect();
        let mut check = Check { cfg, every: every_action(), strategies, states: 0, choices: 0 };
        for seed in 0..6 {
            play_match(&SpitRules { cfg }, &seats, &MatchSeeds::of_deal(seed), &mut check);
        }
        assert!(check.states > 1000 && check.choices > 1000, "{flags:?}: {} states, {} choices", check.states, check.choices);
    }
}

/// Checks after every engine event that the moves the state keeps equal a full rebuild.
struct Kept {
    cfg: SpitConfig,
    events: usize,
}

impl EngineObserver<SpitState, SpitAction> for Kept {
    fn on_event(&mut self, _: Micros, ev: EngineEvent<SpitAction>, s: &SpitState) {
        self.events += 1;
        for p in 0..2 {
            assert_eq!(s.moves[p], SpitMoves::of(&self.cfg, s, p), "kept moves of player {p} after {ev:?}, {:?}: {s:?}", self.cfg);
        }
    }
}

impl MatchObserver<SpitState, SpitAction, SpitEvent> for Kept {
    fn on_match_event(&mut self, _: Micros, _: SpitEvent, _: &SpitState) {}
}

/// A configuration with every flag that changes the moves or the engine's path drawn at random.
fn random_config(rng: &mut SimRng) -> SpitConfig {
    let mut pick = |n: u32| rng.random_range(0..n);
    SpitConfig {
        slots: [5, 4][pick(2) as usize],
        play_target: [PlayTarget::Any, PlayTarget::Own][pick(2) as usize],
        stall_spit_target: [SpitTarget::Own, SpitTarget::Any][pick(2) as usize],
        allocation: [Allocation::Slap, Allocation::FirstOutChooses][pick(2) as usize],
        short_deal: [ShortDeal::Rowwise, ShortDeal::Pilewise][pick(2) as usize],
        alternate_colors: pick(2) == 1,
        allow_abort: pick(2) == 1,
        scoring: [Scoring::Standard, Scoring::Points][pick(2) as usize],
        points_mode: [PointsMode::CarryOverUnplayed, PointsMode::FreshDeal, PointsMode::CarryOver][pick(3) as usize],
        max_actions: 3000,
    }
}

#[test]
fn kept_moves_equal_a_rebuild_after_every_event_under_random_flags() {
    let specs: Vec<BotSpec> = ["random@expert", "greedy@casual", "smart@novice", "random@machine"].iter().map(|s| BotSpec::parse(s).unwrap()).collect();
    let bots = build_bots(&specs, &REGISTRY).unwrap();
    let mut rng = rng_from(19);
    let mut events = 0;
    for m in 0..2000 {
        let cfg = random_config(&mut rng);
        let (a, b) = (rng.random_range(0..bots.len()), rng.random_range(0..bots.len()));
        let seats = Seated::new(&[&bots[a], &bots[b]]);
        let mut kept = Kept { cfg, events: 0 };
        play_match(&SpitRules { cfg }, &seats, &MatchSeeds::of_deal(m), &mut kept);
        events += kept.events;
    }
    assert!(events > 500_000, "{events} events checked");
}
