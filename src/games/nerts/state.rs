//! The Nerts state for 2 to 8 players: one layout per deck (a player's, or a team's
//! under a shared layout), the shared foundations, and what the deal needs to know about
//! resets and the call. `Copy`, no heap.
//!
//! Every card of a layout belongs to the layout's own deck (NERTS-WORK-7: a player only
//! moves cards within his layout or to the common area), so a layout stores card
//! *values* (`u8`: `0..52` as [`Card`], 52 and 53 for the two Jokers) and the deck is the
//! layout's index; [`DeckCard`]s are formed where cards of several decks meet (the
//! foundations, actions, traces). Piles whose order is seen are real sequences: the Nerts
//! pile in deal order (its face-down part is dealt from the owner's shuffled deck, the
//! same in every seating), the work piles base first (each packed as its run, see
//! [`WorkPile`]), and stock and waste as one cyclic sequence (waste bottom first, then
//! the stock from its top) with the waste length, so a recycle is `waste_len = 0` and
//! the cyclic order is kept by construction (NERTS-STOCK-3, NERTS-INV-5).
//!
//! Cards in flight stay in their pile, marked as held (a work pile's top `held` cards,
//! the Nerts or waste top), until the action lands or its card is put back; the piles an
//! action uses are locked meanwhile (NERTS-PART-3). So a card that loses a foundation
//! race is simply unmarked (NERTS-RT-5, NERTS-NPILE-3, NERTS-STOCK-4).

use super::config::{JokerIdentity, NertsConfig, PartnershipMode};
use super::standard::StackTargets;
use crate::cards::{Card, DeckCard, JOKERS};
use crate::realtime::Micros;
use crate::rng::{MatchSeeds, SimRng};
use rand::RngExt;

/// Most players at a Nerts table.
pub const MAX_NERTS_PLAYERS: usize = 8;
/// Most layouts (= decks): one per player without shared layouts.
pub const MAX_LAYOUTS: usize = MAX_NERTS_PLAYERS;
/// Cards dealt to a Nerts pile (NERTS-SETUP-1).
pub const NERTS_PILE: usize = 13;
/// Work-pile slots per layout (NERTS-SETUP-2).
pub const WORK_PILES: usize = 4;
/// Most cards in one work pile: a strictly descending run K..A (NERTS-INV-6).
pub const MAX_WORK: usize = 13;
/// Most cards in stock and waste together: 52 + 2 Jokers - 13 - 4 (NERTS-SETUP-3).
pub const MAX_STOCK: usize = 52 + 2 - NERTS_PILE - WORK_PILES;
/// Most foundations ever started in a deal: an Ace of each suit per deck and a Joker
/// declared as an Ace (NERTS-FOUND-2).
pub const MAX_FOUNDATIONS: usize = MAX_LAYOUTS * 6;
/// "No card", "no suit", "no seat".
pub const NONE: u8 = 0xFF;

/// Work-pile lock bits of [`Layout::locks`]: bit `i` for work pile `i`.
pub const LOCK_NERTS: u8 = 1 << 4;
/// Lock bit of stock and waste together (NERTS-PART-3).
pub const LOCK_STOCK: u8 = 1 << 5;

/// True for a Joker's value.
#[inline]
pub const fn is_joker(v: u8) -> bool {
    v >= 52
}

/// The suits of a colour: red diamonds and hearts, black clubs and spades.
#[inline]
pub const fn suits_of(red: bool) -> [u8; 2] {
    if red {
        [1, 2]
    } else {
        [0, 3]
    }
}

/// Name of a card value: `10h`, `As`, `Jk0`.
pub fn value_name(v: u8) -> String {
    if is_joker(v) {
        format!("Jk{}", v - JOKERS[0])
    } else {
        Card(v).name()
    }
}

/// What a card in a work pile stands for (NERTS-JOKER-3, NERTS-JOKER-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eff {
    /// A standard card, or a Joker whose identity is fixed.
    Card(Card),
    /// An unfixed Joker lying on a card: one rank below it and of the other colour, suit
    /// open.
    Implied {
        /// Implied rank value.
        rank: u8,
        /// Implied colour.
        red: bool,
    },
    /// An unfixed Joker alone in a slot: unconstrained.
    Wild,
}

impl Eff {
    /// The rank it stands for, if any.
    pub fn rank(self) -> Option<u8> {
        match self {
            Eff::Card(c) => Some(c.rank()),
            Eff::Implied { rank, .. } => Some(rank),
            Eff::Wild => None,
        }
    }
    /// Its colour, if any.
    pub fn red(self) -> Option<bool> {
        match self {
            Eff::Card(c) => Some(c.is_red()),
            Eff::Implied { red, .. } => Some(red),
            Eff::Wild => None,
        }
    }
}

/// One work pile: its cards base first (NERTS-WORK-1: all face-up), packed in 10 bytes.
///
/// A pile is a run, one rank lower per card from its base up (NERTS-INV-6; a Joker
/// takes its step of the run as what it stands for). So its standard cards are given by
/// the rank the run has at depth 0 and, per card, its suit; a Joker's depth holds a
/// Joker bit and which Joker it is. [`WorkPile::card`] unpacks a card; only the mutators
/// below change a pile, so the packing stays canonical (equal piles compare equal).
/// Aligned to 2 bytes (`suits` is read whole, never borrowed), so a layout's four piles
/// take 40 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed(2))]
pub struct WorkPile {
    /// Bits `2k..2k + 2`: the suit of card `k`, or for a Joker which Joker it is.
    suits: u32,
    /// Bit `k`: card `k` is a Joker.
    jokers: u16,
    /// The value of the Club of the run's rank at depth 0, `4 * (rank - 1)`: a standard
    /// card at depth `k` is `run - 4k` plus its suit. 0 when the pile holds no standard
    /// card.
    run: u8,
    /// The top card, unpacked ([`NONE`] for an empty slot): the card read most.
    top: u8,
    /// Cards in the pile (read it; the mutators set it with the packed cards).
    pub len: u8,
    /// Cards at the top that are in a hand, in flight.
    pub held: u8,
}

impl WorkPile {
    /// An empty slot.
    pub const EMPTY: WorkPile = WorkPile { suits: 0, jokers: 0, run: 0, top: NONE, len: 0, held: 0 };

    /// Card `depth` (0 = the base) of a pile of more than `depth` cards: a Joker, or the
    /// card of the run's rank `depth` steps below depth 0 (`run - 4 * depth`, that rank's
    /// Club) with the card's suit added.
    #[inline]
    pub fn card(&self, depth: usize) -> u8 {
        let suit = (self.suits >> (2 * depth)) as u8 & 3;
        if self.jokers >> depth & 1 == 1 {
            JOKERS[0] + suit
        } else {
            self.run_card(depth, suit)
        }
    }
    /// [`WorkPile::card`] of a pile holding no Joker (a table without Jokers), without
    /// the Joker test.
    #[inline]
    pub fn standard_card(&self, depth: usize) -> u8 {
        debug_assert!(self.jokers == 0, "a pile with a Joker read as standard cards");
        self.run_card(depth, (self.suits >> (2 * depth)) as u8 & 3)
    }
    /// The standard card of suit `suit` at depth `depth` of the run.
    #[inline]
    fn run_card(&self, depth: usize, suit: u8) -> u8 {
        self.run.wrapping_sub(4 * depth as u8) + suit
    }
    /// The top card.
    #[inline]
    pub fn top(&self) -> Option<u8> {
        (self.len > 0).then_some(self.top)
    }
    /// The top card, [`NONE`] for an empty slot.
    #[inline]
    pub fn top_or_none(&self) -> u8 {
        self.top
    }
    /// The cards, base first.
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.len as usize).map(|depth| self.card(depth))
    }
    /// True for an empty slot.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// True if the packing is canonical: no bit at or above the top, no run without a
    /// standard card, and the top kept unpacked is the top. The mutators keep it so;
    /// NERTS-INV-6 checks it.
    pub fn is_canonical(&self) -> bool {
        let top = if self.len > 0 { self.card(self.len as usize - 1) } else { NONE };
        self.suits >> (2 * self.len) == 0 && self.jokers >> self.len == 0 && (self.has_standard() || self.run == 0) && self.top == top
    }
    /// True if some card of the pile is a Joker.
    #[inline]
    pub fn has_joker(&self) -> bool {
        self.jokers != 0
    }
    /// True if some card of the pile is not a Joker.
    #[inline]
    fn has_standard(&self) -> bool {
        self.jokers.count_ones() < self.len as u32
    }
    /// Puts card `v` on top (NERTS-INV-6: it continues the run).
    fn push(&mut self, v: u8) {
        let k = self.len as usize;
        debug_assert!(k < MAX_WORK, "a work pile of {MAX_WORK} cards");
        if is_joker(v) {
            self.jokers |= 1 << k;
            self.suits |= ((v - JOKERS[0]) as u32) << (2 * k);
        } else {
            let run = (v & !3) + 4 * k as u8;
            debug_assert!(!self.has_standard() || run == self.run, "NERTS-INV-6: {} on a pile that is not its run", value_name(v));
            self.run = run;
            self.suits |= ((v & 3) as u32) << (2 * k);
        }
        self.top = v;
        self.len += 1;
    }
    /// Puts cards on top, the lowest first.
    pub fn push_all(&mut self, cards: &[u8]) {
        cards.iter().for_each(|&v| self.push(v));
    }
    /// Takes the cards from index `depth` up (the pile keeps `depth` cards).
    fn take_from(&mut self, depth: usize) -> Stack {
        let n = self.len as usize - depth;
        let mut cards = [NONE; MAX_WORK];
        for (i, c) in cards[..n].iter_mut().enumerate() {
            *c = self.card(depth + i);
        }
        self.suits &= (1 << (2 * depth)) - 1;
        self.jokers &= (1 << depth) - 1;
        self.len = depth as u8;
        self.held = 0;
        self.top = if depth > 0 { self.card(depth - 1) } else { NONE };
        if !self.has_standard() {
            self.run = 0;
        }
        Stack { cards, len: n as u8 }
    }
    /// Slides card `v` under the pile: it becomes the base.
    fn slip_under(&mut self, v: u8) {
        debug_assert!((self.len as usize) < MAX_WORK);
        let had_standard = self.has_standard();
        self.suits <<= 2;
        self.jokers <<= 1;
        if self.len == 0 {
            self.top = v;
        }
        self.len += 1;
        if is_joker(v) {
            self.jokers |= 1;
            self.suits |= (v - JOKERS[0]) as u32;
            if had_standard {
                self.run += 4; // depth 0 is now one rank higher
            }
        } else {
            debug_assert!(!had_standard || v & !3 == self.run + 4, "NERTS-INV-6: {} slipped under a pile it does not lead", value_name(v));
            self.run = v & !3;
            self.suits |= (v & 3) as u32;
        }
    }
}

/// A few cards taken from a pile together (a stack, a packet, one card).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stack {
    /// Card values, lowest (the one that lands on the target) first.
    pub cards: [u8; MAX_WORK],
    /// Number of cards.
    pub len: u8,
}

impl Stack {
    /// The cards, lowest first.
    pub fn cards(&self) -> &[u8] {
        &self.cards[..self.len as usize]
    }
    /// One card.
    pub fn one(v: u8) -> Stack {
        let mut cards = [NONE; MAX_WORK];
        cards[0] = v;
        Stack { cards, len: 1 }
    }
}

/// One player's (or team's) layout: Nerts pile, work piles, stock and waste.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The Nerts pile in deal order: `nerts[nerts_len - 1]` is the top.
    pub nerts: [u8; NERTS_PILE],
    /// Cards left in the Nerts pile.
    pub nerts_len: u8,
    /// The top Nerts card is face-up (NERTS-NPILE-2).
    pub nerts_up: bool,
    /// The top Nerts card is in a hand.
    pub nerts_held: bool,
    /// The four work-pile slots.
    pub work: [WorkPile; WORK_PILES],
    /// Waste (bottom first) then stock (top first): the cyclic order of NERTS-STOCK-3.
    pub sw: [u8; MAX_STOCK],
    /// Cards in stock and waste together.
    pub sw_len: u8,
    /// Cards in the waste: `sw[waste_len - 1]` is the waste top, `sw[waste_len]` the
    /// stock top.
    pub waste_len: u8,
    /// The waste top is in a hand.
    pub waste_held: bool,
    /// The identity each of the deck's Jokers is fixed to (a card value), or [`NONE`]
    /// (NERTS-JOKER-4).
    pub joker_fixed: [u8; 2],
    /// Piles used by an action in flight (bits `0..4` work piles, [`LOCK_NERTS`],
    /// [`LOCK_STOCK`]): NERTS-PART-3.
    pub locks: u8,
    /// Which work piles the stacks of each work pile build on, for the legal list and
    /// stuck detection: kept up to date as the piles change ([`Layout::refresh_work`])
    /// instead of looked for at every list.
    pub(super) stack_targets: StackTargets,
}

impl Layout {
    /// A layout holding no card.
    pub const EMPTY: Layout = Layout {
        nerts: [NONE; NERTS_PILE],
        nerts_len: 0,
        nerts_up: false,
        nerts_held: false,
        work: [WorkPile::EMPTY; WORK_PILES],
        sw: [NONE; MAX_STOCK],
        sw_len: 0,
        waste_len: 0,
        waste_held: false,
        joker_fixed: [NONE; 2],
        locks: 0,
        stack_targets: StackTargets::EMPTY,
    };

    /// Recomputes what the layout keeps about its work piles (which piles the stacks
    /// of each build on): called wherever the rules change a work pile
    /// ([`super::rules::apply_in_layout`], [`super::rules::NertsRules::land`], the
    /// deal), and by whoever changes one directly. The legal list checks it against a
    /// fresh computation in debug builds.
    pub fn refresh_work(&mut self) {
        self.stack_targets = StackTargets::of(self);
    }

    /// The Nerts pile's top card if it is face-up and playable (NERTS-NPILE-1).
    pub fn nerts_top(&self) -> Option<u8> {
        self.has_nerts_top().then(|| self.nerts[self.nerts_len as usize - 1])
    }
    /// True if [`Layout::nerts_top`] is a card (without reading it).
    #[inline]
    pub fn has_nerts_top(&self) -> bool {
        self.nerts_len > 0 && self.nerts_up
    }
    /// The waste top (NERTS-STOCK-1: the only playable waste card).
    pub fn waste_top(&self) -> Option<u8> {
        self.has_waste_top().then(|| self.sw[self.waste_len as usize - 1])
    }
    /// True if [`Layout::waste_top`] is a card (without reading it).
    #[inline]
    pub fn has_waste_top(&self) -> bool {
        self.waste_len > 0
    }
    /// Cards in the stock.
    pub fn stock_len(&self) -> u8 {
        self.sw_len - self.waste_len
    }
    /// The stock, top first.
    pub fn stock(&self) -> &[u8] {
        &self.sw[self.waste_len as usize..self.sw_len as usize]
    }
    /// The waste, bottom first.
    pub fn waste(&self) -> &[u8] {
        &self.sw[..self.waste_len as usize]
    }
    /// True if some work-pile slot is empty.
    pub fn has_empty_slot(&self) -> bool {
        self.work.iter().any(|w| w.is_empty())
    }
    /// The first empty slot that no action in flight uses.
    pub fn free_empty_slot(&self) -> Option<u8> {
        (0..WORK_PILES as u8).find(|&i| self.work[i as usize].is_empty() && self.locks & (1 << i) == 0)
    }

    /// The identity a card value has when it is not in a work pile: a standard card, a
    /// fixed Joker's card, or `Wild`.
    pub fn loose_eff(&self, v: u8) -> Eff {
        if !is_joker(v) {
            Eff::Card(Card(v))
        } else {
            match self.joker_fixed[(v - JOKERS[0]) as usize] {
                NONE => Eff::Wild,
                c => Eff::Card(Card(c)),
            }
        }
    }

    /// What card `i` (0 = base) of work pile `pile` stands for: an unfixed Joker takes
    /// rank and colour from the card under it, and is unconstrained as a lone base
    /// (NERTS-JOKER-3).
    #[inline]
    pub fn eff(&self, pile: usize, i: usize) -> Eff {
        let v = self.work[pile].card(i);
        match self.loose_eff(v) {
            Eff::Wild if i > 0 => self.implied_by(pile, i - 1),
            e => e,
        }
    }

    /// What an unfixed Joker lying on card `i` of work pile `pile` stands for (the
    /// uncommon case of [`Layout::eff`], kept out of line).
    #[cold]
    fn implied_by(&self, pile: usize, i: usize) -> Eff {
        match self.eff(pile, i) {
            Eff::Card(c) => Eff::Implied { rank: c.rank().saturating_sub(1), red: !c.is_red() },
            Eff::Implied { rank, red } => Eff::Implied { rank: rank.saturating_sub(1), red: !red },
            Eff::Wild => Eff::Wild,
        }
    }

    /// The effective top of work pile `pile`.
    #[inline]
    pub fn top_eff(&self, pile: usize) -> Option<Eff> {
        let len = self.work[pile].len as usize;
        (len > 0).then(|| self.eff(pile, len - 1))
    }

    /// Every card value in the layout as a bitmask (bit `v`), and the number of cards
    /// counted (a card in two places shows up as a count above the mask's size).
    pub fn census(&self) -> (u64, u32) {
        let mut mask = 0u64;
        let mut n = 0;
        let mut add = |v: u8| {
            mask |= 1u64 << v;
            n += 1;
        };
        self.nerts[..self.nerts_len as usize].iter().for_each(|&v| add(v));
        self.work.iter().flat_map(|w| w.iter()).for_each(&mut add);
        self.sw[..self.sw_len as usize].iter().for_each(|&v| add(v));
        (mask, n)
    }

    /// Cards of this layout that are in a hand.
    pub fn in_flight(&self) -> u32 {
        self.nerts_held as u32 + self.waste_held as u32 + self.work.iter().map(|w| w.held as u32).sum::<u32>()
    }

    /// Frees the Joker on top of work pile `pile` once the cards on it were taken off,
    /// under `nerts.joker_identity=until_uncovered` (NERTS-JOKER-4).
    fn uncovered(&mut self, cfg: &NertsConfig, pile: usize) {
        if cfg.joker_identity == JokerIdentity::UntilUncovered {
            if let Some(v) = self.work[pile].top().filter(|&v| is_joker(v)) {
                self.joker_fixed[(v - JOKERS[0]) as usize] = NONE;
            }
        }
    }

    /// Takes the top Nerts card: the next one stays face-down (NERTS-NPILE-2).
    pub fn take_nerts(&mut self) -> u8 {
        debug_assert!(self.nerts_len > 0 && self.nerts_up, "NERTS-NPILE-1: only the face-up top Nerts card is played");
        self.nerts_len -= 1;
        self.nerts_up = false;
        self.nerts_held = false;
        let v = self.nerts[self.nerts_len as usize];
        self.nerts[self.nerts_len as usize] = NONE;
        v
    }

    /// Takes the waste top; the card under it becomes the waste top (NERTS-EX-5).
    pub fn take_waste(&mut self) -> u8 {
        debug_assert!(self.waste_len > 0, "NERTS-STOCK-2: play from an empty waste");
        let at = self.waste_len as usize - 1;
        let v = self.sw[at];
        self.sw.copy_within(at + 1..self.sw_len as usize, at);
        self.sw_len -= 1;
        self.waste_len -= 1;
        self.sw[self.sw_len as usize] = NONE;
        self.waste_held = false;
        v
    }

    /// Takes the cards of work pile `pile` from index `depth` up (NERTS-WORK-3).
    pub fn take_work(&mut self, cfg: &NertsConfig, pile: usize, depth: usize) -> Stack {
        let stack = self.work[pile].take_from(depth);
        self.uncovered(cfg, pile);
        stack
    }

    /// Slides card `v` under work pile `pile`: it becomes the base (NERTS-WORK-6).
    pub fn slip_under(&mut self, pile: usize, v: u8) {
        self.work[pile].slip_under(v);
    }

    /// Cards a FLIP turns from the stock onto the waste now, or `None` if the FLIP is a
    /// RECYCLE (NERTS-STOCK-1, NERTS-STOCK-3).
    pub fn flip_packet(&self, cfg: &NertsConfig) -> Option<u8> {
        packet(cfg, self.sw_len, self.waste_len)
    }

    /// The cards that would be the waste top during one full pass of flips from here,
    /// the recycle included, with no other move made, as a bitmask of values
    /// (NERTS-STUCK-1, item 3). The pass stops at the first position that repeats.
    ///
    /// From waste length `w` the flips reach `w`, `w + f`, `w + 2f`, ... up to the stock
    /// and waste's length `n` (`f` = `nerts.flip_count`), then `n` itself when a short
    /// packet is turned ([`packet`]), then the recycle starts the same walk from 0. So
    /// the pass is the walk from the waste length and the walk from 0, the first one
    /// needed only when the waste length is not a multiple of `f`.
    pub fn pass_tops(&self, cfg: &NertsConfig) -> u64 {
        self.pass_tops_until(cfg, 0)
    }

    /// [`Layout::pass_tops`] cut short at the first card of the pass that is in `stop`
    /// (bit per value): the cards walked so far, which then meet `stop`; when none of
    /// the pass is in `stop`, the whole pass. For a test that needs only one card of
    /// the pass with a place, and the whole pass when there is none.
    #[inline]
    pub fn pass_tops_until(&self, cfg: &NertsConfig, stop: u64) -> u64 {
        let n = self.sw_len;
        if n == 0 {
            return 0;
        }
        let f = cfg.flip_count;
        // The walk from waste length `from`, its waste tops added to `tops`; true as
        // soon as one is in `stop`.
        let walk = |from: u8, tops: &mut u64| {
            // The first waste length with a top: `from`, or `f` after the first flip
            // from an empty waste (none when stock and waste hold less than a packet).
            let mut w = from;
            if w == 0 && n >= f {
                w = f;
            }
            if w > 0 {
                loop {
                    *tops |= 1u64 << self.sw[w as usize - 1];
                    if *tops & stop != 0 {
                        return true;
                    }
                    if n - w < f {
                        break;
                    }
                    w += f;
                }
            }
            if w < n && packet(cfg, n, w).is_some() {
                *tops |= 1u64 << self.sw[n as usize - 1];
            }
            *tops & stop != 0
        };
        let mut tops = 0u64;
        let w = self.waste_len;
        if !w.is_multiple_of(f) && walk(w, &mut tops) {
            return tops;
        }
        walk(0, &mut tops);
        tops
    }

    /// Turns the next packet face-up onto the waste.
    pub fn flip_stock(&mut self, cfg: &NertsConfig) {
        let k = self.flip_packet(cfg).expect("a FLIP that is not a RECYCLE");
        self.waste_len += k;
    }

    /// Turns the waste over into the stock, any 1-2 unseen stock cards after it: the
    /// cyclic order restarts (NERTS-STOCK-3).
    pub fn recycle(&mut self) {
        self.waste_len = 0;
    }

    /// Moves the stock's top card to its bottom (ROTATE, NERTS-STUCK-3).
    pub fn rotate(&mut self) {
        let (w, n) = (self.waste_len as usize, self.sw_len as usize);
        if n - w >= 2 {
            self.sw[w..n].rotate_left(1);
        }
    }

    /// The global reset of NERTS-STUCK-4: waste turned over followed by the rest of the
    /// stock, then `rotate` cards from top to bottom.
    pub fn reset_stock(&mut self, rotate: bool) {
        self.waste_len = 0;
        if rotate {
            self.rotate();
        }
    }
}

/// Cards a FLIP turns with `n` cards in stock and waste, `w` of them in the waste; `None`
/// for a RECYCLE (NERTS-STOCK-1, NERTS-STOCK-3, NERTS-AMB-1, NERTS-AMB-2).
pub fn packet(cfg: &NertsConfig, n: u8, w: u8) -> Option<u8> {
    use super::config::ShortPacket;
    let k = n - w;
    if k == 0 {
        return None;
    }
    let f = cfg.flip_count;
    if k >= f {
        return Some(f);
    }
    match cfg.short_packet {
        ShortPacket::Flip => Some(k),
        // Under merge a short stock recycles unseen, unless stock and waste together
        // hold fewer than a packet: then the whole stock turns as one short packet.
        ShortPacket::Merge if n < f => Some(k),
        ShortPacket::Merge => None,
    }
}

/// The foundations in the common area, and those completed and set aside
/// (NERTS-FOUND-*), as parallel arrays over every foundation started this deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Foundations {
    /// Suit (`0..4`) and top rank of foundation `i`: `suit << 4 | rank`.
    pub top: [u8; MAX_FOUNDATIONS],
    /// Cards on foundation `i` (more than its rank after ties, NERTS-RT-6).
    pub count: [u8; MAX_FOUNDATIONS],
    /// Decks whose card lies at the top rank of foundation `i` (bit per deck).
    pub top_decks: [u8; MAX_FOUNDATIONS],
    /// When the first card of the top rank landed (the tie window's start).
    pub since: [Micros; MAX_FOUNDATIONS],
    /// Foundations started this deal.
    pub len: u8,
    /// The last card placed ([`Foundations::place`]) tied the top of its foundation
    /// (NERTS-RT-6): what the match's tally counts as a tie, without looking for the
    /// foundation (a byte of what was padding).
    pub last_tied: bool,
    /// What the foundations take now ([`Foundations::needs`]), kept by
    /// [`Foundations::place`].
    needs: u64,
}

/// Where a card that lands on the foundations goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoundationSpot {
    /// An Ace starts a new foundation (NERTS-FOUND-2).
    New,
    /// Builds on foundation `i` (NERTS-FOUND-3).
    Build(usize),
    /// Ties the top of foundation `i` (NERTS-RT-6).
    Tie(usize),
}

/// The card a foundation topped by `top` takes next, as its bit in a set of values
/// (none for a completed foundation): the next card of suit `top >> 4` above rank
/// `top & 0xF` is value `rank * 4 + suit` (`Card::new(rank + 1, suit)`); a King's gives
/// 52..56, masked off.
#[inline]
fn next_card_bit(top: u8) -> u64 {
    1u64 << ((top & 0xF) * 4 + (top >> 4)) & ((1 << 52) - 1)
}

impl Foundations {
    /// No foundation.
    pub const EMPTY: Foundations = Foundations { top: [0; MAX_FOUNDATIONS], count: [0; MAX_FOUNDATIONS], top_decks: [0; MAX_FOUNDATIONS], since: [0; MAX_FOUNDATIONS], len: 0, last_tied: false, needs: 0xF };

    /// Suit of foundation `i`.
    pub fn suit(&self, i: usize) -> u8 {
        self.top[i] >> 4
    }
    /// Top rank of foundation `i`.
    pub fn rank(&self, i: usize) -> u8 {
        self.top[i] & 0xF
    }
    /// True if foundation `i` reached its King and was set aside (NERTS-FOUND-6).
    pub fn completed(&self, i: usize) -> bool {
        self.rank(i) == 13
    }
    /// Indices of the foundations in the common area.
    pub fn active(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len as usize).filter(|&i| !self.completed(i))
    }
    /// Cards on every foundation, set aside or not.
    pub fn cards(&self) -> u32 {
        self.count[..self.len as usize].iter().map(|&c| c as u32).sum()
    }
    /// Every card value `0..52` a foundation accepts now (bit per value): the four Aces
    /// and the next card of each foundation in the common area (NERTS-FOUND-2,
    /// NERTS-FOUND-3). Kept up to date by [`Foundations::place`]: what
    /// [`Foundations::needs_of_tops`] computes.
    #[inline]
    pub fn needs(&self) -> u64 {
        self.needs
    }
    /// [`Foundations::needs`] computed from the foundations' tops. A change made to the
    /// tops other than by [`Foundations::place`] (a test's) is followed by
    /// [`Foundations::refresh_needs`].
    pub fn needs_of_tops(&self) -> u64 {
        let mut m = 0xF; // the Aces
        for &t in &self.top[..self.len as usize] {
            m |= next_card_bit(t);
        }
        m
    }
    /// Recomputes what [`Foundations::needs`] returns from the tops.
    pub fn refresh_needs(&mut self) {
        self.needs = self.needs_of_tops();
    }
    /// Where card `c` of deck `deck` would go if it landed at `now`: a new foundation for
    /// an Ace, the first foundation it builds on, or, keeping ties, a foundation whose
    /// top is the same card of another deck that landed at most `window` earlier.
    pub fn spot(&self, c: Card, deck: u8, now: Micros, ties: Option<Micros>) -> Option<FoundationSpot> {
        if c.rank() == 1 {
            return Some(FoundationSpot::New);
        }
        let want = c.suit() << 4 | (c.rank() - 1);
        if let Some(i) = (0..self.len as usize).find(|&i| self.top[i] == want) {
            return Some(FoundationSpot::Build(i));
        }
        let window = ties?;
        let same = c.suit() << 4 | c.rank();
        (0..self.len as usize)
            .find(|&i| self.top[i] == same && self.top_decks[i] >> deck & 1 == 0 && now >= self.since[i] && now - self.since[i] <= window)
            .map(FoundationSpot::Tie)
    }
    /// Puts card `c` of deck `deck` at `spot`, landing at `now`.
    pub fn place(&mut self, spot: FoundationSpot, c: Card, deck: u8, now: Micros) {
        let i = match spot {
            FoundationSpot::New => {
                let i = self.len as usize;
                self.len += 1;
                self.top[i] = c.suit() << 4;
                self.count[i] = 0;
                i
            }
            FoundationSpot::Build(i) | FoundationSpot::Tie(i) => i,
        };
        self.last_tied = matches!(spot, FoundationSpot::Tie(_));
        if let FoundationSpot::Tie(_) = spot {
            self.top_decks[i] |= 1 << deck;
        } else {
            let was = self.top[i];
            self.top[i] += 1;
            self.top_decks[i] = 1 << deck;
            self.since[i] = now;
            // `needs` kept as `needs_of_tops` computes it: only foundation `i`'s top moved,
            // so its next card replaces the one it wanted (none for a new foundation: its
            // top was rank 0), which stays wanted while another foundation has the same
            // top.
            if spot != FoundationSpot::New && !self.top[..self.len as usize].contains(&was) {
                self.needs &= !next_card_bit(was);
            }
            self.needs |= next_card_bit(self.top[i]);
            debug_assert_eq!(self.needs, self.needs_of_tops(), "needs kept up to date");
        }
        self.count[i] += 1;
    }
}

/// The state of a Nerts deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NertsState {
    /// The layouts, `0..layouts` in use; layout `d` holds deck `d`.
    pub layouts: [Layout; MAX_LAYOUTS],
    /// The foundations.
    pub found: Foundations,
    /// Per deck, the values of its cards on foundations (bit per value, Jokers 52 and
    /// 53), set-aside foundations included: what NERTS-SCORE-1 counts.
    pub on_found: [u64; MAX_LAYOUTS],
    /// Seats at the table.
    pub players: u8,
    /// Layouts (= decks) in play.
    pub n_layouts: u8,
    /// The layout each seat plays on.
    pub layout_of: [u8; MAX_NERTS_PLAYERS],
    /// The team each layout scores for.
    pub team_of: [u8; MAX_LAYOUTS],
    /// Teams (= scoring units).
    pub teams: u8,
    /// Jokers in each deck.
    pub jokers: u8,
    /// The seat whose Nerts call landed, or [`NONE`] (NERTS-RT-8).
    pub called: u8,
    /// Global resets so far this deal (NERTS-STUCK-4).
    pub resets: u16,
    /// A progress move (NERTS-STUCK-2) landed since the last global reset (or the deal).
    pub progress_since_reset: bool,
    /// Each team's match points before this deal (public: everyone keeps the score
    /// sheet); set by the match loop, zero in a lone deal.
    pub totals: [i32; MAX_NERTS_PLAYERS],
}

impl NertsState {
    /// An empty table of `players` seats under `cfg`: the seats, layouts and teams
    /// (NERTS-DECK-1, NERTS-PART-1, NERTS-PART-2, NERTS-PART-4), with no card anywhere.
    pub fn table(cfg: &NertsConfig, players: usize) -> NertsState {
        assert!((2..=MAX_NERTS_PLAYERS).contains(&players), "NERTS-DECK-1: 2 to {MAX_NERTS_PLAYERS} players, got {players}");
        let teams = cfg.teams(players);
        let shared = teams && cfg.partnership_mode == PartnershipMode::SharedLayout;
        let mut s = NertsState {
            layouts: [Layout::EMPTY; MAX_LAYOUTS],
            found: Foundations::EMPTY,
            on_found: [0; MAX_LAYOUTS],
            players: players as u8,
            n_layouts: if shared { players / 2 } else { players } as u8,
            layout_of: [0; MAX_NERTS_PLAYERS],
            team_of: [0; MAX_LAYOUTS],
            teams: if teams { players / 2 } else { players } as u8,
            jokers: cfg.jokers_per_deck,
            called: NONE,
            resets: 0,
            progress_since_reset: false,
            totals: [0; MAX_NERTS_PLAYERS],
        };
        for p in 0..players {
            s.layout_of[p] = if shared { p / 2 } else { p } as u8;
        }
        for d in 0..s.n_layouts as usize {
            s.team_of[d] = if teams && !shared { d / 2 } else { d } as u8;
        }
        s
    }

    /// Deals a fresh layout from each deck (NERTS-SETUP-1..3, NERTS-MATCH-3): each deck
    /// of 52 + J cards is shuffled with `rng`, deck 0 first, and dealt 13 to the Nerts
    /// pile (the last face-up on top), one to each work pile, the rest to the stock in
    /// shuffled order. The same generator gives every seating the same cards per seat.
    pub fn deal(cfg: &NertsConfig, players: usize, rng: &mut SimRng) -> NertsState {
        let mut s = NertsState::table(cfg, players);
        let size = 52 + s.jokers as usize;
        for d in 0..s.n_layouts as usize {
            let mut deck = [0u8; 54];
            for (i, v) in deck.iter_mut().enumerate() {
                *v = i as u8;
            }
            let deck = &mut deck[..size];
            for i in (1..size).rev() {
                deck.swap(i, rng.random_range(0..=i));
            }
            let l = &mut s.layouts[d];
            l.nerts.copy_from_slice(&deck[..NERTS_PILE]);
            l.nerts_len = NERTS_PILE as u8;
            l.nerts_up = true;
            for (i, w) in l.work.iter_mut().enumerate() {
                w.push_all(&deck[NERTS_PILE + i..NERTS_PILE + i + 1]);
            }
            l.refresh_work();
            let rest = &deck[NERTS_PILE + WORK_PILES..];
            l.sw[..rest.len()].copy_from_slice(rest);
            l.sw_len = rest.len() as u8;
        }
        s
    }

    /// Deal number `deal` (from 1) of a match: the first from the deal's generator, later
    /// ones from the deal's public chance stream `deal`, so every seating of a deal gets
    /// the same cards per seat in every deal of the match (NERTS-MATCH-3).
    pub fn deal_of_match(cfg: &NertsConfig, players: usize, seeds: &MatchSeeds, deal: u32) -> NertsState {
        let mut rng = if deal <= 1 { seeds.deal_rng() } else { seeds.chance_rng(deal as u64) };
        NertsState::deal(cfg, players, &mut rng)
    }

    /// The layouts in play.
    pub fn layouts(&self) -> &[Layout] {
        &self.layouts[..self.n_layouts as usize]
    }
    /// The layout seat `p` plays on.
    pub fn layout(&self, p: usize) -> &Layout {
        &self.layouts[self.layout_of[p] as usize]
    }
    /// The seats playing on layout `d` (two under a shared layout).
    pub fn seats_of(&self, d: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.players as usize).filter(move |&p| self.layout_of[p] as usize == d)
    }
    /// The team seat `p` plays for.
    pub fn team_of_seat(&self, p: usize) -> usize {
        self.team_of[self.layout_of[p] as usize] as usize
    }
    /// Cards in each deck: 52 + J (NERTS-DECK-2).
    pub fn deck_size(&self) -> u32 {
        52 + self.jokers as u32
    }
    /// The value mask of a full deck.
    pub fn deck_mask(&self) -> u64 {
        (1u64 << self.deck_size()) - 1
    }
    /// Card `v` of deck `d`.
    pub fn deck_card(d: usize, v: u8) -> DeckCard {
        DeckCard { deck: d as u8, value: v }
    }
    /// Cards of deck `d` on foundations, set-aside ones included.
    pub fn found_cards(&self, d: usize) -> u32 {
        self.on_found[d].count_ones()
    }
    /// The seat whose call ended the deal.
    pub fn caller(&self) -> Option<usize> {
        (self.called != NONE).then_some(self.called as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nerts::config::ShortPacket;

    /// [`Layout::pass_tops`] as a walk: flip (or recycle) from the waste length until a
    /// waste length repeats.
    fn walked_pass_tops(l: &Layout, cfg: &NertsConfig) -> u64 {
        let n = l.sw_len;
        if n == 0 {
            return 0;
        }
        let mut seen = 0u64;
        let mut tops = 0u64;
        let mut w = l.waste_len;
        while seen >> w & 1 == 0 {
            seen |= 1 << w;
            if w > 0 {
                tops |= 1u64 << l.sw[w as usize - 1];
            }
            w = packet(cfg, n, w).map_or(0, |k| w + k);
        }
        tops
    }

    /// NERTS-INV-6: a packed work pile gives back the cards put in it, for runs from
    /// every base with mixed suits and Jokers at any depth, through pushes, takes and
    /// slip-unders, and stays canonical.
    #[test]
    fn work_piles_unpack_what_was_packed() {
        let check = |w: &WorkPile, cards: &[u8]| {
            assert_eq!(w.iter().collect::<Vec<_>>(), cards);
            assert_eq!(w.top(), cards.last().copied());
            assert!(w.is_canonical(), "{cards:?}: {w:?}");
        };
        for base in 0..52u8 {
            for pattern in 0..16u32 {
                // The run down from `base` to its Ace, suits from the bits of `pattern`,
                // a Joker in place of the cards at depths `pattern % 5` and 7.
                let mut cards = vec![base];
                while Card(*cards.last().unwrap()).rank() > 1 {
                    let c = Card(*cards.last().unwrap());
                    let second = (pattern.rotate_left(cards.len() as u32) & 1) as usize;
                    cards.push(Card::new(c.rank() - 1, suits_of(!c.is_red())[second]).0);
                }
                for (i, v) in cards.iter_mut().enumerate() {
                    if i == (pattern % 5) as usize || i == 7 {
                        *v = JOKERS[i % 2];
                    }
                }
                let mut w = WorkPile::EMPTY;
                w.push_all(&cards);
                check(&w, &cards);
                for depth in 0..cards.len() {
                    let mut t = w;
                    let stack = t.take_from(depth);
                    assert_eq!(stack.cards(), &cards[depth..]);
                    check(&t, &cards[..depth]);
                    t.push_all(stack.cards());
                    assert_eq!(t, w, "taken and put back");
                    let mut rest = WorkPile::EMPTY;
                    rest.push_all(&cards[depth..]);
                    for &v in cards[..depth].iter().rev() {
                        rest.slip_under(v);
                    }
                    assert_eq!(rest, w, "slipped under from depth {depth}");
                }
            }
        }
    }

    /// NERTS-STOCK-3: the pass in closed form visits the waste tops the walk visits, for
    /// every stock and waste length, both flip counts and both short-packet rules.
    #[test]
    fn pass_tops_is_the_walk() {
        for flip_count in [1, 3] {
            for short_packet in [ShortPacket::Merge, ShortPacket::Flip] {
                let cfg = NertsConfig { flip_count, short_packet, ..NertsConfig::default() };
                for n in 0..=MAX_STOCK as u8 {
                    for w in 0..=n {
                        let mut l = Layout::EMPTY;
                        for i in 0..n {
                            l.sw[i as usize] = ((u32::from(i) * 7 + u32::from(n)) % 54) as u8;
                        }
                        l.sw_len = n;
                        l.waste_len = w;
                        let pass = walked_pass_tops(&l, &cfg);
                        assert_eq!(l.pass_tops(&cfg), pass, "flip {flip_count}, {short_packet:?}, n {n}, w {w}");
                        for stop in [1u64 << 7 | 1 << 30, 0x5555_5555_5555, 1 << ((u32::from(n) * 5) % 54)] {
                            let part = l.pass_tops_until(&cfg, stop);
                            assert_eq!(part & !pass, 0, "the cut pass is part of the pass");
                            assert_eq!(part & stop != 0, pass & stop != 0, "cut short only at a card in stop");
                            if pass & stop == 0 {
                                assert_eq!(part, pass, "the whole pass when none of it is in stop");
                            }
                        }
                    }
                }
            }
        }
    }
}
