//! `smart`: scores every action. Plays come first (they are races), preferring plays
//! that uncover a face-down card and give the opponent nothing to follow with; then
//! flips; then fills that expose a card. It never makes aimless moves, and slaps the
//! smaller pile.

use super::{Registered, SpitStrategy};
use crate::cards::Card;
use crate::games::spit::moves::SpitMoves;
use crate::games::spit::rules::SpitAction;
use crate::games::spit::state::MAX_SLOTS;
use crate::games::spit::view::SpitView;
use crate::games::StrategyInfo;
use crate::rng::SimRng;

/// Heuristic play.
pub struct Smart;

/// Registry entry.
pub const REGISTERED: Registered = Registered {
    info: StrategyInfo { name: "smart", about: "plays that uncover cards and leave the opponent no follow-up first, then flips, then exposing fills; slaps the smaller pile" },
    make: || Box::new(Smart),
};

impl Smart {
    /// `theirs` is the opponent's face-up tops as a bit set (bit `c` for `Card(c)`);
    /// `follow[j]` is true when one of them fits on pile `j`'s top.
    fn score(view: &SpitView, mine: &[Option<Card>; MAX_SLOTS], theirs: u64, follow: [bool; 2], a: SpitAction) -> Option<i32> {
        match a {
            SpitAction::Play { slot, pile } => {
                let slot = slot as usize;
                let c = mine[slot].expect("a play has a face-up card");
                let mut score = 1000;
                if view.face_down(true, slot) > 0 {
                    score += 200; // uncovers a card
                } else if view.stock_count(true) > 1 {
                    score += 50; // empties a slot that can take another pile's top
                }
                // Their face-up cards that would fit on c (each card is one bit).
                let their_next = (view.fitting(c) & theirs).count_ones() as i32;
                score -= 100 * their_next;
                let other = 1 - pile as usize;
                if follow[other] {
                    score += 5;
                }
                Some(score)
            }
            SpitAction::Flip { .. } => Some(500),
            SpitAction::Fill { from, .. } => {
                let down = view.face_down(true, from as usize) as i32;
                (down > 0).then_some(400 + down)
            }
        }
    }

    /// The best-scored of `legal` (the last of equal scores in the legal order).
    fn pick(view: &SpitView, legal: impl Iterator<Item = SpitAction>) -> Option<SpitAction> {
        let mine = view.tops(true);
        let theirs = view.tops(false).iter().flatten().fold(0u64, |set, c| set | 1 << c.0);
        let follow = [0, 1].map(|j| view.pile_top(j).is_some_and(|t| view.fitting(t) & theirs != 0));
        legal.filter_map(|a| Self::score(view, &mine, theirs, follow, a).map(|s| (s, a))).max_by_key(|&(s, _)| s).map(|(_, a)| a)
    }
}

impl SpitStrategy for Smart {
    fn choose(&self, view: &SpitView, legal: &[SpitAction], _: &mut SimRng) -> Option<SpitAction> {
        Self::pick(view, legal.iter().copied())
    }
    fn choose_moves(&self, view: &SpitView, moves: &SpitMoves, _: &mut SimRng) -> Option<SpitAction> {
        Self::pick(view, moves.iter())
    }
}
