//! The bit-packed Spit state: five stockpile slots per player, the unseen cards of each
//! player as one set (face-down stockpile cards and spit cards are equally unknown to
//! everyone, so a card is drawn from the set when it is revealed: design notes
//! section 4), the spit piles as sets with a known top, and each player's legal moves
//! as bit sets, kept up to date. `Copy`, about 90 bytes.

use super::config::{ShortDeal, SpitConfig};
use super::moves::SpitMoves;
use crate::cards::{Card, CardSet};
use crate::realtime::Pile;
use crate::rng::ChanceKey;

/// Most stockpile slots.
pub const MAX_SLOTS: usize = 5;

/// One stockpile slot: `down` face-down cards, with a face-up top card or none.
/// A slot with `down > 0` and no `up` card shows a face-down top (it can be flipped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    /// Face-down cards.
    pub down: u8,
    /// The face-up top card, if any.
    pub up: Option<Card>,
}

impl Slot {
    /// Cards in the slot.
    pub fn len(&self) -> u32 {
        self.down as u32 + self.up.is_some() as u32
    }
    /// True when the slot holds no card.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One player's cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerCards {
    /// Stockpile slots (only the first `slots` of the config are used).
    pub slots: [Slot; MAX_SLOTS],
    /// Every card of this player nobody has seen: face-down stockpile cards and spit cards.
    pub hidden: CardSet,
    /// How many of the hidden cards are spit cards (the rest are face-down stockpile cards).
    pub spit: u8,
    /// The card in this player's hand, in flight between two places (SPIT-RT-4).
    pub flying: Option<Card>,
    /// The deal-keyed zone the hidden cards are revealed from (common random numbers:
    /// every seating of a deal turns the same cards).
    pub zone: ChanceKey,
}

impl PlayerCards {
    /// Stockpile cards, the card in flight included (it can only come from the stockpiles).
    pub fn stock_count(&self) -> u32 {
        self.slots.iter().map(Slot::len).sum::<u32>() + self.flying.is_some() as u32
    }
    /// Face-up stockpile tops.
    pub fn face_up(&self) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in self.slots.iter().filter_map(|s| s.up) {
            s.insert(c);
        }
        s
    }
    /// Every card the player still has (stockpiles, spit cards, card in flight).
    pub fn all_cards(&self) -> CardSet {
        let mut s = self.hidden.union(self.face_up());
        if let Some(c) = self.flying {
            s.insert(c);
        }
        s
    }
    /// Number of cards the player still has.
    pub fn count(&self) -> u32 {
        self.stock_count() + self.spit as u32
    }
}

/// The state of a Spit round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpitState {
    /// Both players' cards.
    pub players: [PlayerCards; 2],
    /// Spit pile `p` is the pile started by player `p` (SPIT-SETUP-4).
    pub piles: [Pile; 2],
    /// Which piles are in play (both, or one in single-pile mode).
    pub active: [bool; 2],
    /// Under `stall_spit_target=any`, the pile a solo spitter locked in (SPIT-STALL-4).
    pub solo_spit_pile: Option<u8>,
    /// Each player's legal moves (his hand idle), built when a round starts and kept up
    /// to date by the rules as slots and pile tops change (`super::moves`).
    pub moves: [SpitMoves; 2],
}

impl SpitState {
    /// No cards anywhere (before the first deal).
    pub const EMPTY: SpitState = SpitState {
        players: [PlayerCards { slots: [Slot { down: 0, up: None }; MAX_SLOTS], hidden: CardSet::EMPTY, spit: 0, flying: None, zone: ChanceKey(0) }; 2],
        piles: [Pile::EMPTY; 2],
        active: [false; 2],
        solo_spit_pile: None,
        moves: [SpitMoves::none(0), SpitMoves::none(1)],
    };
    /// True when only one spit pile is in play (SPIT-SHORT-3).
    pub fn single_pile(&self) -> bool {
        self.active[0] != self.active[1]
    }
    /// Every card in the state, with the number of cards counted (a card counted twice
    /// would show up as a count above the set size).
    pub fn census(&self) -> (CardSet, u32) {
        let mut all = CardSet::EMPTY;
        let mut n = 0;
        for p in &self.players {
            all = CardSet(all.0 | p.all_cards().0);
            n += p.count();
        }
        for pile in &self.piles {
            all = CardSet(all.0 | pile.cards.0);
            n += pile.len();
        }
        (all, n)
    }
}

/// Slot sizes of a short layout of `n` cards (SPIT-SHORT-2).
pub fn short_layout(n: u32, slots: usize, how: ShortDeal) -> [u8; MAX_SLOTS] {
    let mut sizes = [0u8; MAX_SLOTS];
    let mut left = n;
    match how {
        ShortDeal::Rowwise => {
            for row in 0..slots {
                for size in sizes.iter_mut().take(slots).skip(row) {
                    if left == 0 {
                        return sizes;
                    }
                    *size += 1;
                    left -= 1;
                }
            }
        }
        ShortDeal::Pilewise => {
            for (k, size) in sizes.iter_mut().enumerate().take(slots) {
                let take = left.min(k as u32 + 1);
                *size = take as u8;
                left -= take;
            }
        }
    }
    sizes
}

/// Deals a player's holding into a layout (SPIT-SETUP-2, SPIT-SETUP-5, SPIT-SHORT-2):
/// min(n, T) stockpile cards with their tops turned up, the rest as spit cards. Every
/// card turned up, now or later, is revealed from the hidden zone `zone`.
pub fn deal_layout(holding: CardSet, cfg: &SpitConfig, zone: ChanceKey) -> PlayerCards {
    let n = holding.len();
    let slots = cfg.slots as usize;
    let t = cfg.stock_capacity();
    let sizes = if n >= t {
        let mut full = [0u8; MAX_SLOTS];
        for (k, s) in full.iter_mut().enumerate().take(slots) {
            *s = k as u8 + 1;
        }
        full
    } else {
        short_layout(n, slots, cfg.short_deal)
    };
    let mut hidden = holding;
    let mut p = PlayerCards { zone, ..PlayerCards::default() };
    for (slot, &size) in p.slots.iter_mut().zip(&sizes) {
        if size > 0 {
            slot.down = size - 1;
            slot.up = Some(hidden.draw_keyed(zone));
        }
    }
    p.spit = n.saturating_sub(t) as u8;
    p.hidden = hidden;
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from;
    use rand::RngExt;

    #[test]
    fn spit_short_2_rowwise_and_pilewise_example() {
        // SPIT-SHORT-2: n = 8 gives 1,2,2,2,1 rowwise and 1,2,3,2,0 pilewise.
        assert_eq!(short_layout(8, 5, ShortDeal::Rowwise), [1, 2, 2, 2, 1]);
        assert_eq!(short_layout(8, 5, ShortDeal::Pilewise), [1, 2, 3, 2, 0]);
        assert_eq!(short_layout(15, 5, ShortDeal::Rowwise), [1, 2, 3, 4, 5]);
        assert_eq!(short_layout(3, 5, ShortDeal::Rowwise), [1, 1, 1, 0, 0]);
    }

    #[test]
    fn spit_setup_1_2_3_first_deal_layout() {
        // SPIT-SETUP-1..3: 26 cards, slots of 1..5 with only the top face up, 11 spit cards.
        let cfg = SpitConfig::default();
        let mut rng = rng_from(1);
        let (mine, _) = crate::cards::deal_split(&mut rng, CardSet::FULL, 26);
        let p = deal_layout(mine, &cfg, ChanceKey(rng.random()));
        for (k, s) in p.slots.iter().enumerate() {
            assert_eq!((s.down as usize, s.up.is_some()), (k, true));
        }
        assert_eq!(p.spit, 11);
        assert_eq!(p.stock_count(), 15);
        assert_eq!(p.hidden.len(), 10 + 11);
        assert_eq!(p.all_cards(), mine);
    }

    #[test]
    fn spit_var_1_four_stockpiles() {
        // SPIT-VAR-1: slots 1..4, T = 10, 16 spit cards on the first deal.
        let cfg = SpitConfig { slots: 4, ..SpitConfig::default() };
        assert_eq!(cfg.stock_capacity(), 10);
        let mut rng = rng_from(2);
        let (mine, _) = crate::cards::deal_split(&mut rng, CardSet::FULL, 26);
        let p = deal_layout(mine, &cfg, ChanceKey(rng.random()));
        assert_eq!(p.spit, 16);
        assert_eq!(p.stock_count(), 10);
        assert!(p.slots[4].is_empty());
    }

    #[test]
    fn spit_setup_5_later_deal_with_unequal_holdings() {
        // SPIT-SETUP-5 / SPIT-EX-6: 12 cards deal rowwise 1,2,3,3,3 with no spit cards; 40 cards give 15 + 25.
        let cfg = SpitConfig::default();
        let mut rng = rng_from(3);
        let (small, big) = crate::cards::deal_split(&mut rng, CardSet::FULL, 12);
        let s = deal_layout(small, &cfg, ChanceKey(rng.random()));
        let sizes: Vec<u32> = s.slots.iter().map(Slot::len).collect();
        assert_eq!(sizes, [1, 2, 3, 3, 3]);
        assert_eq!(s.spit, 0);
        let l = deal_layout(big, &cfg, ChanceKey(rng.random()));
        assert_eq!((l.stock_count(), l.spit), (15, 25));
    }
}
