//! Fuzz target `nerts_actions`: see `cardsim::fuzzing::nerts_actions` and docs/fuzzing.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| { let _ = cardsim::fuzzing::nerts_actions(data); });
