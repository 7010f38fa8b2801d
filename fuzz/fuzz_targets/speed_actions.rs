//! Fuzz target `speed_actions`: see `cardsim::fuzzing::speed_actions` and docs/fuzzing.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| { let _ = cardsim::fuzzing::speed_actions(data); });
