//! The Speed invariants, checked after every event by an observer: SPEED-INV-1 (52
//! cards, hands of at most five, the initial counts) and the natural ones of the rules
//! (plays adjacent, draws only below five, stocks never grow, the stall predicate when a
//! stall is declared, one card per side pile per flip, the end of a deal). Tests run
//! thousands of random matches through it.

use super::config::SpeedConfig;
use super::game::{fewer_cards_wins, DealEndReason, SpeedEvent};
use super::rules::{has_play, playable_on, SpeedAction};
use super::state::{SpeedState, HAND_LIMIT};
use crate::cards::{Card, CardSet};
use crate::realtime::{EngineEvent, EngineObserver, Micros};

/// Panics with the rule ID and a description when an invariant breaks.
pub struct InvariantChecker {
    cfg: SpeedConfig,
    /// Events checked so far.
    pub events: u64,
    /// Deals that ended, by reason: went out, nothing to recycle, deadlock.
    pub endings: [u64; 3],
    /// Side-pile re-formings seen.
    pub recycles: u64,
    prev_tops: [Option<Card>; 2],
    prev_centre: [u32; 2],
    prev_side: [u32; 2],
    prev_recycles: u16,
    prev_stock: [u32; 2],
    prev_count: [u32; 2],
}

impl InvariantChecker {
    /// A checker for matches under `cfg`.
    pub fn new(cfg: SpeedConfig) -> Self {
        InvariantChecker {
            cfg,
            events: 0,
            endings: [0; 3],
            recycles: 0,
            prev_tops: [None; 2],
            prev_centre: [0; 2],
            prev_side: [0; 2],
            prev_recycles: 0,
            prev_stock: [0; 2],
            prev_count: [0; 2],
        }
    }

    /// Checks the invariants that hold in every state.
    pub fn check_state(&mut self, s: &SpeedState) {
        self.events += 1;
        let (all, n) = s.census();
        assert!(all == CardSet::FULL && n == 52, "SPEED-INV-1: {n} cards counted, {} distinct, expected 52", all.len());
        for (p, me) in s.players.iter().enumerate() {
            assert!(me.hand_count() <= HAND_LIMIT, "SPEED-INV-1: player {p} holds {} cards in hand", me.hand_count());
        }
        assert!(s.side[0].len().abs_diff(s.side[1].len()) <= 1, "SPEED-STALL-2: side piles of {} and {} cards", s.side[0].len(), s.side[1].len());
        if s.centre.iter().all(|x| x.top.is_some()) {
            assert!(s.centre.iter().all(|x| x.cards.0 & !s.shown.0 == 0), "centre cards that were never shown");
        }
    }

    /// Remembers the parts of `s` that later events are compared with.
    fn remember(&mut self, s: &SpeedState) {
        self.prev_tops = [s.centre[0].top, s.centre[1].top];
        self.prev_centre = [s.centre[0].len(), s.centre[1].len()];
        self.prev_side = [s.side[0].len(), s.side[1].len()];
        self.prev_recycles = s.recycles;
        self.prev_stock = [s.players[0].stock.len(), s.players[1].stock.len()];
        self.prev_count = [s.players[0].count(), s.players[1].count()];
    }

    /// Holdings only shrink during a deal, and a stock only through draws (SPEED-PLAY-2).
    fn check_holdings(&self, s: &SpeedState) {
        for p in 0..2 {
            let (stock, count) = (s.players[p].stock.len(), s.players[p].count());
            assert!(stock <= self.prev_stock[p], "SPEED-PLAY-2: player {p} stock grew {} -> {stock}", self.prev_stock[p]);
            assert!(count <= self.prev_count[p], "SPEED-INV-1: player {p} holds more cards {} -> {count}", self.prev_count[p]);
        }
    }

    /// SPEED-STALL-1: a stall is declared only when, for each player, there is no play
    /// and the hand is full or the stock empty.
    fn check_stall(&self, s: &SpeedState) {
        for (p, me) in s.players.iter().enumerate() {
            assert!(me.flying.is_none(), "SPEED-STALL-1: player {p} has a card in flight at a stall");
            assert!(!has_play(&self.cfg, s, p), "SPEED-STALL-1: player {p} could still play");
            assert!(me.hand.len() == HAND_LIMIT || me.stock.is_empty(), "SPEED-STALL-1: player {p} could still draw");
        }
    }

    /// SPEED-STALL-1/2: each non-empty side pile turned one card onto its centre pile,
    /// after a re-forming from the centre if both side piles were empty.
    fn check_flip(&mut self, s: &SpeedState) {
        let recycled = s.recycles != self.prev_recycles;
        if recycled {
            self.recycles += 1;
            assert_eq!(self.prev_side, [0, 0], "SPEED-STALL-2: side piles re-formed while not empty");
            let pool = self.prev_centre[0] + self.prev_centre[1] - 2;
            assert!(pool > 0, "SPEED-STALL-2: re-formed from nothing");
            let side = s.side[0].len() + s.side[1].len();
            let turned = s.centre[0].len() + s.centre[1].len() - 2;
            assert_eq!(side + turned, pool, "SPEED-STALL-2: recycled cards lost");
            for j in 0..2 {
                assert!(s.centre[j].len() <= 2, "SPEED-STALL-2: centre pile {j} kept more than its top");
            }
        } else {
            for j in 0..2 {
                let turned = (self.prev_side[j] > 0) as u32;
                assert_eq!(s.centre[j].len(), self.prev_centre[j] + turned, "SPEED-STALL-1: centre pile {j} did not get one side card");
                assert_eq!(s.side[j].len() + turned, self.prev_side[j], "SPEED-STALL-1: side pile {j} did not turn one card");
            }
        }
    }
}

impl EngineObserver<SpeedState, SpeedAction> for InvariantChecker {
    fn on_event(&mut self, _: Micros, ev: EngineEvent<SpeedAction>, s: &SpeedState) {
        self.check_state(s);
        self.check_holdings(s);
        match ev {
            EngineEvent::Start { player, action: SpeedAction::Draw, .. } => {
                let me = &s.players[player];
                assert!(me.hand.len() < HAND_LIMIT && !me.stock.is_empty(), "SPEED-PLAY-2: draw started with {} in hand, stock {}", me.hand.len(), me.stock.len());
            }
            EngineEvent::Landed { action: SpeedAction::Play { card, pile }, .. } => {
                let j = pile as usize;
                let below = self.prev_tops[j].expect("a centre pile has a top during play");
                assert_eq!(s.centre[j].top, Some(card), "SPEED-PLAY-1: the landed card is not on top");
                assert!(playable_on(&self.cfg, card, below), "SPEED-PLAY-1: {} committed onto {}", card.name(), below.name());
            }
            EngineEvent::Stalled => self.check_stall(s),
            EngineEvent::Synchronised => self.check_flip(s),
            EngineEvent::LivenessViolation { player } => panic!("SPIT-RT-9 via SPEED-RT-1: player {player} idle with a progress action"),
            _ => {}
        }
        self.remember(s);
    }
}

impl crate::realtime::MatchObserver<SpeedState, SpeedAction, SpeedEvent> for InvariantChecker {
    fn on_match_event(&mut self, _: Micros, ev: SpeedEvent, s: &SpeedState) {
        self.check_state(s);
        match ev {
            SpeedEvent::Hands => {
                // SPEED-INV-1: 5 + 10 per player, 10 + 10 side, 2 centre (5 + 15, 5 + 5, 2).
                let stock = self.cfg.stock_size() - HAND_LIMIT;
                for (p, me) in s.players.iter().enumerate() {
                    assert_eq!((me.hand.len(), me.stock.len()), (HAND_LIMIT, stock), "SPEED-INV-1: player {p} initial hand and stock");
                }
                let side = self.cfg.side_pile_size as u32;
                assert_eq!([s.side[0].len(), s.side[1].len()], [side, side], "SPEED-INV-1: initial side piles");
                assert_eq!([s.centre[0].len(), s.centre[1].len()], [1, 1], "SPEED-INV-1: initial middle cards");
                assert!(s.centre.iter().all(|x| x.top.is_none()), "SPEED-START-1: a middle card is face-up before the opening");
                self.remember(s);
            }
            SpeedEvent::Opening => self.remember(s),
            SpeedEvent::DealEnd { reason, winner, .. } => {
                assert!(s.players.iter().all(|p| p.flying.is_none()), "SPIT-RT-10: a card still in flight at the end");
                match reason {
                    DealEndReason::WentOut(p) => {
                        assert_eq!(s.players[p].count(), 0, "SPEED-WIN-1: player {p} went out holding cards");
                        assert_eq!(winner, Some(p), "SPEED-WIN-1: the player who went out did not win");
                        self.endings[0] += 1;
                    }
                    DealEndReason::NothingToRecycle | DealEndReason::Deadlock => {
                        assert!(s.side.iter().all(|x| x.is_empty()), "SPEED-STALL-2: deal ended with side cards left");
                        let nothing = reason == DealEndReason::NothingToRecycle;
                        assert_eq!(s.recyclable() == 0, nothing, "SPEED-STALL-2: wrong ending reason");
                        assert!(nothing || s.recycled_since_landing, "SPEED-STALL-2: deadlock declared after a landing");
                        assert_eq!(winner, fewer_cards_wins(s), "SPEED-STALL-2: the player with fewer cards must win");
                        self.endings[if nothing { 1 } else { 2 }] += 1;
                    }
                }
            }
            SpeedEvent::MatchEnd { winner: Some(w), capped: false, points } if self.cfg.target > 0 => {
                assert!(points[w] >= self.cfg.target && points[1 - w] < self.cfg.target, "SPEED-SCORE-1: match ended at {points:?}, target {}", self.cfg.target);
            }
            _ => {}
        }
    }
}
