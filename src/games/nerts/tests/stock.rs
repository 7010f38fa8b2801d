//! Stock and waste, stuck detection, resets and the end of a deal (NERTS-STOCK-*,
//! NERTS-STUCK-*, NERTS-END-*).

use super::*;
use crate::games::nerts::config::{Partnerships, RotateWhen, ShortPacket};
use crate::games::nerts::rules::{DealEnd, Decl};
use crate::games::nerts::state::Layout;

fn solo() -> NertsRules {
    rules_with(|c| c.partnerships = Partnerships::None)
}

/// The stock and waste of seat `p`: (waste bottom first, stock top first).
fn sw(s: &NertsState, p: usize) -> (Vec<u8>, Vec<u8>) {
    let l: &Layout = s.layout(p);
    (l.waste().to_vec(), l.stock().to_vec())
}

/// A stuck layout for seat 0 (nothing fits anywhere, no foundation but the cards set
/// aside), with seat 1 stuck too; `stock` and `waste` as given.
fn stuck_position(r: &NertsRules, waste: &str, stock: &str) -> Build {
    Build::new(&r.cfg, 2)
        .nerts(0, "Kc", true)
        .work(0, 0, "9c")
        .work(0, 1, "9s")
        .work(0, 2, "5d")
        .work(0, 3, "5h")
        .waste(0, waste)
        .stock(0, stock)
        .nerts(1, "Kd", true)
        .work(1, 0, "9d")
        .work(1, 1, "9h")
        .work(1, 2, "Qs")
        .work(1, 3, "Qc")
}

#[test]
fn nerts_stock_1_three_cards_turn_as_a_packet_and_only_the_last_plays() {
    let r = solo();
    let mut s = Build::new(&r.cfg, 2).stock(0, "5c 6d 7c 8d 9c").work(0, 0, "8h").work(0, 1, "7s").work(0, 2, "Kc").work(0, 3, "Kd").done();
    play(&r, &mut s, 0, NertsAction::FlipStock, SEC);
    assert_eq!(sw(&s, 0), (vs("5c 6d 7c"), vs("8d 9c")), "NERTS-STOCK-1: c1 c2 c3 onto the waste in order, c3 on top");
    let l = legal(&r, &s, 0);
    assert!(l.contains(&NertsAction::Build { from: Source::Waste, to: 0, decl: Decl::NONE }), "NERTS-STOCK-1: 7c, the waste top, plays");
    assert!(!l.iter().any(|a| matches!(a, NertsAction::Build { from: Source::Waste, to: 1, .. })), "NERTS-STOCK-1: the 6d under it does not");
    let one = rules_with(|c| c.flip_count = 1);
    let mut s = Build::new(&one.cfg, 2).stock(0, "5c 6d 7c 8d 9c").done();
    play(&one, &mut s, 0, NertsAction::FlipStock, SEC);
    assert_eq!(sw(&s, 0), (vs("5c"), vs("6d 7c 8d 9c")), "NERTS-STOCK-1: flip_count=1 turns one card");
}

#[test]
fn nerts_stock_2_the_waste_top_plays_anywhere() {
    let r = solo();
    let s = Build::new(&r.cfg, 2).found(1, 's', 7).waste(0, "2c 8s").work(0, 0, "9h").work(0, 1, "7d").done();
    let l = legal(&r, &s, 0);
    for a in [
        to_found(Source::Waste, "8s"),
        NertsAction::Build { from: Source::Waste, to: 0, decl: Decl::NONE },
        NertsAction::Fill { from: Source::Waste, to: 2 },
        NertsAction::SlipUnder { from: Source::Waste, pile: 1, decl: Decl::NONE },
    ] {
        assert!(l.contains(&a), "NERTS-STOCK-2: the waste top may go: {a:?}");
    }
}

#[test]
fn nerts_stock_3_short_packets_merge_or_flip_and_the_cycle_keeps_its_order() {
    let merge = solo();
    let flip = rules_with(|c| {
        c.partnerships = Partnerships::None;
        c.short_packet = ShortPacket::Flip;
    });
    let b = |r: &NertsRules| Build::new(&r.cfg, 2).waste(0, "2c 3c 4c 5c").stock(0, "6c 7c").done();
    // merge: the two cards are never shown; the whole pile becomes the stock in order.
    let mut s = b(&merge);
    assert!(
        legal(&merge, &s, 0).contains(&NertsAction::Recycle) && !legal(&merge, &s, 0).contains(&NertsAction::FlipStock),
        "NERTS-STOCK-3: under merge a short FLIP is a RECYCLE"
    );
    play(&merge, &mut s, 0, NertsAction::Recycle, SEC);
    assert_eq!(sw(&s, 0), (vec![], vs("2c 3c 4c 5c 6c 7c")), "NERTS-STOCK-3: the original cyclic order");
    // flip: the short packet is shown, then an empty stock recycles.
    let mut s = b(&flip);
    play(&flip, &mut s, 0, NertsAction::FlipStock, SEC);
    assert_eq!(s.layout(0).waste_top(), Some(v("7c")), "NERTS-STOCK-3: under flip the last of the short packet plays");
    play(&flip, &mut s, 0, NertsAction::Recycle, SEC);
    assert_eq!(sw(&s, 0), (vec![], vs("2c 3c 4c 5c 6c 7c")), "NERTS-STOCK-3: the same stock either way");
    // Played cards drop out of the cycle.
    let mut s = Build::new(&merge.cfg, 2).waste(0, "2c 3c 8h").stock(0, "6c").work(0, 0, "9s").done();
    play(&merge, &mut s, 0, NertsAction::Build { from: Source::Waste, to: 0, decl: Decl::NONE }, SEC);
    play(&merge, &mut s, 0, NertsAction::Recycle, SEC);
    assert_eq!(sw(&s, 0), (vec![], vs("2c 3c 6c")), "NERTS-STOCK-3: less any cards played");
    // Fewer than three cards in stock and waste together: the stock turns as one packet.
    let mut s = Build::new(&merge.cfg, 2).waste(0, "2c").stock(0, "6c").done();
    play(&merge, &mut s, 0, NertsAction::FlipStock, SEC);
    assert_eq!(sw(&s, 0), (vs("2c 6c"), vec![]), "NERTS-STOCK-3: under merge with two cards in all, a FLIP shows the last");
}

#[test]
fn nerts_stock_4_waste_cards_leave_only_for_work_piles_or_foundations_and_a_lost_race_restores_them() {
    let r = rules_with(|c| {
        c.partnerships = Partnerships::None;
        c.tie_window = 0;
    });
    let s = Build::new(&r.cfg, 2).found(0, 'd', 4).waste(0, "9c 5d").stock(0, "Kc").nerts(1, "5d", true).done();
    let l = legal(&r, &s, 0);
    assert!(
        l.iter()
            .filter(|a| a.source() == Some(Source::Waste))
            .all(|a| matches!(a, NertsAction::ToFoundation { .. } | NertsAction::Build { .. } | NertsAction::Fill { .. } | NertsAction::SlipUnder { .. })),
        "NERTS-STOCK-4: to work piles or foundations only"
    );
    let mut sim = Sim::new(r, s);
    sim.start(1, to_found(Source::Nerts, "5d"), SEC);
    sim.start(0, to_found(Source::Waste, "5d"), 2 * SEC);
    sim.settle();
    assert_eq!(sw(&sim.s, 0), sw(&s, 0), "NERTS-STOCK-4: the rejected card is back on the waste, count restored");
}

#[test]
fn nerts_stuck_1_stuck_means_no_useful_move_even_through_a_pass_or_one_work_move() {
    let r = solo();
    let s = stuck_position(&r, "", "Qc Qs Jc Js 3c 3s").done();
    assert!(r.stuck(&s, 0) && r.stuck(&s, 1), "NERTS-STUCK-1: nothing fits anywhere");
    // 1. The Nerts top: face-down, or playable.
    let mut t = s;
    t.layouts[0].nerts_up = false;
    assert!(!r.stuck(&t, 0), "NERTS-STUCK-1 (1): a face-down Nerts top can be flipped");
    let t = stuck_position(&r, "", "Qc Qs Jc Js 3c 3s").nerts(0, "8h", true).done();
    assert!(!r.stuck(&t, 0), "NERTS-STUCK-1 (1): 8h fits on 9c");
    // 2. A work top to a foundation, as the foundations stand: another's play un-sticks.
    let t = stuck_position(&r, "", "Qc Qs Jc Js 3c 3s").found(1, 'd', 4).done();
    assert!(!r.stuck(&t, 0) && r.stuck(&t, 1), "NERTS-STUCK-1 (2): the 5d now goes up, only for seat 0");
    // 3. A card that becomes the waste top during one pass of flips.
    let t = stuck_position(&r, "", "Qc Qs Jc Js 3c 8d").done();
    assert!(!r.stuck(&t, 0), "NERTS-STUCK-1 (3): the 8d is the sixth card, turned in the second packet");
    let t = stuck_position(&r, "", "Qc Qs Jc Js 8d 3c 3s").done();
    assert!(r.stuck(&t, 0), "NERTS-STUCK-1 (3): the 8d is never a packet's last card under merge");
    let one = rules_with(|c| {
        c.partnerships = Partnerships::None;
        c.flip_count = 1;
    });
    assert!(!one.stuck(&t, 0), "NERTS-STUCK-1 (3): one card at a time reaches it");
    // 4. One work move that opens 1-3.
    let t = stuck_position(&r, "", "Qc Qs Jc Js 3c 3s").work(0, 0, "10h 9c 8d").found(1, 'c', 8).done();
    assert!(!r.stuck(&t, 0), "NERTS-STUCK-1 (4): moving the 8d onto the 9s frees the 9c for the foundation");
    let t = stuck_position(&r, "", "Qc Qs Jc Js 3c 3s").work(0, 0, "10h 9c 8d").done();
    assert!(r.stuck(&t, 0), "NERTS-STUCK-1 (4): a move that opens nothing does not count");
}

#[test]
fn nerts_stuck_1_the_pass_stops_at_the_first_repeated_position() {
    let r = solo();
    let s = stuck_position(&r, "Qc Qs Jc Js", "3c 3s Qd").done();
    let tops = s.layout(0).pass_tops(&r.cfg);
    let want: u64 = vs("Js Qd Jc 3s").iter().map(|&x| 1u64 << x).sum();
    assert_eq!(tops, want, "NERTS-STUCK-1 (3): the current top, the next packet, then the cycle from the recycle; position 4 never comes round again");
}

#[test]
fn nerts_stuck_2_progress_is_a_card_leaving_nerts_or_waste_or_reaching_a_foundation() {
    let progress = [
        to_found(Source::Work { pile: 0, depth: 2 }, "Ah"),
        to_found(Source::Nerts, "Ah"),
        NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl::NONE },
        NertsAction::Build { from: Source::Waste, to: 0, decl: Decl::NONE },
        NertsAction::Fill { from: Source::Waste, to: 0 },
        NertsAction::SlipUnder { from: Source::Nerts, pile: 0, decl: Decl::NONE },
    ];
    let not = [
        NertsAction::Build { from: Source::Work { pile: 1, depth: 0 }, to: 0, decl: Decl::NONE },
        NertsAction::Fill { from: Source::Work { pile: 1, depth: 1 }, to: 0 },
        NertsAction::FlipStock,
        NertsAction::Recycle,
        NertsAction::Rotate,
        NertsAction::FlipNerts,
    ];
    assert!(progress.iter().all(|a| a.is_progress_move()), "NERTS-STUCK-2: progress moves");
    assert!(not.iter().all(|a| !a.is_progress_move()), "NERTS-STUCK-2: flips, recycles, rotations and work moves are not");
    let r = solo();
    assert!(not.iter().all(|&a| !r.is_progress(a)), "the engine's stall detection ignores them (design notes section 2)");
}

#[test]
fn nerts_stuck_3_a_stuck_player_may_rotate_his_stock() {
    let r = solo();
    let mut s = stuck_position(&r, "", "Qc Qs Jc Js 8d 3c 3s").done();
    assert!(legal(&r, &s, 0).contains(&NertsAction::Rotate), "NERTS-STUCK-3: stuck, so ROTATE is allowed");
    play(&r, &mut s, 0, NertsAction::Rotate, SEC);
    assert_eq!(sw(&s, 0).1, vs("Qs Jc Js 8d 3c 3s Qc"), "NERTS-STUCK-3: the top card goes to the bottom");
    assert!(r.stuck(&s, 0));
    play(&r, &mut s, 0, NertsAction::Rotate, SEC);
    assert!(!r.stuck(&s, 0), "NERTS-STUCK-3: the packets now group differently and the 8d comes up");
    let mut t = s;
    t.layouts[0].nerts_up = false;
    assert!(!legal(&r, &t, 0).contains(&NertsAction::Rotate), "NERTS-STUCK-3: rotate_when=stuck_only");
    let any = rules_with(|c| c.rotate_when = RotateWhen::AnyTime);
    assert!(legal(&any, &t, 0).contains(&NertsAction::Rotate), "NERTS-STUCK-3: rotate_when=any_time");
    let empty = stuck_position(&r, "Qc Qs Jc Js", "").done();
    assert!(
        !legal(&r, &empty, 0).contains(&NertsAction::Rotate) && legal(&r, &empty, 0).contains(&NertsAction::Recycle),
        "NERTS-STUCK-3: with an empty stock he must recycle first"
    );
}

#[test]
fn nerts_stuck_4_the_global_reset_recombines_and_rotates_one_card() {
    for (rotate, want) in [(true, "Qs Jc Js 3c 3s Qc"), (false, "Qc Qs Jc Js 3c 3s")] {
        let r = rules_with(|c| {
            c.partnerships = Partnerships::None;
            c.global_reset_rotate = rotate;
        });
        let mut s = stuck_position(&r, "Qc Qs Jc", "Js 3c 3s").done();
        assert!((0..2).all(|p| !r.has_progress(&s, p)) && r.stall(&s) == Stall::Synchronised, "NERTS-STUCK-4: everyone stuck, all idle: a reset");
        let took_part = r.synchronise(&mut s);
        assert_eq!(&took_part[..2], &[true, true], "NERTS-STUCK-4: every player takes part");
        assert_eq!(sw(&s, 0), (vec![], vs(want)), "NERTS-STUCK-4: waste turned over, then the stock, rotate={rotate}");
        assert_eq!(s.resets, 1);
    }
}

#[test]
fn nerts_stuck_5_stuck_again_without_progress_ends_the_deal() {
    let r = solo();
    let mut s = stuck_position(&r, "", "Qc Qs Jc Js 3c 3s").done();
    r.synchronise(&mut s);
    assert_eq!((r.stall(&s), r.deal_end(&s)), (Stall::RoundOver, Some(DealEnd::StuckAfterReset)), "NERTS-STUCK-5: stuck again with no progress: the deal ends");
    let mut t = stuck_position(&r, "", "Qc Qs Jc Js 3c 3s").nerts(0, "Kc 8h", true).done();
    r.synchronise(&mut t);
    play(&r, &mut t, 0, NertsAction::Build { from: Source::Nerts, to: 0, decl: Decl::NONE }, SEC);
    assert_eq!(r.stall(&t), Stall::Synchronised, "NERTS-STUCK-5: progress since the reset: another reset");
    let once = rules_with(|c| {
        c.partnerships = Partnerships::None;
        c.max_global_resets = Some(1);
    });
    assert_eq!(once.deal_end(&t), Some(DealEnd::ResetLimit), "NERTS-STUCK-5: max_global_resets=1 ends at the next stuck state");
}

#[test]
fn nerts_end_1_an_empty_nerts_pile_may_call_but_need_not() {
    let r = solo();
    let mut s = Build::new(&r.cfg, 2).nerts(0, "", true).nerts(1, "5c", true).waste(0, "Ah").done();
    let l = legal(&r, &s, 0);
    assert!(l.contains(&NertsAction::CallNerts) && l.contains(&to_found(Source::Waste, "Ah")), "NERTS-END-1: he may call, or play on");
    play(&r, &mut s, 0, to_found(Source::Waste, "Ah"), SEC);
    assert_eq!(r.deal_end(&s), None, "NERTS-END-1: not calling keeps the deal going");
    play(&r, &mut s, 0, NertsAction::CallNerts, 2 * SEC);
    assert_eq!(r.deal_end(&s), Some(DealEnd::Called(0)), "NERTS-END-1: the call ends the deal");
}

#[test]
fn nerts_end_2_the_deal_ends_when_everyone_stays_stuck_after_a_new_stock() {
    let r = solo();
    let s = stuck_position(&r, "Qc", "Qs Jc Js 3c 3s").done();
    let mut sim = Sim::new(r, s);
    assert_eq!(sim.run_random(&mut crate::rng::rng_from(3), 10_000), Ended::Deal);
    assert_eq!((sim.resets, r.deal_end(&sim.s)), (1, Some(DealEnd::StuckAfterReset)), "NERTS-END-2: one reset, then stuck again: the end");
}

#[test]
fn nerts_end_3_nothing_else_ends_a_deal() {
    let r = solo();
    // An empty Nerts pile nobody calls, every foundation that could be built: no end.
    let s = stuck_position(&r, "", "Qc Qs Jc Js 3c 3s").nerts(0, "", false).done();
    assert!(!r.has_progress(&s, 0) && !r.has_progress(&s, 1));
    assert_eq!((r.deal_end(&s), r.stall(&s)), (None, Stall::Synchronised), "NERTS-END-3: an uncalled empty Nerts pile does not end the deal; a reset comes first");
}
