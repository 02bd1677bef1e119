//! `dama loadtest --seeks N`: lobby pairing with N open seeks. N seeks are offered,
//! then seeks are accepted one after another while a new one replaces each, so that N
//! stay open throughout; a lobby websocket listens all along. Reports the round trips
//! of offering, accepting (pairing) and listing the seeks.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use dama_server::client::http;
use futures_util::StreamExt;
use serde_json::json;

/// Percentile `p` of sorted milliseconds.
fn pct(sorted: &[f64], p: f64) -> f64 {
    sorted.get(((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1))).copied().unwrap_or(0.0)
}

fn summary(name: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    println!(
        "{name:<22} {:>7} {:>9.2} {:>9.2} {:>9.2} {:>9.2}",
        ms.len(),
        pct(&ms, 0.5),
        pct(&ms, 0.9),
        pct(&ms, 0.99),
        ms.last().copied().unwrap_or(0.0)
    );
}

/// Offers a seek; its id and the time it took (ms).
async fn offer(addr: SocketAddr, i: usize) -> Result<(String, f64)> {
    // A spread of clocks and variants, as a real lobby has.
    let variants = ["english", "russian", "international", "brazilian", "turkish"];
    let minutes = [1, 3, 5, 10, 15][i % 5];
    let color = ["white", "black", "random"][i % 3];
    let body = json!({
        "variant": variants[(i / 5) % variants.len()],
        "time": {"kind": "fischer", "initial_ms": minutes * 60_000, "increment_ms": (i % 3) * 1000},
        "color": color,
    });
    let t = Instant::now();
    let (st, v) = http(addr, "POST", "/api/seeks", None, Some(&body.to_string())).await?;
    if st != 201 {
        bail!("offering a seek: {st} {v}");
    }
    Ok((v["id"].as_str().unwrap_or_default().to_string(), t.elapsed().as_secs_f64() * 1000.0))
}

/// Runs the measurement against the server at `addr`.
pub async fn run(addr: SocketAddr, n: usize, pairings: usize) -> Result<()> {
    let (lobby, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/lobby/ws")).await?;
    let heard = tokio::spawn(async move {
        let mut lobby = lobby;
        let mut n = 0u64;
        while let Ok(Some(Ok(_))) = tokio::time::timeout(Duration::from_secs(5), lobby.next()).await {
            n += 1;
        }
        n
    });
    let mut open = std::collections::VecDeque::new();
    let mut offers = Vec::new();
    for i in 0..n {
        let (id, ms) = offer(addr, i).await?;
        open.push_back(id);
        offers.push(ms);
    }
    let (mut accepts, mut lists) = (Vec::new(), Vec::new());
    for k in 0..pairings {
        let id = open.pop_front().unwrap_or_default();
        let t = Instant::now();
        let (st, v) = http(addr, "POST", &format!("/api/seeks/{id}/accept"), None, None).await?;
        accepts.push(t.elapsed().as_secs_f64() * 1000.0);
        if st != 200 {
            bail!("accepting seek {id}: {st} {v}");
        }
        let (id, ms) = offer(addr, n + k).await?;
        open.push_back(id);
        offers.push(ms);
        if k % 10 == 0 {
            let t = Instant::now();
            let (st, v) = http(addr, "GET", "/api/seeks", None, None).await?;
            lists.push(t.elapsed().as_secs_f64() * 1000.0);
            let listed = v["seeks"].as_array().map_or(0, Vec::len);
            if st != 200 || listed != n {
                bail!("listing the seeks: {st}, {listed} listed, {n} open");
            }
        }
    }
    let events = heard.await.unwrap_or(0);
    println!("{n} open seeks, {pairings} pairings (each replaced by a new seek); round trips in ms");
    println!("{:<22} {:>7} {:>9} {:>9} {:>9} {:>9}", "request", "count", "p50", "p90", "p99", "max");
    summary("offer a seek", offers);
    summary("accept (pairing)", accepts);
    summary(&format!("list {n} seeks"), lists);
    println!("the lobby websocket heard {events} events (the list, then one per seek offered or gone)");
    let want = 1 + (n + pairings) + pairings;
    if events < want as u64 {
        bail!("the lobby websocket heard {events} events, {want} expected");
    }
    Ok(())
}
