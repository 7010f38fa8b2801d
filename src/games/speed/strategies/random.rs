//! `random`: uniform over the legal actions.

use super::{Registered, SpeedStrategy};
use crate::games::speed::rules::SpeedAction;
use crate::games::speed::view::SpeedView;
use crate::games::StrategyInfo;
use crate::rng::SimRng;
use rand::RngExt;

/// Uniformly random play.
pub struct Random;

/// Registry entry.
pub const REGISTERED: Registered = Registered {
    info: StrategyInfo { name: "random", about: "uniform over legal actions (plays and draws)", params: &[] },
    make: |_| Box::new(Random),
};

impl SpeedStrategy for Random {
    fn choose(&self, _: &SpeedView, legal: &[SpeedAction], rng: &mut SimRng) -> Option<SpeedAction> {
        Some(legal[rng.random_range(0..legal.len())])
    }
    fn reads_hand_memory(&self) -> bool {
        false
    }
}
