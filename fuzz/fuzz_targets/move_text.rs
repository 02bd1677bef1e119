//! cargo fuzz target: move_text (the harness is dama_core::fuzzing::move_text).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dama_core::fuzzing::move_text(data));
