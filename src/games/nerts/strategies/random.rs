//! `random`: uniform over the legal actions.

use super::{NertsStrategy, Registered};
use crate::games::nerts::rules::NertsAction;
use crate::games::nerts::view::NertsView;
use crate::games::StrategyInfo;
use crate::rng::SimRng;
use rand::RngExt;

/// Uniformly random play.
pub struct Random;

/// Registry entry.
pub const REGISTERED: Registered = Registered {
    info: StrategyInfo { name: "random", about: "uniform over the legal actions (a bounded list of at most 64)", params: &[] },
    make: |_| Box::new(Random),
};

impl NertsStrategy for Random {
    fn choose(&self, _: &NertsView, legal: &[NertsAction], rng: &mut SimRng) -> Option<NertsAction> {
        Some(legal[rng.random_range(0..legal.len())])
    }
}
