//! cargo fuzz target: pdn (the harness is dama_core::fuzzing::pdn).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dama_core::fuzzing::pdn(data));
