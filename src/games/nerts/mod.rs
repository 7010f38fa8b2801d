//! Nerts (Pounce), nerts.md: every player races to empty a 13-card Nerts pile onto his
//! four work piles and onto foundations shared by the whole table, in real time, with a
//! deck per player (or per team), stuck detection and global resets, and +1/-2 scoring
//! over deals to a target.
//!
//! The rules core: flags ([`config`]), the `Copy` state for 2 to 8 players ([`state`]),
//! actions, legality, landing with foundation races and ties, stuck detection, resets,
//! scoring and the match ([`rules`]), the legal list of a table without Jokers by bit
//! sets (`standard`), and the card-count invariants ([`invariants`]).
//! On the shared real-time engine: the rules as the engine needs them ([`engine`]), a
//! player's view ([`view`]), the strategies ([`strategies`]), the match loop
//! ([`game`]), the entry and its metrics, traces, and the invariant checker as an
//! engine observer ([`checker`]). docs/nerts.md describes all of it.

pub mod checker;
pub mod config;
pub mod engine;
mod entry;
pub mod game;
pub mod invariants;
pub mod protocol;
pub mod rules;
mod standard;
pub mod state;
pub mod strategies;
mod trace;
pub mod view;

pub use entry::{Nerts, NERTS};

#[cfg(test)]
mod tests;
