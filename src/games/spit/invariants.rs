//! The card-count invariants SPIT-INV-1..8 (spit.md section 11), checked after every
//! event by an observer. Tests run thousands of random matches through it.

use super::config::{Scoring, SpitConfig};
use super::game::SpitEvent;
use super::rules::{playable_on, SpitAction};
use super::state::SpitState;
use crate::cards::{Card, CardSet};
use crate::realtime::{EngineEvent, EngineObserver, Micros};

/// Panics with the rule ID and a description when an invariant breaks.
pub struct InvariantChecker {
    cfg: SpitConfig,
    /// Events checked so far.
    pub events: u64,
    /// `checked[k]`: how many times SPIT-INV-k was asserted (index 0 unused).
    pub checked: [u64; 9],
    prev_stock: [u32; 2],
    prev_spit: [u32; 2],
    prev_tops: [Option<Card>; 2],
    spitters_at_deal: [bool; 2],
    first_deal: bool,
    last_holdings: [u32; 2],
    own_before_collect: [u32; 2],
}

impl InvariantChecker {
    /// A checker for matches under `cfg`.
    pub fn new(cfg: SpitConfig) -> Self {
        InvariantChecker {
            cfg,
            events: 0,
            checked: [0; 9],
            prev_stock: [0; 2],
            prev_spit: [0; 2],
            prev_tops: [None; 2],
            spitters_at_deal: [false; 2],
            first_deal: true,
            last_holdings: [26, 26],
            own_before_collect: [0; 2],
        }
    }

    /// Checks the invariants that hold in every state.
    pub fn check_state(&mut self, s: &SpitState) {
        self.events += 1;
        self.checked[1] += 1;
        self.checked[3] += 1;
        let (all, n) = s.census();
        assert!(all == CardSet::FULL && n == 52, "SPIT-INV-1: {n} cards counted, {} distinct, expected 52", all.len());
        let slots = self.cfg.slots as usize;
        for (p, me) in s.players.iter().enumerate() {
            assert!(me.slots[slots..].iter().all(|x| x.is_empty()), "SPIT-INV-3: player {p} uses more than {slots} slots");
            let down: u32 = me.slots.iter().map(|x| x.down as u32).sum();
            assert_eq!(me.hidden.len(), down + me.spit as u32, "SPIT-INV-3: player {p} hidden cards do not match face-down + spit counts");
        }
    }

    fn check_round_counts(&mut self, s: &SpitState, allow_increase: bool) {
        self.checked[4] += !allow_increase as u64;
        for p in 0..2 {
            let (stock, spit) = (s.players[p].stock_count(), s.players[p].spit as u32);
            if !allow_increase {
                assert!(stock <= self.prev_stock[p], "SPIT-INV-4: player {p} stockpile count rose {} -> {stock}", self.prev_stock[p]);
                assert!(spit <= self.prev_spit[p], "SPIT-INV-4: player {p} spit count rose {} -> {spit}", self.prev_spit[p]);
            }
            self.prev_stock[p] = stock;
            self.prev_spit[p] = spit;
        }
        let active = s.active.iter().filter(|&&a| a).count();
        if active > 0 {
            self.checked[6] += 1;
            let expected = if self.spitters_at_deal[0] && self.spitters_at_deal[1] { 2 } else { 1 };
            assert_eq!(active, expected, "SPIT-INV-6: {active} spit piles in play, spit cards at deal {:?}", self.spitters_at_deal);
        }
    }
}

impl EngineObserver<SpitState, SpitAction> for InvariantChecker {
    fn on_event(&mut self, _: Micros, ev: EngineEvent<SpitAction>, s: &SpitState) {
        self.check_state(s);
        if let EngineEvent::LivenessViolation { player } = ev {
            panic!("SPIT-RT-9: player {player} sat idle with a progress action");
        }
        if let EngineEvent::Landed { action: SpitAction::Play { pile, .. }, .. } = ev {
            let j = pile as usize;
            self.checked[5] += 1;
            let (below, top) = (self.prev_tops[j].expect("a pile in play has a top"), s.piles[j].top.expect("just played"));
            assert!(playable_on(&self.cfg, top, below), "SPIT-INV-5: {} committed onto {}", top.name(), below.name());
        }
        self.check_round_counts(s, false);
        self.prev_tops = [s.piles[0].top, s.piles[1].top];
    }
}

impl crate::realtime::MatchObserver<SpitState, SpitAction, SpitEvent> for InvariantChecker {
    fn on_match_event(&mut self, _: Micros, ev: SpitEvent, s: &SpitState) {
        match ev {
            SpitEvent::Deal { holdings, .. } => {
                self.check_state(s);
                self.checked[2] += 1;
                assert_eq!(holdings[0] + holdings[1], 52, "SPIT-INV-2: holdings {holdings:?} do not sum to 52");
                let t = self.cfg.stock_capacity();
                for (p, (me, &held)) in s.players.iter().zip(&holdings).enumerate() {
                    assert_eq!(me.stock_count(), held.min(t), "SPIT-INV-2: player {p} stockpile cards");
                    assert_eq!(me.spit as u32, held.saturating_sub(t), "SPIT-INV-2: player {p} spit cards");
                    if self.first_deal {
                        for (k, slot) in me.slots[..self.cfg.slots as usize].iter().enumerate() {
                            assert_eq!((slot.len(), slot.up.is_some()), (k as u32 + 1, true), "SPIT-INV-2: first deal slot {k}");
                        }
                    }
                }
                self.first_deal = false;
                self.spitters_at_deal = [s.players[0].spit > 0, s.players[1].spit > 0];
                self.check_round_counts(s, true);
            }
            SpitEvent::Opening => {
                self.check_state(s);
                self.check_round_counts(s, false);
                self.prev_tops = [s.piles[0].top, s.piles[1].top];
            }
            SpitEvent::RoundEnd { .. } => {
                self.check_state(s);
                self.own_before_collect = [s.players[0].count(), s.players[1].count()];
            }
            SpitEvent::Collected { holdings, took } => {
                self.checked[7] += 1;
                assert_eq!(holdings[0] + holdings[1], 52, "SPIT-INV-7: holdings {holdings:?} do not sum to 52");
                for p in 0..2 {
                    let pile = took[p].map_or(0, |j| s.piles[j].len());
                    assert_eq!(holdings[p], self.own_before_collect[p] + pile, "SPIT-INV-7: player {p} holding is not own cards + pile taken");
                    if !s.single_pile() {
                        assert!(holdings[p] >= 1, "SPIT-INV-7: empty holding in two-pile mode");
                    }
                }
                self.last_holdings = holdings;
            }
            SpitEvent::MatchEnd { winner: Some(w), capped: false } if self.cfg.scoring == Scoring::Standard => {
                self.checked[8] += 1;
                assert_eq!(self.last_holdings[w], 0, "SPIT-INV-8: winner {w} still holds cards {:?}", self.last_holdings);
                assert_eq!(self.last_holdings[1 - w], 52, "SPIT-INV-8: loser does not hold all 52 cards");
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn dealt() -> SpitState {
        let cfg = SpitConfig::default();
        let mut rng = crate::rng::rng_from(1);
        let (a, b) = crate::cards::deal_split(&mut rng, CardSet::FULL, 26);
        let players = [super::super::state::deal_layout(a, &cfg, crate::rng::ChanceKey(rand::RngExt::random(&mut rng))), super::super::state::deal_layout(b, &cfg, crate::rng::ChanceKey(rand::RngExt::random(&mut rng)))];
        SpitState { players, ..SpitState::EMPTY }
    }

    #[test]
    fn a_correct_deal_passes() {
        let mut c = InvariantChecker::new(SpitConfig::default());
        c.check_state(&dealt());
        assert_eq!(c.events, 1);
    }

    #[test]
    #[should_panic(expected = "SPIT-INV-1")]
    fn spit_inv_1_catches_a_lost_card() {
        let mut s = dealt();
        assert!(s.players[0].slots[0].up.take().is_some());
        InvariantChecker::new(SpitConfig::default()).check_state(&s);
    }

    #[test]
    #[should_panic(expected = "SPIT-INV-3")]
    fn spit_inv_3_catches_a_fifth_slot_in_the_four_slot_variant() {
        let s = dealt();
        InvariantChecker::new(SpitConfig { slots: 4, ..SpitConfig::default() }).check_state(&s);
    }
}
