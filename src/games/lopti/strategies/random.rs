//! `random`: uniform choices, reproducible by other programs from `cardsim legal lopti`.

use super::{Registered, Strategy};
use crate::games::lopti::rules::{Action, Actions};
use crate::games::lopti::state::Swap;
use crate::games::lopti::view::View;
use crate::games::StrategyInfo;
use crate::rng::SimRng;
use rand::RngExt;

/// Picks uniformly: at setup among no swap and the nine (hand position, face-up position)
/// swaps; at every decision among the lines `cardsim legal lopti` prints for its view;
/// among its hand cards when a special rule makes it give one.
pub struct Random;

/// Registry entry.
pub const ENTRY: Registered = Registered {
    info: StrategyInfo { name: "random", about: "uniform over no swap + the 9 swaps, then uniform over the legal action lines", params: &[] },
    build: |_, _| Box::new(Random),
};

impl Strategy for Random {
    fn swap(&self, view: &View, rng: &mut SimRng) -> Option<Swap> {
        let (hand, face_up) = (view.hand(), view.face_up());
        let (h, f) = (hand.len(), face_up.len());
        let k = rng.random_range(0..1 + h * f);
        (k > 0).then(|| Swap { hand: hand.nth((k - 1) / f), face_up: face_up.nth((k - 1) % f) })
    }

    fn act(&self, _: &View, legal: &Actions, rng: &mut SimRng) -> Action {
        legal[rng.random_range(0..legal.len())]
    }

    /// Uniform over its hand cards.
    fn give(&self, view: &View, rng: &mut SimRng) -> crate::games::lopti::ranks::Rank {
        let hand = view.hand();
        hand.nth(rng.random_range(0..hand.len()))
    }

    /// Uniform among no swap and the (hand card, face-up card) pairs, as at setup.
    fn rule_swap(&self, view: &View, rng: &mut SimRng) -> Option<Swap> {
        self.swap(view, rng)
    }
}
