//! The refusals the game's task gives itself (the round's own are tested in
//! `round::tests`): each answered with its status and its machine-readable `code`, over
//! HTTP and over the websocket.

use std::time::Duration;

use serde_json::{json, Value};

use crate::common::*;

async fn code(addr: std::net::SocketAddr, path: &str, token: Option<&str>, body: Value) -> (u16, String) {
    let (st, v) = http(addr, "POST", path, token, Some(&body.to_string())).await;
    (st, v["code"].as_str().unwrap_or_default().to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_own_refusals_have_their_codes() {
    let limits = dama_server::Limits {
        sockets_per_address: Some(1),
        explorer_bundled: Some(false),
        puzzles_bundled: Some(false),
        ..Default::default()
    };
    let srv = start_with(&temp_db("refusals"), limits).await;
    let a = srv.addr;
    // Against the engine: the engine cannot judge a draw offer (engine_busy); a hint
    // without the seat (hint_for_player_to_move).
    let (ai, t, _) = create(a, json!({"variant": "english", "mode": "ai", "color": "black", "level": 1})).await;
    srv.state.pool.fail_searches(true);
    let path = format!("/api/games/{ai}/actions");
    assert_eq!(code(a, &path, Some(&t), json!({"type": "offer_draw"})).await, (429, "engine_busy".into()));
    srv.state.pool.fail_searches(false);
    let (st, e) = http(a, "GET", &format!("/api/games/{ai}/hint"), None, None).await;
    assert_eq!((st, e["code"].as_str()), (403, Some("hint_for_player_to_move")));
    // Two hints at once: one is computed, the other refused (hint_busy).
    let hint = |token: String| {
        let path = format!("/api/games/{ai}/hint");
        async move { http(a, "GET", &path, Some(&token), None).await }
    };
    // Each search waits a while first, so that the two surely overlap (a position from
    // the book is answered at once, and a loaded machine may start them far apart).
    srv.state.pool.delay_searches(1500);
    let (x, y) = tokio::join!(hint(t.clone()), hint(t.clone()));
    srv.state.pool.delay_searches(0);
    let codes: Vec<_> = [x, y].iter().map(|(st, v)| (*st, v["code"].as_str().map(str::to_string))).collect();
    assert!(codes.contains(&(429, Some("hint_busy".into()))), "{codes:?}");
    // Between two players: no hints (hints_against_engine_only).
    let (id, black, white) = friends(a, json!({"variant": "english", "mode": "friend", "color": "black"})).await;
    let (st, e) = http(a, "GET", &format!("/api/games/{id}/hint"), Some(&black), None).await;
    assert_eq!((st, e["code"].as_str()), (409, Some("hints_against_engine_only")));
    // Chat: a spectator over HTTP (watch_to_chat), on one device (no_chat_on_one_device),
    // a player hiding a line (not_moderator).
    let path = format!("/api/games/{id}/actions");
    assert_eq!(code(a, &path, None, json!({"type": "chat", "text": "hi"})).await, (403, "watch_to_chat".into()));
    assert_eq!(code(a, &path, Some(&white), json!({"type": "hide_chat", "n": 1})).await, (403, "not_moderator".into()));
    let (hs, ht, _) = create(a, json!({"variant": "english", "mode": "hotseat"})).await;
    let hs_path = format!("/api/games/{hs}/actions");
    assert_eq!(
        code(a, &hs_path, Some(&ht), json!({"type": "chat", "text": "hi"})).await,
        (409, "no_chat_on_one_device".into())
    );
    // Over the websocket: an error frame with its code; a second socket from the
    // address is refused (too_many_connections).
    let mut s = ws(a, &id, Some(&white)).await;
    assert_eq!(next_json(&mut s).await["type"], "snapshot");
    let mut second = ws(a, &id, None).await;
    let e = next_of(&mut second, "error").await;
    assert_eq!((e["status"].as_u64(), e["code"].as_str()), (Some(429), Some("too_many_connections")), "{e}");
    use futures_util::SinkExt;
    s.send(tokio_tungstenite::tungstenite::Message::Text(json!({"type": "move", "move": "22-18"}).to_string().into()))
        .await
        .unwrap();
    let e = next_of(&mut s, "error").await;
    assert_eq!((e["status"].as_u64(), e["code"].as_str()), (Some(403), Some("not_your_turn")), "{e}");
    tokio::time::sleep(Duration::from_millis(10)).await;
}

/// A muted account's chat is refused with its code (chat_muted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_muted_player_hears_why() {
    let srv = start(&temp_db("refusals-muted")).await;
    let a = srv.addr;
    let body = json!({"name": "ann", "password": "a good password"}).to_string();
    let r = dama_server::client::request(a, "POST", "/api/accounts", &[], Some(&body)).await.unwrap();
    let cookie = r.header("set-cookie").unwrap().split(';').next().unwrap().to_string();
    let friend = r#"{"variant": "english", "mode": "friend"}"#;
    let g =
        dama_server::client::request(a, "POST", "/api/games", &[("Cookie", &cookie)], Some(friend)).await.unwrap().body;
    let id = g["id"].as_str().unwrap();
    assert_eq!(join(a, id, g["invite"].as_str()).await.0, 200);
    let ann = srv.state.store().account_named("ann").await.unwrap().unwrap();
    srv.state.store().set_chat_muted(&ann.id, Some(1)).await.unwrap();
    let path = format!("/api/games/{id}/actions");
    let token = g["token"].as_str().unwrap();
    assert_eq!(code(a, &path, Some(token), json!({"type": "chat", "text": "hi"})).await, (403, "chat_muted".into()));
}
