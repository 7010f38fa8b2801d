//! A Spit player's legal moves as bit sets (issue 19: incremental legal moves): per
//! spit pile the slots whose face-up top fits it, the slots that can be flipped, and
//! the fills as the slots with a face-up top times the empty slots. The state keeps
//! each player's sets ([`SpitState::moves`]) up to date as the rules change one slot
//! ([`slot_changed`]) or one pile top ([`pile_changed`]); [`SpitMoves::of`], the full
//! rebuild in one pass over the slots, sets them up at a round's start and is what
//! the tests check the kept sets against. Counted by population counts, checked by one
//! bit test, and walked in the legal order (plays by slot, the own pile before the
//! other, then flips, then fills) without an action list.

use super::config::SpitConfig;
use super::rules::{may_target, playable_mask, SpitAction};
use super::state::{Slot, SpitState};
use crate::realtime::{ActionList, LegalMoves};

/// Player `me`'s legal moves (his hand idle). Bit `i` of a mask is slot `i`; the five
/// masks and the seat are six bytes, read as one word (`word`) so that a slot's bits in
/// every mask are cleared with one AND (`set_slot`). Six bytes, not a `u64`: the state
/// keeps two and stays within 128 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpitMoves {
    /// The masks, a byte each (at [`OWN`], [`OTHER`], [`FLIPS`], [`FROM`], [`TO`] bits
    /// of the word), and the player's seat (at [`ME`]; his own pile is pile `me`).
    bytes: [u8; 6],
}

/// Shift of a mask in [`SpitMoves`]' word: slots whose top may be played on the own pile.
const OWN: u32 = 0;
/// Slots whose top may be played on the other pile.
const OTHER: u32 = 8;
/// Slots showing a face-down top (FLIP).
const FLIPS: u32 = 16;
/// Slots with a face-up top: what a FILL may take from (there is a fill only when `TO`
/// is not empty either).
const FROM: u32 = 24;
/// Empty slots: where a FILL may go.
const TO: u32 = 32;
/// Shift of the player's seat in [`SpitMoves`]' word.
const ME: u32 = 40;
/// Bit 0 of each of the five bytes: times `1 << i`, slot `i`'s bit in every mask.
const LANES: u64 = 0x01_0101_0101;

/// The cards player `p` may play on spit pile `j` (bit `c` for `Card(c)`; none when he
/// may not play there or it has no top).
#[inline]
fn target(cfg: &SpitConfig, s: &SpitState, p: usize, j: usize) -> u64 {
    match s.piles[j].top {
        Some(t) if may_target(cfg, s, p, j) => playable_mask(cfg, t),
        _ => 0,
    }
}

/// Slot `i`'s bits in every mask of [`SpitMoves`]' word, from what it shows, `fit`
/// being the cards that may go on the own and the other pile.
#[inline]
fn slot_bits(i: usize, slot: &Slot, fit: [u64; 2]) -> u64 {
    let bit = 1u64 << i;
    match slot.up {
        Some(c) => bit << FROM | (fit[0] >> c.0 & 1) << (i as u32 + OWN) | (fit[1] >> c.0 & 1) << (i as u32 + OTHER),
        None if slot.down > 0 => bit << FLIPS,
        None => bit << TO,
    }
}

impl SpitMoves {
    /// No move, for player `me`.
    pub const fn none(me: u8) -> SpitMoves {
        SpitMoves { bytes: [0, 0, 0, 0, 0, me] }
    }

    /// The legal moves of player `p` (whose hand is idle) on `s`, built from scratch:
    /// every slot's bits ([`slot_bits`]) gathered in one word, written once.
    pub fn of(cfg: &SpitConfig, s: &SpitState, p: usize) -> SpitMoves {
        let fit = [target(cfg, s, p, p), target(cfg, s, p, 1 - p)];
        let mut m = SpitMoves::none(p as u8);
        let slots = s.players[p].slots[..cfg.slots as usize].iter().enumerate();
        m.set_word(slots.fold(m.word(), |w, (i, slot)| w | slot_bits(i, slot, fit)));
        m
    }

    /// Sets slot `i`'s bits from what it shows, `fit` being the cards that may go on
    /// the own and the other pile.
    #[inline]
    fn set_slot(&mut self, i: usize, slot: &Slot, fit: [u64; 2]) {
        let b = self.word() & !(LANES << i);
        self.set_word(b | slot_bits(i, slot, fit));
    }

    /// The six bytes as one word (byte `k` at bits `8k`).
    #[inline]
    fn word(&self) -> u64 {
        let b = self.bytes;
        u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], 0, 0])
    }
    /// Writes the six bytes from a word (its top two bytes are zero).
    #[inline]
    fn set_word(&mut self, w: u64) {
        self.bytes.copy_from_slice(&w.to_le_bytes()[..6]);
    }

    /// The mask (or seat) at shift `at` of the word.
    #[inline]
    fn mask(&self, at: u32) -> u8 {
        self.bytes[(at / 8) as usize]
    }

    /// The player's seat: plays onto pile `me()` are onto his own pile.
    #[inline]
    pub fn me(&self) -> usize {
        self.mask(ME) as usize
    }
    /// Slots whose top may be played on the player's own pile (bit `i` for slot `i`).
    #[inline]
    pub fn plays_own(&self) -> u8 {
        self.mask(OWN)
    }
    /// Slots whose top may be played on the other pile.
    #[inline]
    pub fn plays_other(&self) -> u8 {
        self.mask(OTHER)
    }
    /// Slots that may be flipped.
    #[inline]
    pub fn flips(&self) -> u8 {
        self.mask(FLIPS)
    }
    /// The fills as two sets, `(from, to)`: every slot of `from` may fill every slot of
    /// `to` (no fill when either is empty).
    #[inline]
    pub fn fills(&self) -> (u8, u8) {
        let to = self.mask(TO);
        if to == 0 { (0, 0) } else { (self.mask(FROM), to) }
    }

    /// The moves in the legal order.
    pub fn iter(&self) -> SpitMovesIter {
        let (from, to) = self.fills();
        SpitMovesIter { me: self.mask(ME), own: self.plays_own(), other: self.plays_other(), flips: self.flips(), from, to, to_left: to }
    }
}

/// Every player's moves on `s` built from scratch into [`SpitState::moves`] (a round's
/// start, a stall's spits).
pub fn rebuild(cfg: &SpitConfig, s: &mut SpitState) {
    s.moves = [SpitMoves::of(cfg, s, 0), SpitMoves::of(cfg, s, 1)];
}

/// Player `p`'s slot `i` changed on `s`: its bits in his kept moves (the pile tops
/// are looked at only when the slot shows a face-up card). Inlined: where the rules
/// just took the slot's top or put one there, what it shows is known at compile time.
#[inline(always)]
pub fn slot_changed(cfg: &SpitConfig, s: &mut SpitState, p: usize, i: usize) {
    let slot = s.players[p].slots[i];
    let fit = if slot.up.is_some() { [target(cfg, s, p, p), target(cfg, s, p, 1 - p)] } else { [0; 2] };
    s.moves[p].set_slot(i, &slot, fit);
}

/// Spit pile `j`'s top changed on `s`: both players' plays onto it in their kept moves.
#[inline]
pub fn pile_changed(cfg: &SpitConfig, s: &mut SpitState, j: usize) {
    for p in 0..2 {
        let fit = target(cfg, s, p, j);
        // Every slot in one pass without branches: a slot without a face-up top tests
        // bit 63, which is no card's (unused slots show none).
        let mut plays = 0u8;
        for (i, slot) in s.players[p].slots.iter().enumerate() {
            plays |= ((fit >> slot.up.map_or(63, |c| c.0) & 1) as u8) << i;
        }
        let at = if j == p { OWN } else { OTHER };
        s.moves[p].bytes[(at / 8) as usize] = plays;
    }
}

impl LegalMoves<SpitAction> for SpitMoves {
    fn count(&self) -> usize {
        // Population counts from a table (the baseline x86-64 target has no `popcnt`);
        // the fills only with an empty slot.
        let ones = |at: u32| ONES[self.mask(at) as usize] as usize;
        let singles = ones(OWN) + ones(OTHER) + ones(FLIPS);
        let fills = if self.mask(TO) == 0 { 0 } else { ones(FROM) * ones(TO) };
        singles + fills
    }
    fn contains(&self, a: SpitAction) -> bool {
        let has = |at: u32, i: u8| i < 8 && self.mask(at) >> i & 1 == 1;
        match a {
            SpitAction::Play { slot, pile } if pile == self.mask(ME) => has(OWN, slot),
            SpitAction::Play { slot, pile } if pile == 1 - self.mask(ME) => has(OTHER, slot),
            SpitAction::Play { .. } => false,
            SpitAction::Flip { slot } => has(FLIPS, slot),
            SpitAction::Fill { from, to } => has(FROM, from) && has(TO, to),
        }
    }
    fn write(&self, out: &mut ActionList<SpitAction>) {
        out.extend(self.iter());
    }
    fn is_empty(&self) -> bool {
        // No play or flip (the low three bytes), and no fill.
        (self.mask(OWN) | self.mask(OTHER) | self.mask(FLIPS)) == 0 && (self.mask(FROM) == 0 || self.mask(TO) == 0)
    }
}

/// The number of set bits of every byte.
static ONES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    table
};

/// The moves of a [`SpitMoves`] in the legal order: the masks left to yield.
#[derive(Clone)]
pub struct SpitMovesIter {
    /// The player's seat.
    me: u8,
    /// Plays onto the own pile left.
    own: u8,
    /// Plays onto the other pile left.
    other: u8,
    /// Flips left.
    flips: u8,
    /// Slots whose fills are not finished (none without an empty slot).
    from: u8,
    /// Every empty slot.
    to: u8,
    /// The empty slots left for the lowest slot of `from`.
    to_left: u8,
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
        let m = self;
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
        while m.from != 0 && m.to != 0 {
            if m.to_left != 0 {
                return Some(SpitAction::Fill { from: m.from.trailing_zeros() as u8, to: pop_lowest(&mut m.to_left) });
            }
            pop_lowest(&mut m.from);
            m.to_left = m.to;
        }
        None
    }
}
