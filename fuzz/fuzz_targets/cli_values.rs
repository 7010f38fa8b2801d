//! Fuzz target `cli_values`: see `cardsim::fuzzing::cli_values` and docs/fuzzing.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| { let _ = cardsim::fuzzing::cli_values(data); });
