//! cargo fuzz target: fen (the harness is dama_core::fuzzing::fen).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dama_core::fuzzing::fen(data));
