//! SPIT-INV-1..8 asserted after every event of 10,000 random matches with random flags,
//! random strategies and random reaction presets; every match must end or be capped, and
//! aimless moves (the `random` strategy) must never keep a match alive to the cap.

use cardsim::games::spit::config::{SpitConfig, SPIT_FLAGS};
use cardsim::games::spit::game::play_match;
use cardsim::games::spit::invariants::InvariantChecker;
use cardsim::games::spit::rules::SpitRules;
use cardsim::games::spit::strategies::REGISTRY;
use cardsim::reaction::presets::ALL_PRESETS;
use cardsim::realtime::{Bot, Seated};
use cardsim::rng::rng_from;
use cardsim::settings::Settings;
use rand::RngExt;

const MATCHES: u64 = 10_000;

/// A random value of every Spit flag, as `--set` texts, the configuration they make, and
/// whether players play to their own piles. A flag that needs another (points rounds
/// need points scoring) goes when that one is off. Under play_target=own matches can
/// cycle for ever (see below), so `own_cap` actions cap them; with shared piles the
/// default cap applies.
fn random_flags(rng: &mut cardsim::rng::SimRng, own_cap: u64) -> (SpitConfig, Vec<String>, bool) {
    let mut sets: Vec<String> = SPIT_FLAGS
        .iter()
        .filter_map(|f| f.values().map(|values| format!("{}={}", f.key, values[rng.random_range(0..values.len())])))
        .collect();
    let drawn = sets.clone();
    sets.retain(|s| {
        let def = SPIT_FLAGS.iter().find(|f| s.starts_with(&format!("{}=", f.key))).unwrap();
        def.needs.is_none_or(|n| drawn.iter().any(|o| o.strip_prefix(&format!("{}=", n.key)).is_some_and(|v| (n.when)(v))))
    });
    let own_piles = sets.contains(&"spit.play_target=own".to_string());
    if own_piles {
        sets.push(format!("sim.max_actions={own_cap}"));
    }
    (SpitConfig::from_settings(&Settings::parse(&SPIT_FLAGS, &sets).unwrap()), sets, own_piles)
}

#[test]
fn invariants_hold_after_every_event_of_random_matches() {
    let mut rng = rng_from(2024);
    let mut total = [0u64; 9];
    let (mut capped, mut events) = (0, 0);
    for i in 0..MATCHES {
        let (cfg, sets, own_piles) = random_flags(&mut rng, 20_000);
        // The heuristic strategies (the searching one has its own, shorter test below).
        let heuristics: Vec<_> = REGISTRY.iter().filter(|r| r.info.name != "search").collect();
        let bot = |rng: &mut cardsim::rng::SimRng| Bot {
            strategy: heuristics[rng.random_range(0..heuristics.len())].make_default(),
            reaction: ALL_PRESETS[rng.random_range(0..ALL_PRESETS.len())].model(),
        };
        let bots = [bot(&mut rng), bot(&mut rng)];
        let rules = SpitRules { cfg };
        let mut checker = InvariantChecker::new(cfg);
        let out = play_match(&rules, &Seated::new(&[&bots[0], &bots[1]]), &cardsim::rng::MatchSeeds::of_deal(i), &mut checker);
        assert!(out.capped || out.winner.is_some(), "match {i} neither ended nor was capped");
        // With play_target=own and the slap, matches can cycle for thousands of rounds (a
        // property of that variant, see docs/spit.md); with shared piles none may hit the cap.
        assert!(!out.capped || own_piles, "match {i} hit the cap with shared piles: {sets:?}");
        capped += out.capped as u64;
        events += checker.events;
        for (sum, checked) in total.iter_mut().zip(checker.checked).skip(1) {
            *sum += checked;
        }
    }
    let names = ["", "SPIT-INV-1", "SPIT-INV-2", "SPIT-INV-3", "SPIT-INV-4", "SPIT-INV-5", "SPIT-INV-6", "SPIT-INV-7", "SPIT-INV-8"];
    for (sum, name) in total.iter().zip(names).skip(1) {
        assert!(*sum > 0, "{name} was never checked");
    }
    assert!(capped < MATCHES / 50, "{capped} of {MATCHES} matches hit the action cap");
    assert!(events > MATCHES * 100, "only {events} events checked");
}

/// The searching strategy under random flags and presets against a random strategy (with
/// a small budget, to keep it short): the invariants hold after every event, its sampled
/// positions never run out of cards (a draw from an empty set would panic), and every
/// match ends or is capped.
#[test]
fn invariants_hold_with_the_searching_bot_under_random_flags() {
    const SEARCH_MATCHES: u64 = 150;
    let mut rng = rng_from(2025);
    let spec = cardsim::bot::BotSpec::parse("search,rollouts=2,horizon=6").unwrap();
    let search = REGISTRY.iter().find(|r| r.info.name == "search").unwrap();
    let mut events = 0;
    for i in 0..SEARCH_MATCHES {
        let (cfg, sets, own_piles) = random_flags(&mut rng, 5_000);
        let other = REGISTRY[rng.random_range(0..REGISTRY.len() - 1)].make_default();
        let preset = |rng: &mut cardsim::rng::SimRng| ALL_PRESETS[rng.random_range(0..ALL_PRESETS.len())].model();
        let mut bots = [Bot { strategy: search.make_for(&spec).unwrap(), reaction: preset(&mut rng) }, Bot { strategy: other, reaction: preset(&mut rng) }];
        if i % 2 == 1 {
            bots.swap(0, 1);
        }
        let rules = SpitRules { cfg };
        let mut checker = InvariantChecker::new(cfg);
        let out = play_match(&rules, &Seated::new(&[&bots[0], &bots[1]]), &cardsim::rng::MatchSeeds::of_deal(i), &mut checker);
        assert!(out.capped || out.winner.is_some(), "match {i} neither ended nor was capped");
        assert!(!out.capped || own_piles, "match {i} hit the cap with shared piles: {sets:?}");
        events += checker.events;
    }
    assert!(events > SEARCH_MATCHES * 100, "only {events} events checked");
}
