//! Tuning a bot's strategy parameters by self-play: [`spsa`] is the search, [`command`]
//! the `cardsim tune` command that plays it.

pub mod command;
pub mod spsa;
