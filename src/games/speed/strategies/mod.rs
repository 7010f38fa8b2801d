//! Speed strategies behind one trait, and their registry. Adding a strategy is one new
//! file in this folder plus one line in [`REGISTRY`].

mod greedy;
mod random;
mod search;
mod smart;

use super::moves::SpeedMoves;
use super::rules::{SpeedAction, SpeedRules};
use super::state::SpeedState;
use super::view::SpeedView;
use crate::reaction::ReactionModel;
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

    /// What the engine asks: the choice of [`SpeedStrategy::choose_moves`] and the time
    /// in milliseconds spent thinking about it, which the engine adds to the action time
    /// (think time is charged). `reaction` is the player's own model, for a strategy
    /// that simulates play. Default: `choose_moves`, no think time.
    fn choose_timed(&self, view: &SpeedView, moves: &SpeedMoves, reaction: &ReactionModel, rng: &mut SimRng) -> (Option<SpeedAction>, f64) {
        let _ = reaction;
        (self.choose_moves(view, moves, rng), 0.0)
    }

    /// True if the strategy reads the public hand memory
    /// ([`SpeedView::hand_memory`]); a match keeps the memory only when one of its
    /// strategies does ([`SpeedRules::for_seats`]). Default: true, so that a strategy
    /// written elsewhere (or an external bot) always finds it kept; the built-in
    /// strategies that never read it say false.
    fn reads_hand_memory(&self) -> bool {
        true
    }
}

/// A Speed strategy as the engine asks it: on the player's view. Speed's rules ask no
/// decision besides moves.
impl RealtimePolicy<SpeedRules> for dyn SpeedStrategy {
    fn choose(&self, rules: &SpeedRules, s: &SpeedState, p: usize, legal: &SpeedMoves, rng: &mut SimRng) -> Option<SpeedAction> {
        self.choose_moves(&SpeedView::new(s, p, &rules.cfg), legal, rng)
    }
    fn choose_timed(&self, rules: &SpeedRules, s: &SpeedState, p: usize, legal: &SpeedMoves, reaction: &ReactionModel, rng: &mut SimRng) -> (Option<SpeedAction>, f64) {
        SpeedStrategy::choose_timed(self, &SpeedView::new(s, p, &rules.cfg), legal, reaction, rng)
    }
    fn decide(&self, _: &SpeedRules, _: &SpeedState, _: usize, d: NoDecision, _: &mut SimRng) -> NoDecision {
        match d {}
    }
}

pub use search::Search;

/// A registered Speed strategy.
pub type Registered = crate::games::Registered<dyn SpeedStrategy>;

/// Every Speed strategy.
pub static REGISTRY: [Registered; 4] = [random::REGISTERED, greedy::REGISTERED, smart::REGISTERED, search::REGISTERED];

/// A Speed bot: a strategy plus a reaction model.
pub type SpeedBot = crate::realtime::Bot<dyn SpeedStrategy>;
