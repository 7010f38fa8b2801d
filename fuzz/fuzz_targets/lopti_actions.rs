//! Fuzz target `lopti_actions`: see `cardsim::fuzzing::lopti_actions` and docs/fuzzing.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| { let _ = cardsim::fuzzing::lopti_actions(data); });
