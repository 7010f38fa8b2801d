//! Spit as the command line and the runner see it.

use super::config::{SpitConfig, SPIT_FLAGS};
use super::game::{play_match, SpitOutcome, SpitSeats};
use super::rules::SpitRules;
use super::strategies::{SpitStrategy, REGISTRY};
use super::trace::SpitTracer;
use crate::games::Registered;
use crate::realtime::{RealtimeEntry, RealtimeGame};
use crate::rng::MatchSeeds;
use crate::runner::{Ending, MatchRecord, MetricDef, MAX_METRICS};
use crate::settings::{FlagDef, Settings};
use crate::trace::TraceSink;

/// Spit, as a two-player real-time game.
pub struct Spit;

/// The registered Spit entry.
pub static SPIT: RealtimeEntry<Spit> = RealtimeEntry::new();

/// Spit's per-match metrics.
pub static SPIT_METRICS: [MetricDef; 6] = [
    MetricDef { name: "rounds", scale: 1, doc: "rounds played (deals)" },
    MetricDef { name: "actions", scale: 1, doc: "actions that landed and took effect (plays, flips, fills)" },
    MetricDef { name: "seconds", scale: 1000, doc: "simulated match duration in seconds (shuffling and dealing off the clock)" },
    MetricDef { name: "rejections", scale: 1, doc: "plays that lost a race and went back (SPIT-RT-5)" },
    MetricDef { name: "spits", scale: 1, doc: "synchronised stall spits (SPIT-STALL-2)" },
    MetricDef { name: "deadlocks", scale: 1, doc: "single-pile deadlocks (SPIT-SHORT-5)" },
];

fn record(out: SpitOutcome) -> MatchRecord {
    let mut metrics = [0; MAX_METRICS];
    metrics[..6].copy_from_slice(&[out.rounds as u64, out.counts.landed, out.time / 1000, out.counts.rejected, out.counts.synchronised, out.deadlocks as u64]);
    MatchRecord { winner: out.winner.map(|w| w as u8), ending: Ending::capped_if(out.capped), metrics, actions: out.counts.landed, illegal: out.counts.illegal, ..MatchRecord::default() }
}

impl RealtimeGame for Spit {
    type Config = SpitConfig;
    type Strategy = dyn SpitStrategy;
    const NAME: &'static str = "spit";
    const ABOUT: &'static str = "race to empty five stockpiles onto two shared spit piles; slap for the smaller pile";
    const STATE_BYTES: usize = std::mem::size_of::<super::state::SpitState>();
    const DEFAULT_BOTS: &'static [&'static str] = &["smart@skilled", "greedy@skilled"];

    fn flags() -> &'static [FlagDef] {
        &SPIT_FLAGS
    }
    fn metrics() -> &'static [MetricDef] {
        &SPIT_METRICS
    }
    const DECISIONS: crate::external::Decisions = super::protocol::DECISIONS;
    fn external(bot: std::sync::Arc<crate::external::ExternalBot>) -> Box<dyn SpitStrategy> {
        Box::new(super::protocol::External(bot))
    }
    fn registry() -> &'static [Registered<dyn SpitStrategy>] {
        &REGISTRY
    }
    fn config(settings: &Settings, _players: usize) -> Result<SpitConfig, String> {
        Ok(SpitConfig::from_settings(settings))
    }
    fn play(cfg: SpitConfig, seats: &SpitSeats, seeds: &MatchSeeds, sink: Option<&mut dyn TraceSink>) -> MatchRecord {
        let rules = SpitRules { cfg };
        record(match sink {
            None => play_match(&rules, seats, seeds, &mut ()),
            Some(sink) => play_match(&rules, seats, seeds, &mut SpitTracer::new(sink, cfg)),
        })
    }
}
