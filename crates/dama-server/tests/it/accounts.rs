//! Accounts: sign-up, log-in sessions in a cookie, log-out, the player page, and the
//! limits on guessing passwords; on SQLite and PostgreSQL.

use std::net::SocketAddr;

use dama_server::client::{request, Reply};
use dama_server::Limits;
use serde_json::{json, Value};

use crate::common::*;

on_both!(
    sign_up_log_in_log_out_and_the_player_page,
    a_rated_blitz_game_changes_both_ratings,
    a_guest_plays_casual_games_then_claims_the_name
);

async fn sign_up_log_in_log_out_and_the_player_page(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let ann = json!({"name": "Ann_1", "password": "correct horse"});
    let r = call(a, "POST", "/api/accounts", None, Some(ann.clone())).await;
    assert_eq!((r.status, &r.body["name"]), (201, &json!("Ann_1")), "{}", r.body);
    let first = session_of(&r);
    assert_eq!(call(a, "GET", "/api/session", Some(&first), None).await.body, json!({"name": "Ann_1", "guest": false}));
    assert_eq!(call(a, "GET", "/api/session", None, None).await.body, json!({"name": null}));
    // The password is kept as an Argon2id hash only.
    let stored = srv.state.store().account_named("ann_1").await.unwrap().unwrap();
    assert!(stored.password_hash.starts_with("$argon2id$"), "{}", stored.password_hash);
    assert!(!stored.password_hash.contains("correct horse"));

    // Names are unique whatever their case; bad names and passwords say why.
    let r = call(a, "POST", "/api/accounts", None, Some(json!({"name": "ANN_1", "password": "another one"}))).await;
    assert_eq!(r.status, 409, "{}", r.body);
    for (body, says) in [
        (json!({"name": "a", "password": "long enough"}), "2 to 20"),
        (json!({"name": "ann smith", "password": "long enough"}), "letters"),
        (json!({"name": "bob", "password": "short"}), "8 to 128"),
        (json!({"name": "bob"}), "password"),
    ] {
        let r = call(a, "POST", "/api/accounts", None, Some(body)).await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body["error"].as_str().unwrap().contains(says), "{}", r.body);
    }

    // Log in: a wrong password and an unknown name get the same answer.
    let wrong = call(a, "POST", "/api/session", None, Some(json!({"name": "Ann_1", "password": "wrong horse"}))).await;
    let nobody = call(a, "POST", "/api/session", None, Some(json!({"name": "Zed", "password": "wrong horse"}))).await;
    assert_eq!((wrong.status, nobody.status), (401, 401));
    assert_eq!(wrong.body, nobody.body);
    assert!(wrong.header("set-cookie").is_none());
    let r = call(a, "POST", "/api/session", None, Some(json!({"name": "ann_1", "password": "correct horse"}))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let second = session_of(&r);
    assert_ne!(first, second);

    // A page of another site cannot use the account.
    let evil = [("Origin", "https://evil.example")];
    let body = json!({"name": "Ann_1", "password": "correct horse"}).to_string();
    let r = request(a, "POST", "/api/session", &evil, Some(&body)).await.unwrap();
    assert_eq!(r.status, 403, "{}", r.body);
    let same = [("Origin", "http://dama")];
    assert_eq!(request(a, "POST", "/api/session", &same, Some(&body)).await.unwrap().status, 200);

    // The player page.
    let r = call(a, "GET", "/api/players/ann_1", None, None).await;
    assert_eq!(r.status, 200);
    assert_eq!((&r.body["name"], &r.body["ratings"]), (&json!("Ann_1"), &json!({})), "{}", r.body);
    assert_eq!((&r.body["games"], &r.body["record"], &r.body["history"]), (&json!([]), &json!({}), &json!({})));
    let r = call(a, "GET", "/api/players/nobody", None, None).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.body["error"], "no player named 'nobody'");

    // Log out: the cookie is cleared and the session ends on the server; the other
    // session goes on.
    let r = call(a, "DELETE", "/api/session", Some(&second), None).await;
    assert_eq!(r.status, 200);
    assert!(r.header("set-cookie").unwrap().contains("Max-Age=0"));
    assert_eq!(call(a, "GET", "/api/session", Some(&second), None).await.body, json!({"name": null}));
    assert_eq!(call(a, "GET", "/api/session", Some(&first), None).await.body, json!({"name": "Ann_1", "guest": false}));
    // A forged cookie is nobody.
    let forged = "0123456789abcdef0123456789abcdef";
    assert_eq!(call(a, "GET", "/api/session", Some(forged), None).await.body, json!({"name": null}));
}

/// A request from `client` (the server reads the address from X-Forwarded-For).
async fn from(addr: SocketAddr, client: &str, path: &str, body: Value) -> Reply {
    request(addr, "POST", path, &[("X-Forwarded-For", client)], Some(&body.to_string())).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_guessing_is_limited_per_account_and_address_never_locking_the_owner_out() {
    let limits = Limits { logins_per_minute: Some(3), forwarded_for: Some(true), ..Limits::default() };
    let srv = start_with(&temp_db("logins"), limits).await;
    let a = srv.addr;
    let bob = |password: &str| json!({"name": "bob", "password": password});
    assert_eq!(from(a, "1.1.1.1", "/api/accounts", bob("right password")).await.status, 201);
    // Three wrong guesses from one address hold that address back for that name...
    for _ in 0..3 {
        assert_eq!(from(a, "2.2.2.1", "/api/session", bob("guess guess")).await.status, 401);
    }
    let r = from(a, "2.2.2.1", "/api/session", bob("another guess")).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("wait a minute"));
    // ...and nobody else: wrong guesses from many addresses never lock the name, and
    // its owner logs in from a fresh address (the S2: it used to get 429).
    for client in ["2.2.2.2", "2.2.2.3", "2.2.2.4", "2.2.2.5", "2.2.2.6"] {
        assert_eq!(from(a, client, "/api/session", bob("guess guess")).await.status, 401);
    }
    let r = from(a, "3.3.3.3", "/api/session", bob("right password")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // One address gets three sign-ups or log-ins a minute, whatever the names.
    for name in ["carl", "dora", "emil"] {
        let r = from(a, "4.4.4.4", "/api/accounts", json!({"name": name, "password": "a password"})).await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let r = from(a, "4.4.4.4", "/api/accounts", json!({"name": "fred", "password": "a password"})).await;
    assert_eq!(r.status, 429);
}

async fn a_rated_blitz_game_changes_both_ratings(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob) = (account(a, "ann").await, account(a, "bob").await);
    // 3 minutes + 2 seconds: 180 + 40 x 2 = 260 s, blitz.
    let rated = json!({"variant": "english", "mode": "open", "rated": true, "color": "white",
        "time": {"kind": "fischer", "initial_ms": 180000, "increment_ms": 2000}});
    let r = call(a, "POST", "/api/games", None, Some(rated.clone())).await;
    assert_eq!(r.status, 403, "a rated game needs an account: {}", r.body);
    let r = call(a, "POST", "/api/games", Some(&ann), Some(json!({"variant": "english", "mode": "ai", "rated": true})))
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = call(a, "POST", "/api/games", Some(&ann), Some(rated.clone())).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let (id, ann_token) = (r.body["id"].as_str().unwrap().to_string(), r.body["token"].as_str().unwrap().to_string());
    let join = format!("/api/games/{id}/join");
    let r = call(a, "POST", &join, None, None).await;
    assert_eq!((r.status, r.body["error"].as_str().unwrap()), (403, "log in to play a rated game"));
    let r = call(a, "POST", &join, Some(&ann), None).await;
    assert_eq!(r.status, 403, "{}", r.body);
    let r = call(a, "POST", &join, Some(&bob), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let bob_token = r.body["token"].as_str().unwrap().to_string();
    let snap = snapshot(a, &id).await;
    assert_eq!(snap["players"], json!([{"name": "ann", "rating": null}, {"name": "bob", "rating": null}]));
    assert_eq!(snap["options"]["rated"], true);

    // Ann (White) moves, Bob (Black) resigns.
    let first = snap["legal"][0]["notation"].as_str().unwrap().to_string();
    let side = snap["side_to_move"].as_str().unwrap();
    let (mover, other) = if side == "white" { (&ann_token, &bob_token) } else { (&bob_token, &ann_token) };
    assert_eq!(mv(a, &id, mover, &first).await.0, 200);
    let bob_resigns = if side == "white" { other } else { mover };
    assert_eq!(act(a, &id, bob_resigns, json!({"type": "resign"})).await.0, 200);

    // By hand, for two new players (1500, RD 350, σ 0.06) and a win: φ = 350/173.7178
    // = 2.01476, g(φ) = 0.66907, E = 0.5, v = 1/(g² E (1-E)) = 8.9355, Δ = v g (1 - E)
    // = 2.9892; σ' stays 0.06000 (Δ² < φ² + v), φ* = sqrt(φ² + σ'²) = 2.01565,
    // φ' = 1/sqrt(1/φ*² + 1/v) = 1.67120, μ' = φ'² g (1 - E) = 0.93433: 1500 + 173.7178
    // μ' = 1662.3 and RD 173.7178 φ' = 290.3; the loser the mirror image, 1337.7.
    let want = [
        ("ann", 1662, json!({"before": 1500, "after": 1662, "change": 162})),
        ("bob", 1338, json!({"before": 1500, "after": 1338, "change": -162})),
    ];
    for (name, rating, _) in &want {
        let r = call(a, "GET", &format!("/api/players/{name}"), None, None).await;
        assert_eq!(
            r.body["ratings"],
            json!({"english": {"blitz": {"rating": rating, "rd": 290, "games": 1, "provisional": true, "rank": null}}}),
            "{name}"
        );
    }
    let r = call(a, "GET", "/api/players/bob", None, None).await;
    assert_eq!(r.body["record"], json!({"english": {"win": 0, "draw": 0, "loss": 1}}));
    assert_eq!(r.body["history"]["english"]["blitz"][0][1], 1338);
    let g = &r.body["games"][0];
    assert_eq!(
        (&g["id"], &g["color"], &g["result"], &g["rated"], &g["speed"]),
        (&json!(id), &json!("black"), &json!("loss"), &json!(true), &json!("blitz")),
        "{g}"
    );
    // The game's PDN names the players.
    let (_, pdn) = http(a, "GET", &format!("/api/games/{id}/pdn"), None, None).await;
    let pdn = pdn.as_str().unwrap();
    assert!(pdn.contains("[White \"ann\"]") && pdn.contains("[Black \"bob\"]"), "{pdn}");
    // The game shows the changes, also once it has left memory and come back.
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    let snap = snapshot(a, &id).await;
    for (seat, (name, _, change)) in want.iter().enumerate() {
        assert_eq!(snap["players"][seat], json!({"name": name, "rating": change}), "{snap}");
    }

    // The player's PDN download holds the game exactly as the game's own PDN.
    let (_, one) = http(a, "GET", &format!("/api/games/{id}/pdn"), None, None).await;
    let (st, all) = http(a, "GET", "/api/players/bob/games.pdn", None, None).await;
    assert_eq!(st, 200);
    assert_eq!(all.as_str().unwrap().trim(), one.as_str().unwrap().trim());
    // An aborted rated game changes nothing.
    let r = call(a, "POST", "/api/games", Some(&ann), Some(rated)).await;
    let (id2, t2) = (r.body["id"].as_str().unwrap().to_string(), r.body["token"].as_str().unwrap().to_string());
    assert_eq!(call(a, "POST", &format!("/api/games/{id2}/join"), Some(&bob), None).await.status, 200);
    assert_eq!(act(a, &id2, &t2, json!({"type": "abort"})).await.0, 200);
    let r = call(a, "GET", "/api/players/ann", None, None).await;
    assert_eq!(r.body["ratings"]["english"]["blitz"]["games"], 1);
    let (_, all) = http(a, "GET", "/api/players/ann/games.pdn", None, None).await;
    assert_eq!(all.as_str().unwrap().matches("[Event ").count(), 1, "the aborted game is left out");
}

async fn a_guest_plays_casual_games_then_claims_the_name(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let r = call(a, "POST", "/api/guests", None, Some(json!({"name": "gus"}))).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let gus = session_of(&r);
    assert_eq!(call(a, "GET", "/api/session", Some(&gus), None).await.body, json!({"name": "gus", "guest": true}));
    assert_eq!(call(a, "POST", "/api/guests", None, Some(json!({"name": "GUS"}))).await.status, 409);
    // A guest plays casual games under its name, not rated ones.
    let rated = json!({"variant": "english", "mode": "open", "rated": true,
        "time": {"kind": "fischer", "initial_ms": 180000, "increment_ms": 2000}});
    let r = call(a, "POST", "/api/games", Some(&gus), Some(rated)).await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("set a password"), "{}", r.body);
    let r = call(
        a,
        "POST",
        "/api/games",
        Some(&gus),
        Some(json!({"variant": "russian", "mode": "open", "color": "white"})),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_str().unwrap().to_string();
    assert_eq!(snapshot(a, &id).await["players"][0]["name"], "gus");
    // No password logs it in from elsewhere, not even an empty one.
    for password in ["", "anything at all"] {
        let r = call(a, "POST", "/api/session", None, Some(json!({"name": "gus", "password": password}))).await;
        assert_eq!(r.status, 401, "{}", r.body);
    }
    // It claims the account: the name and the game stay, and the password logs in.
    assert_eq!(
        call(a, "POST", "/api/accounts/password", None, Some(json!({"password": "a good password"}))).await.status,
        401
    );
    let r = call(a, "POST", "/api/accounts/password", Some(&gus), Some(json!({"password": "a good password"}))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        call(a, "POST", "/api/accounts/password", Some(&gus), Some(json!({"password": "another one!"}))).await.status,
        409
    );
    let r = call(a, "POST", "/api/session", None, Some(json!({"name": "gus", "password": "a good password"}))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let page = call(a, "GET", "/api/players/gus", None, None).await.body;
    assert_eq!((&page["guest"], &page["games"][0]["id"]), (&json!(false), &json!(id)));
}
