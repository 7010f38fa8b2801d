//! What one Speed player can see and remember: his own hand, the centre pile tops, how
//! many cards each player holds in hand and stock, the side pile sizes, and every card
//! that has been face-up in the centre this deal. The opponent's hand and every
//! face-down card are not reachable through a view, so a strategy cannot cheat.

use super::config::SpeedConfig;
use super::rules::{fitting, playable_on};
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
    /// The viewing player's seat.
    pub fn me(&self) -> usize {
        self.me
    }
    /// Rules in force.
    pub fn rules(&self) -> &SpeedConfig {
        self.cfg
    }
    /// The viewer's hand.
    pub fn hand(&self) -> CardSet {
        self.player(true).hand
    }
    /// Hand cards of a player (the opponent's are only counted).
    pub fn hand_count(&self, mine: bool) -> u32 {
        self.player(mine).hand_count()
    }
    /// Cards left in a player's personal stock.
    pub fn stock_count(&self, mine: bool) -> u32 {
        self.player(mine).stock.len()
    }
    /// Top card of centre pile `j`.
    pub fn pile_top(&self, j: usize) -> Option<Card> {
        self.state.centre[j].top
    }
    /// Cards in centre pile `j`.
    pub fn pile_len(&self, j: usize) -> u32 {
        self.state.centre[j].len()
    }
    /// Cards left in side pile `j`.
    pub fn side_len(&self, j: usize) -> u32 {
        self.state.side[j].len()
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
    /// True if card `c` may be played on card `top` under the rules in force.
    pub fn fits(&self, c: Card, top: Card) -> bool {
        playable_on(self.cfg, c, top)
    }
    /// Every card of the deck that may be played on `top`.
    pub fn fitting(&self, top: Card) -> CardSet {
        fitting(self.cfg, top)
    }

    fn player(&self, mine: bool) -> &PlayerCards {
        &self.state.players[if mine { self.me } else { 1 - self.me }]
    }
}
