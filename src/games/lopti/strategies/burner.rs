//! `burner`: clears the pile whenever it can.

use super::{lowest_choice, strong_face_up_swap, Params, Registered, Strategy};
use crate::games::lopti::rules::{clear_cause, Action, ClearCause};
use crate::games::lopti::state::Swap;
use crate::games::lopti::view::View;
use crate::games::StrategyInfo;
use crate::rng::SimRng;

/// Makes a clearing play whenever one is legal, preferring to complete four of a kind,
/// then a run of four 3s, then a 10 (keeping 10s for when nothing else clears), each
/// with as few cards as possible; otherwise plays like `lowest`.
pub struct Burner;

/// Registry entry.
pub const ENTRY: Registered = Registered {
    info: StrategyInfo { name: "burner", about: "clears whenever it can (four of a kind, then four 3s, then a 10), otherwise like lowest" },
    build: |_: &Params| Box::new(Burner),
};

fn preference(cause: ClearCause) -> u8 {
    match cause {
        ClearCause::FourOfAKind => 0,
        ClearCause::ThreeRun => 1,
        ClearCause::Ten | ClearCause::SpecialRule => 2,
    }
}

impl Strategy for Burner {
    fn swap(&self, view: &View, _: &mut SimRng) -> Option<Swap> {
        strong_face_up_swap(view)
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn act(&self, view: &View, legal: &[Action], _: &mut SimRng) -> Action {
        let counts_as_clear = |c: ClearCause| c != ClearCause::ThreeRun || !view.pile.is_empty() || view.rules.empty_clear_bonus;
        legal
            .iter()
            .filter_map(|&a| match a {
                Action::Play { rank, count } => clear_cause(&view.pile, view.run3, rank, count)
                    .filter(|&c| counts_as_clear(c))
                    .map(|c| ((preference(c), count), a)),
                _ => None,
            })
            .min_by_key(|&(key, _)| key)
            .map_or_else(|| lowest_choice(legal), |(_, a)| a)
    }
}
