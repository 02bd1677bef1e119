//! Rating pools: a game under a seed rulebook is rated in a pool of its own (seed 001:
//! `english-seed001`), apart from the official rules' pool; on SQLite and PostgreSQL.

use std::net::SocketAddr;

use serde_json::json;

use crate::common::*;

on_both!(a_seed_rulebook_rates_in_a_pool_of_its_own);

/// Ann creates a rated open game with `rules`, Bob joins, the side to move moves and
/// Bob resigns (or Ann, when Bob moved): Ann wins.
async fn ann_beats_bob(a: SocketAddr, ann: &str, bob: &str, rules: &str) {
    let body = json!({"variant": "english", "mode": "open", "rated": true, "color": "white", "rules": rules,
        "time": {"kind": "fischer", "initial_ms": 180000, "increment_ms": 2000}});
    let r = call(a, "POST", "/api/games", Some(ann), Some(body)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let (id, ann_token) = (r.body["id"].as_str().unwrap().to_string(), r.body["token"].as_str().unwrap().to_string());
    let r = call(a, "POST", &format!("/api/games/{id}/join"), Some(bob), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let bob_token = r.body["token"].as_str().unwrap().to_string();
    let snap = snapshot(a, &id).await;
    let first = snap["legal"][0]["notation"].as_str().unwrap().to_string();
    let mover = if snap["side_to_move"] == "white" { &ann_token } else { &bob_token };
    assert_eq!(mv(a, &id, mover, &first).await.0, 200);
    assert_eq!(act(a, &id, &bob_token, json!({"type": "resign"})).await.0, 200);
    until_rated(a, if rules == "official" { "english" } else { "english-seed001" }).await;
}

/// Waits until Ann's game under `rules` is rated (the rating follows the game's end).
async fn until_rated(a: SocketAddr, pool: &str) {
    for _ in 0..200 {
        let r = call(a, "GET", "/api/players/ann", None, None).await;
        if r.body["ratings"][pool]["blitz"]["games"] == 1 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("Ann's game in pool {pool} is not rated");
}

async fn a_seed_rulebook_rates_in_a_pool_of_its_own(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob) = (account(a, "ann").await, account(a, "bob").await);
    // A seed rulebook rates only the variant it was written for.
    let wrong = json!({"variant": "international", "mode": "open", "rated": true, "rules": "seed003",
        "time": {"kind": "fischer", "initial_ms": 180000, "increment_ms": 2000}});
    let r = call(a, "POST", "/api/games", Some(&ann), Some(wrong)).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("English"), "{}", r.body);

    // A win under seed 001: Ann 1662, Bob 1338 (two new players, as the accounts test
    // works out by hand), in the seed 001 pool only.
    ann_beats_bob(a, &ann, &bob, "seed001").await;
    let blitz = |r: i64| json!({"blitz": {"rating": r, "rd": 290, "games": 1, "provisional": true, "rank": null}});
    let r = call(a, "GET", "/api/players/ann", None, None).await;
    assert_eq!(r.body["ratings"], json!({"english-seed001": blitz(1662)}), "{}", r.body);
    let r = call(a, "GET", "/api/players/bob", None, None).await;
    assert_eq!(r.body["ratings"], json!({"english-seed001": blitz(1338)}), "{}", r.body);

    // The official rules' pool starts afresh: the same win gives the same numbers there,
    // and the seed pool stays as it was.
    ann_beats_bob(a, &ann, &bob, "official").await;
    let r = call(a, "GET", "/api/players/ann", None, None).await;
    assert_eq!(r.body["ratings"], json!({"english": blitz(1662), "english-seed001": blitz(1662)}), "{}", r.body);

    // A seek under seed 003 names its rulebook, and its seeker's rating is the one of
    // that pool: a newcomer's 1500 (Ann has none under seed 003), not her 1662.
    let body = json!({"variant": "english", "mode": "open", "rated": true, "rules": "seed003",
        "time": {"kind": "fischer", "initial_ms": 180000, "increment_ms": 2000}});
    let r = call(a, "POST", "/api/games", Some(&ann), Some(body)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let (_, seeks) = http(a, "GET", "/api/seeks", None, None).await;
    let seek = &seeks["seeks"][0];
    assert_eq!((&seek["rules"], &seek["rating"]), (&json!("seed003"), &json!(1500)), "{seeks}");
    // A seek offered in the lobby under seed 001 shows Ann's rating of that pool.
    let body = json!({"variant": "english", "rules": "seed001", "rated": true,
        "time": {"kind": "fischer", "initial_ms": 180000, "increment_ms": 2000}});
    let r = call(a, "POST", "/api/seeks", Some(&ann), Some(body)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let (_, seeks) = http(a, "GET", "/api/seeks", None, None).await;
    let seek = seeks["seeks"].as_array().unwrap().iter().find(|s| s["id"] == r.body["id"]).unwrap().clone();
    assert_eq!((&seek["rules"], &seek["rating"]), (&json!("seed001"), &json!(1662)), "{seeks}");
}
