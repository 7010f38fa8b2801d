//! Components, the deal, work piles and the Nerts pile (NERTS-DECK-*, NERTS-GOAL-1,
//! NERTS-SETUP-*, NERTS-WORK-*, NERTS-NPILE-*).

use super::*;
use crate::games::nerts::config::{Partnerships, SlipSources};
use crate::games::nerts::invariants::check_dealt;
use crate::games::nerts::rules::{deck_score, Decl};
use crate::games::nerts::state::{Eff, MAX_NERTS_PLAYERS};
use crate::rng::{rng_from, MatchSeeds};

#[test]
fn nerts_deck_1_two_to_eight_players_teams_from_six_even() {
    let cfg = NertsConfig::default();
    for n in 2..=MAX_NERTS_PLAYERS {
        let s = NertsState::table(&cfg, n);
        let teams = n >= 6 && n % 2 == 0;
        assert_eq!(s.players as usize, n);
        assert_eq!(s.teams as usize, if teams { n / 2 } else { n }, "NERTS-DECK-1: {n} players, partnerships only for even counts of 6+");
    }
    for bad in [1, 9] {
        assert!(std::panic::catch_unwind(|| NertsState::table(&cfg, bad)).is_err(), "NERTS-DECK-1: {bad} players is not a Nerts table");
    }
}

#[test]
fn nerts_deck_2_every_deck_is_its_owners_52_plus_jokers() {
    for jokers in 0..=2 {
        let cfg = NertsConfig { jokers_per_deck: jokers, partnerships: Partnerships::None, ..NertsConfig::default() };
        let s = NertsState::deal(&cfg, 4, &mut rng_from(jokers as u64));
        for d in 0..4 {
            let (mask, n) = s.layouts[d].census();
            assert_eq!((mask, n), (s.deck_mask(), 52 + jokers as u32), "NERTS-DECK-2: deck {d} has 52 + {jokers} cards of its own");
            assert_eq!(NertsState::deck_card(d, 5).deck, d as u8, "NERTS-DECK-2: a card knows its deck (its back)");
        }
        assert_ne!(s.layouts[0].nerts, s.layouts[1].nerts, "NERTS-DECK-2: each deck is shuffled on its own");
    }
}

#[test]
fn nerts_deck_3_king_high_ace_low_no_wrap_red_and_black() {
    let r = NertsRules::new(NertsConfig::default());
    let e = |c: &str| Eff::Card(card(c));
    let fits = |m: &str, t: &str| {
        let mut any = false;
        crate::games::nerts::rules::place_options(e(m), e(t), |_| any = true);
        any
    };
    assert!(fits("Qh", "Ks") && fits("Ad", "2c") && fits("9d", "10s"), "NERTS-DECK-3: one rank down, K high, A low");
    assert!(!fits("Kh", "As") && !fits("As", "Kh"), "NERTS-DECK-3: no wrap-around between K and A");
    assert!(!fits("9h", "10d") && !fits("9c", "10s"), "NERTS-DECK-3: hearts and diamonds are red, clubs and spades black");
    let s = Build::new(&r.cfg, 2).found(0, 'h', 13).done();
    assert_eq!(s.found.active().count(), 0, "NERTS-DECK-3: nothing goes on a King (the foundation is set aside)");
}

#[test]
fn nerts_goal_1_getting_rid_of_nerts_cards_is_what_scores() {
    let r = NertsRules::new(NertsConfig::default());
    let mut s = Build::new(&r.cfg, 2).nerts(0, "5c 9d Ah", true).work(0, 0, "10s").done();
    let before = deck_score(&s, 0);
    play(&r, &mut s, 0, to_found(Source::Nerts, "Ah"), SEC);
    assert_eq!(deck_score(&s, 0), before + 3, "NERTS-GOAL-1: a Nerts card on a foundation: +1 and no more -2");
    play(&r, &mut s, 0, NertsAction::FlipNerts, SEC);
    play(&r, &mut s, 0, NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl::NONE }, SEC);
    assert_eq!(deck_score(&s, 0), before + 5, "NERTS-GOAL-1: a Nerts card on a work pile: no more -2");
}

#[test]
fn nerts_setup_1_a_nerts_pile_of_13_with_only_the_top_face_up() {
    let cfg = NertsConfig::default();
    let s = NertsState::deal(&cfg, 3, &mut rng_from(1));
    for l in s.layouts() {
        assert_eq!((l.nerts_len, l.nerts_up), (13, true), "NERTS-SETUP-1: 13 cards, the 13th face-up");
        assert_eq!(l.nerts_top(), Some(l.nerts[12]), "NERTS-SETUP-1: only the top is visible and playable");
    }
}

#[test]
fn nerts_setup_2_four_work_piles_of_one_face_up_card() {
    let s = NertsState::deal(&NertsConfig::default(), 2, &mut rng_from(2));
    for l in s.layouts() {
        assert!(l.work.iter().all(|w| w.len == 1), "NERTS-SETUP-2: exactly four work piles of one card");
        assert_eq!(l.work.len(), 4);
    }
}

#[test]
fn nerts_setup_3_stock_of_35_plus_jokers_and_an_empty_waste() {
    for j in 0..=2u8 {
        let cfg = NertsConfig { jokers_per_deck: j, ..NertsConfig::default() };
        let s = NertsState::deal(&cfg, 2, &mut rng_from(3));
        for l in s.layouts() {
            assert_eq!((l.stock_len(), l.waste_len), (35 + j, 0), "NERTS-SETUP-3: stock 35 + J, waste empty");
        }
    }
}

#[test]
fn nerts_setup_4_one_common_area_every_player_reaches() {
    let r = NertsRules::new(NertsConfig { partnerships: Partnerships::None, ..NertsConfig::default() });
    let mut s = Build::new(&r.cfg, 4).nerts(0, "Ah", true).nerts(3, "2h", true).done();
    play(&r, &mut s, 0, to_found(Source::Nerts, "Ah"), SEC);
    assert!(legal(&r, &s, 3).contains(&to_found(Source::Nerts, "2h")), "NERTS-SETUP-4: the foundation seat 0 started is within seat 3's reach");
}

#[test]
fn nerts_setup_5_play_starts_for_everyone_at_once_after_the_deal() {
    let cfg = NertsConfig::default();
    let seeds = MatchSeeds::of_deal(11);
    let s = NertsState::deal_of_match(&cfg, 4, &seeds, 1);
    assert_eq!(s, NertsState::deal_of_match(&cfg, 4, &seeds, 1), "the deal depends only on the deal's seeds");
    check_dealt(&s).unwrap();
    let r = NertsRules::new(cfg);
    for p in 0..4 {
        assert!(!legal(&r, &s, p).is_empty(), "NERTS-SETUP-5: seat {p} can act at t = 0");
        assert_eq!(s.layout(p).locks, 0, "NERTS-SETUP-5: no hand is busy at the go");
    }
}

#[test]
fn nerts_work_1_every_work_card_is_visible_and_reachable() {
    let r = NertsRules::new(NertsConfig::default());
    let s = Build::new(&r.cfg, 2).work(0, 0, "Ks Qh Jc 10d").work(0, 1, "Jd").nerts(0, "2c", false).done();
    assert_eq!(pile(&s, 0, 0), vs("Ks Qh Jc 10d"), "NERTS-WORK-1: the pile shows all its cards");
    let moves: Vec<_> = legal(&r, &s, 0).into_iter().filter(|a| matches!(a, NertsAction::Fill { .. })).collect();
    assert_eq!(moves.len(), 3, "NERTS-WORK-1: a card under others can be moved (depths 1, 2, 3 into an empty slot): {moves:?}");
}

#[test]
fn nerts_work_2_one_rank_lower_other_colour_nothing_on_an_ace() {
    let r = NertsRules::new(NertsConfig::default());
    for (top, nerts, ok) in [("10s", "9h", true), ("10s", "9d", true), ("10s", "9c", false), ("10s", "8h", false), ("10s", "Jh", false), ("As", "Kh", false), ("2s", "Ah", true)] {
        let s = Build::new(&r.cfg, 2).work(0, 0, top).work(0, 1, "Ks").work(0, 2, "Kc").work(0, 3, "Kd").nerts(0, nerts, true).done();
        let build = NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl::NONE };
        assert_eq!(legal(&r, &s, 0).contains(&build), ok, "NERTS-WORK-2: {nerts} on {top}");
    }
}

#[test]
fn nerts_work_3_a_stack_from_any_depth_moves_in_one_action() {
    let r = NertsRules::new(NertsConfig::default());
    let s = Build::new(&r.cfg, 2).work(0, 0, "Ks Qh Jc 10d").work(0, 1, "Qd").work(0, 2, "Kc").work(0, 3, "9c").done();
    let mut t = s;
    play(&r, &mut t, 0, NertsAction::Build { from: Source::Work { pile: 0, depth: 2 }, to: 1, decl: Decl::NONE }, SEC);
    assert_eq!((pile(&t, 0, 0), pile(&t, 0, 1)), (vs("Ks Qh"), vs("Qd Jc 10d")), "NERTS-WORK-3: Jc moves with the 10d on it, one action");
    let l = legal(&r, &s, 0);
    assert!(l.contains(&NertsAction::Build { from: Source::Work { pile: 0, depth: 1 }, to: 2, decl: Decl::NONE }), "NERTS-WORK-3: Qh Jc 10d onto Kc");
    assert!(!l.contains(&NertsAction::Build { from: Source::Work { pile: 0, depth: 1 }, to: 1, decl: Decl::NONE }), "NERTS-WORK-3: the moved card must fit the target (Qh on Qd)");
    let whole = NertsRules::new(NertsConfig { partial_stack_moves: false, ..r.cfg });
    let l = legal(&whole, &s, 0);
    assert!(!l.iter().any(|a| matches!(a, NertsAction::Build { from: Source::Work { depth: 1.., .. }, .. })), "NERTS-WORK-3: partial_stack_moves=false moves whole piles only");
    let mut t = s;
    play(&whole, &mut t, 0, NertsAction::Build { from: Source::Work { pile: 1, depth: 0 }, to: 2, decl: Decl::NONE }, SEC);
    assert_eq!(pile(&t, 0, 2), vs("Kc Qd"), "NERTS-WORK-3: the whole pile");
}

#[test]
fn nerts_work_4_an_empty_slot_takes_any_card_or_stack_and_need_not_be_filled() {
    let r = NertsRules::new(NertsConfig::default());
    let s = Build::new(&r.cfg, 2).work(0, 0, "Ks Qh Jc").work(0, 2, "5d").nerts(0, "7c", true).waste(0, "9h").done();
    let l = legal(&r, &s, 0);
    for from in [Source::Nerts, Source::Waste, Source::Work { pile: 0, depth: 1 }, Source::Work { pile: 0, depth: 2 }] {
        assert!(l.contains(&NertsAction::Fill { from, to: 1 }), "NERTS-WORK-4: {from:?} may fill the empty slot");
    }
    assert!(!l.iter().any(|a| matches!(a, NertsAction::Fill { to: 3, .. })), "only the first free empty slot is offered");
    assert!(!l.contains(&NertsAction::Fill { from: Source::Work { pile: 0, depth: 0 }, to: 1 }), "a whole pile into an empty slot changes nothing");
    assert!(l.iter().any(|a| !matches!(a, NertsAction::Fill { .. })), "NERTS-WORK-4: filling is optional");
}

#[test]
fn nerts_work_5_only_a_work_piles_top_goes_to_a_foundation() {
    let r = NertsRules::new(NertsConfig::default());
    let s = Build::new(&r.cfg, 2).found(1, 'c', 2).work(0, 0, "3c 2h Ac").done();
    let l = legal(&r, &s, 0);
    assert!(l.contains(&to_found(top(&s, 0, 0), "Ac")), "NERTS-WORK-5: the top Ac goes up");
    assert!(
        !l.iter().any(|a| matches!(a, NertsAction::ToFoundation { from: Source::Work { pile: 0, depth: 0 }, .. })),
        "NERTS-WORK-5: the 3c under the 2h cannot, though the 2c foundation takes it"
    );
}

#[test]
fn nerts_work_6_slip_under_needs_an_empty_slot_and_a_card_one_higher() {
    let r = NertsRules::new(NertsConfig::default());
    let b = || Build::new(&r.cfg, 2).work(0, 0, "Qs Jh").work(0, 1, "5c").work(0, 2, "8d").nerts(0, "Kd", true).waste(0, "Kh");
    let s = b().done();
    let l = legal(&r, &s, 0);
    for from in [Source::Waste, Source::Nerts] {
        assert!(l.contains(&NertsAction::SlipUnder { from, pile: 0, decl: Decl::NONE }), "NERTS-WORK-6: red K under the black Q from {from:?}");
    }
    assert!(!l.iter().any(|a| matches!(a, NertsAction::SlipUnder { pile: 1 | 2, .. })), "NERTS-WORK-6: only one rank higher, other colour");
    let mut t = s;
    play(&r, &mut t, 0, NertsAction::SlipUnder { from: Source::Nerts, pile: 0, decl: Decl::NONE }, SEC);
    assert_eq!(pile(&t, 0, 0), vs("Kd Qs Jh"), "NERTS-WORK-6: the card becomes the base");
    assert!(t.layout(0).work[3].is_empty(), "NERTS-WORK-6: the empty slot stays empty");
    let full = b().work(0, 3, "2c").done();
    assert!(!legal(&r, &full, 0).iter().any(|a| matches!(a, NertsAction::SlipUnder { .. })), "NERTS-WORK-6: no slip-under without an empty slot");
    let waste_only = NertsRules::new(NertsConfig { slip_under_sources: SlipSources::WasteOnly, ..r.cfg });
    let l = legal(&waste_only, &s, 0);
    assert!(
        l.iter().any(|a| matches!(a, NertsAction::SlipUnder { from: Source::Waste, .. })) && !l.iter().any(|a| matches!(a, NertsAction::SlipUnder { from: Source::Nerts, .. })),
        "NERTS-WORK-6: slip_under_sources=waste_only"
    );
}

#[test]
fn nerts_work_7_a_player_only_changes_his_own_layout_and_the_foundations() {
    let r = NertsRules::new(NertsConfig { partnerships: Partnerships::None, ..NertsConfig::default() });
    let s = NertsState::deal(&r.cfg, 3, &mut rng_from(7));
    for p in 0..3 {
        for a in legal(&r, &s, p) {
            let mut t = s;
            play(&r, &mut t, p, a, SEC);
            for d in (0..3).filter(|&d| d != p) {
                assert_eq!(t.layouts[d], s.layouts[d], "NERTS-WORK-7: seat {p}'s {a:?} touched layout {d}");
            }
            assert!(t.on_found[p] & s.on_found[p] == s.on_found[p], "NERTS-WORK-7: nothing comes back from the common area");
        }
    }
}

#[test]
fn nerts_npile_1_only_the_face_up_top_plays_and_it_goes_anywhere() {
    let r = NertsRules::new(NertsConfig::default());
    let s = Build::new(&r.cfg, 2).nerts(0, "Ac 8d", true).work(0, 0, "9s").work(0, 1, "7c").work(0, 2, "2c").done();
    let l = legal(&r, &s, 0);
    let from_nerts: Vec<_> = l.iter().filter(|a| a.source() == Some(Source::Nerts)).collect();
    assert!(l.contains(&NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl::NONE }), "NERTS-NPILE-1: top to a work pile");
    assert!(l.contains(&NertsAction::Fill { from: Source::Nerts, to: 3 }), "NERTS-NPILE-1: top to an empty slot");
    assert!(l.contains(&NertsAction::SlipUnder { from: Source::Nerts, pile: 1, decl: Decl::NONE }), "NERTS-NPILE-1: top under a work pile");
    assert!(!l.iter().any(|a| matches!(a, NertsAction::ToFoundation { from: Source::Nerts, .. })), "NERTS-NPILE-1: the Ac under the top is not playable: {from_nerts:?}");
    let down = Build::new(&r.cfg, 2).nerts(0, "Ac 8d", false).work(0, 0, "9s").done();
    assert!(!legal(&r, &down, 0).iter().any(|a| a.source() == Some(Source::Nerts)), "NERTS-NPILE-1: a face-down top offers nothing");
    let s = Build::new(&r.cfg, 2).nerts(0, "8d Ac", true).done();
    assert!(legal(&r, &s, 0).contains(&to_found(Source::Nerts, "Ac")), "NERTS-NPILE-1: the top to a foundation");
}

#[test]
fn nerts_npile_2_the_next_card_turns_up_by_its_own_action() {
    let r = NertsRules::new(NertsConfig::default());
    let mut s = Build::new(&r.cfg, 2).nerts(0, "2d Ac", true).work(0, 0, "3s").done();
    play(&r, &mut s, 0, to_found(Source::Nerts, "Ac"), SEC);
    assert!(!s.layout(0).nerts_up, "NERTS-NPILE-2: the next Nerts card stays face-down");
    let l = legal(&r, &s, 0);
    assert!(l.contains(&NertsAction::FlipNerts) && !l.iter().any(|a| a.source() == Some(Source::Nerts)), "NERTS-NPILE-2: FLIP_N is needed before it plays");
    play(&r, &mut s, 0, NertsAction::FlipNerts, SEC);
    assert!(legal(&r, &s, 0).contains(&NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl::NONE }), "NERTS-NPILE-2: once turned, it plays");
}

#[test]
fn nerts_npile_3_a_nerts_card_that_loses_a_race_restores_the_pile() {
    let r = NertsRules::new(NertsConfig { partnerships: Partnerships::None, ..NertsConfig::default() });
    let s0 = Build::new(&r.cfg, 2).found(1, 'h', 2).nerts(0, "5c 3h", true).nerts(1, "3h", true).done();
    let mut sim = Sim::new(r, s0);
    sim.start(1, to_found(Source::Nerts, "3h"), SEC);
    sim.start(0, to_found(Source::Nerts, "3h"), 2 * SEC);
    sim.settle();
    assert_eq!(sim.rejected, 1);
    let l = sim.s.layout(0);
    assert_eq!((l.nerts_len, l.nerts_up, l.nerts_top()), (2, true, Some(v("3h"))), "NERTS-NPILE-3: the card is back on its Nerts pile, count restored");
    assert!(sim.s.layout(0).nerts_len <= s0.layout(0).nerts_len, "NERTS-NPILE-3: never more cards than before");
}
