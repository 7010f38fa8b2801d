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
use crate::games::params::{ParamDef, ParamValues};
use crate::games::StrategyInfo;
use crate::rng::SimRng;

/// Heuristic play: a score per action, its weights the strategy's parameters
/// (a play scores 1000 plus or minus them).
#[derive(Debug, PartialEq, Eq)]
pub struct Smart {
    uncover: i32,
    empty_slot: i32,
    follow_cost: i32,
    keep_follow: i32,
    flip: i32,
    fill: i32,
}

/// The weights, in the order [`Smart`] reads them.
const PARAMS: &[ParamDef] = &[
    ParamDef { name: "uncover", about: "a play that uncovers a face-down card", default: 200.0, min: -1000.0, max: 1000.0, integer: true },
    ParamDef { name: "empty_slot", about: "a play that empties a slot (with stock to fill it)", default: 50.0, min: -1000.0, max: 1000.0, integer: true },
    ParamDef { name: "follow_cost", about: "cost per opponent face-up card that fits the card played", default: 100.0, min: -1000.0, max: 1000.0, integer: true },
    ParamDef { name: "keep_follow", about: "a play that leaves the other pile one the opponent can follow", default: 5.0, min: -1000.0, max: 1000.0, integer: true },
    ParamDef { name: "flip", about: "score of a flip (a play scores about 1000)", default: 500.0, min: 0.0, max: 2000.0, integer: true },
    ParamDef { name: "fill", about: "score of a fill that exposes a card, plus its face-down count", default: 400.0, min: 0.0, max: 2000.0, integer: true },
];

/// Registry entry.
pub const REGISTERED: Registered = Registered {
    info: StrategyInfo { name: "smart", about: "plays that uncover cards and leave the opponent no follow-up first, then flips, then exposing fills; slaps the smaller pile", params: PARAMS },
    make: |v| Box::new(Smart::new(v)),
};

impl Smart {
    /// The standard weights (every parameter at its default).
    pub(super) const STANDARD: Smart = Smart { uncover: 200, empty_slot: 50, follow_cost: 100, keep_follow: 5, flip: 500, fill: 400 };

    /// The strategy with weights `v` (in [`PARAMS`] order).
    pub(super) fn new(v: &ParamValues) -> Smart {
        let w = |i: usize| v.int(i) as i32;
        Smart { uncover: w(0), empty_slot: w(1), follow_cost: w(2), keep_follow: w(3), flip: w(4), fill: w(5) }
    }

    /// `theirs` is the opponent's face-up tops as a bit set (bit `c` for `Card(c)`);
    /// `follow[j]` is true when one of them fits on pile `j`'s top.
    fn score(&self, view: &SpitView, mine: &[Option<Card>; MAX_SLOTS], theirs: u64, follow: [bool; 2], a: SpitAction) -> Option<i32> {
        match a {
            SpitAction::Play { slot, pile } => {
                let slot = slot as usize;
                let c = mine[slot].expect("a play has a face-up card");
                let mut score = 1000;
                if view.face_down(true, slot) > 0 {
                    score += self.uncover;
                } else if view.stock_count(true) > 1 {
                    score += self.empty_slot; // the slot can take another pile's top
                }
                // Their face-up cards that would fit on c (each card is one bit).
                let their_next = (view.fitting(c) & theirs).count_ones() as i32;
                score -= self.follow_cost * their_next;
                let other = 1 - pile as usize;
                if follow[other] {
                    score += self.keep_follow;
                }
                Some(score)
            }
            SpitAction::Flip { .. } => Some(self.flip),
            SpitAction::Fill { from, .. } => {
                let down = view.face_down(true, from as usize) as i32;
                (down > 0).then_some(self.fill + down)
            }
        }
    }

    /// The best-scored of `legal` (the last of equal scores in the legal order).
    pub(super) fn pick(&self, view: &SpitView, legal: impl Iterator<Item = SpitAction>) -> Option<SpitAction> {
        let mine = view.tops(true);
        let theirs = view.tops(false).iter().flatten().fold(0u64, |set, c| set | 1 << c.0);
        let follow = [0, 1].map(|j| view.pile_top(j).is_some_and(|t| view.fitting(t) & theirs != 0));
        legal.filter_map(|a| self.score(view, &mine, theirs, follow, a).map(|s| (s, a))).max_by_key(|&(s, _)| s).map(|(_, a)| a)
    }

    /// The same choice as [`Smart::pick`] over `moves.iter()`, from the bit sets: per
    /// slot the plays onto the own and the other pile, then the last flip, then per
    /// exposing slot its last fill (every flip scores the same, and a fill's score
    /// depends only on the slot it takes from, so the last of each is the one `pick`
    /// would keep). Ties go to the later move in the legal order, as in `pick`.
    pub(super) fn pick_moves(&self, view: &SpitView, moves: &SpitMoves) -> Option<SpitAction> {
        let me = moves.me();
        let mut best: Option<(i32, SpitAction)> = None;
        let mut offer = |score: i32, a: SpitAction| {
            if best.is_none_or(|(b, _)| score >= b) {
                best = Some((score, a));
            }
        };
        let (own, other) = (moves.plays_own(), moves.plays_other());
        let mut plays = own | other;
        // What the opponent shows matters only to a play (about half the asks have none).
        let (mut theirs, mut follow) = (0u64, [false; 2]);
        if plays != 0 {
            for slot in 0..view.slots() {
                if let Some(c) = view.top(false, slot) {
                    theirs |= 1 << c.0;
                }
            }
            follow = [0, 1].map(|j| view.pile_top(j).is_some_and(|t| view.fitting(t) & theirs != 0));
        }
        let mut stock_left: Option<bool> = None;
        while plays != 0 {
            let slot = plays.trailing_zeros() as u8;
            plays &= plays - 1;
            let i = slot as usize;
            let c = view.top(true, i).expect("a play has a face-up card");
            let mut score = 1000;
            if view.face_down(true, i) > 0 {
                score += self.uncover;
            } else if *stock_left.get_or_insert_with(|| view.stock_count(true) > 1) {
                score += self.empty_slot;
            }
            // Their face-up cards that fit on c, counted bit by bit: at most one a slot,
            // fewer steps than `count_ones` (a software routine on the baseline target).
            let mut their_next = view.fitting(c) & theirs;
            while their_next != 0 {
                their_next &= their_next - 1;
                score -= self.follow_cost;
            }
            for (mask, pile) in [(own, me), (other, 1 - me)] {
                if mask >> slot & 1 == 1 {
                    let keep = if follow[1 - pile] { self.keep_follow } else { 0 };
                    offer(score + keep, SpitAction::Play { slot, pile: pile as u8 });
                }
            }
        }
        let flips = moves.flips();
        if flips != 0 {
            offer(self.flip, SpitAction::Flip { slot: 7 - flips.leading_zeros() as u8 });
        }
        let (mut from, to) = moves.fills();
        if to != 0 {
            let last_to = 7 - to.leading_zeros() as u8;
            while from != 0 {
                let slot = from.trailing_zeros() as u8;
                from &= from - 1;
                let down = view.face_down(true, slot as usize) as i32;
                if down > 0 {
                    offer(self.fill + down, SpitAction::Fill { from: slot, to: last_to });
                }
            }
        }
        best.map(|(_, a)| a)
    }
}

impl SpitStrategy for Smart {
    fn choose(&self, view: &SpitView, legal: &[SpitAction], _: &mut SimRng) -> Option<SpitAction> {
        self.pick(view, legal.iter().copied())
    }
    fn choose_moves(&self, view: &SpitView, moves: &SpitMoves, _: &mut SimRng) -> Option<SpitAction> {
        self.pick_moves(view, moves)
    }
}
