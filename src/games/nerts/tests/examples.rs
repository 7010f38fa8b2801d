//! The worked examples of nerts.md section 14 (NERTS-EX-1..10).

use super::*;
use crate::games::nerts::config::{Partnerships, ShortPacket};
use crate::games::nerts::rules::{deck_score, DealEnd, Decl};

fn solo() -> NertsRules {
    rules_with(|c| c.partnerships = Partnerships::None)
}

#[test]
fn nerts_ex_1_what_goes_on_a_black_ten() {
    let r = solo();
    for (c, ok) in [("9h", true), ("9d", true), ("9c", false), ("8h", false), ("Jh", false)] {
        let s = Build::new(&r.cfg, 2).work(0, 0, "10s").work(0, 1, "Kc").work(0, 2, "Ks").work(0, 3, "Kd").nerts(0, c, true).done();
        let build = NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl::NONE };
        assert_eq!(legal(&r, &s, 0).contains(&build), ok, "NERTS-EX-1: {c} on the 10s");
    }
}

#[test]
fn nerts_ex_2_whole_partial_and_single_card_moves_are_one_action_each() {
    let r = solo();
    let s = Build::new(&r.cfg, 2).work(0, 0, "10s 9h 8c").work(0, 1, "Jd").work(0, 2, "10c").work(0, 3, "9d").done();
    for (depth, to, moved, rest) in [(0u8, 1u8, 3, vec![]), (1, 2, 2, vs("10s")), (2, 3, 1, vs("10s 9h"))] {
        let a = NertsAction::Build { from: Source::Work { pile: 0, depth }, to, decl: Decl::NONE };
        assert_eq!(r.cards_moved(&s, 0, a), moved);
        let mut t = s;
        play(&r, &mut t, 0, a, SEC);
        assert_eq!(pile(&t, 0, 0), rest, "NERTS-EX-2: one action moves {moved} cards onto pile {to}");
    }
}

#[test]
fn nerts_ex_3_slip_a_red_king_under_a_black_queen() {
    let r = solo();
    let b = || Build::new(&r.cfg, 2).work(0, 0, "Qs Jh").work(0, 1, "2c").work(0, 2, "3c").waste(0, "Kh");
    let mut s = b().done();
    play(&r, &mut s, 0, NertsAction::SlipUnder { from: Source::Waste, pile: 0, decl: Decl::NONE }, SEC);
    assert_eq!(pile(&s, 0, 0), vs("Kh Qs Jh"), "NERTS-EX-3: W1 becomes Kh Qs Jh");
    assert!(s.layout(0).work[3].is_empty(), "NERTS-EX-3: W4 stays empty");
    let full = b().work(0, 3, "4c").done();
    assert!(!legal(&r, &full, 0).iter().any(|a| matches!(a, NertsAction::SlipUnder { .. })), "NERTS-EX-3: not without an empty slot");
}

#[test]
fn nerts_ex_4_a_race_for_the_three_of_hearts() {
    let r = solo();
    for (p3_at, p3) in [(10_200_000, Landing::Rejected), (10_030_000, Landing::Placed)] {
        let s = Build::new(&r.cfg, 3).found(1, 'h', 2).work(0, 0, "3h").nerts(2, "3h", true).done();
        let mut sim = Sim::new(r, s);
        sim.start(0, to_found(top(&s, 0, 0), "3h"), 10 * SEC);
        sim.start(2, to_found(Source::Nerts, "3h"), p3_at);
        assert_eq!(sim.next(None), Some((0, Some(Landing::Placed))), "NERTS-EX-4: P1's card is placed");
        assert_eq!(sim.next(None), Some((2, Some(p3))), "NERTS-EX-4: P3's card at {p3_at} µs");
        sim.settle();
        if p3 == Landing::Rejected {
            assert_eq!(sim.s.layout(2).nerts_top(), Some(v("3h")), "NERTS-EX-4: P3's card went back to his layout");
        } else {
            assert_eq!(sim.s.found.needs() >> card("4h").0 & 1, 1, "NERTS-EX-4: both stay, the 4h is next");
            assert!([0, 2].iter().all(|&d| sim.s.on_found[d] >> card("3h").0 & 1 == 1), "NERTS-EX-4: both 3h score for their owners");
        }
    }
}

#[test]
fn nerts_ex_5_one_flip_three_cards_only_the_third_plays() {
    let r = solo();
    let mut s = Build::new(&r.cfg, 2).stock(0, "5c 6d 7c 8h 9s").work(0, 0, "8d").work(0, 1, "7s").done();
    play(&r, &mut s, 0, NertsAction::FlipStock, SEC);
    assert_eq!(s.layout(0).waste(), &vs("5c 6d 7c")[..], "NERTS-EX-5: c1 at the bottom, c3 on top");
    assert!(!legal(&r, &s, 0).contains(&NertsAction::Build { from: Source::Waste, to: 1, decl: Decl::NONE }), "NERTS-EX-5: only c3 plays");
    play(&r, &mut s, 0, NertsAction::Build { from: Source::Waste, to: 0, decl: Decl::NONE }, SEC);
    assert_eq!(s.layout(0).waste_top(), Some(v("6d")), "NERTS-EX-5: playing c3 makes c2 the top");
}

#[test]
fn nerts_ex_6_two_stock_cards_left_merge_or_flip() {
    for packet in [ShortPacket::Merge, ShortPacket::Flip] {
        let r = rules_with(|c| {
            c.partnerships = Partnerships::None;
            c.short_packet = packet;
        });
        let mut s = Build::new(&r.cfg, 2).waste(0, "2c 3c 9h").stock(0, "5c 6c").work(0, 0, "10s").done();
        play(&r, &mut s, 0, NertsAction::Build { from: Source::Waste, to: 0, decl: Decl::NONE }, SEC);
        if packet == ShortPacket::Flip {
            play(&r, &mut s, 0, NertsAction::FlipStock, SEC);
            assert_eq!(s.layout(0).waste_top(), Some(v("6c")), "NERTS-EX-6: under flip the two turn over, the last playable");
        }
        assert!(legal(&r, &s, 0).contains(&NertsAction::Recycle), "NERTS-EX-6: {packet:?}: the next FLIP is a RECYCLE");
        play(&r, &mut s, 0, NertsAction::Recycle, SEC);
        assert_eq!((s.layout(0).stock(), s.layout(0).waste_len), (&vs("2c 3c 5c 6c")[..], 0), "NERTS-EX-6: {packet:?}: the original order without the 9h played");
    }
}

#[test]
fn nerts_ex_7_a_card_in_mid_air_at_the_call_counts() {
    let r = solo();
    let s = Build::new(&r.cfg, 3).found(2, 'c', 6).nerts(0, "", false).nerts(1, "9h 7c", true).nerts(2, "10d", true).work(2, 0, "Jc").done();
    let before = deck_score(&s, 1);
    let mut sim = Sim::new(r, s);
    sim.start(1, to_found(Source::Nerts, "7c"), 100 * SEC + 100_000); // started at 99.80
    sim.start(0, NertsAction::CallNerts, 100 * SEC);
    assert_eq!(sim.next(None), Some((0, Some(Landing::Placed))), "NERTS-EX-7: the call commits at 100.00");
    assert!(legal(&r, &sim.s, 2).is_empty(), "NERTS-EX-7: P3 cannot start an action at 100.05");
    assert_eq!(sim.next(None), Some((1, Some(Landing::Placed))), "NERTS-EX-7: the 7c commits at 100.10");
    assert_eq!((deck_score(&sim.s, 1) - before, r.deal_end(&sim.s)), (3, Some(DealEnd::Called(0))), "NERTS-EX-7: and counts");
}

#[test]
fn nerts_ex_8_scoring_a_deal() {
    let r = solo();
    let s = Build::new(&r.cfg, 3)
        .found(0, 'h', 13)
        .found(0, 's', 5)
        .nerts(0, "", false)
        .rest_to_stock(0)
        .found(1, 'd', 11)
        .nerts(1, "2c 3c 4c 5c", true)
        .rest_to_stock(1)
        .found(2, 'c', 5)
        .nerts(2, "2h 3h 4h 5h 6h 7h 8h 9h 10h", false)
        .work(2, 0, "Ks Qh Jc")
        .rest_to_stock(2)
        .done();
    assert_eq!([0, 1, 2].map(|d| deck_score(&s, d)), [18, 3, -13], "NERTS-EX-8: 18, 11 - 8, 5 - 18");
}

#[test]
fn nerts_ex_9_reset_progress_reset_then_the_end() {
    let r = solo();
    let stuck_layout = |b: Build, d: usize| b.nerts(d, "Kd", true).work(d, 0, "9d").work(d, 1, "9h").work(d, 2, "5c").work(d, 3, "5s");
    let b = Build::new(&r.cfg, 3).nerts(1, "Kc", true).work(1, 0, "9c").work(1, 1, "9s").work(1, 2, "5d").work(1, 3, "5h").stock(1, "Qc Qs Jc 8d Js 3c 3s");
    let mut s = stuck_layout(stuck_layout(b, 0), 2).done();
    assert!((0..3).all(|p| !r.has_progress(&s, p)));
    assert_eq!(r.stall(&s), Stall::Synchronised, "NERTS-EX-9: all three stuck: a reset");
    r.synchronise(&mut s);
    assert_eq!(s.layout(1).stock(), &vs("Qs Jc 8d Js 3c 3s Qc")[..], "NERTS-EX-9: recombined, one card rotated");
    assert!(r.has_progress(&s, 1), "NERTS-EX-9: the new grouping brings the 8d up");
    play(&r, &mut s, 1, NertsAction::FlipStock, SEC);
    play(&r, &mut s, 1, NertsAction::Build { from: Source::Waste, to: 0, decl: Decl::NONE }, SEC);
    assert!(s.progress_since_reset && (0..3).all(|p| !r.has_progress(&s, p)));
    assert_eq!(r.stall(&s), Stall::Synchronised, "NERTS-EX-9: stuck again after progress: another reset");
    r.synchronise(&mut s);
    assert!((0..3).all(|p| !r.has_progress(&s, p)));
    assert_eq!((r.stall(&s), r.deal_end(&s)), (Stall::RoundOver, Some(DealEnd::StuckAfterReset)), "NERTS-EX-9: stuck again with no progress: the deal ends");
}

#[test]
fn nerts_ex_10_a_joker_fixed_as_the_seven_of_diamonds() {
    let r = rules_with(|c| {
        c.partnerships = Partnerships::None;
        c.jokers_per_deck = 1;
    });
    let mut s = Build::new(&r.cfg, 2).found(1, 'd', 6).found(1, 'h', 6).work(0, 0, "8s Jk0").work(0, 1, "7c").nerts(0, "6c", true).done();
    let spade = NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl { joker: NONE, cover: 3 } };
    assert!(!legal(&r, &s, 0).contains(&spade), "NERTS-EX-10: declaring spades is illegal (wrong colour)");
    play(&r, &mut s, 0, NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl { joker: NONE, cover: 1 } }, SEC);
    assert_eq!(s.layout(0).eff(0, 1), super::super::state::Eff::Card(card("7d")), "NERTS-EX-10: the Joker is now exactly the 7d");
    play(&r, &mut s, 0, NertsAction::Fill { from: Source::Work { pile: 0, depth: 2 }, to: 2 }, SEC);
    let up: Vec<_> = legal(&r, &s, 0).into_iter().filter(|a| matches!(a, NertsAction::ToFoundation { from: Source::Work { pile: 0, .. }, .. })).collect();
    assert_eq!(up, [to_found(top(&s, 0, 0), "7d")], "NERTS-EX-10: to the 6d foundation as 7d, never to the 6h one");
}
