//! Nerts on the real-time engine: invariants after every event of random matches at
//! 2, 4, 6 and 8 players (as many as the engine seats) with random flags and random
//! bots; no deal runs forever with the most passive style (NERTS-STUCK-5); partners'
//! conflicts (NERTS-PART-3); the bounded action list; strategies that see only their
//! view.

use super::random_play::random_cfg;
use super::*;
use crate::games::nerts::checker::MatchChecker;
use crate::games::nerts::engine::bounded_legal;
use crate::games::nerts::game::{play_match, NertsSeats};
use crate::games::nerts::strategies::{NertsBot, REGISTRY};
use crate::games::nerts::view::NertsView;
use crate::reaction::Preset;
use crate::realtime::{ActionList, RealtimeRules, MAX_ACTIONS, MAX_PLAYERS};
use crate::rng::{rng_from, MatchSeeds};

const PRESETS: [Preset; 5] = [Preset::Novice, Preset::Casual, Preset::Skilled, Preset::Expert, Preset::Machine];

fn bot(name: &str, preset: Preset) -> NertsBot {
    let r = REGISTRY.iter().find(|r| r.info.name == name).unwrap();
    NertsBot { strategy: r.make_default(), reaction: preset.model() }
}

/// Player counts the engine seats.
fn player_counts() -> Vec<usize> {
    [2, 4, 6, 8].into_iter().filter(|&n| n <= MAX_PLAYERS).collect()
}

#[test]
fn invariants_hold_after_every_event_of_random_realtime_matches() {
    let mut rng = rng_from(77);
    let mut all_resets = 0;
    for n in player_counts() {
        let (mut events, mut capped, mut called, mut stuck, mut resets, mut longest) = (0, 0, 0, 0, 0, 0);
        for m in 0..40u64 {
            let mut cfg = random_cfg(&mut rng);
            cfg.target = 5;
            cfg.max_actions = 30_000;
            let rules = NertsRules::new(cfg);
            // `search` has its own test (tests/search.rs): its rollouts are slow here.
            let pool: Vec<&str> = REGISTRY.iter().map(|r| r.info.name).filter(|&name| name != "search").collect();
            let names: Vec<&str> = (0..n).map(|_| pool[rng.random_range(0..pool.len())]).collect();
            let bots: Vec<NertsBot> = names.iter().map(|name| bot(name, PRESETS[rng.random_range(0..PRESETS.len())])).collect();
            let seats: NertsSeats = bots.iter().collect();
            // Two random hands on one layout may never make the one work move that
            // unsticks it while the other turns the stock (the rules core's random deals
            // show the same); every style coordinates (strategies::pick).
            let shared = cfg.teams(n) && cfg.partnership_mode == crate::games::nerts::config::PartnershipMode::SharedLayout;
            let exempt = shared && names.contains(&"random");
            let mut checker = MatchChecker::new(rules);
            let out = play_match(&rules, &seats, &MatchSeeds::of_deal(m * 31 + n as u64), &mut checker);
            // A match of random players may never reach the target; the budget then ends
            // it in whatever deal is running. A deal that ran away would eat the rest of
            // the budget: no deal, finished or capped, may land half of it.
            assert!(exempt || checker.longest_deal < cfg.max_actions / 2 && checker.deal_landed < cfg.max_actions / 2, "{n} players, match {m} {names:?}: a deal of {} actions under {cfg:?}", checker.deal_landed.max(checker.longest_deal));
            longest = longest.max(checker.longest_deal);
            capped += out.capped as u32;
            events += checker.events;
            called += checker.called;
            stuck += checker.stuck_ends;
            resets += checker.resets;
            if !out.capped {
                assert!(out.winner_team.is_some());
            }
        }
        assert!(called > 0, "{n} players: no call");
        all_resets += resets;
        eprintln!("{n} players: {events} events checked, {called} deals called, {stuck} ended stuck, {resets} resets, {capped} matches capped, longest deal {longest} actions");
    }
    assert!(all_resets > 0, "no global reset in any match");
}

#[test]
fn no_deal_runs_forever_with_the_most_passive_style_at_every_player_count() {
    // NERTS-STUCK-5: lazy turns its stock only when it has nothing else; the engine
    // declares the table stuck, resets, and ends the deal after a reset with no progress.
    for n in player_counts() {
        for partnerships in [Partnerships::None, Partnerships::Auto, Partnerships::Pairs] {
            let cfg = NertsConfig { target: 30, max_actions: 200_000, partnerships, ..NertsConfig::default() };
            let rules = NertsRules::new(cfg);
            let bots: Vec<NertsBot> = (0..n).map(|p| bot("lazy", PRESETS[p % 4])).collect();
            let seats: NertsSeats = bots.iter().collect();
            for m in 0..4 {
                let mut checker = MatchChecker::new(rules);
                let out = play_match(&rules, &seats, &MatchSeeds::of_deal(m), &mut checker);
                assert!(!out.capped, "{n} players ({partnerships:?}), match {m}: a lazy deal hit the cap");
                assert_eq!(checker.called + checker.stuck_ends, out.deals as u64);
            }
        }
    }
}

use crate::games::nerts::config::Partnerships;

#[test]
fn partners_reaching_for_one_pile_conflict_others_never() {
    // NERTS-PART-3: two hands on one layout cannot both take its waste.
    let cfg = NertsConfig { partnerships: Partnerships::Pairs, ..NertsConfig::default() };
    let rules = NertsRules::new(cfg);
    let s = NertsState::deal(&cfg, 4, &mut rng_from(3));
    assert_eq!((s.layout_of[0], s.layout_of[1], s.layout_of[2]), (0, 0, 1));
    let flip = NertsAction::FlipStock;
    assert!(RealtimeRules::conflicts(&rules, &s, 0, flip, 1, NertsAction::Recycle));
    assert!(!RealtimeRules::conflicts(&rules, &s, 0, flip, 1, NertsAction::FlipNerts));
    assert!(!RealtimeRules::conflicts(&rules, &s, 0, flip, 2, flip), "different layouts never conflict");
}

#[test]
fn the_bounded_action_list_keeps_every_plain_action() {
    // With two Jokers a deck and many foundations (8 players), an open Joker may go to
    // the foundations as many cards and the core's list can pass the engine's 64; the
    // subset keeps every action without a declaration (tier 0) and stays within 64.
    let mut rng = rng_from(5);
    let (mut over, mut most) = (0, 0);
    for g in 0..60u64 {
        let cfg = NertsConfig { jokers_per_deck: 2, partnerships: Partnerships::None, ..NertsConfig::default() };
        let rules = NertsRules::new(cfg);
        let mut s = NertsState::deal(&cfg, 8, &mut rng_from(g));
        'deal: for step in 0..3000 {
            let p = step % 8;
            let all = rules.legal_list(&s, p);
            most = most.max(all.len());
            let mut bounded = ActionList::new();
            bounded_legal(&rules, &s, p, &mut bounded);
            assert!(bounded.len() <= MAX_ACTIONS);
            assert!(bounded.iter().all(|a| all.contains(a)));
            if all.len() > MAX_ACTIONS {
                over += 1;
                let l = s.layout(p);
                let plain = |a: &NertsAction| match *a {
                    NertsAction::Build { decl, .. } | NertsAction::SlipUnder { decl, .. } => decl == super::super::rules::Decl::NONE,
                    NertsAction::ToFoundation { from: Source::Nerts, .. } => !l.nerts_top().is_some_and(is_joker),
                    NertsAction::ToFoundation { from: Source::Waste, .. } => !l.waste_top().is_some_and(is_joker),
                    NertsAction::ToFoundation { from: Source::Work { pile, depth }, .. } => !is_joker(l.work[pile as usize].card(depth as usize)),
                    NertsAction::Fill { from: Source::Work { .. }, .. } => false,
                    _ => true,
                };
                for a in all.iter().filter(|a| plain(a)) {
                    assert!(bounded.contains(a), "{a:?} dropped");
                }
            } else {
                assert_eq!(bounded.as_slice(), all.as_slice());
            }
            if all.is_empty() {
                continue;
            }
            // Foundation plays first, so that many foundations grow.
            let a = all.iter().copied().find(|a| matches!(a, NertsAction::ToFoundation { .. }) && rng.random_range(0..3) > 0).unwrap_or(all[rng.random_range(0..all.len())]);
            if a == NertsAction::CallNerts {
                break 'deal;
            }
            rules.lift(&mut s, p, a);
            if rules.land(&mut s, p, a, 0) == Landing::Rejected {
                rules.put_back(&mut s, p, a);
            }
        }
    }
    eprintln!("{over} positions above {MAX_ACTIONS} actions in random play, most {most}");
    // A built position: 44 foundations (each suit at ranks 1 to 11) take 48 cards, and
    // open Jokers on the Nerts and the waste may each go as any of them (96 plays).
    let cfg = NertsConfig { jokers_per_deck: 2, ..NertsConfig::default() };
    let rules = NertsRules::new(cfg);
    let mut s = NertsState::deal(&cfg, 2, &mut rng_from(1));
    let l = &mut s.layouts[0];
    let n = l.nerts_len as usize;
    for (joker, slot) in [(52u8, 0usize), (53, 1)] {
        let at = |l: &super::super::state::Layout| l.nerts[..n].iter().position(|&v| v == joker).map(|i| (0, i)).or_else(|| l.sw[..l.sw_len as usize].iter().position(|&v| v == joker).map(|i| (1, i))).or_else(|| l.work.iter().position(|w| w.card(0) == joker).map(|i| (2, i)));
        let (zone, i) = at(l).expect("the Joker is in the layout");
        let target = if slot == 0 { &mut l.nerts[n - 1] } else { &mut l.sw[0] };
        let other = std::mem::replace(target, joker);
        match zone {
            0 => l.nerts[i] = other,
            1 => l.sw[i] = other,
            _ => {
                l.work[i] = super::super::state::WorkPile::EMPTY;
                l.work[i].push_all(&[other]);
            }
        }
    }
    l.waste_len = 1;
    l.nerts_up = true;
    let f = &mut s.found;
    f.len = 0;
    for suit in 0..4u8 {
        for rank in 1..=11u8 {
            let i = f.len as usize;
            f.top[i] = suit << 4 | rank;
            f.count[i] = rank;
            f.len += 1;
        }
    }
    f.refresh_needs();
    let all = rules.legal_list(&s, 0);
    let mut bounded = ActionList::new();
    bounded_legal(&rules, &s, 0, &mut bounded);
    eprintln!("built position: {} legal actions, {} offered", all.len(), bounded.len());
    assert!(all.len() > MAX_ACTIONS && bounded.len() == MAX_ACTIONS);
    for a in all.iter().filter(|a| !matches!(a, NertsAction::ToFoundation { from: Source::Nerts | Source::Waste, .. } | NertsAction::Build { .. } | NertsAction::SlipUnder { .. } | NertsAction::Fill { from: Source::Work { .. }, .. })) {
        assert!(bounded.contains(a), "{a:?} dropped");
    }
    for a in all.iter().filter(|a| matches!(a, NertsAction::Build { decl, .. } | NertsAction::SlipUnder { decl, .. } if *decl == super::super::rules::Decl::NONE)) {
        assert!(bounded.contains(a), "{a:?} dropped");
    }
}

#[test]
fn strategies_choose_the_same_whatever_the_hidden_cards() {
    // A strategy reads only its view: shuffling every stock below the top packet's
    // reach, the cards under every Nerts top, and other layouts' hidden piles changes
    // nothing it chooses.
    let cfg = NertsConfig::default();
    let rules = NertsRules::new(cfg);
    let mut rng = rng_from(9);
    for g in 0..60u64 {
        let mut s = NertsState::deal(&cfg, 3, &mut rng_from(g));
        let n = rng.random_range(0..80);
        random_moves(&rules, &mut s, 0, n, &mut rng);
        let mut hidden = s;
        for l in hidden.layouts.iter_mut().take(3) {
            let (w, n) = (l.waste_len as usize, l.sw_len as usize);
            l.sw[w..n].reverse(); // the stock's order (face-down; the waste top stays)
            if l.nerts_len > 2 {
                l.nerts[..l.nerts_len as usize - 1].reverse(); // under the Nerts top
            }
        }
        assert_eq!(NertsView::new(&s, 0, &cfg).shown(), NertsView::new(&hidden, 0, &cfg).shown(), "deal {g}: the same view");
        let mut legal = ActionList::new();
        bounded_legal(&rules, &s, 0, &mut legal);
        if legal.is_empty() {
            continue;
        }
        for r in REGISTRY.iter().filter(|r| r.info.name != "random") {
            let strat = r.make_default();
            let a = strat.choose(&NertsView::new(&s, 0, &cfg), &legal, &mut rng_from(1));
            let b = strat.choose(&NertsView::new(&hidden, 0, &cfg), &legal, &mut rng_from(1));
            assert_eq!(a, b, "{} read a hidden card", r.info.name);
        }
    }
}

#[test]
#[ignore = "a profile of the styles, printed: cargo test --release style_profiles -- --ignored --nocapture"]
fn style_profiles_at_four_and_six_players() {
    // Per style, over every rotation of the seats: match wins per bot (a fair share is
    // 1/n), points per deal, how often it calls (Nerts-out rate), cards it plays to
    // foundations and races it wins and loses per deal. Six players: balanced and
    // nerts-first sit twice.
    let styles = ["balanced", "nerts-first", "foundation-first", "lazy"];
    for n in [4, 6].into_iter().filter(|&n| n <= MAX_PLAYERS) {
        let cfg = NertsConfig { partnerships: Partnerships::None, ..NertsConfig::default() };
        let rules = NertsRules::new(cfg);
        let bots: Vec<NertsBot> = (0..n).map(|i| bot(styles[i % 4], Preset::Skilled)).collect();
        let mut acc = [[0f64; 6]; 8];
        let mut deals_by_bot = [0f64; 8];
        let matches = 2400 / n as u64;
        for m in 0..matches {
            for r in 0..n {
                let order: Vec<usize> = (0..n).map(|s| (s + r) % n).collect();
                let seats: NertsSeats = order.iter().map(|&b| &bots[b]).collect();
                let out = play_match(&rules, &seats, &MatchSeeds::of_deal(m), &mut ());
                for (s, &b) in order.iter().enumerate() {
                    let d = out.deals as f64;
                    deals_by_bot[b % 4] += d;
                    let t = &out.tally;
                    let row = [(out.winner == Some(s)) as u32 as f64, out.totals[s] as f64, t.calls[s] as f64, t.to_foundation[s] as f64, t.races_won[s] as f64, t.races_lost[s] as f64];
                    for k in 0..6 {
                        acc[b % 4][k] += row[k];
                    }
                }
            }
        }
        eprintln!("{n} players, {} matches per bot (target {}):", matches * n as u64, cfg.target);
        eprintln!("  {:<18} {:>6} {:>11} {:>10} {:>13} {:>13} {:>14}", "bot", "wins", "points/deal", "call rate", "to found/deal", "races won/dl", "races lost/dl");
        for b in 0..n.min(4) {
            let per = |k: usize| acc[b][k] / deals_by_bot[b];
            eprintln!(
                "  {:<18} {:>6.3} {:>11.2} {:>10.3} {:>13.2} {:>13.2} {:>14.2}",
                styles[b],
                acc[b][0] / (matches * n as u64) as f64 / (0..n).filter(|i| i % 4 == b).count() as f64,
                per(1),
                per(2),
                per(3),
                per(4),
                per(5)
            );
        }
    }
}

#[test]
fn a_reset_never_calls_off_a_rotate_whose_landing_would_unstick_the_table() {
    // NERTS-STUCK-4: a global reset only when every player is stuck and no action is in
    // progress. A stuck player's ROTATE (NERTS-STUCK-3) in flight may regroup his stock
    // so that a card he needs turns up: the engine waits for it to land. Flips and the
    // other aimless moves that cannot help are still called off (the checker counts
    // them and checks each one, landed, would have left every seat stuck).
    let cfg = NertsConfig { target: 20, ..NertsConfig::default() };
    let rules = NertsRules::new(cfg);
    let bots: Vec<NertsBot> = (0..2).map(|_| bot("random", Preset::Skilled)).collect();
    let seats: NertsSeats = bots.iter().collect();
    let (mut called_off, mut resets) = (0, 0);
    for m in 0..40 {
        let mut checker = MatchChecker::new(rules);
        play_match(&rules, &seats, &MatchSeeds::of_deal(m), &mut checker);
        called_off += checker.called_off;
        resets += checker.resets;
    }
    eprintln!("{resets} resets, {called_off} aimless actions called off for them, each checked");
    assert!(called_off > 0 && resets > 0, "the check never ran: {resets} resets, {called_off} called off");
}

/// Per layout, the races its cards won: at each rejected foundation card, every deck
/// whose card lies where it aimed (NERTS-RT-5, tied cards all, NERTS-RT-6).
#[derive(Default)]
struct LayoutRaces([u32; MAX_PLAYERS]);

impl crate::realtime::EngineObserver<NertsState, NertsAction> for LayoutRaces {
    fn on_event(&mut self, _: crate::realtime::Micros, event: crate::realtime::EngineEvent<NertsAction>, s: &NertsState) {
        if let crate::realtime::EngineEvent::Rejected { action: NertsAction::ToFoundation { card, .. }, .. } = event {
            for i in 0..s.found.len as usize {
                if s.found.top[i] == card.suit() << 4 | card.rank() {
                    (0..s.n_layouts as usize).filter(|&d| s.found.top_decks[i] >> d & 1 == 1).for_each(|d| self.0[d] += 1);
                    break;
                }
            }
        }
    }
}

impl crate::realtime::MatchObserver<NertsState, NertsAction, crate::games::nerts::game::NertsEvent> for LayoutRaces {
    fn on_match_event(&mut self, _: crate::realtime::Micros, _: crate::games::nerts::game::NertsEvent, _: &NertsState) {}
}

#[test]
fn on_a_shared_layout_a_race_is_won_by_the_partner_whose_hand_played_the_card() {
    // NERTS-PART-2/3 with NERTS-RT-5: two hands share a layout; the race a card wins is
    // credited to the seat that played it, so both partners win races, and per layout
    // the partners' races add up to what its cards won.
    let cfg = NertsConfig { target: 10, ..NertsConfig::default() };
    let rules = NertsRules::new(cfg);
    let bots: Vec<NertsBot> = (0..6).map(|_| bot("random", Preset::Skilled)).collect();
    let seats: NertsSeats = bots.iter().collect();
    let mut won = [0u32; 6];
    for m in 0..6 {
        let mut layouts = LayoutRaces::default();
        let out = play_match(&rules, &seats, &MatchSeeds::of_deal(m), &mut layouts);
        assert_eq!(out.teams, 3, "six players play in three teams of two on shared layouts");
        for d in 0..3 {
            let partners: Vec<usize> = (0..6).filter(|&p| out.team_of_seat[p] as usize == d).collect();
            assert_eq!(partners.len(), 2);
            assert_eq!(partners.iter().map(|&p| out.tally.races_won[p]).sum::<u32>(), layouts.0[d], "match {m}, layout {d}: {:?}", out.tally.races_won);
        }
        (0..6).for_each(|p| won[p] += out.tally.races_won[p]);
    }
    assert!(won.iter().all(|&w| w > 0), "every seat, both partners of each layout, wins races: {won:?}");
}

/// The deal ends of a match: why, and each team's score.
#[derive(Default)]
struct DealEnds(Vec<(Option<crate::games::nerts::rules::DealEnd>, [i32; MAX_PLAYERS])>);

impl crate::realtime::EngineObserver<NertsState, NertsAction> for DealEnds {
    fn on_event(&mut self, _: crate::realtime::Micros, _: crate::realtime::EngineEvent<NertsAction>, _: &NertsState) {}
}

impl crate::realtime::MatchObserver<NertsState, NertsAction, crate::games::nerts::game::NertsEvent> for DealEnds {
    fn on_match_event(&mut self, _: crate::realtime::Micros, event: crate::games::nerts::game::NertsEvent, _: &NertsState) {
        if let crate::games::nerts::game::NertsEvent::DealEnd { end, scores } = event {
            self.0.push((end, scores));
        }
    }
}

#[test]
fn a_deal_cut_by_the_action_cap_scores_zero_for_every_team() {
    // NERTS-SCORE-1 scores a deal that ended (NERTS-END-*); a deal the match's action
    // budget (`sim.max_actions`) cuts short did not end by the rules and is not scored:
    // 0 for every team, and the match totals are those of the deals before it.
    let cfg = NertsConfig { target: 300, max_actions: 1_000, ..NertsConfig::default() };
    let rules = NertsRules::new(cfg);
    let bots: Vec<NertsBot> = (0..3).map(|_| bot("balanced", Preset::Skilled)).collect();
    let seats: NertsSeats = bots.iter().collect();
    for m in 0..4 {
        let mut ends = DealEnds::default();
        let out = play_match(&rules, &seats, &MatchSeeds::of_deal(m), &mut ends);
        assert!(out.capped && out.deals >= 2, "match {m}: 1,000 actions do not reach 300 points ({} deals)", out.deals);
        let (last, before) = ends.0.split_last().unwrap();
        assert_eq!(*last, (None, [0; MAX_PLAYERS]), "match {m}: the capped deal");
        assert!(before.iter().all(|(end, _)| end.is_some()));
        let totals: Vec<i32> = (0..3).map(|t| before.iter().map(|(_, s)| s[t]).sum()).collect();
        assert_eq!(out.totals[..3], totals[..], "match {m}: totals are the finished deals' scores");
    }
}

/// Checks, after every event, every seat's protocol view against the full state.
struct ViewCheck {
    cfg: NertsConfig,
    checked: u64,
}

/// A card as it stands, written as docs/bot-protocol.md section 4 says.
fn eff_text(e: crate::games::nerts::state::Eff) -> String {
    use crate::games::nerts::state::Eff;
    match e {
        Eff::Card(c) => c.name(),
        Eff::Implied { rank, red } => format!("Jk:{rank}:{}", if red { "red" } else { "black" }),
        Eff::Wild => "Jk".into(),
    }
}

/// Every string in `v`.
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

impl ViewCheck {
    fn check(&mut self, s: &NertsState) {
        use crate::games::nerts::state::WORK_PILES;
        use serde_json::json;
        for me in 0..s.players as usize {
            let v = crate::games::nerts::protocol::view_json(&NertsView::new(s, me, &self.cfg));
            let keys: std::collections::BTreeSet<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
            let fields = ["seat", "team", "teams", "nerts_left", "nerts_top", "waste_top", "stock", "work", "needs", "foundation_cards", "totals", "deal_scores", "fewest_other_nerts", "nerts_counts", "partner_busy", "open"];
            assert_eq!(keys, fields.into_iter().collect(), "the view's fields");
            let l = s.layout(me);
            // His face-up cards, as they stand: the Nerts top only while it is turned up.
            let nerts_top = l.nerts_top().filter(|_| l.nerts_up).map(|c| eff_text(l.loose_eff(c)));
            let waste_top = l.waste_top().map(|c| eff_text(l.loose_eff(c)));
            let work: Vec<Vec<String>> = (0..WORK_PILES).map(|p| (0..l.work[p].len as usize).map(|i| eff_text(l.eff(p, i))).collect()).collect();
            assert_eq!((&v["seat"], &v["team"], &v["teams"]), (&json!(me), &json!(s.team_of_seat(me)), &json!(s.teams)));
            assert_eq!((&v["nerts_left"], &v["stock"]), (&json!(l.nerts_len), &json!(l.stock_len())), "the pile sizes");
            assert_eq!((&v["nerts_top"], &v["waste_top"], &v["work"]), (&json!(nerts_top), &json!(waste_top), &json!(work)), "his face-up cards");
            let needs: Vec<String> = (0..52u8).filter(|&c| s.found.needs() >> c & 1 == 1).map(|c| Card(c).name()).collect();
            assert_eq!(v["needs"], json!(needs), "what the foundations take");
            assert_eq!(v["foundation_cards"], json!(s.found.cards()));
            let teams = s.teams as usize;
            assert_eq!(v["totals"], json!(s.totals[..teams]));
            assert_eq!(v["deal_scores"], json!(crate::games::nerts::rules::team_scores(s)[..teams]));
            let others = (0..s.n_layouts as usize).filter(|&d| d != s.layout_of[me] as usize).map(|d| s.layouts[d].nerts_len).min().unwrap_or(u8::MAX);
            assert_eq!(v["fewest_other_nerts"], json!(others));
            let counts: Vec<u8> = (0..s.players as usize).map(|p| s.layouts[s.layout_of[p] as usize].nerts_len).collect();
            assert_eq!(v["nerts_counts"], json!(counts), "each seat's Nerts count");
            // No hidden card: the only cards named (the foundations' needs aside) are his
            // face-up ones; his stock, the cards under his Nerts and waste tops and every
            // other layout never appear.
            let mut named = Vec::new();
            let mut rest = v.clone();
            rest.as_object_mut().unwrap().remove("needs");
            strings(&rest, &mut named);
            let mut shown: Vec<String> = nerts_top.into_iter().chain(waste_top).chain(work.into_iter().flatten()).collect();
            named.sort();
            shown.sort();
            assert_eq!(named, shown, "seat {me}: the view names exactly his face-up cards");
            self.checked += 1;
        }
    }
}

impl crate::realtime::EngineObserver<NertsState, NertsAction> for ViewCheck {
    fn on_event(&mut self, _: Micros, _: crate::realtime::EngineEvent<NertsAction>, s: &NertsState) {
        self.check(s);
    }
}

impl crate::realtime::MatchObserver<NertsState, NertsAction, crate::games::nerts::game::NertsEvent> for ViewCheck {
    fn on_match_event(&mut self, _: Micros, _: crate::games::nerts::game::NertsEvent, s: &NertsState) {
        self.check(s);
    }
}

#[test]
fn the_protocol_view_is_the_built_in_view_and_holds_no_hidden_card() {
    let mut rng = rng_from(4242);
    let mut checked = 0;
    for n in player_counts() {
        for m in 0..6u64 {
            let mut cfg = random_cfg(&mut rng);
            cfg.target = 5;
            cfg.max_actions = 4_000;
            let rules = NertsRules::new(cfg);
            let pool: Vec<&str> = REGISTRY.iter().map(|r| r.info.name).filter(|&name| name != "search").collect();
            let bots: Vec<NertsBot> = (0..n).map(|_| bot(pool[rng.random_range(0..pool.len())], PRESETS[rng.random_range(0..PRESETS.len())])).collect();
            let seats: NertsSeats = bots.iter().collect();
            let mut check = ViewCheck { cfg, checked: 0 };
            play_match(&rules, &seats, &MatchSeeds::of_deal(m * 7 + n as u64), &mut check);
            checked += check.checked;
        }
    }
    assert!(checked > 50_000, "{checked} views checked");
}
