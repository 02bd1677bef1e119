//! The computer on the clock (issue 46): with every kind of clock, short ones included,
//! it plays its games out and never loses on time, even when several games wait for
//! the same searchers (the time a move waits is its own clock running).

use serde_json::{json, Value};

use crate::common::*;

/// One game of the computer (White, full strength) against a weak player who answers
/// at once, on `time`; the finished game's snapshot.
async fn on_the_clock(addr: std::net::SocketAddr, time: Value, level: u8) -> Value {
    let body = json!({"variant": "english", "mode": "ai", "level": level, "color": "black", "time": time});
    let (id, token, _) = create(addr, body).await;
    play_out(addr, &id, &[("black", &token)], 400).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_never_loses_on_time() {
    let srv = start(&temp_db("the_computer_never_loses_on_time")).await;
    let a = srv.addr;
    // Four games at once share the server's searchers.
    let games = tokio::join!(
        // A whole game of two seconds (seed 001's clock, short),
        on_the_clock(a, json!({"kind": "fischer", "initial_ms": 2000, "increment_ms": 0}), 10),
        // Fischer: one second and a tenth a move,
        on_the_clock(a, json!({"kind": "fischer", "initial_ms": 1000, "increment_ms": 100}), 10),
        // a limit for each move (seed 003's, in seconds instead of minutes),
        on_the_clock(a, json!({"kind": "per_move", "limit_ms": 1000, "capture_limit_ms": 300}), 10),
        // and correspondence.
        on_the_clock(a, json!({"kind": "correspondence", "days": 1}), 4),
    );
    for end in [games.0, games.1, games.2, games.3] {
        assert_eq!(end["state"], "finished", "{end}");
        let text = end["result"]["text"].as_str().unwrap_or_default();
        assert!(!text.to_lowercase().contains("time"), "{text}: {end}");
        assert_eq!(end["result"]["winner"], "white", "the computer should beat a player of the middle move: {end}");
    }
    srv.task.abort();
}
