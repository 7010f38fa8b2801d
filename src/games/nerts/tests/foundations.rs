//! Foundations and the real-time model (NERTS-FOUND-*, NERTS-RT-*).

use super::*;
use crate::games::nerts::config::{Partnerships, TiePolicy};
use crate::games::nerts::rules::{deck_score, ActionKind, DealEnd, Decl};
use crate::rng::rng_from;

/// Rules with everyone playing alone.
fn solo() -> NertsRules {
    rules_with(|c| c.partnerships = Partnerships::None)
}

#[test]
fn nerts_found_1_one_set_of_foundations_shared_by_all() {
    let r = solo();
    let mut s = Build::new(&r.cfg, 3).nerts(0, "Ad", true).nerts(1, "2d", true).nerts(2, "3d", true).done();
    for (p, c) in [(0, "Ad"), (1, "2d"), (2, "3d")] {
        play(&r, &mut s, p, to_found(Source::Nerts, c), SEC);
    }
    assert_eq!(s.found.active().count(), 1, "NERTS-FOUND-1: the three players built one shared foundation");
    assert_eq!(s.found.count[s.found.active().next().unwrap()], 3);
}

#[test]
fn nerts_found_2_any_ace_starts_a_foundation_and_suits_may_repeat() {
    let r = rules_with(|c| {
        c.partnerships = Partnerships::None;
        c.jokers_per_deck = 1;
    });
    let mut s = Build::new(&r.cfg, 3).nerts(0, "As", true).nerts(1, "As", true).nerts(2, "Jk0", true).done();
    play(&r, &mut s, 0, to_found(Source::Nerts, "As"), SEC);
    play(&r, &mut s, 1, to_found(Source::Nerts, "As"), 5 * SEC);
    assert!(legal(&r, &s, 2).contains(&to_found(Source::Nerts, "As")), "NERTS-FOUND-2: a Joker declared as an Ace starts one more");
    play(&r, &mut s, 2, to_found(Source::Nerts, "As"), 9 * SEC);
    assert_eq!(count_tops(&s.found, card("As")), 3, "NERTS-FOUND-2: three spade foundations at once (one per deck, one more by a Joker)");
}

#[test]
fn nerts_found_3_same_suit_one_rank_higher() {
    let r = solo();
    let s = Build::new(&r.cfg, 2).found(1, 'c', 4).work(0, 0, "5c").work(0, 1, "5s").work(0, 2, "6c").work(0, 3, "4c").done();
    let l = legal(&r, &s, 0);
    assert!(l.contains(&to_found(top(&s, 0, 0), "5c")), "NERTS-FOUND-3: 5c on 4c");
    for (pile, c) in [(1, "5s"), (2, "6c"), (3, "4c")] {
        assert!(!l.contains(&to_found(top(&s, 0, pile), c)), "NERTS-FOUND-3: {c} does not go on 4c");
    }
}

#[test]
fn nerts_found_4_nerts_top_work_tops_and_waste_top_only() {
    let r = solo();
    let s = Build::new(&r.cfg, 2).found(1, 'd', 2).nerts(0, "As Ac", true).work(0, 0, "Ad").work(0, 1, "3d 2c").waste(0, "Ah 9s").stock(0, "2d").done();
    let l = legal(&r, &s, 0);
    let found: Vec<Source> = l
        .iter()
        .filter_map(|a| match a {
            NertsAction::ToFoundation { from, .. } => Some(*from),
            _ => None,
        })
        .collect();
    assert_eq!(
        found,
        [Source::Nerts, top(&s, 0, 0)],
        "NERTS-FOUND-4: Ac from the Nerts top, Ad from a work top; not the As under the Nerts top, the 3d under the 2c, the Ah under the waste top or the 2d in the stock"
    );
}

#[test]
fn nerts_found_5_anyone_builds_on_anyones_foundation() {
    let r = solo();
    let mut s = Build::new(&r.cfg, 2).found(0, 'h', 5).nerts(1, "6h", true).done();
    assert_eq!(s.on_found[1] >> card("6h").0 & 1, 0);
    play(&r, &mut s, 1, to_found(Source::Nerts, "6h"), SEC);
    assert_eq!(s.on_found[1] >> card("6h").0 & 1, 1, "NERTS-FOUND-5: seat 1 built on seat 0's foundation and owns the 6h there");
    assert_eq!(count_tops(&s.found, card("6h")), 1);
}

#[test]
fn nerts_found_6_a_king_sets_the_foundation_aside_and_it_still_scores() {
    let r = solo();
    let mut s = Build::new(&r.cfg, 2).found(0, 'd', 12).nerts(1, "Kd", true).done();
    let (a, b) = (deck_score(&s, 0), deck_score(&s, 1));
    play(&r, &mut s, 1, to_found(Source::Nerts, "Kd"), SEC);
    assert!(s.found.active().all(|i| s.found.suit(i) != 1), "NERTS-FOUND-6: the completed diamonds are out of the common area");
    assert_eq!((deck_score(&s, 0), deck_score(&s, 1)), (a, b + 3), "NERTS-FOUND-6: set-aside cards still count");
    assert_eq!(s.found.needs() >> card("Kd").0 & 1, 0);
}

#[test]
fn nerts_found_7_no_action_takes_a_card_from_a_foundation() {
    let r = solo();
    let mut rng = rng_from(17);
    let s = NertsState::deal(&r.cfg, 3, &mut rng);
    let mut sim = Sim::new(r, s);
    sim.run_random(&mut rng, 3000);
    // Every change went through the checker, which fails on NERTS-INV-9.
    assert!(sim.chk.checks > 100 && sim.s.found.cards() > 0);
    assert!((0..3).all(|d| sim.s.on_found[d] & s.on_found[d] == s.on_found[d]), "NERTS-FOUND-7: foundation cards never move");
}

#[test]
fn nerts_found_8_no_play_is_compulsory() {
    let r = solo();
    let mut s = Build::new(&r.cfg, 2).nerts(0, "Ah", true).waste(0, "As").stock(0, "5c 6c 7c").done();
    let l = legal(&r, &s, 0);
    let cards = s.found.cards();
    assert!(l.contains(&to_found(Source::Nerts, "Ah")) && l.contains(&NertsAction::FlipStock));
    play(&r, &mut s, 0, NertsAction::FlipStock, SEC);
    assert_eq!(s.layout(0).nerts_top(), Some(v("Ah")), "NERTS-FOUND-8: the playable Ace may be held back");
    assert_eq!(s.found.cards(), cards, "NERTS-FOUND-8: nothing was played for the player");
}

#[test]
fn nerts_rt_1_equal_landing_times_first_processed_then_the_tie_rule() {
    let both = solo();
    let strict = rules_with(|c| {
        c.partnerships = Partnerships::None;
        c.tie_policy = TiePolicy::FirstOnly;
    });
    for (r, second) in [(both, Landing::Placed), (strict, Landing::Rejected)] {
        let s = Build::new(&r.cfg, 2).found(0, 'h', 2).nerts(0, "3h", true).nerts(1, "3h", true).done();
        let mut sim = Sim::new(r, s);
        sim.start(0, to_found(Source::Nerts, "3h"), SEC);
        sim.start(1, to_found(Source::Nerts, "3h"), SEC);
        assert_eq!(sim.next(None), Some((0, Some(Landing::Placed))), "NERTS-RT-1: one of the tied events is processed first");
        assert_eq!(sim.next(None), Some((1, Some(second))), "NERTS-RT-1: a foundation tie at the same instant falls under NERTS-RT-6 ({:?})", r.cfg.tie_policy);
    }
}

#[test]
fn nerts_rt_2_one_hand_one_card_but_stacks_packets_slips_and_recycles() {
    let r = solo();
    let s = Build::new(&r.cfg, 2).nerts(0, "Kd", true).work(0, 0, "Qs Jh 10c").work(0, 1, "Jd").waste(0, "4h").stock(0, "9c 8c 7c 6c").done();
    let moved = |a| r.cards_moved(&s, 0, a);
    assert_eq!(moved(NertsAction::Build { from: Source::Work { pile: 0, depth: 2 }, to: 1, decl: Decl::NONE }), 1, "NERTS-RT-2: one card");
    assert_eq!(moved(NertsAction::Fill { from: Source::Work { pile: 0, depth: 1 }, to: 2 }), 2, "NERTS-RT-2: a stack move carries the stack");
    assert_eq!(moved(NertsAction::FlipStock), 3, "NERTS-RT-2: a FLIP3 packet");
    assert_eq!(moved(NertsAction::SlipUnder { from: Source::Nerts, pile: 0, decl: Decl::NONE }), 4, "NERTS-RT-2: a slip-under moves the pile over the card");
    assert_eq!(moved(NertsAction::Recycle), 5, "NERTS-RT-2: a recycle turns the whole waste");
    let mut sim = Sim::new(r, s);
    sim.start(0, NertsAction::Fill { from: Source::Work { pile: 0, depth: 1 }, to: 2 }, SEC);
    assert_eq!(sim.s.layout(0).in_flight(), 2, "NERTS-RT-2: the stack is in the hand");
    assert!(std::panic::catch_unwind(move || sim.start(0, NertsAction::FlipStock, SEC)).is_err(), "NERTS-RT-2: one action at a time");
}

#[test]
fn nerts_rt_3_every_action_has_its_type() {
    let kinds = [
        (to_found(Source::Nerts, "Ah"), ActionKind::ToFoundation),
        (NertsAction::Build { from: Source::Waste, to: 0, decl: Decl::NONE }, ActionKind::ToWork),
        (NertsAction::Build { from: Source::Work { pile: 1, depth: 0 }, to: 0, decl: Decl::NONE }, ActionKind::StackMove),
        (NertsAction::Fill { from: Source::Nerts, to: 0 }, ActionKind::FillEmpty),
        (NertsAction::SlipUnder { from: Source::Waste, pile: 0, decl: Decl::NONE }, ActionKind::SlipUnder),
        (NertsAction::FlipStock, ActionKind::Flip3),
        (NertsAction::Recycle, ActionKind::Recycle),
        (NertsAction::FlipNerts, ActionKind::FlipN),
        (NertsAction::Rotate, ActionKind::Rotate),
        (NertsAction::CallNerts, ActionKind::Call),
    ];
    for (a, k) in kinds {
        assert_eq!(a.kind(), k, "NERTS-RT-3: the type of {a:?}");
    }
}

#[test]
fn nerts_rt_4_moves_within_a_layout_always_land() {
    let r = solo();
    let s = Build::new(&r.cfg, 2).found(0, 'h', 2).nerts(0, "9h", true).nerts(1, "3h", true).work(0, 0, "10s").waste(0, "4c").stock(0, "Kc Qc Jc").done();
    let mut sim = Sim::new(r, s);
    sim.start(0, NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl::NONE }, 3 * SEC);
    sim.start(1, to_found(Source::Nerts, "3h"), SEC);
    sim.settle();
    assert_eq!((sim.landed, sim.rejected), (2, 0), "NERTS-RT-4: the own-layout move landed whatever the others did");
}

#[test]
fn nerts_rt_5_first_touch_wins_the_other_card_returns_and_the_hand_waits() {
    let r = rules_with(|c| {
        c.partnerships = Partnerships::None;
        c.tie_policy = TiePolicy::FirstOnly;
    });
    let s = Build::new(&r.cfg, 2).found(0, 'h', 2).work(0, 0, "3h").waste(1, "3h").done();
    let mut sim = Sim::new(r, s);
    sim.start(1, to_found(Source::Waste, "3h"), SEC);
    sim.start(0, to_found(top(&s, 0, 0), "3h"), SEC + 1);
    assert_eq!(sim.next(None), Some((1, Some(Landing::Placed))));
    assert_eq!(sim.next(None), Some((0, Some(Landing::Rejected))), "NERTS-RT-5: the later card is rejected");
    assert!(matches!(sim.hands[0], Hand::Returning { at, .. } if at > SEC), "NERTS-RT-5: the hand is busy until the card is back");
    assert!(!r.still_legal(&sim.s, 0, to_found(top(&s, 0, 0), "3h"), SEC + 1));
    sim.settle();
    assert_eq!(pile(&sim.s, 0, 0), vs("3h"), "NERTS-RT-5: the card went back where it came from");
    assert_eq!(sim.s.layout(0).locks, 0);
}

#[test]
fn nerts_rt_6_obvious_ties_keep_both_cards_within_the_window() {
    let r = rules_with(|c| c.partnerships = Partnerships::None);
    let eps = r.cfg.tie_window;
    let base = || Build::new(&r.cfg, 4).found(0, 'h', 2).nerts(1, "3h", true).nerts(2, "3h", true).nerts(3, "3h", true);
    // Two decks tie, a third within the window of the first card (not of the second) too.
    let mut sim = Sim::new(r, base().done());
    sim.start(1, to_found(Source::Nerts, "3h"), SEC);
    sim.start(2, to_found(Source::Nerts, "3h"), SEC + eps / 2);
    sim.start(3, to_found(Source::Nerts, "3h"), SEC + eps);
    sim.settle();
    assert_eq!((sim.landed, sim.rejected, sim.ties), (3, 0, 2), "NERTS-RT-6: more than one card may tie, within the window of the first");
    assert_eq!(sim.s.found.needs() >> card("4h").0 & 1, 1, "NERTS-RT-6: the next card needed is one rank above the tied rank");
    assert!((1..4).all(|d| sim.s.on_found[d] >> card("3h").0 & 1 == 1), "NERTS-RT-6: every tied card scores for its owner");
    // Just outside the window: rejected; strict first touch or a zero window: rejected.
    for (rules, late) in [
        (r, eps + 1),
        (
            rules_with(|c| {
                c.partnerships = Partnerships::None;
                c.tie_policy = TiePolicy::FirstOnly;
            }),
            1,
        ),
        (
            rules_with(|c| {
                c.partnerships = Partnerships::None;
                c.tie_window = 0;
            }),
            0,
        ),
    ] {
        let mut sim = Sim::new(rules, base().done());
        sim.start(1, to_found(Source::Nerts, "3h"), SEC);
        sim.start(2, to_found(Source::Nerts, "3h"), SEC + late);
        sim.settle();
        assert_eq!((sim.landed, sim.rejected), (1, 1), "NERTS-RT-6: {late} µs later under {:?} / {} µs", rules.cfg.tie_policy, rules.cfg.tie_window);
    }
    // An Ace never ties: each starts its own foundation.
    let mut sim = Sim::new(r, Build::new(&r.cfg, 2).nerts(0, "Ac", true).nerts(1, "Ac", true).done());
    sim.start(0, to_found(Source::Nerts, "Ac"), SEC);
    sim.start(1, to_found(Source::Nerts, "Ac"), SEC);
    sim.settle();
    assert_eq!((count_tops(&sim.s.found, card("Ac")), sim.ties), (2, 0), "NERTS-RT-6: two Aces, two foundations");
    // A tied King joins the foundation it just completed.
    let mut sim = Sim::new(r, Build::new(&r.cfg, 3).found(0, 's', 12).nerts(1, "Ks", true).nerts(2, "Ks", true).done());
    sim.start(1, to_found(Source::Nerts, "Ks"), SEC);
    sim.start(2, to_found(Source::Nerts, "Ks"), SEC + eps);
    sim.settle();
    assert_eq!((sim.landed, sim.ties), (2, 1), "NERTS-RT-6: a tied King is accepted onto the completed foundation");
}

#[test]
fn nerts_rt_6_a_race_lost_to_tied_cards_is_won_by_each_of_them() {
    // docs/nerts.md, `races_lost`: a race lost credits a race won to every card lying
    // where it aimed, each of tied cards (NERTS-RT-6), so races won can exceed races
    // lost. Two 3h tie within the window, a third comes later and loses (NERTS-RT-5).
    use crate::games::nerts::game::{Counting, Tally};
    use crate::realtime::{EngineEvent, EngineObserver};
    let r = solo();
    let eps = r.cfg.tie_window;
    let mut sim = Sim::new(r, Build::new(&r.cfg, 4).found(0, 'h', 2).nerts(1, "3h", true).nerts(2, "3h", true).nerts(3, "3h", true).done());
    let three = to_found(Source::Nerts, "3h");
    sim.start(1, three, SEC);
    sim.start(2, three, SEC + eps / 2);
    sim.start(3, three, SEC + eps + 1);
    let (mut tally, mut unit) = (Tally::default(), ());
    let mut counting = Counting::new(&mut unit, &mut tally);
    while let Some((player, landing)) = sim.next(None) {
        let event = match landing {
            Some(Landing::Rejected) => EngineEvent::Rejected { player, action: three },
            Some(_) => EngineEvent::Landed { player, action: three },
            None => EngineEvent::Returned { player, action: three },
        };
        counting.on_event(sim.now, event, &sim.s);
    }
    assert_eq!((sim.landed, sim.rejected), (2, 1), "two tie, the third is outside the window");
    assert_eq!(tally.races_lost[..4], [0, 0, 0, 1], "NERTS-RT-5: seat 3's card went back");
    assert_eq!(tally.races_won[..4], [0, 1, 1, 0], "NERTS-RT-6: each tied card won the race seat 3 lost");
    assert_eq!((tally.races_won.iter().sum::<u32>(), tally.races_lost.iter().sum::<u32>(), tally.ties), (2, 1, 1), "races won exceed races lost by the tied card");
    assert_eq!(tally.to_foundation[..4], [0, 1, 1, 0]);
}

#[test]
fn nerts_rt_6_a_deck_does_not_tie_with_itself() {
    let r = rules_with(|c| {
        c.partnerships = Partnerships::None;
        c.jokers_per_deck = 1;
    });
    let mut s = Build::new(&r.cfg, 2).found(1, 'h', 2).nerts(0, "3h", true).waste(0, "Jk0").done();
    assert!(legal(&r, &s, 0).contains(&to_found(Source::Waste, "3h")), "the Joker could be the 3h");
    play(&r, &mut s, 0, to_found(Source::Nerts, "3h"), SEC);
    assert!(!r.still_legal(&s, 0, to_found(Source::Waste, "3h"), SEC + 1), "NERTS-RT-6: a Joker as 3h of the same deck is not an obvious tie");
}

#[test]
fn nerts_rt_7_a_foundation_commit_changes_what_everyone_can_do() {
    let r = solo();
    let mut s = Build::new(&r.cfg, 2).nerts(0, "Ad", true).nerts(1, "2d", true).done();
    assert!(to_found(Source::Nerts, "Ad").to_common_area(), "NERTS-RT-7: a foundation play commits to the common area");
    assert!(!NertsAction::FlipStock.to_common_area());
    assert!(!legal(&r, &s, 1).contains(&to_found(Source::Nerts, "2d")));
    play(&r, &mut s, 0, to_found(Source::Nerts, "Ad"), SEC);
    assert!(legal(&r, &s, 1).contains(&to_found(Source::Nerts, "2d")), "NERTS-RT-7: the woken player sees the new foundation");
}

#[test]
fn nerts_rt_8_after_the_call_nobody_starts_and_cards_in_mid_air_count() {
    let r = solo();
    let s = Build::new(&r.cfg, 3).found(2, 'c', 6).nerts(0, "", true).nerts(1, "9h 5d", true).waste(1, "7c").nerts(2, "9h", true).done();
    assert!(legal(&r, &s, 0).contains(&NertsAction::CallNerts) && !legal(&r, &s, 1).contains(&NertsAction::CallNerts), "NERTS-RT-8: only an empty Nerts pile calls");
    let mut sim = Sim::new(r, s);
    sim.start(1, to_found(Source::Waste, "7c"), 100 * SEC + 100_000);
    sim.start(0, NertsAction::CallNerts, 100 * SEC);
    assert_eq!(sim.next(None), Some((0, Some(Landing::Placed))));
    assert_eq!(sim.s.caller(), Some(0));
    assert!(legal(&r, &sim.s, 2).is_empty() && !r.has_progress(&sim.s, 2), "NERTS-RT-8: no new action after the call");
    assert_eq!(sim.next(None), Some((1, Some(Landing::Placed))), "NERTS-RT-8: the card in mid-air finishes");
    assert_eq!(sim.s.on_found[1] >> card("7c").0 & 1, 1, "NERTS-RT-8: and counts");
    assert_eq!((r.stall(&sim.s), r.deal_end(&sim.s)), (Stall::RoundOver, Some(DealEnd::Called(0))), "NERTS-RT-8: then scoring begins");
    assert!(r.is_progress(NertsAction::CallNerts), "a call in flight is never called off by a stall");
}

#[test]
fn nerts_rt_9_a_player_who_is_not_stuck_always_has_something_to_do() {
    let mut rng = rng_from(9);
    for g in 0..40 {
        let r = rules_with(|c| {
            c.partnerships = Partnerships::None;
            c.jokers_per_deck = (g % 3) as u8;
        });
        let s = NertsState::deal(&r.cfg, 2, &mut rng);
        let mut sim = Sim::new(r, s);
        // Stop mid-deal and look: unstuck implies a legal action; stuck seats may only
        // wait, rotate or make moves that do not help.
        sim.run_random(&mut rng, 50 + g * 20);
        sim.settle();
        for p in 0..2 {
            let l = legal(&r, &sim.s, p);
            if r.has_progress(&sim.s, p) {
                assert!(!l.is_empty(), "NERTS-RT-9: seat {p} is not stuck and can act");
            } else {
                assert!(l.iter().all(|a| !a.is_progress_move()), "NERTS-RT-9: a stuck seat has no progress move: {l:?}");
            }
        }
    }
}
