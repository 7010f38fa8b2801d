//! Nerts (Pounce), nerts.md: every player races to empty a 13-card Nerts pile onto his
//! four work piles and onto foundations shared by the whole table, in real time, with a
//! deck per player (or per team), stuck detection and global resets, and +1/-2 scoring
//! over deals to a target.
//!
//! This folder is the rules core; so far the flags ([`config`]) and the `Copy` state for
//! 2 to 8 players ([`state`]).

pub mod config;
pub mod state;
