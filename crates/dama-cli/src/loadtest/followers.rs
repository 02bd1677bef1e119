//! `dama loadtest --followers N`: N accounts follow one player and keep a page open
//! (their live socket, `/api/me/ws`); the player starts a game (a challenge accepted),
//! and the time from the accept's request until each follower's page hears it is
//! measured. Reports the percentiles and how many heard it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use dama_server::client::request;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The log-in cookie a reply sets.
fn cookie_of(r: &dama_server::client::Reply) -> Result<String> {
    let c = r.header("set-cookie").ok_or_else(|| anyhow!("no log-in cookie: {}", r.body))?;
    Ok(c.split(';').next().unwrap_or_default().to_string())
}

async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: &str,
    body: Value,
) -> Result<dama_server::client::Reply> {
    let headers = [("Cookie", cookie)];
    Ok(request(addr, method, path, &headers, Some(&body.to_string())).await?)
}

/// An account with a password (`name`): its cookie.
async fn account(addr: SocketAddr, name: &str) -> Result<String> {
    let body = json!({"name": name, "password": "a good password"}).to_string();
    let r = request(addr, "POST", "/api/accounts", &[], Some(&body)).await?;
    if r.status != 201 {
        bail!("signing up {name}: {} {}", r.status, r.body);
    }
    cookie_of(&r)
}

/// A follower: a guest that follows `star` and opens its live socket; the socket, once
/// its first frame came.
async fn follower(addr: SocketAddr, i: usize, star: &str) -> Result<super::Ws> {
    let body = json!({"name": format!("f{i}")}).to_string();
    let r = request(addr, "POST", "/api/guests", &[], Some(&body)).await?;
    if r.status != 201 {
        bail!("a guest: {} {}", r.status, r.body);
    }
    let cookie = cookie_of(&r)?;
    let r = call(addr, "POST", &format!("/api/players/{star}/follow"), &cookie, json!({})).await?;
    if r.status != 200 {
        bail!("following: {} {}", r.status, r.body);
    }
    let mut req = format!("ws://{addr}/api/me/ws").into_client_request()?;
    req.headers_mut().insert("cookie", cookie.parse()?);
    req.headers_mut().insert("origin", format!("http://{addr}").parse()?);
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await?;
    ws.next().await; // the unread count
    Ok(ws)
}

/// Runs the measurement against the server at `addr`.
pub async fn run(addr: SocketAddr, n: usize) -> Result<()> {
    let star_cookie = account(addr, "star").await?;
    let rival = account(addr, "rival").await?;
    let gate = Arc::new(Semaphore::new(64));
    let set_up = Instant::now();
    let mut joins = Vec::new();
    for i in 0..n {
        let gate = gate.clone();
        joins.push(tokio::spawn(async move {
            let _p = gate.acquire().await;
            follower(addr, i, "star").await
        }));
    }
    let mut sockets = Vec::new();
    for j in joins {
        sockets.push(j.await??);
    }
    println!("{n} followers online in {:.1} s", set_up.elapsed().as_secs_f64());
    // Each socket waits for the news; the clock starts at the accept's request.
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Instant>();
    for mut ws in sockets {
        let tx = tx.clone();
        tokio::spawn(async move {
            while let Ok(Some(Ok(m))) = tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
                if let tokio_tungstenite::tungstenite::Message::Text(t) = m {
                    if t.as_str().contains("following_playing") {
                        let _ = tx.send(Instant::now());
                        return;
                    }
                }
            }
        });
    }
    drop(tx);
    let terms = json!({"variant": "english", "time": {"kind": "fischer", "initial_ms": 300000, "increment_ms": 3000}});
    let r = call(addr, "POST", "/api/players/star/challenge", &rival, terms).await?;
    let id =
        r.body["challenge"]["id"].as_str().ok_or_else(|| anyhow!("challenging: {} {}", r.status, r.body))?.to_string();
    let start = Instant::now();
    let r = call(addr, "POST", &format!("/api/challenges/{id}/accept"), &star_cookie, json!({})).await?;
    if r.status != 200 {
        bail!("accepting: {} {}", r.status, r.body);
    }
    let accepted_ms = start.elapsed().as_secs_f64() * 1000.0;
    let mut ms = Vec::new();
    while let Some(at) = rx.recv().await {
        ms.push(at.duration_since(start).as_secs_f64() * 1000.0);
    }
    ms.sort_by(f64::total_cmp);
    let pct = |p: f64| ms.get(((ms.len() as f64 * p) as usize).min(ms.len().saturating_sub(1))).copied().unwrap_or(0.0);
    println!("the accept answered in {accepted_ms:.1} ms; the followers heard the game start (ms after the accept's request):");
    println!(
        "heard {} of {n}; p50 {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}",
        ms.len(),
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
    if ms.len() < n {
        bail!("{} of {n} followers did not hear the game start", n - ms.len());
    }
    Ok(())
}
