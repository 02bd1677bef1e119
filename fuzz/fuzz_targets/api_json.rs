//! cargo fuzz target: the server's JSON requests (the harness is dama_server::fuzzing::api_json).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dama_server::fuzzing::api_json(data));
