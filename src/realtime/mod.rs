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

pub use engine::{play_round, EngineEvent, EngineObserver, Hand, Landing, RealtimeRules, RoundCounts, RoundEnd, Stall, Micros, ActionList, MAX_PLAYERS, MAX_ACTIONS};
