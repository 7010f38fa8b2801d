//! cardsim: simulates card games bot against bot and reports reproducible statistics.
//!
//! The crate is usable as a library; `main.rs` is a thin command-line front end.

pub mod bench;
pub mod bot;
pub mod cards;
pub mod cli;
pub mod experiment;
pub mod external;
pub mod faults;
pub mod fit;
pub mod fuzzing;
pub mod games;
pub mod interrupt;
pub mod reaction;
pub mod rng;
pub mod runner;
pub mod sequential;
pub mod settings;
pub mod stats;
pub mod table;
pub mod output;
pub mod realtime;
pub mod tomlfile;
pub mod trace;
