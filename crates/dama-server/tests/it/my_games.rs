//! "My games": a player's games waiting or being played, their move first (least time
//! left first), each with the time its side to move has left; on SQLite and PostgreSQL,
//! and the page in a browser.

use std::net::SocketAddr;

use serde_json::{json, Value};

use crate::common::*;
use crate::web::{browser, click, find, sign_up, start as start_browser, text, until};

on_both!(my_games_put_the_players_move_first, a_players_log_in_holds_their_seat_from_another_browser);

/// Ann creates an English open game (`color` hers, `time` its clock) and, unless
/// `alone`, Bob joins it: its id and the two seat tokens.
async fn game(a: SocketAddr, ann: &str, bob: &str, color: &str, time: Value, alone: bool) -> (String, String, String) {
    let body = json!({"variant": "english", "mode": "open", "color": color, "time": time});
    let r = call(a, "POST", "/api/games", Some(ann), Some(body)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_str().unwrap().to_string();
    let ann_token = r.body["token"].as_str().unwrap().to_string();
    if alone {
        return (id, ann_token, String::new());
    }
    let r = call(a, "POST", &format!("/api/games/{id}/join"), Some(bob), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    (id, ann_token, r.body["token"].as_str().unwrap().to_string())
}

/// Ann's five games: her move on a 5-minute clock (g1) and in a 2-day correspondence
/// game (g2), Bob's move (g3), one waiting for an opponent (g4), one she resigned (g5).
async fn five_games(a: SocketAddr, ann: &str, bob: &str) -> [String; 5] {
    let fischer = |m: u64| json!({"kind": "fischer", "initial_ms": m * 60_000, "increment_ms": 2000});
    // English: Black moves first.
    let (g1, ..) = game(a, ann, bob, "black", fischer(5), false).await;
    let (g2, _, bob2) = game(a, ann, bob, "white", json!({"kind": "correspondence", "days": 2}), false).await;
    let snap = snapshot(a, &g2).await;
    assert_eq!(mv(a, &g2, &bob2, snap["legal"][0]["notation"].as_str().unwrap()).await.0, 200);
    let (g3, ..) = game(a, ann, bob, "white", fischer(3), false).await;
    let (g4, ..) = game(a, ann, bob, "white", fischer(3), true).await;
    let (g5, ann5, _) = game(a, ann, bob, "white", fischer(3), false).await;
    assert_eq!(act(a, &g5, &ann5, json!({"type": "resign"})).await.0, 200);
    [g1, g2, g3, g4, g5]
}

async fn my_games_put_the_players_move_first(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob) = (account(a, "ann").await, account(a, "bob").await);
    let [g1, g2, g3, g4, g5] = five_games(a, &ann, &bob).await;
    let r = call(a, "GET", "/api/me/games", None, None).await;
    assert_eq!(r.status, 401, "a log-in is needed: {}", r.body);
    let r = call(a, "GET", "/api/me/games", Some(&ann), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let games = r.body["games"].as_array().unwrap().clone();
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    // Her move first, the 5-minute game (less time left) before the 2-day one; then
    // Bob's move and the game waiting for an opponent; the finished game is not listed.
    assert_eq!(ids, [g1.as_str(), g2.as_str(), g3.as_str(), g4.as_str()], "{}", r.body);
    assert!(!ids.contains(&g5.as_str()));
    let turns: Vec<bool> = games.iter().map(|g| g["my_turn"].as_bool().unwrap()).collect();
    assert_eq!(turns, [true, true, false, false]);
    // The time each side to move has left: nearly 5 minutes (the first move's time is
    // not charged), nearly 2 days; nothing for the waiting game.
    let left = |i: usize| games[i]["time_left_ms"].as_u64();
    assert!(left(0).is_some_and(|ms| ms > 290_000 && ms <= 300_000), "{:?}", left(0));
    assert!(left(1).is_some_and(|ms| ms > 2 * 86_400_000 - 60_000 && ms <= 2 * 86_400_000), "{:?}", left(1));
    assert_eq!(left(3), None);
    assert_eq!((&games[0]["color"], &games[0]["opponent"]["name"]), (&json!("black"), &json!("bob")));
    assert_eq!((&games[3]["state"], &games[3]["opponent"]["name"]), (&json!("waiting"), &Value::Null));
    // Bob sees his side: his move in g3 only, among the three he plays.
    let r = call(a, "GET", "/api/me/games", Some(&bob), None).await;
    let ids: Vec<&str> = r.body["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [g3.as_str(), g1.as_str(), g2.as_str()], "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_my_games_page_lists_the_players_move_first() {
    let Some((addr, d)) = start_browser("my-games").await else { return };
    let c = browser(&d, 1024, 800, "en-US").await;
    sign_up(&c, addr, "ann").await;
    let r = call(addr, "POST", "/api/session", None, Some(json!({"name": "ann", "password": "a good password"}))).await;
    let ann = session_of(&r);
    let bob = account(addr, "bob").await;
    let [g1, ..] = five_games(addr, &ann, &bob).await;
    click(&c, "#my-games-link").await;
    find(&c, "#my-games tbody tr").await;
    assert_eq!(text(&c, "#mg-count").await, "Your move in 2 of them.");
    let first = text(&c, "#my-games tbody tr:first-child").await;
    assert!(first.contains("bob") && first.contains("Your move") && first.contains("5:00"), "{first}");
    let second = text(&c, "#my-games tbody tr:nth-child(2)").await;
    assert!(second.contains("1 d 23 h"), "{second}");
    // Opening the first goes to that game, where Ann holds her seat though the game
    // was begun elsewhere: her log-in holds it, and the board is hers to move on.
    click(&c, "#my-games tbody tr:first-child a.btn").await;
    until("the game", || async { c.current_url().await.unwrap().path() == format!("/game/{g1}") }).await;
    find(&c, ".board.interactive").await;
    assert!(!text(&c, ".panel").await.contains("You are watching"));
    crate::web::shot(&c, "my-games").await;
    c.close().await.unwrap();
}

async fn a_players_log_in_holds_their_seat_from_another_browser(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob) = (account(a, "ann").await, account(a, "bob").await);
    // Ann (Black, to move first) begins the game elsewhere: this socket has no seat token.
    let (id, ..) =
        game(a, &ann, &bob, "black", json!({"kind": "fischer", "initial_ms": 300000, "increment_ms": 0}), false).await;
    let first = snapshot(a, &id).await["legal"][0]["long"].as_str().unwrap().to_string();
    // A page of another origin carries her cookie too, but holds no seat: refused.
    let mut foreign = ws_logged_in(a, &id, &ann, "http://evil.example").await;
    next_of(&mut foreign, "snapshot").await;
    use futures_util::SinkExt;
    let frame =
        |m: &str| tokio_tungstenite::tungstenite::Message::Text(json!({"type": "move", "move": m}).to_string().into());
    foreign.send(frame(&first)).await.unwrap();
    let e = next_of(&mut foreign, "error").await;
    assert_ne!(e["code"], "illegal_move", "{e}");
    assert_eq!(snapshot(a, &id).await["moves"].as_array().unwrap().len(), 0, "nothing played: {e}");
    // The site's own page, logged in as Ann: her seat, her move.
    let mut own = ws_logged_in(a, &id, &ann, &format!("http://{a}")).await;
    next_of(&mut own, "snapshot").await;
    own.send(frame(&first)).await.unwrap();
    next_of(&mut own, "move").await;
    assert_eq!(snapshot(a, &id).await["moves"].as_array().unwrap().len(), 1);
    // Bob's log-in holds Bob's seat only: Ann's colour is not his.
    let mut bobs = ws_logged_in(a, &id, &bob, &format!("http://{a}")).await;
    next_of(&mut bobs, "snapshot").await;
    let reply = snapshot(a, &id).await["legal"][0]["long"].as_str().unwrap().to_string();
    bobs.send(frame(&reply)).await.unwrap();
    next_of(&mut bobs, "move").await;
    assert_eq!(snapshot(a, &id).await["moves"].as_array().unwrap().len(), 2);
}
