//! `smart`: scores every action. Plays come first (they are races), preferring plays
//! that uncover a face-down card and give the opponent nothing to follow with; then
//! flips; then fills that expose a card. It never makes aimless moves, and slaps the
//! smaller pile.

use super::{Registered, SpitStrategy};
use crate::cards::Card;
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
    /// Scores an action given both players' face-up tops; `None` for aimless moves.
    fn score(view: &SpitView, mine: &[Option<Card>; MAX_SLOTS], theirs: &[Option<Card>; MAX_SLOTS], a: SpitAction) -> Option<i32> {
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
                // Deny the opponent a follow-up. (Rewarding our own follow-ups was tried and
                // measured weaker: we can play a fitting card later anyway, the opponent
                // is the one who must be kept waiting.)
                let their_next = theirs.iter().filter(|t| t.is_some_and(|x| view.fits(x, c))).count() as i32;
                score -= 100 * their_next;
                // Keep the other pile alive too: prefer covering a pile that only we could use.
                let other = 1 - pile as usize;
                if view.pile_top(other).is_some_and(|t| theirs.iter().any(|o| o.is_some_and(|o| view.fits(o, t)))) {
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
}

impl SpitStrategy for Smart {
    fn choose(&self, view: &SpitView, legal: &[SpitAction], _: &mut SimRng) -> Option<SpitAction> {
        let (mine, theirs) = (view.tops(true), view.tops(false));
        legal
            .iter()
            .filter_map(|&a| Self::score(view, &mine, &theirs, a).map(|s| (s, a)))
            .max_by_key(|&(s, _)| s)
            .map(|(_, a)| a)
    }
}
