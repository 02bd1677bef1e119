//! A rematch and the next game of a series are made when the game before ends, but
//! their clocks start as a first game's do: once their players have opened them
//! (issue 49, point 1). Seed 003's clock: 5 minutes a move.

use std::net::SocketAddr;
use std::time::Duration;

use dama_server::client::request;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

use crate::common::*;

on_both!(
    a_series_against_the_computer_and_its_rematch_wait_for_the_player,
    a_friend_rematch_starts_when_both_players_are_there,
    a_program_following_its_game_is_there
);

/// The per-move clock of rulebook seed 003.
fn seed_003(body: Value) -> Value {
    let mut b = json!({
        "variant": "english",
        "rules": "seed003",
        "time": {"kind": "per_move", "limit_ms": 300000, "capture_limit_ms": 60000},
    });
    b.as_object_mut().unwrap().extend(body.as_object().unwrap().clone());
    b
}

/// The game after `id` (the rematch or the series' next game), once it exists.
async fn next_game(addr: SocketAddr, id: &str) -> String {
    for _ in 0..200 {
        if let Some(next) = snapshot(addr, id).await["next_game"].as_str() {
            return next.to_string();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no next game after {id}");
}

/// A game that nobody has opened: both clocks full, none running.
fn assert_waits(s: &Value) {
    let c = &s["clocks"];
    assert_eq!((c["white_ms"].as_u64(), c["black_ms"].as_u64()), (Some(300_000), Some(300_000)), "{s}");
    assert_eq!(c["running"], Value::Null, "{s}");
    assert_eq!(s["held"], true, "{s}");
}

async fn a_series_against_the_computer_and_its_rematch_wait_for_the_player(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let body = seed_003(json!({"mode": "ai", "level": 1, "color": "white", "series": 2}));
    let (id, t, _) = create(a, body).await;
    assert_eq!(act(a, &id, &t, json!({"type": "resign"})).await.0, 200);
    let id2 = next_game(a, &id).await;
    // The player looks at the result a while; meanwhile someone watches game 2. The
    // player is Black there, to move first (English), and nothing runs yet.
    let mut watch = ws(a, &id2, None).await;
    next_of(&mut watch, "snapshot").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let s = snapshot(a, &id2).await;
    assert_eq!(s["side_to_move"], "black");
    assert_waits(&s);
    // "Next game": the player opens it and the clock starts now, from 5:00.
    let mut me = ws(a, &id2, Some(&t)).await;
    let g = next_of(&mut me, "snapshot").await["game"].clone();
    assert_eq!((g["held"].as_bool(), g["clocks"]["running"].as_str()), (Some(false), Some("black")), "{g}");
    assert!(g["clocks"]["black_ms"].as_u64().unwrap() > 299_000, "{g}");
    let started = next_of(&mut watch, "started").await;
    assert_eq!(started["clocks"]["running"], "black", "{started}");
    assert!(started["clocks"]["black_ms"].as_u64().unwrap() > 299_000, "{started}");
    // From then on it runs.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let left = snapshot(a, &id2).await["clocks"]["black_ms"].as_u64().unwrap();
    assert!(left < 300_000, "{left}");
    // The series is over after game 2; the rematch waits the same way, the engine
    // (Black, to move) included: it does not think before the player is there.
    assert_eq!(act(a, &id2, &t, json!({"type": "resign"})).await.0, 200);
    assert_eq!(act(a, &id2, &t, json!({"type": "rematch"})).await.0, 200);
    let id3 = next_game(a, &id2).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let s = snapshot(a, &id3).await;
    assert_eq!(s["moves"].as_array().map(Vec::len), Some(0), "{s}");
    assert_waits(&s);
    let mut me = ws(a, &id3, Some(&t)).await;
    let m = next_of(&mut me, "move").await;
    assert_eq!((m["ply"].as_u64(), m["clocks"]["running"].as_str()), (Some(1), Some("white")), "{m}");
    assert_eq!(m["clocks"]["white_ms"], 300_000, "{m}");
    srv.task.abort();
}

async fn a_friend_rematch_starts_when_both_players_are_there(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (id, ann, bob) = friends(a, seed_003(json!({"mode": "friend", "color": "white"}))).await;
    assert_eq!(act(a, &id, &bob, json!({"type": "resign"})).await.0, 200);
    assert_eq!(act(a, &id, &ann, json!({"type": "rematch"})).await.0, 200);
    assert_eq!(act(a, &id, &bob, json!({"type": "rematch"})).await.0, 200);
    let id2 = next_game(a, &id).await;
    // A restart brings it back as it was: waiting for both.
    srv.task.abort();
    let _ = srv.task.await;
    let srv = start(&db).await;
    let a = srv.addr;
    assert_waits(&snapshot(a, &id2).await);
    // Ann (Black now, to move) opens it: it waits for Bob, and her move is refused.
    let mut ann_ws = ws(a, &id2, Some(&ann)).await;
    assert_waits(&next_of(&mut ann_ws, "snapshot").await["game"]);
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let (st, e) = mv(a, &id2, &ann, "11-15").await;
    assert_eq!((st, e["code"].as_str()), (409, Some("opponent_not_here")), "{e}");
    assert_waits(&snapshot(a, &id2).await);
    // Bob comes: both hear the start, Ann with her whole 5:00.
    let mut bob_ws = ws(a, &id2, Some(&bob)).await;
    assert_eq!(next_of(&mut bob_ws, "snapshot").await["game"]["held"], false);
    let started = next_of(&mut ann_ws, "started").await;
    assert_eq!(started["clocks"]["running"], "black", "{started}");
    assert!(started["clocks"]["black_ms"].as_u64().unwrap() > 299_000, "{started}");
    assert_eq!(mv(a, &id2, &ann, "11-15").await.0, 200);
    srv.task.abort();
}

/// A program playing for an account never opens the websocket: following the game on
/// the bot API (or acting in it) is its arrival.
async fn a_program_following_its_game_is_there(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let account = r#"{"name": "ann", "password": "a good password"}"#;
    let r = request(a, "POST", "/api/accounts", &[], Some(account)).await.unwrap();
    let cookie = r.header("set-cookie").unwrap().split(';').next().unwrap().to_string();
    let scopes = r#"{"scopes": ["bot:play"]}"#;
    let r = request(a, "POST", "/api/tokens", &[("Cookie", &cookie)], Some(scopes)).await.unwrap();
    let bot = r.body["token"].as_str().unwrap().to_string();
    let body = seed_003(json!({"mode": "friend", "color": "white", "series": 2})).to_string();
    let r = request(a, "POST", "/api/games", &[("Cookie", &cookie)], Some(&body)).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_str().unwrap().to_string();
    let (st, seat) = join(a, &id, r.body["invite"].as_str()).await;
    assert_eq!(st, 200, "{seat}");
    let bob = seat["token"].as_str().unwrap().to_string();
    assert_eq!(act(a, &id, &bob, json!({"type": "resign"})).await.0, 200);
    let id2 = next_game(a, &id).await;
    let mut bob_ws = ws(a, &id2, Some(&bob)).await;
    assert_waits(&next_of(&mut bob_ws, "snapshot").await["game"]);
    // Ann's program follows game 2 (the stream stays open): the game starts.
    let mut stream = tokio::net::TcpStream::connect(a).await.unwrap();
    let get = format!("GET /api/bot/game/stream/{id2} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {bot}\r\n\r\n");
    stream.write_all(get.as_bytes()).await.unwrap();
    let started = next_of(&mut bob_ws, "started").await;
    assert_eq!(started["clocks"]["running"], "black", "{started}");
    drop(stream);
    srv.task.abort();
}
