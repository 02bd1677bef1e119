//! The limits are settings: each one set low here is kept, with the documented answer.

use std::time::Duration;

use dama_server::Limits;
use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

fn hotseat() -> String {
    json!({"variant": "english", "mode": "hotseat"}).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_games_per_address_are_rate_limited() {
    let srv = start_with(&temp_db("limit-rate"), Limits { games_per_minute: Some(3), ..Limits::default() }).await;
    for _ in 0..3 {
        let (st, v) = http(srv.addr, "POST", "/api/games", None, Some(&hotseat())).await;
        assert_eq!(st, 201, "{v}");
    }
    let (st, v) = http(srv.addr, "POST", "/api/games", None, Some(&hotseat())).await;
    assert_eq!(st, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("3 a minute"), "{v}");
    // Other requests are not new games.
    assert_eq!(http(srv.addr, "GET", "/api/variants", None, None).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_per_address_are_rate_limited_but_pages_are_not() {
    let srv = start_with(&temp_db("limit-req"), Limits { requests_per_minute: Some(5), ..Limits::default() }).await;
    for _ in 0..5 {
        assert_eq!(http(srv.addr, "GET", "/api/variants", None, None).await.0, 200);
    }
    let (st, v) = http(srv.addr, "GET", "/api/variants", None, None).await;
    assert_eq!(st, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("5 a minute"), "{v}");
    assert_eq!(http(srv.addr, "GET", "/", None, None).await.0, 200);
    assert_eq!(http(srv.addr, "GET", "/healthz", None, None).await.0, 200);
}

/// A request with an X-Forwarded-For header; the status.
async fn create_from(addr: std::net::SocketAddr, forwarded: &str) -> u16 {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = hotseat();
    let req = format!(
        "POST /api/games HTTP/1.1\r\nHost: dama\r\nConnection: close\r\nX-Forwarded-For: {forwarded}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    String::from_utf8_lossy(&out).get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_proxy_each_forwarded_client_has_its_own_limit() {
    let limits = Limits { games_per_minute: Some(1), forwarded_for: Some(true), ..Limits::default() };
    let srv = start_with(&temp_db("limit-fwd"), limits).await;
    // The proxy appends the client it saw: the last entry counts, not what a client wrote.
    assert_eq!(create_from(srv.addr, "1.1.1.1, 10.0.0.1").await, 201);
    assert_eq!(create_from(srv.addr, "2.2.2.2, 10.0.0.1").await, 429);
    assert_eq!(create_from(srv.addr, "10.0.0.2").await, 201);
    // Without the setting the header is ignored: every request is the peer's.
    let srv = start_with(&temp_db("limit-nofwd"), Limits { games_per_minute: Some(1), ..Limits::default() }).await;
    assert_eq!(create_from(srv.addr, "1.1.1.1").await, 201);
    assert_eq!(create_from(srv.addr, "2.2.2.2").await, 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_refuses_new_games_with_503() {
    let srv = start_with(&temp_db("limit-full"), Limits { games_in_memory: Some(2), ..Limits::default() }).await;
    for _ in 0..2 {
        assert_eq!(http(srv.addr, "POST", "/api/games", None, Some(&hotseat())).await.0, 201);
    }
    let (st, v) = http(srv.addr, "POST", "/api/games", None, Some(&hotseat())).await;
    assert_eq!(st, 503, "{v}");
    assert!(v["error"].as_str().unwrap().contains("full"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn body_and_frame_sizes_follow_their_settings() {
    let limits = Limits { body: Some(600), ws_frame: Some(100), ..Limits::default() };
    let srv = start_with(&temp_db("limit-sizes"), limits).await;
    let padded = json!({"variant": "english", "mode": "hotseat", "pad": "x".repeat(700)}).to_string();
    let (st, v) = http(srv.addr, "POST", "/api/games", None, Some(&padded)).await;
    assert_eq!(st, 413, "{v}");
    let (id, token, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat"})).await;
    let mut s = ws(srv.addr, &id, Some(&token)).await;
    next_of(&mut s, "snapshot").await;
    let big = json!({"type": "move", "move": "11-15", "pad": "y".repeat(150)}).to_string();
    s.send(Message::Text(big.into())).await.unwrap();
    let e: Value = next_of(&mut s, "error").await;
    assert_eq!(e["status"], 413, "{e}");
    assert!(e["message"].as_str().unwrap_or_default().contains("limit is 100"), "{e}");
    // The connection stays: a move in a small frame is played.
    s.send(Message::Text(json!({"type": "move", "move": "11-15"}).to_string().into())).await.unwrap();
    let m = tokio::time::timeout(Duration::from_secs(10), next_of(&mut s, "move")).await.expect("move");
    assert_eq!(m["ply"], 1, "{m}");
}
