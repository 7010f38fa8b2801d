//! Scoring, the match, Jokers and partnerships (NERTS-SCORE-*, NERTS-MATCH-*,
//! NERTS-JOKER-*, NERTS-PART-*).

use super::*;
use crate::games::nerts::config::{JokerIdentity, PartnershipMode, Partnerships};
use crate::games::nerts::invariants::check_dealt;
use crate::games::nerts::rules::{deck_score, match_status, seat_scores, team_scores, DealEnd, Decl, MatchStatus};
use crate::games::nerts::state::{Eff, LOCK_STOCK};
use crate::rng::{rng_from, MatchSeeds};

fn solo() -> NertsRules {
    rules_with(|c| c.partnerships = Partnerships::None)
}

fn jokers(n: u8) -> NertsRules {
    rules_with(|c| {
        c.partnerships = Partnerships::None;
        c.jokers_per_deck = n;
    })
}

#[test]
fn nerts_score_1_plus_one_per_foundation_card_minus_two_per_nerts_card() {
    let r = solo();
    let s = Build::new(&r.cfg, 2).found(0, 'h', 5).found(0, 's', 13).nerts(0, "2c 3c 4c 5c", false).work(0, 0, "Kd").waste(0, "7d").rest_to_stock(0).done();
    assert_eq!(deck_score(&s, 0), 18 - 8, "NERTS-SCORE-1: 18 foundation cards (13 set aside), 4 Nerts cards face-up or down, work, stock and waste 0");
}

#[test]
fn nerts_score_2_foundation_cards_score_for_the_deck_on_their_back() {
    let r = solo();
    let mut s = Build::new(&r.cfg, 2).found(0, 'h', 3).nerts(1, "4h", true).done();
    let before = [deck_score(&s, 0), deck_score(&s, 1)];
    play(&r, &mut s, 1, to_found(Source::Nerts, "4h"), SEC);
    assert_eq!(s.on_found[1] >> card("4h").0 & 1, 1, "NERTS-SCORE-2: the 4h on deck 0's foundation is deck 1's");
    assert_eq!([deck_score(&s, 0), deck_score(&s, 1)], [before[0], before[1] + 3], "NERTS-SCORE-2: and scores for deck 1");
    assert_eq!(NertsState::deck_card(1, v("4h")).name(), "4h@1");
}

#[test]
fn nerts_score_3_calling_earns_nothing() {
    let r = solo();
    let mut s = Build::new(&r.cfg, 2).nerts(0, "", false).nerts(1, "5c", true).done();
    let before = (deck_score(&s, 0), deck_score(&s, 1));
    play(&r, &mut s, 0, NertsAction::CallNerts, SEC);
    assert_eq!((deck_score(&s, 0), deck_score(&s, 1)), before, "NERTS-SCORE-3: the call only stops the deal");
}

#[test]
fn nerts_score_4_totals_add_up_over_deals_and_may_be_negative() {
    let r = solo();
    let s = NertsState::deal(&r.cfg, 2, &mut rng_from(4));
    assert_eq!(team_scores(&s)[..2], [-26, -26], "NERTS-SCORE-4: a full Nerts pile and nothing played: -26");
    let mut totals = [0i32; 2];
    for _ in 0..3 {
        for (t, d) in totals.iter_mut().zip(team_scores(&s)) {
            *t += d;
        }
    }
    assert_eq!(totals, [-78, -78], "NERTS-SCORE-4: deal scores add up");
    assert_eq!(match_status(&totals, 100), MatchStatus::Continue);
}

#[test]
fn nerts_match_1_deals_until_a_team_reaches_the_target() {
    assert_eq!(match_status(&[99, 50, -3], 100), MatchStatus::Continue, "NERTS-MATCH-1: nobody at 100 yet");
    assert_eq!(match_status(&[100, 50, -3], 100), MatchStatus::Won(0), "NERTS-MATCH-1: 100 reached");
    assert_eq!(match_status(&[10, 30], 25), MatchStatus::Won(1), "NERTS-MATCH-1: any target");
}

#[test]
fn nerts_match_2_highest_total_wins_equal_highest_deal_again() {
    assert_eq!(match_status(&[120, 110, 5], 100), MatchStatus::Won(0), "NERTS-MATCH-2: both over: the higher wins");
    assert_eq!(match_status(&[120, 120, 5], 100), MatchStatus::Continue, "NERTS-MATCH-2: equal highest: another deal");
    assert_eq!(match_status(&[120, 120, 130], 100), MatchStatus::Won(2));
}

#[test]
fn nerts_match_3_every_deal_reshuffles_each_deck_for_its_owner() {
    let cfg = NertsConfig { jokers_per_deck: 1, ..NertsConfig::default() };
    let seeds = MatchSeeds::of_deal(5);
    let deals: Vec<NertsState> = (1..=3).map(|k| NertsState::deal_of_match(&cfg, 3, &seeds, k)).collect();
    for s in &deals {
        check_dealt(s).expect("NERTS-MATCH-3: each player has exactly his own deck back");
    }
    assert!(deals[0].layouts[0] != deals[1].layouts[0] && deals[1].layouts[0] != deals[2].layouts[0], "NERTS-MATCH-3: reshuffled every deal");
    assert_eq!(deals[1], NertsState::deal_of_match(&cfg, 3, &seeds, 2), "the same deal of the match in every seating");
}

#[test]
fn nerts_joker_1_zero_one_or_two_jokers_dealt_with_the_deck() {
    for n in 0..=2u8 {
        let r = jokers(n);
        let mut places = [false; 3];
        for g in 0..200 {
            let s = NertsState::deal(&r.cfg, 2, &mut rng_from(g));
            for d in 0..2 {
                let l = &s.layouts[d];
                assert_eq!(jokers_in(&s, d), n as usize, "NERTS-JOKER-1: {n} Jokers in each deck");
                places[0] |= l.nerts[..13].iter().any(|&x| is_joker(x));
                places[1] |= l.work.iter().any(|w| w.iter().any(is_joker));
                places[2] |= l.stock().iter().any(|&x| is_joker(x));
            }
        }
        assert_eq!(places, [n > 0; 3], "NERTS-JOKER-1: Jokers land in the Nerts pile, the work piles and the stock");
    }
}

#[test]
fn nerts_joker_2_a_joker_stands_for_any_card() {
    let r = jokers(1);
    let s = Build::new(&r.cfg, 2).found(1, 'd', 6).nerts(0, "Jk0", true).work(0, 0, "9s").work(0, 1, "Kh").work(0, 2, "2d").work(0, 3, "As").done();
    let l = legal(&r, &s, 0);
    for to in 0..3 {
        assert!(l.contains(&NertsAction::Build { from: Source::Nerts, to, decl: Decl::NONE }), "NERTS-JOKER-2: the Joker goes on any card but an Ace ({to})");
    }
    assert!(!l.iter().any(|a| matches!(a, NertsAction::Build { from: Source::Nerts, to: 3, .. })), "NERTS-JOKER-3: not on an Ace");
    for c in ["Ac", "Ad", "Ah", "As", "7d"] {
        assert!(l.contains(&to_found(Source::Nerts, c)), "NERTS-JOKER-2: to a foundation as {c}");
    }
    assert_eq!(l.iter().filter(|a| matches!(a, NertsAction::ToFoundation { from: Source::Nerts, .. })).count(), 5, "only cards a foundation takes");
}

#[test]
fn nerts_joker_3_implied_by_position_free_alone_declared_on_jokers_and_under_piles() {
    let r = jokers(2);
    // On a card: one rank below, the other colour, suit open.
    let mut s = Build::new(&r.cfg, 2).nerts(0, "Jk0", true).work(0, 0, "8s").work(0, 1, "6c").work(0, 2, "Kd").work(0, 3, "5h").waste(0, "Jk1").done();
    play(&r, &mut s, 0, NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl::NONE }, SEC);
    assert_eq!(s.layout(0).eff(0, 1), Eff::Implied { rank: 7, red: true }, "NERTS-JOKER-3: on the 8s it is a red 7, no declaration");
    // A Joker on an open Joker declares its rank and suit, and the suit of the one covered.
    let l = legal(&r, &s, 0);
    let on_joker: Vec<Decl> = l
        .iter()
        .filter_map(|a| match a {
            NertsAction::Build { from: Source::Waste, to: 0, decl } => Some(*decl),
            _ => None,
        })
        .collect();
    assert_eq!(on_joker.len(), 4, "NERTS-JOKER-3: black 6 in two suits, the covered red 7 in two suits");
    assert!(on_joker.iter().all(|d| Card(d.joker).rank() == 6 && !Card(d.joker).is_red() && [1, 2].contains(&d.cover)));
    // Alone in a slot it is unconstrained; a card on it fixes it one rank higher.
    let mut t = Build::new(&r.cfg, 2).work(0, 0, "Jk0").waste(0, "9c").done();
    assert_eq!(t.layout(0).eff(0, 0), Eff::Wild, "NERTS-JOKER-3: unconstrained as the base of a slot");
    play(&r, &mut t, 0, NertsAction::Build { from: Source::Waste, to: 0, decl: Decl { joker: NONE, cover: 2 } }, SEC);
    assert_eq!(t.layout(0).eff(0, 0), Eff::Card(card("10h")), "NERTS-JOKER-3: the 9c fixed it as a red 10 (declared hearts)");
    // Slipped under a pile it declares.
    let u = Build::new(&r.cfg, 2).work(0, 0, "Qs Jh").waste(0, "Jk1").done();
    let slips: Vec<_> = legal(&r, &u, 0).into_iter().filter(|a| matches!(a, NertsAction::SlipUnder { .. })).collect();
    assert_eq!(
        slips,
        [card("Kd"), card("Kh")].map(|c| NertsAction::SlipUnder { from: Source::Waste, pile: 0, decl: Decl { joker: c.0, cover: NONE } }),
        "NERTS-JOKER-3: a slipped Joker declares a red K"
    );
}

#[test]
fn nerts_joker_3_a_joker_with_an_implied_rank_may_cover_a_lone_open_joker_one_without_may_not() {
    // NERTS-JOKER-3 (decision 2026-11-30): a Joker may cover a Joker whose identity is
    // not yet fixed only with a declared rank and suit, which fixes both. The Joker on
    // the 8s stands for a red 7 (its position's rank binds its moves within the work
    // piles): moved onto the lone Joker it declares a red 7 and makes the lone one a
    // black 8. A loose open Joker (the waste top) has no rank to give: it is not offered
    // onto the lone Joker, nor slipped under it.
    let r = jokers(2);
    let mut s = Build::new(&r.cfg, 2).work(0, 0, "8s Jk0").work(0, 1, "Jk1").done();
    let l = legal(&r, &s, 0);
    let from_stack: Vec<Decl> = l
        .iter()
        .filter_map(|a| match a {
            NertsAction::Build { from: Source::Work { pile: 0, depth: 1 }, to: 1, decl } => Some(*decl),
            _ => None,
        })
        .collect();
    assert_eq!(from_stack.len(), 4, "NERTS-JOKER-3: a red 7 in two suits, the covered black 8 in two suits: {l:?}");
    assert!(from_stack.iter().all(|d| Card(d.joker).rank() == 7 && Card(d.joker).is_red() && [0, 3].contains(&d.cover)), "{from_stack:?}");
    let loose = Build::new(&r.cfg, 2).work(0, 0, "8s").work(0, 1, "Jk1").waste(0, "Jk0").done();
    let ll = legal(&r, &loose, 0);
    assert!(ll.iter().any(|a| matches!(a, NertsAction::Build { from: Source::Waste, to: 0, .. })), "the loose Joker goes onto the 8s: {ll:?}");
    assert!(!ll.iter().any(|a| matches!(a, NertsAction::Build { from: Source::Waste, to: 1, .. } | NertsAction::SlipUnder { from: Source::Waste, pile: 1, .. })), "NERTS-JOKER-3: a loose open Joker is not offered onto or under a lone open Joker: {ll:?}");
    let decl = from_stack[0];
    play(&r, &mut s, 0, NertsAction::Build { from: Source::Work { pile: 0, depth: 1 }, to: 1, decl }, SEC);
    assert_eq!(s.layout(0).eff(1, 1), Eff::Card(Card(decl.joker)), "NERTS-JOKER-3: the moved Joker is fixed as it declared");
    assert_eq!(s.layout(0).eff(1, 0), Eff::Card(Card::new(8, decl.cover)), "NERTS-JOKER-3: the covered Joker is fixed as the 8 of the declared suit");
}

#[test]
fn nerts_joker_4_the_first_card_on_a_joker_fixes_it_for_good_or_while_covered() {
    for (mode, after) in [(JokerIdentity::Permanent, Eff::Card(card("7d"))), (JokerIdentity::UntilUncovered, Eff::Implied { rank: 7, red: true })] {
        let r = rules_with(|c| {
            c.partnerships = Partnerships::None;
            c.jokers_per_deck = 1;
            c.joker_identity = mode;
        });
        let mut s = Build::new(&r.cfg, 2).work(0, 0, "8s Jk0").work(0, 1, "7h").nerts(0, "6c", true).done();
        let l = legal(&r, &s, 0);
        let decls: Vec<u8> = l
            .iter()
            .filter_map(|a| match a {
                NertsAction::Build { from: Source::Nerts, to: 0, decl } => Some(decl.cover),
                _ => None,
            })
            .collect();
        assert_eq!(decls, [1, 2], "NERTS-JOKER-4: the suit declared must be red (the colour its position implies)");
        play(&r, &mut s, 0, NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl { joker: NONE, cover: 1 } }, SEC);
        assert_eq!(s.layout(0).eff(0, 1), Eff::Card(card("7d")), "NERTS-JOKER-4: now exactly the 7d");
        play(&r, &mut s, 0, NertsAction::Build { from: Source::Work { pile: 0, depth: 2 }, to: 1, decl: Decl::NONE }, SEC);
        assert_eq!(s.layout(0).eff(0, 1), after, "NERTS-JOKER-4: {mode:?} once the 6c is gone");
    }
}

#[test]
fn nerts_joker_5_a_joker_declares_a_legal_card_at_the_foundation_agreeing_with_its_identity() {
    let r = jokers(2);
    let s = Build::new(&r.cfg, 2).found(1, 'h', 6).found(1, 'd', 6).work(0, 0, "Jk0").work(0, 1, "Jk1").fix(0, 1, "7d").done();
    let l = legal(&r, &s, 0);
    let open: Vec<Card> = l
        .iter()
        .filter_map(|a| match a {
            NertsAction::ToFoundation { from: Source::Work { pile: 0, .. }, card } => Some(*card),
            _ => None,
        })
        .collect();
    assert_eq!(open, [card("Ac"), card("Ad"), card("Ah"), card("As"), card("7d"), card("7h")], "NERTS-JOKER-5: an open Joker declares an Ace or a next card");
    let fixed: Vec<Card> = l
        .iter()
        .filter_map(|a| match a {
            NertsAction::ToFoundation { from: Source::Work { pile: 1, .. }, card } => Some(*card),
            _ => None,
        })
        .collect();
    assert_eq!(fixed, [card("7d")], "NERTS-JOKER-5: a fixed Joker only as its identity");
}

#[test]
fn nerts_joker_6_jokers_score_like_any_card() {
    let r = jokers(2);
    let mut s = Build::new(&r.cfg, 2).nerts(0, "Jk1 Jk0", true).done();
    let aside = s.found_cards(0) as i32;
    assert_eq!(deck_score(&s, 0) - aside, -4, "NERTS-JOKER-6: -2 each in the Nerts pile");
    play(&r, &mut s, 0, to_found(Source::Nerts, "Ah"), SEC);
    assert_eq!(deck_score(&s, 0) - aside, 1 - 2, "NERTS-JOKER-6: +1 on a foundation");
}

#[test]
fn nerts_part_1_teams_of_two_neighbours_for_even_tables_of_six_or_more() {
    let counts = |p: Partnerships, n: usize| {
        let s = NertsState::table(&NertsConfig { partnerships: p, ..NertsConfig::default() }, n);
        (s.teams, (0..n).map(|q| s.team_of_seat(q)).collect::<Vec<_>>())
    };
    assert_eq!(counts(Partnerships::Auto, 6), (3, vec![0, 0, 1, 1, 2, 2]), "NERTS-PART-1: neighbours pair up");
    assert_eq!(counts(Partnerships::Auto, 8).0, 4);
    assert_eq!(counts(Partnerships::Auto, 4).0, 4, "NERTS-PART-1: auto leaves four players alone");
    assert_eq!(counts(Partnerships::Auto, 7).0, 7, "NERTS-PART-1: odd counts play alone");
    assert_eq!(counts(Partnerships::Pairs, 4), (2, vec![0, 0, 1, 1]), "pairs: teams from four players");
    assert_eq!(counts(Partnerships::Pairs, 5).0, 5);
    assert_eq!(counts(Partnerships::None, 8).0, 8);
}

#[test]
fn nerts_part_2_a_shared_layout_one_deck_scored_as_one_either_partner_calls() {
    let r = NertsRules::new(NertsConfig::default());
    let s = NertsState::deal(&r.cfg, 6, &mut rng_from(6));
    assert_eq!(s.n_layouts, 3, "NERTS-PART-2: one deck and layout per team");
    assert_eq!((s.layout_of[0], s.layout_of[1], s.layout_of[5]), (0, 0, 2));
    let scores = seat_scores(&s);
    assert!(scores[0] == scores[1] && scores[0] == -26, "NERTS-PART-2: the team is scored as one unit");
    let b = Build::new(&r.cfg, 6).nerts(0, "5c", true).nerts(1, "", false).nerts(2, "5c", true).done();
    assert!(legal(&r, &b, 2).contains(&NertsAction::CallNerts) && legal(&r, &b, 3).contains(&NertsAction::CallNerts), "NERTS-PART-2: either partner may call");
    assert!(!legal(&r, &b, 0).contains(&NertsAction::CallNerts));
}

#[test]
fn nerts_part_3_partners_lock_the_piles_their_hand_uses() {
    let r = NertsRules::new(NertsConfig::default());
    let s = Build::new(&r.cfg, 6).work(0, 0, "10s 9h").work(0, 1, "10c").work(0, 2, "5d").waste(0, "4c").stock(0, "Kd Qd Jd").done();
    let mut sim = Sim::new(r, s);
    let stack = NertsAction::Build { from: Source::Work { pile: 0, depth: 1 }, to: 1, decl: Decl::NONE };
    let flip = NertsAction::FlipStock;
    assert!(legal(&r, &sim.s, 1).contains(&stack) && legal(&r, &sim.s, 1).contains(&flip));
    sim.start(0, stack, SEC);
    let l = legal(&r, &sim.s, 1);
    assert!(!l.iter().any(|a| a.resources() & 0b11 != 0), "NERTS-PART-3: piles 0 and 1 are locked while the partner's stack is in the air: {l:?}");
    assert!(r.conflicts(&sim.s, 1, stack) && !r.conflicts(&sim.s, 1, flip));
    sim.start(1, NertsAction::Build { from: Source::Waste, to: 2, decl: Decl::NONE }, SEC);
    assert_eq!(sim.s.layout(0).locks & LOCK_STOCK, LOCK_STOCK, "NERTS-PART-3: stock and waste are one resource");
    assert!(r.conflicts(&sim.s, 0, flip), "NERTS-PART-3: the waste is in use, so the stock is too");
    sim.settle();
    assert_eq!((sim.landed, sim.s.layout(0).locks), (2, 0), "NERTS-PART-3: both landed, locks released");
}

#[test]
fn nerts_part_4_separate_layouts_summed_call_on_ones_own_empty_pile() {
    let r = rules_with(|c| c.partnership_mode = PartnershipMode::SeparateLayoutsSummed);
    let s = NertsState::deal(&r.cfg, 6, &mut rng_from(8));
    assert_eq!((s.n_layouts, s.teams), (6, 3), "NERTS-PART-4: a deck and layout each, three teams");
    assert_eq!(team_scores(&s)[0], deck_score(&s, 0) + deck_score(&s, 1), "NERTS-PART-4: the team's score is the sum");
    let mut b = Build::new(&r.cfg, 6).nerts(0, "5c", true).nerts(1, "", false).nerts(2, "5c", true).nerts(3, "5c", true).nerts(4, "5c", true).nerts(5, "5c", true).done();
    assert!(legal(&r, &b, 1).contains(&NertsAction::CallNerts) && !legal(&r, &b, 0).contains(&NertsAction::CallNerts), "NERTS-PART-4: only on one's own empty pile");
    play(&r, &mut b, 1, NertsAction::CallNerts, SEC);
    assert_eq!(r.deal_end(&b), Some(DealEnd::Called(1)), "NERTS-PART-4: a call by either partner ends the deal");
}
