//! Cluster mode with real processes, a real PostgreSQL and a real NATS server (both run
//! on loopback here and in CI): three `dama serve` nodes share the games; any node
//! serves any game; a node killed with SIGKILL loses nothing and its games go on
//! elsewhere within seconds; a rolling restart (SIGTERM, start again) of every node
//! pauses no game for long and loses no move.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const NATS: &str = "nats://127.0.0.1:4222";

/// A `dama serve` process, node `name` of the cluster.
struct Node {
    name: String,
    child: Child,
    addr: SocketAddr,
}

impl Node {
    fn start(name: &str, db: &str) -> Node {
        Node::start_with(name, db, &[])
    }

    /// Node `name` of the cluster whose database is `db` (its name is the database's,
    /// so that tests running at once never meet on the NATS server).
    fn start_with(name: &str, db: &str, extra: &[&str]) -> Node {
        let cluster = db.rsplit('/').next().unwrap();
        let egdb = std::env::temp_dir().join("dama-cluster-test-no-egdb");
        let log = std::fs::File::create(std::env::temp_dir().join(format!("dama-cluster-{name}.log"))).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_dama"))
            .args(["serve", "--bind", "127.0.0.1:0", "--egdb-build", "false", "--cluster", NATS, "--node-id", name])
            .args(["--puzzles-bundled", "false"])
            .args(["--games-per-minute", "0", "--requests-per-minute", "0", "--cluster-name", cluster])
            .args(extra)
            .arg("--database-url")
            .arg(db)
            .arg("--egdb")
            .arg(&egdb)
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("run dama serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("node {name} did not start: {line} (see its log in the temp directory)"));
        Node { name: name.to_string(), child, addr: addr.parse().unwrap() }
    }

    /// SIGTERM, then waits for the exit.
    fn stop(mut self) {
        let ok = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        assert!(ok.success());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "node {} stopped with {status:?}", self.name);
    }

    /// SIGKILL: the process dies at once, holding its leases.
    fn kill(mut self) {
        self.child.kill().unwrap();
        let _ = self.child.wait();
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// A fresh database on the local PostgreSQL, or None (with a note) when PostgreSQL or
/// NATS is not there, outside CI.
async fn services() -> Option<String> {
    let base =
        std::env::var("DAMA_TEST_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
    let made = async {
        tokio::net::TcpStream::connect("127.0.0.1:4222").await.map_err(|e| format!("NATS: {e}"))?;
        dama_server::testing::fresh_postgres(&base, "dama_cluster").await.map_err(|e| format!("PostgreSQL: {e}"))
    };
    match made.await {
        Ok(url) => Some(url),
        Err(e) if std::env::var("CI").is_ok() => panic!("PostgreSQL and NATS must be reachable in CI: {e}"),
        Err(e) => {
            eprintln!("skipping the cluster test: {e}");
            None
        }
    }
}

async fn http(addr: SocketAddr, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let body = body.map(|b| b.to_string());
    dama_server::client::http(addr, method, path, token, body.as_deref()).await.unwrap_or((0, Value::Null))
}

/// A move through `addr`, retried while the game's node is being replaced (503) until
/// `within`; returns how long it took.
async fn play(addr: SocketAddr, id: &str, token: &str, mv: &str, within: Duration) -> Duration {
    let start = Instant::now();
    loop {
        let body = json!({"type": "move", "move": mv});
        let (st, v) = http(addr, "POST", &format!("/api/games/{id}/actions"), Some(token), Some(body)).await;
        if st == 200 {
            return start.elapsed();
        }
        assert!(st == 503 || st == 0, "{id} {mv}: {st} {v}");
        assert!(start.elapsed() < within, "{id} {mv}: still {st} after {within:?}: {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn moves(addr: SocketAddr, id: &str) -> Vec<String> {
    let (st, v) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(st, 200, "{v}");
    v["moves"].as_array().unwrap().iter().map(|m| m["notation"].as_str().unwrap().to_string()).collect()
}

/// A game between two seats: (id, White's token, Black's token).
struct Game {
    id: String,
    white: String,
    black: String,
}

/// A friend game with a 10-minute clock created on `on`, joined through `join`.
async fn new_game(on: SocketAddr, join: SocketAddr) -> Game {
    let opts = json!({"variant": "english", "mode": "friend", "color": "white",
        "time": {"kind": "fischer", "initial_ms": 600_000, "increment_ms": 0}});
    let (st, v) = http(on, "POST", "/api/games", None, Some(opts)).await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (st, j) =
        http(join, "POST", &format!("/api/games/{id}/join"), None, Some(json!({"invite": v["invite"]}))).await;
    assert_eq!(st, 200, "{j}");
    Game { id, white: v["token"].as_str().unwrap().into(), black: j["token"].as_str().unwrap().into() }
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn watch(addr: SocketAddr, id: &str) -> Ws {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.unwrap();
    ws.send(Message::text(json!({"type": "hello"}).to_string())).await.unwrap();
    ws
}

/// The next message of type `kind`, within 10 s.
async fn next_of(ws: &mut Ws, kind: &str) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Some(Ok(Message::Text(t))) = ws.next().await {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == kind {
                    return v;
                }
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no {kind} message"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_share_games_and_lose_nothing_to_a_kill_or_a_rolling_restart() {
    let Some(db) = services().await else { return };
    let a = Node::start("a", &db);
    let b = Node::start("b", &db);
    let c = Node::start("c", &db);

    // 100 games created on node a, joined through b: every game is a's.
    let mut games = Vec::new();
    for _ in 0..100 {
        games.push(new_game(a.addr, b.addr).await);
    }
    // A spectator of the first game on c hears moves made through b and a.
    let mut ws = watch(c.addr, &games[0].id).await;
    assert_eq!(next_of(&mut ws, "snapshot").await["game"]["state"], "live");
    let long = Duration::from_secs(30);
    for g in &games {
        play(b.addr, &g.id, &g.black, "11-15", long).await;
        play(c.addr, &g.id, &g.white, "22-18", long).await;
    }
    let seen = next_of(&mut ws, "move").await;
    assert_eq!(seen["mv"]["notation"], "11-15", "{seen}");
    assert_eq!(next_of(&mut ws, "move").await["mv"]["notation"], "22-18");
    assert_eq!(moves(c.addr, &games[0].id).await, ["11-15", "22-18"]);

    // Node a dies with all the games: each goes on through b or c within 5 s.
    let killed = Instant::now();
    a.kill();
    let mut slowest = Duration::ZERO;
    for g in &games {
        play(b.addr, &g.id, &g.black, "15x22", Duration::from_secs(15)).await;
        slowest = slowest.max(killed.elapsed());
    }
    eprintln!("after kill -9 of the owner, all 100 games moved again within {slowest:?}");
    assert!(slowest < Duration::from_secs(5), "{slowest:?}");
    // The spectator on c saw the move made after the takeover, on its same connection.
    assert_eq!(next_of(&mut ws, "move").await["mv"]["notation"], "15x22");
    for g in &games {
        assert_eq!(moves(c.addr, &g.id).await, ["11-15", "22-18", "15x22"], "{}", g.id);
    }

    // Node a comes back; then a rolling restart of every node: each in turn stops
    // (SIGTERM: its games go to the others), one move is played in every game through
    // the next node, and it starts again.
    let mut nodes = vec![b, c, Node::start("a", &db)];
    let line = ["25x18", "8-11", "29-25"];
    for (round, mv) in line.iter().enumerate() {
        let stopping = nodes.remove(0);
        let name = stopping.name.clone();
        stopping.stop();
        let via = nodes[0].addr;
        let mut pause = Duration::ZERO;
        for g in &games {
            // Plies 4 (White), 5 (Black), 6 (White).
            let token = if round % 2 == 0 { &g.white } else { &g.black };
            pause = pause.max(play(via, &g.id, token, mv, Duration::from_secs(10)).await);
        }
        eprintln!("{name} drained: the longest wait for a move was {pause:?}");
        assert!(pause < Duration::from_secs(3), "{name}: {pause:?}");
        nodes.push(Node::start(&name, &db));
    }
    for g in &games {
        let want = ["11-15", "22-18", "15x22", "25x18", "8-11", "29-25"];
        assert_eq!(moves(nodes[1].addr, &g.id).await, want, "{}", g.id);
    }
}

/// The lobby is one for all nodes, and engine work runs on a `dama worker` when the
/// nodes take none themselves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_is_shared_and_a_worker_plays_the_engine_moves() {
    let Some(db) = services().await else { return };
    let worker_log = std::env::temp_dir().join(format!("dama-cluster-worker-{}.log", std::process::id()));
    let mut worker = Command::new(env!("CARGO_BIN_EXE_dama"))
        .args(["worker", "--cluster", NATS, "--engine-threads", "1", "--cluster-name"])
        .arg(db.rsplit('/').next().unwrap())
        .arg("--egdb")
        .arg(std::env::temp_dir().join("dama-cluster-test-no-egdb"))
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&worker_log).unwrap())
        .spawn()
        .expect("run dama worker");
    let mut line = String::new();
    BufReader::new(worker.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert!(line.contains("taking engine jobs"), "{line}");
    let start = |name: &str| Node::start_with(name, &db, &["--engine-worker", "false"]);
    let (x, y) = (start("x"), start("y"));

    // A seek made on x is listed on y, and y's lobby hears it go when it is accepted.
    let (st, v) = http(x.addr, "POST", "/api/games", None, Some(json!({"variant": "russian", "mode": "open"}))).await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let listed = |addr| {
        let id = id.clone();
        async move {
            let (_, l) = http(addr, "GET", "/api/seeks", None, None).await;
            l["seeks"].as_array().is_some_and(|s| s.iter().any(|s| s["id"] == id.as_str()))
        }
    };
    let until = Instant::now() + Duration::from_secs(5);
    while !listed(y.addr).await {
        assert!(Instant::now() < until, "the seek never reached node y");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (st, v) = http(y.addr, "POST", &format!("/api/seeks/{id}/accept"), None, None).await;
    assert_eq!(st, 200, "{v}");
    while listed(y.addr).await || listed(x.addr).await {
        assert!(Instant::now() < until, "the accepted seek is still listed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // A challenge made on x reaches the player's page connected to y at once (their
    // live socket there; the notification crosses over NATS).
    let sign_up = |addr: SocketAddr, name: &'static str| async move {
        let body = json!({"name": name, "password": "a good password"}).to_string();
        let r = dama_server::client::request(addr, "POST", "/api/accounts", &[], Some(&body)).await.unwrap();
        assert_eq!(r.status, 201, "{}", r.body);
        r.header("set-cookie").unwrap().split(';').next().unwrap().to_string()
    };
    let (ann, bob) = (sign_up(x.addr, "ann").await, sign_up(y.addr, "bob").await);
    let mut req = format!("ws://{}/api/me/ws", y.addr).into_client_request().unwrap();
    req.headers_mut().insert("cookie", bob.parse().unwrap());
    req.headers_mut().insert("origin", format!("http://{}", y.addr).parse().unwrap());
    let (mut bob_page, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    next_of(&mut bob_page, "unread").await;
    let terms = json!({"variant": "russian"}).to_string();
    let r =
        dama_server::client::request(x.addr, "POST", "/api/players/bob/challenge", &[("Cookie", &ann)], Some(&terms))
            .await
            .unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let heard = next_of(&mut bob_page, "notification").await;
    assert_eq!(
        (heard["notification"]["kind"].as_str(), heard["notification"]["from"].as_str()),
        (Some("challenge"), Some("ann"))
    );

    // A game against the engine on y: neither node searches; the worker does.
    let body = json!({"variant": "english", "mode": "ai", "level": 1, "color": "white"});
    let (st, v) = http(y.addr, "POST", "/api/games", None, Some(body)).await;
    assert_eq!(st, 201, "{v}");
    let (game, token) = (v["id"].as_str().unwrap().to_string(), v["token"].as_str().unwrap().to_string());
    // English: Black (the engine) moves first.
    let until = Instant::now() + Duration::from_secs(20);
    while moves(x.addr, &game).await.is_empty() {
        assert!(Instant::now() < until, "the engine never moved");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = token;
    let log = std::fs::read_to_string(&worker_log).unwrap();
    assert!(log.contains(&game), "the worker did not search for {game}: {log}");
    let _ = worker.kill();
    let _ = worker.wait();
    drop((x, y));
}

/// A tournament in a cluster: its director (the node holding the event's lease) is
/// killed with SIGKILL in the middle of a game; the game goes on elsewhere, its result
/// is recorded once, and another node directs the event on: the players are paired
/// again, with nothing lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_goes_on_when_its_director_is_killed() {
    let Some(db) = services().await else { return };
    let a = Node::start("ta", &db);
    let request = |addr: SocketAddr,
                   method: &'static str,
                   path: String,
                   headers: Vec<(String, String)>,
                   body: Value| async move {
        let h: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        dama_server::client::request(addr, method, &path, &h, Some(&body.to_string())).await.unwrap()
    };
    // Two players, each with a program's token.
    let mut players = Vec::new();
    for name in ["ann", "bob"] {
        let r = request(
            a.addr,
            "POST",
            "/api/accounts".into(),
            vec![],
            json!({"name": name, "password": "a good password"}),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.body);
        let cookie = r.header("set-cookie").unwrap().split(';').next().unwrap().to_string();
        let r = request(
            a.addr,
            "POST",
            "/api/tokens".into(),
            vec![("Cookie".into(), cookie.clone())],
            json!({"scopes": ["bot:play"]}),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.body);
        players.push((name, cookie, r.body["token"].as_str().unwrap().to_string()));
    }
    let arena = json!({"name": "Cluster arena", "format": "arena", "variant": "english",
        "time": {"kind": "fischer", "initial_ms": 180000, "increment_ms": 2000}, "minutes": 30});
    let r =
        request(a.addr, "POST", "/api/tournaments".into(), vec![("Cookie".into(), players[0].1.clone())], arena).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["tournament"]["id"].as_str().unwrap().to_string();
    for (_, cookie, _) in &players {
        let r = request(
            a.addr,
            "POST",
            format!("/api/tournaments/{id}/join"),
            vec![("Cookie".into(), cookie.clone())],
            json!({}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // The games of the event, as a node lists them.
    let games = |addr: SocketAddr| {
        let id = id.clone();
        async move {
            let (st, v) = http(addr, "GET", &format!("/api/tournaments/{id}"), None, None).await;
            if st != 200 {
                return Vec::new();
            }
            v["pairings"].as_array().cloned().unwrap_or_default()
        }
    };
    let until = Instant::now() + Duration::from_secs(10);
    let first = loop {
        // A pairing is listed once stored, and its game a moment later.
        if let Some(p) = games(a.addr).await.into_iter().next().filter(|p| p["game"].is_string()) {
            break p;
        }
        assert!(Instant::now() < until, "node ta never paired the event");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let game = first["game"].as_str().unwrap().to_string();
    // Node b comes; node a, which directs the event and owns its game, is killed.
    let b = Node::start("tb", &db);
    a.kill();
    // The player at White resigns through b (once b has taken the game over).
    let white = players.iter().find(|p| p.0 == first["white"].as_str().unwrap()).unwrap();
    let auth = format!("Bearer {}", white.2);
    let until = Instant::now() + Duration::from_secs(15);
    loop {
        let r = request(
            b.addr,
            "POST",
            format!("/api/bot/game/{game}/resign"),
            vec![("Authorization".into(), auth.clone())],
            json!({}),
        )
        .await;
        if r.status == 200 {
            break;
        }
        assert!(Instant::now() < until, "the game never came back: {} {}", r.status, r.body);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Node b directs the event once a's lease has run out: the players are paired again,
    // and the first game's result is kept, once. A pairing is stored before its game is
    // made, so the new pairing is awaited with its game.
    let until = Instant::now() + Duration::from_secs(15);
    let pairings = loop {
        let p = games(b.addr).await;
        if p.len() >= 2 && p[1]["game"].is_string() {
            break p;
        }
        assert!(Instant::now() < until, "node tb never paired the event again: {p:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(pairings[0]["game"].as_str(), Some(game.as_str()));
    assert_eq!(pairings[0]["result"], "0-1", "{pairings:?}");
    assert!(pairings[1]["result"].is_null() && pairings[1]["game"].is_string(), "{pairings:?}");
    let (_, v) = http(b.addr, "GET", &format!("/api/tournaments/{id}"), None, None).await;
    let points: i64 = v["standings"].as_array().unwrap().iter().map(|s| s["points"].as_i64().unwrap()).sum();
    assert_eq!(points, 2, "{:#}", v["standings"]);
    drop(b);
}
