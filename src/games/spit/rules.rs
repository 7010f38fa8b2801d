//! Spit's actions and their legality (spit.md sections 3-5), as the real-time engine
//! needs them.

use super::config::{PlayTarget, SpitConfig, SpitTarget};
use super::moves::{pile_changed, rebuild, slot_changed, SpitMoves};
use super::state::SpitState;
use crate::cards::{ranks_adjacent_circular, Card};
use crate::reaction::Motion;
use crate::realtime::{ActionList, Change, Landing, LegalMoves, Micros, RealtimeRules, Stall, MAX_PLAYERS};
use crate::rng::SimRng;
use rand::RngExt;

/// One action of one player. Slots and piles are 0-based indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpitAction {
    /// PLAY(slot → pile) (SPIT-PLAY-1).
    Play { slot: u8, pile: u8 },
    /// FLIP(slot) (SPIT-PLAY-2).
    Flip { slot: u8 },
    /// FILL(from → to) (SPIT-PLAY-3).
    Fill { from: u8, to: u8 },
}

/// True if card `c` may be played on `top` (SPIT-PLAY-1, SPIT-DECK-3, SPIT-VAR-3).
pub fn playable_on(cfg: &SpitConfig, c: Card, top: Card) -> bool {
    ranks_adjacent_circular(c.rank(), top.rank()) && (!cfg.alternate_colors || c.is_red() != top.is_red())
}

/// True if player `p` may play onto pile `j` at all (SPIT-AMB-2; one pile is shared in
/// single-pile mode).
pub fn may_target(cfg: &SpitConfig, s: &SpitState, p: usize, j: usize) -> bool {
    s.active[j] && (cfg.play_target == PlayTarget::Any || s.single_pile() || j == p)
}

/// Cards of a 52-card deck (bit `c` for `Card(c)`) whose suit is red (diamonds, hearts).
const RED_CARDS: u64 = 0x6666_6666_6666_6666 & ((1 << 52) - 1);
/// Cards whose suit is black (clubs, spades).
const BLACK_CARDS: u64 = 0x9999_9999_9999_9999 & ((1 << 52) - 1);

/// Per rank (1-13; index 0 unused), the cards of the two circularly adjacent ranks as a
/// bit set (bit `c` for `Card(c)`, four suits per rank).
const NEIGHBOUR_CARDS: [u64; 14] = {
    let mut table = [0u64; 14];
    let mut r = 1;
    while r <= 13 {
        let up = if r == 13 { 1 } else { r + 1 };
        let down = if r == 1 { 13 } else { r - 1 };
        table[r] = (0xF << (4 * (up - 1))) | (0xF << (4 * (down - 1)));
        r += 1;
    }
    table
};

/// The cards that may be played on `top` as a bit set (bit `c` for `Card(c)`): the
/// same answer as [`playable_on`] for every card, in one test per card.
#[inline]
pub fn playable_mask(cfg: &SpitConfig, top: Card) -> u64 {
    let m = NEIGHBOUR_CARDS[top.rank() as usize];
    if !cfg.alternate_colors {
        m
    } else if top.is_red() {
        m & BLACK_CARDS
    } else {
        m & RED_CARDS
    }
}

/// Writes the legal actions of player `p` (whose hand is idle) into `out`: plays (by
/// slot, his own pile before the other), then flips, then fills, each in slot order
/// ([`SpitMoves`] written out).
pub fn legal_actions(cfg: &SpitConfig, s: &SpitState, p: usize, out: &mut ActionList<SpitAction>) {
    SpitMoves::of(cfg, s, p).write(out);
}

/// True for progress actions (SPIT-STALL-1 (b)): every PLAY and FLIP, and a FILL that
/// exposes a face-down card. Moving a pile's only card is not progress.
pub fn is_progress(s: &SpitState, p: usize, a: SpitAction) -> bool {
    match a {
        SpitAction::Play { .. } | SpitAction::Flip { .. } => true,
        SpitAction::Fill { from, .. } => s.players[p].slots[from as usize].down > 0,
    }
}

/// A question the Spit rules put to a player; he answers with a pile (0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpitDecision {
    /// The pile his stall spit goes onto under `spit.stall_spit_target=any`
    /// (SPIT-STALL-3), asked before any spit card of the stall moves.
    SpitPile,
    /// The pile he slaps at the end of a two-pile round (SPIT-SLAP-1).
    Slap,
    /// The pile the first-out player gives away under
    /// `spit.round_end_allocation=first_out_chooses` (SPIT-SLAP-3).
    GiveAway,
}

/// True if the players who spit at this stall are exactly one.
fn solo_spit(s: &SpitState) -> bool {
    (s.players[0].spit > 0) != (s.players[1].spit > 0)
}

/// The rules of a Spit match.
#[derive(Clone, Copy, Debug)]
pub struct SpitRules {
    /// Rules in force.
    pub cfg: SpitConfig,
}

impl SpitRules {
    /// Pile that player `p` spits onto at a stall (SPIT-STALL-3, SPIT-STALL-4), on the
    /// state `s` as it was before any spit card of this stall moved: fixed by the rules,
    /// or `chosen` (the player's answer to [`SpitDecision::SpitPile`]).
    fn stall_target(&self, s: &SpitState, p: usize, chosen: Option<usize>) -> usize {
        if s.single_pile() {
            return if s.active[0] { 0 } else { 1 };
        }
        match (self.cfg.stall_spit_target, solo_spit(s), s.solo_spit_pile) {
            (SpitTarget::Own, ..) => p,
            (SpitTarget::Any, true, Some(locked)) => locked as usize,
            (SpitTarget::Any, ..) => chosen.expect("the spit pile was asked") & 1,
        }
    }
}

impl RealtimeRules for SpitRules {
    type State = SpitState;
    type Action = SpitAction;
    type Decision = SpitDecision;
    type Choice = usize;

    type Moves = SpitMoves;

    /// Built at the round's start, kept up to date since.
    fn moves(&self, s: &SpitState, p: usize, out: &mut SpitMoves) {
        *out = s.moves[p];
    }

    fn begin_round(&self, s: &mut SpitState) {
        rebuild(&self.cfg, s);
    }

    fn is_progress(&self, s: &SpitState, p: usize, a: SpitAction) -> bool {
        is_progress(s, p, a)
    }

    /// A play or a flip, or a fill that exposes a face-down card, from the moves the
    /// state keeps (up to date on every state the engine hands the rules, the states
    /// its stall check imagines too: they come from `lift`, `land` and `put_back`).
    fn has_progress(&self, s: &SpitState, p: usize) -> bool {
        let m = s.moves[p];
        if (m.plays_own() | m.plays_other() | m.flips()) != 0 {
            return true;
        }
        let (mut from, _) = m.fills();
        let slots = &s.players[p].slots;
        while from != 0 {
            let i = from.trailing_zeros() as usize;
            from &= from - 1;
            if slots[i].down > 0 {
                return true;
            }
        }
        false
    }

    /// A play landing changes a pile top (both players' plays onto it); every other
    /// change is to the player's own slots (only he touches them, SPIT-RT-7); a rejected
    /// play changes nothing.
    #[inline]
    fn touched(&self, _: &SpitState, p: usize, a: SpitAction, change: Change) -> u32 {
        change.touches_in_own_cards_and_shared_tops(p, matches!(a, SpitAction::Play { .. }))
    }

    fn motion(&self, a: SpitAction) -> Motion {
        match a {
            SpitAction::Play { .. } => Motion::Play,
            SpitAction::Flip { .. } => Motion::Flip,
            SpitAction::Fill { .. } => Motion::Fill,
        }
    }

    /// His face-up tops (the cards of a deck are distinct: one per slot showing one).
    fn candidates(&self, s: &SpitState, p: usize) -> u32 {
        (s.players[p].slots.iter().filter(|x| x.up.is_some()).count() as u32).max(1)
    }

    fn lift(&self, s: &mut SpitState, p: usize, a: SpitAction) {
        let me = &mut s.players[p];
        match a {
            SpitAction::Play { slot, .. } | SpitAction::Fill { from: slot, .. } => {
                me.flying = me.slots[slot as usize].up.take();
                debug_assert!(me.flying.is_some(), "lifted an empty top");
                slot_changed(&self.cfg, s, p, slot as usize);
            }
            SpitAction::Flip { .. } => {}
        }
    }

    fn land(&self, s: &mut SpitState, p: usize, a: SpitAction, _: Micros) -> Landing {
        match a {
            SpitAction::Play { pile, .. } => {
                let c = s.players[p].flying.expect("a play carries a card");
                let j = pile as usize;
                // SPIT-RT-5: re-check against the current top; first touch wins.
                if !(s.active[j] && s.piles[j].top.is_some_and(|t| playable_on(&self.cfg, c, t))) {
                    return Landing::Rejected;
                }
                s.players[p].flying = None;
                s.piles[j].push(c);
                pile_changed(&self.cfg, s, j);
                // SPIT-END-1 (a): the last stockpile card ends the round.
                if s.players[p].stock_count() == 0 { Landing::RoundOver } else { Landing::Placed }
            }
            SpitAction::Flip { slot } => {
                let me = &mut s.players[p];
                let x = &mut me.slots[slot as usize];
                debug_assert!(x.up.is_none() && x.down > 0);
                x.down -= 1;
                x.up = Some(me.hidden.draw_keyed(me.zone));
                slot_changed(&self.cfg, s, p, slot as usize);
                Landing::Placed
            }
            SpitAction::Fill { to, .. } => {
                let me = &mut s.players[p];
                debug_assert!(me.slots[to as usize].is_empty(), "only the owner touches his slots (SPIT-RT-7)");
                me.slots[to as usize].up = me.flying.take();
                slot_changed(&self.cfg, s, p, to as usize);
                Landing::Placed
            }
        }
    }

    fn put_back(&self, s: &mut SpitState, p: usize, a: SpitAction) {
        let me = &mut s.players[p];
        if let SpitAction::Play { slot, .. } | SpitAction::Fill { from: slot, .. } = a {
            debug_assert!(me.slots[slot as usize].up.is_none());
            me.slots[slot as usize].up = me.flying.take();
            slot_changed(&self.cfg, s, p, slot as usize);
        }
    }

    fn still_legal(&self, s: &SpitState, p: usize, a: SpitAction, _: Micros) -> bool {
        match a {
            SpitAction::Play { pile, .. } => {
                let c = s.players[p].flying.expect("a play carries a card");
                s.piles[pile as usize].top.is_some_and(|t| playable_on(&self.cfg, c, t))
            }
            _ => true,
        }
    }

    fn abort_allowed(&self) -> bool {
        self.cfg.allow_abort
    }

    fn stall(&self, s: &SpitState) -> Stall {
        // SPIT-STALL-2 when someone can spit; SPIT-STALL-6 / SPIT-SHORT-5 otherwise.
        if s.players.iter().any(|p| p.spit > 0) { Stall::Synchronised } else { Stall::RoundOver }
    }

    /// A player with spit cards chooses his pile under `spit.stall_spit_target=any`,
    /// unless a single pile is in play or he spits alone onto the pile he locked in
    /// (SPIT-STALL-4).
    fn sync_decision(&self, s: &SpitState, p: usize) -> Option<SpitDecision> {
        let free = self.cfg.stall_spit_target == SpitTarget::Any && !s.single_pile() && !(solo_spit(s) && s.solo_spit_pile.is_some());
        (free && s.players[p].spit > 0).then_some(SpitDecision::SpitPile)
    }

    fn synchronise(&self, s: &mut SpitState, choices: &[Option<usize>; MAX_PLAYERS], chance: &mut SimRng) -> [bool; MAX_PLAYERS] {
        let mut took_part = [false; MAX_PLAYERS];
        let spitters = [s.players[0].spit > 0, s.players[1].spit > 0];
        let solo = solo_spit(s);
        // Both players chose their pile on the same state, before either card moves
        // (simultaneous decisions, docs/design.md).
        let targets: [usize; 2] = std::array::from_fn(|p| if spitters[p] { self.stall_target(s, p, choices[p]) } else { 0 });
        // Both flips commit at the same instant; public chance orders them (SPIT-STALL-3).
        let first = if chance.random::<bool>() { 0 } else { 1 };
        for p in [first, 1 - first] {
            if !spitters[p] {
                continue;
            }
            let j = targets[p];
            if solo && self.cfg.stall_spit_target == SpitTarget::Any && !s.single_pile() {
                s.solo_spit_pile = Some(j as u8);
            }
            let me = &mut s.players[p];
            me.spit -= 1;
            let c = me.hidden.draw_keyed(me.zone);
            s.piles[j].push(c);
            took_part[p] = true;
        }
        rebuild(&self.cfg, s);
        took_part
    }
}

#[cfg(test)]
mod mask_tests {
    use super::*;

    #[test]
    fn playable_mask_agrees_with_playable_on() {
        for alternate_colors in [false, true] {
            let cfg = SpitConfig { alternate_colors, ..SpitConfig::default() };
            for t in 0..52 {
                let m = playable_mask(&cfg, Card(t));
                for c in 0..52 {
                    assert_eq!(m >> c & 1 == 1, playable_on(&cfg, Card(c), Card(t)), "{c} on {t}, alternate {alternate_colors}");
                }
            }
        }
    }
}
