//! Accounts: sign-up, log-in sessions in a cookie, log-out, the player page, and the
//! limits on guessing passwords; on SQLite and PostgreSQL.

use std::net::SocketAddr;

use dama_server::client::{request, Reply};
use dama_server::Limits;
use serde_json::{json, Value};

mod common;
use common::*;

on_both!(sign_up_log_in_log_out_and_the_player_page);

async fn call(addr: SocketAddr, method: &str, path: &str, cookie: Option<&str>, body: Option<Value>) -> Reply {
    let cookie = cookie.map(|c| format!("dama_session={c}"));
    let headers: Vec<(&str, &str)> = cookie.as_deref().map(|c| ("Cookie", c)).into_iter().collect();
    request(addr, method, path, &headers, body.map(|b| b.to_string()).as_deref()).await.expect("request")
}

/// The session token a reply sets, checking the cookie's attributes.
fn session_of(r: &Reply) -> String {
    let c = r.header("set-cookie").unwrap_or_else(|| panic!("no cookie: {}", r.body));
    for attr in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(c.contains(attr), "{c}");
    }
    c.strip_prefix("dama_session=").and_then(|c| c.split(';').next()).unwrap().to_string()
}

async fn sign_up_log_in_log_out_and_the_player_page(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let ann = json!({"name": "Ann_1", "password": "correct horse"});
    let r = call(a, "POST", "/api/accounts", None, Some(ann.clone())).await;
    assert_eq!((r.status, &r.body["name"]), (201, &json!("Ann_1")), "{}", r.body);
    let first = session_of(&r);
    assert_eq!(call(a, "GET", "/api/session", Some(&first), None).await.body, json!({"name": "Ann_1"}));
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
    let r = call(a, "GET", "/api/players/nobody", None, None).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.body["error"], "no player named 'nobody'");

    // Log out: the cookie is cleared and the session ends on the server; the other
    // session goes on.
    let r = call(a, "DELETE", "/api/session", Some(&second), None).await;
    assert_eq!(r.status, 200);
    assert!(r.header("set-cookie").unwrap().contains("Max-Age=0"));
    assert_eq!(call(a, "GET", "/api/session", Some(&second), None).await.body, json!({"name": null}));
    assert_eq!(call(a, "GET", "/api/session", Some(&first), None).await.body, json!({"name": "Ann_1"}));
    // A forged cookie is nobody.
    let forged = "0123456789abcdef0123456789abcdef";
    assert_eq!(call(a, "GET", "/api/session", Some(forged), None).await.body, json!({"name": null}));
}

/// A request from `client` (the server reads the address from X-Forwarded-For).
async fn from(addr: SocketAddr, client: &str, path: &str, body: Value) -> Reply {
    request(addr, "POST", path, &[("X-Forwarded-For", client)], Some(&body.to_string())).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_guessing_is_limited_per_account_and_per_address() {
    let limits = Limits { logins_per_minute: Some(3), forwarded_for: Some(true), ..Limits::default() };
    let srv = start_with(&temp_db("logins"), limits).await;
    let a = srv.addr;
    let bob = |password: &str| json!({"name": "bob", "password": password});
    assert_eq!(from(a, "1.1.1.1", "/api/accounts", bob("right password")).await.status, 201);
    // Three wrong guesses from three addresses lock the name for the minute, even
    // against the right password from a fourth.
    for client in ["2.2.2.1", "2.2.2.2", "2.2.2.3"] {
        assert_eq!(from(a, client, "/api/session", bob("guess guess")).await.status, 401);
    }
    let r = from(a, "3.3.3.3", "/api/session", bob("right password")).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("wait a minute"));
    // One address gets three sign-ups or log-ins a minute, whatever the names.
    for name in ["carl", "dora", "emil"] {
        let r = from(a, "4.4.4.4", "/api/accounts", json!({"name": name, "password": "a password"})).await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let r = from(a, "4.4.4.4", "/api/accounts", json!({"name": "fred", "password": "a password"})).await;
    assert_eq!(r.status, 429);
}
