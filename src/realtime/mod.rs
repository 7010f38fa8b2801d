//! The virtual-time event engine shared by the real-time games (Spit, Speed and
//! Nerts). Players act at once, each with one hand (SPIT-RT-2): a player decides on the
//! state he sees, his action lands after a time drawn from his reaction model, the
//! engine re-checks it at landing (first touch wins, SPIT-RT-5), every landed change
//! wakes the idle players (SPIT-RT-8; one who had no move stays asleep until a change
//! may have given him one, [`RealtimeRules::touched`]), and stalls are detected on *progress* actions
//! only, so aimless moves cannot keep a round alive (design notes section 2).
//!
//! Time is in integer microseconds. Exact ties are broken by the match's generator
//! (SPIT-RT-1). Nothing here allocates. A table seats up to [`MAX_PLAYERS`] players.
//!
//! **Rules and policy are apart.** The engine owns the rules ([`RealtimeRules`]: legal
//! actions, landing, stalls, synchronised events) and the time; the bots
//! ([`Seated`], each a strategy behind [`RealtimePolicy`] plus a reaction model) only
//! choose, from a view of the state, when the engine or the game's match loop asks
//! them: a move when their hand is idle, and the answer to a decision the rules put
//! ([`RealtimeRules::sync_decision`] before a synchronised event; a game's match loop
//! may ask its own, e.g. Spit's slap at the end of a round). Rules never call a
//! strategy. Each answer is drawn from the player's own stream.
//!
//! **What is in flight.** A player's hand holds one `Copy` action ([`Hand`]), whatever
//! it carries: one card, or a stack moved from one pile to another. The engine never
//! looks inside: the game decides in [`RealtimeRules::lift`] what leaves its place when
//! the action starts and in [`RealtimeRules::put_back`] how it returns. A game that
//! moves a stack names its source in the action (pile and depth), marks those cards
//! as held at `lift` (e.g. a count of held cards on the pile, or the pile locked, so
//! that nobody else can build on or take them) and leaves them where they lie; `land`
//! re-checks the target at the landing time and then moves the whole stack at once,
//! or returns [`Landing::Rejected`]. A rejected action keeps its cards in the hand for
//! a `Return` movement, after which the engine calls `put_back`, which clears the mark
//! (the cards never left). The same `put_back` undoes an action called off at a stall,
//! a round end or an abort, and the engine's stall check imagines aimless actions in
//! flight undone with it, so `lift` and `put_back` must be exact inverses. The stall
//! check also lands each aimless action on a copy of the state: one whose landing would
//! give a player progress is in progress and holds off the stall.

pub mod engine;
pub mod entry;
pub mod moves;
pub mod pile;
pub mod lookahead;
pub mod policy;

pub use engine::{
    after, play_from, play_round, synchronise, ActionList, Change, EngineEvent, EngineObserver, Hand, Landing, MatchObserver, MatchRngs, Micros, RealtimeRules, RoundCounts,
    RoundEnd, Stall, MAX_ACTIONS, MAX_PLAYERS,
};
pub use entry::{RealtimeEntry, RealtimeGame, RealtimeMatch};
pub use moves::LegalMoves;
pub use pile::Pile;
pub use policy::{build_bots, build_table_bots, Bot, NoDecision, RealtimePolicy, Seated};

use crate::reaction::Preset;

/// Reaction preset of a bot given without `@PRESET`.
pub const DEFAULT_PRESET: Preset = Preset::Casual;
