//! Nerts on the shared real-time engine: [`NertsRules`] as [`RealtimeRules`], a thin
//! wrapper over the rules core ([`super::rules`]).
//!
//! - **Legal actions.** The core lists up to [`NERTS_MAX_ACTIONS`] (384) actions; the
//!   engine holds [`MAX_ACTIONS`] (64). A player is offered a bounded subset, chosen in
//!   three tiers in the core's order: (1) every action that needs no Joker declaration
//!   and is not a stack moved into an empty slot (at most 40: 6 foundation plays, 8
//!   builds and 2 fills from the Nerts and waste tops, 12 stack moves onto piles, 8
//!   slip-unders, 2 flips, rotate, call), (2) stacks moved into an empty slot, (3)
//!   actions with a Joker declaration, until the list is full. Random play saw at most
//!   55 actions, so the cut only matters with Jokers or long piles beside an empty slot.
//!   Stuck detection (NERTS-STUCK-1) is the core's and does not depend on the cut.
//! - **Motions** (NERTS-RT-3): a card to a foundation is a [`Motion::Play`] (to the
//!   common area); the Nerts or waste top onto a work pile, a stack move, a fill and a
//!   slip-under are a [`Motion::Fill`] (between one's own piles); FLIP_N, FLIP3 and
//!   ROTATE are a [`Motion::Flip`]; RECYCLE (the waste picked up and turned over) is a
//!   [`Motion::Draw`]; the call is a [`Motion::Slap`] (a hand on the table with the
//!   shout). A rejected card goes back with [`Motion::Return`] (NERTS-RT-5).
//! - **Global reset** (NERTS-STUCK-4): when every hand is idle and nobody has progress,
//!   the engine asks [`RealtimeRules::stall`]: [`Stall::Synchronised`] runs the core's
//!   reset for every layout, every seat takes part (a [`Motion::Sync`]); after a call,
//!   after a reset with no progress since, or after the last reset allowed, the deal is
//!   over ([`Stall::RoundOver`]).
//! - **Partners** on a shared layout (NERTS-PART-3): two actions chosen at one instant
//!   that use a common pile conflict ([`RealtimeRules::conflicts`]); public chance lets
//!   one proceed, and the other chooses again on the locked layout.

use super::rules::{NertsAction, NertsActions, NertsRules, Source, NERTS_MAX_ACTIONS};
use super::state::{is_joker, NertsState};
use crate::reaction::Motion;
use crate::realtime::{ActionList, Landing, Micros, NoDecision, RealtimeRules, Stall, MAX_ACTIONS, MAX_PLAYERS};
use crate::rng::SimRng;

/// The tier of an action in the bounded list (see the module documentation).
fn tier(s: &NertsState, p: usize, a: NertsAction) -> u8 {
    let joker_source = |from: Source| {
        let l = s.layout(p);
        match from {
            Source::Nerts => l.nerts_top().is_some_and(is_joker),
            Source::Waste => l.waste_top().is_some_and(is_joker),
            Source::Work { pile, depth } => is_joker(l.work[pile as usize].card(depth as usize)),
        }
    };
    match a {
        NertsAction::Build { decl, .. } | NertsAction::SlipUnder { decl, .. } if decl != super::rules::Decl::NONE => 2,
        NertsAction::ToFoundation { from, .. } if joker_source(from) => 2,
        NertsAction::Fill { from: Source::Work { .. }, .. } => 1,
        _ => 0,
    }
}

/// Writes the bounded subset of seat `p`'s legal actions into `out` (see the module
/// documentation); `all` is scratch space for the core's full list.
pub fn bounded_legal<const N: usize>(rules: &NertsRules, s: &NertsState, p: usize, out: &mut arrayvec::ArrayVec<NertsAction, N>) {
    if s.jokers == 0 && out.is_empty() && super::standard::legal_if_fits(rules, s, p, out) {
        // The whole list fits: written in place, in the core's order.
        return;
    }
    let mut all = NertsActions::new();
    rules.legal(s, p, &mut all);
    if all.len() <= N {
        out.extend(all.iter().copied()); // copies the listed actions only, not the whole array
        return;
    }
    for t in 0..3 {
        for &a in all.iter().filter(|&&a| tier(s, p, a) == t) {
            if out.is_full() {
                return;
            }
            out.push(a);
        }
    }
}

const _: () = assert!(NERTS_MAX_ACTIONS >= MAX_ACTIONS);

impl RealtimeRules for NertsRules {
    type State = NertsState;
    type Action = NertsAction;
    type Decision = NoDecision;
    type Choice = NoDecision;
    type Moves = ActionList<NertsAction>;

    fn moves(&self, s: &NertsState, p: usize, out: &mut ActionList<NertsAction>) {
        out.clear();
        bounded_legal(self, s, p, out);
    }
    fn legal(&self, s: &NertsState, p: usize, out: &mut ActionList<NertsAction>) {
        bounded_legal(self, s, p, out);
    }
    fn is_progress(&self, _: &NertsState, _: usize, a: NertsAction) -> bool {
        NertsRules::is_progress(self, a)
    }
    fn has_progress(&self, s: &NertsState, p: usize) -> bool {
        NertsRules::has_progress(self, s, p)
    }
    /// Held cards stay in their piles and the stuck test counts them as back in place.
    fn progress_ignores_flight(&self) -> bool {
        true
    }
    fn motion(&self, a: NertsAction) -> Motion {
        match a {
            NertsAction::ToFoundation { .. } => Motion::Play,
            NertsAction::Build { .. } | NertsAction::Fill { .. } | NertsAction::SlipUnder { .. } => Motion::Fill,
            NertsAction::FlipNerts | NertsAction::FlipStock | NertsAction::Rotate => Motion::Flip,
            NertsAction::Recycle => Motion::Draw,
            NertsAction::CallNerts => Motion::Slap,
        }
    }
    fn candidates(&self, s: &NertsState, p: usize) -> u32 {
        NertsRules::candidates(self, s, p)
    }
    /// Two hands on one layout reaching for a common pile (NERTS-PART-3).
    fn conflicts(&self, s: &NertsState, p: usize, a: NertsAction, q: usize, b: NertsAction) -> bool {
        s.layout_of[p] == s.layout_of[q] && a.resources() & b.resources() != 0
    }
    fn lift(&self, s: &mut NertsState, p: usize, a: NertsAction) {
        NertsRules::lift(self, s, p, a)
    }
    fn land(&self, s: &mut NertsState, p: usize, a: NertsAction, now: Micros) -> Landing {
        NertsRules::land(self, s, p, a, now)
    }
    fn put_back(&self, s: &mut NertsState, p: usize, a: NertsAction) {
        NertsRules::put_back(self, s, p, a)
    }
    fn still_legal(&self, s: &NertsState, p: usize, a: NertsAction, now: Micros) -> bool {
        NertsRules::still_legal(self, s, p, a, now)
    }
    /// Nerts players do not call off a card whose target changed: it lands and is
    /// rejected, and goes back (NERTS-RT-5).
    fn abort_allowed(&self) -> bool {
        false
    }
    fn stall(&self, s: &NertsState) -> Stall {
        NertsRules::stall(self, s)
    }
    fn synchronise(&self, s: &mut NertsState, _: &[Option<NoDecision>; MAX_PLAYERS], _: &mut SimRng) -> [bool; MAX_PLAYERS] {
        let took = NertsRules::synchronise(self, s);
        let mut out = [false; MAX_PLAYERS];
        for (o, t) in out.iter_mut().zip(took) {
            *o = t;
        }
        out
    }
}
