//! The worked examples of lopti.md §18 played in the engine (their legal-action lists are
//! also checked through `cardsim legal lopti` in tests/lopti_legal.rs).

use super::{cards, drew, table, turn_started, Table};
use crate::games::lopti::events::{Event, PickupReason};
use crate::games::lopti::ranks::Ranks;
use crate::games::lopti::rules::ClearCause;
use crate::games::lopti::state::Phase;

fn clears(events: &[Event]) -> Vec<ClearCause> {
    events.iter().filter_map(|e| if let Event::Clear { cause, .. } = e { Some(*cause) } else { None }).collect()
}

fn bonus(events: &[Event]) -> usize {
    events.iter().filter(|e| matches!(e, Event::Bonus { .. })).count()
}

#[test]
fn ex_1_two_eights_on_two_eights_clear() {
    let mut t = table(2).pile("5|8 8").hand(0, "8 8 9").down(1, "4").start();
    assert!(!t.legal().contains(&"play 8 x1".to_string()), "LOPTI-EX-1: a single 8 is illegal");
    t.act("play 8 x2");
    assert_eq!(clears(&t.events()), [ClearCause::FourOfAKind], "LOPTI-EX-1: [8 8] makes four and clears");
}

#[test]
fn ex_2_four_across_plays_clear_and_the_draw_comes_first() {
    let mut t = table(3).hand(0, "4 K").hand(1, "4 4 K").hand(2, "4 9").down(0, "5").down(1, "5").down(2, "5").draw("Q Q Q").start();
    t.act("play 4 x1").act("play 4 x2");
    t.events();
    t.act("play 4 x1");
    let ev = t.events();
    assert_eq!(clears(&ev), [ClearCause::FourOfAKind], "LOPTI-EX-2: C completes four 4s");
    let draw_at = ev.iter().position(|e| matches!(e, Event::Draw { seat: 2, .. }));
    let bonus_at = ev.iter().position(|e| matches!(e, Event::Bonus { seat: 2 }));
    assert!(draw_at.is_some() && bonus_at.is_some(), "LOPTI-EX-2: C draws and gets a bonus play");
    assert!(t.st.current == 2 && t.st.turn.bonus, "LOPTI-EX-2: the bonus play is C's");
    assert_eq!(t.hand(2), cards("9 Q"), "LOPTI-EX-2: C drew before the bonus play");
}

#[test]
fn ex_3_to_ex_13_plays_on_sevens_twos_and_tens() {
    let mut t = table(2).pile("Q|7").hand(0, "7 7 7 K").down(1, "4").start();
    assert!(t.legal().contains(&"play 7 x2".into()) && !t.legal().contains(&"play 7 x1".into()), "LOPTI-EX-5");
    t.act("play 7 x3");
    assert_eq!(clears(&t.events()), [ClearCause::FourOfAKind], "LOPTI-EX-5 / LOPTI-EX-8: completing four 7s clears");
    let mut t = table(2).pile("Q|2|2 2").hand(0, "2 K").down(1, "4").start();
    t.act("play 2 x1");
    assert_eq!(clears(&t.events()), [ClearCause::FourOfAKind], "LOPTI-EX-11: the fourth 2 clears");
    let mut t = table(2).pile("A").hand(0, "10 K").down(1, "4").start();
    t.act("play 10 x1");
    let ev = t.events();
    assert_eq!(clears(&ev), [ClearCause::Ten], "LOPTI-EX-13: a 10 on an A clears");
    assert!(t.st.out.count(8) == 4 && t.st.pile.is_empty(), "LOPTI-EX-13: the 10 leaves with the pile");
    let t = table(2).pile("7").hand(0, "10 5").down(1, "4").start();
    assert_eq!(t.legal(), ["play 5 x1", "pickup"], "LOPTI-EX-13: no 10 on a 7");
    let mut t = table(2).hand(0, "10 5").down(1, "4").start();
    t.act("play 10 x1");
    assert_eq!((clears(&t.events()), t.st.turn.bonus), (vec![ClearCause::Ten], true), "LOPTI-EX-13: a 10 on an empty table clears itself + bonus");
    let t = table(2).pile("9 9 9|K").hand(0, "9 A").down(1, "4").start();
    assert_eq!(t.legal(), ["play A x1", "pickup"], "LOPTI-EX-3");
    let t = table(2).pile("4|6 6").hand(0, "6 6 5").down(1, "4").start();
    assert_eq!(t.legal(), ["play 6 x2", "pickup"], "LOPTI-EX-4");
    let t = table(2).pile("7|5").hand(0, "4 6").down(1, "4").start();
    assert_eq!(t.legal(), ["play 6 x1", "pickup"], "LOPTI-EX-6");
    let t = table(2).pile("7|5|7").hand(0, "8 6").down(1, "4").start();
    assert_eq!(t.legal(), ["play 6 x1", "pickup"], "LOPTI-EX-7");
    let t = table(2).pile("7|2").hand(0, "K").down(1, "4").start();
    assert_eq!(t.legal(), ["play K x1", "pickup"], "LOPTI-EX-9");
    let t = table(2).pile("Q|2").hand(0, "2 2 4 10").down(1, "4").start();
    assert_eq!(t.legal(), ["play 2 x2", "play 4 x1", "play 10 x1", "pickup"], "LOPTI-EX-10");
    let t = table(2).pile("K").run3(1).obliged(0).hand(0, "2 7 10 3").down(1, "4").start();
    assert_eq!(t.legal(), ["play 3 x1", "pickup"], "LOPTI-EX-12");
}

#[test]
fn ex_14_repeated_clears_without_draws() {
    let mut t = table(2).pile("A").hand(0, "10 10 6").down(0, "4").down(1, "4").start();
    t.act("play 10 x1").act("play 10 x1").act("play 6 x1");
    let ev = t.events();
    assert_eq!(clears(&ev), [ClearCause::Ten, ClearCause::Ten], "LOPTI-EX-14: two clears");
    assert_eq!(bonus(&ev), 2, "LOPTI-EX-14 / LOPTI-BONUS-2: a bonus play after each clear");
    assert!(!drew(&ev), "LOPTI-EX-14: the draw pile is empty");
    assert_eq!((t.st.current, t.st.counters.turns), (1, 2), "LOPTI-EX-14 / LOPTI-TURN-4: one turn, then B's");
}

#[test]
fn ex_15_obligation_chain_and_ruling_4() {
    let build = || table(3).pile("9|Q").hand(0, "3 5").hand(1, "3 3 5").hand(2, "3 5").down(0, "4").down(1, "4").down(2, "4").draw("8 8 8");
    let mut t = build().start();
    t.act("play 3 x1");
    assert_eq!((t.st.run3, t.st.obligation), (1, Some(1)), "LOPTI-EX-15: run3=1, obl->B");
    assert_eq!(t.legal(), ["play 3 x1", "play 3 x2", "pickup"], "LOPTI-EX-15: B may only play 3s or take the pile");
    t.events();
    t.act("play 3 x2");
    let obligations = t.events().iter().filter(|e| matches!(e, Event::Obligation { .. })).count();
    assert_eq!(obligations, 1, "LOPTI-RULING-4: two 3s pass one obligation");
    assert_eq!((t.st.run3, t.st.obligation), (3, Some(2)), "LOPTI-EX-15 / LOPTI-RULING-4: each 3 counts, obl->C");
    let mut a = Table::clone_of(&t);
    a.act("play 3 x1");
    let ev = a.events();
    assert_eq!(clears(&ev), [ClearCause::ThreeRun], "LOPTI-EX-15 (a): the fourth 3 clears [9][Q]");
    assert!(drew(&ev) && bonus(&ev) == 1 && a.st.current == 2, "LOPTI-EX-15 (a): C draws, then plays a bonus");
    assert_eq!(a.st.out.count(1), 4, "LOPTI-EX-15 (a): all four 3s are out");
    t.act("pickup");
    assert_eq!(t.hand(2), cards("3 5 9 Q"), "LOPTI-EX-15 (b): C takes [9][Q] (no 3s) next to his own 3 and 5");
    assert_eq!((t.st.run3, t.st.current, t.st.pile.is_empty()), (0, 0, true), "LOPTI-EX-15 (b): A starts on an empty table");
}


#[test]
fn ex_16_forced_pickup_without_draw() {
    let mut t = table(2).pile("K").run3(1).obliged(0).hand(0, "10 2 7 K").down(1, "4").draw("5").start();
    assert_eq!(t.legal(), ["pickup"], "LOPTI-EX-16: no legal play");
    t.act("pickup");
    let ev = t.events();
    assert!(ev.iter().any(|e| matches!(e, Event::Pickup { reason: PickupReason::Forced, .. })), "LOPTI-EX-16: forced");
    assert!(!drew(&ev), "LOPTI-EX-16: no draw");
}

#[test]
fn ex_17_three_on_a_seven() {
    let mut t = table(2).pile("7").hand(0, "3 9").hand(1, "3 4 K").down(0, "4").down(1, "4").start();
    t.act("play 3 x1");
    assert_eq!(t.legal(), ["play 3 x1", "pickup"], "LOPTI-EX-17: the low rule no longer matters, only 3s or the pile");
}

#[test]
fn ex_18_and_ruling_1_threes_on_an_empty_table() {
    let build = || table(3).hand(0, "3 9").hand(1, "3 3 8").hand(2, "3 K 5").down(0, "4").down(1, "4").down(2, "4");
    let mut t = build().start();
    t.act("play 3 x1");
    assert_eq!((t.st.run3, t.st.obligation, t.st.current), (1, None, 1), "LOPTI-EX-18 / LOPTI-RULING-1: no obligation, B plays next");
    assert_eq!(t.legal(), ["play 3 x1", "play 3 x2", "play 8 x1"], "LOPTI-EX-18: B may play any rank");
    t.act("play 3 x2");
    assert_eq!((t.st.run3, t.st.obligation), (3, None), "LOPTI-EX-18: run3=3, still no obligation");
    let mut k = Table::clone_of(&t);
    t.events();
    t.act("play 3 x1");
    let ev = t.events();
    assert_eq!(clears(&ev), [ClearCause::ThreeRun], "LOPTI-EX-18: the empty pile clears");
    assert_eq!((bonus(&ev), t.st.current), (1, 2), "LOPTI-EX-18: bonus for C");
    k.act("play K x1");
    assert_eq!(k.st.run3, 0, "LOPTI-EX-18: a K resets run3");
}

#[test]
fn ex_19_run_of_threes_resets() {
    let mut t = table(2).run3(2).hand(0, "8 9").down(1, "4").start();
    t.act("play 8 x1");
    assert_eq!(t.st.run3, 0, "LOPTI-EX-19");
}

#[test]
fn ex_20_and_21_one_draw_below_three_cards() {
    let mut t = table(2).pile("8").hand(0, "5 9 K").down(1, "4").draw("J J").start();
    t.act("play 9 x1");
    assert_eq!((t.hand(0), t.st.current), (cards("5 J K"), 1), "LOPTI-EX-20: 2 < 3 cards, draw one, turn ends");
    let b = || table(2).pile("8").hand(0, "9 9 9 K A").picked_up(0).down(1, "4").draw("J J");
    let mut t = b().start();
    t.act("play 9 x3");
    assert_eq!(t.hand(0), cards("J K A"), "LOPTI-EX-21: three 9s earn exactly one draw");
    let mut t = b().start();
    t.act("play 9 x1");
    assert_eq!(t.hand(0), cards("9 9 K A"), "LOPTI-EX-21: 4 cards left, no draw");
}

#[test]
fn ex_22_and_23_face_up_takeover() {
    let mut t = table(2).pile("K").hand(0, "10").up(0, "Q Q 4").down(0, "5 5 5").down(1, "4").start();
    t.act("play 10 x1");
    assert_eq!((t.hand(0), t.st.players[0].face_up), (cards("Q Q 4"), Ranks::EMPTY), "LOPTI-EX-22: takes {{Q, Q, 4}}");
    assert_eq!(t.legal(), ["play 4 x1", "play Q x1", "play Q x2"], "LOPTI-EX-22: the bonus play is from these");
    t.act("play Q x2");
    let mut t = table(2).pile("K").hand(0, "10").up(0, "Q Q 4").down(0, "5 5 5").down(1, "4").draw("6 6").start();
    t.act("play 10 x1");
    assert_eq!(t.hand(0), cards("6"), "LOPTI-EX-23: A draws x before the bonus play");
    t.act("play 6 x1");
    assert_eq!(t.hand(0), cards("Q Q 4"), "LOPTI-EX-23: empty hand after a bonus play: takeover although the draw pile has cards");
    assert_eq!((t.st.draw.len(), t.st.current), (1, 1), "LOPTI-EX-23: no draw after the bonus play; the turn ends");
}

#[test]
fn ex_24_illegal_reveal_takes_the_pile() {
    let mut t = table(2).pile("K").down(0, "5 5").down(1, "4").hand(1, "6").start();
    assert_eq!(t.legal(), ["blind"], "LOPTI-EX-24");
    t.act("blind");
    assert_eq!((t.hand(0), t.st.current), (cards("5 K"), 1), "LOPTI-EX-24: [K][5] goes into A's hand, the turn ends");
}

#[test]
fn ex_25_face_down_under_obligation() {
    let b = |x: &str| table(4).pile("J").run3(1).obliged(0).down(0, &format!("{x} 6")).down(1, "4").down(2, "4").down(3, "4").draw("K");
    let mut t = table(4).pile("J").run3(1).obliged(0).down(0, "3 3").down(1, "4").down(2, "4").down(3, "4").draw("K").start();
    assert_eq!(t.legal(), ["blind"], "LOPTI-EX-25: A must reveal");
    t.act("blind");
    assert_eq!((t.st.run3, t.st.obligation), (2, Some(1)), "LOPTI-EX-25 (a): a face-down 3 passes the obligation");
    assert_eq!(t.hand(0), cards("K"), "LOPTI-EX-25: a legal first play earns the draw");
    for x in ["9", "10"] {
        let mut t = b(x).start();
        // The reveal is random among {x, 6}; 6 is illegal too, so the outcome is the same.
        t.act("blind");
        assert_eq!(t.st.run3, 0, "LOPTI-EX-25 (b): run3 resets");
        assert!(t.hand(0).count(9) == 1 && t.hand(0).len() == 2, "LOPTI-EX-25 (b): A takes [J][x] ({x})");
        assert_eq!((t.st.current, t.st.pile.is_empty()), (1, true), "LOPTI-EX-25 (b): B starts on an empty table");
    }
    let t = b("9").rules(|r| r.facedown_may_pickup = true).start();
    assert_eq!(t.legal(), ["blind", "pickup"], "LOPTI-EX-25 (c)");
}

#[test]
fn ex_26_face_down_bonus_play_is_always_legal() {
    let mut t = table(2).pile("A").hand(0, "10").down(0, "K 9").down(1, "4").start();
    t.act("play 10 x1");
    assert_eq!(t.legal(), ["blind"], "LOPTI-EX-26");
    t.act("blind");
    let ev = t.events();
    assert!(ev.iter().any(|e| matches!(e, Event::Reveal { legal: true, .. })), "LOPTI-EX-26: the reveal on an empty table is legal");
}

#[test]
fn ex_27_and_28_last_card_a_ten() {
    let mut t = table(2).pile("9|J").down(0, "10").hand(1, "5").draw("6").start();
    t.act("blind");
    let ev = t.events();
    assert!(t.st.winner == Some(0) && t.st.phase == Phase::Over, "LOPTI-EX-27: A is out and wins");
    assert!(bonus(&ev) == 0 && !drew(&ev), "LOPTI-EX-27: no bonus play, no draw");
    let mut t = table(3).pile("9|J").down(0, "10").hand(1, "5").hand(2, "6").draw("6").rules(|r| r.play_for_rankings = true).start();
    t.act("blind");
    assert_eq!((t.st.current, t.st.pile.is_empty()), (1, true), "LOPTI-EX-27: B starts on an empty table");
    let mut t = table(2).pile("7").down(0, "10").hand(1, "5").start();
    t.act("blind");
    assert_eq!((t.hand(0), t.st.winner), (cards("7 10"), None), "LOPTI-EX-28: A takes [7][10] and is not out");
}

#[test]
fn ex_29_last_card_completes_four() {
    let mut t = table(2).pile("Q|Q Q").down(0, "Q").hand(1, "5").start();
    t.act("blind");
    let ev = t.events();
    assert_eq!(clears(&ev), [ClearCause::FourOfAKind], "LOPTI-EX-29: four queens clear");
    assert!(t.st.winner == Some(0) && bonus(&ev) == 0, "LOPTI-EX-29: A wins with no bonus play");
}

#[test]
fn ex_30_last_card_a_three_or_a_seven() {
    let mut t = table(3).pile("K").down(0, "3").hand(1, "3 7 A").hand(2, "5").rules(|r| r.play_for_rankings = true).start();
    t.act("blind");
    assert_eq!((t.st.winner, t.st.obligation), (Some(0), Some(1)), "LOPTI-EX-30: A wins and obl->B");
    assert_eq!(t.legal(), ["play 3 x1", "pickup"], "LOPTI-EX-30: B must play 3s or take [K]");
    let mut t = table(3).pile("K").down(0, "7").hand(1, "5 8 A").hand(2, "5").rules(|r| r.play_for_rankings = true).start();
    t.act("blind");
    assert_eq!(t.st.winner, Some(0), "LOPTI-EX-30");
    assert_eq!(t.legal(), ["play 5 x1", "pickup"], "LOPTI-EX-30: B must play 7 or lower");
}

#[test]
fn ex_31_voluntary_pickup() {
    let mut t = table(2).turn(1).pile("K").hand(1, "A").down(0, "4").draw("5").start();
    t.act("pickup");
    let ev = t.events();
    assert!(ev.iter().any(|e| matches!(e, Event::Pickup { reason: PickupReason::Voluntary, .. })), "LOPTI-EX-31");
    assert!(!drew(&ev) && turn_started(&ev) == Some(0), "LOPTI-EX-31: the turn ends with no draw");
    assert_eq!(t.hand(1), cards("K A"), "LOPTI-EX-31");
}
