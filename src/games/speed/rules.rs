//! Speed's actions and their legality (SPEED-PLAY-*, SPEED-STALL-*), as the real-time
//! engine needs them.

use super::config::SpeedConfig;
use super::state::SpeedState;
use crate::cards::{ranks_adjacent_circular, ranks_adjacent_straight, Card, CardSet};
use crate::reaction::Motion;
use crate::realtime::{ActionList, Landing, Micros, NoDecision, RealtimeRules, Stall, MAX_PLAYERS};
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

/// Every card of the deck that may be played on `top`.
pub fn fitting(cfg: &SpeedConfig, top: Card) -> CardSet {
    let mut set = CardSet::EMPTY;
    for rank in 1..=13u8 {
        if playable_on(cfg, Card::new(rank, 0), top) {
            set.0 |= 0xF << ((rank - 1) * 4);
        }
    }
    set
}

/// True if player `p` can play a hand card on a centre pile now.
pub fn has_play(cfg: &SpeedConfig, s: &SpeedState, p: usize) -> bool {
    let hand = s.players[p].hand;
    s.centre.iter().filter_map(|pile| pile.top).any(|t| hand.iter().any(|c| playable_on(cfg, c, t)))
}

/// Writes the legal actions of player `p` (whose hand is idle) into `out`: plays in card
/// order, each on pile 0 then pile 1, then the draw.
pub fn legal_actions(cfg: &SpeedConfig, s: &SpeedState, p: usize, out: &mut ActionList<SpeedAction>) {
    let me = &s.players[p];
    for card in me.hand.iter() {
        for (j, pile) in s.centre.iter().enumerate() {
            if pile.top.is_some_and(|t| playable_on(cfg, card, t)) {
                out.push(SpeedAction::Play { card, pile: j as u8 });
            }
        }
    }
    if me.can_draw() {
        out.push(SpeedAction::Draw);
    }
}

/// The rules of a Speed match.
#[derive(Clone, Copy, Debug)]
pub struct SpeedRules {
    /// Rules in force.
    pub cfg: SpeedConfig,
}

impl RealtimeRules for SpeedRules {
    type State = SpeedState;
    type Action = SpeedAction;
    type Decision = NoDecision;
    type Choice = NoDecision;

    fn legal(&self, s: &SpeedState, p: usize, out: &mut ActionList<SpeedAction>) {
        legal_actions(&self.cfg, s, p, out);
    }

    /// Every Speed action is progress: a player is stuck only with no play and a full
    /// hand or an empty stock (SPEED-STALL-1).
    fn is_progress(&self, _: &SpeedState, _: usize, _: SpeedAction) -> bool {
        true
    }

    fn has_progress(&self, s: &SpeedState, p: usize) -> bool {
        s.players[p].can_draw() || has_play(&self.cfg, s, p)
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
    fn lift(&self, s: &mut SpeedState, p: usize, a: SpeedAction) {
        if let SpeedAction::Play { card, .. } = a {
            let me = &mut s.players[p];
            me.hand.remove(card);
            me.flying = Some(card);
        }
    }

    fn land(&self, s: &mut SpeedState, p: usize, a: SpeedAction, _: Micros) -> Landing {
        match a {
            SpeedAction::Play { card, pile } => {
                let j = pile as usize;
                // SPIT-RT-5 via SPEED-RT-1: re-check against the current top; first touch wins.
                if !s.centre[j].top.is_some_and(|t| playable_on(&self.cfg, card, t)) {
                    return Landing::Rejected;
                }
                s.players[p].flying = None;
                s.show(j, card);
                s.recycled_since_landing = false;
                // SPEED-WIN-1: the player has played every card of his hand and stock.
                if s.players[p].count() == 0 { Landing::RoundOver } else { Landing::Placed }
            }
            SpeedAction::Draw => {
                debug_assert!(s.players[p].can_draw(), "SPEED-PLAY-2: draw with a full hand or an empty stock");
                s.draw_from_stock(p);
                s.recycled_since_landing = false;
                Landing::Placed
            }
        }
    }

    fn put_back(&self, s: &mut SpeedState, p: usize, a: SpeedAction) {
        if let SpeedAction::Play { .. } = a {
            let me = &mut s.players[p];
            let c = me.flying.take().expect("a play carries a card");
            me.hand.insert(c);
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
    /// turns happen at the same instant (SPEED-STALL-1, SPEED-AMB-3).
    fn synchronise(&self, s: &mut SpeedState, _: &[Option<NoDecision>; MAX_PLAYERS], _: &mut SimRng) -> [bool; MAX_PLAYERS] {
        if s.side.iter().all(|x| x.is_empty()) {
            s.recycle();
        }
        let mut took_part = [false; MAX_PLAYERS];
        for (j, turns) in took_part.iter_mut().enumerate().take(2) {
            if !s.side[j].is_empty() {
                s.turn_side(j);
                *turns = true;
            }
        }
        took_part
    }
}
