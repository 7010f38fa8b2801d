//! `greedy`: the first legal play in a fixed scan order (slots left to right, piles in
//! order), else the first flip, else the first fill that exposes a card.

use super::{Registered, SpitStrategy};
use crate::games::spit::moves::SpitMoves;
use crate::games::spit::rules::SpitAction;
use crate::games::spit::view::SpitView;
use crate::games::StrategyInfo;
use crate::rng::SimRng;

/// First-legal-action play.
pub struct Greedy;

/// Registry entry.
pub const REGISTERED: Registered = Registered {
    info: StrategyInfo { name: "greedy", about: "first legal play in slot order, then flips, then exposing fills; slaps the smaller pile", params: &[] },
    make: |_| Box::new(Greedy),
};

impl Greedy {
    /// The first play, else the first flip, else the first fill that exposes a card, of
    /// `legal` in the legal order (plays, flips, fills, each in slot order).
    fn pick(view: &SpitView, mut legal: impl Iterator<Item = SpitAction>) -> Option<SpitAction> {
        legal.find(|a| match *a {
            SpitAction::Fill { from, .. } => view.face_down(true, from as usize) > 0,
            _ => true,
        })
    }
}

impl SpitStrategy for Greedy {
    fn choose(&self, view: &SpitView, legal: &[SpitAction], _: &mut SimRng) -> Option<SpitAction> {
        Self::pick(view, legal.iter().copied())
    }
    /// [`Greedy::pick`] from the bit sets: the lowest slot with a play (his own pile
    /// first), else the lowest flip, else the lowest exposing slot into the lowest
    /// empty one.
    fn choose_moves(&self, view: &SpitView, moves: &SpitMoves, _: &mut SimRng) -> Option<SpitAction> {
        let (own, other) = (moves.plays_own(), moves.plays_other());
        if own | other != 0 {
            let slot = (own | other).trailing_zeros() as u8;
            let pile = if own >> slot & 1 == 1 { moves.me() } else { 1 - moves.me() };
            return Some(SpitAction::Play { slot, pile: pile as u8 });
        }
        if moves.flips() != 0 {
            return Some(SpitAction::Flip { slot: moves.flips().trailing_zeros() as u8 });
        }
        let (mut from, to) = moves.fills();
        while from != 0 {
            let slot = from.trailing_zeros() as u8;
            from &= from - 1;
            if view.face_down(true, slot as usize) > 0 {
                return Some(SpitAction::Fill { from: slot, to: to.trailing_zeros() as u8 });
            }
        }
        None
    }
}
