//! Lopti bots. Each sees only its player's [`View`]; adding one is a new file here and
//! one line in [`REGISTRY`].

mod burner;
mod lowest;
mod mcts;
mod random;

use super::ranks::{is_special, Rank, SEVEN, TEN, THREE, TWO};
use super::rules::Action;
use super::state::Swap;
use super::view::View;
use crate::games::StrategyInfo;
use crate::rng::SimRng;
use std::sync::LazyLock;

pub use burner::Burner;
pub use lowest::Lowest;
pub use mcts::Mcts;
pub use random::Random;

/// A Lopti policy.
pub trait Strategy: Sync {
    /// The setup decision (LOPTI-SETUP-4): `None` keeps the deal, `Some` swaps one hand
    /// card for one face-up card.
    fn swap(&self, view: &View, rng: &mut SimRng) -> Option<Swap>;
    /// One of `legal` (never empty; in the order `cardsim legal lopti` prints).
    fn act(&self, view: &View, legal: &[Action], rng: &mut SimRng) -> Action;
    /// True if `swap` and `act` never use the generator and depend only on the view; a
    /// game among such bots that repeats a position is stopped (it would never end).
    fn deterministic(&self) -> bool {
        false
    }
}

/// Bot parameters that come from flags rather than from the strategy name.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// `lopti.mcts_iterations`.
    pub mcts_iterations: u32,
}

/// A strategy in the registry: its description and how to build it.
pub struct Registered {
    /// Name and one-line description.
    pub info: StrategyInfo,
    /// Builds the bot.
    pub build: fn(&Params) -> Box<dyn Strategy>,
}

/// Every Lopti strategy, in the order `cardsim list` shows them.
pub static REGISTRY: [Registered; 4] = [random::ENTRY, lowest::ENTRY, burner::ENTRY, mcts::ENTRY];

/// The registry's descriptions, as `cardsim list` wants them.
pub static INFOS: LazyLock<Vec<StrategyInfo>> = LazyLock::new(|| REGISTRY.iter().map(|r| r.info).collect());

/// Builds the strategy called `name`.
pub fn build(name: &str, params: &Params) -> Option<Box<dyn Strategy>> {
    REGISTRY.iter().find(|r| r.info.name == name).map(|r| (r.build)(params))
}

/// How useful a card is late in the round, when face-up cards are played: specials
/// above aces, the 10 and 2 best.
fn late_value(r: Rank) -> u8 {
    match r {
        TEN => 16,
        TWO => 15,
        SEVEN => 14,
        THREE => 13,
        _ => r,
    }
}

/// The setup swap of the simple bots: move the most useful hand card face-up in exchange
/// for the least useful face-up card, if that improves the face-up cards.
fn strong_face_up_swap(view: &View) -> Option<Swap> {
    let give = view.hand.ranks().max_by_key(|&r| late_value(r))?;
    let take = view.face_up.ranks().min_by_key(|&r| late_value(r))?;
    (late_value(give) > late_value(take)).then_some(Swap { hand: give, face_up: take })
}

/// Order in which the simple bots spend special cards when no ordinary play is legal.
const SPECIALS_CHEAPEST_FIRST: [Rank; 4] = [TWO, SEVEN, THREE, TEN];

/// The `lowest` policy: the lowest ordinary rank it may play, all such cards; else one
/// special card (2, 7, 3, then 10); else reveal a face-down card; else take the pile.
/// It never declines a bonus play.
fn lowest_choice(legal: &[Action]) -> Action {
    let plays = || legal.iter().filter_map(|a| match *a {
        Action::Play { rank, count } => Some((rank, count)),
        _ => None,
    });
    if let Some((rank, _)) = plays().filter(|&(r, _)| !is_special(r)).min_by_key(|&(r, _)| r) {
        let count = plays().filter(|&(r, _)| r == rank).map(|(_, n)| n).max().unwrap_or(1);
        return Action::Play { rank, count };
    }
    for special in SPECIALS_CHEAPEST_FIRST {
        if let Some((rank, count)) = plays().filter(|&(r, _)| r == special).min_by_key(|&(_, n)| n) {
            return Action::Play { rank, count };
        }
    }
    let fallback = [Action::Blind, Action::Pickup];
    fallback.into_iter().find(|a| legal.contains(a)).unwrap_or(legal[0])
}
