//! What the lobby lists, and games nobody plays any more. A test binary of its own:
//! it shortens the wait after which an unclocked game counts as abandoned.

use std::time::Duration;

use serde_json::{json, Value};

#[path = "it/common/mod.rs"]
mod common;
use common::*;

async fn listed(addr: std::net::SocketAddr, state: &str) -> Vec<Value> {
    let (st, v) = http(addr, "GET", &format!("/api/games?state={state}"), None, None).await;
    assert_eq!(st, 200, "{v}");
    v["games"].as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_is_public_games_only_and_abandoned_games_end() {
    std::env::set_var("DAMA_ABANDON_MS", "1500");
    let srv = start(&temp_db("lobby")).await;
    // Games against the engine, on one device and by invitation are private.
    let (ai, human, _) =
        create(srv.addr, json!({"variant": "english", "mode": "ai", "level": 1, "color": "black"})).await;
    let (hotseat, _, _) = create(srv.addr, json!({"variant": "russian", "mode": "hotseat"})).await;
    let (friend, _, _) = friends(srv.addr, json!({"variant": "english", "mode": "friend"})).await;
    let (open, _, _) = create(srv.addr, json!({"variant": "english", "mode": "open"})).await;
    let ids = |games: Vec<Value>| games.iter().map(|g| g["id"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    assert_eq!(ids(listed(srv.addr, "waiting").await), vec![open.clone()]);
    assert_eq!(join(srv.addr, &open, None).await.0, 200);
    let live = ids(listed(srv.addr, "live").await);
    assert_eq!(live, vec![open.clone()], "private games are not listed: {ai} {hotseat} {friend}");
    // The player against the engine moves, the engine answers, then the player leaves:
    // the game ends as a loss for the side that left; the untouched games end without
    // a result.
    assert_eq!(mv(srv.addr, &ai, &human, "11-15").await.0, 200);
    let mut s = snapshot(srv.addr, &ai).await;
    for _ in 0..50 {
        if s["moves"].as_array().unwrap().len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        s = snapshot(srv.addr, &ai).await;
    }
    assert_eq!(s["state"], "live");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let s = snapshot(srv.addr, &ai).await;
    assert_eq!(s["state"], "finished", "{s}");
    assert_eq!(s["result"]["text"], "White wins: abandonment");
    assert_eq!(s["result"]["winner"], "white");
    for id in [&hotseat, &friend, &open] {
        let s = snapshot(srv.addr, id).await;
        assert_eq!((s["state"].as_str(), s["result"]["text"].as_str()), (Some("finished"), Some("Abandoned")), "{s}");
    }
    assert!(listed(srv.addr, "live").await.is_empty());
    srv.task.abort();
}
