//! What one Spit player can see: his own and the opponent's face-up tops and pile sizes,
//! the spit piles, and the number of spit cards each side holds. Face-down cards are
//! not reachable through a view, so a strategy cannot cheat.

use super::config::SpitConfig;
use super::rules::{playable_mask, playable_on};
use super::state::{SpitState, MAX_SLOTS};
use crate::cards::Card;

/// One player's view of a Spit state.
#[derive(Clone, Copy)]
pub struct SpitView<'a> {
    state: &'a SpitState,
    me: usize,
    cfg: &'a SpitConfig,
}

impl<'a> SpitView<'a> {
    /// The view of player `me`.
    pub fn new(state: &'a SpitState, me: usize, cfg: &'a SpitConfig) -> Self {
        SpitView { state, me, cfg }
    }
    /// The viewing player's seat.
    pub fn me(&self) -> usize {
        self.me
    }
    /// Rules in force.
    pub fn rules(&self) -> &SpitConfig {
        self.cfg
    }
    /// Number of stockpile slots in use.
    pub fn slots(&self) -> usize {
        self.cfg.slots as usize
    }
    /// Face-up top of one of the viewer's slots (or the opponent's with `mine = false`).
    pub fn top(&self, mine: bool, slot: usize) -> Option<Card> {
        self.player(mine).slots[slot].up
    }
    /// Face-down cards under (or in place of) the top of a slot.
    pub fn face_down(&self, mine: bool, slot: usize) -> u8 {
        self.player(mine).slots[slot].down
    }
    /// Stockpile cards a player has left.
    pub fn stock_count(&self, mine: bool) -> u32 {
        self.player(mine).stock_count()
    }
    /// Spit cards a player has left.
    pub fn spit_count(&self, mine: bool) -> u32 {
        self.player(mine).spit as u32
    }
    /// Face-up tops of a player's slots.
    pub fn tops(&self, mine: bool) -> [Option<Card>; MAX_SLOTS] {
        let mut t = [None; MAX_SLOTS];
        for (x, slot) in t.iter_mut().zip(&self.player(mine).slots[..self.slots()]) {
            *x = slot.up;
        }
        t
    }
    /// Top card of spit pile `j` (`None` if the pile is not in play).
    pub fn pile_top(&self, j: usize) -> Option<Card> {
        if self.state.active[j] { self.state.piles[j].top } else { None }
    }
    /// True if spit pile `j` is in play (both are, except in single-pile mode).
    pub fn pile_active(&self, j: usize) -> bool {
        self.state.active[j]
    }
    /// Under `spit.stall_spit_target=any`, the pile a solo spitter locked in
    /// (SPIT-STALL-4): public, since everyone saw where his spits went.
    pub fn solo_spit_pile(&self) -> Option<usize> {
        self.state.solo_spit_pile.map(|j| j as usize)
    }
    /// Cards in spit pile `j`.
    pub fn pile_len(&self, j: usize) -> u32 {
        self.state.piles[j].len()
    }
    /// True if card `c` may be played on card `top` under the rules in force.
    pub fn fits(&self, c: Card, top: Card) -> bool {
        playable_on(self.cfg, c, top)
    }
    /// The cards that fit on `top`, as a bit set (bit `c` for `Card(c)`): `fits(c, top)`
    /// for every card `c` at once.
    pub fn fitting(&self, top: Card) -> u64 {
        playable_mask(self.cfg, top)
    }

    fn player(&self, mine: bool) -> &super::state::PlayerCards {
        &self.state.players[if mine { self.me } else { 1 - self.me }]
    }
}
