//! `lowest`: sheds its lowest ordinary cards and saves the specials.

use super::{lowest_choice, strong_face_up_swap, Registered, Strategy};
use crate::games::lopti::rules::{Action, Actions};
use crate::games::lopti::state::Swap;
use crate::games::lopti::view::View;
use crate::games::StrategyInfo;
use crate::rng::SimRng;

/// Plays all its cards of the lowest legal ordinary rank; only when no ordinary play is
/// legal, the first special rank it may play in the order 2, 7, 3, 10, as few of its
/// cards as legal (not necessarily one: two 2s on a 2); takes the pile only when it
/// must. At setup it moves its most useful hand card face-up for the least useful
/// face-up card.
pub struct Lowest;

/// Registry entry.
pub const ENTRY: Registered = Registered {
    info: StrategyInfo { name: "lowest", about: "plays the lowest legal ordinary rank (all copies), saves 2/3/7/10, picks up only when forced", params: &[] },
    build: |_, _| Box::new(Lowest),
};

impl Strategy for Lowest {
    fn swap(&self, view: &View, _: &mut SimRng) -> Option<Swap> {
        strong_face_up_swap(view)
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn act(&self, _: &View, legal: &Actions, _: &mut SimRng) -> Action {
        lowest_choice(legal)
    }
}
