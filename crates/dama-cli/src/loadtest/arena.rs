//! `dama loadtest --arena N`: N accounts, each with a program (a `bot:play` token),
//! join one arena and listen on their event streams (`/api/stream/event`). When a game
//! of theirs starts, the side not to move (English: White) resigns after a random
//! wait (up to twice `--think-ms`), so that game ends are spread out; resigning before
//! a move is not taken for a no-show. The re-pairing latency of a player is the time
//! from their game's end (the resign request answered) until they hear their next game
//! start. Each player plays `--games K` games, then leaves the arena. Reports the
//! latency's percentiles (of every re-pairing, and of those whose game ended once every
//! player had joined) and the games per second.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use dama_server::client::request;
use rand::Rng;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::{watch, Semaphore};

/// A player: their log-in cookie and their program's token.
struct Player {
    cookie: String,
    token: String,
}

/// What the players measured together.
struct Shared {
    /// Each game's end: the instant its resign request was answered.
    ends: Mutex<HashMap<String, Instant>>,
    /// (the game a player had played, the instant they heard their next game start).
    next: Mutex<Vec<(String, Instant)>>,
    /// Games heard starting (by White, once a game).
    started: AtomicU64,
    /// Players who played their games and left.
    done: AtomicUsize,
    /// The last instant a game started or ended.
    progress: Mutex<Instant>,
    failures: AtomicU64,
    /// The measurement is over: requests still under way when the server stops are
    /// not failures.
    over: AtomicBool,
}

impl Shared {
    fn moved(&self) {
        if let Ok(mut p) = self.progress.lock() {
            *p = Instant::now();
        }
    }

    fn failed(&self, what: impl std::fmt::Display) {
        if self.over.load(Ordering::Relaxed) {
            return;
        }
        if self.failures.fetch_add(1, Ordering::Relaxed) < 10 {
            eprintln!("{what}");
        }
    }
}

/// Signs up `name` (retrying while the server's password hashing is busy) and makes a
/// bot token.
async fn player(addr: SocketAddr, name: &str) -> Result<Player> {
    let body = json!({"name": name, "password": "a good password"}).to_string();
    let mut tries = 0;
    let r = loop {
        let r = request(addr, "POST", "/api/accounts", &[], Some(&body)).await?;
        tries += 1;
        if r.status != 503 || tries > 20 {
            break r;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    if r.status != 201 {
        bail!("signing up {name}: {} {}", r.status, r.body);
    }
    let c = r.header("set-cookie").ok_or_else(|| anyhow!("no log-in cookie: {}", r.body))?;
    let cookie = c.split(';').next().unwrap_or_default().to_string();
    let scopes = json!({"scopes": ["bot:play"]}).to_string();
    let r = request(addr, "POST", "/api/tokens", &[("Cookie", &cookie)], Some(&scopes)).await?;
    let token = r.body["token"].as_str().ok_or_else(|| anyhow!("a token: {} {}", r.status, r.body))?.to_string();
    Ok(Player { cookie, token })
}

/// Opens the account's event stream: its lines, once the answer's head is read.
async fn event_stream(addr: SocketAddr, token: &str) -> Result<tokio::io::Lines<BufReader<TcpStream>>> {
    let mut s = TcpStream::connect(addr).await?;
    let req = format!("GET /api/stream/event HTTP/1.1\r\nHost: dama\r\nAuthorization: Bearer {token}\r\n\r\n");
    s.write_all(req.as_bytes()).await?;
    let mut lines = BufReader::new(s).lines();
    let status = lines.next_line().await?.unwrap_or_default();
    if !status.starts_with("HTTP/1.1 200") {
        bail!("the event stream: {status}");
    }
    while let Some(l) = lines.next_line().await? {
        if l.is_empty() {
            break;
        }
    }
    Ok(lines)
}

/// White resigns game `id` after a random wait; the answer's instant is the game's end.
async fn resign(addr: SocketAddr, token: String, id: String, wait_ms: u64, shared: Arc<Shared>) {
    let wait = rand::thread_rng().gen_range(0..=wait_ms);
    tokio::time::sleep(Duration::from_millis(wait)).await;
    let auth = format!("Bearer {token}");
    match request(addr, "POST", &format!("/api/bot/game/{id}/resign"), &[("Authorization", &auth)], None).await {
        Ok(r) if r.status == 200 => {
            if let Ok(mut e) = shared.ends.lock() {
                e.insert(id, Instant::now());
            }
            shared.moved();
        }
        Ok(r) => shared.failed(format_args!("resigning {id}: {} {}", r.status, r.body)),
        Err(e) => shared.failed(format_args!("resigning {id}: {e}")),
    }
}

/// One player's program in event `event`: plays `games` games, then leaves, and goes
/// on resigning any game it is still given until `stop`.
#[allow(clippy::too_many_arguments)]
async fn bot(
    addr: SocketAddr,
    p: Player,
    event: String,
    games: usize,
    wait_ms: u64,
    shared: Arc<Shared>,
    mut stop: watch::Receiver<bool>,
    joined: Arc<Semaphore>,
) -> Result<()> {
    let mut lines = event_stream(addr, &p.token).await?;
    let headers = [("Cookie", p.cookie.as_str())];
    let r = request(addr, "POST", &format!("/api/tournaments/{event}/join"), &headers, Some("{}")).await?;
    if r.status != 200 {
        bail!("joining: {} {}", r.status, r.body);
    }
    joined.add_permits(1);
    let mut last: Option<String> = None;
    let mut finished = 0;
    loop {
        let line = tokio::select! {
            l = lines.next_line() => l?,
            _ = stop.changed() => return Ok(()),
        };
        let Some(line) = line else { bail!("the event stream ended") };
        // Chunk sizes and keep-alive lines are not JSON.
        let Ok(v) = serde_json::from_str::<Value>(line.trim()) else { continue };
        let id = v["game"]["id"].as_str().unwrap_or_default().to_string();
        match v["type"].as_str() {
            Some("gameStart") => {
                let now = Instant::now();
                shared.moved();
                if let Some(prev) = last.replace(id.clone()) {
                    if let Ok(mut n) = shared.next.lock() {
                        n.push((prev, now));
                    }
                }
                if v["game"]["color"] == "white" {
                    shared.started.fetch_add(1, Ordering::Relaxed);
                    tokio::spawn(resign(addr, p.token.clone(), id, wait_ms, shared.clone()));
                }
            }
            Some("gameFinish") => {
                finished += 1;
                if finished == games {
                    let r =
                        request(addr, "POST", &format!("/api/tournaments/{event}/leave"), &headers, Some("{}")).await?;
                    if r.status != 200 {
                        shared.failed(format_args!("leaving: {} {}", r.status, r.body));
                    }
                    shared.done.fetch_add(1, Ordering::Relaxed);
                }
            }
            _ => {}
        }
    }
}

/// Runs the measurement against the server at `addr`: `n` players, `games` each, White
/// resigning after up to `wait_ms`.
pub async fn run(addr: SocketAddr, n: usize, games: usize, wait_ms: u64) -> Result<()> {
    if n < 2 {
        bail!("--arena: at least 2 players");
    }
    let t0 = Instant::now();
    // Sign-ups hash a password each (Argon2id): a few at a time.
    let gate = Arc::new(Semaphore::new(8));
    let mut joins = Vec::new();
    for i in 0..n {
        let gate = gate.clone();
        joins.push(tokio::spawn(async move {
            let _p = gate.acquire().await;
            player(addr, &format!("arena{i}")).await
        }));
    }
    let mut players = Vec::new();
    for j in joins {
        players.push(j.await??);
    }
    println!("{n} players signed up, each with a bot token, in {:.1} s", t0.elapsed().as_secs_f64());
    let arena = json!({"name": "Load arena", "format": "arena", "variant": "english",
        "time": {"kind": "fischer", "initial_ms": 180000, "increment_ms": 2000}, "minutes": 60});
    let r =
        request(addr, "POST", "/api/tournaments", &[("Cookie", &players[0].cookie)], Some(&arena.to_string())).await?;
    let event = r.body["tournament"]["id"]
        .as_str()
        .ok_or_else(|| anyhow!("making the arena: {} {}", r.status, r.body))?
        .to_string();
    let shared = Arc::new(Shared {
        ends: Mutex::new(HashMap::new()),
        next: Mutex::new(Vec::new()),
        started: AtomicU64::new(0),
        done: AtomicUsize::new(0),
        progress: Mutex::new(Instant::now()),
        failures: AtomicU64::new(0),
        over: AtomicBool::new(false),
    });
    let (stop_tx, stop) = watch::channel(false);
    let joined = Arc::new(Semaphore::new(0));
    let t1 = Instant::now();
    let mut tasks = Vec::new();
    for (i, p) in players.into_iter().enumerate() {
        let (event, shared, stop, joined) = (event.clone(), shared.clone(), stop.clone(), joined.clone());
        tasks.push(tokio::spawn(async move {
            if let Err(e) = bot(addr, p, event, games, wait_ms, shared.clone(), stop, joined).await {
                shared.failed(format_args!("player {i}: {e}"));
            }
        }));
    }
    while joined.available_permits() < n {
        if shared.failures.load(Ordering::Relaxed) > 0 || t1.elapsed() > Duration::from_secs(600) {
            bail!("{} of {n} players joined the arena", joined.available_permits());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let all_in = Instant::now();
    println!("{n} players joined the arena in {:.1} s", t1.elapsed().as_secs_f64());
    // Until every player has played their games, or nothing happened for 10 s (a
    // player left alone, or with no one but their last opponent).
    loop {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let idle = shared.progress.lock().map_or(Duration::ZERO, |p| p.elapsed());
        if shared.done.load(Ordering::Relaxed) >= n || idle > Duration::from_secs(10) {
            break;
        }
    }
    shared.over.store(true, Ordering::Relaxed);
    let _ = stop_tx.send(true);
    for t in tasks {
        let _ = t.await;
    }
    let ends = shared.ends.lock().map_err(|_| anyhow!("lock"))?.clone();
    let next = shared.next.lock().map_err(|_| anyhow!("lock"))?.clone();
    // Each re-pairing's latency, and whether its game ended once every player had
    // joined (the joins, each reading the whole event, compete with the director).
    let mut both: Vec<(f64, bool)> = next
        .iter()
        .filter_map(|(prev, at)| {
            let end = ends.get(prev)?;
            Some((at.saturating_duration_since(*end).as_secs_f64() * 1000.0, *end > all_in))
        })
        .collect();
    both.sort_by(|a, b| a.0.total_cmp(&b.0));
    let ms: Vec<f64> = both.iter().map(|x| x.0).collect();
    let later: Vec<f64> = both.iter().filter(|x| x.1).map(|x| x.0).collect();
    let (first, last) = (ends.values().min().copied(), ends.values().max().copied());
    let span = first.zip(last).map_or(0.0, |(a, b)| b.duration_since(a).as_secs_f64());
    let pct_of = |ms: &[f64], p: f64| {
        ms.get(((ms.len() as f64 * p) as usize).min(ms.len().saturating_sub(1))).copied().unwrap_or(0.0)
    };
    let pct = |p: f64| pct_of(&ms, p);
    println!(
        "players {n}  games each {games}  White resigns after up to {wait_ms} ms; {} players played all their games",
        shared.done.load(Ordering::Relaxed)
    );
    println!(
        "games started {}  ended {} in {span:.1} s  ({:.1} games/s)",
        shared.started.load(Ordering::Relaxed),
        ends.len(),
        ends.len() as f64 / span.max(1e-9)
    );
    println!(
        "re-pairings {}  (from a game's end to the player hearing the next start), ms: p50 {:.0}  p90 {:.0}  p99 {:.0}  max {:.0}",
        ms.len(),
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
    println!(
        "of which {} after every player had joined, ms: p50 {:.0}  p90 {:.0}  p99 {:.0}  max {:.0}",
        later.len(),
        pct_of(&later, 0.5),
        pct_of(&later, 0.9),
        pct_of(&later, 0.99),
        pct_of(&later, 1.0)
    );
    println!("failures {}", shared.failures.load(Ordering::Relaxed));
    Ok(())
}
