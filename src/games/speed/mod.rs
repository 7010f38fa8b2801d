//! Speed (spit.md section 10): two players race to play a hidden five-card hand, refilled
//! from a personal stock, onto two shared centre piles, in real time on the same engine
//! as Spit. Stalls turn the side piles; the first to play every card wins the deal.

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

pub use entry::{Speed, SPEED};

#[cfg(test)]
mod tests;
