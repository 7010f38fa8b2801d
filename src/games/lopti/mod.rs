//! Lopti (lopti.md): the turn-based shedding game with 2 (reset), 3 (pass on),
//! 7 (play low) and 10 (clear), for 2 to 5 players. Base game only (§1-§12, §17); the
//! session meta-game can hook into [`events`].
//!
//! - [`ranks`]: ranks and rank-count multisets; [`pile`]: the play pile;
//! - [`config`]: the `lopti.*` flags and the [`config::Rules`] they become;
//! - [`rules`]: actions and legality (§17 `legal`);
//! - [`state`]: the state machine (deal, swaps, turns, §17 `resolve`/`turn`);
//! - [`round`]: the round loop, the one place that asks the bots, checking every answer;
//! - [`view`]: what a player sees; [`strategies`]: the bots;
//! - [`events`]: observers; [`trace`]: `cardsim trace`; [`invariants`]: LOPTI-INV-*;
//! - [`position`]: `cardsim legal lopti`; [`entry`]: the registry entry.

pub mod config;
pub mod entry;
pub mod events;
pub mod invariants;
pub mod pile;
pub mod position;
pub mod protocol;
pub mod ranks;
pub mod round;
pub mod rules;
pub mod session;
pub mod special;
pub mod state;
pub mod strategies;
pub mod trace;
pub mod view;

pub use entry::{LoptiGame, LOPTI};

#[cfg(test)]
mod tests;
