//! The command-line and runner glue shared by the real-time games: a game describes
//! itself with [`RealtimeGame`], and [`RealtimeEntry`] / [`RealtimeMatch`] turn that
//! into a [`GameEntry`] and a runnable [`TracedGame`].

use super::{build_table_bots, Bot, Seated};
use crate::external::{Decisions, ExternalBot};
use std::sync::Arc;
use crate::bot::BotSpec;
use crate::games::{GameEntry, Registered, StrategyInfo, TracedGame};
use crate::rng::MatchSeeds;
use crate::runner::{MatchGame, MatchRecord, MetricDef, RateSet};
use crate::settings::{FlagDef, Settings};
use crate::trace::TraceSink;
use std::marker::PhantomData;

/// What a real-time game provides to be registered.
pub trait RealtimeGame: 'static {
    /// The game's rules configuration.
    type Config: Copy + Send + Sync;
    /// The game's strategy trait object type.
    type Strategy: ?Sized + Send + Sync + 'static;
    /// Name on the command line.
    const NAME: &'static str;
    /// One line describing the game.
    const ABOUT: &'static str;
    /// Bots used when the command line gives none.
    const DEFAULT_BOTS: &'static [&'static str];
    /// Smallest and largest number of players (at most [`super::MAX_PLAYERS`]).
    const PLAYERS: (usize, usize) = (2, 2);
    /// True if the game reports points and ranks per seat ([`MatchGame::reports_points`]).
    const REPORTS_POINTS: bool = false;
    /// True if the match record carries points for the protocol's `match_end`
    /// ([`MatchGame::end_points`]); by default, when the game reports points.
    const END_POINTS: bool = Self::REPORTS_POINTS;
    /// The per-seat rates the game counts ([`MatchGame::rates`]).
    const RATES: Option<&'static RateSet> = None;
    /// Bytes of the game's full state (`size_of`), for `cardsim bench`.
    const STATE_BYTES: usize;
    /// The trace event of a landed play to a shared pile ([`GameEntry::play_event`]).
    const PLAY_EVENT: &'static str = "play";
    /// Variant flags with defaults.
    fn flags() -> &'static [FlagDef];
    /// Per-match metrics.
    fn metrics() -> &'static [MetricDef];
    /// Strategy registry.
    fn registry() -> &'static [Registered<Self::Strategy>];
    /// The decisions the game asks an external bot (docs/bot-protocol.md section 5).
    const DECISIONS: Decisions = Decisions { all: &["move"], optional: &[] };
    /// The game's strategy adapter around an external bot (its `protocol.rs`).
    fn external(bot: Arc<ExternalBot>) -> Box<Self::Strategy>;
    /// Reads the flags into the configuration for `players` players, or a one-line
    /// error for a flag that would have no effect at that table.
    fn config(settings: &Settings, players: usize) -> Result<Self::Config, String>;
    /// Plays one match with the `seats` bots in seat order; every event goes to `sink`
    /// if given.
    fn play(cfg: Self::Config, seats: &Seated<Self::Strategy>, seeds: &MatchSeeds, sink: Option<&mut dyn TraceSink>) -> MatchRecord;
}

/// The registry entry of a real-time game.
pub struct RealtimeEntry<G>(PhantomData<fn() -> G>);

impl<G> RealtimeEntry<G> {
    /// The entry (for a `static`).
    pub const fn new() -> Self {
        RealtimeEntry(PhantomData)
    }
}

impl<G> Default for RealtimeEntry<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: RealtimeGame> GameEntry for RealtimeEntry<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn about(&self) -> &'static str {
        G::ABOUT
    }
    fn players(&self) -> (usize, usize) {
        G::PLAYERS
    }
    fn real_time(&self) -> bool {
        true
    }
    fn flags(&self) -> &'static [FlagDef] {
        G::flags()
    }
    fn strategies(&self) -> Vec<StrategyInfo> {
        G::registry().iter().map(|r| r.info).collect()
    }
    fn default_bots(&self) -> &'static [&'static str] {
        G::DEFAULT_BOTS
    }
    fn metrics(&self) -> &'static [MetricDef] {
        G::metrics()
    }
    fn rates(&self) -> Option<&'static RateSet> {
        G::RATES
    }
    fn state_bytes(&self) -> usize {
        G::STATE_BYTES
    }
    fn play_event(&self) -> Option<&'static str> {
        Some(G::PLAY_EVENT)
    }
    fn build_with(&self, bots: &[BotSpec], settings: &Settings, custom: &dyn Fn(usize) -> Option<Box<dyn std::any::Any>>) -> Result<Box<dyn TracedGame>, String> {
        let externals = crate::external::externals(bots, G::NAME, settings, G::DECISIONS)?;
        let bots = build_table_bots(bots, G::registry(), &externals, G::external, custom)?;
        let game = Box::new(RealtimeMatch::<G> { cfg: G::config(settings, bots.len())?, bots });
        Ok(crate::external::wrap(game, externals))
    }
}

/// The bots of a real-time game under one set of rules.
pub struct RealtimeMatch<G: RealtimeGame> {
    /// Rules in force.
    pub cfg: G::Config,
    /// Bots in bot order.
    pub bots: Vec<Bot<G::Strategy>>,
}

impl<G: RealtimeGame> RealtimeMatch<G> {
    /// The bots in seat order: `seat_bots[s]` is the bot in seat `s`.
    fn seated(&self, seat_bots: &[usize]) -> Seated<'_, G::Strategy> {
        seat_bots.iter().map(|&b| &self.bots[b]).collect()
    }
}

impl<G: RealtimeGame> MatchGame for RealtimeMatch<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> usize {
        self.bots.len()
    }
    fn metrics(&self) -> &'static [MetricDef] {
        G::metrics()
    }
    fn reports_points(&self) -> bool {
        G::REPORTS_POINTS
    }
    fn end_points(&self) -> bool {
        G::END_POINTS
    }
    fn rates(&self) -> Option<&'static RateSet> {
        G::RATES
    }
    fn play(&self, seat_bots: &[usize], seeds: &MatchSeeds) -> MatchRecord {
        G::play(self.cfg, &self.seated(seat_bots), seeds, None)
    }
}

impl<G: RealtimeGame> TracedGame for RealtimeMatch<G> {
    fn trace(&self, seat_bots: &[usize], seeds: &MatchSeeds, sink: &mut dyn TraceSink) -> MatchRecord {
        G::play(self.cfg, &self.seated(seat_bots), seeds, Some(sink))
    }
    fn as_match_game(&self) -> &dyn MatchGame {
        self
    }
}
