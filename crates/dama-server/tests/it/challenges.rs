//! Challenges to a named player, blocks, and the notifications they bring, on SQLite
//! and PostgreSQL: made, heard at once, accepted (two answers at once make one game),
//! declined with a reason, cancelled, expired (the sweep driven with the test's own
//! time), and every refusal (oneself, a blocked player, a closed door, a flood).

use std::net::SocketAddr;

use serde_json::{json, Value};

use crate::common::*;

on_both!(
    a_challenge_is_heard_accepted_once_and_starts_the_game,
    challenges_are_declined_cancelled_expired_and_refused,
    a_block_stops_challenges_chat_and_pairing,
    correspondence_players_are_told_their_move_reminded_and_told_the_end,
    followers_hear_a_game_start_and_see_who_is_online,
    a_program_hears_a_challenge_on_its_event_stream_and_accepts_it
);

fn blitz() -> Value {
    json!({"variant": "english", "time": {"kind": "fischer", "initial_ms": 300000, "increment_ms": 3000}, "color": "white", "rated": true})
}

/// `from` challenges `to` with `terms`: the reply.
async fn challenge(a: SocketAddr, from: &str, to: &str, terms: Value) -> dama_server::client::Reply {
    call(a, "POST", &format!("/api/players/{to}/challenge"), Some(from), Some(terms)).await
}

/// `from` challenges `to`; the challenge's id.
async fn challenged(a: SocketAddr, from: &str, to: &str, terms: Value) -> String {
    let r = challenge(a, from, to, terms).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["challenge"]["id"].as_str().unwrap().to_string()
}

async fn answer(a: SocketAddr, who: &str, id: &str, what: &str, body: Option<Value>) -> dama_server::client::Reply {
    call(a, "POST", &format!("/api/challenges/{id}/{what}"), Some(who), body).await
}

fn code(r: &dama_server::client::Reply) -> (u16, &str) {
    (r.status, r.body["code"].as_str().unwrap_or(""))
}

async fn a_challenge_is_heard_accepted_once_and_starts_the_game(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob) = (account(a, "ann").await, account(a, "bob").await);
    let (mut bob_ws, first) = inbox_ws(a, &bob).await;
    assert_eq!(first, json!({"type": "unread", "unread": 0}));
    let id = challenged(a, &ann, "bob", blitz()).await;
    // Bob's page hears it at once, and it waits in his inbox and his list.
    let heard = next_of(&mut bob_ws, "notification").await;
    assert_eq!(heard["notification"]["kind"], "challenge", "{heard}");
    assert_eq!(heard["notification"]["from"], "ann");
    assert_eq!(heard["notification"]["game"]["time"]["initial_ms"], 300000);
    let (list, unread) = inbox(a, &bob).await;
    assert_eq!((list.len(), unread), (1, 1));
    let r = call(a, "GET", "/api/challenges", Some(&bob), None).await;
    assert_eq!(r.body["in"][0]["id"], id.as_str(), "{}", r.body);
    assert_eq!(r.body["in"][0]["from"], "ann");
    let r = call(a, "GET", "/api/challenges", Some(&ann), None).await;
    assert_eq!((r.body["out"][0]["to"].as_str(), r.body["in"].as_array().map(Vec::len)), (Some("bob"), Some(0)));
    // Ann cannot accept her own challenge; Bob accepts twice at once: one game.
    assert_eq!(code(&answer(a, &ann, &id, "accept", None).await), (403, "challenge_not_yours"));
    let (one, two) = tokio::join!(answer(a, &bob, &id, "accept", None), answer(a, &bob, &id, "accept", None));
    let (won, lost) = if one.status == 200 { (one, two) } else { (two, one) };
    assert_eq!(won.status, 200, "{} / {}", won.body, lost.body);
    assert_eq!(code(&lost), (409, "challenge_gone"), "{}", lost.body);
    let game = won.body["game"].as_str().unwrap().to_string();
    assert_eq!(won.body["color"], "black", "Ann chose White");
    let snap = snapshot(a, &game).await;
    assert_eq!((snap["players"][0]["name"].as_str(), snap["players"][1]["name"].as_str()), (Some("ann"), Some("bob")));
    assert_eq!((snap["options"]["rated"].as_bool(), snap["state"].as_str()), (Some(true), Some("live")));
    // Ann is told, with the game.
    let (list, _) = inbox(a, &ann).await;
    assert_eq!((list[0]["kind"].as_str(), list[0]["game"].as_str()), (Some("challenge_accepted"), Some(game.as_str())));
    // The game waits for both: once Ann's page has opened it (by her log-in), Bob plays
    // with the token the accept gave (English: Black moves first).
    let mut ann_game = ws_logged_in(a, &game, &ann, &format!("http://{a}")).await;
    next_json(&mut ann_game).await;
    let m = snap["legal"][0]["notation"].as_str().unwrap().to_string();
    let (status, body) = mv(a, &game, won.body["token"].as_str().unwrap(), &m).await;
    assert_eq!(status, 200, "{body}");
    // Read: the bell's count goes down.
    let r = call(a, "POST", "/api/me/notifications/read", Some(&bob), Some(json!({}))).await;
    assert_eq!(r.body["unread"], 0, "{}", r.body);
}

async fn challenges_are_declined_cancelled_expired_and_refused(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob) = (account(a, "ann").await, account(a, "bob").await);
    // Declined with a reason: Ann hears why; a second answer finds it gone.
    let id = challenged(a, &ann, "bob", blitz()).await;
    let r = answer(a, &bob, &id, "decline", Some(json!({"reason": "too_fast"}))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(code(&answer(a, &bob, &id, "accept", None).await), (409, "challenge_gone"));
    let (list, _) = inbox(a, &ann).await;
    assert_eq!((list[0]["kind"].as_str(), list[0]["reason"].as_str()), (Some("challenge_declined"), Some("too_fast")));
    let r = answer(a, &bob, &id, "decline", Some(json!({"reason": "because"}))).await;
    assert_eq!(r.status, 400, "an unknown reason: {}", r.body);
    // Cancelled by Ann (not by Bob): Bob hears it went.
    let id = challenged(a, &ann, "bob", blitz()).await;
    assert_eq!(code(&answer(a, &bob, &id, "cancel", None).await), (403, "challenge_not_yours"));
    assert_eq!(answer(a, &ann, &id, "cancel", None).await.status, 200);
    let (list, _) = inbox(a, &bob).await;
    assert_eq!((list[0]["kind"].as_str(), list[0]["why"].as_str()), (Some("challenge_gone"), Some("cancelled")));
    // Expired: ten minutes on, by the sweep with the test's clock.
    let id = challenged(a, &ann, "bob", blitz()).await;
    dama_server::sweep::run(&srv.state, dama_server::clock::now_ms() + 9 * 60_000).await;
    let r = call(a, "GET", "/api/challenges", Some(&bob), None).await;
    assert_eq!(r.body["in"].as_array().unwrap().len(), 1, "not yet: {}", r.body);
    dama_server::sweep::run(&srv.state, dama_server::clock::now_ms() + 11 * 60_000).await;
    assert_eq!(code(&answer(a, &bob, &id, "accept", None).await), (409, "challenge_gone"));
    let (list, _) = inbox(a, &bob).await;
    assert_eq!((list[0]["kind"].as_str(), list[0]["why"].as_str()), (Some("challenge_gone"), Some("expired")));
    // Refused: oneself, nobody, a guest, bad terms, a closed door, friends only.
    assert_eq!(code(&challenge(a, &ann, "ann", blitz()).await), (400, "challenge_yourself"));
    assert_eq!(challenge(a, &ann, "nobody", blitz()).await.status, 404);
    let r = call(a, "POST", "/api/guests", None, Some(json!({"name": "guesty"}))).await;
    let guest = session_of(&r);
    assert_eq!(code(&challenge(a, &guest, "bob", blitz()).await), (400, "challenge_guest"));
    assert_eq!(challenge(a, "", "bob", blitz()).await.status, 401);
    let r = challenge(a, &ann, "bob", json!({"variant": "english", "rated": true})).await;
    assert_eq!(r.status, 400, "a rated game needs a clock: {}", r.body);
    assert_eq!(challenge(a, &ann, "bob", json!({"variant": "chess"})).await.status, 400);
    let set = |who: &'static str| json!({"challenges": who});
    assert_eq!(call(a, "POST", "/api/me/settings", Some(&bob), Some(set("none"))).await.status, 200);
    assert_eq!(code(&challenge(a, &ann, "bob", blitz()).await), (403, "challenge_closed"));
    call(a, "POST", "/api/me/settings", Some(&bob), Some(set("friends"))).await;
    assert_eq!(code(&challenge(a, &ann, "bob", blitz()).await), (403, "challenge_friends_only"));
    assert_eq!(call(a, "POST", "/api/players/ann/follow", Some(&bob), None).await.status, 200);
    let r = call(a, "GET", "/api/me/settings", Some(&bob), None).await;
    assert_eq!(r.body["challenges"], "friends");
    // A flood: ten waiting at once at most, thirty an hour.
    let mut made = 0;
    loop {
        let r = challenge(a, &ann, "bob", blitz()).await;
        if r.status != 201 {
            assert_eq!(code(&r), (429, "challenge_too_many_open"), "{}", r.body);
            break;
        }
        made += 1;
        assert!(made <= 10);
    }
    assert_eq!(made, 10);
    let r = call(a, "GET", "/api/challenges", Some(&ann), None).await;
    for c in r.body["out"].as_array().unwrap() {
        assert_eq!(answer(a, &ann, c["id"].as_str().unwrap(), "cancel", None).await.status, 200);
    }
    let mut refused = None;
    for _ in 0..30 {
        let r = challenge(a, &ann, "bob", blitz()).await;
        if r.status != 201 {
            refused = Some(r);
            break;
        }
        answer(a, &ann, r.body["challenge"]["id"].as_str().unwrap(), "cancel", None).await;
    }
    let r = refused.expect("thirty an hour at most");
    assert_eq!(code(&r), (429, "challenge_flood"), "{}", r.body);
    assert_eq!(r.body["arg"], 30);
}

async fn a_block_stops_challenges_chat_and_pairing(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, cat) = (account(a, "ann").await, account(a, "cat").await);
    // A game between them already, and a challenge waiting when Cat blocks Ann.
    let id = challenged(a, &ann, "cat", blitz()).await;
    let r = answer(a, &cat, &id, "accept", None).await;
    let (game, cat_token) =
        (r.body["game"].as_str().unwrap().to_string(), r.body["token"].as_str().unwrap().to_string());
    let pending = challenged(a, &ann, "cat", blitz()).await;
    assert_eq!(call(a, "POST", "/api/players/ann/follow", Some(&cat), None).await.status, 200);
    assert_eq!(call(a, "POST", "/api/players/ann/block", Some(&cat), None).await.status, 200);
    // The challenge is gone (nothing half done), and no new one either way.
    assert_eq!(code(&answer(a, &cat, &pending, "accept", None).await), (409, "challenge_gone"));
    assert_eq!(code(&challenge(a, &ann, "cat", blitz()).await), (403, "blocked"));
    assert_eq!(code(&challenge(a, &cat, "ann", blitz()).await), (403, "blocked"));
    let r = call(a, "GET", "/api/challenges", Some(&ann), None).await;
    assert_eq!(r.body["out"].as_array().unwrap().len(), 0, "{}", r.body);
    // Blocking unfollows; the player's page says so.
    let r = call(a, "GET", "/api/players/ann", Some(&cat), None).await;
    assert_eq!((r.body["blocked"].as_bool(), r.body["following"].as_bool()), (Some(true), Some(false)));
    let r = call(a, "GET", "/api/me/settings", Some(&cat), None).await;
    assert_eq!(r.body["blocked"], json!(["ann"]));
    // No chat between them in their game.
    let (status, e) = act(a, &game, &cat_token, json!({"type": "chat", "text": "hello"})).await;
    assert_eq!((status, e["code"].as_str()), (403, Some("chat_blocked")), "{e}");
    // No pairing in the lobby: Ann's seek cannot be taken by Cat.
    let r = call(a, "POST", "/api/seeks", Some(&ann), Some(json!({"variant": "english"}))).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let seek = r.body["id"].as_str().unwrap().to_string();
    let r = call(a, "POST", &format!("/api/seeks/{seek}/accept"), Some(&cat), None).await;
    assert_eq!(code(&r), (403, "blocked"), "{}", r.body);
    // Unblocked: a challenge goes through again.
    assert_eq!(call(a, "DELETE", "/api/players/ann/block", Some(&cat), None).await.status, 200);
    assert_eq!(challenge(a, &ann, "cat", blitz()).await.status, 201);
    assert_eq!(call(a, "POST", "/api/players/cat/block", Some(&cat), None).await.status, 400);
}

async fn correspondence_players_are_told_their_move_reminded_and_told_the_end(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob) = (account(a, "ann").await, account(a, "bob").await);
    let terms = json!({"variant": "english", "time": {"kind": "correspondence", "days": 2}, "color": "white"});
    let id = challenged(a, &ann, "bob", terms).await;
    let r = answer(a, &bob, &id, "accept", None).await;
    let (game, bob_token) =
        (r.body["game"].as_str().unwrap().to_string(), r.body["token"].as_str().unwrap().to_string());
    // Both open the game (it is held until then): Ann's page by her log-in.
    let mut ann_game = ws_logged_in(a, &game, &ann, &format!("http://{a}")).await;
    next_json(&mut ann_game).await;
    let (mut ann_ws, _) = inbox_ws(a, &ann).await;
    let m = snapshot(a, &game).await["legal"][0]["notation"].as_str().unwrap().to_string();
    assert_eq!(mv(a, &game, &bob_token, &m).await.0, 200, "Bob (Black) moves first");
    // Ann is told it is her move, with two days for it.
    let heard = next_of(&mut ann_ws, "notification").await["notification"].clone();
    assert_eq!((heard["kind"].as_str(), heard["game"].as_str()), (Some("your_move"), Some(game.as_str())), "{heard}");
    assert_eq!(heard["opponent"], "bob");
    assert!(heard["left_ms"].as_u64().is_some_and(|ms| ms > 2 * 86_400_000 - 60_000), "{heard}");
    // A day and a minute later (the test's clock): not yet; past a day left: reminded,
    // once.
    let now = dama_server::clock::now_ms();
    dama_server::sweep::run(&srv.state, now + 86_400_000 - 60_000).await;
    let kinds = |l: &[Value]| l.iter().filter(|n| n["kind"] == "time_running_out").count();
    assert_eq!(kinds(&inbox(a, &ann).await.0), 0);
    for _ in 0..2 {
        dama_server::sweep::run(&srv.state, now + 86_400_000 + 60_000).await;
    }
    let (list, _) = inbox(a, &ann).await;
    assert_eq!(kinds(&list), 1, "reminded once: {list:?}");
    assert!(list[0]["left_ms"].as_u64().is_some_and(|ms| ms <= 86_400_000), "{:?}", list[0]);
    assert_eq!(kinds(&inbox(a, &bob).await.0), 0, "Bob is not to move");
    // Ann resigns: both are told, each their result.
    use futures_util::SinkExt;
    let resign = json!({"type": "resign"}).to_string();
    ann_game.send(tokio_tungstenite::tungstenite::Message::Text(resign.into())).await.unwrap();
    for (who, result) in [(&ann, "loss"), (&bob, "win")] {
        let mut found = None;
        for _ in 0..50 {
            found = inbox(a, who).await.0.into_iter().find(|n| n["kind"] == "game_over");
            if found.is_some() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        assert_eq!(found.expect("told the end")["result"], result);
    }
}

async fn followers_hear_a_game_start_and_see_who_is_online(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob, cat) = (account(a, "ann").await, account(a, "bob").await, account(a, "cat").await);
    assert_eq!(call(a, "POST", "/api/players/ann/follow", Some(&bob), None).await.status, 200);
    let r = call(a, "GET", "/api/players/ann", Some(&bob), None).await;
    assert_eq!(r.body["online"], false, "{}", r.body);
    let (mut bob_ws, _) = inbox_ws(a, &bob).await;
    let (_ann_ws, _) = inbox_ws(a, &ann).await;
    let r = call(a, "GET", "/api/players/ann", Some(&bob), None).await;
    assert_eq!(r.body["online"], true, "{}", r.body);
    let r = call(a, "GET", "/api/me/following", Some(&bob), None).await;
    assert_eq!(r.body["players"][0]["online"], true, "{}", r.body);
    // Ann starts a game with Cat: Bob hears it (Cat, who does not follow her, not).
    let id = challenged(a, &cat, "ann", blitz()).await;
    let game = answer(a, &ann, &id, "accept", None).await.body["game"].as_str().unwrap().to_string();
    let heard = next_of(&mut bob_ws, "following_playing").await;
    assert_eq!((heard["name"].as_str(), heard["game"].as_str()), (Some("ann"), Some(game.as_str())));
    // Another origin's page cannot read an account's events.
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{a}/api/me/ws").into_client_request().unwrap();
    req.headers_mut().insert("cookie", format!("dama_session={bob}").parse().unwrap());
    req.headers_mut().insert("origin", "http://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err(), "refused before the upgrade");
    let r = call(a, "GET", "/api/me/notifications", None, None).await;
    assert_eq!(r.status, 401);
}

/// Reads `stream` until its text holds `want` (10 s at most): what was read.
async fn read_until(stream: &mut tokio::net::TcpStream, seen: &mut String, want: &str) {
    use tokio::io::AsyncReadExt;
    let mut buf = [0u8; 4096];
    let until = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    while !seen.contains(want) {
        let n = tokio::time::timeout_at(until, stream.read(&mut buf)).await.expect("in time").unwrap();
        assert!(n > 0, "the stream ended: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
}

async fn a_program_hears_a_challenge_on_its_event_stream_and_accepts_it(db: String) {
    use tokio::io::AsyncWriteExt;
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob) = (account(a, "ann").await, account(a, "bob").await);
    let r = call(a, "POST", "/api/tokens", Some(&bob), Some(json!({"scopes": ["bot:play"]}))).await;
    let token = r.body["token"].as_str().unwrap().to_string();
    // Bob's program listens to his events, as lichess's bots do.
    let mut stream = tokio::net::TcpStream::connect(a).await.unwrap();
    let get = format!("GET /api/stream/event HTTP/1.1\r\nHost: {a}\r\nAuthorization: Bearer {token}\r\n\r\n");
    stream.write_all(get.as_bytes()).await.unwrap();
    let mut seen = String::new();
    read_until(&mut stream, &mut seen, "200 OK").await;
    let id = challenged(a, &ann, "bob", blitz()).await;
    read_until(&mut stream, &mut seen, &id).await;
    assert!(seen.contains(r#""type":"challenge""#) && seen.contains(r#""from":"ann""#), "{seen}");
    assert!(!seen.contains("notification"), "the pages' events are not the program's: {seen}");
    // It accepts with its token: the game starts, and the stream says so.
    let auth = format!("Bearer {token}");
    let path = format!("/api/challenges/{id}/accept");
    let r = dama_server::client::request(a, "POST", &path, &[("Authorization", &auth)], None).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let game = r.body["game"].as_str().unwrap();
    read_until(&mut stream, &mut seen, &format!(r#""id":"{game}""#)).await;
    assert!(seen.contains(r#""type":"gameStart""#), "{seen}");
}
