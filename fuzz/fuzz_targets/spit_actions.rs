//! Fuzz target `spit_actions`: see `cardsim::fuzzing::spit_actions` and docs/fuzzing.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| { let _ = cardsim::fuzzing::spit_actions(data); });
