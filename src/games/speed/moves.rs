//! A Speed player's legal moves as bit sets (issue 19: incremental legal moves): per
//! centre pile the hand cards that fit its top, and whether he may draw. Counted by
//! population counts, checked by one bit test, and walked in the legal order (plays in
//! card order, each on pile 0 then pile 1, then the draw) without an action list.

use super::config::SpeedConfig;
use super::rules::{fitting, SpeedAction};
use super::state::SpeedState;
use crate::cards::Card;
use crate::realtime::{ActionList, LegalMoves};

/// Player `p`'s legal moves (his hand idle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpeedMoves {
    /// Per centre pile, the hand cards that may be played on it (bit `c` for `Card(c)`).
    plays: [u64; 2],
    /// True if he may draw (SPEED-PLAY-2).
    draw: bool,
}

impl SpeedMoves {
    /// The legal moves of player `p` (whose hand is idle) on `s`. Inlined: it is a few
    /// instructions, built at every ask.
    #[inline(always)]
    pub fn of(cfg: &SpeedConfig, s: &SpeedState, p: usize) -> SpeedMoves {
        let me = &s.players[p];
        // A pile without a top (before the opening flip) takes nothing.
        let plays = s.centre.each_ref().map(|pile| pile.top.map_or(0, |t| fitting(cfg, t).0 & me.hand.0));
        SpeedMoves { plays, draw: me.can_draw() }
    }

    /// Per centre pile, the hand cards that may be played on it (bit `c` for `Card(c)`).
    #[inline]
    pub fn plays(&self) -> [u64; 2] {
        self.plays
    }
    /// True if he may draw.
    #[inline]
    pub fn can_draw(&self) -> bool {
        self.draw
    }

    /// The moves in the legal order.
    pub fn iter(&self) -> SpeedMovesIter {
        SpeedMovesIter(*self)
    }
}

impl LegalMoves<SpeedAction> for SpeedMoves {
    fn count(&self) -> usize {
        // The plays are hand cards (at most five), so their bits are counted one by one:
        // fewer steps than `count_ones`, a software routine on the baseline x86-64
        // target (no `popcnt`).
        let mut n = self.draw as usize;
        for mut cards in self.plays {
            while cards != 0 {
                cards &= cards - 1;
                n += 1;
            }
        }
        n
    }
    fn contains(&self, a: SpeedAction) -> bool {
        match a {
            SpeedAction::Play { card, pile } => pile < 2 && card.0 < 64 && self.plays[pile as usize] >> card.0 & 1 == 1,
            SpeedAction::Draw => self.draw,
        }
    }
    fn write(&self, out: &mut ActionList<SpeedAction>) {
        out.extend(self.iter());
    }
    fn is_empty(&self) -> bool {
        (self.plays[0] | self.plays[1]) == 0 && !self.draw
    }
}

/// The moves of a [`SpeedMoves`] in the legal order (what is left to yield).
#[derive(Clone)]
pub struct SpeedMovesIter(SpeedMoves);

impl Iterator for SpeedMovesIter {
    type Item = SpeedAction;
    #[inline]
    fn next(&mut self) -> Option<SpeedAction> {
        let m = &mut self.0;
        let cards = m.plays[0] | m.plays[1];
        if cards != 0 {
            let card = cards.trailing_zeros() as u8;
            let bit = 1u64 << card;
            let pile = if m.plays[0] & bit != 0 { 0 } else { 1 };
            m.plays[pile] &= !bit;
            return Some(SpeedAction::Play { card: Card(card), pile: pile as u8 });
        }
        if m.draw {
            m.draw = false;
            return Some(SpeedAction::Draw);
        }
        None
    }
}
