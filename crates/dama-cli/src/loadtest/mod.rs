//! `dama loadtest`: many concurrent games over real websockets against a server in its
//! own process; reports moves/s, move round-trip percentiles and server memory per game.
//! `--hostile N` mixes in clients that try to break the server ([`hostile`]); `--idle N`
//! measures the memory of games nobody plays ([`idle`]); `--seeks N` measures lobby
//! pairing with N open seeks ([`seeks`]); `--followers N` how soon N followers hear a
//! game start ([`followers`]); `--arena N` how soon an arena of N programs pairs each
//! player again once their game ends ([`arena`]); `--attacks` replays the attacks on the
//! account layer and reports memory, health-check latency and an honest visitor's wait
//! ([`attacks`]).

mod arena;
mod attacks;
mod followers;
mod hostile;
mod idle;
mod seeks;

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use dama_core::movegen::legal_moves;
use dama_core::notation::move_to_string;
use dama_core::variant::English;
use dama_core::Position;
use dama_server::client::http;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;

/// Arguments of `dama loadtest`.
#[derive(clap::Args)]
pub struct Args {
    /// Concurrent games [default: 2000]; with --arena, the games each player plays
    /// [default: 5].
    #[arg(long)]
    games: Option<usize>,
    /// Spectators per game.
    #[arg(long, default_value_t = 1)]
    spectators: usize,
    /// Plies per game (then the game is resigned).
    #[arg(long, default_value_t = 30)]
    plies: usize,
    /// Players think a random time up to twice this before each move (ms).
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// Use a running server instead of starting one.
    #[arg(long)]
    addr: Option<SocketAddr>,
    /// Use running servers, the nodes of a cluster (HOST:PORT or http://HOST:PORT,
    /// comma-separated): each game is created on one, joined and played by its second
    /// player on the next, and watched on the one after, so that most requests reach a
    /// node that does not own the game.
    #[arg(long, value_delimiter = ',', conflicts_with = "addr")]
    targets: Vec<String>,
    /// Hostile clients running beside the games: oversized frames, floods of offers,
    /// unknown ids and bad JSON, replay bombs, hint floods.
    #[arg(long, default_value_t = 0)]
    hostile: usize,
    /// Instead of playing: create this many games of each mode, nobody connected, and
    /// report the server's memory while they are loaded and once they are unloaded.
    #[arg(long)]
    idle: Option<usize>,
    /// Measure what the server's log and metrics cost: this many rounds, each playing
    /// the games once with both off and once with both on; reports the p99 round trips.
    #[arg(long, default_value_t = 0)]
    overhead: usize,
    /// With --addr: the server's process id, to read its CPU time and memory.
    #[arg(long)]
    server_pid: Option<u32>,
    /// The database of the server started here (default: a fresh SQLite file), e.g.
    /// postgres://postgres@127.0.0.1/loadtest.
    #[arg(long)]
    database_url: Option<String>,
    /// Instead of playing: keep this many seeks open in the lobby and pair them (see
    /// `--pairings`); reports the round trips of offering, accepting and listing.
    #[arg(long)]
    seeks: Option<usize>,
    /// Instead of playing: this many accounts follow one player with a page open;
    /// reports how soon each hears that player's game start.
    #[arg(long)]
    followers: Option<usize>,
    /// Instead of playing: this many programs (accounts with bot tokens) play in one
    /// arena, White resigning each game after up to twice --think-ms; reports how soon
    /// a player hears their next game start once their game ends.
    #[arg(long)]
    arena: Option<usize>,
    /// With --seeks: how many seeks are accepted.
    #[arg(long, default_value_t = 1000)]
    pairings: usize,
    /// Instead of playing: replay the attacks on the account layer (sign-up floods, DXP
    /// floods, analysis floods, each from addresses of their own on loopback) against a
    /// server with its default limits; reports its peak memory, the health check's
    /// latency and an honest visitor's wait.
    #[arg(long)]
    attacks: bool,
    /// The server program to start (default: this one), e.g. an older build to compare.
    #[arg(long)]
    server_bin: Option<std::path::PathBuf>,
}

impl Args {
    /// Concurrent games.
    fn games(&self) -> usize {
        self.games.unwrap_or(2000)
    }
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A field of /proc/PID/status, KB.
fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines().find(|l| l.starts_with(field))?.split_whitespace().nth(1)?.parse().ok()
}

/// Resident memory of a process, KB.
fn rss_kb(pid: u32) -> Option<u64> {
    status_kb(pid, "VmRSS:")
}

/// A loopback address with a port free now.
fn free_address() -> std::io::Result<SocketAddr> {
    std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()
}

/// CPU time a process has used (user and system), in seconds: fields 14 and 15 of
/// /proc/PID/stat, in ticks of 1/100 s (Linux's USER_HZ).
fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces: count fields after it.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

struct ServerProcess(Child);
impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn next_move_event(ws: &mut Ws, ply: usize) -> Result<()> {
    loop {
        let m =
            tokio::time::timeout(Duration::from_secs(30), ws.next()).await.map_err(|_| anyhow!("no event in 30 s"))?;
        if let Some(Ok(Message::Text(t))) = m {
            let v: Value = serde_json::from_str(t.as_str())?;
            if v["type"] == "move" && v["ply"].as_u64() == Some(ply as u64) {
                return Ok(());
            }
            if v["type"] == "error" {
                bail!("server refused a move: {v}");
            }
        } else if m.is_none() {
            bail!("connection closed");
        }
    }
}

async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Result<Ws> {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await?;
    ws.send(Message::Text(json!({"type": "hello", "token": token}).to_string().into())).await?;
    ws.next().await; // the snapshot
    Ok(ws)
}

struct Stats {
    latencies_us: Mutex<Vec<u32>>,
    moves: AtomicU64,
    spectator_events: AtomicU64,
    failures: AtomicU64,
}

async fn game(
    nodes: Arc<Vec<SocketAddr>>,
    a: Arc<Args>,
    stats: Arc<Stats>,
    seed: u64,
    ready: Arc<tokio::sync::Barrier>,
    setup: Arc<Semaphore>,
) -> Result<()> {
    // The game's three nodes (one and the same with a single server).
    let at = |k: u64| nodes[((seed + k) % nodes.len() as u64) as usize];
    let (addr, second, third) = (at(0), at(1), at(2));
    // Connections are opened a few at a time; then every game starts together.
    let permit = setup.acquire_owned().await?;
    let (st, v) = http(
        addr,
        "POST",
        "/api/games",
        None,
        Some(&json!({"variant": "english", "mode": "friend", "color": "black"}).to_string()),
    )
    .await?;
    if st != 201 {
        bail!("create: {st} {v}");
    }
    let id = v["id"].as_str().unwrap_or_default().to_string();
    let black = v["token"].as_str().unwrap_or_default().to_string();
    let invite = json!({ "invite": v["invite"] }).to_string();
    let (st, v) = http(second, "POST", &format!("/api/games/{id}/join"), None, Some(&invite)).await?;
    if st != 200 {
        bail!("join: {st} {v}");
    }
    let white = v["token"].as_str().unwrap_or_default().to_string();
    let mut players = [connect(addr, &id, Some(&black)).await?, connect(second, &id, Some(&white)).await?];
    let mut watchers = Vec::new();
    for _ in 0..a.spectators {
        watchers.push(connect(third, &id, None).await?);
    }
    let counter = stats.clone();
    let plies = a.plies;
    let watch = tokio::spawn(async move {
        for mut w in watchers {
            let c = counter.clone();
            tokio::spawn(async move {
                while let Some(Ok(m)) = w.next().await {
                    if let Message::Text(t) = m {
                        if t.as_str().contains("\"type\":\"move\"") {
                            c.spectator_events.fetch_add(1, Ordering::Relaxed);
                        }
                        if t.as_str().contains("\"type\":\"end\"") {
                            break;
                        }
                    }
                }
            });
        }
        plies
    });
    drop(permit);
    ready.wait().await;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Position::<English>::start();
    for ply in 1..=a.plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.gen_range(0..moves.len())];
        let text = move_to_string(&pos, &m, true);
        if a.think_ms > 0 {
            tokio::time::sleep(Duration::from_millis(rng.gen_range(0..=2 * a.think_ms))).await;
        }
        let mover = &mut players[(ply - 1) % 2];
        let t = Instant::now();
        mover.send(Message::Text(json!({"type": "move", "move": text}).to_string().into())).await?;
        next_move_event(mover, ply).await?;
        stats.latencies_us.lock().map_err(|_| anyhow!("lock"))?.push(t.elapsed().as_micros() as u32);
        stats.moves.fetch_add(1, Ordering::Relaxed);
        pos = pos.play(&m);
    }
    players[0].send(Message::Text(json!({"type": "resign"}).to_string().into())).await?;
    let _ = watch.await;
    Ok(())
}

/// Runs `dama loadtest`.
pub fn run(a: Args) -> Result<()> {
    // Each game holds 2 + spectators websockets in this process (and as many in the
    // server, which inherits the limit), plus a few short HTTP connections.
    let per_game = 3 + a.spectators as u64;
    // An arena's player holds its event stream and now and then a request.
    let want = a.arena.map_or(a.games() as u64 * per_game, |n| n as u64 * 3) + 1024;
    // A privileged user may raise the hard limit too (up to fs.nr_open).
    if rlimit::Resource::NOFILE.get().is_ok_and(|(_, hard)| hard < want) {
        let _ = rlimit::Resource::NOFILE.set(want, want);
    }
    let got = rlimit::increase_nofile_limit(want).unwrap_or(0);
    if got < want && a.arena.is_some() {
        bail!(
            "open files are limited to {got} here (the hard limit): an arena of {} players needs {want}",
            a.arena.unwrap_or(0)
        );
    }
    if got < want && a.idle.is_none() && !a.attacks {
        let fit = got.saturating_sub(1024) / per_game;
        bail!(
            "open files are limited to {got} here (the hard limit): {fit} games with {} spectators fit, not {}; \
             run with --games {fit} or raise the hard limit (ulimit -Hn, or LimitNOFILE for a service)",
            a.spectators,
            a.games()
        );
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async_run(a))
}

/// Starts `bin serve` on a free port with `database_url` or a fresh SQLite database (and
/// `env`), and waits
/// until it accepts connections.
async fn start_server(
    bin: &std::path::Path,
    env: &[(&str, &str)],
    database_url: Option<&str>,
) -> Result<(SocketAddr, ServerProcess, std::path::PathBuf)> {
    let addr = free_address()?;
    let db = std::env::temp_dir().join(format!("dama-loadtest-{}-{}.sqlite", std::process::id(), addr.port()));
    let _ = std::fs::remove_file(&db);
    // One address plays every game here: its per-address rate limits are lifted. The
    // bundled collections are not counted into the explorer nor scanned for puzzles:
    // that background work (minutes of a core on a fresh database) is not the games'.
    let settings = [
        ("DAMA_GAMES_PER_MINUTE", "0"),
        ("DAMA_REQUESTS_PER_MINUTE", "0"),
        ("DAMA_EXPLORER_BUNDLED", "false"),
        ("DAMA_PUZZLES_BUNDLED", "false"),
    ];
    // The server's log goes to a file beside its database (removed with it), as a log
    // would in production, and stays out of the report.
    let log = std::fs::File::create(db.with_extension("log"))?;
    let child = Command::new(bin)
        .args(["serve", "--bind", &addr.to_string(), "--database-url"])
        .arg(database_url.map_or_else(|| format!("sqlite:{}", db.display()), str::to_string))
        // No endgame tables: building or loading them would take CPU and memory that
        // are not the games'.
        .args(["--egdb-build", "false", "--egdb"])
        .arg(db.with_extension("no-egdb"))
        .envs(settings.iter().chain(env).copied())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .with_context(|| format!("starting the server {}", bin.display()))?;
    let p = ServerProcess(child);
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            return Ok((addr, p, db));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let log = std::fs::read_to_string(db.with_extension("log")).unwrap_or_default();
    remove_db(&db);
    bail!(
        "the server did not start listening on {addr}; its log ends:\n{}",
        log.lines().rev().take(5).collect::<Vec<_>>().join("\n")
    )
}

fn remove_db(db: &std::path::Path) {
    for s in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{s}", db.display()));
    }
    let _ = std::fs::remove_file(db.with_extension("log"));
}

async fn async_run(a: Args) -> Result<()> {
    let bin = match &a.server_bin {
        Some(b) => b.clone(),
        None => std::env::current_exe()?,
    };
    if let Some(n) = a.idle {
        return idle::run(&bin, n).await;
    }
    if a.attacks {
        return attacks::run(&bin).await;
    }
    let args = Arc::new(a);
    if args.overhead > 0 {
        return overhead(&bin, args).await;
    }
    if !args.targets.is_empty() {
        let nodes = args.targets.iter().map(|t| parse_target(t)).collect::<Result<Vec<_>>>()?;
        let report = play(nodes, args.server_pid, args.clone(), None).await?;
        report.print(&args, args.server_pid);
        return Ok(());
    }
    // Many followers sign in from this one address: the log-in pace is lifted then; an
    // arena's players sign up from it, a few at a time, each hashing a password.
    let env: &[(&str, &str)] = if args.arena.is_some() {
        &[("DAMA_LOGINS_PER_MINUTE", "0"), ("DAMA_PASSWORD_WAIT_MS", "60000")]
    } else if args.followers.is_some() {
        &[("DAMA_LOGINS_PER_MINUTE", "0")]
    } else {
        &[]
    };
    let (addr, server) = match args.addr {
        Some(addr) => (addr, None),
        None => {
            let (addr, p, db) = start_server(&bin, env, args.database_url.as_deref()).await?;
            (addr, Some((p, db)))
        }
    };
    if let Some(n) = args.followers {
        let r = followers::run(addr, n).await;
        if let Some((_, db)) = server {
            remove_db(&db);
        }
        return r;
    }
    if let Some(n) = args.arena {
        let r = arena::run(addr, n, args.games.unwrap_or(5), 2 * args.think_ms).await;
        if let Some((_, db)) = server {
            remove_db(&db);
        }
        return r;
    }
    if let Some(n) = args.seeks {
        let r = seeks::run(addr, n, args.pairings).await;
        if let Some((_, db)) = server {
            remove_db(&db);
        }
        return r;
    }
    let pid = server.as_ref().map(|(p, _)| p.0.id()).or(args.server_pid);
    let report = play(vec![addr], pid, args.clone(), None).await?;
    report.print(&args, pid);
    if let Some((_, db)) = server {
        remove_db(&db);
    }
    Ok(())
}

/// `--overhead N`: N rounds, each one run with the server's log and metrics off
/// (`RUST_LOG=off`, no metrics listener) and one with them on (the default log level,
/// metrics served and scraped while the games play); the p99 round trips of both.
async fn overhead(bin: &std::path::Path, args: Arc<Args>) -> Result<()> {
    let mut p99 = [Vec::new(), Vec::new()];
    let mut families = Vec::new();
    for round in 0..args.overhead {
        // Which runs first alternates, so that an effect of going second (a warmer
        // page cache, a drifting machine) does not count as the cost of either.
        let order = if round % 2 == 0 { [false, true] } else { [true, false] };
        for on in order {
            let metrics = free_address()?;
            let bind = metrics.to_string();
            let env: Vec<(&str, &str)> =
                if on { vec![("RUST_LOG", "info"), ("DAMA_METRICS_BIND", &bind)] } else { vec![("RUST_LOG", "off")] };
            let (addr, p, db) = start_server(bin, &env, args.database_url.as_deref()).await?;
            let report = play(vec![addr], Some(p.0.id()), args.clone(), on.then_some(metrics)).await?;
            drop(p);
            remove_db(&db);
            let q = report.percentile(0.99);
            println!(
                "round {} log and metrics {:<3}: p50 {:.2} ms  p99 {q:.2} ms  failures {}",
                round + 1,
                if on { "on" } else { "off" },
                report.percentile(0.5),
                report.failures
            );
            p99[usize::from(on)].push(q);
            if on && families.is_empty() {
                families = report.families;
            }
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    // Rounds differ more than log and metrics do (a database checkpoint in a round
    // moves its p99 tenfold): the ratio within each round, then their median.
    let mut ratios: Vec<f64> = p99[0].iter().zip(&p99[1]).map(|(off, on)| on / off).collect();
    let paired = median(&mut ratios);
    let (off, on) = (median(&mut p99[0]), median(&mut p99[1]));
    println!("p99 on/off within a round, median: {:+.1}%", (paired - 1.0) * 100.0);
    println!(
        "p99 round trip, median of {} rounds: off {off:.2} ms, on {on:.2} ms: {:+.1}%",
        args.overhead,
        (on / off - 1.0) * 100.0
    );
    println!("metric families seen ({}): {}", families.len(), families.join(" "));
    Ok(())
}

/// What one load run measured.
struct Report {
    latencies_ms: Vec<f64>,
    moves: u64,
    spectator_events: u64,
    failures: u64,
    setup_s: f64,
    play_s: f64,
    opened: bool,
    rss: (Option<u64>, Option<u64>, Option<u64>),
    hostile: String,
    /// The metric families `/metrics` showed while the games played.
    families: Vec<String>,
    /// CPU seconds while the games played: the server's (when its process is known)
    /// and this load generator's.
    cpu: (Option<f64>, Option<f64>),
}

impl Report {
    fn percentile(&self, p: f64) -> f64 {
        let n = self.latencies_ms.len();
        self.latencies_ms.get(((n as f64 * p) as usize).min(n.saturating_sub(1))).copied().unwrap_or(0.0)
    }

    fn print(&self, args: &Args, pid: Option<u32>) {
        let pct = |p| self.percentile(p);
        println!(
            "games {}  spectators/game {}  plies/game {}  think up to {} ms",
            args.games(),
            args.spectators,
            args.plies,
            2 * args.think_ms
        );
        println!("setup {:.1} s (all connected: {}); play {:.1} s", self.setup_s, self.opened, self.play_s);
        println!("moves {}  ({:.0} moves/s)", self.moves, self.moves as f64 / self.play_s.max(1e-9));
        println!("round trip ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}", pct(0.5), pct(0.9), pct(0.99), pct(1.0));
        println!("spectator move events {}  (expected {})", self.spectator_events, self.moves * args.spectators as u64);
        if let (Some(r0), Some(r1), peak) = self.rss {
            let peak = peak.unwrap_or(0);
            println!(
                "server memory: {} KB idle, {} KB with {} live games connected: {:.1} KB per game; peak {} KB ({:.1} KB per game)",
                r0,
                r1,
                args.games(),
                (r1 - r0.min(r1)) as f64 / args.games() as f64,
                peak,
                peak.saturating_sub(r0) as f64 / args.games() as f64
            );
        }
        let per_move = |s: f64| s * 1e6 / self.moves.max(1) as f64;
        for (who, secs) in [("server", self.cpu.0), ("load generator", self.cpu.1)] {
            if let Some(s) = secs {
                println!(
                    "{who} CPU while playing: {s:.2} s, {:.0} us per move ({:.2} s per 1,000 moves)",
                    per_move(s),
                    per_move(s) / 1000.0
                );
            }
        }
        println!("failures {}", self.failures);
        if args.hostile > 0 {
            println!("{}", self.hostile);
            if let Some(p) = pid {
                let alive = std::fs::metadata(format!("/proc/{p}")).is_ok();
                println!("server alive after the hostile clients: {alive}");
            }
        }
    }
}

/// The metric families a Prometheus endpoint shows now.
async fn scrape(metrics: SocketAddr) -> Vec<String> {
    let Ok((200, Value::String(text))) = http(metrics, "GET", "/metrics", None, None).await else {
        return Vec::new();
    };
    let mut f: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|l| l.split(' ').next())
        .map(String::from)
        .collect();
    f.sort();
    f.dedup();
    f
}

/// A node's address: HOST:PORT, or an http:// URL of it.
fn parse_target(t: &str) -> Result<SocketAddr> {
    let hostport = t.trim().trim_start_matches("http://").trim_end_matches('/');
    use std::net::ToSocketAddrs;
    hostport.to_socket_addrs()?.next().ok_or_else(|| anyhow!("--targets: '{t}' is not HOST:PORT"))
}

/// Plays `args.games` games against the servers at `nodes` (one server, or the nodes
/// of a cluster; process `pid`, for its memory), scraping `metrics` once every game is
/// connected.
async fn play(
    nodes: Vec<SocketAddr>,
    pid: Option<u32>,
    args: Arc<Args>,
    metrics: Option<SocketAddr>,
) -> Result<Report> {
    let addr = nodes[0];
    let nodes = Arc::new(nodes);
    let rss0 = pid.and_then(rss_kb);
    let stats = Arc::new(Stats {
        latencies_us: Mutex::new(Vec::new()),
        moves: AtomicU64::new(0),
        spectator_events: AtomicU64::new(0),
        failures: AtomicU64::new(0),
    });
    let ready = Arc::new(tokio::sync::Barrier::new(args.games() + 1));
    let setup = Arc::new(Semaphore::new(64));
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let hostile = hostile::spawn(addr, args.hostile, done.clone());
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..args.games() {
        let (a, s, r, setup, nodes) = (args.clone(), stats.clone(), ready.clone(), setup.clone(), nodes.clone());
        tasks.push(tokio::spawn(async move {
            let res = game(nodes, a, s.clone(), i as u64, r.clone(), setup).await;
            if let Err(e) = res {
                s.failures.fetch_add(1, Ordering::Relaxed);
                eprintln!("game {i}: {e}");
            }
        }));
    }
    // Everyone is connected when the barrier opens (failed games never reach it, so
    // wait for it only while no game has failed).
    let opened = tokio::time::timeout(Duration::from_secs(600), ready.wait()).await.is_ok();
    let setup_s = t0.elapsed().as_secs_f64();
    let rss_live = pid.and_then(rss_kb);
    let t1 = Instant::now();
    // CPU seconds so far: the server's (when its process is known) and this process's.
    let cpu_now = || (pid.and_then(|p| cpu_seconds(&p.to_string())), cpu_seconds("self"));
    let cpu0 = cpu_now();
    let mut families = match metrics {
        Some(m) => {
            tokio::time::sleep(Duration::from_millis(args.think_ms.max(500))).await;
            scrape(m).await
        }
        None => Vec::new(),
    };
    for t in tasks {
        let _ = t.await;
    }
    // Once more at the end, for the families that need a game to finish.
    if let Some(m) = metrics {
        families.extend(scrape(m).await);
        families.sort();
        families.dedup();
    }
    let play_s = t1.elapsed().as_secs_f64();
    let cpu1 = cpu_now();
    let cpu = (cpu0.0.zip(cpu1.0).map(|(a, b)| b - a), cpu0.1.zip(cpu1.1).map(|(a, b)| b - a));
    done.store(true, Ordering::Relaxed);
    let hostile = hostile.finish().await;
    let peak = pid.and_then(|p| status_kb(p, "VmHWM:"));
    let mut lat = stats.latencies_us.lock().map_err(|_| anyhow!("lock"))?.clone();
    lat.sort_unstable();
    Ok(Report {
        latencies_ms: lat.iter().map(|x| f64::from(*x) / 1000.0).collect(),
        moves: stats.moves.load(Ordering::Relaxed),
        spectator_events: stats.spectator_events.load(Ordering::Relaxed),
        failures: stats.failures.load(Ordering::Relaxed),
        setup_s,
        play_s,
        opened,
        rss: (rss0, rss_live, peak),
        hostile: hostile.to_string(),
        families,
        cpu,
    })
}
