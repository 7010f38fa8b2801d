//! Ranks in Lopti order and multisets of ranks packed into a `u64`.
//!
//! Suits never matter in Lopti (LOPTI-DECK-2), so every zone (hand, face-up, face-down,
//! draw pile, play pile, out of round) is a multiset of ranks: thirteen 4-bit counters.

use crate::rng::{ChanceKey, SimRng};
use rand::RngExt;
use std::fmt;

/// A rank as its index in Lopti's normal order, low to high: 0 = `2`, 1 = `3`, ..,
/// 8 = `10`, 9 = `J`, 10 = `Q`, 11 = `K`, 12 = `A` (ace high, LOPTI-DECK-2).
pub type Rank = u8;

/// Number of ranks.
pub const RANKS: usize = 13;
/// The 2 (reset, LOPTI-2-*).
pub const TWO: Rank = 0;
/// The 3 (pass on, LOPTI-3-*).
pub const THREE: Rank = 1;
/// The 7 (play low, LOPTI-7-*).
pub const SEVEN: Rank = 5;
/// The 10 (clear, LOPTI-10-*).
pub const TEN: Rank = 8;

/// Rank names in Lopti order, as written in positions and traces.
pub const RANK_NAMES: [&str; RANKS] = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

/// The name of a rank, e.g. `10` or `Q`.
pub fn rank_name(r: Rank) -> &'static str {
    RANK_NAMES[r as usize]
}

/// Parses a rank name (`2`..`10`, `J`, `Q`, `K`, `A`; letters in either case).
pub fn parse_rank(text: &str) -> Option<Rank> {
    let upper = text.trim().to_ascii_uppercase();
    RANK_NAMES.iter().position(|&n| n == upper).map(|i| i as Rank)
}

/// True for the four special ranks 2, 3, 7 and 10 (LOPTI-DECK-3).
pub const fn is_special(r: Rank) -> bool {
    matches!(r, TWO | THREE | SEVEN | TEN)
}

const LOW_NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
/// The lowest bit of each of the thirteen rank counters.
const HELD: u64 = crate::cards::RANK_NIBBLE_ONES;

/// A multiset of ranks: a 4-bit count per rank (0..=15; a real zone holds at most 4).
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Ranks(pub u64);

impl Ranks {
    /// No cards.
    pub const EMPTY: Ranks = Ranks(0);
    /// The whole deck: four cards of each of the 13 ranks (LOPTI-DECK-1).
    pub const DECK: Ranks = Ranks(0x4_4444_4444_4444);

    /// `n` cards of rank `r`.
    pub const fn of(r: Rank, n: u8) -> Ranks {
        Ranks((n as u64) << (4 * r as u32))
    }
    /// How many cards of rank `r`.
    pub const fn count(self, r: Rank) -> u8 {
        ((self.0 >> (4 * r as u32)) & 0xF) as u8
    }
    /// Adds `n` cards of rank `r`.
    pub fn add(&mut self, r: Rank, n: u8) {
        debug_assert!(self.count(r) + n <= 15, "rank counter overflow");
        self.0 += Ranks::of(r, n).0;
    }
    /// Removes `n` cards of rank `r` (which must be there).
    pub fn remove(&mut self, r: Rank, n: u8) {
        debug_assert!(self.count(r) >= n, "removing {n} x {} from {self:?}", rank_name(r));
        self.0 -= Ranks::of(r, n).0;
    }
    /// Adds every card of `other`.
    pub fn add_all(&mut self, other: Ranks) {
        self.0 += other.0;
    }
    /// Removes every card of `other` (which must be a sub-multiset).
    pub fn remove_all(&mut self, other: Ranks) {
        debug_assert!(other.is_subset_of(*self), "{other:?} is not in {self:?}");
        self.0 -= other.0;
    }
    /// True if every count of `self` is at most the count in `other`.
    pub fn is_subset_of(self, other: Ranks) -> bool {
        (0..RANKS as Rank).all(|r| self.count(r) <= other.count(r))
    }
    /// Total number of cards.
    pub const fn len(self) -> u32 {
        crate::cards::nibble_sum(self.0)
    }
    /// True if there are no cards.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The ranks present, low to high, each once.
    pub fn ranks(self) -> impl Iterator<Item = Rank> {
        // The lowest bit of each rank's counter set when the counter is not zero (the
        // counter's four bits ORed into it), walked low to high.
        let x = self.0;
        let mut held = (x | x >> 1 | x >> 2 | x >> 3) & HELD;
        std::iter::from_fn(move || {
            (held != 0).then(|| {
                let b = held.trailing_zeros();
                held &= held - 1;
                (b / 4) as Rank
            })
        })
    }
    /// Every card, low to high (a rank appears as often as it is counted).
    pub fn cards(self) -> impl Iterator<Item = Rank> {
        (0..RANKS as Rank).flat_map(move |r| std::iter::repeat_n(r, self.count(r) as usize))
    }
    /// The `k`-th card in low-to-high order (`k < len`; at most 128 cards, as every
    /// multiset of one deck).
    pub fn nth(self, k: u32) -> Rank {
        // Without a walk over the ranks: byte `j` of `pairs` counts ranks `2j` and
        // `2j + 1`, byte `j` of `prefix` the ranks up to `2j + 1` (at most 128 cards, so
        // no byte carries into the next). Adding `0x7F - k` to every byte sets its high
        // bit exactly when the byte is above `k` (the sum stays in 0..=255), so the
        // lowest such byte is the pair holding the `k`-th card: the lower rank of the
        // pair if `k` falls within its count, else the higher one.
        const BYTES: u64 = 0x0101_0101_0101_0101;
        debug_assert!(self.len() <= 128, "{} cards", self.len());
        let pairs = (self.0 & LOW_NIBBLES) + ((self.0 >> 4) & LOW_NIBBLES);
        let prefix = pairs.wrapping_mul(BYTES);
        let above = (prefix + (0x7F - k.min(0x7F) as u64) * BYTES) & (0x80 * BYTES);
        assert!(above != 0 && k <= 0x7F, "index {k} beyond a multiset of {} cards", self.len());
        let j = above.trailing_zeros() / 8;
        let before = ((prefix << 8) >> (8 * j)) as u32 & 0xFF;
        let low = 2 * j as Rank;
        low + (k - before >= self.count(low) as u32) as Rank
    }
    /// Removes and returns a uniformly random card: an unseen pile whose order nobody
    /// knows is equivalent to drawing from its multiset when the card is revealed
    /// (LOPTI-AMB-17, deferred decisions). The multiset must not be empty.
    pub fn take_random(&mut self, rng: &mut SimRng) -> Rank {
        let r = self.nth(rng.random_range(0..self.len()));
        self.remove(r, 1);
        r
    }
    /// Removes and returns a uniformly random card chosen by the hidden zone `zone`
    /// (common random numbers, `crate::rng::ChanceKey`): the card is the one at index
    /// `zone.index(len)` in low-to-high order, so the same zone holding the same cards
    /// gives the same card, whatever else was drawn at the table. Uniform over the cards
    /// like [`Ranks::take_random`]. The multiset must not be empty.
    pub fn take_keyed(&mut self, zone: ChanceKey) -> Rank {
        let r = self.nth(zone.index(self.len()));
        self.remove(r, 1);
        r
    }
    /// Removes and returns `n` uniformly random cards as a multiset.
    pub fn take_random_n(&mut self, n: u32, rng: &mut SimRng) -> Ranks {
        let mut taken = Ranks::EMPTY;
        for _ in 0..n {
            taken.add(self.take_random(rng), 1);
        }
        taken
    }
    /// The cards as names, low to high, e.g. `["4", "9", "9", "K"]`.
    pub fn names(self) -> Vec<&'static str> {
        self.cards().map(rank_name).collect()
    }
}

impl fmt::Debug for Ranks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}}}", self.names().join(" "))
    }
}

impl fmt::Display for Ranks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Builds a multiset from rank names separated by spaces, e.g. `"9 9 K"` (tests and tools).
pub fn ranks_from(text: &str) -> Result<Ranks, String> {
    let mut set = Ranks::EMPTY;
    for word in text.split_whitespace() {
        let r = parse_rank(word).ok_or_else(|| format!("'{word}' is not a rank (2..10, J, Q, K, A)"))?;
        set.add(r, 1);
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from;

    #[test]
    fn deck_has_52_cards_of_13_ranks_lopti_deck_1() {
        assert_eq!(Ranks::DECK.len(), 52, "LOPTI-DECK-1: one 52-card deck");
        assert!((0..13).all(|r| Ranks::DECK.count(r) == 4), "LOPTI-DECK-1: four of each rank, no jokers");
    }

    #[test]
    fn rank_order_is_2_low_ace_high_lopti_deck_2() {
        let order: Vec<Rank> = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
            .iter()
            .map(|n| parse_rank(n).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "LOPTI-DECK-2: 2 < 3 < .. < K < A");
        assert_eq!(parse_rank("q"), Some(10));
        assert_eq!(parse_rank("1"), None);
        assert_eq!(parse_rank("11"), None);
    }

    #[test]
    fn special_ranks_are_2_3_7_10_lopti_deck_3() {
        let specials: Vec<&str> = (0..13).filter(|&r| is_special(r)).map(rank_name).collect();
        assert_eq!(specials, ["2", "3", "7", "10"], "LOPTI-DECK-3");
    }

    #[test]
    fn counters_add_remove_and_count() {
        let mut s = ranks_from("9 9 K 2").unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(s.count(7), 2);
        s.remove(7, 2);
        s.add(TEN, 3);
        assert_eq!(format!("{s:?}"), "{2 10 10 10 K}");
        assert_eq!(s.nth(0), TWO);
        assert_eq!(s.nth(4), 11);
        assert!(ranks_from("Z").is_err());
    }

    /// A multiset with `count(rng)` cards of each rank, drawn rank by rank from 2 up.
    fn random_multiset(rng: &mut crate::rng::SimRng, mut count: impl FnMut(&mut crate::rng::SimRng) -> u8) -> Ranks {
        let mut s = Ranks::EMPTY;
        for r in 0..RANKS as Rank {
            s.add(r, count(rng));
        }
        s
    }

    #[test]
    fn nth_is_the_card_at_that_place_in_low_to_high_order() {
        use rand::RngExt;
        let mut rng = rng_from(11);
        for _ in 0..20_000 {
            let s = random_multiset(&mut rng, |rng| rng.random_range(0..=4));
            let cards: Vec<Rank> = s.cards().collect();
            assert!(cards.iter().enumerate().all(|(k, &r)| s.nth(k as u32) == r), "{s:?}");
        }
        let many = Ranks(0x9_9999_9999_9999);
        let cards: Vec<Rank> = many.cards().collect();
        assert_eq!(cards.len(), 117);
        assert!(cards.iter().enumerate().all(|(k, &r)| many.nth(k as u32) == r), "counts above 4");
        assert!(std::panic::catch_unwind(|| Ranks::DECK.nth(52)).is_err(), "beyond the cards");
    }

    #[test]
    fn ranks_are_the_ranks_held_low_to_high() {
        use rand::RngExt;
        let mut rng = rng_from(12);
        for _ in 0..20_000 {
            let s = random_multiset(&mut rng, |rng| [0, 0, 1, 2, 3, 4, 15][rng.random_range(0..7)]);
            let want: Vec<Rank> = (0..RANKS as Rank).filter(|&r| s.count(r) > 0).collect();
            assert_eq!(s.ranks().collect::<Vec<_>>(), want, "{s:?}");
        }
    }

    #[test]
    fn random_take_is_uniform_over_cards() {
        let base = ranks_from("4 9 9 9").unwrap();
        let mut rng = rng_from(5);
        let mut nines = 0;
        for _ in 0..40_000 {
            let mut s = base;
            if s.take_random(&mut rng) == 7 {
                nines += 1;
            }
            assert_eq!(s.len(), 3);
        }
        assert!((29_000..31_000).contains(&nines), "3 of 4 cards are nines: {nines}");
    }

    #[test]
    fn keyed_take_is_uniform_over_cards_and_depends_on_the_zone_and_the_cards_only() {
        let base = ranks_from("4 9 9 9").unwrap();
        let mut nines = 0;
        for z in 0..40_000u64 {
            let mut s = base;
            if s.take_keyed(ChanceKey(7).zone(z)) == 7 {
                nines += 1;
            }
            assert_eq!(s.len(), 3);
        }
        assert!((29_000..31_000).contains(&nines), "3 of 4 cards are nines: {nines}");
        // Emptying a zone card by card is a uniform permutation of its cards: every
        // order of {4 9 A} comes up about equally often.
        let mut orders = std::collections::HashMap::new();
        for z in 0..60_000u64 {
            let mut s = ranks_from("4 9 A").unwrap();
            let order: Vec<Rank> = (0..3).map(|_| s.take_keyed(ChanceKey(z))).collect();
            *orders.entry(order).or_insert(0u32) += 1;
        }
        assert_eq!(orders.len(), 6);
        assert!(orders.values().all(|&c| c.abs_diff(10_000) < 500), "{orders:?}");
        let (mut a, mut b) = (base, base);
        assert_eq!(a.take_keyed(ChanceKey(3)), b.take_keyed(ChanceKey(3)), "same zone, same cards: same card");
    }
}
