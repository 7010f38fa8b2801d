//! Speed strategies behind one trait, and their registry. Adding a strategy is one new
//! file in this folder plus one line in [`REGISTRY`].

mod greedy;
mod random;
mod smart;

use super::rules::{SpeedAction, SpeedRules};
use super::state::SpeedState;
use super::view::SpeedView;
use crate::realtime::{NoDecision, RealtimePolicy};
use crate::rng::SimRng;

/// A Speed policy. It sees only a [`SpeedView`].
pub trait SpeedStrategy: Send + Sync {
    /// Picks one of `legal` (never empty) or `None` to stay idle. Every Speed action is
    /// a progress action, so a policy must pick one (SPIT-RT-9 via SPEED-RT-1).
    fn choose(&self, view: &SpeedView, legal: &[SpeedAction], rng: &mut SimRng) -> Option<SpeedAction>;
}

/// A Speed strategy as the engine asks it: on the player's view. Speed's rules ask no
/// decision besides moves.
impl RealtimePolicy<SpeedRules> for dyn SpeedStrategy {
    fn choose(&self, rules: &SpeedRules, s: &SpeedState, p: usize, legal: &[SpeedAction], rng: &mut SimRng) -> Option<SpeedAction> {
        SpeedStrategy::choose(self, &SpeedView::new(s, p, &rules.cfg), legal, rng)
    }
    fn decide(&self, _: &SpeedRules, _: &SpeedState, _: usize, d: NoDecision, _: &mut SimRng) -> NoDecision {
        match d {}
    }
}

/// A registered Speed strategy.
pub type Registered = crate::games::Registered<dyn SpeedStrategy>;

/// Every Speed strategy.
pub static REGISTRY: [Registered; 3] = [random::REGISTERED, greedy::REGISTERED, smart::REGISTERED];

/// A Speed bot: a strategy plus a reaction model.
pub type SpeedBot = crate::realtime::Bot<dyn SpeedStrategy>;
