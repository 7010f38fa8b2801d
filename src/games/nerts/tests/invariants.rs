//! The invariant checker itself: a fresh deal passes NERTS-INV-3, and every check can
//! fail (NERTS-INV-1..9), so the random-play test really checks something.

use super::*;
use crate::games::nerts::invariants::{check_dealt, check_state};
use crate::rng::rng_from;

#[test]
fn nerts_inv_3_every_fresh_deal_has_the_dealt_shape() {
    let mut rng = rng_from(3);
    for g in 0..300 {
        let cfg = NertsConfig { jokers_per_deck: (g % 3) as u8, ..NertsConfig::default() };
        let s = NertsState::deal(&cfg, 2 + g % 7, &mut rng);
        check_dealt(&s).unwrap_or_else(|e| panic!("deal {g}: {e}"));
    }
    let mut s = NertsState::deal(&NertsConfig::default(), 2, &mut rng);
    s.layouts[1].waste_len = 3;
    assert!(check_dealt(&s).unwrap_err().starts_with("NERTS-INV-3"), "NERTS-INV-3: a waste at the deal is caught");
}

#[test]
fn each_state_check_can_fail() {
    let r = NertsRules::new(NertsConfig::default());
    let s = Build::new(&r.cfg, 2).found(1, 'h', 3).work(0, 0, "9c").work(0, 1, "7d").nerts(0, "2c 5s", true).waste(0, "Kd").stock(0, "Qd Jd").done();
    check_state(&s).unwrap();
    type Breaker = fn(&mut NertsState);
    let broken: [(&str, Breaker); 8] = [
        ("NERTS-INV-1", |s| s.layouts[0].sw_len -= 1),
        ("NERTS-INV-2", |s| s.layouts[0].work[2].push_all(&[53])),
        ("NERTS-INV-4", |s| {
            s.layouts[1].nerts_len = 0;
            s.layouts[1].nerts_up = true;
        }),
        ("NERTS-INV-5", |s| s.layouts[0].waste_len = s.layouts[0].sw_len + 1),
        // A packed pile holds a run of ranks by construction (`WorkPile`); its colours
        // and its held cards are checked.
        ("NERTS-INV-6", |s| {
            // The 8s from the cards set aside onto the 9c (the 7d set aside instead).
            s.on_found[0] = s.on_found[0] & !(1 << v("8s")) | 1 << v("7d");
            s.layouts[0].work[1] = crate::games::nerts::state::WorkPile::EMPTY;
            s.layouts[0].work[0].push_all(&[v("8s")]);
        }),
        ("NERTS-INV-6", |s| s.layouts[0].work[0].held = 2),
        ("NERTS-INV-7", |s| {
            let i = (0..s.found.len as usize).find(|&i| s.found.rank(i) == 3).unwrap();
            s.found.count[i] = 2;
        }),
        ("NERTS-INV-8", |s| {
            let i = (0..s.found.len as usize).find(|&i| s.found.rank(i) == 3).unwrap();
            s.found.count[i] = 4;
        }),
    ];
    let mut errors = Vec::new();
    for (id, breaker) in broken {
        let mut b = s;
        breaker(&mut b);
        let e = check_state(&b).expect_err(id);
        assert!(e.starts_with(id), "{id}: got {e}");
        errors.push(e);
    }
    assert!(errors[4].ends_with("8s on 9c is not one lower in the other colour"), "the run's colours: got {}", errors[4]);
}

#[test]
fn each_change_check_can_fail() {
    let r = NertsRules::new(NertsConfig { partnerships: super::super::config::Partnerships::None, ..NertsConfig::default() });
    let s = Build::new(&r.cfg, 2).found(1, 'h', 3).work(0, 0, "9c").nerts(0, "2c 4h", true).waste(0, "8d").stock(0, "Qd Jd 10c").done();
    let mut played = s;
    play(&r, &mut played, 0, to_found(Source::Nerts, "4h"), SEC);
    let mut swapped = s;
    swapped.layouts[0].sw.swap(1, 2);
    let mut back = played; // the 4h leaves the foundation for an empty work slot
    back.on_found[0] &= !(1 << v("4h"));
    let i = (0..back.found.len as usize).find(|&i| back.found.rank(i) == 4).unwrap();
    back.found.top[i] -= 1;
    back.found.count[i] -= 1;
    back.found.top_decks[i] = 2;
    back.found.refresh_needs();
    back.layouts[0].work[1].push_all(&[v("4h")]);
    back.layouts[0].refresh_work();
    check_state(&back).unwrap();
    let lift = Step::Lift { seat: 0, action: NertsAction::FlipStock };
    let land = Step::Land { seat: 0, action: to_found(Source::Nerts, "4h"), landing: Landing::Placed };
    let cases: [(&str, NertsState, NertsState, Step); 4] =
        [("NERTS-INV-4", played, s, lift), ("NERTS-INV-5", s, swapped, lift), ("NERTS-INV-7", s, played, lift), ("NERTS-INV-9", played, back, lift)];
    for (id, before, after, step) in cases {
        let mut c = InvariantChecker::starting_from(&before);
        let e = c.step(&after, step).expect_err(id);
        assert!(e.starts_with(id), "{id}: got {e}");
    }
    let mut ok = InvariantChecker::starting_from(&s);
    ok.step(&played, land).expect("the same change by the foundation play is fine");
    let mut rot = InvariantChecker::starting_from(&s);
    let mut rotated = s;
    rotated.layouts[0].rotate();
    rot.step(&rotated, Step::Land { seat: 0, action: NertsAction::Rotate, landing: Landing::Placed }).expect("NERTS-INV-5: a rotation may reorder the stock");
}

#[test]
fn the_state_is_a_small_copy_value() {
    fn copy<T: Copy>() {}
    copy::<NertsState>();
    let size = std::mem::size_of::<NertsState>();
    let (layout, pile) = (std::mem::size_of::<crate::games::nerts::state::Layout>(), std::mem::size_of::<crate::games::nerts::state::WorkPile>());
    eprintln!("NertsState: {size} bytes for 8 layouts of {layout} (work piles of {pile}) and 48 foundations");
    assert!(size <= 1480, "NertsState grew to {size} bytes (work piles packed in 10 bytes, 2 bytes of stack targets a layout, the match totals on the score sheet take 32)");
    assert!(std::mem::size_of::<NertsAction>() <= 8);
}
