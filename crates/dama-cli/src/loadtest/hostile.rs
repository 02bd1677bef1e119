//! Hostile clients for `dama loadtest --hostile N`: while the normal games play, each
//! one keeps trying one way to hurt the server, and what the server answered is counted.

use std::collections::BTreeMap;
use std::fmt;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dama_server::client::http;
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde_json::json;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;

/// The ways to attack, one per client in turn.
const KINDS: [&str; 6] =
    ["oversized frames", "offer flood", "unknown game ids", "replay bombs", "hint flood", "bad JSON"];

/// The hostile clients under way and what they saw.
pub struct Hostile {
    tasks: Vec<JoinHandle<()>>,
    seen: Arc<Mutex<BTreeMap<String, u64>>>,
}

fn count(seen: &Mutex<BTreeMap<String, u64>>, key: String) {
    if let Ok(mut m) = seen.lock() {
        *m.entry(key).or_default() += 1;
    }
}

/// Starts `n` hostile clients against `addr`; they stop when `done` is set.
pub fn spawn(addr: SocketAddr, n: usize, done: Arc<AtomicBool>) -> Hostile {
    let seen = Arc::new(Mutex::new(BTreeMap::new()));
    let tasks = (0..n)
        .map(|i| {
            let (seen, done) = (seen.clone(), done.clone());
            tokio::spawn(async move {
                let kind = KINDS[i % KINDS.len()];
                while !done.load(Ordering::Relaxed) {
                    let outcome = match attack(addr, kind).await {
                        Ok(o) => o,
                        Err(e) => format!("client error: {}", e.to_string().chars().take(60).collect::<String>()),
                    };
                    count(&seen, format!("{kind}: {outcome}"));
                }
            })
        })
        .collect();
    Hostile { tasks, seen }
}

impl Hostile {
    /// Waits for the clients to stop; returns what they saw.
    pub async fn finish(self) -> Summary {
        for t in self.tasks {
            let _ = t.await;
        }
        Summary(self.seen.lock().map(|m| m.clone()).unwrap_or_default())
    }
}

/// What the hostile clients saw: each outcome with its count.
pub struct Summary(BTreeMap<String, u64>);

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "hostile clients' outcomes:")?;
        for (k, n) in &self.0 {
            writeln!(f, "  {n:>7}  {k}")?;
        }
        Ok(())
    }
}

async fn create(addr: SocketAddr, body: serde_json::Value) -> anyhow::Result<serde_json::Value> {
    let (st, v) = http(addr, "POST", "/api/games", None, Some(&body.to_string())).await?;
    anyhow::ensure!(st == 201, "create: {st}");
    Ok(v)
}

/// One round of an attack; returns what happened in a few words.
async fn attack(addr: SocketAddr, kind: &str) -> anyhow::Result<String> {
    match kind {
        "oversized frames" => {
            let g = create(addr, json!({"variant": "english", "mode": "hotseat"})).await?;
            let url = format!("ws://{addr}/api/games/{}/ws", g["id"].as_str().unwrap_or(""));
            let (mut ws, _) = tokio_tungstenite::connect_async(url).await?;
            ws.send(Message::Text(json!({"type": "hello"}).to_string().into())).await?;
            let _ = ws.send(Message::Text("x".repeat(1 << 20).into())).await;
            let mut close = "no close".to_string();
            while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
                match m {
                    Ok(Message::Close(f)) => {
                        close = format!("closed {}", f.map(|f| u16::from(f.code)).unwrap_or(0));
                        break;
                    }
                    Ok(_) => {}
                    Err(_) => {
                        close = "connection dropped".into();
                        break;
                    }
                }
            }
            Ok(close)
        }
        "offer flood" => {
            let g = create(addr, json!({"variant": "english", "mode": "friend"})).await?;
            let id = g["id"].as_str().unwrap_or("").to_string();
            let join = json!({"invite": g["invite"]}).to_string();
            let (_, seat) = http(addr, "POST", &format!("/api/games/{id}/join"), None, Some(&join)).await?;
            let (a, b) = (g["token"].as_str().unwrap_or(""), seat["token"].as_str().unwrap_or(""));
            let mut last = 0;
            for _ in 0..50 {
                let path = format!("/api/games/{id}/actions");
                last = http(addr, "POST", &path, Some(a), Some(r#"{"type":"offer_draw"}"#)).await?.0;
                http(addr, "POST", &path, Some(b), Some(r#"{"type":"decline_draw"}"#)).await?;
            }
            Ok(format!("50th offer answered {last}"))
        }
        "unknown game ids" => {
            let id: String = (0..12).map(|_| format!("{:x}", rand::thread_rng().gen_range(0..16))).collect();
            Ok(format!("{}", http(addr, "GET", &format!("/api/games/{id}"), None, None).await?.0))
        }
        "replay bombs" => {
            let nested = format!("1. 11-15 {}{} *", "(22-18 ".repeat(40_000), ")".repeat(40_000));
            let game = "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 *\n\n";
            let pdn = if rand::thread_rng().gen_bool(0.5) { nested } else { game.repeat(414_000 / game.len()) };
            let body = json!({ "pdn": pdn }).to_string();
            let (st, v) = http(addr, "POST", "/api/replay", None, Some(&body)).await?;
            let kb = v.to_string().len() / 1024;
            Ok(format!("{st} ({} KB answers)", if kb < 100 { "<100" } else { "100+" }))
        }
        "hint flood" => {
            let g = create(addr, json!({"variant": "international", "mode": "ai", "color": "black"})).await?;
            let (id, t) = (g["id"].as_str().unwrap_or(""), g["token"].as_str().unwrap_or(""));
            let path = format!("/api/games/{id}/hint");
            let (a, b) = tokio::join!(http(addr, "GET", &path, Some(t), None), http(addr, "GET", &path, Some(t), None));
            let (a, b) = (a?.0, b?.0);
            Ok(format!("two at once: {} and {}", a.min(b), a.max(b)))
        }
        _ => {
            let junk = ["{", "[]", "{\"variant\":1}", "\u{0}\u{1}", "{\"variant\":\"english\",\"fen\":\"W:W99\"}"];
            let body = junk[rand::thread_rng().gen_range(0..junk.len())];
            Ok(format!("{}", http(addr, "POST", "/api/games", None, Some(body)).await?.0))
        }
    }
}
