//! Random games with random flags: every invariant after every action (LOPTI-INV-1..9),
//! termination, determinism.

use super::Recorder;
use crate::games::lopti::config::{DrawTiming, Rules, SevenOnSeven, SwapOrder};
use crate::games::lopti::invariants::{check_state, InvariantChecker};
use crate::games::lopti::state::{play_round, State};
use crate::games::lopti::strategies::{Burner, Lowest, Random, Strategy};
use crate::games::lopti::ranks::TEN;
use crate::rng::rng_from;
use rand::RngExt;

fn random_rules(rng: &mut crate::rng::SimRng) -> Rules {
    Rules {
        seven_on_seven: if rng.random() { SevenOnSeven::Free } else { SevenOnSeven::EqualMore },
        draw_timing: if rng.random() { DrawTiming::EndOfTurn } else { DrawTiming::BeforeBonus },
        empty_clear_bonus: rng.random(),
        facedown_may_pickup: rng.random(),
        bonus_optional: rng.random(),
        swap_order: if rng.random() { SwapOrder::ClockwiseFromStarter } else { SwapOrder::Simultaneous },
        play_for_rankings: rng.random(),
        max_turns: 200_000,
    }
}

#[test]
fn invariants_hold_after_every_action_in_10000_random_games_per_player_count() {
    for n in 2..=5u8 {
        let mut flags = rng_from(n as u64);
        let (mut capped, mut checks, mut turns) = (0, 0u64, 0u64);
        for g in 0..10_000u64 {
            let rules = random_rules(&mut flags);
            let mut rec = Recorder { log: Vec::new(), inv: InvariantChecker::default() };
            let mut s = State::deal(n, (g % n as u64) as u8, rules, g, &mut rec);
            play_round(&mut s, &[&Random as &dyn Strategy; 5][..n as usize], &mut rng_from(g ^ 0xABCD), &mut rec);
            assert_eq!(
                rec.inv.error, None,
                "LOPTI-INV-1..9 (LOPTI-INV-1 LOPTI-INV-2 LOPTI-INV-3 LOPTI-INV-4 LOPTI-INV-5 LOPTI-INV-6 LOPTI-INV-7 \
                 LOPTI-INV-8 LOPTI-INV-9) after every action: {n} players, game {g}, {rules:?}"
            );
            capped += s.capped as u32;
            checks += rec.inv.checks;
            turns += s.counters.turns as u64;
            let outs = if rules.play_for_rankings { n - 1 } else { 1 };
            assert!(s.capped || s.finished >= outs, "LOPTI-WIN-4: the round ends when it should");
            assert!(s.capped || s.winner.is_some(), "LOPTI-WIN-1: an uncapped game has a winner");
            rec.log.clear();
        }
        assert_eq!(capped, 0, "{n} players: random games end without the cap");
        assert!(checks > turns, "{n} players: invariants checked after every action ({checks} checks, {turns} turns)");
    }
}

#[test]
fn each_invariant_check_can_fail() {
    let mut s = State::deal(3, 0, Rules::default(), 1, &mut crate::games::lopti::events::NoObserver);
    s.phase = crate::games::lopti::state::Phase::Play;
    assert!(check_state(&s).is_ok());
    assert!(s.draw.count(TEN) > 0, "this deal leaves a 10 in the draw pile");
    type Breaker = fn(&mut State);
    let broken: [(&str, Breaker); 7] = [
        ("LOPTI-INV-1", |s| s.draw.remove(s.draw.nth(0), 1)),
        ("LOPTI-INV-4", |s| {
            s.draw.remove(TEN, 1);
            s.pile.push(TEN, 1);
        }),
        ("LOPTI-INV-5", |s| s.run3 = 2),
        ("LOPTI-INV-6", |s| s.obligation = Some(1)),
        ("LOPTI-INV-7", |s| {
            let r = s.players[0].face_up.nth(0);
            s.players[0].face_up.remove(r, 1);
            s.players[0].hand.add(r, 1);
        }),
        ("LOPTI-INV-8", |s| {
            let r = s.draw.take_random(&mut rng_from(1));
            s.players[0].hand.add(r, 1);
        }),
        ("LOPTI-INV-9", |s| s.out_mask = 1),
    ];
    for (id, breaker) in broken {
        let mut b = s;
        breaker(&mut b);
        let e = check_state(&b).expect_err(id);
        assert!(e.starts_with(id), "{id}: got {e}");
    }
}

#[test]
fn changes_across_actions_are_checked_lopti_inv_3_7_8() {
    use crate::games::lopti::events::Observer;
    let s = State::deal(2, 0, Rules::default(), 1, &mut crate::games::lopti::events::NoObserver);
    let mut later = s;
    later.draw.remove(later.draw.nth(0), 1);
    let cases: [(&str, State, State); 3] = [
        ("LOPTI-INV-3", { let mut a = s; let c = a.draw.take_random(&mut rng_from(2)); a.out.add(c, 1); a }, s),
        ("LOPTI-INV-8", later, s),
        ("LOPTI-INV-7", { let mut a = s; a.players[0].face_down.take_random(&mut rng_from(2)); a }, s),
    ];
    for (id, before, after) in cases {
        let mut c = InvariantChecker::starting_from(&before);
        c.resolved(&after);
        assert!(c.error.as_deref().is_some_and(|e| e.starts_with(id)), "{id}: {:?}", c.error);
    }
}

#[test]
fn same_seeds_same_game_and_games_end_with_every_bot() {
    let bots: [&dyn Strategy; 3] = [&Lowest, &Burner, &Random];
    for seed in 0..200u64 {
        let play = || {
            let mut s = State::deal(3, 0, Rules::default(), seed, &mut crate::games::lopti::events::NoObserver);
            play_round(&mut s, &bots, &mut rng_from(seed + 1), &mut crate::games::lopti::events::NoObserver);
            (s.winner, s.capped, s.counters, s.players, s.finish)
        };
        let (a, b) = (play(), play());
        assert_eq!(a, b, "same seeds, same game");
        assert!(!a.1 && a.0.is_some(), "the game ends");
    }
}

/// `lowest`, declared non-deterministic so the engine does not look for cycles.
struct Undeclared;

impl Strategy for Undeclared {
    fn swap(&self, view: &crate::games::lopti::view::View, rng: &mut crate::rng::SimRng) -> Option<crate::games::lopti::state::Swap> {
        Lowest.swap(view, rng)
    }
    fn act(&self, view: &crate::games::lopti::view::View, legal: &[crate::games::lopti::rules::Action], rng: &mut crate::rng::SimRng) -> crate::games::lopti::rules::Action {
        Lowest.act(view, legal, rng)
    }
}

#[test]
fn repeated_positions_of_deterministic_bots_stop_the_game() {
    let rules = Rules { max_turns: 3000, ..Rules::default() };
    let play = |bots: &[&dyn Strategy], seed: u64| {
        let mut s = State::deal(2, 0, rules, seed, &mut crate::games::lopti::events::NoObserver);
        play_round(&mut s, bots, &mut rng_from(seed), &mut crate::games::lopti::events::NoObserver);
        s
    };
    let mut found = 0;
    for seed in 0..1500 {
        let fast = play(&[&Lowest, &Lowest], seed);
        let slow = play(&[&Undeclared, &Undeclared], seed);
        if fast.cycled {
            found += 1;
            assert!(fast.capped && fast.counters.turns < 3000, "stopped early as capped");
            assert!(slow.capped && !slow.cycled && slow.counters.turns == 3000, "without the check it runs into the cap");
        } else {
            assert_eq!((fast.winner, fast.counters), (slow.winner, slow.counters), "the check changes nothing else");
        }
    }
    assert!(found > 0, "some lowest-vs-lowest deals cycle");
}
