//! The card-count invariants of lopti.md §19 (LOPTI-INV-1..9), checked on every resolved
//! state by an observer, for tests and fuzzing.
//!
//! Special rules (§13) add actions, so two invariants stated for the base rules count them
//! in: a hand may grow beyond 3 after cards came through a special rule as after a
//! pick-up, and the draw pile may shrink by the cards special rules made players draw on
//! top of the one basic draw per turn (LOPTI-INV-8). No rule in the catalog brings
//! cleared cards back, so LOPTI-INV-3 stays as it is.

use super::config::{Rules, SevenOnSeven};
use super::events::{Event, Observer};
use super::rules::{Clears, Plays};
use super::ranks::{Ranks, TEN, THREE};
use super::state::{Phase, State};
use super::entry::MAX_SEATS;

/// Checks the invariants that hold in any resolved state (LOPTI-INV-1, 4, 5, 6, 7, 8, 9).
pub fn check_state(s: &State) -> Result<(), String> {
    let n = s.n as usize;
    let mut total = s.draw.len() + s.pile.cards().len() + s.out.len();
    let mut all = s.draw;
    all.add_all(s.pile.cards());
    all.add_all(s.out);
    for p in &s.players[..n] {
        total += p.cards();
        for z in [p.hand, p.face_up, p.face_down] {
            all.add_all(z);
        }
    }
    if total != 52 || all != Ranks::DECK {
        return Err(format!("LOPTI-INV-1: {total} cards in play, {all:?}"));
    }
    if s.pile.cards().count(THREE) > 0 || s.pile.cards().count(TEN) > 0 || s.pile.top_run() >= 4 {
        return Err(format!("LOPTI-INV-4: pile {:?}", s.pile));
    }
    if s.run3 >= 4 || s.run3 > s.out.count(THREE) {
        return Err(format!("LOPTI-INV-5: run3 {} with {} 3s out", s.run3, s.out.count(THREE)));
    }
    if let Some(o) = s.obligation {
        let on_turn = s.phase != Phase::Play || s.current == o;
        if s.pile.is_empty() || s.run3 == 0 || s.is_out(o) || o >= s.n || !on_turn {
            return Err(format!("LOPTI-INV-6: obligation on P{o}, pile {:?}, run3 {}", s.pile, s.run3));
        }
    }
    for (seat, p) in s.players[..n].iter().enumerate() {
        if !matches!(p.face_up.len(), 0 | 3) {
            return Err(format!("LOPTI-INV-7: P{seat} has {} face-up cards", p.face_up.len()));
        }
        if (s.picked_mask | s.received_mask) & (1 << seat) == 0 && p.hand.len() > 3 {
            return Err(format!("LOPTI-INV-8: P{seat} never picked up but holds {} cards", p.hand.len()));
        }
        if s.is_out(seat as u8) != (p.cards() == 0) {
            return Err(format!("LOPTI-INV-9: P{seat} out={} with {} cards", s.is_out(seat as u8), p.cards()));
        }
    }
    Ok(())
}

/// Checks what the state keeps up to date instead of recomputing it (the pile's legal
/// plays and four-of-a-kind clears, [`Pile::allowed`](super::pile::Pile::allowed) and
/// [`Pile::four`](super::pile::Pile::four)) against a recomputation from scratch, for
/// both 3-obligation cases and both `seven_on_seven` rules.
pub fn check_kept(s: &State) -> Result<(), String> {
    for seven_on_seven in [SevenOnSeven::EqualMore, SevenOnSeven::Free] {
        let rules = Rules { seven_on_seven, ..s.rules };
        for obligated in [false, true] {
            let (kept, fresh) = (Plays::allowed(&s.pile, obligated, &rules), Plays::allowed_from_scratch(&s.pile, obligated, &rules));
            if kept != fresh {
                return Err(format!("kept legal plays {kept:?} on {:?} (obligated {obligated}, {seven_on_seven:?}), recomputed {fresh:?}", s.pile));
            }
        }
    }
    let (kept, fresh) = (Plays(s.pile.four()), Clears::four_from_scratch(&s.pile));
    if kept != fresh {
        return Err(format!("kept four-of-a-kind clears {kept:?} on {:?}, recomputed {fresh:?}", s.pile));
    }
    Ok(())
}

/// Checks every invariant after every resolved action, and the ones about changes
/// (LOPTI-INV-2, 3, 7, 8, 9) across events. Records the first violation.
#[derive(Default)]
pub struct InvariantChecker {
    /// The first violation seen, if any.
    pub error: Option<String>,
    /// Resolved states checked.
    pub checks: u64,
    out: u32,
    draw: u32,
    draw_at_turn_start: Option<u32>,
    rule_draws: u32,
    face_down: [u32; MAX_SEATS],
    last_was_legal_play: bool,
}

impl InvariantChecker {
    /// A checker for a game that starts from `s` (a hand-built position) rather than a deal.
    pub fn starting_from(s: &State) -> InvariantChecker {
        let mut c = InvariantChecker { out: s.out.len(), draw: s.draw.len(), ..Default::default() };
        for (seat, p) in s.players[..s.n as usize].iter().enumerate() {
            c.face_down[seat] = p.face_down.len();
        }
        c
    }

    fn fail(&mut self, msg: String) {
        self.error.get_or_insert(msg);
    }

    fn check_changes(&mut self, s: &State) {
        if s.out.len() < self.out {
            self.fail(format!("LOPTI-INV-3: out of round fell from {} to {}", self.out, s.out.len()));
        }
        if s.draw.len() > self.draw {
            self.fail(format!("LOPTI-INV-8: draw pile grew from {} to {}", self.draw, s.draw.len()));
        }
        for (seat, p) in s.players[..s.n as usize].iter().enumerate() {
            if p.face_down.len() > self.face_down[seat] {
                self.fail(format!("LOPTI-INV-7: P{seat} face-down count grew"));
            }
            self.face_down[seat] = p.face_down.len();
        }
        self.out = s.out.len();
        self.draw = s.draw.len();
    }
}

impl Observer for InvariantChecker {
    fn event(&mut self, s: &State, ev: Event) {
        if let Err(e) = check_kept(s) {
            self.fail(e);
        }
        match ev {
            Event::Deal { seat, hand, face_up, face_down } => {
                if (hand.len(), face_up.len(), face_down.len()) != (3, 3, 3) || s.draw.len() != 52 - 9 * s.n as u32 {
                    self.fail(format!("LOPTI-INV-2: P{seat} dealt {hand:?}/{face_up:?}/{face_down:?}, draw pile {}", s.draw.len()));
                }
                if !s.out.is_empty() {
                    self.fail("LOPTI-INV-3: cards out of round at the deal".into());
                }
                self.out = 0;
                self.draw = s.draw.len();
                self.face_down[seat as usize] = 3;
            }
            Event::Reveal { seat, .. } => {
                let p = &s.players[seat as usize];
                if !p.hand.is_empty() || !p.face_up.is_empty() {
                    self.fail(format!("LOPTI-INV-7: P{seat} played face-down holding {:?} / {:?}", p.hand, p.face_up));
                }
            }
            Event::TurnStart { .. } | Event::End { .. } => {
                if let Some(start) = self.draw_at_turn_start {
                    if start > s.draw.len() + 1 + self.rule_draws {
                        self.fail(format!("LOPTI-INV-8: draw pile shrank from {start} to {} in one turn", s.draw.len()));
                    }
                }
                self.draw_at_turn_start = Some(s.draw.len());
                self.rule_draws = 0;
            }
            Event::Draw { by_rule: true, .. } => self.rule_draws += 1,
            Event::Out { seat, .. } if !self.last_was_legal_play || s.players[seat as usize].cards() != 0 => {
                self.fail(format!("LOPTI-INV-9: P{seat} went out other than by a legal play emptying his zones"));
            }
            _ => {}
        }
        self.last_was_legal_play = match ev {
            Event::Play { .. } => true,
            // What a special rule adds between the play and the player going out.
            Event::Obligation { .. }
            | Event::Clear { .. }
            | Event::Out { .. }
            | Event::RuleFires { .. }
            | Event::HookDepthLimit { .. }
            | Event::Draw { by_rule: true, .. }
            | Event::Give { .. }
            | Event::Swap { .. } => self.last_was_legal_play,
            _ => false,
        };
    }

    fn resolved(&mut self, s: &State) {
        self.checks += 1;
        self.check_changes(s);
        if let Err(e) = check_state(s).and_then(|()| check_kept(s)) {
            self.fail(e);
        }
    }
}
