//! Following players: a follower's home page lists the players they follow with the
//! games those are playing and their last one; on SQLite and PostgreSQL, and in a
//! browser.

use serde_json::json;

use crate::common::*;
use crate::web::{browser, click, find, sign_up, start as start_browser, text, until};

on_both!(a_player_follows_and_sees_the_games_of_those_they_follow);

/// Bob and Cat start a game of English on a 5-minute clock; Bob moves: it is live.
async fn bob_plays_cat(a: std::net::SocketAddr, bob: &str, cat: &str) -> (String, String) {
    let body = json!({"variant": "english", "mode": "open", "color": "black",
        "time": {"kind": "fischer", "initial_ms": 300000, "increment_ms": 0}});
    let r = call(a, "POST", "/api/games", Some(bob), Some(body)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_str().unwrap().to_string();
    let bob_token = r.body["token"].as_str().unwrap().to_string();
    assert_eq!(call(a, "POST", &format!("/api/games/{id}/join"), Some(cat), None).await.status, 200);
    let first = snapshot(a, &id).await["legal"][0]["notation"].as_str().unwrap().to_string();
    assert_eq!(mv(a, &id, &bob_token, &first).await.0, 200);
    (id, bob_token)
}

async fn a_player_follows_and_sees_the_games_of_those_they_follow(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob, cat) = (account(a, "ann").await, account(a, "bob").await, account(a, "cat").await);
    let (id, _) = bob_plays_cat(a, &bob, &cat).await;
    // Refusals: without a log-in, oneself, an unknown player.
    assert_eq!(call(a, "POST", "/api/players/bob/follow", None, None).await.status, 401);
    assert_eq!(call(a, "POST", "/api/players/ann/follow", Some(&ann), None).await.status, 400);
    assert_eq!(call(a, "POST", "/api/players/nobody/follow", Some(&ann), None).await.status, 404);
    // Ann follows Bob (twice: still once).
    for _ in 0..2 {
        let r = call(a, "POST", "/api/players/bob/follow", Some(&ann), None).await;
        assert_eq!((r.status, &r.body["following"]), (200, &json!(true)), "{}", r.body);
    }
    let r = call(a, "GET", "/api/me/following", Some(&ann), None).await;
    assert_eq!(
        r.body["players"],
        json!([{"name": "bob", "playing": [id], "online": false, "last": null}]),
        "{}",
        r.body
    );
    // Bob's page says Ann follows him, to Ann only.
    assert_eq!(call(a, "GET", "/api/players/bob", Some(&ann), None).await.body["following"], true);
    assert_eq!(call(a, "GET", "/api/players/bob", Some(&cat), None).await.body["following"], false);
    assert!(call(a, "GET", "/api/players/bob", None, None).await.body["following"].is_null());
    // A second game of Bob's ends (he resigns): it is his last, the first still live.
    let (done, token) = bob_plays_cat(a, &bob, &cat).await;
    assert_eq!(act(a, &done, &token, json!({"type": "resign"})).await.0, 200);
    let r = call(a, "GET", "/api/me/following", Some(&ann), None).await;
    assert_eq!(r.body["players"][0]["playing"], json!([id]), "{}", r.body);
    assert_eq!(r.body["players"][0]["last"]["id"], json!(done), "{}", r.body);
    assert_eq!(r.body["players"][0]["last"]["opponent"], json!("cat"), "{}", r.body);
    // No longer following: the list is empty.
    let r = call(a, "DELETE", "/api/players/bob/follow", Some(&ann), None).await;
    assert_eq!((r.status, &r.body["following"]), (200, &json!(false)));
    let r = call(a, "GET", "/api/me/following", Some(&ann), None).await;
    assert_eq!(r.body["players"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn following_from_a_players_page_shows_their_game_on_the_home_page() {
    let Some((addr, d)) = start_browser("follows").await else { return };
    let c = browser(&d, 1280, 900, "en-US").await;
    sign_up(&c, addr, "ann").await;
    let (bob, cat) = (account(addr, "bob").await, account(addr, "cat").await);
    let (id, _) = bob_plays_cat(addr, &bob, &cat).await;
    c.goto(&format!("http://{addr}/player/bob")).await.unwrap();
    click(&c, "#follow").await;
    until("following", || async { text(&c, "#follow").await.contains("stop") }).await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    find(&c, "#following").await;
    let section = text(&c, "#following").await;
    assert!(section.contains("bob") && section.contains("Playing now"), "{section}");
    click(&c, "#following a[href^='/game/']").await;
    until("Bob's game", || async { c.current_url().await.unwrap().path() == format!("/game/{id}") }).await;
    c.close().await.unwrap();
}
