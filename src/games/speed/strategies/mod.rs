//! Speed strategies behind one trait, and their registry. Adding a strategy is one new
//! file in this folder plus one line in [`REGISTRY`].

mod greedy;
mod random;
mod smart;

use super::moves::SpeedMoves;
use super::rules::{SpeedAction, SpeedRules};
use super::state::SpeedState;
use super::view::SpeedView;
use crate::realtime::{ActionList, LegalMoves, NoDecision, RealtimePolicy};
use crate::rng::SimRng;

/// A Speed policy. It sees only a [`SpeedView`].
pub trait SpeedStrategy: Send + Sync {
    /// Picks one of `legal` (never empty) or `None` to stay idle. Every Speed action is
    /// a progress action, so a policy must pick one (SPIT-RT-9 via SPEED-RT-1).
    fn choose(&self, view: &SpeedView, legal: &[SpeedAction], rng: &mut SimRng) -> Option<SpeedAction>;

    /// The same choice from the legal moves as bit sets, without a list: what the
    /// engine asks. Default: the moves written out in the legal order and
    /// [`SpeedStrategy::choose`] asked; a built-in strategy walks the moves instead.
    fn choose_moves(&self, view: &SpeedView, moves: &SpeedMoves, rng: &mut SimRng) -> Option<SpeedAction> {
        let mut legal = ActionList::new();
        moves.write(&mut legal);
        self.choose(view, &legal, rng)
    }
}

/// A Speed strategy as the engine asks it: on the player's view. Speed's rules ask no
/// decision besides moves.
impl RealtimePolicy<SpeedRules> for dyn SpeedStrategy {
    fn choose(&self, rules: &SpeedRules, s: &SpeedState, p: usize, legal: &SpeedMoves, rng: &mut SimRng) -> Option<SpeedAction> {
        self.choose_moves(&SpeedView::new(s, p, &rules.cfg), legal, rng)
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
