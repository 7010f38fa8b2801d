//! What one Speed player can see and remember, as far as the strategies use it: his own
//! hand, the centre pile tops, how many cards each player holds in hand, and every card
//! that has been face-up in the centre this deal, and the match points before the deal.
//! The sizes of the face-down piles, what lies in each centre pile (every card of it was
//! face-up there), how often the side piles were re-formed and whether a player has a
//! card on its way to the centre are public too, and so is what each player's draws and
//! plays have shown about his hand ([`HandMemory`]). The opponent's hand and every
//! face-down card are not reachable through a view, so a strategy cannot cheat.

use super::config::SpeedConfig;
use super::rules::fitting;
use super::state::{HandMemory, PlayerCards, SpeedState, HAND_LIMIT};
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
    /// True if a player has a hand card on its way to a centre pile (or on its way back
    /// after losing a race): the card is counted by [`SpeedView::hand_count`], and which
    /// card it is is not shown for the opponent.
    pub fn in_flight(&self, mine: bool) -> bool {
        self.player(mine).flying.is_some()
    }
    /// What a player's behaviour has shown about his hand (public: built from draws
    /// started, stalls and the cards played, which both players see).
    pub fn hand_memory(&self, mine: bool) -> HandMemory {
        self.player(mine).memory
    }
    /// The ranks each of the opponent's hand cards cannot be, by the time it entered
    /// his hand, oldest first: bit `r - 1` for rank `r`. As many entries count as he
    /// holds ([`SpeedView::hand_count`], a card in flight included); the rest are 0.
    /// See [`HandMemory`].
    pub fn opponent_hand_exclusions(&self) -> [u16; HAND_LIMIT as usize] {
        self.hand_memory(false).slots()
    }
    /// Cards in a player's face-down personal stock.
    pub fn stock_count(&self, mine: bool) -> u32 {
        self.player(mine).stock.len()
    }
    /// Cards in face-down side pile `j`.
    pub fn side_count(&self, j: usize) -> u32 {
        self.state.side[j].len()
    }
    /// Every card of centre pile `j`: each was face-up on it, so a player who remembers
    /// the deal knows them. Empty before the opening flip, while the pile is one
    /// face-down card.
    pub fn centre_cards(&self, j: usize) -> CardSet {
        let pile = &self.state.centre[j];
        if pile.top.is_some() { pile.cards } else { CardSet::EMPTY }
    }
    /// Times the side piles were re-formed from the centre this deal (SPEED-STALL-2).
    pub fn recycles(&self) -> u16 {
        self.state.recycles
    }
    /// The side piles were re-formed and nothing landed since (SPEED-STALL-2).
    pub fn recycled_since_landing(&self) -> bool {
        self.state.recycled_since_landing
    }
    /// The rules in force.
    pub fn rules(&self) -> &SpeedConfig {
        self.cfg
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
