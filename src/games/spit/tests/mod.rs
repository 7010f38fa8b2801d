//! Rule tests for Spit: every rule ID of spit.md sections 1-9 and 11 and the worked
//! examples SPIT-EX-1..7, on hand-built positions with scripted bots and constant
//! reaction times.

pub(crate) mod kit;
mod moves;
mod protocol;
mod rules;
mod rounds;
mod search;
