//! Spit as the command line and the runner see it.

use super::config::{SpitConfig, SPIT_FLAGS};
use super::game::play_match;
use super::rules::SpitRules;
use super::strategies::{SpitBot, REGISTRY};
use super::trace::SpitTracer;
use crate::bot::BotSpec;
use crate::games::{GameEntry, StrategyInfo, TracedGame};
use crate::realtime::build_bots;
use crate::runner::{MatchGame, MatchRecord, MetricDef, MAX_METRICS};
use crate::settings::{FlagDef, Settings};
use crate::trace::TraceSink;

/// The Spit game entry.
pub struct SpitEntry;

/// The registered Spit entry.
pub static SPIT: SpitEntry = SpitEntry;

/// Spit's per-match metrics.
pub static SPIT_METRICS: [MetricDef; 6] = [
    MetricDef { name: "rounds", scale: 1, doc: "rounds played (deals)" },
    MetricDef { name: "actions", scale: 1, doc: "actions that landed and took effect (plays, flips, fills)" },
    MetricDef { name: "seconds", scale: 1000, doc: "simulated match duration in seconds (shuffling and dealing off the clock)" },
    MetricDef { name: "rejections", scale: 1, doc: "plays that lost a race and went back (SPIT-RT-5)" },
    MetricDef { name: "spits", scale: 1, doc: "synchronised stall spits (SPIT-STALL-2)" },
    MetricDef { name: "deadlocks", scale: 1, doc: "single-pile deadlocks (SPIT-SHORT-5)" },
];

impl GameEntry for SpitEntry {
    fn name(&self) -> &'static str {
        "spit"
    }
    fn about(&self) -> &'static str {
        "race to empty five stockpiles onto two shared spit piles; slap for the smaller pile"
    }
    fn players(&self) -> (usize, usize) {
        (2, 2)
    }
    fn real_time(&self) -> bool {
        true
    }
    fn flags(&self) -> &'static [FlagDef] {
        &SPIT_FLAGS
    }
    fn strategies(&self) -> Vec<StrategyInfo> {
        REGISTRY.iter().map(|r| r.info).collect()
    }
    fn default_bots(&self) -> &'static [&'static str] {
        &["smart@skilled", "greedy@skilled"]
    }
    fn metrics(&self) -> &'static [MetricDef] {
        &SPIT_METRICS
    }
    fn build(&self, bots: &[BotSpec], settings: &Settings) -> Result<Box<dyn TracedGame>, String> {
        let bots = build_bots(bots, &REGISTRY)?;
        Ok(Box::new(SpitGame { cfg: SpitConfig::from_settings(settings), bots }))
    }
}

/// Two Spit bots under one set of rules.
pub struct SpitGame {
    /// Rules in force.
    pub cfg: SpitConfig,
    /// Bots in bot order.
    pub bots: Vec<SpitBot>,
}

impl SpitGame {
    /// The rules with the bots seated as `seat_bots` says.
    pub fn seated(&self, seat_bots: &[usize]) -> SpitRules<'_> {
        SpitRules { cfg: self.cfg, bots: [&self.bots[seat_bots[0]], &self.bots[seat_bots[1]]] }
    }

    fn record(out: super::game::SpitOutcome) -> MatchRecord {
        let mut metrics = [0; MAX_METRICS];
        metrics[..6].copy_from_slice(&[
            out.rounds as u64,
            out.counts.landed,
            out.time / 1000,
            out.counts.rejected,
            out.counts.synchronised,
            out.deadlocks as u64,
        ]);
        MatchRecord { winner: out.winner.map(|w| w as u8), capped: out.capped, metrics }
    }
}

impl MatchGame for SpitGame {
    fn name(&self) -> &'static str {
        "spit"
    }
    fn seats(&self) -> usize {
        2
    }
    fn metrics(&self) -> &'static [MetricDef] {
        &SPIT_METRICS
    }
    fn play(&self, seat_bots: &[usize], deal_seed: u64, play_seed: u64) -> MatchRecord {
        Self::record(play_match(&self.seated(seat_bots), deal_seed, play_seed, &mut ()))
    }
}

impl TracedGame for SpitGame {
    fn trace(&self, seat_bots: &[usize], deal_seed: u64, play_seed: u64, sink: &mut dyn TraceSink) -> MatchRecord {
        let mut tracer = SpitTracer::new(sink, self.cfg);
        Self::record(play_match(&self.seated(seat_bots), deal_seed, play_seed, &mut tracer))
    }
    fn as_match_game(&self) -> &dyn MatchGame {
        self
    }
}
