//! The play server under hostile and unlucky use: every defect found by trying to break
//! it has a test here (numbered as in the hardening issue), on SQLite and PostgreSQL
//! where storage matters.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

on_both!(
    a_store_failure_leaves_the_game_as_it_was,
    versions_and_offers_survive_a_restart_and_the_turn_is_charged,
    next_game_links_survive_a_restart,
    a_friend_seat_needs_the_invite_and_tokens_are_stored_hashed
);

async fn post_replay(addr: std::net::SocketAddr, pdn: &str) -> (u16, Value) {
    http(addr, "POST", "/api/replay", None, Some(&json!({ "pdn": pdn }).to_string())).await
}

/// Defect 1: Deeply nested variations used to overflow the stack and abort the process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_bombs_of_nested_variations_are_answered() {
    let srv = start(&temp_db("nested")).await;
    let bombs = [
        // The issue's request: ~40,000 nested variations with moves (~300 KB).
        format!("1. 11-15 {}{} *", "(22-18 ".repeat(40_000), ")".repeat(40_000)),
        // A million levels, closed and unclosed.
        format!("1. 11-15 {}{} 23-19 *", "(".repeat(1_000_000), ")".repeat(1_000_000)),
        format!("1. 11-15 {} *", "(".repeat(1_000_000)),
    ];
    for pdn in &bombs {
        let (st, v) = post_replay(srv.addr, pdn).await;
        assert_eq!(st, 200, "{}", v.to_string().chars().take(300).collect::<String>());
        assert_eq!(v["games"][0]["moves"][0]["notation"], "11-15");
    }
    // The server is alive.
    assert_eq!(http(srv.addr, "GET", "/api/variants", None, None).await.0, 200);
}

/// Defect 2: A 414 KB request (one game repeated) gave a 59 MB answer; now a page is bounded
/// and smaller than the request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_answers_are_paged_and_compact() {
    let srv = start(&temp_db("amplify")).await;
    let game = "[Event \"x\"]\n[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 *\n\n";
    let text = game.repeat(414_000 / game.len());
    let body = json!({ "pdn": text }).to_string();
    let (st, v) = http(srv.addr, "POST", "/api/replay", None, Some(&body)).await;
    assert_eq!(st, 200);
    let size = v.to_string().len();
    assert!(size < body.len(), "answer {size} bytes for a request of {}", body.len());
    assert_eq!(
        (v["games"].as_array().unwrap().len(), v["more"].as_bool(), v["next"].as_u64()),
        (200, Some(true), Some(200))
    );
    // The next page starts where the first ended.
    let body = json!({ "pdn": text, "skip": 200 }).to_string();
    let (st, v) = http(srv.addr, "POST", "/api/replay", None, Some(&body)).await;
    assert_eq!(st, 200);
    assert_eq!(v["games"][0]["moves"].as_array().unwrap().len(), 8);
}

/// Defect 3: Games against the engine held ~4 MB each, forever; now the engine is a shared
/// pool and idle games of every mode leave memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_of_every_mode_leave_memory_and_engines_are_shared() {
    let srv = start(&temp_db("idle")).await;
    let mut ids = Vec::new();
    for i in 0..8 {
        // The engine (White) moves first in half of them.
        let color = if i % 2 == 0 { "black" } else { "white" };
        ids.push(create(srv.addr, json!({"variant": "russian", "mode": "ai", "level": 1, "color": color})).await.0);
    }
    for mode in ["hotseat", "friend", "open"] {
        ids.push(create(srv.addr, json!({"variant": "english", "mode": mode})).await.0);
    }
    let tc = json!({"kind": "fischer", "initial_ms": 600000, "increment_ms": 0});
    ids.push(create(srv.addr, json!({"variant": "english", "mode": "hotseat", "time": tc})).await.0);
    let pool = srv.state.pool.clone();
    let mut unloaded = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if srv.state.games.loaded() == 0 {
            unloaded = true;
            break;
        }
    }
    assert!(unloaded, "{} games still in memory", srv.state.games.loaded());
    assert!(pool.idle_searchers() <= pool.size(), "{} searchers for a pool of {}", pool.idle_searchers(), pool.size());
    // Each comes back intact when asked for; the engine's first moves were played.
    for id in &ids {
        let s = snapshot(srv.addr, id).await;
        if s["mode"] == "ai" && s["ai"] == "white" {
            assert_eq!(s["moves"].as_array().unwrap().len(), 1, "{s}");
        }
        assert_ne!(s["state"], "finished");
    }
}

/// Defect 4: Frames were buffered up to 16 MiB; now the transport stops at 64 KiB with an
/// error, and frames over 4 KiB get an error while the connection stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_frames_get_the_documented_error() {
    let srv = start(&temp_db("frames")).await;
    let (id, t, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat"})).await;
    let mut s = ws(srv.addr, &id, Some(&t)).await;
    next_of(&mut s, "snapshot").await;
    s.send(Message::Text("x".repeat(10_000).into())).await.unwrap();
    let e = next_of(&mut s, "error").await;
    assert_eq!(e["status"], 413, "{e}");
    s.send(Message::Text(json!({"type": "ping"}).to_string().into())).await.unwrap();
    next_of(&mut s, "pong").await;
    // Over the transport's limit: an error, then a close with 1009 (message too big).
    let _ = s.send(Message::Text("y".repeat(200_000).into())).await;
    let e = next_of(&mut s, "error").await;
    assert_eq!(e["status"], 413, "{e}");
    let mut closed = None;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(5), s.next()).await {
        match m {
            Ok(Message::Close(f)) => {
                closed = f.map(|f| u16::from(f.code));
                break;
            }
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    assert_eq!(closed, Some(1009));
}

/// Defect 5 and 11: Versions restarted at 0 after a restart (a resuming client missed moves),
/// pending offers were lost, and the player to move got back the time of the move in
/// progress.
async fn versions_and_offers_survive_a_restart_and_the_turn_is_charged(db: String) {
    let srv = start(&db).await;
    let tc = json!({"kind": "fischer", "initial_ms": 60000, "increment_ms": 0});
    let (id, b, w) =
        friends(srv.addr, json!({"variant": "english", "mode": "friend", "color": "black", "time": tc})).await;
    for (m, t) in [("11-15", &b), ("23-19", &w), ("8-11", &b), ("22-17", &w)] {
        assert_eq!(mv(srv.addr, &id, t, m).await.0, 200);
    }
    assert_eq!(act(srv.addr, &id, &w, json!({"type": "offer_draw"})).await.0, 200);
    let before = snapshot(srv.addr, &id).await;
    let v = before["version"].as_u64().unwrap();
    assert_eq!(before["draw_offer"], "white");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    srv.task.abort();
    let _ = srv.task.await;
    let srv = start(&db).await;
    let after = snapshot(srv.addr, &id).await;
    assert_eq!(after["version"].as_u64(), Some(v), "{after}");
    assert_eq!(after["draw_offer"], "white");
    // Black, to move, is charged the time since the turn began.
    let left = after["clocks"]["black_ms"].as_u64().unwrap();
    let had = before["clocks"]["black_ms"].as_u64().unwrap();
    assert!(left + 1000 <= had, "black had {had} ms before the restart and {left} after");
    // A client that saw version v - 2 and one that saw everything resume correctly;
    // one that claims a version the server never had gets a snapshot.
    let mut s = ws_since(srv.addr, &id, None, Some(v - 2)).await;
    assert_eq!(next_json(&mut s).await["type"], "snapshot");
    let mut up = ws_since(srv.addr, &id, None, Some(v)).await;
    let mut future = ws_since(srv.addr, &id, None, Some(v + 50)).await;
    assert_eq!(next_json(&mut future).await["type"], "snapshot");
    assert_eq!(mv(srv.addr, &id, &b, "9-13").await.0, 200);
    let e = next_json(&mut up).await;
    assert_eq!((e["type"].as_str(), e["v"].as_u64()), (Some("move"), Some(v + 1)), "{e}");
    srv.task.abort();
}

/// Defect 6: After a restart, each rematch request created another game.
async fn next_game_links_survive_a_restart(db: String) {
    let srv = start(&db).await;
    let (id, t, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat", "series": 3})).await;
    assert_eq!(act(srv.addr, &id, &t, json!({"type": "resign"})).await.0, 200);
    let next = snapshot(srv.addr, &id).await["next_game"].clone();
    assert!(next.is_string());
    srv.task.abort();
    let _ = srv.task.await;
    let srv = start(&db).await;
    assert_eq!(snapshot(srv.addr, &id).await["next_game"], next);
    assert_eq!(act(srv.addr, &id, &t, json!({"type": "rematch"})).await.0, 409);
    // Unloaded while idle, the same; no other game was made.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(act(srv.addr, &id, &t, json!({"type": "rematch"})).await.0, 409);
    let next = next.as_str().unwrap();
    // (Counted in the store: the lobby's lists show public games only.)
    let since = srv.state.store().game(next).await.unwrap().unwrap().created_ms;
    let live = srv.state.store().list(dama_server::protocol::Phase::Live, 1000).await.unwrap();
    let ours: Vec<&str> = live.iter().filter(|g| g.created_ms >= since).map(|g| g.id.as_str()).collect();
    assert_eq!(ours.len(), 1, "{ours:?}");
    srv.task.abort();
}

/// Defect 7: 30,000 draw offers were all logged, and spectators replayed them all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offers_are_limited_and_a_resume_is_capped() {
    let srv = start(&temp_db("offers")).await;
    let (id, a, b) = friends(srv.addr, json!({"variant": "english", "mode": "friend", "color": "black"})).await;
    let mut codes = Vec::new();
    for _ in 0..30 {
        codes.push(act(srv.addr, &id, &a, json!({"type": "offer_draw"})).await.0);
        codes.push(act(srv.addr, &id, &b, json!({"type": "decline_draw"})).await.0);
    }
    assert_eq!(codes.iter().filter(|c| **c == 200).count(), 2, "{codes:?}");
    let v = snapshot(srv.addr, &id).await["version"].as_u64().unwrap();
    assert!(v <= 3, "{v}");
    // A long game: a client far behind gets a snapshot, not the whole log.
    let end = play_out(srv.addr, &id, &[("black", &a), ("white", &b)], 150).await;
    let v = end["version"].as_u64().unwrap();
    if v > dama_server::game::LOG_EVENTS as u64 + 1 {
        let mut s = ws_since(srv.addr, &id, None, Some(0)).await;
        assert_eq!(next_json(&mut s).await["type"], "snapshot");
    }
}

/// Defect 8: A game set up from a decided position stayed live forever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decided_position_is_finished_at_creation() {
    let srv = start(&temp_db("decided")).await;
    // Black to move has no piece; White to move is blocked (29 behind 25, 22 taken).
    for (fen, winner, why) in [("B:W18,22:B", "white", "no pieces"), ("W:W29:B25,K22", "black", "no legal move")] {
        let (id, _, _) = create(srv.addr, json!({"variant": "english", "mode": "ai", "level": 1, "fen": fen})).await;
        let s = snapshot(srv.addr, &id).await;
        assert_eq!((s["state"].as_str(), s["result"]["winner"].as_str()), (Some("finished"), Some(winner)), "{s}");
        assert!(s["result"]["text"].as_str().unwrap().contains(why), "{s}");
    }
    let (st, v) = http(srv.addr, "POST", "/api/games", None, Some(r#"{"variant":"english","fen":"W:W:B"}"#)).await;
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("no pieces"), "{v}");
}

/// Defect 9: One client cast 200 suggestions over HTTP with made-up tokens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn votes_come_one_per_connection() {
    let srv = start(&temp_db("votes")).await;
    let body = json!({"variant": "english", "mode": "friend", "color": "black", "suggestions": true});
    let (id, black, _) = friends(srv.addr, body).await;
    for i in 0..50 {
        let token = format!("{i:032x}");
        let (st, _) = act(srv.addr, &id, &token, json!({"type": "suggest", "move": "11-15"})).await;
        assert_eq!(st, 400);
    }
    // One websocket suggesting many times is one vote.
    let mut p = ws(srv.addr, &id, Some(&black)).await;
    next_of(&mut p, "snapshot").await;
    let mut s = ws(srv.addr, &id, None).await;
    next_of(&mut s, "snapshot").await;
    for m in ["11-15", "9-13", "11-15"] {
        s.send(Message::Text(json!({"type": "suggest", "move": m}).to_string().into())).await.unwrap();
    }
    let mut last = Value::Null;
    for _ in 0..3 {
        last = next_of(&mut p, "suggestions").await;
    }
    assert_eq!(last["moves"], json!([["11-15", 1]]));
    // One address may hold only a few connections to a game.
    let mut socks = Vec::new();
    let mut refused = None;
    for _ in 0..dama_server::Limits::default().sockets_per_address() + 2 {
        let mut c = ws(srv.addr, &id, None).await;
        let m = next_json(&mut c).await;
        if m["type"] == "error" {
            refused = Some(m);
            break;
        }
        socks.push(c);
    }
    let refused = refused.expect("a connection over the limit is refused");
    assert_eq!(refused["status"], 429, "{refused}");
}

/// Defect 10: `days: 0` lost at once; huge values wrapped around.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clock_settings_are_checked() {
    let srv = start(&temp_db("clocks")).await;
    for (tc, says) in [
        (json!({"kind": "correspondence", "days": 0}), "days must be 1 to 30"),
        (json!({"kind": "correspondence", "days": u64::MAX}), "days must be 1 to 30"),
        (json!({"kind": "fischer", "initial_ms": 300000, "increment_ms": u64::MAX}), "increment_ms"),
        (json!({"kind": "fischer", "initial_ms": u64::MAX, "increment_ms": 0}), "initial_ms"),
        (json!({"kind": "per_move", "limit_ms": 1000, "capture_limit_ms": 5000}), "capture_limit_ms"),
    ] {
        let body = json!({"variant": "english", "mode": "hotseat", "time": tc}).to_string();
        let (st, v) = http(srv.addr, "POST", "/api/games", None, Some(&body)).await;
        assert_eq!(st, 400, "{body}");
        assert!(v["error"].as_str().unwrap().contains(says), "{v}");
    }
    let ok = json!({"variant": "english", "mode": "hotseat", "time": {"kind": "correspondence", "days": 3}});
    let (id, _, _) = create(srv.addr, ok).await;
    let s = snapshot(srv.addr, &id).await;
    assert!((71..=72).contains(&(s["clocks"]["black_ms"].as_u64().unwrap() / 3_600_000)), "{s}");
}

/// Number 12: anyone with the watch link could take a friend's seat; tokens travelled
/// in websocket addresses and were stored in clear.
async fn a_friend_seat_needs_the_invite_and_tokens_are_stored_hashed(db: String) {
    let srv = start(&db).await;
    let created = create_full(srv.addr, json!({"variant": "english", "mode": "friend", "color": "black"})).await;
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let invite = created["invite"].as_str().unwrap();
    assert_eq!(join(srv.addr, id, None).await.0, 403);
    assert_eq!(join(srv.addr, id, Some("0123456789abcdef0123456789abcdef")).await.0, 403);
    let (st, seat) = join(srv.addr, id, Some(invite)).await;
    assert_eq!(st, 200);
    let row = srv.state.store().game(id).await.unwrap().unwrap();
    for stored in [row.state.black_token.unwrap(), row.state.white_token.unwrap(), row.invite_hash.unwrap()] {
        assert_eq!(stored.len(), 64);
        assert!(stored != token && stored != invite && stored != seat["token"].as_str().unwrap());
    }
    assert!(!serde_json::to_string(&row.options).unwrap().contains(token));
    // A token in the websocket address is refused before the upgrade.
    let url = format!("ws://{}/api/games/{id}/ws?token={token}", srv.addr);
    match tokio_tungstenite::connect_async(url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            assert_eq!(r.status(), 400);
            let body = String::from_utf8_lossy(r.body().as_deref().unwrap_or_default()).to_string();
            assert!(body.contains("hello"), "{body}");
        }
        other => panic!("the upgrade was not refused: {:?}", other.map(|_| ())),
    }
    // An open game needs no invite.
    let (open, _, _) = create(srv.addr, json!({"variant": "english", "mode": "open"})).await;
    assert_eq!(join(srv.addr, &open, None).await.0, 200);
    srv.task.abort();
}

/// Defect 13: Hints had no limit: now one per game at a time, on the engine pool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_come_one_at_a_time() {
    let srv = start(&temp_db("hints")).await;
    // A position out of the opening book, so the hint is searched (0.5 s).
    let fen = "B:W21,22,23,25,26,27,29,30,31:B1,2,3,5,6,7,9,10,11";
    let (id, t, _) =
        create(srv.addr, json!({"variant": "english", "mode": "ai", "color": "black", "level": 1, "fen": fen})).await;
    let path = format!("/api/games/{id}/hint");
    let (a, b) = tokio::join!(http(srv.addr, "GET", &path, Some(&t), None), async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        http(srv.addr, "GET", &path, Some(&t), None).await
    });
    assert_eq!(a.0, 200, "{}", a.1);
    assert_eq!(b.0, 429, "{}", b.1);
    // Once the first is done, another may be asked.
    assert_eq!(http(srv.addr, "GET", &path, Some(&t), None).await.0, 200);
}

/// Defect 14: A global lock was held while a game was read from the database: one slow read
/// stalled every game. Here the database is locked while an unknown game is looked up;
/// a game in memory must still answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_lookup_does_not_hold_up_other_games() {
    use sqlx::{Connection, Executor};
    let Some(db) = postgres().await else { return };
    let srv = start(&db).await;
    let (id, t, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat"})).await;
    let mut lock = sqlx::PgConnection::connect(&db).await.unwrap();
    lock.execute("BEGIN").await.unwrap();
    lock.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE").await.unwrap();
    let addr = srv.addr;
    let stuck = tokio::spawn(async move { http(addr, "GET", "/api/games/0123456789ab", None, None).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let r = tokio::time::timeout(Duration::from_secs(3), async {
        (snapshot(srv.addr, &id).await, mv(srv.addr, &id, &t, "11-15").await)
    })
    .await;
    lock.execute("ROLLBACK").await.unwrap();
    let (s, (st, _)) = r.expect("the game in memory answers while another lookup waits");
    assert_eq!((s["id"].as_str(), st), (Some(id.as_str()), 200));
    assert_eq!(stuck.await.unwrap().0, 404);
}

/// Defect 15: Some errors were plain text or empty: every error of the API is the
/// documented JSON. (An address outside the API with no page gets the site's "nothing
/// here" page instead, with 404: `web_pages.rs`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_is_json() {
    let srv = start(&temp_db("json")).await;
    let (id, _, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat"})).await;
    let big = format!("{{\"variant\": \"{}\"}}", "x".repeat(100_000));
    let cases = [
        ("GET", "/api/nothing".to_string(), None, 404),
        ("POST", "/nothing/here".to_string(), None, 404),
        ("DELETE", "/api/games".to_string(), None, 405),
        ("GET", "/api/games?state=live&x=1".to_string(), None, 400),
        ("GET", format!("/api/games/{id}/ws?since=abc"), None, 400),
        ("GET", format!("/api/games/{id}/ws"), None, 400),
        ("POST", "/api/games".to_string(), Some(big.as_str()), 413),
        ("GET", "/assets/nothing.js".to_string(), None, 404),
    ];
    for (method, path, body, status) in cases {
        let (st, v) = http(srv.addr, method, &path, None, body).await;
        assert_eq!(st, status, "{method} {path}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{method} {path}: {v}");
    }
    // A page address with no page: the site's page, with its 404.
    let (st, v) = http(srv.addr, "GET", "/nothing/here", None, None).await;
    assert_eq!(st, 404);
    assert!(v.as_str().is_some_and(|page| page.contains("<html")), "{v}");
}

/// The round/protocol issue: a decision the store cannot keep changes nothing. With a
/// store that fails on demand, a move, a draw offer, a join, a takeback and a
/// resignation are each refused with 500, and the game is exactly as it was (its
/// snapshot, its version, and what a reconnecting client gets); once the store works
/// again, the same actions go through.
async fn a_store_failure_leaves_the_game_as_it_was(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let store = srv.state.store().clone();
    // A friend game waiting for the friend: the join fails first.
    let v = create_full(a, json!({"variant": "english", "mode": "friend", "color": "black"})).await;
    let id = v["id"].as_str().unwrap().to_string();
    let black = v["token"].as_str().unwrap().to_string();
    store.fail_commits(true);
    let before = snapshot(a, &id).await;
    assert_eq!(join(a, &id, v["invite"].as_str()).await.0, 500);
    assert_eq!(snapshot(a, &id).await, before, "the seat is still free");
    store.fail_commits(false);
    let (st, seat) = join(a, &id, v["invite"].as_str()).await;
    assert_eq!(st, 200);
    let white = seat["token"].as_str().unwrap().to_string();
    assert_eq!(mv(a, &id, &black, "11-15").await.0, 200);
    let mut watcher = ws(a, &id, None).await;
    assert_eq!(next_json(&mut watcher).await["type"], "snapshot");
    let before = snapshot(a, &id).await;
    store.fail_commits(true);
    let attempts: [(&str, Value); 4] = [
        (&white, json!({"type": "move", "move": "22-18"})),
        (&white, json!({"type": "offer_draw"})),
        (&white, json!({"type": "takeback"})),
        (&black, json!({"type": "resign"})),
    ];
    for (token, action) in &attempts {
        let (st, e) = act(a, &id, token, action.clone()).await;
        assert_eq!((st, e["code"].as_str()), (500, Some("internal")), "{action}: {e}");
        assert_eq!(snapshot(a, &id).await, before, "{action} changed the game");
    }
    // Nothing was announced either.
    let heard = quiet_for(&mut watcher, 300).await;
    assert!(heard.is_ok(), "an event went out: {heard:?}");
    store.fail_commits(false);
    for (token, action) in attempts {
        let (st, e) = act(a, &id, token, action.clone()).await;
        assert_eq!(st, 200, "{action}: {e}");
    }
    assert_eq!(snapshot(a, &id).await["state"], "finished");
}
