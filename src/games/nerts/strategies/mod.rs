//! Nerts strategies behind one trait, and their registry. Each style is an order of
//! preference over the kinds of move ([`Cat`]) it sees in its legal list, read from its
//! own view ([`NertsView`]); within a kind it takes the first action in the legal order.
//!
//! Every style ranks the progress moves of NERTS-STUCK-2 (a card leaving the Nerts pile
//! or the waste, or reaching a foundation) above turning the stock, and makes a move
//! between work piles only when it opens a progress move at once ([`Cat::StackForNerts`],
//! [`Cat::StackUseful`]); aimless moves are a last resort. So no style loops on its own
//! layout while the rules say it is not stuck (with a partner on a shared layout it
//! waits rather than move aimlessly, see [`pick`]), and the engine, not a bot, declares the
//! table stuck (every hand idle or aimless, nobody with progress).

mod random;
mod search;
mod styles;

use super::rules::{NertsAction, NertsRules, Source};
use super::state::NertsState;
use super::view::NertsView;
use crate::reaction::ReactionModel;
use crate::realtime::{NoDecision, RealtimePolicy};
use crate::rng::SimRng;

pub use search::Search;

/// A Nerts policy. It sees only a [`NertsView`].
pub trait NertsStrategy: Send + Sync {
    /// Picks one of `legal` (never empty), or `None` to stay idle.
    fn choose(&self, view: &NertsView, legal: &[NertsAction], rng: &mut SimRng) -> Option<NertsAction>;

    /// Like [`NertsStrategy::choose`], with the time in milliseconds spent thinking
    /// about it, which the engine adds to the action time (think time is charged).
    /// `reaction` is the player's own model, for a strategy that simulates play.
    /// Default: `choose`, no think time.
    fn choose_timed(&self, view: &NertsView, legal: &[NertsAction], reaction: &ReactionModel, rng: &mut SimRng) -> (Option<NertsAction>, f64) {
        let _ = reaction;
        (self.choose(view, legal, rng), 0.0)
    }
}

/// A Nerts strategy as the engine asks it: on the player's view. Nerts' rules ask no
/// decision besides moves.
impl RealtimePolicy<NertsRules> for dyn NertsStrategy {
    fn choose(&self, rules: &NertsRules, s: &NertsState, p: usize, legal: &crate::realtime::ActionList<NertsAction>, rng: &mut SimRng) -> Option<NertsAction> {
        NertsStrategy::choose(self, &NertsView::new(s, p, &rules.cfg), legal, rng)
    }
    fn choose_timed(&self, rules: &NertsRules, s: &NertsState, p: usize, legal: &crate::realtime::ActionList<NertsAction>, reaction: &ReactionModel, rng: &mut SimRng) -> (Option<NertsAction>, f64) {
        NertsStrategy::choose_timed(self, &NertsView::new(s, p, &rules.cfg), legal, reaction, rng)
    }
    fn decide(&self, _: &NertsRules, _: &NertsState, _: usize, d: NoDecision, _: &mut SimRng) -> NoDecision {
        match d {}
    }
}

/// The kinds of move a style ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cat {
    /// The call (NERTS-END-1).
    Call,
    /// The Nerts top to a foundation.
    NertsFound,
    /// The Nerts top onto a work pile, into an empty slot or under a pile.
    NertsWork,
    /// Turning the next Nerts card up.
    FlipN,
    /// A work-pile top to a foundation.
    WorkFound,
    /// The waste top to a foundation.
    WasteFound,
    /// The waste top onto a work pile, into an empty slot or under a pile.
    WasteWork,
    /// A move between work piles after which the Nerts top has a place.
    StackForNerts,
    /// A move between work piles after which some progress move is open.
    StackUseful,
    /// A move between work piles that opens nothing.
    StackOther,
    /// FLIP3 or RECYCLE.
    Stock,
    /// ROTATE.
    Rotate,
}

/// Number of kinds of move ([`Cat`]).
const CATS: usize = 12;

/// The kind of `a` as `view` sees it.
pub fn classify(view: &NertsView, a: NertsAction) -> Cat {
    plain_kind(a).unwrap_or_else(|| {
        let opens = view.open_after(Some(a));
        if opens.nerts {
            Cat::StackForNerts
        } else if opens.any() {
            Cat::StackUseful
        } else {
            Cat::StackOther
        }
    })
}

/// The kind of `a` when it shows by the action alone; `None` for a move between work
/// piles, whose kind depends on what it opens (found by trying it, [`classify`]).
#[inline]
fn plain_kind(a: NertsAction) -> Option<Cat> {
    Some(match a {
        NertsAction::CallNerts => Cat::Call,
        NertsAction::FlipNerts => Cat::FlipN,
        NertsAction::FlipStock | NertsAction::Recycle => Cat::Stock,
        NertsAction::Rotate => Cat::Rotate,
        NertsAction::ToFoundation { from: Source::Nerts, .. } => Cat::NertsFound,
        NertsAction::ToFoundation { from: Source::Waste, .. } => Cat::WasteFound,
        NertsAction::ToFoundation { .. } => Cat::WorkFound,
        NertsAction::Build { from, .. } | NertsAction::Fill { from, .. } | NertsAction::SlipUnder { from, .. } => match from {
            Source::Nerts => Cat::NertsWork,
            Source::Waste => Cat::WasteWork,
            Source::Work { .. } => return None,
        },
    })
}

/// An order of preference over the kinds of move, as [`pick`] reads it: each kind's
/// rank (its first place in the order, lower goes first) and the best rank of a move
/// between work piles. Built once per strategy, not at every decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranking {
    /// Rank of each kind ([`Cat`] as index), [`Ranking::UNRANKED`] for a kind the order
    /// leaves out.
    rank_of: [u8; CATS],
    /// The best rank of the three kinds of move between work piles, or
    /// [`Ranking::UNRANKED`].
    best_stack: u8,
}

impl Ranking {
    /// The rank of a kind the order leaves out.
    const UNRANKED: u8 = u8::MAX;

    /// The ranking of `order` (first kind first).
    pub const fn new(order: &[Cat]) -> Ranking {
        let mut rank_of = [Self::UNRANKED; CATS];
        let mut best_stack = Self::UNRANKED;
        let mut rank = order.len();
        while rank > 0 {
            rank -= 1;
            let c = order[rank];
            rank_of[c as usize] = rank as u8; // the first place wins: written last
            if matches!(c, Cat::StackForNerts | Cat::StackUseful | Cat::StackOther) {
                best_stack = rank as u8;
            }
        }
        Ranking { rank_of, best_stack }
    }
}

/// The first action of `legal` in the first kind of `ranking`'s order that has one. If
/// none has, only aimless moves are left: the first of them, unless a partner's action
/// holds a pile of the layout; then the player waits for it (two hands on one layout
/// would otherwise shuffle a stack back and forth while the partner turns the stock, and
/// the deal would never end; the partner's hand is busy, so the table is not idle).
pub fn pick(view: &NertsView, legal: &[NertsAction], ranking: &Ranking) -> Option<NertsAction> {
    // The best (rank, action) so far; rank UNRANKED while there is none. Moves between
    // work piles are classified by trying them (costly), so the other actions go first,
    // and those moves only when one of their kinds could rank before the best of the
    // others. Two kinds never share a rank, so the two passes pick what one pass in
    // the legal order picks.
    let (mut best_rank, mut best) = (Ranking::UNRANKED, None);
    let mut stacks = false;
    for &a in legal {
        let Some(kind) = plain_kind(a) else {
            stacks = true;
            continue;
        };
        let rank = ranking.rank_of[kind as usize];
        if rank < best_rank {
            (best_rank, best) = (rank, Some(a));
            if rank == 0 {
                break;
            }
        }
    }
    if stacks && ranking.best_stack < best_rank {
        for &a in legal.iter().filter(|&&a| plain_kind(a).is_none()) {
            let rank = ranking.rank_of[classify(view, a) as usize];
            if rank < best_rank {
                (best_rank, best) = (rank, Some(a));
                if rank == ranking.best_stack {
                    break;
                }
            }
        }
    }
    match best {
        Some(a) => Some(a),
        None if view.partner_busy() => None,
        None => legal.first().copied(),
    }
}

/// A registered Nerts strategy.
pub type Registered = crate::games::Registered<dyn NertsStrategy>;

/// Every Nerts strategy.
pub static REGISTRY: [Registered; 6] = [styles::NERTS_FIRST, styles::FOUNDATION_FIRST, styles::BALANCED, styles::LAZY, search::REGISTERED, random::REGISTERED];

/// A Nerts bot: a strategy plus a reaction model.
pub type NertsBot = crate::realtime::Bot<dyn NertsStrategy>;
