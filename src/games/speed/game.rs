//! A whole Speed match: deals on the real-time engine, the end of a deal, its score, and
//! the match to a target score or a single deal (SPEED-SETUP-*, SPEED-WIN-1,
//! SPEED-STALL-2, SPEED-SCORE-1).

use super::config::{ScoreCounts, SpeedConfig};
use super::rules::{SpeedAction, SpeedRules};
use super::state::{PlayerCards, SpeedState};
use super::strategies::SpeedStrategy;
use crate::realtime::{play_round, MatchObserver, MatchRngs, Micros, RoundCounts, Seated, MAX_PLAYERS};
use crate::rng::MatchSeeds;

/// Why a deal ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealEndReason {
    /// The player played every card of his hand and stock (SPEED-WIN-1).
    WentOut(usize),
    /// A stall with empty side piles and nothing under the centre tops to re-form them
    /// from (SPEED-STALL-2).
    NothingToRecycle,
    /// The side piles ran out again with nothing landed since they were last re-formed:
    /// no play can ever come (SPEED-STALL-2 decision).
    Deadlock,
}

/// Match-level events (the engine reports the in-deal ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpeedEvent {
    /// A fresh shuffle was dealt (SPEED-SETUP-1).
    Deal {
        /// Deals so far, this one included.
        deal: u32,
    },
    /// Both players drew their five hand cards (SPEED-SETUP-2).
    Hands,
    /// Both middle cards were turned up together (SPEED-START-1).
    Opening,
    /// The deal ended.
    DealEnd {
        /// Why.
        reason: DealEndReason,
        /// The deal's winner; `None` for a draw.
        winner: Option<usize>,
        /// Points the winner scored (SPEED-SCORE-1).
        scored: u32,
    },
    /// The match ended.
    MatchEnd {
        /// The match winner; `None` for a draw or a capped match.
        winner: Option<usize>,
        /// The action cap was hit.
        capped: bool,
        /// Match points.
        points: [u32; 2],
    },
}

/// Receives engine and match events of a Speed match (implement
/// `MatchObserver<SpeedState, SpeedAction, SpeedEvent>`).
pub trait SpeedObserver: MatchObserver<SpeedState, SpeedAction, SpeedEvent> {}

impl<T: MatchObserver<SpeedState, SpeedAction, SpeedEvent>> SpeedObserver for T {}

/// How a match went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpeedOutcome {
    /// Winning seat (`None` for a draw or a capped match).
    pub winner: Option<usize>,
    /// Hit the action cap (or a policy broke liveness).
    pub capped: bool,
    /// Deals played.
    pub deals: u32,
    /// Simulated duration.
    pub time: Micros,
    /// Engine counters over all deals.
    pub counts: RoundCounts,
    /// Match points.
    pub points: [u32; 2],
}

impl SpeedOutcome {
    /// Winner's points minus loser's: the cards left to the loser in a single deal.
    pub fn margin(&self) -> u32 {
        self.points[0].abs_diff(self.points[1])
    }
}

/// Points the winner of a deal scores for the loser's remaining cards (SPEED-SCORE-1).
pub fn deal_points(cfg: &SpeedConfig, loser: &PlayerCards) -> u32 {
    match cfg.score_counts {
        ScoreCounts::StockOnly => loser.stock.len(),
        ScoreCounts::HandAndStock => loser.count(),
    }
}

/// The winner of a deal that ended without a player going out: fewer cards held (hand
/// and stock) wins, equal counts draw (SPEED-STALL-2).
pub fn fewer_cards_wins(s: &SpeedState) -> Option<usize> {
    let (a, b) = (s.players[0].count(), s.players[1].count());
    match a.cmp(&b) {
        std::cmp::Ordering::Less => Some(0),
        std::cmp::Ordering::Greater => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// The bots of a Speed match in seat order.
pub type SpeedSeats<'a> = Seated<'a, dyn SpeedStrategy>;

/// Plays a whole match between the two `seats` bots. Every shuffle and hidden card comes
/// from the deal's seeds, the same in every seating; reactions and the bots' dice from
/// the players' streams.
pub fn play_match<O: SpeedObserver>(rules: &SpeedRules, seats: &SpeedSeats, seeds: &MatchSeeds, obs: &mut O) -> SpeedOutcome {
    let cfg: SpeedConfig = rules.cfg;
    let mut rngs = MatchRngs::new(seeds);
    let mut out = SpeedOutcome::default();
    let mut budget = cfg.max_actions;
    let mut now: Micros = 0;
    loop {
        out.deals += 1;
        // Every deal is a fresh shuffle (SPEED-SCORE-1), common to every seating.
        let mut shuffle = if out.deals == 1 { seeds.deal_rng() } else { seeds.chance_rng(out.deals as u64) };
        let mut s = SpeedState::deal(&cfg, &mut shuffle, seeds.hidden().zone(out.deals as u64));
        s.totals = out.points.map(|p| u16::try_from(p).expect("a total below speed.target plus one deal"));
        obs.on_match_event(now, SpeedEvent::Deal { deal: out.deals }, &s);
        s.draw_hands();
        obs.on_match_event(now, SpeedEvent::Hands, &s);
        s.turn_middle_cards();
        obs.on_match_event(now, SpeedEvent::Opening, &s);
        let mut busy = [false; MAX_PLAYERS];
        busy[..2].fill(true);
        let end = play_round(rules, seats, &mut s, now, busy, &mut budget, &mut out.counts, &mut rngs, obs);
        now = end.time;
        if end.capped {
            out.capped = true;
            obs.on_match_event(now, SpeedEvent::MatchEnd { winner: None, capped: true, points: out.points }, &s);
            break;
        }
        let (reason, winner) = match end.first_out {
            Some(p) => (DealEndReason::WentOut(p), Some(p)),
            None if s.recyclable() == 0 => (DealEndReason::NothingToRecycle, fewer_cards_wins(&s)),
            None => (DealEndReason::Deadlock, fewer_cards_wins(&s)),
        };
        let scored = winner.map_or(0, |w| deal_points(&cfg, &s.players[1 - w]));
        if let Some(w) = winner {
            out.points[w] += scored;
        }
        obs.on_match_event(now, SpeedEvent::DealEnd { reason, winner, scored }, &s);
        let decided = match winner {
            Some(w) if cfg.target == 0 || out.points[w] >= cfg.target => Some(w),
            _ => None,
        };
        if decided.is_some() || cfg.target == 0 {
            out.winner = decided;
            obs.on_match_event(now, SpeedEvent::MatchEnd { winner: decided, capped: false, points: out.points }, &s);
            break;
        }
    }
    out.time = now;
    out
}
