//! `random`: uniform over the legal actions, aimless moves included; random slaps.

use super::{Registered, SpitStrategy};
use crate::games::spit::rules::SpitAction;
use crate::games::spit::view::SpitView;
use crate::games::StrategyInfo;
use crate::rng::SimRng;
use rand::RngExt;

/// Uniformly random play.
pub struct Random;

/// Registry entry.
pub const REGISTERED: Registered = Registered {
    info: StrategyInfo { name: "random", about: "uniform over legal actions (aimless moves included); slaps a random pile", params: &[] },
    make: |_| Box::new(Random),
};

impl SpitStrategy for Random {
    fn choose(&self, _: &SpitView, legal: &[SpitAction], rng: &mut SimRng) -> Option<SpitAction> {
        Some(legal[rng.random_range(0..legal.len())])
    }
    fn slap_target(&self, _: &SpitView, rng: &mut SimRng) -> usize {
        rng.random_range(0..2)
    }
    fn spit_target(&self, _: &SpitView, rng: &mut SimRng) -> usize {
        rng.random_range(0..2)
    }
    fn give_away(&self, _: &SpitView, rng: &mut SimRng) -> usize {
        rng.random_range(0..2)
    }
}
