//! Fuzz target `bot_file`: see `cardsim::fuzzing::bot_file` and docs/fuzzing.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| { let _ = cardsim::fuzzing::bot_file(data); });
