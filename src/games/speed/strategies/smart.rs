//! `smart`: scores every play by what the player can see and remember: its hand, the
//! centre tops and every card shown in the centre this deal (the view's memory). Cards
//! never seen are where the opponent's hand comes from, so the expected number of
//! opponent cards in a set is his hand size times the set's share of the unseen cards.
//! A play is better when the hand it leaves can answer many unseen cards (it keeps plays
//! available), when the tops it leaves give the opponent few cards to follow with, and
//! when the card played has neighbours that were already shown (it would be hard to play
//! later). It never holds a play back for a draw: held-back plays are lost to the
//! opponent, so it refills its hand only when it has no play.

use super::{Registered, SpeedStrategy};
use crate::cards::{nibble_sum, Card, CardSet};
use crate::games::speed::moves::SpeedMoves;
use crate::games::speed::rules::{fitting_ranks, SpeedAction, RANK_BITS};
use crate::games::speed::view::SpeedView;
use crate::games::params::{ParamDef, ParamValues};
use crate::games::StrategyInfo;
use crate::rng::SimRng;

/// Heuristic play: a score per play, its three weights the strategy's parameters.
#[derive(Debug, PartialEq, Eq)]
pub struct Smart {
    cover: i64,
    opp_follow: i64,
    hard: i64,
}

/// The weights, in the order [`Smart`] reads them.
const PARAMS: &[ParamDef] = &[
    ParamDef { name: "cover", about: "value of one unseen card the hand left after the play could answer", default: 100.0, min: -1000.0, max: 1000.0, integer: true },
    ParamDef { name: "opp_follow", about: "cost of one expected opponent card that fits a top after the play", default: 100.0, min: -1000.0, max: 1000.0, integer: true },
    ParamDef { name: "hard", about: "value, per neighbour already shown, of shedding a card now", default: 100.0, min: -1000.0, max: 1000.0, integer: true },
];

/// Registry entry.
pub const REGISTERED: Registered = Registered {
    info: StrategyInfo { name: "smart", about: "keeps a hand that answers many unseen cards, gives the opponent few plays, sheds hard cards; draws only with no play", params: PARAMS },
    make: |v| Box::new(Smart::new(v)),
};

/// Union of the cards that fit any card of `cards`.
fn answers(view: &SpeedView, cards: impl Iterator<Item = Card>) -> CardSet {
    CardSet(cards.fold(0, |acc, c| acc | view.fitting(c).0))
}

impl Smart {
    /// The default weights (every parameter at its default).
    pub(super) const STANDARD: Smart = Smart { cover: 100, opp_follow: 100, hard: 100 };

    /// The strategy with weights `v` (in [`PARAMS`] order).
    pub(super) fn new(v: &ParamValues) -> Smart {
        Smart { cover: v.int(0), opp_follow: v.int(1), hard: v.int(2) }
    }

    /// Score of a play of `card` onto `pile`.
    fn play_score(&self, view: &SpeedView, card: Card, pile: usize) -> i64 {
        let unseen = view.unseen();
        let mut hand = view.hand();
        hand.remove(card);
        let cover = CardSet(answers(view, hand.iter()).0 & unseen.0).len() as i64;
        let mut tops = [view.pile_top(0), view.pile_top(1)];
        tops[pile] = Some(card);
        let open = CardSet(answers(view, tops.iter().flatten().copied()).0 & unseen.0).len() as i64;
        // Expected opponent hand cards that fit the tops left, times 100.
        let theirs = view.hand_count(false) as i64 * open * 100 / unseen.len().max(1) as i64;
        let hard = CardSet(view.shown().0 & view.fitting(card).0).len() as i64;
        self.cover * cover - self.opp_follow * theirs / 100 + self.hard * hard
    }

    /// The first best play of `legal` in the legal order, else its last action (the
    /// draw: `legal` is never empty).
    pub(super) fn pick(&self, view: &SpeedView, legal: impl Iterator<Item = SpeedAction>) -> Option<SpeedAction> {
        let mut best: Option<(i64, SpeedAction)> = None;
        let mut last = None;
        for a in legal {
            last = Some(a);
            if let SpeedAction::Play { card, pile } = a {
                let score = self.play_score(view, card, pile as usize);
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, a));
                }
            }
        }
        best.map(|(_, a)| a).or(last)
    }

    /// The same choice as [`Smart::pick`] over `moves.iter()`, from the bit sets, and
    /// the draw only with no play. Every set a score counts is a union of whole ranks
    /// ([`fitting`](SpeedView::fitting) fits every suit of a rank or none), so it counts
    /// the unseen and shown cards a rank once an ask ([`rank_counts`]) and a set by
    /// adding its ranks' counts ([`nibble_sum`]): no population count of a 52-bit set,
    /// a software routine on the baseline x86-64 target. What the hand answers after a
    /// play is the union of what its other ranks fit ([`fitting_ranks`]): the played
    /// card's rank drops out unless the hand holds it twice.
    pub(super) fn pick_moves(&self, view: &SpeedView, moves: &SpeedMoves) -> Option<SpeedAction> {
        let plays = moves.plays();
        let mut cards = plays[0] | plays[1];
        if cards == 0 {
            return moves.can_draw().then_some(SpeedAction::Draw);
        }
        let cfg = view.rules();
        let unseen = rank_counts(view.unseen().0);
        let unseen_len = nibble_sum(unseen).max(1) as i64;
        let (their_hand, shown) = (view.hand_count(false) as i64, rank_counts(view.shown().0));
        let held = rank_counts(view.hand().0);
        // The hand's ranks, and those it holds twice or more (a count of 2 to 4 has bit
        // 1 or 2 of its nibble set).
        let ranks = (held | held >> 1 | held >> 2) & RANK_BITS;
        let twice = (held >> 1 | held >> 2) & RANK_BITS;
        let top_fit = [0, 1].map(|j| view.pile_top(j).map_or(0, |t| view.fitting(t).0));
        let mut best: Option<(i64, SpeedAction)> = None;
        while cards != 0 {
            let card = Card(cards.trailing_zeros() as u8);
            cards &= cards - 1;
            let fit = view.fitting(card).0;
            // What the hand left after the play answers.
            let rank = 1u64 << (card.0 & !3);
            let rest = fitting_ranks(cfg, ranks & !(rank & !twice)).0;
            let cover = nibble_sum(unseen & rest) as i64;
            let hard = nibble_sum(shown & fit) as i64;
            for pile in 0..2 {
                if plays[pile] >> card.0 & 1 == 0 {
                    continue;
                }
                let open = nibble_sum(unseen & (fit | top_fit[1 - pile])) as i64;
                let theirs = their_hand * open * 100 / unseen_len;
                let score = self.cover * cover - self.opp_follow * theirs / 100 + self.hard * hard;
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, SpeedAction::Play { card, pile: pile as u8 }));
                }
            }
        }
        best.map(|(_, a)| a)
    }
}

/// The cards of `set` counted by rank: nibble `r - 1` holds how many of rank `r`'s four
/// cards it has (0 to 4).
#[inline]
fn rank_counts(set: u64) -> u64 {
    let pairs = set - (set >> 1 & 0x5555_5555_5555_5555);
    (pairs & 0x3333_3333_3333_3333) + (pairs >> 2 & 0x3333_3333_3333_3333)
}

impl SpeedStrategy for Smart {
    fn choose(&self, view: &SpeedView, legal: &[SpeedAction], _: &mut SimRng) -> Option<SpeedAction> {
        self.pick(view, legal.iter().copied())
    }
    fn choose_moves(&self, view: &SpeedView, moves: &SpeedMoves, _: &mut SimRng) -> Option<SpeedAction> {
        self.pick_moves(view, moves)
    }
    fn reads_hand_memory(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from;
    use rand::RngExt;

    #[test]
    fn rank_counts_summed_over_whole_ranks_count_the_cards() {
        let mut rng = rng_from(7);
        for _ in 0..20_000 {
            let set = rng.random::<u64>() & CardSet::FULL.0;
            let ranks = rng.random::<u64>() & RANK_BITS;
            let whole = ranks * 0xF;
            assert_eq!(nibble_sum(rank_counts(set) & whole), (set & whole).count_ones(), "{set:#x} in ranks {ranks:#x}");
        }
    }
}
