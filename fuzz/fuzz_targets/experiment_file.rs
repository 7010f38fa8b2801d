//! Fuzz target `experiment_file`: see `cardsim::fuzzing::experiment_file` and docs/fuzzing.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| { let _ = cardsim::fuzzing::experiment_file(data); });
