//! A Spit player's legal moves as bit sets (issue 19: incremental legal moves): per
//! spit pile the slots whose face-up top fits it, the slots that can be flipped, and
//! the fills as the slots with a face-up top times the empty slots. Built in one pass
//! over the slots, counted by population counts, checked by one bit test, and walked in
//! the legal order (plays by slot, the own pile before the other, then flips, then
//! fills) without an action list.

use super::config::SpitConfig;
use super::rules::{may_target, playable_mask, SpitAction};
use super::state::SpitState;
use crate::realtime::{ActionList, LegalMoves};

/// Player `me`'s legal moves (his hand idle). Bit `i` of a mask is slot `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpitMoves {
    /// The player's seat (his own pile is pile `me`).
    me: u8,
    /// Slots whose top may be played on the own pile.
    own: u8,
    /// Slots whose top may be played on the other pile.
    other: u8,
    /// Slots showing a face-down top (FLIP).
    flips: u8,
    /// Slots a FILL may take from (face-up tops); 0 when no slot is empty.
    from: u8,
    /// Empty slots a FILL may go to; 0 when no slot has a face-up top.
    to: u8,
}

impl SpitMoves {
    /// The legal moves of player `p` (whose hand is idle) on `s`.
    pub fn of(cfg: &SpitConfig, s: &SpitState, p: usize) -> SpitMoves {
        let q = 1 - p;
        let target = |j: usize| match s.piles[j].top {
            Some(t) if may_target(cfg, s, p, j) => playable_mask(cfg, t),
            _ => 0,
        };
        let (own_fit, other_fit) = (target(p), target(q));
        let mut m = SpitMoves { me: p as u8, ..SpitMoves::default() };
        let mut empty = 0u8;
        for (i, slot) in s.players[p].slots[..cfg.slots as usize].iter().enumerate() {
            let bit = 1u8 << i;
            match slot.up {
                Some(c) => {
                    m.from |= bit;
                    m.own |= bit & 0u8.wrapping_sub((own_fit >> c.0 & 1) as u8);
                    m.other |= bit & 0u8.wrapping_sub((other_fit >> c.0 & 1) as u8);
                }
                None if slot.down > 0 => m.flips |= bit,
                None => empty |= bit,
            }
        }
        if empty == 0 || m.from == 0 {
            m.from = 0;
        } else {
            m.to = empty;
        }
        m
    }

    /// The moves in the legal order.
    pub fn iter(&self) -> SpitMovesIter {
        SpitMovesIter { moves: *self, to: self.to }
    }
}

impl LegalMoves<SpitAction> for SpitMoves {
    fn count(&self) -> usize {
        (self.own.count_ones() + self.other.count_ones() + self.flips.count_ones() + self.from.count_ones() * self.to.count_ones()) as usize
    }
    fn contains(&self, a: SpitAction) -> bool {
        let has = |mask: u8, i: u8| i < 8 && mask >> i & 1 == 1;
        match a {
            SpitAction::Play { slot, pile } if pile == self.me => has(self.own, slot),
            SpitAction::Play { slot, pile } if pile == 1 - self.me => has(self.other, slot),
            SpitAction::Play { .. } => false,
            SpitAction::Flip { slot } => has(self.flips, slot),
            SpitAction::Fill { from, to } => has(self.from, from) && has(self.to, to),
        }
    }
    fn write(&self, out: &mut ActionList<SpitAction>) {
        out.extend(self.iter());
    }
}

/// The moves of a [`SpitMoves`] in the legal order.
pub struct SpitMovesIter {
    /// What is left to yield (fills: `from` holds the slots not yet finished).
    moves: SpitMoves,
    /// The empty slots left for the lowest slot of `moves.from`.
    to: u8,
}

/// Takes the lowest set bit of `mask` out and returns its index.
#[inline]
fn pop_lowest(mask: &mut u8) -> u8 {
    let i = mask.trailing_zeros() as u8;
    *mask &= *mask - 1;
    i
}

impl Iterator for SpitMovesIter {
    type Item = SpitAction;
    #[inline]
    fn next(&mut self) -> Option<SpitAction> {
        let m = &mut self.moves;
        let plays = m.own | m.other;
        if plays != 0 {
            let slot = plays.trailing_zeros() as u8;
            let bit = 1u8 << slot;
            let pile = if m.own & bit != 0 {
                m.own &= !bit;
                m.me
            } else {
                m.other &= !bit;
                1 - m.me
            };
            return Some(SpitAction::Play { slot, pile });
        }
        if m.flips != 0 {
            return Some(SpitAction::Flip { slot: pop_lowest(&mut m.flips) });
        }
        while m.from != 0 {
            if self.to != 0 {
                return Some(SpitAction::Fill { from: m.from.trailing_zeros() as u8, to: pop_lowest(&mut self.to) });
            }
            pop_lowest(&mut m.from);
            self.to = m.to;
        }
        None
    }
}
