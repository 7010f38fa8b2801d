//! Speed's actions and their legality (SPEED-PLAY-*, SPEED-STALL-*), as the real-time
//! engine needs them.

use super::config::SpeedConfig;
use super::moves::SpeedMoves;
use super::state::SpeedState;
use crate::cards::{ranks_adjacent_circular, ranks_adjacent_straight, Card, CardSet};
use crate::reaction::Motion;
use crate::realtime::{ActionList, Change, Landing, LegalMoves, Micros, NoDecision, RealtimeRules, Stall, MAX_PLAYERS};
use crate::rng::SimRng;

/// One action of one player (SPEED-RT-1). Piles are 0-based indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpeedAction {
    /// PLAY: a hand card onto a centre pile (SPEED-PLAY-1).
    Play {
        /// The hand card.
        card: Card,
        /// The centre pile.
        pile: u8,
    },
    /// DRAW: the top card of the personal stock into the hand (SPEED-PLAY-2).
    Draw,
}

/// True if card `c` may be played on `top`: ranks one apart, circular under
/// `speed.wrap=true`, straight with A high otherwise (SPEED-PLAY-1).
pub fn playable_on(cfg: &SpeedConfig, c: Card, top: Card) -> bool {
    if cfg.wrap { ranks_adjacent_circular(c.rank(), top.rank()) } else { ranks_adjacent_straight(c.rank(), top.rank()) }
}

/// `FITTING[wrap][r]`: every card of the deck that may be played on a top of rank `r`
/// (straight order, or circular when `wrap`), as [`playable_on`] decides it.
const FITTING: [[u64; 14]; 2] = {
    let mut t = [[0u64; 14]; 2];
    let mut wrap = 0;
    while wrap < 2 {
        let mut top = 1u8;
        while top <= 13 {
            let mut rank = 1u8;
            while rank <= 13 {
                let adjacent = if wrap == 1 { ranks_adjacent_circular(rank, top) } else { ranks_adjacent_straight(rank, top) };
                if adjacent {
                    t[wrap][top as usize] |= 0xF << ((rank - 1) * 4);
                }
                rank += 1;
            }
            top += 1;
        }
        wrap += 1;
    }
    t
};

/// Every card of the deck that may be played on `top`.
#[inline]
pub fn fitting(cfg: &SpeedConfig, top: Card) -> CardSet {
    CardSet(FITTING[cfg.wrap as usize][top.rank() as usize])
}

/// Bit `4 (r - 1)` for every rank `r` (the clubs card of each rank): a set of ranks in
/// the card bits' layout.
pub const RANK_BITS: u64 = crate::cards::RANK_NIBBLE_ONES;

/// Every card of the deck that may be played on a top of some rank of `ranks` (bit
/// `4 (r - 1)` for rank `r`, [`RANK_BITS`]): the union of [`fitting`] over them, by
/// shifts instead of a lookup a rank. A rank's neighbours are the ranks one nibble up
/// and down; A and K are neighbours both ways round (A high in the straight order, and
/// the circle closes there), and only the circular order makes A and 2 neighbours.
#[inline]
pub fn fitting_ranks(cfg: &SpeedConfig, ranks: u64) -> CardSet {
    const ACE: u64 = 1;
    const KING: u64 = 1 << 48;
    let ace_king = (ranks & ACE) << 48 | (ranks & KING) >> 48;
    let near = if cfg.wrap {
        (ranks << 4 | ranks >> 4) & RANK_BITS
    } else {
        // Without the ace: 2 is not its neighbour.
        let low = ranks & !ACE;
        (low << 4 | low >> 4) & RANK_BITS & !ACE
    };
    CardSet((near | ace_king) * 0xF)
}

/// The ranks a card may have to be played on a centre top now: bit `r - 1` for rank `r`
/// (none before the opening flip).
pub fn ranks_fitting_tops(cfg: &SpeedConfig, s: &SpeedState) -> u16 {
    // FITTING holds every suit of a rank or none: one bit per rank (its clubs card, bit
    // 4 (r - 1)).
    let mut cards = s.centre.iter().filter_map(|pile| pile.top).fold(0u64, |m, t| m | fitting(cfg, t).0) & RANK_BITS;
    let mut ranks = 0;
    while cards != 0 {
        ranks |= 1 << (cards.trailing_zeros() / 4);
        cards &= cards - 1;
    }
    ranks
}

/// A constraint on player `p`'s hand memory: none of his hand cards fits a centre top
/// now ([`super::state::HandMemory`]).
fn fits_no_top(cfg: &SpeedConfig, s: &mut SpeedState, p: usize) {
    let ranks = ranks_fitting_tops(cfg, s);
    let me = &mut s.players[p];
    let slots = me.hand_count();
    me.memory.exclude(ranks, slots);
}

/// Called before an event changes anything: a watched player (idle after the last
/// event, nothing started since) decided on the tops as they still are and took no
/// action, so none of his hand cards fits them.
fn observe(cfg: &SpeedConfig, s: &mut SpeedState) {
    for p in 0..2 {
        if s.players[p].memory.watched() {
            fits_no_top(cfg, s, p);
        }
    }
}

/// Called after an event: every player who is idle for all to see (no card in flight, no
/// draw, not maybe busy after a flip) is watched until he starts an action.
fn watch_idle(s: &mut SpeedState) {
    for me in &mut s.players {
        let idle = me.flying.is_none() && !me.memory.drawing() && !me.memory.may_rest();
        me.memory.watch(idle);
    }
}

/// True if player `p` can play a hand card on a centre pile now.
pub fn has_play(cfg: &SpeedConfig, s: &SpeedState, p: usize) -> bool {
    let hand = s.players[p].hand;
    s.centre.iter().filter_map(|pile| pile.top).any(|t| hand.iter().any(|c| playable_on(cfg, c, t)))
}

/// Writes the legal actions of player `p` (whose hand is idle) into `out`: plays in card
/// order, each on pile 0 then pile 1, then the draw ([`SpeedMoves`] written out).
pub fn legal_actions(cfg: &SpeedConfig, s: &SpeedState, p: usize, out: &mut ActionList<SpeedAction>) {
    SpeedMoves::of(cfg, s, p).write(out);
}

/// The rules of a Speed match.
#[derive(Clone, Copy, Debug)]
pub struct SpeedRules {
    /// Rules in force.
    pub cfg: SpeedConfig,
    /// Keep the public hand memory ([`super::state::HandMemory`]) up to date. It costs
    /// about a tenth of a match's time and changes no move, so a table where no strategy
    /// reads it ([`SpeedStrategy::reads_hand_memory`]) plays without it: there the
    /// memory stays empty.
    ///
    /// [`SpeedStrategy::reads_hand_memory`]: super::strategies::SpeedStrategy::reads_hand_memory
    pub hand_memory: bool,
}

impl SpeedRules {
    /// The rules `cfg` with the hand memory kept.
    pub fn new(cfg: SpeedConfig) -> SpeedRules {
        SpeedRules { cfg, hand_memory: true }
    }

    /// The rules `cfg` for the players `seats`: the hand memory is kept when one of their
    /// strategies reads it.
    pub fn for_seats(cfg: SpeedConfig, seats: &super::game::SpeedSeats) -> SpeedRules {
        SpeedRules { cfg, hand_memory: (0..seats.len()).any(|p| seats.strategy(p).reads_hand_memory()) }
    }

    /// Lands action `a` of player `p`: the cards and piles (the hand memory aside).
    /// Inlined into both of `land`'s paths (a call of its own for every landing).
    #[inline(always)]
    fn land_action(&self, s: &mut SpeedState, p: usize, a: SpeedAction) -> Landing {
        match a {
            SpeedAction::Play { card, pile } => {
                let j = pile as usize;
                // SPIT-RT-5 via SPEED-RT-1: re-check against the current top; first touch wins.
                if !s.centre[j].top.is_some_and(|t| playable_on(&self.cfg, card, t)) {
                    return Landing::Rejected;
                }
                let me = &mut s.players[p];
                if self.hand_memory {
                    let slots = me.hand_count();
                    me.memory.remove(card.rank(), slots);
                }
                me.flying = None;
                s.show(j, card);
                s.recycled_since_landing = false;
                // SPEED-WIN-1: the player has played every card of his hand and stock.
                if s.players[p].count() == 0 { Landing::RoundOver } else { Landing::Placed }
            }
            SpeedAction::Draw => {
                debug_assert!(s.players[p].can_draw(), "SPEED-PLAY-2: draw with a full hand or an empty stock");
                s.draw_from_stock(p);
                if self.hand_memory {
                    s.players[p].memory.drawn();
                }
                s.recycled_since_landing = false;
                Landing::Placed
            }
        }
    }
}

impl RealtimeRules for SpeedRules {
    type State = SpeedState;
    type Action = SpeedAction;
    type Decision = NoDecision;
    type Choice = NoDecision;

    type Moves = SpeedMoves;

    /// Inlined into the engine's ask, like [`SpeedMoves::of`]: a few instructions, and
    /// a call of its own cost about a third more.
    #[inline(always)]
    fn moves(&self, s: &SpeedState, p: usize, out: &mut SpeedMoves) {
        *out = SpeedMoves::of(&self.cfg, s, p);
    }

    /// Every Speed action is progress: a player is stuck only with no play and a full
    /// hand or an empty stock (SPEED-STALL-1).
    fn is_progress(&self, _: &SpeedState, _: usize, _: SpeedAction) -> bool {
        true
    }

    /// A draw or a play ([`can_draw`](super::state::PlayerCards::can_draw) or
    /// [`has_play`]), read off his moves as bit sets.
    fn has_progress(&self, s: &SpeedState, p: usize) -> bool {
        !SpeedMoves::of(&self.cfg, s, p).is_empty()
    }

    /// A player's moves are his hand, his draw and the centre tops: a play landing
    /// changes a top (both players' plays); every other change is to the player's own
    /// hand or stock (the hand memory is no part of the moves); a rejected play changes
    /// nothing.
    #[inline]
    fn touched(&self, _: &SpeedState, p: usize, a: SpeedAction, change: Change) -> u32 {
        change.touches_in_own_cards_and_shared_tops(p, matches!(a, SpeedAction::Play { .. }))
    }

    fn motion(&self, a: SpeedAction) -> Motion {
        match a {
            SpeedAction::Play { .. } => Motion::Play,
            SpeedAction::Draw => Motion::Draw,
        }
    }

    fn candidates(&self, s: &SpeedState, p: usize) -> u32 {
        s.players[p].hand.len().max(1)
    }

    /// A played card leaves the hand at once. A drawn card stays in the stock until it
    /// reaches the hand: it is face-down on the way, so which card it is is decided at
    /// landing (deferred decision), and only the owner touches his stock.
    /// Everybody sees a player reach for his stock: a draw he starts adds to the public
    /// memory that none of his hand cards fits a top now (a player who plays whenever he
    /// can draws only then).
    fn lift(&self, s: &mut SpeedState, p: usize, a: SpeedAction) {
        match a {
            SpeedAction::Play { card, .. } => {
                let me = &mut s.players[p];
                me.hand.remove(card);
                me.flying = Some(card);
                if self.hand_memory {
                    me.memory.start(false);
                }
            }
            SpeedAction::Draw => {
                if self.hand_memory {
                    fits_no_top(&self.cfg, s, p);
                    s.players[p].memory.start(true);
                }
            }
        }
    }

    /// Also keeps the hand memory ([`super::state::HandMemory`]): what the players who
    /// were watched since the last event showed, and who is watched after this one.
    fn land(&self, s: &mut SpeedState, p: usize, a: SpeedAction, _: Micros) -> Landing {
        if !self.hand_memory {
            return self.land_action(s, p, a);
        }
        observe(&self.cfg, s);
        let landing = self.land_action(s, p, a);
        watch_idle(s);
        landing
    }

    fn put_back(&self, s: &mut SpeedState, p: usize, a: SpeedAction) {
        if self.hand_memory {
            observe(&self.cfg, s);
        }
        match a {
            SpeedAction::Play { .. } => {
                let me = &mut s.players[p];
                let c = me.flying.take().expect("a play carries a card");
                me.hand.insert(c);
            }
            SpeedAction::Draw => {
                if self.hand_memory {
                    s.players[p].memory.drawn();
                }
            }
        }
        if self.hand_memory {
            watch_idle(s);
        }
    }
    fn still_legal(&self, s: &SpeedState, _: usize, a: SpeedAction, _: Micros) -> bool {
        match a {
            SpeedAction::Play { card, pile } => s.centre[pile as usize].top.is_some_and(|t| playable_on(&self.cfg, card, t)),
            SpeedAction::Draw => true,
        }
    }

    fn abort_allowed(&self) -> bool {
        false
    }

    /// A stall turns the side piles (SPEED-STALL-1), re-formed from the centre when they
    /// are empty (SPEED-STALL-2). The deal ends when there is nothing to re-form them
    /// from, or when they ran out again with nothing landed since the last re-forming:
    /// every card in the centre has then been a top while neither player could move.
    fn stall(&self, s: &SpeedState) -> Stall {
        let sides_empty = s.side.iter().all(|x| x.is_empty());
        if sides_empty && (s.recyclable() == 0 || s.recycled_since_landing) { Stall::RoundOver } else { Stall::Synchronised }
    }

    /// Side pile `j` turns one card onto centre pile `j`; player `j` turns it, and both
    /// turns happen at the same instant (SPEED-STALL-1, SPEED-AMB-3). A player who turns
    /// a card is busy for a while nobody sees the end of. At the stall nobody can play (SPEED-STALL-1): the hand memory of both players
    /// records it before any card moves.
    fn synchronise(&self, s: &mut SpeedState, _: &[Option<NoDecision>; MAX_PLAYERS], _: &mut SimRng) -> [bool; MAX_PLAYERS] {
        if self.hand_memory {
            observe(&self.cfg, s);
            for p in 0..2 {
                fits_no_top(&self.cfg, s, p);
            }
        }
        if s.side.iter().all(|x| x.is_empty()) {
            s.recycle();
        }
        let mut took_part = [false; MAX_PLAYERS];
        for (j, turns) in took_part.iter_mut().enumerate().take(2) {
            if !s.side[j].is_empty() {
                s.turn_side(j);
                *turns = true;
                if self.hand_memory {
                    s.players[j].memory.rest();
                }
            }
        }
        if self.hand_memory {
            watch_idle(s);
        }
        took_part
    }
}

#[cfg(test)]
mod fitting_tests {
    use super::*;

    #[test]
    fn fitting_table_agrees_with_playable_on() {
        for wrap in [false, true] {
            let cfg = SpeedConfig { wrap, ..SpeedConfig::default() };
            for t in 0..52 {
                let want = (0..52).filter(|&c| playable_on(&cfg, Card(c), Card(t))).fold(0u64, |m, c| m | 1 << c);
                assert_eq!(fitting(&cfg, Card(t)).0, want, "top {t}, wrap {wrap}");
            }
        }
    }

    #[test]
    fn fitting_ranks_is_the_union_of_fitting_over_every_set_of_ranks() {
        for wrap in [false, true] {
            let cfg = SpeedConfig { wrap, ..SpeedConfig::default() };
            for set in 0u32..1 << 13 {
                let ranks = (0..13).filter(|r| set >> r & 1 == 1).fold(0u64, |m, r| m | 1 << (4 * r));
                let want = (0..13).filter(|r| set >> r & 1 == 1).fold(0u64, |m, r| m | fitting(&cfg, Card(4 * r as u8)).0);
                assert_eq!(fitting_ranks(&cfg, ranks).0, want, "ranks {set:#b}, wrap {wrap}");
            }
        }
    }
}
