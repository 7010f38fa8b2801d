//! Nerts (Pounce), nerts.md: every player races to empty a 13-card Nerts pile onto his
//! four work piles and onto foundations shared by the whole table, in real time, with a
//! deck per player (or per team), stuck detection and global resets, and +1/-2 scoring
//! over deals to a target.
//!
//! This folder is the rules core: flags ([`config`]), the `Copy` state for 2 to 8
//! players ([`state`]), actions, legality, landing with foundation races and ties,
//! stuck detection, resets, scoring and the match ([`rules`]), and the card-count
//! invariants ([`invariants`]). Strategies, the match loop on the real-time engine, the
//! entry, traces and the CLI come with the engine's support for eight players.

pub mod config;
pub mod invariants;
pub mod rules;
pub mod state;

#[cfg(test)]
mod tests;
