//! Speed as the command line and the runner see it.

use super::config::{SpeedConfig, SPEED_FLAGS};
use super::game::{play_match, SpeedOutcome};
use super::rules::SpeedRules;
use super::strategies::{SpeedBot, REGISTRY};
use super::trace::SpeedTracer;
use crate::bot::BotSpec;
use crate::games::{GameEntry, StrategyInfo, TracedGame};
use crate::realtime::build_bots;
use crate::runner::{MatchGame, MatchRecord, MetricDef, MAX_METRICS};
use crate::settings::{FlagDef, Settings};
use crate::trace::TraceSink;

/// The Speed game entry.
pub struct SpeedEntry;

/// The registered Speed entry.
pub static SPEED: SpeedEntry = SpeedEntry;

/// Speed's per-match metrics.
pub static SPEED_METRICS: [MetricDef; 6] = [
    MetricDef { name: "rounds", scale: 1, doc: "deals played (1 unless speed.target is set)" },
    MetricDef { name: "actions", scale: 1, doc: "actions that landed and took effect (plays and draws)" },
    MetricDef { name: "seconds", scale: 1000, doc: "simulated match duration in seconds (shuffling and dealing off the clock)" },
    MetricDef { name: "rejections", scale: 1, doc: "plays that lost a race and went back to the hand (SPIT-RT-5)" },
    MetricDef { name: "flips", scale: 1, doc: "synchronised side-pile flips at stalls (SPEED-STALL-1)" },
    MetricDef { name: "margin", scale: 1, doc: "winner's points minus loser's: one deal gives the cards left to the loser (SPEED-SCORE-1)" },
];

impl GameEntry for SpeedEntry {
    fn name(&self) -> &'static str {
        "speed"
    }
    fn about(&self) -> &'static str {
        "race to play a hidden five-card hand and a personal stock onto two centre piles"
    }
    fn players(&self) -> (usize, usize) {
        (2, 2)
    }
    fn real_time(&self) -> bool {
        true
    }
    fn flags(&self) -> &'static [FlagDef] {
        &SPEED_FLAGS
    }
    fn strategies(&self) -> Vec<StrategyInfo> {
        REGISTRY.iter().map(|r| r.info).collect()
    }
    fn default_bots(&self) -> &'static [&'static str] {
        &["smart@skilled", "greedy@skilled"]
    }
    fn metrics(&self) -> &'static [MetricDef] {
        &SPEED_METRICS
    }
    fn build(&self, bots: &[BotSpec], settings: &Settings) -> Result<Box<dyn TracedGame>, String> {
        let bots = build_bots(bots, &REGISTRY)?;
        Ok(Box::new(SpeedGame { cfg: SpeedConfig::from_settings(settings), bots }))
    }
}

/// Two Speed bots under one set of rules.
pub struct SpeedGame {
    /// Rules in force.
    pub cfg: SpeedConfig,
    /// Bots in bot order.
    pub bots: Vec<SpeedBot>,
}

impl SpeedGame {
    /// The rules with the bots seated as `seat_bots` says.
    pub fn seated(&self, seat_bots: &[usize]) -> SpeedRules<'_> {
        SpeedRules { cfg: self.cfg, bots: [&self.bots[seat_bots[0]], &self.bots[seat_bots[1]]] }
    }

    fn record(out: SpeedOutcome) -> MatchRecord {
        let mut metrics = [0; MAX_METRICS];
        metrics[..6].copy_from_slice(&[
            out.deals as u64,
            out.counts.landed,
            out.time / 1000,
            out.counts.rejected,
            out.counts.synchronised,
            out.margin() as u64,
        ]);
        MatchRecord { winner: out.winner.map(|w| w as u8), capped: out.capped, metrics }
    }
}

impl MatchGame for SpeedGame {
    fn name(&self) -> &'static str {
        "speed"
    }
    fn seats(&self) -> usize {
        2
    }
    fn metrics(&self) -> &'static [MetricDef] {
        &SPEED_METRICS
    }
    fn play(&self, seat_bots: &[usize], deal_seed: u64, play_seed: u64) -> MatchRecord {
        Self::record(play_match(&self.seated(seat_bots), deal_seed, play_seed, &mut ()))
    }
}

impl TracedGame for SpeedGame {
    fn trace(&self, seat_bots: &[usize], deal_seed: u64, play_seed: u64, sink: &mut dyn TraceSink) -> MatchRecord {
        let mut tracer = SpeedTracer::new(sink);
        Self::record(play_match(&self.seated(seat_bots), deal_seed, play_seed, &mut tracer))
    }
    fn as_match_game(&self) -> &dyn MatchGame {
        self
    }
}
