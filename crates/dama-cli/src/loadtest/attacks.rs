//! `dama loadtest --attacks`: the account-hardening issue's attacks replayed against a
//! server in its own process with its default limits (DamExchange on), each attacker
//! connecting from loopback addresses of its own (127.0.x.y), while a prober reads the
//! health check every 20 ms and the server's memory every 50 ms, and an honest visitor
//! from another address does what the attack would keep it from doing:
//!
//! - S1: waves of 150 sign-ups at once, each from its own address (peak memory, and
//!   memory 10 s after the last wave; the visitor signs up meanwhile);
//! - S4: 300 DamExchange connections from one address asking for games (the visitor
//!   then creates a game and finds the lobby; the sockets close and their seeks go);
//! - S5: 40 analysis boards from one address, each analysing (the visitor's wait for
//!   its first engine lines).

use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use dama_server::client::{request, request_from};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

use super::{free_address, remove_db, rss_kb, start_server, status_kb};

/// The `n`th attacker address of loopback.
fn own(n: u32) -> IpAddr {
    IpAddr::from([127, 0, 10 + (n / 250) as u8, 1 + (n % 250) as u8])
}

/// The honest visitor's address.
const VISITOR: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 200, 7));

/// What the prober saw: health-check latencies (µs), their failures, and the
/// server's resident memory (KB) at each reading.
#[derive(Default)]
struct Probe {
    health_us: Mutex<Vec<u64>>,
    failed: AtomicU64,
    rss_kb: Mutex<Vec<u64>>,
}

impl Probe {
    /// Takes the readings so far: (max and p99 health ms, failures, peak RSS MB).
    fn take(&self) -> (f64, f64, u64, f64) {
        let mut h = std::mem::take(&mut *self.health_us.lock().unwrap_or_else(|e| e.into_inner()));
        let rss = std::mem::take(&mut *self.rss_kb.lock().unwrap_or_else(|e| e.into_inner()));
        h.sort_unstable();
        let p99 = h.get(h.len().saturating_sub(1).min(h.len() * 99 / 100)).copied().unwrap_or(0);
        let max = h.last().copied().unwrap_or(0);
        let failed = self.failed.swap(0, Ordering::Relaxed);
        (max as f64 / 1000.0, p99 as f64 / 1000.0, failed, rss.iter().max().copied().unwrap_or(0) as f64 / 1024.0)
    }
}

/// Runs the attacks against `bin serve`.
pub async fn run(bin: &Path) -> Result<()> {
    let dxp = free_address()?;
    let dxp_bind = dxp.to_string();
    // The server's own defaults, but for the DXP listener.
    let env = [
        ("DAMA_GAMES_PER_MINUTE", "60"),
        ("DAMA_REQUESTS_PER_MINUTE", "1200"),
        ("DAMA_DXP_BIND", dxp_bind.as_str()),
        ("RUST_LOG", "warn"),
    ];
    let (addr, server, db) = start_server(bin, &env, None).await?;
    let pid = server.0.id();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let probe = Arc::new(Probe::default());
    let stop = Arc::new(AtomicBool::new(false));
    let prober = tokio::spawn(prober(addr, pid, probe.clone(), stop.clone()));
    println!("server pid {pid}, resident at start {:.1} MB", rss_kb(pid).unwrap_or(0) as f64 / 1024.0);
    probe.take();

    // S1.
    for wave in 1..=3u32 {
        let started = Instant::now();
        let signups: Vec<_> = (0..150u32)
            .map(|i| {
                let from = own(wave * 150 + i);
                tokio::spawn(async move {
                    let body = json!({"name": format!("w{wave}x{i}"), "password": "a good password"}).to_string();
                    request_from(addr, Some(from), "POST", "/api/accounts", &[], Some(&body)).await.map(|r| r.status)
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let t = Instant::now();
        let body = json!({"name": format!("visitor{wave}"), "password": "a good password"}).to_string();
        let honest = request_from(addr, Some(VISITOR), "POST", "/api/accounts", &[], Some(&body)).await?;
        let honest_ms = t.elapsed().as_secs_f64() * 1000.0;
        let mut by_status = std::collections::BTreeMap::<u16, u32>::new();
        for s in signups {
            *by_status.entry(s.await?.unwrap_or(0)).or_default() += 1;
        }
        let (max, p99, failed, peak) = probe.take();
        println!(
            "S1 wave {wave}: 150 sign-ups at once in {:.2} s: {by_status:?}; visitor's sign-up {} in {honest_ms:.0} ms; \
             health check max {max:.1} ms, p99 {p99:.1} ms, {failed} failed; peak resident {peak:.1} MB",
            started.elapsed().as_secs_f64(),
            honest.status
        );
    }
    tokio::time::sleep(Duration::from_secs(10)).await;
    let hwm = status_kb(pid, "VmHWM:").unwrap_or(0) as f64 / 1024.0;
    println!(
        "S1 after the waves: resident {:.1} MB 10 s later, the process's peak (VmHWM) {hwm:.1} MB",
        rss_kb(pid).unwrap_or(0) as f64 / 1024.0
    );
    probe.take();

    // S4.
    let attacker = own(1000);
    let mut kept = Vec::new();
    let t = Instant::now();
    for _ in 0..300 {
        if let Some(s) = dxp_request(dxp, attacker).await {
            kept.push(s);
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let seeks = seek_count(addr).await?;
    let t2 = Instant::now();
    let (st, _) = visitor_post(addr, "/api/games", r#"{"variant": "english", "mode": "ai"}"#).await?;
    let honest_ms = t2.elapsed().as_secs_f64() * 1000.0;
    let (max, p99, failed, peak) = probe.take();
    println!(
        "S4: 300 DXP connections from one address in {:.1} s: {} kept, {seeks} seeks in the lobby; visitor's new game {st} \
         in {honest_ms:.0} ms; health check max {max:.1} ms, p99 {p99:.1} ms, {failed} failed; peak resident {peak:.1} MB",
        t.elapsed().as_secs_f64(),
        kept.len()
    );
    let before = ready_games(addr).await?;
    drop(kept);
    let t = Instant::now();
    let mut left = seek_count(addr).await?;
    while left > 0 && t.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(50)).await;
        left = seek_count(addr).await?;
    }
    let seeks_ms = t.elapsed().as_secs_f64() * 1000.0;
    let mut games = ready_games(addr).await?;
    while games + 4 > before && t.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(50)).await;
        games = ready_games(addr).await?;
    }
    println!(
        "S4 after the sockets closed: {left} seeks left after {seeks_ms:.0} ms; games in memory {before} -> {games} \
         after {:.0} ms",
        t.elapsed().as_secs_f64() * 1000.0
    );

    // S5.
    let attacker = own(1001);
    let mut boards = Vec::new();
    let mut refused = 0;
    for i in 0..40 {
        match analysis_from(addr, attacker).await {
            Ok(mut s) => {
                let f = json!({"type": "analyse", "id": i, "variant": "international", "fen": "W:W31-50:B1-20"});
                s.send(Message::Text(f.to_string().into())).await?;
                boards.push(s);
            }
            Err(_) => refused += 1,
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let t = Instant::now();
    let mut h = analysis_from(addr, VISITOR).await.map_err(|s| anyhow!("the visitor's board: {s}"))?;
    let f = json!({"type": "analyse", "id": 1, "variant": "english", "fen": "B:W21-32:B1-12"});
    h.send(Message::Text(f.to_string().into())).await?;
    let wait = first_lines(&mut h, t).await;
    let (max, p99, failed, peak) = probe.take();
    println!(
        "S5: 40 analysis boards from one address: {} opened, {refused} refused; the visitor's {wait}; health check \
         max {max:.1} ms, p99 {p99:.1} ms, {failed} failed; peak resident {peak:.1} MB",
        boards.len()
    );
    drop(boards);
    drop(h);
    // Many attackers: 20 addresses with 2 boards each keep every searcher busy.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut boards = Vec::new();
    for a in 0..20 {
        for i in 0..2 {
            if let Ok(mut s) = analysis_from(addr, own(1100 + a)).await {
                let f = json!({"type": "analyse", "id": i, "variant": "international", "fen": "W:W31-50:B1-20"});
                s.send(Message::Text(f.to_string().into())).await?;
                boards.push(s);
            }
        }
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let t = Instant::now();
    let mut h = analysis_from(addr, VISITOR).await.map_err(|s| anyhow!("the visitor's board: {s}"))?;
    h.send(Message::Text(f.to_string().into())).await?;
    let wait = first_lines(&mut h, t).await;
    let (max, p99, failed, peak) = probe.take();
    println!(
        "S5: 40 analysis boards from 20 addresses, all searching: the visitor's {wait}; health check max {max:.1} ms, \
         p99 {p99:.1} ms, {failed} failed; peak resident {peak:.1} MB"
    );
    drop(boards);
    stop.store(true, Ordering::Relaxed);
    let _ = prober.await;
    drop(server);
    remove_db(&db);
    Ok(())
}

/// Reads the health check every 20 ms and the server's memory every 50 ms.
async fn prober(addr: SocketAddr, pid: u32, probe: Arc<Probe>, stop: Arc<AtomicBool>) {
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let t = Instant::now();
        match tokio::time::timeout(Duration::from_secs(5), request(addr, "GET", "/healthz", &[], None)).await {
            Ok(Ok(r)) if r.status == 200 => {
                if let Ok(mut h) = probe.health_us.lock() {
                    h.push(t.elapsed().as_micros() as u64);
                }
            }
            _ => {
                probe.failed.fetch_add(1, Ordering::Relaxed);
            }
        }
        if n % 2 == 0 {
            if let (Some(kb), Ok(mut r)) = (rss_kb(pid), probe.rss_kb.lock()) {
                r.push(kb);
            }
        }
        n += 1;
        tokio::time::sleep(Duration::from_millis(20).saturating_sub(t.elapsed())).await;
    }
}

/// Waits for the first engine lines on `h`: how long it took since `t`, or why none
/// came, in words.
async fn first_lines(h: &mut Board, t: Instant) -> String {
    loop {
        let Ok(m) = tokio::time::timeout(Duration::from_secs(90), h.next()).await else {
            return "analysis got no lines in 90 s".into();
        };
        match m {
            Some(Ok(Message::Text(t2))) => {
                let v: Value = serde_json::from_str(t2.as_str()).unwrap_or_default();
                if v["type"] == "lines" {
                    return format!("first lines after {:.0} ms", t.elapsed().as_secs_f64() * 1000.0);
                }
                if v["type"] == "error" {
                    return format!("analysis was refused: {}", v["message"]);
                }
            }
            Some(Ok(_)) => {}
            _ => return "analysis socket closed".into(),
        }
    }
}

async fn visitor_post(addr: SocketAddr, path: &str, body: &str) -> Result<(u16, Value)> {
    let r = request_from(addr, Some(VISITOR), "POST", path, &[], Some(body)).await?;
    Ok((r.status, r.body))
}

async fn seek_count(addr: SocketAddr) -> Result<usize> {
    let r = request(addr, "GET", "/api/seeks", &[], None).await?;
    Ok(r.body["seeks"].as_array().map_or(0, Vec::len))
}

async fn ready_games(addr: SocketAddr) -> Result<u64> {
    let r = request(addr, "GET", "/readyz", &[], None).await?;
    Ok(r.body["games_in_memory"].as_u64().unwrap_or(0))
}

/// A DXP connection from `from` that asked for a game and was kept (`None`: closed or
/// refused).
async fn dxp_request(dxp: SocketAddr, from: IpAddr) -> Option<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::new(from, 0)).ok()?;
    let mut s = socket.connect(dxp).await.ok()?;
    s.write_all(format!("R01{:<32}Z005000A\0", "Hostile engine").as_bytes()).await.ok()?;
    let mut got = Vec::new();
    let mut buf = [0u8; 64];
    loop {
        match tokio::time::timeout(Duration::from_millis(200), s.read(&mut buf)).await {
            Err(_) => return Some(s),
            Ok(Ok(0) | Err(_)) => return None,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
        if got.first() == Some(&b'A') && got.ends_with(b"9\0") {
            return None;
        }
    }
}

type Board = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

async fn analysis_from(addr: SocketAddr, from: IpAddr) -> std::result::Result<Board, String> {
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
    socket.bind(SocketAddr::new(from, 0)).map_err(|e| e.to_string())?;
    let tcp = socket.connect(addr).await.map_err(|e| e.to_string())?;
    match tokio_tungstenite::client_async(format!("ws://{addr}/api/analysis/ws"), tcp).await {
        Ok((s, _)) => Ok(s),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().to_string()),
        Err(e) => Err(e.to_string()),
    }
}
