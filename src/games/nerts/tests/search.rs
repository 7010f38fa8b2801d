//! The `search` strategy: it decides from the view alone (NERTS-RT-1: a player acts on
//! what he sees), its think time is charged to its action, its matches are the same
//! bytes on any thread count, and the invariants (NERTS-INV-1..9) hold after every
//! event of matches with it at the table.

use super::random_play::random_cfg;
use super::*;
use crate::bot::BotSpec;
use crate::games::nerts::checker::MatchChecker;
use crate::games::nerts::engine::bounded_legal;
use crate::games::nerts::game::{play_match, NertsSeats};
use crate::games::nerts::strategies::{NertsBot, NertsStrategy, Search, REGISTRY};
use crate::games::nerts::view::NertsView;
use crate::games::spit::tests::kit::constant_model;
use crate::reaction::{ms_to_us, Preset};
use crate::realtime::{ActionList, EngineEvent, EngineObserver, MatchObserver};
use crate::rng::{rng_from, MatchSeeds};

fn search(text: &str) -> Box<dyn NertsStrategy> {
    let spec = BotSpec::parse(text).unwrap();
    REGISTRY.iter().find(|r| r.info.name == "search").unwrap().make_for(&spec).unwrap()
}

/// A 2-player deal after seat 0 played `moves` random actions (never the call).
fn played(cfg: &NertsConfig, deal: u64, moves: usize) -> NertsState {
    let rules = NertsRules::new(*cfg);
    let mut s = NertsState::deal(cfg, 2, &mut rng_from(deal));
    random_moves(&rules, &mut s, 0, moves, &mut rng_from(deal ^ 0xABCD));
    s
}

/// `s` with other hidden cards, seen from seat 0: its own stock reversed, the waste
/// under its top reversed, the cards under its Nerts top reversed; seat 1's stock
/// reversed and its first work card exchanged with its stock's top card.
fn other_hidden(s: &NertsState) -> NertsState {
    let mut t = *s;
    let l = &mut t.layouts[0];
    let (w, n) = (l.waste_len as usize, l.sw_len as usize);
    l.sw[w..n].reverse();
    l.sw[..w.saturating_sub(1)].reverse();
    let under = l.nerts_len as usize - l.nerts_up as usize;
    l.nerts[..under].reverse();
    let o = &mut t.layouts[1];
    let (w, n) = (o.waste_len as usize, o.sw_len as usize);
    o.sw[w..n].reverse();
    assert_eq!(o.work[0].len, 1, "the opponent played no card");
    let base = o.work[0].card(0);
    o.work[0] = crate::games::nerts::state::WorkPile::EMPTY;
    o.work[0].push_all(&[o.sw[w]]);
    o.sw[w] = base;
    t
}

#[test]
fn search_decides_from_the_view_alone() {
    let cfg = NertsConfig::default();
    let rules = NertsRules::new(cfg);
    let bot = search("search,rollouts=4,horizon=12");
    let mut searched = 0;
    for g in 0..40u64 {
        let s = played(&cfg, g, 6 + (g as usize % 20));
        let t = other_hidden(&s);
        check_state(&t).unwrap();
        // The same view: everything seat 0 sees, as one state.
        assert_eq!(NertsView::new(&s, 0, &cfg).shown(), NertsView::new(&t, 0, &cfg).shown());
        // Not vacuous: the hidden cards differ where they matter.
        assert_ne!(s.layouts[1], t.layouts[1], "the opponent's layout differs");
        if s.layouts[0].stock_len() >= 6 {
            let (mut fs, mut ft) = (s, t);
            rules.lift(&mut fs, 0, NertsAction::FlipStock);
            rules.land(&mut fs, 0, NertsAction::FlipStock, 0);
            rules.lift(&mut ft, 0, NertsAction::FlipStock);
            rules.land(&mut ft, 0, NertsAction::FlipStock, 0);
            assert_ne!(fs.layouts[0].waste_top(), ft.layouts[0].waste_top(), "deal {g}: a flip turns up different cards");
        }
        if s.layouts[0].nerts_len >= 3 {
            assert_ne!(s.layouts[0].nerts, t.layouts[0].nerts, "deal {g}: other cards under the Nerts top");
        }
        let mut legal = ActionList::new();
        bounded_legal(&rules, &s, 0, &mut legal);
        let candidates = Search::candidates(&NertsView::new(&s, 0, &cfg), &legal, 1).len();
        if candidates < 2 {
            continue;
        }
        searched += 1;
        for preset in [Preset::Skilled, Preset::Novice] {
            let model = preset.model();
            for seed in 0..4 {
                let ask = |state: &NertsState| {
                    let mut rng = rng_from(seed);
                    let (choice, think) = bot.choose_timed(&NertsView::new(state, 0, &cfg), &legal, &model, &mut rng);
                    (choice, think, rng.random::<u64>())
                };
                let (a, b) = (ask(&s), ask(&t));
                assert_eq!(a, b, "deal {g}, seed {seed}: the same view and stream give the same decision, think time and stream");
                assert!(a.0.is_some() && a.1 > 0.0);
            }
        }
    }
    assert!(searched >= 10, "only {searched} positions with two candidates");
}

#[test]
fn search_samples_full_states_that_keep_the_view() {
    // NERTS-INV-1..9 hold in every sampled state, and it shows the viewer what he saw.
    let cfg = NertsConfig::default();
    let mut rng = rng_from(5);
    for g in 0..40u64 {
        let s = played(&cfg, g, g as usize % 30);
        let view = NertsView::new(&s, 0, &cfg);
        for _ in 0..5 {
            let x = Search::sample(&view, &mut rng);
            check_state(&x).unwrap_or_else(|e| panic!("deal {g}: {e}"));
            assert_eq!(NertsView::new(&x, 0, &cfg).shown(), view.shown(), "deal {g}: the sample keeps the view");
            assert_eq!(x.layouts[1].nerts_len, s.layouts[1].nerts_len);
        }
    }
}

/// The first action seat 0 starts: when, what, and when it lands.
#[derive(Default)]
struct FirstStart(Option<(Micros, NertsAction, Micros)>);

impl EngineObserver<NertsState, NertsAction> for FirstStart {
    fn on_event(&mut self, t: Micros, e: EngineEvent<NertsAction>, _: &NertsState) {
        if let (None, EngineEvent::Start { player: 0, action, lands, .. }) = (self.0, e) {
            self.0 = Some((t, action, lands));
        }
    }
}

impl MatchObserver<NertsState, NertsAction, crate::games::nerts::game::NertsEvent> for FirstStart {
    fn on_match_event(&mut self, _: Micros, _: crate::games::nerts::game::NertsEvent, _: &NertsState) {}
}

#[test]
fn search_think_time_is_charged_to_its_action() {
    // NERTS-RT-1/RT-3: every hand starts at the signal; the searching player's first
    // card lands after its action time plus the think time charged for the search.
    let cfg = NertsConfig { target: 1, max_actions: 200, ..NertsConfig::default() };
    let rules = NertsRules::new(cfg);
    let model = constant_model(300.0, 100.0, 300.0);
    // The first deal that gives seat 0 two candidates or more at the start.
    let (seeds, k) = (0..100)
        .map(|i| {
            let seeds = MatchSeeds::of_deal(i);
            let s = NertsState::deal_of_match(&cfg, 2, &seeds, 1);
            let mut legal = ActionList::new();
            bounded_legal(&rules, &s, 0, &mut legal);
            (seeds, Search::candidates(&NertsView::new(&s, 0, &cfg), &legal, 1).len())
        })
        .find(|&(_, k)| k >= 2)
        .unwrap();
    let first_start = |text: &str| {
        let bots = [NertsBot { strategy: search(text), reaction: model }, NertsBot { strategy: REGISTRY.iter().find(|r| r.info.name == "lazy").unwrap().make_default(), reaction: model }];
        let seats: NertsSeats = bots.iter().collect();
        let mut rec = FirstStart::default();
        play_match(&rules, &seats, &seeds, &mut rec);
        rec.0.unwrap()
    };
    let (t0, a0, free) = first_start("search,rollouts=4,ms_per_rollout=0");
    let (t1, a1, charged) = first_start("search,rollouts=4,ms_per_rollout=2.5");
    let (t2, a2, doubled) = first_start("search,rollouts=8,ms_per_rollout=2.5");
    assert_eq!((t0, t1, t2), (0, 0, 0), "all decide at the start signal");
    assert_eq!((a0, a0), (a1, a2), "the same move (so the same action time)");
    assert_eq!(charged - free, ms_to_us(k as f64 * 4.0 * 2.5), "{k} candidates x 4 rollouts x 2.5 ms, charged");
    assert_eq!(doubled - charged, ms_to_us(k as f64 * 4.0 * 2.5), "8 rollouts instead of 4: twice the think time");
    let params = REGISTRY.iter().find(|r| r.info.name == "search").unwrap().info.params;
    let searcher = Search::new(&crate::games::params::ParamValues::resolve("s", params, &[("rollouts".into(), 4.0), ("ms_per_rollout".into(), 2.5)]).unwrap());
    assert_eq!(searcher.think_ms(3), 30.0);
    assert_eq!(searcher.think_ms(1), 0.0, "one candidate: nothing to think about, nothing charged");
}

#[test]
fn search_matches_are_the_same_bytes_on_one_and_two_threads() {
    let run = |threads: usize| {
        crate::api::Match::new("nerts").bot("search@skilled,rollouts=2,horizon=8").bot("lazy@skilled").set("nerts.target=10").games(4).seed(11).threads(threads).run().unwrap().csv().unwrap()
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert!(String::from_utf8(one).unwrap().contains("search@skilled"));
}

#[test]
fn invariants_hold_with_search_at_the_table_under_random_flags() {
    // NERTS-INV-1..9 after every event, every deal ending as the rules say (NERTS-END-*),
    // with a small budget at 2 and 4 players against random styles.
    let mut rng = rng_from(2026);
    let (mut events, mut called) = (0, 0);
    for m in 0..8u64 {
        let n = [2, 4][m as usize % 2];
        let mut cfg = random_cfg(&mut rng);
        cfg.target = 5;
        cfg.max_actions = 20_000;
        let rules = NertsRules::new(cfg);
        let others: Vec<&Registered> = REGISTRY.iter().filter(|r| r.info.name != "search").collect();
        let bots: Vec<NertsBot> = (0..n)
            .map(|p| {
                let preset = [Preset::Novice, Preset::Skilled, Preset::Expert][rng.random_range(0..3)];
                let strategy = if p == (m as usize / 2) % n { search("search,rollouts=2,horizon=10") } else { others[rng.random_range(0..others.len())].make_default() };
                NertsBot { strategy, reaction: preset.model() }
            })
            .collect();
        let seats: NertsSeats = bots.iter().collect();
        let mut checker = MatchChecker::new(rules);
        let out = play_match(&rules, &seats, &MatchSeeds::of_deal(m * 13 + 1), &mut checker);
        assert!(out.capped || out.winner_team.is_some(), "match {m} neither ended nor was capped");
        events += checker.events;
        called += checker.called;
    }
    assert!(events > 5_000 && called > 0, "{events} events, {called} deals called");
}

type Registered = crate::games::nerts::strategies::Registered;
use crate::games::nerts::invariants::check_state;
