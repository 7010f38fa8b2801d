//! Speed as the command line and the runner see it.

use super::config::{SpeedConfig, SPEED_FLAGS};
use super::game::{play_match, SpeedOutcome, SpeedSeats};
use super::rules::SpeedRules;
use super::strategies::{SpeedStrategy, REGISTRY};
use super::trace::SpeedTracer;
use crate::games::Registered;
use crate::realtime::{RealtimeEntry, RealtimeGame};
use crate::rng::MatchSeeds;
use crate::runner::{Ending, MatchRecord, MetricDef, MAX_METRICS, MAX_SEATS};
use crate::settings::{FlagDef, Settings};
use crate::trace::TraceSink;

/// Speed, as a two-player real-time game.
pub struct Speed;

/// The registered Speed entry.
pub static SPEED: RealtimeEntry<Speed> = RealtimeEntry::new();

/// Speed's per-match metrics.
pub static SPEED_METRICS: [MetricDef; 6] = [
    MetricDef { name: "rounds", scale: 1, doc: "deals played (1 unless speed.target is set)" },
    MetricDef { name: "actions", scale: 1, doc: "actions that landed and took effect (plays and draws)" },
    MetricDef { name: "seconds", scale: 1000, doc: "simulated match duration in seconds (shuffling and dealing off the clock)" },
    MetricDef { name: "rejections", scale: 1, doc: "plays that lost a race and went back to the hand (SPIT-RT-5)" },
    MetricDef { name: "flips", scale: 1, doc: "synchronised side-pile flips at stalls (SPEED-STALL-1)" },
    MetricDef { name: "margin", scale: 1, doc: "winner's points minus loser's: one deal gives the cards left to the loser (SPEED-SCORE-1)" },
];

fn record(out: SpeedOutcome) -> MatchRecord {
    let mut metrics = [0; MAX_METRICS];
    metrics[..6].copy_from_slice(&[out.deals as u64, out.counts.landed, out.time / 1000, out.counts.rejected, out.counts.synchronised, out.margin() as u64]);
    // The points are for the protocol's match_end only (END_POINTS): the runner does not
    // aggregate them, Speed's CSV reports the margin.
    let mut points = [0; MAX_SEATS];
    points[..2].copy_from_slice(&out.points.map(|p| p as i32));
    MatchRecord { winner: out.winner.map(|w| w as u8), ending: Ending::capped_if(out.capped), metrics, actions: out.counts.landed, points, illegal: out.counts.illegal, ..MatchRecord::default() }
}

impl RealtimeGame for Speed {
    type Config = SpeedConfig;
    type Strategy = dyn SpeedStrategy;
    const NAME: &'static str = "speed";
    const ABOUT: &'static str = "race to play a hidden five-card hand and a personal stock onto two centre piles";
    const STATE_BYTES: usize = std::mem::size_of::<super::state::SpeedState>();
    const DEFAULT_BOTS: &'static [&'static str] = &["smart@skilled", "greedy@skilled"];
    const END_POINTS: bool = true;

    fn flags() -> &'static [FlagDef] {
        &SPEED_FLAGS
    }
    fn metrics() -> &'static [MetricDef] {
        &SPEED_METRICS
    }
    fn external(bot: std::sync::Arc<crate::external::ExternalBot>) -> Box<dyn SpeedStrategy> {
        Box::new(super::protocol::External(bot))
    }
    fn registry() -> &'static [Registered<dyn SpeedStrategy>] {
        &REGISTRY
    }
    fn config(settings: &Settings, _players: usize) -> Result<SpeedConfig, String> {
        Ok(SpeedConfig::from_settings(settings))
    }
    fn play(cfg: SpeedConfig, seats: &SpeedSeats, seeds: &MatchSeeds, sink: Option<&mut dyn TraceSink>) -> MatchRecord {
        let rules = SpeedRules::for_seats(cfg, seats);
        record(match sink {
            None => play_match(&rules, seats, seeds, &mut ()),
            Some(sink) => play_match(&rules, seats, seeds, &mut SpeedTracer::new(sink)),
        })
    }
}
