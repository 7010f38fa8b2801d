//! Spit (spit.md sections 1-9, 11-13): two players race to empty their five stockpiles
//! onto two shared spit piles, in real time.

pub mod config;
mod entry;
pub mod game;
pub mod invariants;
pub mod moves;
pub mod protocol;
pub mod rules;
pub mod state;
pub mod strategies;
mod trace;
pub mod view;

pub use entry::{Spit, SPIT};

#[cfg(test)]
pub(crate) mod tests;
