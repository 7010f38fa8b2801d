//! `greedy`: the first legal play in a fixed scan order (hand cards lowest first, pile 0
//! before pile 1), else a draw.

use super::{Registered, SpeedStrategy};
use crate::games::speed::moves::SpeedMoves;
use crate::games::speed::rules::SpeedAction;
use crate::games::speed::view::SpeedView;
use crate::games::StrategyInfo;
use crate::rng::SimRng;

/// First-legal-action play.
pub struct Greedy;

/// Registry entry.
pub const REGISTERED: Registered = Registered {
    info: StrategyInfo { name: "greedy", about: "first legal play (lowest card, pile 0 first), else draws", params: &[] },
    make: |_| Box::new(Greedy),
};

impl SpeedStrategy for Greedy {
    fn choose(&self, _: &SpeedView, legal: &[SpeedAction], _: &mut SimRng) -> Option<SpeedAction> {
        // Legal actions come as plays in card order, then the draw.
        legal.first().copied()
    }
    fn choose_moves(&self, _: &SpeedView, moves: &SpeedMoves, _: &mut SimRng) -> Option<SpeedAction> {
        moves.iter().next()
    }
    fn reads_hand_memory(&self) -> bool {
        false
    }
}
