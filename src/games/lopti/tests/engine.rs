//! Rule-by-rule tests of the engine (lopti.md §2-§12, §17).

use super::{cards, drew, table, turn_started, Recorder};
use crate::games::lopti::config::Rules;
use crate::games::lopti::events::{Event, NoObserver, PickupReason};
use crate::games::lopti::invariants::InvariantChecker;
use crate::games::lopti::protocol::view_json;
use crate::games::lopti::ranks::{Ranks, THREE};
use crate::games::lopti::rules::ClearCause;
use crate::games::lopti::round::{play_round, Dice};
use crate::games::lopti::state::{Phase, State, Swap};
use crate::games::lopti::strategies::{Lowest, Random, Strategy};
use crate::rng::{rng_from, MatchSeeds};

#[test]
fn deal_is_three_three_three_and_the_rest_is_the_draw_pile_lopti_setup_1_2_3() {
    for (n, rest) in [(2u8, 34u32), (3, 25), (4, 16), (5, 7)] {
        let mut rec = Recorder { log: Vec::new(), inv: InvariantChecker::default() };
        let s = State::deal(n, 0, Rules::default(), &MatchSeeds::of_deal(42), &mut rec);
        assert_eq!(rec.inv.error, None, "LOPTI-INV-2");
        for p in &s.players[..n as usize] {
            assert_eq!(p.face_down.len(), 3, "LOPTI-SETUP-1: three face-down each");
            assert_eq!(p.face_up.len(), 3, "LOPTI-SETUP-2: three face-up each");
            assert_eq!(p.hand.len(), 3, "LOPTI-SETUP-3: three in hand");
        }
        assert_eq!(s.draw.len(), rest, "LOPTI-SETUP-3: 52 - 9N cards to draw");
        assert_eq!(rec.log.len(), n as usize, "one deal event per seat");
        let again = State::deal(n, 0, Rules::default(), &MatchSeeds::of_deal(42), &mut NoObserver);
        assert_eq!(again.players, s.players, "the deal depends only on the deal seed");
    }
}

#[test]
fn the_view_hides_face_down_cards_and_other_hands_lopti_state_1() {
    let a = table(2).hand(0, "9 K").up(0, "4 J A").down(0, "5 6 8").hand(1, "Q Q").down(1, "2 2").draw("7 9").start();
    let b = table(2).hand(0, "9 K").up(0, "4 J A").down(0, "2 2 8").hand(1, "5 6").down(1, "Q Q").draw("7 9").start();
    assert_eq!(view_json(&a.st.view(0)), view_json(&b.st.view(0)), "LOPTI-STATE-1: face-down cards and the other hand are hidden");
    let v = a.st.view(0);
    assert_eq!((v.hand(), v.face_down(), v.seat_info(1).hand, v.seat_info(1).face_down), (cards("9 K"), 3, 2, 2), "LOPTI-STATE-1");
}

#[test]
fn shared_zones_are_public_lopti_state_2() {
    let mut t = table(3).pile("9").hand(0, "3 4").hand(1, "5").down(2, "4").draw("6 7").start();
    t.act("play 3 x1");
    let v = t.st.view(2);
    assert_eq!((v.draw_pile(), v.run3(), v.pile().cards(), v.out_of_round().count(THREE)), (1, 1, cards("9"), 4), "LOPTI-STATE-2: draw count, pile, 3-run, out of round");
    assert_eq!((t.st.obligation, t.st.view(1).obligated()), (Some(1), true), "LOPTI-STATE-2: the obligation marker names one player");
}

#[test]
fn players_out_are_skipped_lopti_state_4() {
    let mut t = table(3).hand(0, "9").hand(1, "K").hand(2, "5 5").rules(|r| r.play_for_rankings = true).start();
    t.act("play 9 x1");
    assert!(t.st.is_out(0), "LOPTI-STATE-4: no cards, not active");
    t.act("play K x1");
    assert!(t.st.is_out(1) && t.st.phase == Phase::Over, "LOPTI-STATE-4 / LOPTI-WIN-4: play ends with one player left");
    assert_eq!(t.st.finish, [0, 1, 2, 0, 0], "LOPTI-WIN-4: finishing order");
    let mut t = table(4).hand(0, "9").hand(1, "K").hand(2, "4").hand(3, "5 5").rules(|r| r.play_for_rankings = true).start();
    t.act("play 9 x1").act("play K x1").act("pickup").act("play 5 x1");
    assert_eq!(t.st.current, 2, "LOPTI-STATE-4: A and B are out and skipped");
}

/// Swaps the first hand card for the first face-up card, recording what it saw.
struct Recording(std::sync::Mutex<Vec<(u8, Ranks)>>);

impl Strategy for Recording {
    fn swap(&self, view: &crate::games::lopti::view::View, _: &mut crate::rng::SimRng) -> Option<Swap> {
        self.0.lock().unwrap().push((view.seat(), view.seat_info(0).face_up));
        let hand = view.hand().nth(0);
        view.face_up().ranks().find(|&f| f != hand).map(|face_up| Swap { hand, face_up })
    }
    fn act(&self, _: &crate::games::lopti::view::View, legal: &crate::games::lopti::rules::Actions, _: &mut crate::rng::SimRng) -> crate::games::lopti::rules::Action {
        legal[0]
    }
}

#[test]
fn one_swap_per_player_at_setup_lopti_setup_4_and_ex_32() {
    let mut t = table(2).hand(0, "4 9 A").up(0, "K 5 8").down(0, "2 2 2").hand(1, "6 6 6").up(1, "7 7 7").down(1, "J J J").start();
    t.st.phase = Phase::Setup;
    t.st.apply_swap(0, Some(Swap { hand: 2, face_up: 11 }), &mut NoObserver);
    assert_eq!((t.hand(0), t.st.players[0].face_up), (cards("K 9 A"), cards("4 5 8")), "LOPTI-EX-32 / LOPTI-SETUP-4");
    let mut st = t.st;
    let second = std::panic::catch_unwind(move || {
        st.apply_swap(0, Some(Swap { hand: 7, face_up: 2 }), &mut NoObserver)
    });
    assert!(second.is_err(), "LOPTI-EX-32 / LOPTI-SETUP-4: no second swap");
    let mut s = State::deal(2, 0, Rules::default(), &MatchSeeds::of_deal(3), &mut NoObserver);
    s.start_play(&mut NoObserver);
    let late = std::panic::catch_unwind(move || s.apply_swap(1, None, &mut NoObserver));
    assert!(late.is_err(), "LOPTI-SETUP-4: swaps happen only during setup");
}

#[test]
fn swap_order_flag_lopti_setup_4() {
    for (order, sees_swap) in [(crate::games::lopti::config::SwapOrder::Simultaneous, false), (crate::games::lopti::config::SwapOrder::ClockwiseFromStarter, true)] {
        let rules = Rules { swap_order: order, max_turns: 1, ..Rules::default() };
        let mut s = State::deal(2, 0, rules, &MatchSeeds::of_deal(11), &mut NoObserver);
        let dealt = s.players[0].face_up;
        let bot = Recording(Default::default());
        play_round(&mut s, &[&bot, &bot], Dice::Shared(&mut rng_from(1)), &mut NoObserver).expect("built-in bots choose legal actions");
        let seen = bot.0.lock().unwrap().clone();
        assert_eq!(seen[0].0, 0, "LOPTI-SETUP-4: the starter decides first");
        assert_eq!(seen[1].1 != dealt, sees_swap, "LOPTI-SETUP-4: swap_order={order:?}: B sees A's swap only when clockwise");
        assert_ne!(s.players[0].face_up, dealt, "LOPTI-SETUP-4: the swap is applied either way");
    }
}

#[test]
fn the_starter_plays_first_lopti_setup_5_and_win_5() {
    for starter in 0..3 {
        let mut rec = Recorder { log: Vec::new(), inv: InvariantChecker::default() };
        let mut s = State::deal(3, starter, Rules::default(), &MatchSeeds::of_deal(5), &mut rec);
        play_round(&mut s, &[&Lowest, &Lowest, &Lowest], Dice::Shared(&mut rng_from(2)), &mut rec).expect("built-in bots choose legal actions");
        let first = rec.log.iter().find_map(|e| if let Event::TurnStart { seat, .. } = e { Some(*seat) } else { None });
        assert_eq!(first, Some(starter), "LOPTI-SETUP-5 / LOPTI-WIN-5: the dealer (first round) or the previous winner starts");
    }
}

#[test]
fn turns_pass_clockwise_lopti_turn_1() {
    let mut rec = Recorder { log: Vec::new(), inv: InvariantChecker::default() };
    let mut s = State::deal(4, 0, Rules::default(), &MatchSeeds::of_deal(9), &mut rec);
    play_round(&mut s, &[&Random as &dyn Strategy; 4], Dice::Shared(&mut rng_from(3)), &mut rec).expect("built-in bots choose legal actions");
    let seats: Vec<u8> = rec.log.iter().filter_map(|e| if let Event::TurnStart { seat, .. } = e { Some(*seat) } else { None }).collect();
    assert!(seats.len() > 10);
    assert!(seats.windows(2).all(|w| w[1] == (w[0] + 1) % 4), "LOPTI-TURN-1: clockwise (nobody is out before the end)");
}

#[test]
fn empty_table_offers_plays_only_lopti_turn_2() {
    let t = table(2).hand(0, "3 10 K").down(1, "4").start();
    assert_eq!(t.legal(), ["play 3 x1", "play 10 x1", "play K x1"], "LOPTI-TURN-2: any rank, no pick-up, including 3 and 10");
}

#[test]
fn bonus_plays_are_part_of_the_turn_lopti_turn_4() {
    let mut t = table(2).hand(0, "10 5 6").down(1, "4").start();
    t.act("play 10 x1");
    assert_eq!((t.st.counters.turns, t.st.current), (1, 0), "LOPTI-TURN-4: the bonus play is not a new turn");
    t.act("play 5 x1");
    assert_eq!((t.st.counters.turns, t.st.current), (2, 1), "LOPTI-TURN-4");
}

#[test]
fn source_is_hand_then_face_down_never_mixed_lopti_turn_5_and_fu_2() {
    let mut t = table(2).hand(0, "9").up(0, "5 6 A").down(0, "2 2 2").down(1, "4").pile("8").start();
    assert_eq!(t.legal(), ["play 9 x1", "pickup"], "LOPTI-TURN-5 / LOPTI-FU-2: face-up cards are not played from the table");
    t.act("play 9 x1");
    assert_eq!(t.hand(0), cards("5 6 A"), "LOPTI-TURN-5 / LOPTI-FU-1: the face-up cards became the hand");
    let t = table(2).down(0, "2 5").down(1, "4").pile("8").start();
    assert_eq!(t.legal(), ["blind"], "LOPTI-TURN-5: with no hand the source is the face-down cards");
}

#[test]
fn face_down_plays_are_single_cards_lopti_play_1() {
    let mut t = table(2).down(0, "6 6").down(1, "4").start();
    t.act("blind");
    assert_eq!((t.st.pile.top(), t.st.players[0].face_down.len()), (Some((4, 1)), 1), "LOPTI-PLAY-1: n = 1 face-down");
}

#[test]
fn draw_rules_lopti_draw_1_2_3_5() {
    let mut t = table(2).pile("8").hand(0, "9 9 9 K A J").picked_up(0).down(1, "4").draw("5").start();
    t.act("play 9 x1");
    assert!(!drew(&t.events()), "LOPTI-DRAW-1: 5 cards left, no draw");
    let mut t = table(2).pile("8").hand(0, "9 9 K").down(1, "4").draw("5 5").start();
    t.act("play 9 x2");
    assert_eq!((t.hand(0), t.st.draw.len()), (cards("5 K"), 1), "LOPTI-DRAW-1 / LOPTI-DRAW-2: one draw for a play of two; never topped up to 3");
    let mut t = table(2).pile("8").hand(0, "9 K").down(1, "4").start();
    t.act("play 9 x1");
    assert_eq!(t.hand(0), cards("K"), "LOPTI-DRAW-1: nothing to draw from an empty draw pile");
    let mut t = table(2).hand(0, "10 10 5").down(1, "4").draw("6 6").start();
    t.act("play 10 x1").act("play 10 x1");
    assert_eq!(t.st.draw.len(), 1, "LOPTI-DRAW-3: the bonus play earns no draw");
    let mut t = table(2).pile("8").hand(0, "4").down(1, "4").draw("6").start();
    t.act("pickup");
    assert!(!drew(&t.events()), "LOPTI-DRAW-3: a pick-up earns no draw");
    let mut t = table(2).pile("8").hand(0, "9").down(1, "4").draw("6").start();
    t.act("play 9 x1");
    assert!(!drew(&t.events()) && t.st.winner == Some(0), "LOPTI-DRAW-5 / LOPTI-WIN-1: out at once, no draw");
}

#[test]
fn draw_before_the_bonus_by_default_lopti_draw_4() {
    let mut t = table(2).hand(0, "10 5").down(1, "4").draw("6").start();
    t.act("play 10 x1");
    assert_eq!(t.hand(0), cards("5 6"), "LOPTI-DRAW-4: draw_timing=before_bonus");
}

#[test]
fn pickup_takes_the_whole_pile_but_no_threes_lopti_pick_1_2_3() {
    let mut t = table(3).pile("5|7").hand(0, "3 3 4").hand(1, "K 9").hand(2, "8").draw("J").start();
    t.act("play 3 x2");
    t.act("pickup");
    assert_eq!(t.hand(1), cards("5 7 9 K"), "LOPTI-PICK-1: every card of the pile, never the discarded 3s");
    assert!(t.st.pile.is_empty() && t.st.out.count(THREE) == 4, "LOPTI-PICK-1: the 3s stay out");
    assert_eq!((t.st.run3, t.st.obligation, t.st.current), (0, None, 2), "LOPTI-PICK-3: run3 0, no obligation, next player");
    assert_eq!(t.legal(), ["play 8 x1"], "LOPTI-PICK-3: the low rule is cancelled, C starts on an empty table");
    assert_eq!(t.hand(1).len(), 4, "LOPTI-PICK-2: no draw, no further play");
    let t = table(2).hand(0, "5").down(1, "4").start();
    assert!(!t.legal().contains(&"pickup".into()), "LOPTI-PICK-2: no pick-up of an empty pile");
}

#[test]
fn a_clear_resets_everything_and_gives_a_bonus_lopti_clear_1_and_3() {
    let mut t = table(3).pile("Q|7").run3(0).hand(0, "6 6 6 6 9").down(1, "4").down(2, "4").start();
    t.act("play 6 x4");
    let ev = t.events();
    assert!(ev.iter().any(|e| matches!(e, Event::Clear { .. })) && t.st.turn.bonus, "LOPTI-CLEAR-1: clear and bonus play");
    assert_eq!(t.legal(), ["play 9 x1"], "LOPTI-CLEAR-1: the low rule of the 7 is gone");
    let out = t.st.out;
    t.act("play 9 x1");
    assert!(out.is_subset_of(t.st.out), "LOPTI-CLEAR-3: cleared cards stay out");
}

#[test]
fn the_four_base_ways_to_clear_lopti_clear_2() {
    let cases: [(&str, &str, u8, &str, ClearCause); 4] = [
        ("A", "10", 0, "play 10 x1", ClearCause::Ten),
        ("5|5 5", "5", 0, "play 5 x1", ClearCause::FourOfAKind),
        ("K", "3", 3, "play 3 x1", ClearCause::ThreeRun),
        ("7|7 7", "7", 0, "play 7 x1", ClearCause::FourOfAKind),
    ];
    for (pile, hand, run3, line, cause) in cases {
        let mut b = table(2).pile(pile).hand(0, &format!("{hand} 9")).down(1, "4").run3(run3);
        if run3 > 0 {
            b = b.obliged(0);
        }
        let mut t = b.start();
        t.act(line);
        let got = t.events().iter().find_map(|e| if let Event::Clear { cause, .. } = e { Some(*cause) } else { None });
        assert_eq!(got, Some(cause), "LOPTI-CLEAR-2: {line} on {pile}");
    }
}

#[test]
fn bonus_play_is_mandatory_lopti_bonus_1() {
    let mut t = table(2).hand(0, "10 9").down(1, "4").start();
    t.act("play 10 x1");
    assert_eq!(t.legal(), ["play 9 x1"], "LOPTI-BONUS-1: no pass, no pick-up on the empty table");
}

#[test]
fn repeated_bonus_plays_lopti_bonus_2_and_3() {
    let mut t = table(2).hand(0, "10 10 10 4").down(1, "4").start();
    t.act("play 10 x1").act("play 10 x1").act("play 10 x1");
    assert_eq!((t.st.current, t.st.turn.bonus, t.st.counters.clears), (0, true, 3), "LOPTI-BONUS-2: no limit");
    let mut t = table(2).pile("K").hand(0, "10").down(1, "4").hand(1, "5").start();
    t.act("play 10 x1");
    assert!(t.st.winner == Some(0) && !t.events().iter().any(|e| matches!(e, Event::Bonus { .. })), "LOPTI-BONUS-3: out, no bonus");
}

#[test]
fn twos_stay_on_the_pile_lopti_2_2() {
    let mut t = table(2).pile("Q").hand(0, "2 9").hand(1, "4 5").start();
    t.act("play 2 x1");
    assert_eq!(t.st.pile.top(), Some((0, 1)), "LOPTI-2-2: the 2 stays in the pile");
    assert_eq!(t.legal(), ["play 4 x1", "play 5 x1", "pickup"], "LOPTI-2-2: any rank after a 2");
}

#[test]
fn threes_go_out_and_pass_one_obligation_lopti_3_2_and_3_3() {
    let mut t = table(3).pile("9").hand(0, "3 3 3 K").hand(1, "5").hand(2, "6").start();
    t.act("play 3 x3");
    assert_eq!(t.st.pile.cards(), cards("9"), "LOPTI-3-2: 3s never enter the pile");
    assert_eq!((t.st.out.count(THREE), t.st.run3), (4, 3), "LOPTI-3-2: they go out and run3 rises by 3");
    assert_eq!(t.st.obligation, Some(1), "LOPTI-3-3: the next active player is obliged");
    let obligations: Vec<u8> = t.events().iter().filter_map(|e| if let Event::Obligation { to, .. } = e { Some(*to) } else { None }).collect();
    assert_eq!(obligations, [1], "LOPTI-3-3: one obligation however many 3s");
}

#[test]
fn fourth_three_clears_and_the_player_gets_the_bonus_lopti_3_4() {
    let mut t = table(3).pile("9|J").run3(2).obliged(0).hand(0, "3 3 5").hand(1, "6").hand(2, "6").start();
    t.act("play 3 x2");
    assert!(t.st.pile.is_empty() && t.st.current == 0 && t.st.turn.bonus, "LOPTI-3-4: clear and bonus for the fourth 3");
}

#[test]
fn run3_resets_lopti_3_5() {
    let mut t = table(2).run3(1).hand(0, "3 8").hand(1, "4").start();
    t.act("play 8 x1");
    assert_eq!(t.st.run3, 0, "LOPTI-3-5: a card other than a 3");
    let mut t = table(2).pile("9").run3(1).obliged(0).hand(0, "4").hand(1, "4").start();
    t.act("pickup");
    assert_eq!(t.st.run3, 0, "LOPTI-3-5: the pile is taken");
    let mut t = table(2).pile("9").run3(3).obliged(0).hand(0, "3 4").hand(1, "4").start();
    t.act("play 3 x1");
    assert_eq!(t.st.run3, 0, "LOPTI-3-5: the pile is cleared");
}

#[test]
fn threes_on_an_empty_table_lopti_3_6() {
    let mut t = table(2).hand(0, "3 9").hand(1, "4").start();
    t.act("play 3 x1");
    assert_eq!((t.st.run3, t.st.obligation, t.st.current), (1, None, 1), "LOPTI-3-6: no obligation, run3 still rises");
    let mut t = table(2).hand(0, "3 3 3 3 9").picked_up(0).hand(1, "4").start();
    t.act("play 3 x4");
    assert!(t.st.turn.bonus && t.st.current == 0 && t.st.counters.clears == 1, "LOPTI-3-6: four 3s on an empty table clear with a bonus");
}

#[test]
fn seven_low_rule_in_play_lopti_7_2() {
    let mut t = table(2).pile("9").hand(0, "7 A").hand(1, "8 6 10").start();
    t.act("play 7 x1");
    assert_eq!(t.legal(), ["play 6 x1", "pickup"], "LOPTI-7-2: 7 or lower after a 7, no 10");
    t.act("play 6 x1");
    assert_eq!(t.legal(), ["play A x1", "pickup"], "LOPTI-7-2: the low rule applied to one play only");
}

#[test]
fn tens_clear_and_go_out_lopti_10_2_and_10_3() {
    let mut t = table(2).pile("4|K").hand(0, "10 10 5").down(1, "4").start();
    t.act("play 10 x2");
    assert!(t.st.pile.is_empty() && t.st.out.count(8) == 4 && t.st.turn.bonus, "LOPTI-10-2: the 10s go out with the pile, bonus play");
    let mut t = table(2).hand(0, "10 5").down(1, "4").start();
    t.act("play 10 x1");
    assert!(t.st.turn.bonus && t.st.counters.clears == 1, "LOPTI-10-3: a 10 on an empty table clears itself, bonus play");
}

#[test]
fn face_up_takeover_after_the_draw_step_lopti_fu_1() {
    let mut t = table(2).pile("8").hand(0, "9").up(0, "4 5 6").down(0, "J J J").down(1, "4").draw("K").start();
    t.act("play 9 x1");
    assert_eq!((t.hand(0), t.st.players[0].face_up.len()), (cards("K"), 3), "LOPTI-FU-1: the draw refilled the hand, no takeover");
    let mut t = table(2).pile("8").hand(0, "9").up(0, "4 5 6").down(0, "J J J").down(1, "4").start();
    t.act("play 9 x1");
    assert_eq!(t.hand(0), cards("4 5 6"), "LOPTI-FU-1: all three face-up cards move together");
    assert!(t.rec.log.iter().any(|e| matches!(e, Event::Takeover { seat: 0, .. })), "LOPTI-FU-1");
}

#[test]
fn face_down_phase_lopti_fd_1_2_3() {
    let mut t = table(2).pile("5").down(0, "9 9").down(1, "4").draw("2").start();
    t.act("blind");
    let ev = t.events();
    assert!(ev.iter().any(|e| matches!(e, Event::Reveal { rank: 7, legal: true, .. })), "LOPTI-FD-1: revealed to everyone");
    assert_eq!(t.hand(0), cards("2"), "LOPTI-FD-2 / LOPTI-AMB-8: a legal face-down play earns the draw");
    let mut t = table(2).pile("9").run3(1).obliged(0).down(0, "10").hand(0, "").down(1, "4").start();
    t.events();
    t.act("blind");
    let ev = t.events();
    assert!(ev.iter().any(|e| matches!(e, Event::Pickup { reason: PickupReason::IllegalReveal, .. })), "LOPTI-FD-3: a 10 under an obligation is illegal");
    assert_eq!(t.hand(0), cards("9 10"), "LOPTI-FD-2 / LOPTI-FD-3: it joins the pile he takes");
}

#[test]
fn face_down_player_must_reveal_by_default_lopti_fd_4() {
    let t = table(2).pile("A").down(0, "5").down(1, "4").start();
    assert_eq!(t.legal(), ["blind"], "LOPTI-FD-4: facedown_may_pickup=false");
    let t = table(2).pile("A").down(0, "5").down(1, "4").rules(|r| r.facedown_may_pickup = true).start();
    assert_eq!(t.legal(), ["blind", "pickup"], "LOPTI-FD-4: facedown_may_pickup=true");
}

#[test]
fn hand_cards_again_come_before_face_down_lopti_fd_5_and_fd_6() {
    let mut t = table(2).pile("K").down(0, "5 5").hand(1, "4 4 A").start();
    t.act("blind");
    t.act("play 4 x1");
    assert_eq!(t.legal(), ["play 5 x1", "play K x1", "pickup"], "LOPTI-FD-5: after a pick-up he plays from the hand");
    let t = table(2).down(0, "5 9 K").down(1, "4").start();
    assert_eq!(t.legal(), ["blind"], "LOPTI-FD-6");
    let mut t2 = table(2).down(0, "4 4").down(1, "4").start();
    t2.act("blind");
    assert!(t2.events().iter().any(|e| matches!(e, Event::Reveal { legal: true, .. })), "LOPTI-FD-6: every face-down card is legal on an empty table");
}

#[test]
fn going_out_with_a_hand_card_lopti_win_1() {
    let mut t = table(2).pile("8").hand(0, "9").down(1, "4").start();
    t.act("play 9 x1");
    assert_eq!((t.st.winner, t.st.phase), (Some(0), Phase::Over), "LOPTI-WIN-1: the last hand card after an illegal last face-down card");
}

#[test]
fn last_card_effects_still_apply_lopti_win_2_and_3() {
    let mut t = table(3).pile("K").hand(0, "3").hand(1, "5 3").hand(2, "6").rules(|r| r.play_for_rankings = true).start();
    t.act("play 3 x1");
    assert_eq!(t.st.obligation, Some(1), "LOPTI-WIN-2: the last 3 still obliges the next player");
    let mut t = table(3).pile("K").hand(0, "10").hand(1, "5").hand(2, "6").rules(|r| r.play_for_rankings = true).start();
    t.act("play 10 x1");
    assert_eq!((t.st.current, t.st.pile.is_empty(), t.st.turn.bonus), (1, true, false), "LOPTI-WIN-3: next player on an empty table");
}

#[test]
fn the_first_out_is_the_only_winner_lopti_win_4() {
    let mut t = table(3).pile("8").hand(0, "9").hand(1, "5 6").hand(2, "7 A").start();
    t.act("play 9 x1");
    assert_eq!((t.st.winner, t.st.phase), (Some(0), Phase::Over), "LOPTI-WIN-4: play_for_rankings=false ends the round");
    let mut t = table(3).pile("8").hand(0, "9").hand(1, "5 6").hand(2, "7 A").rules(|r| r.play_for_rankings = true).start();
    t.act("play 9 x1");
    assert_eq!((t.st.winner, t.st.phase, turn_started(&t.events())), (Some(0), Phase::Play, Some(1)), "LOPTI-WIN-4: rankings go on");
}

#[test]
fn determinization_is_consistent_with_the_view() {
    use crate::games::lopti::invariants::check_state;
    use rand::RngExt;
    let mut rng = rng_from(11);
    for g in 0..200u64 {
        let rules = Rules { play_for_rankings: g % 2 == 0, ..Rules::default() };
        let mut s = State::deal(2 + (g % 4) as u8, 0, rules, &MatchSeeds::of_deal(g), &mut NoObserver);
        let det = State::determinize(&s.view(1), &mut rng);
        assert_eq!((view_json(&det.view(1)), det.rules), (view_json(&s.view(1)), s.rules), "setup view");
        s.start_play(&mut NoObserver);
        while s.phase == Phase::Play {
            let view = s.view(s.current);
            let det = State::determinize(&view, &mut rng);
            assert_eq!((view_json(&det.view(s.current)), det.rules), (view_json(&view), s.rules), "the determinized state shows the same view");
            check_state(&det).expect("the determinized state is a legal state");
            let legal = view.legal_actions();
            s.apply(legal[rng.random_range(0..legal.len())], &mut NoObserver);
        }
    }
}
