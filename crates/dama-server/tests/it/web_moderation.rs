//! The account layer in a real browser (see `web.rs`): a page of another origin (the
//! same host, another port: the same site, so the log-in cookie goes with its
//! requests) cannot act for the logged-in player, and a moderator hides a reported
//! line and mutes its author from the moderation page.

use std::net::SocketAddr;

use dama_server::client::request;
use serde_json::{json, Value};

use crate::web::{browser, click, find, shot, sign_up, start, text, until};

/// Serves `page` at `/evil.html` on a port of its own of 127.0.0.1.
async fn other_origin(page: String) -> SocketAddr {
    let app =
        axum::Router::new().route("/evil.html", axum::routing::get(move || async move { axum::response::Html(page) }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

async fn get(addr: SocketAddr, path: &str) -> Value {
    request(addr, "GET", path, &[], None).await.unwrap().body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_on_another_port_cannot_act_for_a_logged_in_player() {
    let Some((addr, d)) = start("csrf").await else { return };
    // Someone else's seek, which the attack tries to accept in the victim's name.
    let (_, seek) =
        dama_server::client::http(addr, "POST", "/api/seeks", None, Some(r#"{"variant": "russian"}"#)).await.unwrap();
    let seek = seek["id"].as_str().unwrap().to_string();
    let c = browser(&d, 1280, 900, "en-US").await;
    sign_up(&c, addr, "victim").await;
    // The other origin's page sends what a page may send without a CORS preflight
    // (text/plain bodies, no-cors, with the cookies), and a JSON request that needs one.
    let base = format!("http://127.0.0.1:{}", addr.port());
    let page = format!(
        r#"<!doctype html><html><body><p id="done"></p><script>
(async () => {{
  const base = '{base}';
  const plain = (path, body) => fetch(base + path, {{ method: 'POST', mode: 'no-cors', credentials: 'include',
    headers: {{ 'content-type': 'text/plain' }}, body }}).catch(() => null);
  await plain('/api/seeks', '{{"variant": "english"}}');
  await plain('/api/games', '{{"variant": "english", "mode": "open"}}');
  await plain('/api/seeks/{seek}/accept', '');
  await plain('/api/tokens', '');
  await fetch(base + '/api/seeks', {{ method: 'POST', credentials: 'include',
    headers: {{ 'content-type': 'application/json' }}, body: '{{"variant": "english"}}' }}).catch(() => null);
  document.getElementById('done').textContent = 'done';
}})();
</script></body></html>"#
    );
    let evil = other_origin(page).await;
    c.goto(&format!("http://127.0.0.1:{}/evil.html", evil.port())).await.unwrap();
    until("the other page's requests", || async { text(&c, "#done").await == "done" }).await;
    shot(&c, "csrf-1-other-origin").await;
    // Nothing was done in the victim's name: the one seek is still the other's, open.
    let seeks = get(addr, "/api/seeks").await;
    let list = seeks["seeks"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{seeks}");
    assert_eq!(list[0]["id"], seek.as_str());
    assert_eq!(get(addr, "/api/players/victim").await["games"], json!([]));
    // The site's own page, with the same cookie, does what it asks.
    c.goto(&format!("{base}/")).await.unwrap();
    find(&c, "#me").await;
    let status: Value = c
        .execute_async(
            "const done = arguments[0]; fetch('/api/seeks', { method: 'POST', headers: { 'content-type': \
             'application/json' }, body: JSON.stringify({ variant: 'english' }) }).then((r) => done(r.status))",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(status, 201);
    assert_eq!(get(addr, "/api/seeks").await["seeks"].as_array().unwrap().len(), 2);
}

/// An account's session cookie, signed up through the API.
async fn account(addr: SocketAddr, name: &str) -> String {
    let body = json!({"name": name, "password": "a good password"}).to_string();
    let r = request(addr, "POST", "/api/accounts", &[], Some(&body)).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let c = r.header("set-cookie").unwrap();
    c.split(';').next().unwrap().to_string()
}

async fn say(addr: SocketAddr, id: &str, token: &str, line: &str) -> u16 {
    let body = json!({"type": "chat", "text": line}).to_string();
    request(addr, "POST", &format!("/api/games/{id}/actions"), &[("x-dama-token", token)], Some(&body))
        .await
        .unwrap()
        .status
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moderator_hides_a_reported_line_and_mutes_its_author() {
    let Some((addr, d)) = start("moderation").await else { return };
    // Ann (an account) and Bob play a friend game; Ann is rude twice, Bob reports it.
    let ann = account(addr, "ann").await;
    let friend = r#"{"variant": "english", "mode": "friend"}"#;
    let g = request(addr, "POST", "/api/games", &[("Cookie", &ann)], Some(friend)).await.unwrap().body;
    let (id, ann_token) = (g["id"].as_str().unwrap().to_string(), g["token"].as_str().unwrap().to_string());
    let body = json!({"invite": g["invite"]}).to_string();
    let bob = request(addr, "POST", &format!("/api/games/{id}/join"), &[], Some(&body)).await.unwrap().body;
    let (bob_token, bob_color) = (bob["token"].as_str().unwrap(), bob["color"].as_str().unwrap());
    assert_eq!(say(addr, &id, &ann_token, "you are a patzer").await, 200);
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    assert_eq!(say(addr, &id, &ann_token, "and worse").await, 200);
    for n in [1, 2] {
        let path = format!("/api/games/{id}/chat/{n}/report");
        let r = request(addr, "POST", &path, &[], Some(r#"{"reason": "insult"}"#)).await.unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // Bob watches the game page, with the lines in his chat.
    let b = browser(&d, 1280, 900, "en-US").await;
    b.goto(&format!("http://{addr}/")).await.unwrap();
    let seat = json!({"token": bob_token, "color": bob_color}).to_string();
    b.execute(&format!("localStorage.setItem('dama.seat.{id}', {})", serde_json::to_string(&seat).unwrap()), vec![])
        .await
        .unwrap();
    b.goto(&format!("http://{addr}/game/{id}")).await.unwrap();
    until("two lines", || async { text(&b, "#chat-lines").await.contains("and worse") }).await;

    // A player who is not a moderator has no such page.
    let m = browser(&d, 1280, 900, "en-US").await;
    sign_up(&m, addr, "mo").await;
    m.goto(&format!("http://{addr}/mod")).await.unwrap();
    until("refused", || async { text(&m, "main").await.contains("only moderators") }).await;
    // The operator makes Mo a moderator (the command line's work, on the database).
    let db = std::env::temp_dir().join(format!("dama-web-moderation-{}.sqlite", std::process::id()));
    let store = dama_server::store::Store::connect(&format!("sqlite:{}", db.display())).await.unwrap();
    let mo = store.account_named("mo").await.unwrap().unwrap();
    assert!(store.grant_role(&mo.id, "moderator").await.unwrap());
    m.goto(&format!("http://{addr}/")).await.unwrap();
    click(&m, "#mod-link").await;
    until("the two reports", || async { text(&m, "#mod-reports").await.contains("and worse") }).await;
    assert!(text(&m, "#mod-reports").await.contains("insult"));
    shot(&m, "moderation-1-reports").await;
    // Hide the first line: gone from Bob's page at once.
    click(&m, "li.mod-report[data-n='1'] button.mod-hide").await;
    until("hidden for Bob", || async { !text(&b, "#chat-lines").await.contains("patzer") }).await;
    assert!(text(&b, "#chat-lines").await.contains("and worse"));
    // Mute the author of the second: hidden too, and Ann can no longer write.
    click(&m, "li.mod-report[data-n='2'] button.mod-mute").await;
    until("hidden for Bob", || async { !text(&b, "#chat-lines").await.contains("and worse") }).await;
    until("both handled", || async {
        m.find_all(fantoccini::Locator::Css(".mod-report.handled")).await.unwrap().len() == 2
    })
    .await;
    shot(&m, "moderation-2-handled").await;
    assert_eq!(say(addr, &id, &ann_token, "am I muted?").await, 403);
    // A reload shows neither line.
    b.refresh().await.unwrap();
    find(&b, "#chat-lines").await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let lines = text(&b, "#chat-lines").await;
    assert!(!lines.contains("patzer") && !lines.contains("worse"), "{lines}");
    store.close().await;
}
