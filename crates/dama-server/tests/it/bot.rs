//! Programs as players: API tokens, the bot API's routes, and the 40-line Python bot of
//! `examples/bot.py` playing a whole game against a program written here.

use std::net::SocketAddr;
use std::time::Duration;

use dama_server::client::{request, Reply};
use rand::seq::SliceRandom;
use serde_json::{json, Value};

use crate::common::*;

async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let body = json!({"name": name, "password": "a good password"}).to_string();
    let r = request(addr, "POST", "/api/accounts", &[], Some(&body)).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let c = r.header("set-cookie").unwrap();
    c.strip_prefix("dama_session=").and_then(|c| c.split(';').next()).unwrap().to_string()
}

async fn token(addr: SocketAddr, cookie: &str) -> String {
    let cookie = format!("dama_session={cookie}");
    let body = json!({"scopes": ["bot:play"]}).to_string();
    let r = request(addr, "POST", "/api/tokens", &[("Cookie", &cookie)], Some(&body)).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["token"].as_str().unwrap().to_string()
}

async fn as_bot(addr: SocketAddr, method: &str, path: &str, token: &str, body: Option<Value>) -> Reply {
    let auth = format!("Bearer {token}");
    request(addr, method, path, &[("Authorization", &auth)], body.map(|b| b.to_string()).as_deref()).await.unwrap()
}

fn python() -> Option<String> {
    let ok = std::process::Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success());
    if ok {
        return Some("python3".into());
    }
    assert!(std::env::var_os("CI").is_none(), "CI needs python3 for the bot example");
    eprintln!("skipped: no python3");
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_and_the_bot_routes_refuse_what_they_must() {
    let srv = start(&temp_db("bot-auth")).await;
    let a = srv.addr;
    let r = request(a, "POST", "/api/tokens", &[], Some("{}")).await.unwrap();
    assert_eq!(r.status, 401, "{}", r.body);
    let ann = sign_up(a, "ann").await;
    let cookie = format!("dama_session={ann}");
    let r = request(a, "POST", "/api/tokens", &[("Cookie", &cookie)], Some(r#"{"scopes": ["admin"]}"#)).await.unwrap();
    assert_eq!(r.status, 400, "{}", r.body);
    let t = token(a, &ann).await;
    assert!(t.starts_with("dama_"));
    let r = request(a, "GET", "/api/stream/event", &[], None).await.unwrap();
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(as_bot(a, "POST", "/api/bot/game/000000000000/resign", "dama_nope", None).await.status, 401);
    // A program acts only where its account sits.
    let (id, _, _) = create(a, json!({"variant": "english", "mode": "hotseat"})).await;
    let r = as_bot(a, "POST", &format!("/api/bot/game/{id}/move/11-15"), &t, None).await;
    assert_eq!(r.status, 403, "{}", r.body);
    // The token logs in like the cookie.
    assert_eq!(as_bot(a, "GET", "/api/session", &t, None).await.body, json!({"name": "ann", "guest": false}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_forty_line_python_bot_plays_a_whole_game() {
    let Some(py) = python() else { return };
    let srv = start(&temp_db("bot-game")).await;
    let a = srv.addr;
    let (ann, bob) = (sign_up(a, "ann").await, sign_up(a, "bob").await);
    let (ann, bob) = (token(a, &ann).await, token(a, &bob).await);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/bot.py");
    let lines = std::fs::read_to_string(script).unwrap().lines().count();
    assert!(lines <= 40, "the example bot has {lines} lines");
    let bot = tokio::process::Command::new(py)
        .args([script, &format!("http://{a}"), &ann, "english"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    // Bob's program finds ann's seek in the lobby and accepts it.
    let mut seek = None;
    for _ in 0..100 {
        let (_, v) = http(a, "GET", "/api/seeks", None, None).await;
        seek = v["seeks"].as_array().unwrap().iter().find(|s| s["name"] == "ann").cloned();
        if seek.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let id = seek.expect("the bot's seek")["id"].as_str().unwrap().to_string();
    let r = as_bot(a, "POST", &format!("/api/seeks/{id}/accept"), &bob, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let color = r.body["color"].as_str().unwrap().to_string();
    // Bob plays random legal moves through the bot API until the game ends.
    let mut rng = rand::thread_rng();
    let mut snap = snapshot(a, &id).await;
    for _ in 0..20_000 {
        if snap["state"] == "finished" {
            break;
        }
        if snap["side_to_move"] == color.as_str() {
            let legal = snap["legal"].as_array().unwrap();
            let mv = legal.choose(&mut rng).unwrap()["notation"].as_str().unwrap().to_string();
            let r = as_bot(a, "POST", &format!("/api/bot/game/{id}/move/{mv}"), &bob, None).await;
            assert_eq!(r.status, 200, "{mv}: {}", r.body);
        } else {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        snap = snapshot(a, &id).await;
    }
    assert_eq!(snap["state"], "finished", "{snap}");
    let out =
        tokio::time::timeout(Duration::from_secs(30), bot.wait_with_output()).await.expect("the bot ends").unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let text = snap["result"]["text"].as_str().unwrap();
    assert!(stdout.contains(&format!("game over: {text}")), "{stdout} / {text}");
    let plies = snap["moves"].as_array().unwrap().len();
    assert!(plies >= 2, "{plies} plies");
    eprintln!("the bot's game: {plies} plies, {text}");
}
