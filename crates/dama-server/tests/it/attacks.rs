//! The account layer under attack: each test replays one attack of the account-hardening
//! issue (S1-S9) against a real server and checks it now holds; on SQLite and
//! PostgreSQL where storage is involved. Clients "from their own address" connect from
//! addresses of their own on loopback (127.0.x.y).

use std::net::{IpAddr, SocketAddr};

use dama_server::client::{request, request_from, Reply};
use dama_server::Limits;
use serde_json::json;

use crate::common::*;

on_both!(cookie_writes_from_another_origin_are_refused, puzzle_ratings_cannot_be_pushed_by_clients);

/// Limits for these tests: no background scans of the bundled collections.
fn quiet() -> Limits {
    Limits { explorer_bundled: Some(false), puzzles_bundled: Some(false), idle_ms: Some(300), ..Limits::default() }
}

/// The `n`th loopback address of its own.
fn own(n: u32) -> IpAddr {
    IpAddr::from([127, 0, 1 + (n / 250) as u8, 1 + (n % 250) as u8])
}

fn cookie_of(r: &Reply, name: &str) -> String {
    let all: Vec<&str> = r.headers.iter().filter(|(k, _)| k == "set-cookie").map(|(_, v)| v.as_str()).collect();
    let c = all.iter().find(|c| c.starts_with(&format!("{name}="))).unwrap_or_else(|| panic!("no {name}: {all:?}"));
    c[name.len() + 1..].split(';').next().unwrap().to_string()
}

async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let body = json!({"name": name, "password": "a good password"}).to_string();
    let r = request(addr, "POST", "/api/accounts", &[], Some(&body)).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    cookie_of(&r, "dama_session")
}

/// S1: 60 sign-ups at once, each from its own address, against a bound of 2 hashes
/// and a 300 ms wait: never more than 2 hashes run, the others wait their turn or get
/// 503 with Retry-After, the health check answers meanwhile, and the hashes' work
/// areas are given back at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_sign_ups_hashes_under_the_bound() {
    let limits = Limits { password_hashes: Some(2), password_wait_ms: Some(300), ..quiet() };
    let srv = start_with(&temp_db("s1-flood"), limits).await;
    let a = srv.addr;
    let flood: Vec<_> = (0..60)
        .map(|i| {
            tokio::spawn(async move {
                let body = json!({"name": format!("flood{i}"), "password": "a good password"}).to_string();
                request_from(a, Some(own(i)), "POST", "/api/accounts", &[], Some(&body)).await.unwrap()
            })
        })
        .collect();
    let health = request(a, "GET", "/healthz", &[], None).await.unwrap();
    assert_eq!(health.status, 200);
    let (mut created, mut busy) = (0, 0);
    for f in flood {
        let r = f.await.unwrap();
        match r.status {
            201 => created += 1,
            503 => {
                busy += 1;
                assert_eq!(r.header("retry-after"), Some("2"), "{:?}", r.headers);
                assert!(r.body["error"].as_str().unwrap().contains("busy"), "{}", r.body);
            }
            s => panic!("{s}: {}", r.body),
        }
    }
    assert!(created >= 2 && busy >= 1, "{created} created, {busy} refused");
    assert_eq!(srv.state.hasher.peak(), 2, "never more than the bound at once");
    assert_eq!(srv.state.hasher.spare_areas(), 0, "the work areas are given back");
    // The server goes on: one more sign-up works.
    sign_up(a, "after_flood").await;
}

/// S8: a log-in for a name nobody has does the same work as a wrong password (one
/// hash of the same cost), so its time does not tell which names exist.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_name_costs_a_hash_like_a_wrong_password() {
    let srv = start_with(&temp_db("s8-timing"), quiet()).await;
    let a = srv.addr;
    sign_up(a, "ann").await;
    let guest = request(a, "POST", "/api/guests", &[], Some(r#"{"name": "gus"}"#)).await.unwrap();
    assert_eq!(guest.status, 201);
    let hasher = &srv.state.hasher;
    for name in ["ann", "nobody", "gus"] {
        let before = hasher.computed();
        let body = json!({"name": name, "password": "wrong password"}).to_string();
        let r = request(a, "POST", "/api/session", &[], Some(&body)).await.unwrap();
        assert_eq!((r.status, &r.body["error"]), (401, &json!("wrong name or password")), "{name}");
        assert_eq!(hasher.computed() - before, 1, "{name}: one hash, as for every log-in");
    }
}

/// S3: with the victim's cookie, a page of another origin (another port of the same
/// host: the same site, so SameSite=Lax sends the cookie) or a form's text/plain body
/// may not create a game, a seek, or accept one; the site's own page may.
async fn cookie_writes_from_another_origin_are_refused(db: String) {
    let srv = start_with(&db, quiet()).await;
    let a = srv.addr;
    let victim = format!("dama_session={}", sign_up(a, "victim").await);
    let other = format!("dama_session={}", sign_up(a, "other").await);
    let (_, seek) = http(a, "POST", "/api/seeks", None, Some(r#"{"variant": "english"}"#)).await;
    let seek_id = seek["id"].as_str().unwrap().to_string();
    let accept = format!("/api/seeks/{seek_id}/accept");
    let writes = [
        ("/api/games", r#"{"variant": "english", "mode": "open"}"#),
        ("/api/seeks", r#"{"variant": "english"}"#),
        (accept.as_str(), ""),
        ("/api/tokens", ""),
        ("/api/accounts/password", r#"{"password": "a new password"}"#),
    ];
    for (path, body) in writes {
        for extra in [
            vec![("Origin", "http://dama:9999")],
            vec![("Origin", "null")],
            vec![("Sec-Fetch-Site", "same-site")],
            vec![("Origin", "http://dama"), ("Content-Type", "text/plain")],
            vec![("Content-Type", "application/x-www-form-urlencoded")],
        ] {
            let mut h = vec![("Cookie", victim.as_str())];
            h.extend(extra.iter().copied());
            let r = request(a, "POST", path, &h, Some(body)).await.unwrap();
            assert_eq!(r.status, 403, "{path} {extra:?}: {}", r.body);
        }
    }
    // Nothing was done in the victim's name: no seek of theirs, the seek still open.
    let (_, list) = http(a, "GET", "/api/seeks", None, None).await;
    assert_eq!(list["seeks"].as_array().unwrap().len(), 1, "{list}");
    // Logging out and logging in from another origin are refused too.
    let h = [("Cookie", victim.as_str()), ("Origin", "http://evil.example")];
    assert_eq!(request(a, "DELETE", "/api/session", &h, None).await.unwrap().status, 403);
    let creds = json!({"name": "victim", "password": "a good password"}).to_string();
    let r = request(a, "POST", "/api/session", &[("Origin", "http://evil.example")], Some(&creds)).await.unwrap();
    assert_eq!(r.status, 403);
    // The site's own page, sending JSON, does all of it.
    let r = request(a, "POST", "/api/seeks", &same(&victim), Some(r#"{"variant": "english"}"#)).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let r = request(a, "POST", &accept, &same(&other), None).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let r = request(a, "POST", "/api/games", &same(&victim), Some(r#"{"variant": "english", "mode": "open"}"#)).await;
    assert_eq!(r.unwrap().status, 201);
}

/// Headers of a request from the site's own page with this cookie.
fn same(cookie: &str) -> [(&str, &str); 2] {
    [("Cookie", cookie), ("Origin", "http://dama")]
}

/// S7: a client cannot push a puzzle's rating: the server keeps the solver's rating,
/// ignores one the client sends, counts one attempt per solver and puzzle, needs a
/// solver (an account or the visitor cookie), moves puzzles' ratings at most
/// `puzzle_attempts_per_minute` times a minute per address, and keeps ratings within
/// bounds.
async fn puzzle_ratings_cannot_be_pushed_by_clients(db: String) {
    let limits = Limits { puzzle_attempts_per_minute: Some(5), ..quiet() };
    let srv = start_with(&db, limits).await;
    let a = srv.addr;
    let row = dama_server::store::PuzzleRow {
        id: "p1".into(),
        variant: "russian".into(),
        fen: "W:Wh6,a1:Bg7,c5,d2".into(),
        line: "h6:f8:b4:e1".into(),
        source: "test".into(),
        rating: 1500,
        attempts: 0,
        solved: 0,
    };
    srv.state.store().add_puzzle(&row).await.unwrap();
    let rating_of = || async { srv.state.store().puzzle("p1").await.unwrap().unwrap().rating };
    let claim = json!({"solved": true, "rating": i64::MAX}).to_string();
    // Without a solver: refused, 300 times.
    for _ in 0..300 {
        let r = request(a, "POST", "/api/puzzles/p1/attempt", &[], Some(&claim)).await.unwrap();
        assert_eq!(r.status, 403, "{}", r.body);
    }
    assert_eq!(rating_of().await, 1500);
    // A visitor gets its cookie with the puzzle, and its rating from the server.
    let r = request(a, "GET", "/api/puzzles/next?variant=russian&rating=100", &[], None).await.unwrap();
    assert_eq!((r.status, &r.body["rating"], &r.body["puzzle"]["id"]), (200, &json!(1500), &json!("p1")));
    let visitor = format!("dama_visitor={}", cookie_of(&r, "dama_visitor"));
    let h = [("Cookie", visitor.as_str())];
    let first = request(a, "POST", "/api/puzzles/p1/attempt", &h, Some(&claim)).await.unwrap();
    assert_eq!(first.status, 200, "{}", first.body);
    // Counted at the server's 1500, not the client's i64::MAX: +16 and -8.
    assert_eq!(first.body, json!({"rating": 1516, "change": 16, "puzzle_rating": 1492, "counted": true}));
    for _ in 0..50 {
        let r = request(a, "POST", "/api/puzzles/p1/attempt", &h, Some(&claim)).await.unwrap();
        assert_eq!((r.status, &r.body["counted"], &r.body["change"]), (200, &json!(false), &json!(0)));
    }
    assert_eq!(rating_of().await, 1492, "one attempt per solver and puzzle");
    let r = request(a, "GET", "/api/puzzles/next?variant=russian", &h, None).await.unwrap();
    assert_eq!(r.body["rating"], 1516, "the server keeps the solver's rating");
    // Twenty fresh visitors from one address: the first 4 more move the puzzle (5 a
    // minute), the others count for themselves only.
    for _ in 0..20 {
        let r = request(a, "GET", "/api/puzzles/next?variant=russian", &[], None).await.unwrap();
        let v = format!("dama_visitor={}", cookie_of(&r, "dama_visitor"));
        let r = request(a, "POST", "/api/puzzles/p1/attempt", &[("Cookie", v.as_str())], Some(&claim)).await.unwrap();
        assert_eq!((r.status, &r.body["counted"]), (200, &json!(true)));
    }
    let after = rating_of().await;
    assert!((1450..1492).contains(&after), "4 more solves at most moved it: {after}");
    let p = srv.state.store().puzzle("p1").await.unwrap().unwrap();
    assert_eq!(p.attempts, 21);
    // Ratings stay within bounds whatever is stored.
    sqlx_set_rating(&srv, "p1", -382).await;
    let r = request(a, "GET", "/api/puzzles/next?variant=russian", &[], None).await.unwrap();
    let v = format!("dama_visitor={}", cookie_of(&r, "dama_visitor"));
    let fail = json!({"solved": false}).to_string();
    let r = request(a, "POST", "/api/puzzles/p1/attempt", &[("Cookie", v.as_str())], Some(&fail)).await.unwrap();
    assert!(r.body["puzzle_rating"].as_i64().unwrap() >= 100, "{}", r.body);
}

/// Sets a puzzle's rating directly in the database (as an older server could have).
async fn sqlx_set_rating(srv: &Server, id: &str, rating: i64) {
    srv.state.store().set_puzzle_rating(id, rating).await.unwrap();
}

/// S9: every answer carries the security headers; the log-in cookie is `Secure` when
/// the site is served over TLS (the setting, or the proxy's X-Forwarded-Proto).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_headers_and_secure_cookies() {
    let srv = start_with(&temp_db("s9-plain"), quiet()).await;
    for path in ["/", "/assets/app.js", "/api/variants", "/nothing-here", "/game/abcdefabcdef"] {
        let r = request(srv.addr, "GET", path, &[], None).await.unwrap();
        let csp = r.header("content-security-policy").unwrap_or_else(|| panic!("{path}: no CSP"));
        assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(!csp.contains("script-src 'self' 'unsafe"), "{csp}");
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "{path}");
    }
    let body = |n: &str| json!({"name": n, "password": "a good password"}).to_string();
    let r = request(srv.addr, "POST", "/api/accounts", &[], Some(&body("plain"))).await.unwrap();
    assert!(!r.header("set-cookie").unwrap().contains("Secure"), "plain HTTP: not Secure");

    let secure = Limits { secure_cookies: Some(true), ..quiet() };
    let srv = start_with(&temp_db("s9-tls"), secure).await;
    let r = request(srv.addr, "POST", "/api/accounts", &[], Some(&body("tls"))).await.unwrap();
    assert!(r.header("set-cookie").unwrap().contains("; Secure"), "{:?}", r.header("set-cookie"));

    let proxied = Limits { forwarded_for: Some(true), ..quiet() };
    let srv = start_with(&temp_db("s9-proxy"), proxied).await;
    let h = [("X-Forwarded-Proto", "https"), ("X-Forwarded-For", "5.5.5.5")];
    let r = request(srv.addr, "POST", "/api/accounts", &h, Some(&body("proxied"))).await.unwrap();
    assert!(r.header("set-cookie").unwrap().contains("; Secure"));
    let h = [("X-Forwarded-Proto", "http"), ("X-Forwarded-For", "5.5.5.6")];
    let r = request(srv.addr, "POST", "/api/accounts", &h, Some(&body("plainproxy"))).await.unwrap();
    assert!(!r.header("set-cookie").unwrap().contains("Secure"));
}
