//! Fuzz target `lopti_position`: see `cardsim::fuzzing::lopti_position` and docs/fuzzing.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| { let _ = cardsim::fuzzing::lopti_position(data); });
