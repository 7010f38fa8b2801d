//! Cards as bytes and sets of cards as `u64` bitsets.
//!
//! A card is `rank_index * 4 + suit` with rank index 0..13 for A,2,..,K and suits
//! clubs, diamonds, hearts, spades. Rank *values* run 1 (A) to 13 (K). Games with a deck
//! per player use [`DeckCard`] (a card and the deck it belongs to, jokers included) and
//! [`DeckSet`] (a bitset per deck).

use rand::{Rng, RngExt};

/// One card of a standard 52-card deck, packed into a byte.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Card(pub u8);

/// Rank names indexed by rank value minus one.
pub const RANK_NAMES: [&str; 13] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
/// Suit letters: clubs, diamonds, hearts, spades.
pub const SUIT_NAMES: [char; 4] = ['c', 'd', 'h', 's'];

impl Card {
    /// The card of rank value `rank` (1 = A .. 13 = K) and suit `suit` (0..4).
    pub const fn new(rank: u8, suit: u8) -> Card {
        Card((rank - 1) * 4 + suit)
    }
    /// Rank value, 1 (A) to 13 (K).
    pub const fn rank(self) -> u8 {
        self.0 / 4 + 1
    }
    /// Suit index 0..4 (clubs, diamonds, hearts, spades).
    pub const fn suit(self) -> u8 {
        self.0 % 4
    }
    /// True for diamonds and hearts.
    pub const fn is_red(self) -> bool {
        matches!(self.suit(), 1 | 2)
    }
    /// Human-readable name such as `10h` or `As`.
    pub fn name(self) -> String {
        format!("{}{}", RANK_NAMES[(self.rank() - 1) as usize], SUIT_NAMES[self.suit() as usize])
    }
}

/// `CIRCULAR_NEIGHBOURS[r]` has bit `q` set when rank values `r` and `q` are adjacent
/// on the circular order.
const CIRCULAR_NEIGHBOURS: [u16; 14] = {
    let mut t = [0u16; 14];
    let mut r = 1;
    while r <= 13 {
        let up = if r == 13 { 1 } else { r + 1 };
        let down = if r == 1 { 13 } else { r - 1 };
        t[r] = (1 << up) | (1 << down);
        r += 1;
    }
    t
};

/// True if two rank values are neighbours on the circular order A-2-..-K-A (SPIT-DECK-3).
#[inline]
pub const fn ranks_adjacent_circular(a: u8, b: u8) -> bool {
    CIRCULAR_NEIGHBOURS[a as usize] >> b & 1 == 1
}

/// True if two rank values differ by exactly one on the straight order 2 < .. < K < A.
pub const fn ranks_adjacent_straight(a: u8, b: u8) -> bool {
    let x = if a == 1 { 14 } else { a };
    let y = if b == 1 { 14 } else { b };
    x + 1 == y || y + 1 == x
}

/// The lowest bit of each of thirteen 4-bit counters, one a rank: a one-card-per-rank set
/// in the card bits' layout (the clubs card of each rank) and the unit of per-rank counts.
pub const RANK_NIBBLE_ONES: u64 = 0x1_1111_1111_1111;

/// The sum of the sixteen 4-bit counters packed in `counts`: the size of a multiset kept
/// as a count per rank (Lopti's zones, [`CardSet`]s counted by rank in Speed's `smart`).
#[inline]
pub const fn nibble_sum(counts: u64) -> u32 {
    const LOW_NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let pairs = (counts & LOW_NIBBLES) + ((counts >> 4) & LOW_NIBBLES);
    (pairs.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// A set of cards as a 52-bit mask.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 52 cards.
    pub const FULL: CardSet = CardSet((1u64 << 52) - 1);

    /// Number of cards in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// True when the set holds no card.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// True when `c` is in the set.
    pub const fn contains(self, c: Card) -> bool {
        self.0 >> c.0 & 1 == 1
    }
    /// Adds a card (it must not be present yet).
    pub fn insert(&mut self, c: Card) {
        debug_assert!(!self.contains(c), "card {} already in set", c.name());
        self.0 |= 1 << c.0;
    }
    /// Removes a card (it must be present).
    pub fn remove(&mut self, c: Card) {
        debug_assert!(self.contains(c), "card {} not in set", c.name());
        self.0 &= !(1 << c.0);
    }
    /// Union of two disjoint sets.
    pub fn union(self, other: CardSet) -> CardSet {
        debug_assert!(self.0 & other.0 == 0, "sets overlap");
        CardSet(self.0 | other.0)
    }
    /// The `n`-th card (0-based, lowest first).
    pub fn nth(self, n: u32) -> Card {
        debug_assert!(n < self.len());
        let mut bits = self.0;
        for _ in 0..n {
            bits &= bits - 1;
        }
        Card(bits.trailing_zeros() as u8)
    }
    /// Removes and returns a uniformly random card: the deferred-decision draw of a
    /// hidden card (design notes section 4).
    pub fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Card {
        let n = self.len();
        assert!(n > 0, "draw from an empty set");
        let c = self.nth(rng.random_range(0..n));
        self.remove(c);
        c
    }
    /// Removes and returns the card a hidden zone reveals next, drawn from `key` (common
    /// random numbers: the same zone with the same cards left reveals the same card in
    /// every seating of a deal, see [`crate::rng::ChanceKey`]).
    pub fn draw_keyed(&mut self, key: crate::rng::ChanceKey) -> Card {
        let n = self.len();
        assert!(n > 0, "draw from an empty set");
        let c = self.nth(key.index(n));
        self.remove(c);
        c
    }
    /// Iterates over the cards, lowest first.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let c = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Some(Card(c))
            }
        })
    }
}

/// Joker codes of a [`DeckCard`] (a deck may hold up to two jokers): card values 52, 53.
pub const JOKERS: [u8; 2] = [52, 53];
/// Card values per deck: the 52 standard cards and the two jokers.
pub const CARDS_PER_DECK: u8 = 54;
/// Most decks at one table (one per player of an eight-player game).
pub const MAX_DECKS: usize = 8;

/// A card of one of several decks (Nerts: a deck per player, and a foundation credits the
/// card's owner), packed into two bytes: the deck (`0..MAX_DECKS`) and the card value,
/// `0..52` for the standard cards as in [`Card`] or one of [`JOKERS`]. `Copy`, ordered by
/// deck then value.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct DeckCard {
    /// The deck (= its owner's seat, or team) the card belongs to.
    pub deck: u8,
    /// `0..52` as [`Card`], or a joker code.
    pub value: u8,
}

impl DeckCard {
    /// Standard card `card` of deck `deck`.
    pub const fn new(deck: u8, card: Card) -> DeckCard {
        debug_assert!((deck as usize) < MAX_DECKS && card.0 < 52);
        DeckCard { deck, value: card.0 }
    }
    /// Joker `j` (0 or 1) of deck `deck`.
    pub const fn joker(deck: u8, j: u8) -> DeckCard {
        debug_assert!((deck as usize) < MAX_DECKS);
        DeckCard { deck, value: JOKERS[j as usize] }
    }
    /// True for a joker.
    pub const fn is_joker(self) -> bool {
        self.value >= 52
    }
    /// The standard card, `None` for a joker (the conversion to [`Card`]: the deck is
    /// dropped, so two decks' aces of spades give the same `Card`).
    pub const fn card(self) -> Option<Card> {
        if self.is_joker() { None } else { Some(Card(self.value)) }
    }
    /// Name such as `10h@2` (deck 2) or `Jk@0`.
    pub fn name(self) -> String {
        match self.card() {
            Some(c) => format!("{}@{}", c.name(), self.deck),
            None => format!("Jk@{}", self.deck),
        }
    }
}

/// A set of cards of up to [`MAX_DECKS`] decks: one 54-bit mask per deck (bit `value`
/// of word `deck`), `Copy` and on the stack (64 bytes).
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug, Hash)]
pub struct DeckSet(pub [u64; MAX_DECKS]);

impl DeckSet {
    /// The empty set.
    pub const EMPTY: DeckSet = DeckSet([0; MAX_DECKS]);

    /// Every card of deck `deck`: its 52 standard cards and its first `jokers` jokers
    /// (0, 1 or 2).
    pub const fn full_deck(deck: u8, jokers: u8) -> DeckSet {
        debug_assert!(jokers <= 2);
        let mut words = [0; MAX_DECKS];
        words[deck as usize] = (1u64 << (52 + jokers)) - 1;
        DeckSet(words)
    }
    /// Number of cards in the set.
    pub const fn len(self) -> u32 {
        let mut n = 0;
        let mut d = 0;
        while d < MAX_DECKS {
            n += self.0[d].count_ones();
            d += 1;
        }
        n
    }
    /// True when the set holds no card.
    pub fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    /// True when `c` is in the set.
    pub const fn contains(self, c: DeckCard) -> bool {
        self.0[c.deck as usize] >> c.value & 1 == 1
    }
    /// Adds a card (it must not be present yet).
    pub fn insert(&mut self, c: DeckCard) {
        debug_assert!(!self.contains(c), "card {} already in set", c.name());
        self.0[c.deck as usize] |= 1 << c.value;
    }
    /// Removes a card (it must be present).
    pub fn remove(&mut self, c: DeckCard) {
        debug_assert!(self.contains(c), "card {} not in set", c.name());
        self.0[c.deck as usize] &= !(1 << c.value);
    }
    /// Union of two disjoint sets.
    pub fn union(self, other: DeckSet) -> DeckSet {
        DeckSet(std::array::from_fn(|d| {
            debug_assert!(self.0[d] & other.0[d] == 0, "sets overlap in deck {d}");
            self.0[d] | other.0[d]
        }))
    }
    /// The standard cards of deck `deck` in the set, as a [`CardSet`] (jokers dropped).
    pub const fn standard(self, deck: u8) -> CardSet {
        CardSet(self.0[deck as usize] & CardSet::FULL.0)
    }
    /// Iterates over the cards, by deck then value.
    pub fn iter(self) -> impl Iterator<Item = DeckCard> {
        (0..MAX_DECKS as u8).flat_map(move |deck| {
            let mut bits = self.0[deck as usize];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let value = bits.trailing_zeros() as u8;
                    bits &= bits - 1;
                    DeckCard { deck, value }
                })
            })
        })
    }
}

/// Splits the full deck uniformly at random into a set of `n` cards and the rest.
pub fn deal_split<R: Rng + ?Sized>(rng: &mut R, mut pool: CardSet, n: u32) -> (CardSet, CardSet) {
    let mut hand = CardSet::EMPTY;
    for _ in 0..n {
        hand.insert(pool.draw(rng));
    }
    (hand, pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_cards_pack_deck_and_value() {
        let c = DeckCard::new(7, Card::new(10, 2));
        assert_eq!((c.deck, c.card(), c.is_joker(), c.name()), (7, Some(Card::new(10, 2)), false, "10h@7".to_string()));
        let j = DeckCard::joker(3, 1);
        assert_eq!((j.is_joker(), j.card(), j.name()), (true, None, "Jk@3".to_string()));
        assert_eq!(std::mem::size_of::<DeckCard>(), 2);
        // The same card of two decks is two cards, and one Card.
        let (a, b) = (DeckCard::new(0, Card::new(1, 3)), DeckCard::new(5, Card::new(1, 3)));
        assert!(a != b && a < b && a.card() == b.card());
    }

    #[test]
    fn deck_sets_hold_every_card_of_eight_decks_once() {
        let mut all = DeckSet::EMPTY;
        for d in 0..MAX_DECKS as u8 {
            all = all.union(DeckSet::full_deck(d, 2));
        }
        assert_eq!(all.len(), 8 * CARDS_PER_DECK as u32);
        assert_eq!(all.iter().count(), 432);
        assert!(all.iter().zip(all.iter().skip(1)).all(|(x, y)| x < y), "by deck, then value");
        assert_eq!(all.standard(4), CardSet::FULL, "jokers are not standard cards");
        let mut s = DeckSet::full_deck(2, 1);
        assert_eq!(s.len(), 53);
        let (jk, ace) = (DeckCard::joker(2, 0), DeckCard::new(6, Card::new(1, 0)));
        assert!(s.contains(jk) && !s.contains(DeckCard::joker(2, 1)) && !s.contains(ace));
        s.remove(jk);
        s.insert(ace);
        assert_eq!((s.len(), s.contains(jk), s.contains(ace)), (53, false, true));
        assert_eq!(s.iter().last(), Some(ace));
        assert!(DeckSet::EMPTY.is_empty() && !s.is_empty());
        assert_eq!(std::mem::size_of::<DeckSet>(), 64);
    }
    use rand::SeedableRng;

    #[test]
    fn card_packing_roundtrips() {
        for r in 1..=13 {
            for s in 0..4 {
                let c = Card::new(r, s);
                assert_eq!((c.rank(), c.suit()), (r, s));
            }
        }
        assert_eq!(Card::new(10, 2).name(), "10h");
        assert!(Card::new(1, 1).is_red() && !Card::new(1, 3).is_red());
    }

    #[test]
    fn circular_and_straight_adjacency() {
        assert!(ranks_adjacent_circular(1, 13) && ranks_adjacent_circular(1, 2));
        assert!(!ranks_adjacent_circular(1, 1) && !ranks_adjacent_circular(1, 3));
        assert!(ranks_adjacent_straight(13, 1) && !ranks_adjacent_straight(1, 2));
    }

    #[test]
    fn draw_removes_a_member_and_empties_the_set() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let mut s = CardSet::FULL;
        let mut seen = CardSet::EMPTY;
        for _ in 0..52 {
            let c = s.draw(&mut rng);
            assert!(!seen.contains(c));
            seen.insert(c);
        }
        assert!(s.is_empty());
        assert_eq!(seen, CardSet::FULL);
        let (a, b) = deal_split(&mut rng, CardSet::FULL, 26);
        assert_eq!((a.len(), b.len()), (26, 26));
        assert_eq!(a.union(b), CardSet::FULL);
    }
}
