//! The Nerts invariants (NERTS-INV-1..9, [`super::invariants`]) checked after every
//! event of a match on the real-time engine, as an observer: a fresh deal, every lift,
//! landing, rejection, return, cancellation and global reset; a stall only when nobody
//! has progress (NERTS-STUCK-1, the engine's decision) and no action it called off on
//! the way would have given one by landing (NERTS-STUCK-4: no action in progress), a
//! reset only when the rules call for one, and the deal's end as the rules say
//! (NERTS-END-*). Panics with the rule ID on the first failure; tests run random
//! matches through it.

use super::game::NertsEvent;
use super::invariants::{check_state, InvariantChecker, Step};
use super::rules::{apply_in_layout, NertsAction, NertsRules};
use super::state::NertsState;
use crate::realtime::{EngineEvent, EngineObserver, Landing, MatchObserver, Micros, Stall};

/// Checks every event of a Nerts match.
pub struct MatchChecker {
    rules: NertsRules,
    inner: InvariantChecker,
    /// Events checked.
    pub events: u64,
    /// Stalls seen, resets seen, deals ended by a call.
    pub stalls: u64,
    /// Global resets seen.
    pub resets: u64,
    /// Deals that ended by a call.
    pub called: u64,
    /// Deals that ended stuck (after a reset with no progress, or the reset limit).
    pub stuck_ends: u64,
    /// Liveness violations reported by the engine.
    pub liveness: u64,
    /// Actions landed in the current deal.
    pub deal_landed: u64,
    /// Most actions landed in one deal that ended by the rules.
    pub longest_deal: u64,
    /// Aimless actions called off at a stall that would have left everyone stuck.
    pub called_off: u64,
    last_time: Micros,
    /// The actions called off since the last other event (seat, action): a stall
    /// follows them at once when the engine called them off for it.
    cancelled: Vec<(usize, NertsAction)>,
}

impl MatchChecker {
    /// A checker for matches under `rules`.
    pub fn new(rules: NertsRules) -> Self {
        MatchChecker { rules, inner: InvariantChecker::new(), events: 0, stalls: 0, resets: 0, called: 0, stuck_ends: 0, liveness: 0, deal_landed: 0, longest_deal: 0, called_off: 0, last_time: 0, cancelled: Vec::new() }
    }
    /// NERTS-STUCK-4: seat `p`'s `action`, called off for the stall on state `s`, was
    /// not in progress: landed, it would have left every seat stuck.
    fn check_called_off(&mut self, s: &NertsState, p: usize, action: NertsAction) {
        assert!(!self.rules.is_progress(action), "NERTS-STUCK-4: the progress move {action:?} of seat {p} was called off for a stall");
        let mut landed = *s;
        apply_in_layout(&self.rules.cfg, &mut landed.layouts[s.layout_of[p] as usize], action);
        let unstuck = (0..s.players as usize).find(|&q| self.rules.has_progress(&landed, q));
        assert_eq!(unstuck, None, "NERTS-STUCK-4: seat {p}'s {action:?} was called off for a reset although its landing gives a seat progress");
        self.called_off += 1;
    }

    fn ok(r: Result<(), String>, what: &str) {
        if let Err(e) = r {
            panic!("{e} (after {what})");
        }
    }
}

impl EngineObserver<NertsState, NertsAction> for MatchChecker {
    fn on_event(&mut self, time: Micros, event: EngineEvent<NertsAction>, s: &NertsState) {
        self.events += 1;
        assert!(time >= self.last_time, "NERTS-RT-1: time went back from {} to {time}", self.last_time);
        self.last_time = time;
        let what = format!("{event:?}");
        let called_off = std::mem::take(&mut self.cancelled);
        let step = match event {
            EngineEvent::Start { player, action, .. } => Some(Step::Lift { seat: player, action }),
            EngineEvent::Landed { player, action } => {
                self.deal_landed += 1;
                Some(Step::Land { seat: player, action, landing: Landing::Placed })
            }
            EngineEvent::Rejected { player, action } => {
                assert!(matches!(action, NertsAction::ToFoundation { .. } | NertsAction::SlipUnder { .. }), "NERTS-RT-4: {action:?} rejected: only the common area and slots races");
                Some(Step::Land { seat: player, action, landing: Landing::Rejected })
            }
            EngineEvent::Returned { player, action } => Some(Step::PutBack { seat: player, action }),
            EngineEvent::Cancelled { player, action } => {
                self.cancelled = called_off;
                self.cancelled.push((player, action));
                Some(Step::PutBack { seat: player, action })
            }
            EngineEvent::Synchronised => {
                self.resets += 1;
                Some(Step::Reset)
            }
            EngineEvent::Stalled => {
                self.stalls += 1;
                for p in 0..s.players as usize {
                    assert!(!self.rules.has_progress(s, p), "NERTS-STUCK-1: a stall while seat {p} has progress");
                }
                assert!(s.layouts().iter().all(|l| l.locks == 0 && l.in_flight() == 0), "NERTS-RT-9: a stall with a card in a hand");
                for &(p, action) in &called_off {
                    self.check_called_off(s, p, action);
                }
                if self.rules.stall(s) == Stall::Synchronised {
                    assert!(self.rules.deal_end(s).is_none());
                }
                None
            }
            EngineEvent::Aborted { .. } => panic!("NERTS-RT-5: Nerts players do not call actions off"),
            EngineEvent::LivenessViolation { player } => {
                self.liveness += 1;
                panic!("SPIT-RT-9 via NERTS-RT-1: seat {player} sat idle with progress")
            }
        };
        match step {
            Some(step) => Self::ok(self.inner.step(s, step), &what),
            None => Self::ok(check_state(s), &what),
        }
    }
}

impl MatchObserver<NertsState, NertsAction, NertsEvent> for MatchChecker {
    fn on_match_event(&mut self, _: Micros, event: NertsEvent, s: &NertsState) {
        self.events += 1;
        match event {
            NertsEvent::Deal { .. } => {
                self.deal_landed = 0;
                self.inner = InvariantChecker::new();
                Self::ok(self.inner.dealt(s), "the deal");
            }
            NertsEvent::DealEnd { end, scores } => {
                Self::ok(check_state(s), "the deal's end");
                if let Some(end) = end {
                    self.longest_deal = self.longest_deal.max(self.deal_landed);
                    assert_eq!(Some(end), self.rules.deal_end(s), "NERTS-END: the deal ended for another reason than the rules give");
                    assert_eq!(scores, super::rules::team_scores(s), "NERTS-SCORE-1");
                    match end {
                        super::rules::DealEnd::Called(_) => self.called += 1,
                        _ => self.stuck_ends += 1,
                    }
                }
            }
            NertsEvent::MatchEnd { .. } => {}
        }
    }
}
