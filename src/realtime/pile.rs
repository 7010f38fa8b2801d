//! A centre pile of a real-time game (Spit's spit piles, Speed's centre piles): the
//! cards it holds as a set, and its top card, the only one that matters for play.

use crate::cards::{Card, CardSet};

/// A pile in the centre that players play onto.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pile {
    /// Every card in the pile.
    pub cards: CardSet,
    /// The top card (the only one that matters for play).
    pub top: Option<Card>,
}

impl Pile {
    /// An empty pile.
    pub const EMPTY: Pile = Pile { cards: CardSet::EMPTY, top: None };

    /// Puts a card on top.
    pub fn push(&mut self, c: Card) {
        self.cards.insert(c);
        self.top = Some(c);
    }
    /// Cards in the pile.
    pub fn len(&self) -> u32 {
        self.cards.len()
    }
    /// True when the pile holds no card.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}
