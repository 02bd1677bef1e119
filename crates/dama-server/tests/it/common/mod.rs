//! What the server tests share: a real server on a free port (SQLite or PostgreSQL),
//! HTTP and websocket clients.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// A websocket client.
pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A server running in this process.
pub struct Server {
    pub addr: SocketAddr,
    pub task: tokio::task::JoinHandle<()>,
    pub state: dama_server::state::Services,
}

/// Starts a server on a free port over the database at `url`.
pub async fn start(url: &str) -> Server {
    // Finished games without watchers give their task back after 300 ms here, so
    // every test that looks at a finished game also exercises restoring it.
    // The bundled collections are left out of the opening explorer (the explorer's own
    // test counts them).
    let limits = dama_server::Limits {
        idle_ms: Some(300),
        explorer_bundled: Some(false),
        puzzles_bundled: Some(false),
        ..Default::default()
    };
    start_with(url, limits).await
}

/// Starts a server on a free port over the database at `url`, with these limits.
pub async fn start_with(url: &str, limits: dama_server::Limits) -> Server {
    let (router, state, _) = dama_server::app(url, limits).await.expect("app");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    // As the real server does: small frames go out at once.
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let task = tokio::spawn(async move {
        axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>()).await.unwrap();
    });
    Server { addr, task, state }
}

/// A fresh SQLite database file for a test.
pub fn temp_db(name: &str) -> String {
    let p = std::env::temp_dir().join(format!("dama-test-{name}-{}.sqlite", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", p.display()));
    }
    format!("sqlite:{}", p.display())
}

/// The PostgreSQL test database (`DAMA_TEST_POSTGRES_URL`, or the local server with
/// trust auth). In CI it must be there; elsewhere its absence skips with a note.
pub async fn postgres() -> Option<String> {
    let base =
        std::env::var("DAMA_TEST_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
    // Each test gets a database of its own, so tests and runs never meet.
    match fresh_database(&base).await {
        Ok(url) => Some(url),
        Err(e) if std::env::var("CI").is_ok() => panic!("PostgreSQL must be reachable in CI ({base}): {e}"),
        Err(e) => {
            eprintln!("skipping the PostgreSQL run: {e}");
            None
        }
    }
}

/// Creates a database of its own beside `base`'s and returns its URL: one per test, as
/// the tests share one process and a server restores the live games it finds.
pub async fn fresh_database(base: &str) -> Result<String, String> {
    dama_server::testing::fresh_postgres(base, "dama_test").await
}

/// Runs a scenario on SQLite and on PostgreSQL.
#[macro_export]
macro_rules! on_both {
    ($($name:ident),*) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name(super::temp_db(stringify!($name))).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(url) = super::postgres().await {
                    super::$name(url).await
                }
            }
        }
    )*};
}

/// One HTTP/1.1 request; returns (status, JSON or text body).
pub async fn http(addr: SocketAddr, method: &str, path: &str, token: Option<&str>, body: Option<&str>) -> (u16, Value) {
    dama_server::client::http(addr, method, path, token, body).await.expect("request")
}

/// Creates a game: (id, token, color).
pub async fn create(addr: SocketAddr, body: Value) -> (String, String, String) {
    let v = create_full(addr, body).await;
    (v["id"].as_str().unwrap().into(), v["token"].as_str().unwrap().into(), v["color"].as_str().unwrap().into())
}

/// Creates a game; the whole answer (with `invite` for friend games).
pub async fn create_full(addr: SocketAddr, body: Value) -> Value {
    let (st, v) = http(addr, "POST", "/api/games", None, Some(&body.to_string())).await;
    assert_eq!(st, 201, "{v}");
    v
}

/// Takes the free seat of a friend game (with its invite) or an open game.
pub async fn join(addr: SocketAddr, id: &str, invite: Option<&str>) -> (u16, Value) {
    let body = json!({ "invite": invite }).to_string();
    http(addr, "POST", &format!("/api/games/{id}/join"), None, Some(&body)).await
}

/// Creates a friend game and has the friend join it: (id, creator's token, friend's token).
pub async fn friends(addr: SocketAddr, body: Value) -> (String, String, String) {
    let v = create_full(addr, body).await;
    let id = v["id"].as_str().unwrap().to_string();
    let (st, seat) = join(addr, &id, v["invite"].as_str()).await;
    assert_eq!(st, 200, "{seat}");
    (id, v["token"].as_str().unwrap().into(), seat["token"].as_str().unwrap().into())
}

/// The game now (must answer 200).
pub async fn snapshot(addr: SocketAddr, id: &str) -> Value {
    let (st, v) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(st, 200, "{v}");
    v
}

/// Plays a move over HTTP.
pub async fn mv(addr: SocketAddr, id: &str, token: &str, m: &str) -> (u16, Value) {
    http(
        addr,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(token),
        Some(&json!({"type": "move", "move": m}).to_string()),
    )
    .await
}

/// Plays the first legal move for the side to move until the game ends or `limit`.
pub async fn play_out(addr: SocketAddr, id: &str, tokens: &[(&str, &str)], limit: usize) -> Value {
    for _ in 0..limit {
        let s = snapshot(addr, id).await;
        if s["state"] == "finished" {
            return s;
        }
        let side = s["side_to_move"].as_str().unwrap();
        let Some((_, token)) = tokens.iter().find(|(c, _)| *c == side || *c == "both") else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        let legal = s["legal"].as_array().unwrap();
        if legal.is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        let m = legal[legal.len() / 2]["long"].as_str().unwrap();
        let (st, v) = mv(addr, id, token, m).await;
        assert!(st == 200 || st == 409, "{st} {v}");
    }
    snapshot(addr, id).await
}

/// A websocket to a game, with its hello frame sent (the seat token goes there).
pub async fn ws(addr: SocketAddr, id: &str, token: Option<&str>) -> Ws {
    ws_since(addr, id, token, None).await
}

/// A websocket that resumes after version `since`.
pub async fn ws_since(addr: SocketAddr, id: &str, token: Option<&str>, since: Option<u64>) -> Ws {
    let (mut s, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.unwrap();
    let hello = json!({"type": "hello", "token": token, "since": since});
    s.send(Message::Text(hello.to_string().into())).await.unwrap();
    s
}

/// The next JSON message (10 s at most), past the players' connection reports (they
/// come whenever a player's measured round trip changes band).
pub async fn next_json(s: &mut Ws) -> Value {
    loop {
        let m =
            tokio::time::timeout(Duration::from_secs(10), s.next()).await.expect("a message in time").unwrap().unwrap();
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] != "connection" {
                return v;
            }
        }
    }
}

/// Nothing but connection reports comes on `s` within `ms`.
pub async fn quiet_for(s: &mut Ws, ms: u64) -> Result<(), Value> {
    match tokio::time::timeout(Duration::from_millis(ms), next_json(s)).await {
        Err(_) => Ok(()),
        Ok(v) => Err(v),
    }
}

/// The next message of type `ty`, skipping game events of other types.
pub async fn next_of(s: &mut Ws, ty: &str) -> Value {
    for _ in 0..20 {
        let v = next_json(s).await;
        if v["type"] == ty {
            return v;
        }
    }
    panic!("no '{ty}' message");
}

/// Acts over HTTP.
pub async fn act(addr: SocketAddr, id: &str, token: &str, body: Value) -> (u16, Value) {
    http(addr, "POST", &format!("/api/games/{id}/actions"), Some(token), Some(&body.to_string())).await
}

/// A request with the log-in cookie's token `cookie`, if any.
pub async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> dama_server::client::Reply {
    let cookie = cookie.map(|c| format!("dama_session={c}"));
    let headers: Vec<(&str, &str)> = cookie.as_deref().map(|c| ("Cookie", c)).into_iter().collect();
    dama_server::client::request(addr, method, path, &headers, body.map(|b| b.to_string()).as_deref())
        .await
        .expect("request")
}

/// The log-in token a reply's cookie sets, checking the cookie's attributes.
pub fn session_of(r: &dama_server::client::Reply) -> String {
    let c = r.header("set-cookie").unwrap_or_else(|| panic!("no cookie: {}", r.body));
    for attr in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(c.contains(attr), "{c}");
    }
    c.strip_prefix("dama_session=").and_then(|c| c.split(';').next()).unwrap().to_string()
}

/// Signs `name` up (password "a good password") and returns its log-in token.
pub async fn account(addr: SocketAddr, name: &str) -> String {
    let r = call(addr, "POST", "/api/accounts", None, Some(json!({"name": name, "password": "a good password"}))).await;
    assert_eq!(r.status, 201, "{}", r.body);
    session_of(&r)
}

/// The account's live socket (`/api/me/ws`) as a page of the site opens it, with its
/// first frame (the unread count) read.
pub async fn inbox_ws(addr: SocketAddr, cookie: &str) -> (Ws, Value) {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/me/ws").into_client_request().unwrap();
    req.headers_mut().insert("cookie", format!("dama_session={cookie}").parse().unwrap());
    req.headers_mut().insert("origin", format!("http://{addr}").parse().unwrap());
    let (mut s, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let first = next_json(&mut s).await;
    (s, first)
}

/// The account's notifications, newest first, and how many are unread.
pub async fn inbox(addr: SocketAddr, cookie: &str) -> (Vec<Value>, i64) {
    let r = call(addr, "GET", "/api/me/notifications", Some(cookie), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    (r.body["notifications"].as_array().unwrap().clone(), r.body["unread"].as_i64().unwrap())
}

/// A game's websocket opened by a page of origin `origin` of a browser logged in with
/// `cookie` (no seat token), its hello sent.
pub async fn ws_logged_in(addr: SocketAddr, id: &str, cookie: &str, origin: &str) -> Ws {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/games/{id}/ws").into_client_request().unwrap();
    req.headers_mut().insert("cookie", format!("dama_session={cookie}").parse().unwrap());
    req.headers_mut().insert("origin", origin.parse().unwrap());
    let (mut s, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    use futures_util::SinkExt;
    let hello = json!({"type": "hello"}).to_string();
    s.send(tokio_tungstenite::tungstenite::Message::Text(hello.into())).await.unwrap();
    s
}
