//! What one Speed player can see and remember, as far as the strategies use it: his own
//! hand, the centre pile tops, how many cards each player holds in hand, and every card
//! that has been face-up in the centre this deal, and the match points before the deal.
//! The opponent's hand and every face-down card are not reachable through a view, so a
//! strategy cannot cheat.

use super::config::SpeedConfig;
use super::rules::fitting;
use super::state::{PlayerCards, SpeedState};
use crate::cards::{Card, CardSet};

/// One player's view of a Speed state.
#[derive(Clone, Copy)]
pub struct SpeedView<'a> {
    state: &'a SpeedState,
    me: usize,
    cfg: &'a SpeedConfig,
}

impl<'a> SpeedView<'a> {
    /// The view of player `me`.
    pub fn new(state: &'a SpeedState, me: usize, cfg: &'a SpeedConfig) -> Self {
        SpeedView { state, me, cfg }
    }
    /// The viewer's seat.
    pub fn seat(&self) -> usize {
        self.me
    }
    /// The viewer's hand.
    pub fn hand(&self) -> CardSet {
        self.player(true).hand
    }
    /// Hand cards of a player (the opponent's are only counted).
    pub fn hand_count(&self, mine: bool) -> u32 {
        self.player(mine).hand_count()
    }
    /// Top card of centre pile `j`.
    pub fn pile_top(&self, j: usize) -> Option<Card> {
        self.state.centre[j].top
    }
    /// Each seat's match points before this deal (`[seat 0, seat 1]`).
    pub fn totals(&self) -> [u32; 2] {
        self.state.totals.map(u32::from)
    }
    /// Every card that has been face-up in the centre this deal.
    pub fn shown(&self) -> CardSet {
        self.state.shown
    }
    /// Cards the viewer has never seen this deal: they are in the opponent's hand, a
    /// stock, or a side pile not yet turned.
    pub fn unseen(&self) -> CardSet {
        CardSet(CardSet::FULL.0 & !self.state.shown.0 & !self.hand().0)
    }
    /// Every card of the deck that may be played on `top`.
    pub fn fitting(&self, top: Card) -> CardSet {
        fitting(self.cfg, top)
    }

    fn player(&self, mine: bool) -> &PlayerCards {
        &self.state.players[if mine { self.me } else { 1 - self.me }]
    }
}
