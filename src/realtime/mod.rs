//! The virtual-time event engine shared by the real-time games (Spit, Speed, and later
//! Nerts). Players act at once, each with one hand (SPIT-RT-2): a player decides on the
//! state he sees, his action lands after a time drawn from his reaction model, the
//! engine re-checks it at landing (first touch wins, SPIT-RT-5), every landed change
//! wakes the idle players (SPIT-RT-8), and stalls are detected on *progress* actions
//! only, so aimless moves cannot keep a round alive (design notes section 2).
//!
//! Time is in integer microseconds. Exact ties are broken by the match's generator
//! (SPIT-RT-1). Nothing here allocates.

pub mod engine;
pub mod entry;
pub mod pile;

pub use entry::{RealtimeEntry, RealtimeMatch, TwoPlayerRealtime};
pub use engine::{after, play_round, MatchRngs, EngineEvent, EngineObserver, Hand, MatchObserver, Landing, RealtimeRules, RoundCounts, RoundEnd, Stall, Micros, ActionList, MAX_PLAYERS, MAX_ACTIONS};
pub use pile::Pile;

use crate::bot::BotSpec;
use crate::games::Registered;
use crate::reaction::{Preset, ReactionModel};

/// Reaction preset of a bot given without `@PRESET`.
pub const DEFAULT_PRESET: Preset = Preset::Casual;

/// A real-time bot: a game's strategy plus a reaction model.
pub struct Bot<S: ?Sized> {
    /// The policy.
    pub strategy: Box<S>,
    /// Its reaction times.
    pub reaction: ReactionModel,
}

/// Builds the bots of `specs` from a game's strategy registry (names already checked).
pub fn build_bots<S: ?Sized>(specs: &[BotSpec], registry: &[Registered<S>]) -> Result<Vec<Bot<S>>, String> {
    specs
        .iter()
        .map(|b| {
            let entry = registry.iter().find(|r| r.info.name == b.strategy).ok_or_else(|| format!("--bot {}: unknown strategy", b.label))?;
            Ok(Bot { strategy: (entry.make)(), reaction: b.reaction(DEFAULT_PRESET) })
        })
        .collect()
}
