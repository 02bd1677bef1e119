//! Lag compensation through the server: a player whose connection answers the server's
//! pings late (an artificial delay in the client) is measured, everyone sees their
//! connection, and their move is charged its time less the lag; a player on a quick
//! connection who takes as long is charged in full.

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::json;

use crate::common::*;

/// A client on a slow network: it reads each frame (and so answers the server's pings)
/// `delay` late.
fn slow_reader(mut ws: Ws, delay: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(delay).await;
            match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
                Ok(Some(Ok(_))) => {}
                _ => return,
            }
        }
    })
}

/// A client on a quick network: it reads at once.
fn quick_reader(mut ws: Ws) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while let Ok(Some(Ok(_))) = tokio::time::timeout(Duration::from_secs(30), ws.next()).await {}
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_connection_is_credited_its_lag_and_a_quick_one_is_not() {
    let srv = start(&temp_db("lag")).await;
    let a = srv.addr;
    // One minute each, no increment: what a move costs is what comes off.
    let body = json!({"variant": "english", "mode": "friend", "color": "white",
        "time": {"kind": "fischer", "initial_ms": 60000, "increment_ms": 0}});
    let (id, white, black) = friends(a, body).await;
    // Black (to move first in English) is on a slow network; White on a quick one.
    let slow = slow_reader(ws(a, &id, Some(&black)).await, Duration::from_millis(400));
    let quick = quick_reader(ws(a, &id, Some(&white)).await);
    let mut snap = snapshot(a, &id).await;
    for _ in 0..200 {
        if snap["connection"][1].as_u64().is_some_and(|ms| ms >= 300) && snap["connection"][0].is_u64() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        snap = snapshot(a, &id).await;
    }
    let (w_rtt, b_rtt) = (snap["connection"][0].as_u64().unwrap(), snap["connection"][1].as_u64().unwrap());
    assert!(b_rtt >= 300 && w_rtt < 300, "measured {w_rtt} ms and {b_rtt} ms: {}", snap["connection"]);
    // The first move of each side costs no time; then each takes 400 ms to move (the
    // slow player's move also spends that long on its way).
    let play = |token: String| {
        let id = id.clone();
        async move {
            let s = snapshot(a, &id).await;
            let m = s["legal"][0]["notation"].as_str().unwrap().to_string();
            assert_eq!(mv(a, &id, &token, &m).await.0, 200);
        }
    };
    play(black.clone()).await;
    play(white.clone()).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    play(black.clone()).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    play(white.clone()).await;
    let s = snapshot(a, &id).await;
    let (w_ms, b_ms) = (s["clocks"]["white_ms"].as_u64().unwrap(), s["clocks"]["black_ms"].as_u64().unwrap());
    assert!(b_ms >= 60_000 - 150, "the slow player's 400 ms were credited: {b_ms} ms left");
    assert!(w_ms <= 60_000 - 380, "the quick player's 400 ms were charged: {w_ms} ms left");
    slow.abort();
    quick.abort();
}
