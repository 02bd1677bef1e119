//! Fuzz harness for what the server reads from clients as JSON: game options, actions,
//! join requests, the websocket hello, and replay requests (run through the replay with
//! small bounds). The `cargo fuzz` target `api_json` and the smoke test call it.

use crate::game::{Action, JoinRequest, Options};
use dama_core::any::AnyGame;

/// One JSON text, read as every kind of request the server takes.
pub fn api_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(opts) = serde_json::from_str::<Options>(text) {
        if opts.validate().is_ok() {
            if let Ok(v) = opts.variant.parse() {
                let _ = AnyGame::new(v, opts.fen.as_deref(), dama_core::game::DrawRules::default());
            }
        }
    }
    let _ = serde_json::from_str::<Action>(text);
    let _ = serde_json::from_str::<JoinRequest>(text);
    let _ = crate::ws::read_hello(text);
    crate::replay::fuzz(text);
}
