//! cardsim: simulates card games bot against bot and reports reproducible statistics.
//!
//! The public API is [`api`]: the per-game views, actions and strategy traits, and
//! [`api::Match`], which runs built-in and custom strategies together through the same
//! runner, statistics and CSV as `cardsim match`. `main.rs` is a thin command-line front
//! end. The other modules are the implementation: reachable (the command line, the
//! integration tests, `fuzz/` and the benchmarks use them) but hidden from the
//! documentation and free to change (docs/architecture.md, "The public API").

pub mod api;
#[doc(hidden)]
pub mod bench;
#[doc(hidden)]
pub mod cpu;
#[doc(hidden)]
pub mod bot;
#[doc(hidden)]
pub mod cards;
#[doc(hidden)]
pub mod cli;
#[doc(hidden)]
pub mod experiment;
#[doc(hidden)]
pub mod external;
#[doc(hidden)]
pub mod faults;
#[doc(hidden)]
pub mod fit;
#[doc(hidden)]
pub mod fuzzing;
#[doc(hidden)]
pub mod fpmath;
#[doc(hidden)]
pub mod games;
#[doc(hidden)]
pub mod interrupt;
#[doc(hidden)]
pub mod reaction;
#[doc(hidden)]
pub mod rng;
#[doc(hidden)]
pub mod runner;
#[cfg(test)]
mod scratch;
#[doc(hidden)]
pub mod sequential;
#[doc(hidden)]
pub mod settings;
#[doc(hidden)]
pub mod stats;
#[doc(hidden)]
pub mod table;
#[doc(hidden)]
pub mod output;
#[doc(hidden)]
pub mod realtime;
#[doc(hidden)]
pub mod tomlfile;
#[doc(hidden)]
pub mod trace;
#[doc(hidden)]
pub mod tune;
