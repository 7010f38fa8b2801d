//! Rules of play and the real-time model: spit.md sections 1, 3, 4, 5.

use crate::realtime::MatchRngs;
use rand::RngExt;
use super::kit::*;
use crate::cards::{ranks_adjacent_circular, CardSet};
use crate::games::spit::config::{PlayTarget, SpitConfig, SpitTarget};
use crate::games::spit::rules::{is_progress, legal_actions, SpitAction, SpitRules};
use crate::games::spit::view::SpitView;
use crate::realtime::{synchronise, ActionList, EngineEvent, RealtimeRules, Seated, MAX_PLAYERS};
use crate::rng::rng_from;

fn legal(cfg: &SpitConfig, s: &crate::games::spit::state::SpitState, p: usize) -> Vec<SpitAction> {
    let mut out = ActionList::new();
    legal_actions(cfg, s, p, &mut out);
    out.to_vec()
}

fn plays(cfg: &SpitConfig, s: &crate::games::spit::state::SpitState, p: usize) -> Vec<(u8, u8)> {
    legal(cfg, s, p).into_iter().filter_map(|a| if let SpitAction::Play { slot, pile } = a { Some((slot, pile)) } else { None }).collect()
}

#[test]
fn deck_two_players_one_deck_of_52() {
    let s = position([&["Ac", "Kd"], &["2h"]], [5, 5], [Some("9s"), Some("4d")]);
    let (all, n) = s.census();
    assert!(all == CardSet::FULL && n == 52, "SPIT-DECK-1: one 52-card deck between two players");
    assert_eq!(s.players.len(), 2, "SPIT-DECK-1: two players");
}

#[test]
fn ranks_wrap_around_and_adjacency_is_exactly_one_step() {
    // SPIT-DECK-2: A is next to both K and 2.
    assert!(ranks_adjacent_circular(1, 13) && ranks_adjacent_circular(13, 1), "SPIT-DECK-2: A-K wrap");
    assert!(ranks_adjacent_circular(1, 2), "SPIT-DECK-2: A-2");
    // SPIT-DECK-3: adjacent iff the indices differ by 1 mod 13; never the same rank.
    for a in 1..=13u8 {
        for b in 1..=13u8 {
            let d = (a as i32 - b as i32).rem_euclid(13);
            assert_eq!(ranks_adjacent_circular(a, b), d == 1 || d == 12, "SPIT-DECK-3: {a} vs {b}");
        }
        assert!(!ranks_adjacent_circular(a, a), "SPIT-DECK-3: a rank is never adjacent to itself");
    }
}

#[test]
fn ex_1_ace_takes_king_and_two_not_ace() {
    let cfg = SpitConfig::default();
    let s = position([&["Kc", "2d", "Ah", "3s", "Qc"], &["5h"]], [3, 3], [Some("As"), None]);
    let mut p = plays(&cfg, &s, 0);
    p.sort();
    assert_eq!(p, vec![(0, 0), (1, 0)], "SPIT-EX-1: on an A only K and 2 are legal");
}

#[test]
fn play_onto_either_pile_by_default_and_own_pile_under_play_target_own() {
    let cfg = SpitConfig::default();
    let s = position([&["8c"], &["5h"]], [3, 3], [Some("9d"), Some("7s")]);
    assert_eq!(plays(&cfg, &s, 0), vec![(0, 0), (0, 1)], "SPIT-PLAY-1: both spit piles are targets");
    let own = SpitConfig { play_target: PlayTarget::Own, ..cfg };
    assert_eq!(plays(&own, &s, 0), vec![(0, 0)], "SPIT-PLAY-1 / SPIT-AMB-2: play_target=own");
    assert_eq!(plays(&own, &s, 1), vec![], "SPIT-PLAY-1: player 1's 5 fits neither his own pile 7 nor");
}

#[test]
fn flip_is_a_separate_action_and_a_face_down_top_cannot_be_played() {
    let cfg = SpitConfig::default();
    let s = position([&["3/?", "Jc"], &["5h"]], [3, 3], [Some("4d"), Some("10s")]);
    let l = legal(&cfg, &s, 0);
    assert!(l.contains(&SpitAction::Flip { slot: 0 }), "SPIT-PLAY-2: a face-down top can be flipped");
    assert!(l.contains(&SpitAction::Play { slot: 1, pile: 1 }), "SPIT-PLAY-1: J on 10");
    assert!(!l.iter().any(|a| matches!(a, SpitAction::Play { slot: 0, .. })), "SPIT-PLAY-2: no play from a face-down top");
}

#[test]
fn fill_only_into_an_empty_slot() {
    let cfg = SpitConfig::default();
    let s = position([&["2/9c", "-", "Qd", "-", "-"], &["5h"]], [3, 3], [Some("4d"), Some("5s")]);
    let fills: Vec<SpitAction> = legal(&cfg, &s, 0).into_iter().filter(|a| matches!(a, SpitAction::Fill { .. })).collect();
    // From slots 0 and 2 into each of the empty slots 1, 3, 4; never into an occupied slot.
    assert_eq!(fills.len(), 6, "SPIT-PLAY-3: {fills:?}");
    assert!(fills.iter().all(|a| matches!(a, SpitAction::Fill { to: 1 | 3 | 4, .. })), "SPIT-PLAY-3: only empty targets");
    assert!(is_progress(&s, 0, SpitAction::Fill { from: 0, to: 1 }), "SPIT-PLAY-3: exposing fill is progress");
    assert!(!is_progress(&s, 0, SpitAction::Fill { from: 2, to: 1 }), "SPIT-STALL-1: moving a pile's only card is not progress");
}

#[test]
fn ex_7_exposing_fill_prevents_a_stall() {
    let cfg = SpitConfig::default();
    let rules = SpitRules { cfg };
    let mut s = position([&["-", "1/9c"], &["Kh"]], [0, 0], [Some("4d"), Some("5s")]);
    rules.begin_round(&mut s);
    assert!(rules.has_progress(&s, 0), "SPIT-EX-7: the exposing FILL is progress, so there is no stall");
    let fill = SpitAction::Fill { from: 1, to: 0 };
    assert!(legal(&cfg, &s, 0).contains(&fill));
    rules.lift(&mut s, 0, fill);
    rules.land(&mut s, 0, fill, 0);
    assert_eq!(s.players[0].slots[0].up, Some(card("9c")), "SPIT-EX-7: FILL moves the 9 into the empty slot");
    assert!(legal(&cfg, &s, 0).contains(&SpitAction::Flip { slot: 1 }), "SPIT-EX-7: FLIP then turns X");
}

#[test]
fn a_player_acts_only_on_his_own_stockpiles() {
    let cfg = SpitConfig::default();
    let s = position([&["8c", "-"], &["2/10h", "Qs"]], [3, 3], [Some("9d"), Some("Kc")]);
    for a in legal(&cfg, &s, 1) {
        let slot = match a {
            SpitAction::Play { slot, .. } | SpitAction::Flip { slot } | SpitAction::Fill { from: slot, .. } => slot,
        };
        assert!(!s.players[1].slots[slot as usize].is_empty(), "SPIT-PLAY-5: actions name the player's own non-empty slots");
        if let SpitAction::Fill { to, .. } = a {
            assert!(s.players[1].slots[to as usize].is_empty(), "SPIT-PLAY-5: fills go to his own empty slots");
        }
    }
    // Player 1's options do not depend on player 0's layout.
    let mut other = s;
    other.players[0].slots[1] = other.players[0].slots[0];
    other.players[0].slots[0] = Default::default();
    assert_eq!(legal(&cfg, &s, 1), legal(&cfg, &other, 1), "SPIT-PLAY-5: the opponent's layout is never touched");
}

/// Pile top 7; P0 commits a 6 at 1.20 s and P1 an 8 at 1.23 s.
fn ex_2_round() -> Recorder {
    let cfg = SpitConfig::default();
    let p0 = bot(plays_only(), constant_model(1000.0, 100.0, 50.0)); // 1000 + 2×100 = 1.20 s
    let p1 = bot(plays_only(), constant_model(1030.0, 100.0, 50.0)); // 1.23 s, returns in 0.10 s
    let mut s = position([&["6c", "Jc"], &["8d", "Qh"]], [0, 0], [Some("7h"), Some("4s")]);
    let mut rec = Recorder::default();
    run_round(cfg, [&p0, &p1], &mut s, 1, &mut rec);
    rec
}

#[test]
fn ex_2_first_touch_wins_and_the_loser_card_returns() {
    let rec = ex_2_round();
    let ev = rec.events();
    let landed = ev.iter().find(|(_, e)| matches!(e, EngineEvent::Landed { player: 0, .. })).expect("P0 lands");
    assert!(close(landed.0, 1.20), "SPIT-EX-2: P0's 6 is placed at 1.20 (got {})", landed.0);
    let rejected = ev.iter().find(|(_, e)| matches!(e, EngineEvent::Rejected { player: 1, .. })).expect("P1 rejected");
    assert!(close(rejected.0, 1.23), "SPIT-EX-2: P1's 8 is rejected at 1.23");
    let back = ev.iter().find(|(_, e)| matches!(e, EngineEvent::Returned { player: 1, .. })).expect("P1's card returns");
    assert!(close(back.0, 1.33), "SPIT-EX-2 / SPIT-RT-5: back at 1.23 + μ(RETURN) = 1.33 (got {})", back.0);
    let state_after = rec.engine.iter().find(|(_, e, _)| matches!(e, EngineEvent::Returned { .. })).unwrap().2;
    assert_eq!(state_after.players[1].slots[0].up, Some(card("8d")), "SPIT-RT-5: the card is back on top of its slot, face up");
    assert_eq!(state_after.piles[0].top, Some(card("6c")), "SPIT-PLAY-4: the played 6 stays on the pile");
}

#[test]
fn action_commits_after_reaction_plus_motor_time() {
    // SPIT-RT-3: t_c = t_d + ρ + μ(type). Decided at 0 with ρ = 1000 ms and μ(PLAY) = 2 × 100 ms.
    let rec = ex_2_round();
    let start = rec.events().into_iter().find(|(_, e)| matches!(e, EngineEvent::Start { player: 0, .. })).unwrap();
    match start {
        (t, EngineEvent::Start { lands, .. }) => {
            assert!(close(t, 0.0), "SPIT-RT-3: decided at t_d = 0");
            assert_eq!(lands, 1_200_000, "SPIT-RT-3: commits at t_d + ρ + μ");
        }
        _ => unreachable!(),
    }
}

#[test]
fn card_in_flight_is_in_neither_source_nor_target() {
    let rec = ex_2_round();
    let (_, _, s) = rec.engine.iter().find(|(_, e, _)| matches!(e, EngineEvent::Start { player: 1, .. })).unwrap();
    assert_eq!(s.players[1].flying, Some(card("8d")), "SPIT-RT-4: the card is in the hand");
    assert_eq!(s.players[1].slots[0].up, None, "SPIT-RT-4: not in its source slot");
    assert!(!s.piles.iter().any(|p| p.cards.contains(card("8d"))), "SPIT-RT-4: not on a pile");
}

#[test]
fn one_hand_one_action_at_a_time() {
    // SPIT-RT-2: between a player's Start and the end of that action there is no other Start.
    let rec = ex_2_round();
    let mut busy = [false; 2];
    for (_, e) in rec.events() {
        match e {
            EngineEvent::Start { player, .. } => {
                assert!(!busy[player], "SPIT-RT-2: player {player} started a second action");
                busy[player] = true;
            }
            EngineEvent::Landed { player, .. } | EngineEvent::Returned { player, .. } | EngineEvent::Cancelled { player, .. } => busy[player] = false,
            _ => {}
        }
    }
}

#[test]
fn ex_3_round_end_cancels_cards_in_flight() {
    let cfg = SpitConfig::default();
    let p0 = bot(plays_only(), constant_model(39_800.0, 100.0, 50.0)); // last card lands at 40.00
    let p1 = bot(plays_only(), constant_model(39_850.0, 100.0, 50.0)); // due at 40.05
    let mut s = position([&["6c"], &["8d", "Qh"]], [2, 2], [Some("7h"), Some("4s")]);
    let mut rec = Recorder::default();
    let end = run_round(cfg, [&p0, &p1], &mut s, 1, &mut rec);
    assert_eq!(end.first_out, Some(0), "SPIT-EX-3 / SPIT-END-1: P0 went out");
    assert_eq!(end.time, 40_000_000, "SPIT-EX-3: the round ends at 40.00");
    assert!(rec.events().iter().any(|(t, e)| close(*t, 40.0) && matches!(e, EngineEvent::Cancelled { player: 1, .. })), "SPIT-RT-10: P1's card is called off");
    assert_eq!(s.players[1].slots[0].up, Some(card("8d")), "SPIT-EX-3 / SPIT-RT-10: P1's 8 goes back to his stockpile");
    assert!(!rec.events().iter().any(|(_, e)| matches!(e, EngineEvent::Landed { player: 1, .. })), "SPIT-RT-10: no play commits after the end");
    // SPIT-END-2: at round end the only cards are stockpiles, spit cards and the piles.
    let (all, n) = s.census();
    assert!(all == CardSet::FULL && n == 52 && s.players.iter().all(|p| p.flying.is_none()), "SPIT-END-2: nothing in flight at round end");
}

#[test]
fn no_aborts_by_default_and_early_return_with_allow_abort() {
    // P0 plays 6 on 7 at 1.2 s; P1's 8 (aimed at the 7) would land at 5 s.
    let run = |allow_abort: bool| {
        let cfg = SpitConfig { allow_abort, ..SpitConfig::default() };
        let p0 = bot(plays_only(), constant_model(1000.0, 100.0, 50.0));
        let p1 = bot(plays_only(), constant_model(4800.0, 100.0, 300.0));
        let mut s = position([&["6c", "Jc"], &["8d", "Qh"]], [0, 0], [Some("7h"), Some("4s")]);
        let mut rec = Recorder::default();
        run_round(cfg, [&p0, &p1], &mut s, 1, &mut rec);
        rec.events()
    };
    let default = run(false);
    assert!(default.iter().any(|(t, e)| close(*t, 5.0) && matches!(e, EngineEvent::Rejected { player: 1, .. })), "SPIT-RT-6: without aborts the card lands and is rejected at 5.0");
    assert!(!default.iter().any(|(_, e)| matches!(e, EngineEvent::Aborted { .. })), "SPIT-RT-6: no abort by default");
    let abort = run(true);
    // Noticed at 1.2 + 0.3 s, back 0.1 s later.
    let a = abort.iter().find(|(_, e)| matches!(e, EngineEvent::Aborted { player: 1, .. })).expect("SPIT-RT-6: allow_abort calls the play off");
    assert!(close(a.0, 1.2), "SPIT-RT-6: aborted when the target changed");
    assert!(abort.iter().any(|(t, e)| close(*t, 1.6) && matches!(e, EngineEvent::Returned { player: 1, .. })), "SPIT-RT-6: pays only the return");
}

#[test]
fn flips_and_fills_are_never_rejected() {
    // SPIT-RT-7: only the owner touches his stockpiles.
    let cfg = SpitConfig::default();
    let b = || bot(crate::games::spit::strategies::REGISTRY[0].make_default(), constant_model(200.0, 50.0, 50.0));
    let (p0, p1) = (b(), b());
    for seed in 0..50 {
        let mut s = position([&["3/?", "-", "2/Jc"], &["2/?", "-", "1/5d"]], [4, 4], [Some("9h"), Some("2s")]);
        let mut rec = Recorder::default();
        run_round(cfg, [&p0, &p1], &mut s, seed, &mut rec);
        assert!(
            !rec.events().iter().any(|(_, e)| matches!(e, EngineEvent::Rejected { action: SpitAction::Flip { .. } | SpitAction::Fill { .. }, .. })),
            "SPIT-RT-7: a FLIP or FILL was rejected"
        );
    }
}

#[test]
fn every_change_wakes_the_idle_players() {
    // P1 holds a 5 with nothing to play on; P0 plays a 6 on the 7 at 1.2 s. P1 wakes at
    // 1.2 s and decides at once (SPIT-RT-8).
    let cfg = SpitConfig::default();
    let p0 = bot(plays_only(), constant_model(1000.0, 100.0, 50.0));
    let p1 = bot(plays_only(), constant_model(500.0, 100.0, 50.0));
    let mut s = position([&["6c", "Jc"], &["5d", "Qh"]], [0, 0], [Some("7h"), Some("2s")]);
    let mut rec = Recorder::default();
    run_round(cfg, [&p0, &p1], &mut s, 1, &mut rec);
    let start = rec.events().into_iter().find(|(_, e)| matches!(e, EngineEvent::Start { player: 1, .. })).expect("SPIT-RT-8: P1 was woken");
    assert!(close(start.0, 1.2), "SPIT-RT-8: P1 decides when the 6 lands (got {})", start.0);
}

#[test]
fn idle_policy_with_progress_breaks_liveness_and_is_caught() {
    // SPIT-RT-9: a policy that sits idle with a progress action is reported and the round capped.
    let cfg = SpitConfig::default();
    let lazy = bot(Box::new(Scripted(|_: &SpitView, _: &[SpitAction]| None)), constant_model(100.0, 10.0, 50.0));
    let p1 = bot(plays_only(), constant_model(100.0, 10.0, 50.0));
    let mut s = position([&["6c", "Jc"], &["Kd"]], [2, 2], [Some("7h"), Some("4s")]);
    let mut rec = Recorder::default();
    let end = run_round(cfg, [&lazy, &p1], &mut s, 1, &mut rec);
    assert!(end.capped, "SPIT-RT-9: the round cannot go on");
    assert!(rec.events().iter().any(|(_, e)| matches!(e, EngineEvent::LivenessViolation { player: 0 })), "SPIT-RT-9: violation reported");
}

#[test]
fn exact_ties_are_ordered_by_the_seeded_generator() {
    // Two identical constant bots race for the same top: who wins depends on the seed
    // only, and both orders occur (SPIT-RT-1, SPIT-AMB-10).
    let cfg = SpitConfig::default();
    let m = constant_model(1000.0, 100.0, 50.0);
    let (p0, p1) = (bot(plays_only(), m), bot(plays_only(), m));
    let winner = |seed| {
        let mut s = position([&["6c", "Jc"], &["6d", "Qh"]], [0, 0], [Some("7h"), Some("3s")]);
        let mut rec = Recorder::default();
        run_round(cfg, [&p0, &p1], &mut s, seed, &mut rec);
        rec.events().into_iter().find_map(|(_, e)| if let EngineEvent::Landed { player, .. } = e { Some(player) } else { None }).unwrap()
    };
    let winners: Vec<usize> = (0..40).map(winner).collect();
    assert!(winners.contains(&0) && winners.contains(&1), "SPIT-RT-1: both tie orders occur: {winners:?}");
    assert_eq!(winners, (0..40).map(winner).collect::<Vec<_>>(), "SPIT-RT-1: the order is reproducible from the seed");
}

#[test]
fn stall_spit_timing_and_repetition() {
    // Nothing fits 5s, and every spit card is an A or a 2 (the kit hands out the lowest
    // free cards), so the stall persists. Recognition takes 0.3 s (P0) and 0.5 s (P1):
    // each spit is at the later one, then hands rest 2 × 0.1 s (SPIT-STALL-2), and the
    // next spit follows straight away (SPIT-STALL-5) until the spit cards run out.
    let cfg = SpitConfig::default();
    let p0 = bot(plays_only(), constant_model(100.0, 100.0, 300.0));
    let p1 = bot(plays_only(), constant_model(100.0, 100.0, 500.0));
    let mut s = position([&["5c"], &["5d"]], [3, 3], [Some("9h"), Some("Js")]);
    let mut rec = Recorder::default();
    let end = run_round(cfg, [&p0, &p1], &mut s, 7, &mut rec);
    let syncs = rec.times(|e| matches!(e, EngineEvent::Synchronised));
    let stalls = rec.times(|e| matches!(e, EngineEvent::Stalled));
    let approx = |a: &[f64], b: &[f64]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| close(*x, *y));
    assert!(approx(&syncs, &[0.5, 1.2, 1.9]), "SPIT-STALL-2: spits at the later recognition time: {syncs:?}");
    assert!(approx(&stalls, &[0.0, 0.7, 1.4, 2.1]), "SPIT-STALL-5: a new stall right after each spit's rest: {stalls:?}");
    assert_eq!((end.first_out, end.capped), (None, false), "SPIT-STALL-6: then the round ends");
}

#[test]
fn stall_spits_go_onto_own_piles_by_default_and_a_chosen_pile_under_any() {
    let run = |target: SpitTarget, choice: usize| {
        let cfg = SpitConfig { stall_spit_target: target, ..SpitConfig::default() };
        let fixed = |c| bot(Box::new(FixedPiles { slap: 0, spit: c, give: 0 }), constant_model(100.0, 100.0, 300.0));
        let (p0, p1) = (fixed(choice), fixed(choice));
        let rules = SpitRules { cfg };
        let seats = Seated::new(&[&p0, &p1]);
        let mut s = position([&["5c"], &["5d"]], [3, 3], [Some("9h"), Some("Js")]);
        let before = [s.piles[0].len(), s.piles[1].len()];
        let took = synchronise(&rules, &seats, &mut s, &mut MatchRngs::of_deal(3));
        assert_eq!(&took[..2], &[true, true], "SPIT-STALL-2: both players with spit cards flip");
        ([s.piles[0].len() - before[0], s.piles[1].len() - before[1]], [s.players[0].spit, s.players[1].spit])
    };
    assert_eq!(run(SpitTarget::Own, 1), ([1, 1], [2, 2]), "SPIT-STALL-3: own (default): each onto his own pile");
    assert_eq!(run(SpitTarget::Any, 1).0, [0, 2], "SPIT-STALL-3: any: both chose pile 1, the second covers the first");
}

#[test]
fn simultaneous_spits_under_any_are_chosen_on_the_same_state() {
    // Both players aim at the smaller pile (the default target). Pile 0 holds one card
    // more than pile 1: deciding at the same instant, both see pile 1 as the smaller and both
    // spit onto it, whichever card lands first (the second must not see the first land).
    let cfg = SpitConfig { stall_spit_target: SpitTarget::Any, ..SpitConfig::default() };
    let m = constant_model(100.0, 100.0, 300.0);
    let (p0, p1) = (bot(plays_only(), m), bot(plays_only(), m));
    let rules = SpitRules { cfg };
    let seats = Seated::new(&[&p0, &p1]);
    for seed in 0..16 {
        let mut s = position([&["5c"], &["5d"]], [3, 3], [Some("9h"), Some("Js")]);
        s.piles[0].push(card("2c"));
        let before = [s.piles[0].len(), s.piles[1].len()];
        assert_eq!(before[0], before[1] + 1);
        synchronise(&rules, &seats, &mut s, &mut MatchRngs::of_deal(seed));
        assert_eq!([s.piles[0].len(), s.piles[1].len()], [before[0], before[1] + 2], "seed {seed}: both spit cards onto the pile that was smaller");
    }
}

#[test]
fn ex_5_only_the_player_with_spit_cards_spits_onto_his_own_pile() {
    let cfg = SpitConfig::default();
    let m = constant_model(100.0, 100.0, 300.0);
    let (p0, p1) = (bot(plays_only(), m), bot(plays_only(), m));
    let rules = SpitRules { cfg };
    let seats = Seated::new(&[&p0, &p1]);
    let mut s = position([&["5c"], &["5d"]], [0, 4], [Some("9h"), Some("Js")]);
    let before = [s.piles[0].len(), s.piles[1].len()];
    let took = synchronise(&rules, &seats, &mut s, &mut MatchRngs::of_deal(1));
    assert_eq!(&took[..MAX_PLAYERS.min(2)], &[false, true], "SPIT-EX-5: only P2 (seat 1) flips");
    assert_eq!([s.piles[0].len() - before[0], s.piles[1].len() - before[1]], [0, 1], "SPIT-EX-5: onto his own pile");
    assert_eq!(s.players[1].spit, 3, "SPIT-EX-5: one spit card used");
}

#[test]
fn solo_spitter_under_any_is_locked_to_his_first_pile() {
    let cfg = SpitConfig { stall_spit_target: SpitTarget::Any, ..SpitConfig::default() };
    let chooser = bot(Box::new(FixedPiles { slap: 0, spit: 0, give: 0 }), constant_model(100.0, 100.0, 300.0));
    let other = bot(plays_only(), constant_model(100.0, 100.0, 300.0));
    let rules = SpitRules { cfg };
    let seats = Seated::new(&[&other, &chooser]);
    let mut s = position([&["5c"], &["5d"]], [0, 4], [Some("9h"), Some("Js")]);
    let mut rng = rng_from(1);
    synchronise(&rules, &seats, &mut s, &mut MatchRngs::of_deal(rng.random()));
    assert_eq!(s.solo_spit_pile, Some(0), "SPIT-STALL-4: the first solo choice is locked in");
    // A different strategy choice later is ignored: the pile stays 0.
    let chooser1 = bot(Box::new(FixedPiles { slap: 0, spit: 1, give: 0 }), constant_model(100.0, 100.0, 300.0));
    let rules1 = SpitRules { cfg };
    let seats1 = Seated::new(&[&other, &chooser1]);
    let before = s.piles[0].len();
    synchronise(&rules1, &seats1, &mut s, &mut MatchRngs::of_deal(rng.random()));
    assert_eq!(s.piles[0].len(), before + 1, "SPIT-STALL-4: he may spit only onto that pile for the rest of the round");
}

#[test]
fn spit_cards_enter_play_only_by_spits_and_may_land_on_any_rank() {
    // SPIT-STALL-7: no legal action touches spit cards; a spit lands regardless of adjacency.
    let cfg = SpitConfig::default();
    let m = constant_model(100.0, 100.0, 300.0);
    let (p0, p1) = (bot(plays_only(), m), bot(plays_only(), m));
    let rules = SpitRules { cfg };
    let seats = Seated::new(&[&p0, &p1]);
    let s0 = position([&["5c"], &["5d"]], [6, 6], [Some("9h"), Some("Js")]);
    for a in legal(&cfg, &s0, 0) {
        let mut s = s0;
        rules.lift(&mut s, 0, a);
        rules.land(&mut s, 0, a, 0);
        assert_eq!(s.players[0].spit, 6, "SPIT-STALL-7: no action of play touches the spit cards ({a:?})");
    }
    let mut nonadjacent = 0;
    for seed in 0..30 {
        let mut s = s0;
        let tops = [s.piles[0].top.unwrap(), s.piles[1].top.unwrap()];
        synchronise(&rules, &seats, &mut s, &mut MatchRngs::of_deal(seed));
        assert_eq!(s.players[0].spit + s.players[1].spit, 10, "SPIT-STALL-7: one spit card each");
        nonadjacent += (0..2).filter(|&j| !ranks_adjacent_circular(s.piles[j].top.unwrap().rank(), tops[j].rank())).count();
    }
    assert!(nonadjacent > 0, "SPIT-STALL-7: spit cards land without being adjacent");
}

#[test]
fn no_spit_cards_anywhere_ends_the_round() {
    // SPIT-STALL-6 / SPIT-END-1 (b).
    let cfg = SpitConfig::default();
    let m = constant_model(100.0, 100.0, 300.0);
    let (p0, p1) = (bot(plays_only(), m), bot(plays_only(), m));
    let mut s = position([&["5c", "Qd"], &["5d"]], [0, 0], [Some("9h"), Some("2s")]);
    let mut rec = Recorder::default();
    let end = run_round(cfg, [&p0, &p1], &mut s, 1, &mut rec);
    assert_eq!((end.first_out, end.capped), (None, false), "SPIT-STALL-6: the round ends with no first-out player");
    assert!(rec.events().iter().any(|(_, e)| matches!(e, EngineEvent::Stalled)), "SPIT-END-1: (b) after a stall");
    assert_eq!(s.players[0].stock_count() + s.players[1].stock_count(), 3, "SPIT-STALL-6: both still hold stockpile cards");
}

#[test]
fn last_stockpile_card_ends_the_round() {
    // SPIT-END-1 (a) and SPIT-PLAY-6: the aim is to play every stockpile card first.
    let cfg = SpitConfig::default();
    let (p0, p1) = (bot(plays_only(), constant_model(100.0, 10.0, 50.0)), bot(plays_only(), constant_model(900.0, 10.0, 50.0)));
    let mut s = position([&["8c", "9c"], &["Kd", "Qd"]], [3, 3], [Some("7h"), Some("2s")]);
    let mut rec = Recorder::default();
    let end = run_round(cfg, [&p0, &p1], &mut s, 1, &mut rec);
    assert_eq!(end.first_out, Some(0), "SPIT-PLAY-6: P0 emptied his stockpiles first");
    assert_eq!(s.players[0].stock_count(), 0, "SPIT-END-1: (a) last stockpile card committed");
}

#[test]
fn alternate_colours_variant() {
    let cfg = SpitConfig { alternate_colors: true, ..SpitConfig::default() };
    let s = position([&["8c", "8h"], &["Kd"]], [3, 3], [Some("9s"), Some("7d")]);
    // 8c (black) fits the red 7d only; 8h (red) fits the black 9s only.
    let mut p = plays(&cfg, &s, 0);
    p.sort();
    assert_eq!(p, vec![(0, 1), (1, 0)], "SPIT-VAR-3: plays must change colour");
    assert_eq!(plays(&SpitConfig::default(), &s, 0).len(), 4, "SPIT-VAR-3: off by default");
}

#[test]
fn view_hides_face_down_cards() {
    // The view exposes only face-up cards and counts; a strategy cannot read hidden cards.
    let cfg = SpitConfig::default();
    let s = position([&["3/?", "Jc"], &["2/5h"]], [4, 4], [Some("4d"), Some("10s")]);
    let v = SpitView::new(&s, 0, &cfg);
    assert_eq!((v.top(true, 0), v.face_down(true, 0), v.top(false, 0), v.face_down(false, 0)), (None, 3, Some(card("5h")), 2));
    assert_eq!((v.spit_count(true), v.spit_count(false)), (4, 4));
}
