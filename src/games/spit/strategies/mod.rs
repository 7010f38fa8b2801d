//! Spit strategies behind one trait, and their registry. Adding a strategy is one new
//! file in this folder plus one line in [`REGISTRY`].

mod greedy;
mod random;
mod search;
mod smart;

use super::moves::SpitMoves;
use super::rules::{SpitAction, SpitDecision, SpitRules};
use super::state::SpitState;
use super::view::SpitView;
use crate::realtime::{ActionList, LegalMoves, RealtimePolicy};
use crate::reaction::ReactionModel;
use crate::rng::SimRng;

/// A Spit policy. It sees only a [`SpitView`].
pub trait SpitStrategy: Send + Sync {
    /// Picks one of `legal` (never empty) or `None` to stay idle. A policy must not stay
    /// idle while it has a progress action (SPIT-RT-9).
    fn choose(&self, view: &SpitView, legal: &[SpitAction], rng: &mut SimRng) -> Option<SpitAction>;

    /// The same choice from the legal moves as bit sets, without a list: what the
    /// engine asks. Default: the moves written out in the legal order and
    /// [`SpitStrategy::choose`] asked; a built-in strategy walks the moves instead.
    fn choose_moves(&self, view: &SpitView, moves: &SpitMoves, rng: &mut SimRng) -> Option<SpitAction> {
        let mut legal = ActionList::new();
        moves.write(&mut legal);
        self.choose(view, &legal, rng)
    }

    /// What the engine asks: the choice of [`SpitStrategy::choose_moves`] and the time
    /// in milliseconds spent thinking about it, which the engine adds to the action time
    /// (think time is charged). `reaction` is the player's own model, for a strategy
    /// that simulates play. Default: `choose_moves`, no think time.
    fn choose_timed(&self, view: &SpitView, moves: &SpitMoves, reaction: &ReactionModel, rng: &mut SimRng) -> (Option<SpitAction>, f64) {
        let _ = reaction;
        (self.choose_moves(view, moves, rng), 0.0)
    }

    /// The spit pile to slap at round end (SPIT-SLAP-1). Default: the smaller pile,
    /// the own pile on a tie.
    fn slap_target(&self, view: &SpitView, _rng: &mut SimRng) -> usize {
        smaller_pile(view)
    }

    /// The pile to spit onto under `spit.stall_spit_target=any`. Default: the smaller pile.
    fn spit_target(&self, view: &SpitView, _rng: &mut SimRng) -> usize {
        smaller_pile(view)
    }

    /// The pile to give away under `spit.round_end_allocation=first_out_chooses`
    /// (SPIT-SLAP-3). Default: the larger pile.
    fn give_away(&self, view: &SpitView, _rng: &mut SimRng) -> usize {
        1 - smaller_pile(view)
    }
}

/// The smaller of the two spit piles; the viewer's own pile on a tie.
pub fn smaller_pile(view: &SpitView) -> usize {
    let me = view.me();
    let other = 1 - me;
    if view.pile_len(other) < view.pile_len(me) { other } else { me }
}

/// A Spit strategy as the engine and the match loop ask it: on the player's view.
impl RealtimePolicy<SpitRules> for dyn SpitStrategy {
    fn choose(&self, rules: &SpitRules, s: &SpitState, p: usize, legal: &SpitMoves, rng: &mut SimRng) -> Option<SpitAction> {
        self.choose_moves(&SpitView::new(s, p, &rules.cfg), legal, rng)
    }
    fn choose_timed(&self, rules: &SpitRules, s: &SpitState, p: usize, legal: &SpitMoves, reaction: &ReactionModel, rng: &mut SimRng) -> (Option<SpitAction>, f64) {
        SpitStrategy::choose_timed(self, &SpitView::new(s, p, &rules.cfg), legal, reaction, rng)
    }
    fn decide(&self, rules: &SpitRules, s: &SpitState, p: usize, d: SpitDecision, rng: &mut SimRng) -> usize {
        let view = SpitView::new(s, p, &rules.cfg);
        match d {
            SpitDecision::SpitPile => self.spit_target(&view, rng),
            SpitDecision::Slap => self.slap_target(&view, rng),
            SpitDecision::GiveAway => self.give_away(&view, rng),
        }
    }
}

pub use search::Search;

/// A registered Spit strategy.
pub type Registered = crate::games::Registered<dyn SpitStrategy>;

/// Every Spit strategy.
pub static REGISTRY: [Registered; 4] = [random::REGISTERED, greedy::REGISTERED, smart::REGISTERED, search::REGISTERED];

/// A Spit bot: a strategy plus a reaction model.
pub type SpitBot = crate::realtime::Bot<dyn SpitStrategy>;
