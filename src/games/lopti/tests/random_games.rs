//! Random games with random flags: every invariant after every action (LOPTI-INV-1..9),
//! termination, determinism.

use super::Recorder;
use crate::games::lopti::config::{DrawTiming, Rules, SevenOnSeven, SwapOrder};
use crate::games::lopti::invariants::{check_state, InvariantChecker};
use crate::games::lopti::events::{Event, Observer};
use crate::games::lopti::round::{play_round, play_round_remembering, Dice};
use crate::games::lopti::state::State;
use crate::runner::Ending;
use crate::games::lopti::strategies::{Burner, Lowest, Random, Strategy};
use crate::games::lopti::ranks::TEN;
use crate::rng::{rng_from, MatchSeeds};
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
            let mut s = State::deal(n, (g % n as u64) as u8, rules, &MatchSeeds::of_deal(g), &mut rec);
            play_round(&mut s, &[&Random as &dyn Strategy; 5][..n as usize], Dice::Shared(&mut rng_from(g ^ 0xABCD)), &mut rec).expect("built-in bots choose legal actions");
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
fn a_deal_is_the_same_whether_its_cards_are_kept_or_shuffled_again() {
    use crate::games::lopti::events::NoObserver;
    // `State::deal` keeps the last deal's cards per thread; a fresh shuffle must agree,
    // whether the seed or the number of players changes from one call to the next.
    let fresh = |n: u8, g: u64| {
        let seeds = MatchSeeds::of_deal(g);
        State::deal_with(n, 1, Rules::default(), &mut seeds.deal_rng(), seeds.hidden(), &mut NoObserver)
    };
    for g in 0..300u64 {
        for n in 2..=5u8 {
            for _ in 0..2 {
                assert_eq!(State::deal(n, 1, Rules::default(), &MatchSeeds::of_deal(g), &mut NoObserver), fresh(n, g), "deal {g}, {n} players");
            }
        }
    }
    for n in 2..=5u8 {
        for g in 0..300u64 {
            assert_eq!(State::deal(n, 1, Rules::default(), &MatchSeeds::of_deal(g), &mut NoObserver), fresh(n, g), "deal {g}, {n} players");
        }
    }
}

#[test]
fn the_next_active_seat_is_the_first_one_clockwise_not_out_lopti_turn_1() {
    // `State::next_active` works on the seats as bits; the walk round the table it
    // replaces, for every table size, seat and set of seats out.
    let walk = |s: &State, seat: u8| {
        let mut t = seat;
        loop {
            t = (t + 1) % s.n;
            if !s.is_out(t) || t == seat {
                return t;
            }
        }
    };
    for n in 2..=5u8 {
        let mut s = State::deal(n, 0, Rules::default(), &MatchSeeds::of_deal(3), &mut crate::games::lopti::events::NoObserver);
        for out in 0..1u8 << n {
            s.out_mask = out;
            for seat in 0..n {
                assert_eq!(s.next_active(seat), walk(&s, seat), "LOPTI-TURN-1: {n} players, out {out:b}, after seat {seat}");
            }
        }
    }
}

#[test]
fn each_invariant_check_can_fail() {
    let mut s = State::deal(3, 0, Rules::default(), &MatchSeeds::of_deal(1), &mut crate::games::lopti::events::NoObserver);
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
    let s = State::deal(2, 0, Rules::default(), &MatchSeeds::of_deal(1), &mut crate::games::lopti::events::NoObserver);
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
            let mut s = State::deal(3, 0, Rules::default(), &MatchSeeds::of_deal(seed), &mut crate::games::lopti::events::NoObserver);
            play_round(&mut s, &bots, Dice::Shared(&mut rng_from(seed + 1)), &mut crate::games::lopti::events::NoObserver).expect("built-in bots choose legal actions");
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
    fn act(&self, view: &crate::games::lopti::view::View, legal: &crate::games::lopti::rules::Actions, rng: &mut crate::rng::SimRng) -> crate::games::lopti::rules::Action {
        Lowest.act(view, legal, rng)
    }
}

/// Records the position at every turn start (counters cleared) and the `end` event.
#[derive(Default)]
struct Positions {
    at_turn_start: Vec<State>,
    end: Option<Event>,
}

impl Observer for Positions {
    fn event(&mut self, s: &State, ev: Event) {
        match ev {
            Event::TurnStart { .. } => {
                let mut p = *s;
                p.counters = Default::default();
                self.at_turn_start.push(p);
            }
            Event::End { .. } => self.end = Some(ev),
            _ => {}
        }
    }
}

/// The first turn whose starting position repeats an earlier one, and that earlier
/// turn (turns count from 1).
fn first_repeat(positions: &[State]) -> Option<(u32, u32)> {
    (0..positions.len()).find_map(|j| (0..j).find(|&i| positions[i] == positions[j]).map(|i| (j as u32 + 1, i as u32 + 1)))
}

/// Plays deal `seed` with two players, `bots`, at most 3000 turns, remembering `CAP`
/// positions per stretch.
fn play_recorded<const CAP: usize>(bots: &[&dyn Strategy], seed: u64) -> (State, Positions) {
    let rules = Rules { max_turns: 3000, ..Rules::default() };
    let mut rec = Positions::default();
    let mut s = State::deal(bots.len() as u8, 0, rules, &MatchSeeds::of_deal(seed), &mut rec);
    play_round_remembering::<_, CAP>(&mut s, bots, Dice::Shared(&mut rng_from(seed)), &mut rec).expect("built-in bots choose legal actions");
    (s, rec)
}

#[test]
fn a_repeated_position_stops_the_game_at_its_first_repeat_as_cycled() {
    let mut found = 0;
    for seed in 0..1500 {
        let (fast, seen) = play_recorded::<1024>(&[&Lowest, &Lowest], seed);
        let (slow, all) = play_recorded::<1024>(&[&Undeclared, &Undeclared], seed);
        match first_repeat(&all.at_turn_start) {
            Some((turn, earlier)) => {
                found += 1;
                assert!(fast.cycled && !fast.capped, "deal {seed}: stopped as cycled, not capped");
                assert_eq!(fast.counters.turns, turn, "deal {seed}: stopped at the start of the first turn that repeats a position");
                assert_eq!(seen.at_turn_start[..], all.at_turn_start[..turn as usize], "deal {seed}: the same game up to the stop");
                let end = Event::End { winner: None, capped: false, cycled: true, turns: turn, repeat_of: Some(earlier) };
                assert_eq!(seen.end, Some(end), "deal {seed}: the end event names both turns and no winner");
                assert_eq!((fast.ending(), fast.match_winner()), (Ending::Cycled, None));
                assert!(slow.capped && !slow.cycled && slow.counters.turns == 3000, "deal {seed}: without the check it runs into the cap");
                assert_eq!(slow.ending(), Ending::Capped);
            }
            None => {
                assert!(!fast.cycled && !fast.capped, "deal {seed}: no repeat, no stop");
                assert_eq!((fast.winner, fast.counters), (slow.winner, slow.counters), "deal {seed}: the check changes nothing else");
            }
        }
    }
    eprintln!("{found} of 1500 deals cycle");
    assert!(found > 0, "some lowest-vs-lowest deals cycle");
}

#[test]
fn a_stretch_longer_than_the_memory_still_stops_on_a_repeated_position() {
    // With room for 2 positions per stretch, the check falls back to Brent's algorithm:
    // later than the first repeat, but still on a position that repeats.
    let (mut found, mut later) = (0, 0);
    for seed in 0..1500 {
        let (small, seen) = play_recorded::<2>(&[&Lowest, &Lowest], seed);
        let (exact, _) = play_recorded::<1024>(&[&Lowest, &Lowest], seed);
        assert_eq!(small.cycled, exact.cycled, "deal {seed}: the same games cycle");
        if small.cycled {
            found += 1;
            let Some(Event::End { turns, repeat_of: Some(earlier), .. }) = seen.end else { panic!("deal {seed}: no end event") };
            assert!(turns >= exact.counters.turns && earlier < turns, "deal {seed}: not before the first repeat");
            later += (turns > exact.counters.turns) as u32;
            assert_eq!(seen.at_turn_start[earlier as usize - 1], seen.at_turn_start[turns as usize - 1], "deal {seed}: a real repeat");
        } else {
            assert_eq!((small.winner, small.counters), (exact.winner, exact.counters));
        }
    }
    eprintln!("{found} cycled, {later} stopped later than the first repeat");
    assert!(found > 0 && later > 0, "the fallback is exercised");
}
