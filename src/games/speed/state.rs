//! The bit-packed Speed state. Every face-down pile (personal stocks, side piles, the
//! middle cards) is a set from which a card is drawn when it is revealed (design notes
//! section 4); hands are sets their owner sees; centre piles are sets with a known top.
//! The state also remembers every card shown in the centre this deal, which both players
//! have seen, and what each player's behaviour has shown about his hand
//! ([`HandMemory`]). `Copy`, 120 bytes (the memory fits in padding).

use super::config::SpeedConfig;
use crate::cards::{deal_split, Card, CardSet};
use crate::realtime::Pile;
use crate::rng::{rng_from, ChanceKey, SimRng};
use rand::RngExt;

/// Most cards a hand holds (SPEED-PLAY-2).
pub const HAND_LIMIT: u32 = 5;

/// One player's cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerCards {
    /// The hand: seen by its owner only.
    pub hand: CardSet,
    /// The face-down personal stock: seen by nobody.
    pub stock: CardSet,
    /// A hand card on its way to a centre pile (SPIT-RT-4).
    pub flying: Option<Card>,
    /// What the player's behaviour has shown about his hand (public memory): which
    /// ranks each of his hand cards cannot be ([`HandMemory`]).
    pub memory: HandMemory,
}

/// Public memory of what a player's behaviour has shown about his hand, kept by the
/// rules from events both players see. His hand cards (the card in flight included) are
/// *slots* ordered by the time they entered the hand, oldest first; each slot has a set
/// of ranks it cannot be. A *constraint* (he starts a draw: a player who plays whenever
/// he can then has no play; or a stall is declared: by SPEED-STALL-1 nobody has one)
/// adds the ranks that fit a centre top at that instant to every slot in his hand. So
/// the sets are nested: an older slot excludes every rank a newer one does. A draw
/// landing adds a slot that excludes nothing; a play landing with card `c` removes the
/// oldest slot that may be `c` (whose set lacks `c`'s rank), and if no slot may be `c`
/// (he played a card he showed not to have: he does not always play when he can) the
/// memory is cleared rather than kept wrong.
///
/// A third constraint comes from waiting: a player who is idle after an event (no card
/// in flight, no draw started, not busy after a flip) decides at once; if he still has
/// started nothing when the next event comes, none of his cards fits the tops he saw.
/// What everybody can tell is kept as three flags: he is drawing (from a draw's start
/// to its landing), he may still be busy after a flip he made (until he next starts an
/// action: when his hand is free again is not seen), and he was idle after the last
/// event (*watched*, until he starts an action).
///
/// Because the sets are nested, the memory is kept as one *depth* per rank: rank `r` is
/// excluded from the `depth(r)` oldest slots. 13 depths of 3 bits (0 to 5) and the three
/// flags fit in 48 bits, so [`PlayerCards`] keeps its size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandMemory([u16; 3]);

/// The flag bits above the 39 depth bits.
const DRAWING: u64 = 1 << 39;
const RESTING: u64 = 1 << 40;
const WATCHED: u64 = 1 << 41;
/// The depth bits.
const DEPTHS: u64 = (1 << 39) - 1;
/// Bit 0 of every other 3-bit depth field, the fields 6 bits apart (7 of them: the even
/// ranks' fields, or the odd ranks' shifted down by 3).
const LANE_ONES: u64 = 0x10_4104_1041;
/// The 3 bits of every other depth field.
const LANE_FIELDS: u64 = 7 * LANE_ONES;

impl HandMemory {
    fn flag(self, f: u64) -> bool {
        self.bits() & f != 0
    }
    fn set_flag(&mut self, f: u64, on: bool) {
        let b = self.bits();
        self.store(if on { b | f } else { b & !f });
    }
    /// He has started a draw that has not landed.
    pub fn drawing(self) -> bool {
        self.flag(DRAWING)
    }
    /// He turned a side card (or the opening card) and has started nothing since: his
    /// hand may still be busy.
    pub fn may_rest(self) -> bool {
        self.flag(RESTING)
    }
    /// He was idle after the last event and has started nothing since.
    pub fn watched(self) -> bool {
        self.flag(WATCHED)
    }
    /// He starts an action: a draw (`drawing`) or a play.
    pub fn start(&mut self, drawing: bool) {
        let b = self.bits() & !(RESTING | WATCHED | DRAWING);
        self.store(if drawing { b | DRAWING } else { b });
    }
    /// His draw landed or was called off.
    pub fn drawn(&mut self) {
        self.set_flag(DRAWING, false);
    }
    /// He turned a card at a flip: busy for a while nobody can see.
    pub fn rest(&mut self) {
        self.set_flag(RESTING, true);
    }
    /// Marks him watched: idle after this event (set by the caller when he has no card
    /// in flight and is neither drawing nor maybe resting).
    pub fn watch(&mut self, on: bool) {
        self.set_flag(WATCHED, on);
    }
    fn bits(self) -> u64 {
        self.0[0] as u64 | (self.0[1] as u64) << 16 | (self.0[2] as u64) << 32
    }
    fn store(&mut self, b: u64) {
        self.0 = [b as u16, (b >> 16) as u16, (b >> 32) as u16];
    }
    /// The number of oldest slots that exclude rank `rank` (1 = A .. 13 = K).
    pub fn depth(self, rank: u8) -> u32 {
        (self.bits() >> (3 * (rank as u32 - 1)) & 7) as u32
    }
    /// The ranks slot `i` (0 = oldest) cannot be: bit `r - 1` for rank `r`. Empty for a
    /// slot past the hand.
    pub fn slot(self, i: u32) -> u16 {
        let b = self.bits();
        (0..13).filter(|&r| (b >> (3 * r) & 7) as u32 > i).fold(0, |m, r| m | 1 << r)
    }
    /// The slot masks of a hand of `slots` cards, oldest first (entries past the hand
    /// are 0).
    pub fn slots(self) -> [u16; HAND_LIMIT as usize] {
        std::array::from_fn(|i| self.slot(i as u32))
    }
    /// A constraint: every one of the `slots` hand cards excludes the ranks in `ranks`
    /// (bit `r - 1` for rank `r`).
    pub fn exclude(&mut self, ranks: u16, slots: u32) {
        // One 3-bit field of 7 (and one of `slots`) at every rank in `ranks`.
        let (mut fields, mut set) = (0u64, 0u64);
        let mut left = ranks & 0x1FFF;
        while left != 0 {
            let r = left.trailing_zeros();
            left &= left - 1;
            fields |= 7 << (3 * r);
            set |= (slots as u64) << (3 * r);
        }
        self.store(self.bits() & !fields | set);
    }
    /// A card of rank `rank` left a hand of `slots` cards: the oldest slot that may hold
    /// it goes (every older one excludes `rank`, so it is slot `depth(rank)`). Returns
    /// false, and clears the memory, if no slot may hold it.
    pub fn remove(&mut self, rank: u8, slots: u32) -> bool {
        let k = self.depth(rank);
        if k >= slots {
            let flags = self.bits() & !DEPTHS;
            self.store(flags);
            return false;
        }
        // Every depth above `k` less one, all 13 at once: the even and the odd ranks'
        // 3-bit fields each spread 6 bits apart, so that adding 7 - k to a depth (at most
        // 5 + 7) carries into its fourth bit exactly when the depth is above `k`.
        let b = self.bits();
        let lanes = |x: u64| {
            let above = (x + (7 - k as u64) * LANE_ONES) >> 3 & LANE_ONES;
            x - above
        };
        let even = lanes(b & LANE_FIELDS);
        let odd = lanes((b & DEPTHS) >> 3 & LANE_FIELDS);
        self.store(b & !DEPTHS | even | odd << 3);
        true
    }
}

impl PlayerCards {
    /// Every card the player still has (hand, stock, card in flight).
    pub fn all_cards(&self) -> CardSet {
        let mut s = self.hand.union(self.stock);
        if let Some(c) = self.flying {
            s.insert(c);
        }
        s
    }
    /// Number of cards the player still has.
    pub fn count(&self) -> u32 {
        self.all_cards().len()
    }
    /// Hand cards, the card in flight included (it left the hand and may come back).
    pub fn hand_count(&self) -> u32 {
        self.hand.len() + self.flying.is_some() as u32
    }
    /// True if the player may draw from his stock now (SPEED-PLAY-2).
    pub fn can_draw(&self) -> bool {
        // `hand_count() < HAND_LIMIT` without a population count (the baseline x86-64
        // target has no `popcnt`): the hand is below its room once that many cards
        // less one are taken out of it and none is left.
        let room = HAND_LIMIT - self.flying.is_some() as u32;
        let mut hand = self.hand.0;
        for _ in 1..room {
            hand &= hand.wrapping_sub(1);
        }
        hand == 0 && !self.stock.is_empty()
    }
}

/// The state of a Speed deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpeedState {
    /// Both players' cards.
    pub players: [PlayerCards; 2],
    /// The face-down side piles; side pile `j` turns onto centre pile `j`.
    pub side: [CardSet; 2],
    /// The centre piles. Before the opening flip each holds its face-down middle card
    /// and has no top (SPEED-START-1).
    pub centre: [Pile; 2],
    /// Every card that has been face-up in the centre this deal (public memory).
    pub shown: CardSet,
    /// The side piles were re-formed from the centre and nothing landed since
    /// (SPEED-STALL-2).
    pub recycled_since_landing: bool,
    /// Times the side piles were re-formed this deal.
    pub recycles: u16,
    /// The deal-keyed zones hidden cards are revealed from (common random numbers):
    /// `zone(p)` for player p's stock, `zone(2 + j).zone(recycles)` for side pile j,
    /// `zone(4).zone(recycles)` for a re-forming of the side piles.
    pub zone: ChanceKey,
    /// Each seat's match points before this deal (SPEED-SCORE-1): public, as the
    /// score is called out between deals. `u16` keeps the state within its size (a
    /// total stays below `speed.target` (at most 10,000) plus one deal's 52 points).
    pub totals: [u16; 2],
}

impl SpeedState {
    /// Deals a fresh shuffle (SPEED-SETUP-1): two side piles, two face-down middle cards
    /// and a personal stock for each player; hands are still empty. Cards revealed later
    /// come from `zone`. The match points ([`SpeedState::totals`]) start at 0.
    pub fn deal(cfg: &SpeedConfig, rng: &mut SimRng, zone: ChanceKey) -> SpeedState {
        let side_size = cfg.side_pile_size as u32;
        let (side0, rest) = deal_split(rng, CardSet::FULL, side_size);
        let (side1, rest) = deal_split(rng, rest, side_size);
        let (stock0, rest) = deal_split(rng, rest, cfg.stock_size());
        let (stock1, mut middle) = deal_split(rng, rest, cfg.stock_size());
        debug_assert_eq!(middle.len(), 2);
        let mut centre = [Pile::EMPTY; 2];
        for pile in &mut centre {
            pile.cards.insert(middle.draw(rng));
        }
        SpeedState {
            players: [PlayerCards { stock: stock0, ..PlayerCards::default() }, PlayerCards { stock: stock1, ..PlayerCards::default() }],
            side: [side0, side1],
            centre,
            shown: CardSet::EMPTY,
            recycled_since_landing: false,
            recycles: 0,
            zone,
            totals: [0; 2],
        }
    }

    /// Each player draws five cards from his own stock into his hand (SPEED-SETUP-2).
    pub fn draw_hands(&mut self) {
        for p in 0..2 {
            for _ in 0..HAND_LIMIT {
                self.draw_from_stock(p);
            }
        }
    }

    /// Player `p` draws the next card of his stock into his hand.
    pub fn draw_from_stock(&mut self, p: usize) {
        let zone = self.zone.zone(p as u64);
        let me = &mut self.players[p];
        let c = me.stock.draw_keyed(zone);
        me.hand.insert(c);
    }

    /// Side pile `j` turns its next card onto centre pile `j`.
    pub fn turn_side(&mut self, j: usize) {
        let c = self.side[j].draw_keyed(self.zone.zone(2 + j as u64).zone(self.recycles as u64));
        self.show(j, c);
    }

    /// Turns the two middle cards face-up together: they start the centre piles
    /// (SPEED-START-1).
    pub fn turn_middle_cards(&mut self) {
        for p in &mut self.players {
            p.memory.rest();
        }
        for pile in &mut self.centre {
            let c = pile.cards.nth(0);
            pile.top = Some(c);
            self.shown.insert(c);
        }
    }

    /// Turns card `c` face-up onto centre pile `j` (a recycled card was shown before).
    pub fn show(&mut self, j: usize, c: Card) {
        self.centre[j].push(c);
        self.shown.0 |= 1 << c.0;
    }

    /// Centre cards under the two tops: what a recycling would take (SPEED-STALL-2).
    pub fn recyclable(&self) -> u32 {
        self.centre.iter().map(|p| p.len().saturating_sub(1)).sum()
    }

    /// Re-forms the side piles from every centre card except the two tops, shuffled and
    /// split equally, an odd card going to a random pile (SPEED-STALL-2, SPEED-AMB-5).
    pub fn recycle(&mut self) {
        let rng = &mut rng_from(self.zone.zone(4).zone(self.recycles as u64).0);
        let mut pool = CardSet::EMPTY;
        for pile in &mut self.centre {
            let top = pile.top.expect("centre piles have a top during play");
            let mut under = pile.cards;
            under.remove(top);
            pool = pool.union(under);
            pile.cards = CardSet::EMPTY;
            pile.push(top);
        }
        let n = pool.len();
        let first = n / 2 + (n % 2 == 1 && rng.random::<bool>()) as u32;
        let (a, b) = deal_split(rng, pool, first);
        self.side = [a, b];
        self.recycles += 1;
        self.recycled_since_landing = true;
    }

    /// Every card in the state, with the number of cards counted (a card counted twice
    /// would show up as a count above the set size).
    pub fn census(&self) -> (CardSet, u32) {
        let parts = [
            self.players[0].all_cards(),
            self.players[1].all_cards(),
            self.side[0],
            self.side[1],
            self.centre[0].cards,
            self.centre[1].cards,
        ];
        let all = CardSet(parts.iter().fold(0, |acc, s| acc | s.0));
        (all, parts.iter().map(|s| s.len()).sum())
    }
}
