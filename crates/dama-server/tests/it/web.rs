//! The web UI end to end in a real headless browser (Debian's chromium driven over
//! WebDriver by chromedriver): every click below is a real pointer click on the page.
//! Screenshots of each scenario go to `target/e2e-screenshots/`.
//!
//! `scripts/install-browser` installs chromium and chromedriver (`.ci/run` calls it).
//! Without them the tests say so and pass, except in CI (`CI` set), where they fail.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use dama_core::Variant;
use dama_engine::level::Level;
use dama_engine::search::Limits;
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

pub(crate) const WAIT: Duration = Duration::from_secs(20);

fn tools() -> Option<(String, String)> {
    let chrome = std::env::var("CHROME_BIN").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let driver = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    if Path::new(&chrome).exists() && Path::new(&driver).exists() {
        return Some((chrome, driver));
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI needs chromium and chromedriver: run scripts/install-browser ({chrome}, {driver})"
    );
    eprintln!("skipped: no {chrome} or {driver}; run scripts/install-browser to run the browser tests");
    None
}

fn shots_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e-screenshots");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A chromedriver process, killed on drop.
pub(crate) struct Driver {
    child: Child,
    url: String,
    chrome: String,
    downloads: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The server and a chromedriver for the test `name`, or nothing without a browser.
pub(crate) async fn start(name: &str) -> Option<(SocketAddr, Driver)> {
    let limits =
        dama_server::Limits { explorer_bundled: Some(false), puzzles_bundled: Some(false), ..Default::default() };
    start_with(name, limits).await
}

/// [`start`] with these limits.
pub(crate) async fn start_with(name: &str, limits: dama_server::Limits) -> Option<(SocketAddr, Driver)> {
    let (chrome, chromedriver) = tools()?;
    let addr = server(name, limits).await;
    let downloads = std::env::temp_dir().join(format!("dama-dl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&downloads);
    std::fs::create_dir_all(&downloads).unwrap();
    Some((addr, driver(&chromedriver, chrome, downloads).await))
}

async fn driver(path: &str, chrome: String, downloads: PathBuf) -> Driver {
    let port = free_port();
    let child = Command::new(path)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let url = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + WAIT;
    while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Driver { child, url, chrome, downloads }
}

/// chromedriver's network conditions for a session (a command of its own, beside the
/// WebDriver standard's).
#[derive(Debug)]
struct NetworkConditions(String);

impl fantoccini::wd::WebDriverCompatibleCommand for NetworkConditions {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/chromium/network_conditions", session.unwrap_or_default()))
    }
    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        (axum::http::Method::POST, Some(self.0.clone()))
    }
}

/// Slows `c`'s network down to a mobile profile: `latency_ms` each way, and these
/// download and upload speeds in kilobits per second (every request of the page goes
/// through them).
pub(crate) async fn throttle(c: &Client, latency_ms: u32, down_kbps: u32, up_kbps: u32) {
    let body = json!({ "network_conditions": {
        "offline": false, "latency": latency_ms,
        "download_throughput": down_kbps * 1000 / 8, "upload_throughput": up_kbps * 1000 / 8,
    } });
    c.issue_cmd(NetworkConditions(body.to_string())).await.expect("network conditions");
}

/// A browser of its own (its own profile: cookies and storage are not shared).
pub(crate) async fn browser(d: &Driver, width: u32, height: u32, lang: &str) -> Client {
    browser_with(d, width, height, lang, &[]).await
}

/// A browser as [`browser`], with more command-line switches (`extra`).
pub(crate) async fn browser_with(d: &Driver, width: u32, height: u32, lang: &str, extra: &[&str]) -> Client {
    let mut args: Vec<String> = [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-extensions",
        "--no-first-run",
        "--hide-scrollbars",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    args.extend([format!("--window-size={width},{height}"), format!("--lang={lang}")]);
    args.extend(extra.iter().map(|a| a.to_string()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": d.chrome,
            "args": args,
            "prefs": {
                "intl.accept_languages": lang,
                "download.default_directory": d.downloads.display().to_string(),
                "download.prompt_for_download": false,
            },
        }),
    );
    // chromedriver now and then resets the connection of a new session while another
    // browser starts (seen once in 8 runs): ask again, up to three times.
    let mut tries = 0;
    let c = loop {
        let r = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps.clone())
            .connect(&d.url)
            .await;
        match r {
            Ok(c) => break c,
            Err(e) if tries < 2 => {
                tries += 1;
                eprintln!("a browser session, try {tries}: {e}");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Err(e) => panic!("a browser session: {e:?}"),
        }
    };
    // The window size is the outer size; make the page (viewport) the asked width.
    let inner: Value = c.execute("return [window.innerWidth, window.innerHeight]", vec![]).await.unwrap();
    let (iw, ih) = (inner[0].as_u64().unwrap() as u32, inner[1].as_u64().unwrap() as u32);
    c.set_window_size(width + (width - iw.min(width)), height + (height - ih.min(height))).await.unwrap();
    c
}

/// The play server on a free port with a database of its own.
async fn server(name: &str, limits: dama_server::Limits) -> SocketAddr {
    let p = std::env::temp_dir().join(format!("dama-web-{name}-{}.sqlite", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", p.display()));
    }
    let (router, _, _) = dama_server::app(&format!("sqlite:{}", p.display()), limits).await.expect("app");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>()).await.unwrap();
    });
    addr
}

pub(crate) async fn find(c: &Client, css: &str) -> Element {
    c.wait().at_most(WAIT).for_element(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}"))
}

/// Clicks an element, scrolled to the middle of the window first (the home page keeps
/// its Start button in a bar at the bottom). An element the page redrew between the
/// lookup and the click (a stale reference) is looked up again.
pub(crate) async fn click(c: &Client, css: &str) {
    let mut last = String::new();
    for _ in 0..5 {
        let e = find(c, css).await;
        let scrolled =
            c.execute("arguments[0].scrollIntoView({block: 'center'})", vec![serde_json::to_value(&e).unwrap()]).await;
        match scrolled {
            Ok(_) => match e.click().await {
                Ok(()) => return,
                Err(err) => last = err.to_string(),
            },
            Err(err) => last = err.to_string(),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("click {css}: {last}");
}

/// The text of an element (looked up again if the page redrew it meanwhile).
pub(crate) async fn text(c: &Client, css: &str) -> String {
    for _ in 0..5 {
        if let Ok(t) = find(c, css).await.text().await {
            return t;
        }
    }
    panic!("no stable {css}");
}

pub(crate) async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    std::fs::write(shots_dir().join(format!("{name}.png")), png).unwrap();
}

/// Waits until `f` holds, polling.
pub(crate) async fn until<F: std::future::Future<Output = bool>>(what: &str, mut f: impl FnMut() -> F) {
    let deadline = Instant::now() + WAIT;
    while !f().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(crate) async fn get(addr: SocketAddr, path: &str) -> Value {
    let (status, body) = dama_server::client::http(addr, "GET", path, None, None).await.unwrap();
    assert_eq!(status, 200, "{path}: {body}");
    body
}

/// The game id of the page.
pub(crate) async fn game_id(c: &Client) -> String {
    until("a game page", || async { c.current_url().await.unwrap().path().starts_with("/game/") }).await;
    c.current_url().await.unwrap().path().trim_start_matches("/game/").to_string()
}

/// The seat the page's browser holds.
pub(crate) async fn seat(c: &Client, id: &str) -> Value {
    c.execute(&format!("return JSON.parse(localStorage.getItem('dama.seat.{id}'))"), vec![]).await.unwrap()
}

/// Plays `mv` on the board by clicks: the piece, then the last square; for a capture
/// whose last square is shared by several routes, each landing square in turn.
pub(crate) async fn click_move(c: &Client, mv: &Value) {
    let path: Vec<&str> = mv["path"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    click(c, &format!("button[data-sq='{}']", path[0])).await;
    click(c, &format!("button[data-sq='{}']", path[path.len() - 1])).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    if !c.find_all(Locator::Css(".sq.sel")).await.unwrap().is_empty() {
        for sq in &path[1..] {
            click(c, &format!("button[data-sq='{sq}']")).await;
        }
    }
}

/// Plays `mv` by dragging the piece to its last square with the mouse.
async fn drag_move(c: &Client, mv: &Value) {
    use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
    let path = mv["path"].as_array().unwrap();
    let from = find(c, &format!("button[data-sq='{}']", path[0].as_str().unwrap())).await;
    let to = find(c, &format!("button[data-sq='{}']", path[path.len() - 1].as_str().unwrap())).await;
    let drag = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement { element: from, duration: None, x: 0.0, y: 0.0 })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::MoveToElement {
            element: to.clone(),
            duration: Some(Duration::from_millis(150)),
            x: 4.0,
            y: 4.0,
        })
        .then(PointerAction::MoveToElement { element: to, duration: None, x: 0.0, y: 0.0 })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    c.perform_actions(drag).await.unwrap();
}

/// Plays `mv` with the keyboard: Enter on the piece's square, the arrow keys move the
/// focus, Enter on the last square.
async fn key_move(c: &Client, mv: &Value) {
    let path = mv["path"].as_array().unwrap();
    let from = find(c, &format!("button[data-sq='{}']", path[0].as_str().unwrap())).await;
    from.send_keys("\u{E007}").await.unwrap();
    find(c, ".sq.sel").await;
    // An arrow key moves the focus to a neighbouring square, Escape keeps the selection.
    from.send_keys("\u{E012}").await.unwrap();
    let focused: Value = c.execute("return document.activeElement.dataset.sq || null", vec![]).await.unwrap();
    assert!(focused.is_string() && focused != path[0], "the focus moved: {focused}");
    let to = find(c, &format!("button[data-sq='{}']", path[path.len() - 1].as_str().unwrap())).await;
    to.send_keys("\u{E007}").await.unwrap();
}

/// A good move for the side to move of the game `snap`, chosen by the engine.
pub(crate) fn engine_choice(snap: &Value) -> Value {
    let variant = Variant::ALL.into_iter().find(|v| v.key() == snap["variant"]).unwrap();
    let mut p = dama_engine::player::player(variant, 4, None, 7);
    let moves: Vec<String> =
        snap["moves"].as_array().unwrap().iter().map(|m| m["long"].as_str().unwrap().into()).collect();
    p.set_position(Some(snap["start_fen"].as_str().unwrap()), &moves).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let d = p.think(Limits { nodes: Some(40_000), ..Limits::default() }, Level::new(10), &stop, &mut |_| {});
    let best = d.best.unwrap();
    snap["legal"].as_array().unwrap().iter().find(|m| m["long"] == best || m["notation"] == best).unwrap().clone()
}

/// Starts a game of `variant` on one device from `fen` through the home page's form;
/// its id.
pub(crate) async fn hotseat_from(c: &Client, addr: SocketAddr, variant: &str, fen: &str) -> String {
    c.goto(&format!("http://{addr}/")).await.unwrap();
    click(c, &format!("input[name=variant][value={variant}]")).await;
    click(c, "input[name=mode][value=hotseat]").await;
    click(c, "details summary").await;
    find(c, "input[name=fen]").await.send_keys(fen).await.unwrap();
    click(c, "#start").await;
    game_id(c).await
}

/// How many elements match `css` now.
pub(crate) async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.map(|v| v.len()).unwrap_or(0)
}

pub(crate) async fn wait_interactive(c: &Client) {
    find(c, ".board.interactive").await;
}

/// From now on, counts the times the page asks for the whole game again (`resync`).
async fn count_resyncs(c: &Client) {
    let js = "if (window.resyncs === undefined) { window.resyncs = 0; const send = WebSocket.prototype.send; \
              WebSocket.prototype.send = function (d) { if (String(d).includes('\"resync\"')) window.resyncs++; \
              return send.call(this, d); }; }";
    c.execute(js, vec![]).await.unwrap();
}

/// How often the page asked for the whole game since `count_resyncs`.
async fn resyncs(c: &Client) -> u64 {
    c.execute("return window.resyncs", vec![]).await.unwrap().as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn newcomer_plays_a_whole_game_against_the_computer() {
    let Some((addr, d)) = start("ai").await else { return };
    let c = browser(&d, 1280, 900, "en-US").await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    // Home: the defaults are a game against the computer; a newcomer picks English
    // and the weakest level, and presses Start.
    click(&c, "input[name=variant][value=english]").await;
    assert!(text(&c, "#summary").await.contains("capture forward only"));
    find(&c, "#level").await.select_by_value("1").await.unwrap();
    shot(&c, "ai-1-home-desktop").await;
    click(&c, "#start").await;
    let id = game_id(&c).await;
    let me = seat(&c, &id).await["color"].as_str().unwrap().to_string();
    find(&c, ".board").await;
    count_resyncs(&c).await;
    shot(&c, "ai-2-start").await;
    let mut plies = 0;
    loop {
        let snap = get(addr, &format!("/api/games/{id}")).await;
        if snap["state"] == "finished" {
            break;
        }
        if snap["side_to_move"] != me.as_str() || snap["legal"].as_array().unwrap().is_empty() {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        wait_interactive(&c).await;
        let snap = get(addr, &format!("/api/games/{id}")).await;
        if snap["state"] == "finished" || snap["side_to_move"] != me.as_str() {
            continue;
        }
        let mv = engine_choice(&snap);
        let before = snap["moves"].as_array().unwrap().len();
        click_move(&c, &mv).await;
        until("the move to be stored", || async {
            get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() > before
        })
        .await;
        plies += 1;
        if plies == 1 {
            // Undo takes back the move and the computer's reply; a hint marks a move.
            wait_interactive(&c).await;
            click(&c, "#undo").await;
            until("the undo", || async {
                get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() == before
            })
            .await;
            wait_interactive(&c).await;
            click(&c, "#hint").await;
            find(&c, ".sq.hint").await;
            assert!(text(&c, ".toasts").await.contains("Hint: "));
            shot(&c, "ai-2b-hint").await;
        }
        if plies == 6 {
            shot(&c, "ai-3-midgame").await;
        }
        assert!(plies < 300, "the game did not end");
    }
    // The result dialog says who won and why.
    find(&c, "#result-dialog[open]").await;
    // The page followed the game by its events: it never asked for the whole game.
    assert_eq!(resyncs(&c).await, 0);
    let result = text(&c, "#result-text").await;
    let snap = get(addr, &format!("/api/games/{id}")).await;
    assert!(!result.is_empty() && result == snap["result"]["text"].as_str().unwrap(), "{result}");
    shot(&c, "ai-4-result").await;
    // The finished game replays move by move.
    click(&c, "#result-dialog a[href^='/replay']").await;
    find(&c, "#next").await;
    let n = snap["moves"].as_array().unwrap().len();
    assert_eq!(c.find_all(Locator::Css(".moves button")).await.unwrap().len(), n);
    click(&c, "#next").await;
    click(&c, "#next").await;
    assert_eq!(text(&c, "#ply").await, format!("2 / {n}"));
    // ... and says how it ended, as the game screen did.
    assert_eq!(text(&c, "#termination").await, result);
    shot(&c, "ai-5-replay").await;
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn friends_play_online_through_an_invite_while_a_spectator_suggests() {
    let Some((addr, d)) = start("friend").await else { return };
    let a = browser(&d, 1280, 900, "en-US").await;
    let b = browser(&d, 360, 760, "en-US").await;
    let s = browser(&d, 1024, 800, "en-US").await;
    a.goto(&format!("http://{addr}/")).await.unwrap();
    click(&a, "input[name=variant][value=russian]").await;
    click(&a, "input[name=mode][value=friend]").await;
    click(&a, "input[name=suggestions]").await;
    find(&a, "select[name=time]").await.select_by_value("f5_3").await.unwrap();
    click(&a, "#start").await;
    let id = game_id(&a).await;
    let invite = find(&a, "#invite-url").await.prop("value").await.unwrap().unwrap();
    assert!(invite.contains(&format!("/game/{id}/join#")), "{invite}");
    assert!(text(&a, "#status").await.contains("Waiting for an opponent"));
    shot(&a, "friend-1-invite").await;
    // The friend opens the invite link on a phone; the spectator the watch link.
    b.goto(&invite).await.unwrap();
    until("the friend's seat", || async { game_id(&b).await == id }).await;
    find(&b, ".board").await;
    count_resyncs(&b).await;
    let watch = find(&a, "#watch-url").await.prop("value").await.unwrap().unwrap();
    s.goto(&watch).await.unwrap();
    find(&s, ".board").await;
    let color_a = seat(&a, &id).await["color"].as_str().unwrap().to_string();
    let color_b = seat(&b, &id).await["color"].as_str().unwrap().to_string();
    assert_ne!(color_a, color_b);
    let by_color = |c: &str| if c == color_a { &a } else { &b };
    // Four moves, each clicked in the browser of the player to move.
    for _ in 0..4 {
        let snap = get(addr, &format!("/api/games/{id}")).await;
        let p = by_color(snap["side_to_move"].as_str().unwrap());
        wait_interactive(p).await;
        let before = snap["moves"].as_array().unwrap().len();
        click_move(p, &engine_choice(&snap)).await;
        until("the move", || async {
            get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() > before
        })
        .await;
    }
    // The spectator suggests a move by playing it on their board...
    let snap = get(addr, &format!("/api/games/{id}")).await;
    let to_move = by_color(snap["side_to_move"].as_str().unwrap());
    assert!(text(&s, ".panel").await.contains("suggest"));
    find(&s, ".board.interactive").await;
    let suggestion = engine_choice(&snap);
    click_move(&s, &suggestion).await;
    find(&s, ".toast").await;
    assert!(text(&s, ".toasts").await.contains("Suggestion sent"));
    shot(&s, "friend-2-spectator").await;
    // ... and the player to move sees it as an arrow with its count.
    until("the suggestion arrow", || async {
        !to_move.find_all(Locator::Css(".arrows line")).await.unwrap().is_empty()
    })
    .await;
    assert_eq!(text(to_move, ".arrows text").await, "1");
    shot(&a, "friend-3-player-a").await;
    shot(&b, "friend-4-player-b-phone").await;
    // Clocks run for the player to move.
    let visible = "return [...document.querySelectorAll('.clock.running')].some(e => e.offsetParent && /\\d:\\d\\d/.test(e.textContent))";
    assert_eq!(to_move.execute(visible, vec![]).await.unwrap(), Value::Bool(true));
    // A draw is offered by one and accepted by the other.
    click(&b, "#offer-draw").await;
    click(&a, "#accept-draw").await;
    for p in [&a, &b] {
        find(p, "#result-dialog[open]").await;
        assert_eq!(text(p, "#result-text").await, "Draw: agreement");
    }
    find(&s, "#result-dialog[open]").await;
    // The players' pages followed the game by its events (the spectator's asks for the
    // legal moves after each move, to suggest one).
    assert_eq!(resyncs(&b).await, 0);
    shot(&b, "friend-5-draw-phone").await;
    for c in [a, b, s] {
        c.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hot_seat_on_one_page_and_the_pdn_download_matches() {
    let Some((addr, d)) = start("hotseat").await else { return };
    let c = browser(&d, 360, 760, "en-US").await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    click(&c, "input[name=variant][value=international]").await;
    click(&c, "input[name=mode][value=hotseat]").await;
    shot(&c, "hotseat-1-home-phone").await;
    click(&c, "#start").await;
    let id = game_id(&c).await;
    assert_eq!(seat(&c, &id).await["color"], "both");
    for i in 0..10 {
        let snap = get(addr, &format!("/api/games/{id}")).await;
        wait_interactive(&c).await;
        let mv = engine_choice(&snap);
        match i {
            0 => drag_move(&c, &mv).await,
            1 if mv["path"].as_array().unwrap().len() == 2 => key_move(&c, &mv).await,
            _ => click_move(&c, &mv).await,
        }
        until("the move", || async {
            get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() > i
        })
        .await;
    }
    // A move typed with the keyboard.
    let snap = get(addr, &format!("/api/games/{id}")).await;
    wait_interactive(&c).await;
    let typed = engine_choice(&snap);
    let input = find(&c, "#move-input").await;
    input.send_keys(&format!("{}\u{E007}", typed["notation"].as_str().unwrap())).await.unwrap();
    until("the typed move", || async {
        get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() == 11
    })
    .await;
    // Take two back, then the move list holds the nine left.
    wait_interactive(&c).await;
    click(&c, "#takeback").await;
    until("the takeback", || async {
        get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() == 10
    })
    .await;
    wait_interactive(&c).await;
    click(&c, "#takeback").await;
    until("the takeback", || async {
        get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() == 9
    })
    .await;
    until("the move list", || async { c.find_all(Locator::Css("#moves [role=listitem]")).await.unwrap().len() == 9 })
        .await;
    click(&c, "#flip").await;
    shot(&c, "hotseat-2-international-phone").await;
    // The PDN download has the moves played.
    click(&c, "#pdn").await;
    let file = d.downloads.join(format!("dama-{id}.pdn"));
    until("the download", || async { file.exists() }).await;
    let pdn = std::fs::read_to_string(&file).unwrap();
    let snap = get(addr, &format!("/api/games/{id}")).await;
    let played: Vec<String> =
        snap["moves"].as_array().unwrap().iter().map(|m| m["long"].as_str().unwrap().into()).collect();
    let games: Vec<_> = dama_core::pdn::PdnReader::new(pdn.as_bytes()).collect();
    assert_eq!(games.len(), 1, "{pdn}");
    let g = games.into_iter().next().unwrap().unwrap();
    let r = dama_core::record::replay::<dama_core::variant::International>(&g).expect("the PDN replays");
    let mut pos = *r.game.start();
    let mut longs = Vec::new();
    for m in &r.moves {
        longs.push(dama_core::notation::move_to_string(&pos, m, true));
        pos = pos.play(m);
    }
    assert_eq!(longs, played);
    // The downloaded file imported on the replay page, then played on against the computer.
    c.goto(&format!("http://{addr}/replay")).await.unwrap();
    find(&c, "#pdntext").await.send_keys(&pdn).await.unwrap();
    click(&c, "form.card button[type=submit]").await;
    until("the imported game", || async { c.find_all(Locator::Css(".moves button")).await.unwrap().len() == 9 }).await;
    click(&c, "#prev").await;
    shot(&c, "hotseat-3-imported-phone").await;
    click(&c, "#play-from").await;
    let from = game_id(&c).await;
    // A file with a move that cannot be played is shown up to that move, the error there.
    c.goto(&format!("http://{addr}/replay")).await.unwrap();
    let bad = "[GameType \"21\"]\n1. 11-15 23-19 2. 8-12 19-10 *\n";
    find(&c, "#pdntext").await.send_keys(bad).await.unwrap();
    click(&c, "form.card button[type=submit]").await;
    until("the game up to the bad move", || async {
        c.find_all(Locator::Css(".moves button")).await.unwrap().len() == 2
    })
    .await;
    assert!(text(&c, "#game-error").await.contains("8-12"));
    let snap = get(addr, &format!("/api/games/{from}")).await;
    assert_eq!(snap["mode"], "ai");
    let mut at8 = *r.game.start();
    for m in &r.moves[..8] {
        at8 = at8.play(m);
    }
    assert_eq!(snap["start_fen"], dama_core::fen::write_fen(&at8));
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_language_follows_the_browser_and_the_switch() {
    let Some((addr, d)) = start("lang").await else { return };
    let c = browser(&d, 1024, 800, "ru-RU").await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    // A Russian browser gets Russian, and Russian draughts chosen.
    assert_eq!(text(&c, "main h1").await, "Новая партия");
    assert!(
        find(&c, "input[name=variant][value=russian]").await.prop("checked").await.unwrap().as_deref() == Some("true")
    );
    shot(&c, "lang-1-russian").await;
    // The piece-colour menu shows its whole Russian name (room left for the arrow).
    let room = c
        .execute(
            "const s = document.getElementById('theme'); const m = document.createElement('span');
             m.style.font = getComputedStyle(s).font; m.style.position = 'absolute';
             m.textContent = s.options[s.selectedIndex].text; document.body.append(m);
             const w = m.getBoundingClientRect().width; m.remove(); return s.clientWidth - w;",
            vec![],
        )
        .await
        .unwrap();
    assert!(room.as_f64().unwrap() >= 30.0, "the theme menu cuts its text: {room}");
    // A Russian board: the file letters run along the bottom row only, over no piece.
    click(&c, "input[name=mode][value=hotseat]").await;
    click(&c, "#start").await;
    game_id(&c).await;
    find(&c, ".coord.file").await;
    let rows = c
        .execute(
            "return [...document.querySelectorAll('.coord.file')].map((e) => e.parentElement.style.gridRow)",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(rows, serde_json::json!(["8", "8", "8", "8", "8", "8", "8", "8"]), "{rows}");
    // How the game ended is said in Russian, from the server's code for it.
    click(&c, "#resign").await;
    click(&c, "#resign").await;
    find(&c, "#result-dialog[open]").await;
    assert_eq!(text(&c, "#result-text").await, "Победа: Чёрные, сдача");
    // The full rules in Russian.
    c.goto(&format!("http://{addr}/rules/russian")).await.unwrap();
    until("the Russian rules", || async { text(&c, "main").await.contains("Бить обязательно") }).await;
    let start = "ul.rules li:first-child svg.diagram";
    assert_eq!(c.find_all(Locator::Css(&format!("{start} circle.d-p1"))).await.unwrap().len(), 12);
    assert_eq!(c.find_all(Locator::Css(&format!("{start} circle.d-p2"))).await.unwrap().len(), 12);
    // A game address that leads nowhere says so (in Russian), with a way home, instead
    // of loading and reconnecting forever.
    c.goto(&format!("http://{addr}/game/nosuchgame")).await.unwrap();
    assert_eq!(
        text(&c, "#game-missing h1").await,
        "По этому адресу партии нет. Возможно, адрес набран с ошибкой или ссылка с другого сайта."
    );
    assert!(find(&c, "#banner").await.prop("hidden").await.unwrap().as_deref() == Some("true"));
    click(&c, "#go-home").await;
    until("home from a missing game", || async { text(&c, "main h1").await == "Новая партия" }).await;
    let expect = [
        ("tr", "Yeni oyun", "Başla"),
        ("es", "Nueva partida", "Empezar"),
        ("pt", "Novo jogo", "Começar"),
        ("en", "New game", "Start"),
    ];
    for (lang, title, start) in expect {
        find(&c, "#lang").await.select_by_value(lang).await.unwrap();
        until("the new language", || async { text(&c, "main h1").await == title }).await;
        assert_eq!(text(&c, "#start").await, start);
        let body = text(&c, "body").await;
        assert!(!body.contains('⟦'), "{lang}: a text is missing: {body}");
        if lang == "tr" {
            // The rules page and a game page in Turkish too.
            click(&c, "input[name=variant][value=turkish]").await;
            click(&c, "#summary a").await;
            until("the rules page", || async { text(&c, "main h1").await == "Türk daması" }).await;
            assert!(text(&c, "main").await.contains("Taş almak zorunludur"), "the rules in Turkish");
            // The start position drawn under the board's rule: 16 men each on 64 squares.
            let start = "ul.rules li:first-child svg.diagram";
            assert_eq!(c.find_all(Locator::Css(&format!("{start} circle"))).await.unwrap().len(), 32);
            assert_eq!(c.find_all(Locator::Css(&format!("{start} rect.d-full"))).await.unwrap().len(), 64);
            shot(&c, "lang-2-turkish-rules").await;
            click(&c, "main a.btn").await;
            click(&c, "input[name=mode][value=hotseat]").await;
            click(&c, "#start").await;
            game_id(&c).await;
            until("a Turkish game page", || async { text(&c, "#status").await.starts_with("Sıra") }).await;
            shot(&c, "lang-3-turkish-board").await;
            c.back().await.unwrap();
            until("home", || async { text(&c, "main h1").await == title }).await;
        }
        if lang == "es" {
            // The full rules are in Spanish too (seeds 000, 002 and 003 are Spanish).
            c.goto(&format!("http://{addr}/rules/russian")).await.unwrap();
            until("the Spanish rules", || async { text(&c, "main").await.contains("Las damas vuelan") }).await;
            shot(&c, "lang-4-spanish-rules").await;
            c.back().await.unwrap();
            until("home", || async { text(&c, "main h1").await == title }).await;
        }
    }
    // The choice is kept.
    c.refresh().await.unwrap();
    until("English after reload", || async { text(&c, "main h1").await == "New game" }).await;
    // Every variant's rules page draws its start position and an example for each rule
    // about moves and captures, each on that variant's own board.
    for v in Variant::ALL {
        c.goto(&format!("http://{addr}/rules/{}", v.key())).await.unwrap();
        find(&c, "svg.diagram").await;
        let missing = c.find_all(Locator::Css("li[data-missing-diagram]")).await.unwrap();
        assert!(missing.is_empty(), "{}: a diagram does not fit the board", v.key());
        let n = c.find_all(Locator::Css("svg.diagram")).await.unwrap().len();
        assert!(n >= 5, "{}: {n} diagrams", v.key());
    }
    shot(&c, "lang-5-rules-diagrams").await;
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capture_with_two_routes_to_one_square_is_clicked_through() {
    let Some((addr, d)) = start("routes").await else { return };
    let c = browser(&d, 1024, 800, "en-US").await;
    // White's man on 22 takes two men either by 13 or by 15, both routes ending on 6;
    // the man on 31 cannot take.
    let id = hotseat_from(&c, addr, "english", "W:W22,31:B17,18,9,10").await;
    wait_interactive(&c).await;
    // The capture is compulsory: the piece that must take is highlighted, the other
    // is not, and tapping the other says so.
    find(&c, "button[data-sq='22'].must").await;
    assert!(c.find_all(Locator::Css("button[data-sq='31'].must")).await.unwrap().is_empty());
    assert!(find(&c, "button[data-sq='22']").await.attr("aria-label").await.unwrap().unwrap().contains("must capture"));
    click(&c, "button[data-sq='31']").await;
    assert!(text(&c, ".toasts").await.contains("A capture is compulsory: 22x"));
    shot(&c, "routes-0-compulsory").await;
    // Selecting the man shows both first landings and the shared last square.
    click(&c, "button[data-sq='22']").await;
    assert_eq!(c.find_all(Locator::Css(".sq.target")).await.unwrap().len(), 3);
    click(&c, "button[data-sq='6']").await;
    assert!(text(&c, ".toasts").await.contains("click each landing square"));
    // Through 15: the man stands there, the man it jumped stays on the board, marked.
    click(&c, "button[data-sq='15']").await;
    find(&c, "button[data-sq='15'].sel.hasp").await;
    find(&c, "button[data-sq='18'].captured.hasp").await;
    assert!(find(&c, "button[data-sq='18']").await.attr("aria-label").await.unwrap().unwrap().contains("captured"));
    shot(&c, "routes-1-halfway").await;
    click(&c, "button[data-sq='6']").await;
    until("the capture", || async {
        get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() == 1
    })
    .await;
    let snap = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(snap["moves"][0]["long"], "22x15x6");
    until("the board after the capture", || async { c.find_all(Locator::Css(".sq.hasp")).await.unwrap().len() == 4 })
        .await;
    // A capture sounds as a capture (unless muted with the header's switch).
    until("the capture's sound", || async {
        c.execute("return document.body.dataset.sound", vec![]).await.unwrap() == serde_json::json!("capture")
    })
    .await;
    assert_eq!(find(&c, "#sound").await.attr("aria-pressed").await.unwrap().as_deref(), Some("true"));
    click(&c, "#sound").await;
    assert_eq!(find(&c, "#sound").await.attr("aria-pressed").await.unwrap().as_deref(), Some("false"));
    // The board in another colour.
    find(&c, "#board-theme").await.select_by_value("board-green").await.unwrap();
    let dark =
        c.execute("return getComputedStyle(document.querySelector('.sq.play')).backgroundColor", vec![]).await.unwrap();
    assert_eq!(dark, serde_json::json!("rgb(118, 150, 86)"));
    // The last move stays marked: where it landed on the way, and what it took.
    find(&c, "button[data-sq='15'].route").await;
    find(&c, "button[data-sq='18'].taken").await;
    find(&c, "button[data-sq='10'].taken").await;
    shot(&c, "routes-2-done").await;
    // The move list can be browsed during the game (here with the left arrow key): the
    // start position, then back.
    c.execute("document.activeElement.blur()", vec![]).await.unwrap();
    c.active_element().await.unwrap().send_keys(&fantoccini::key::Key::Left.to_string()).await.unwrap();
    until("the start position", || async { c.find_all(Locator::Css(".sq.hasp")).await.unwrap().len() == 6 }).await;
    assert!(text(&c, "#browse").await.contains("Move 0 of 1"));
    find(&c, "button[data-sq='22'].hasp").await;
    click(&c, "#back-to-live").await;
    until("the game again", || async { c.find_all(Locator::Css(".sq.hasp")).await.unwrap().len() == 4 }).await;
    assert!(c.find_all(Locator::Css("#browse")).await.unwrap().is_empty());
    // The 12x12 board of Canadian draughts, watched: 72 playable squares, 30 men each.
    let (status, body) =
        dama_server::client::http(addr, "POST", "/api/games", None, Some(r#"{"variant":"canadian","mode":"hotseat"}"#))
            .await
            .unwrap();
    assert_eq!(status, 201, "{body}");
    c.goto(&format!("http://{addr}/game/{}", body["id"].as_str().unwrap())).await.unwrap();
    find(&c, ".board .sq.hasp").await;
    assert_eq!(c.find_all(Locator::Css(".board button[data-sq]")).await.unwrap().len(), 72);
    assert_eq!(c.find_all(Locator::Css(".board .sq.hasp")).await.unwrap().len(), 60);
    assert!(text(&c, ".panel").await.contains("You are watching"));
    shot(&c, "routes-3-canadian-spectator").await;
    c.close().await.unwrap();
}

/// A TCP proxy in front of the server that can cut every connection and refuse new
/// ones for a while: a lost network, as the browser sees it.
async fn proxy(to: SocketAddr) -> (SocketAddr, std::sync::Arc<std::sync::atomic::AtomicBool>) {
    use std::sync::atomic::Ordering;
    let up = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let flag = up.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut inbound, _)) = listener.accept().await else { return };
            if !flag.load(Ordering::SeqCst) {
                continue; // dropped: refused
            }
            let flag = flag.clone();
            tokio::spawn(async move {
                let Ok(mut outbound) = tokio::net::TcpStream::connect(to).await else { return };
                let copy = tokio::io::copy_bidirectional(&mut inbound, &mut outbound);
                let cut = async {
                    while flag.load(Ordering::SeqCst) {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                };
                tokio::select! { _ = copy => {}, _ = cut => {} }
            });
        }
    });
    (addr, up)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_connection_shows_a_banner_and_catches_up() {
    use std::sync::atomic::Ordering;
    let Some((server_addr, d)) = start("reconnect").await else { return };
    let (addr, up) = proxy(server_addr).await;
    let c = browser(&d, 1024, 800, "en-US").await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    click(&c, "input[name=variant][value=english]").await;
    click(&c, "input[name=mode][value=hotseat]").await;
    click(&c, "#start").await;
    let id = game_id(&c).await;
    wait_interactive(&c).await;
    let token = seat(&c, &id).await["token"].as_str().unwrap().to_string();
    // The network goes: the page says so.
    up.store(false, Ordering::SeqCst);
    until("the banner", || async { find(&c, "#banner").await.is_displayed().await.unwrap() }).await;
    assert!(text(&c, "#banner").await.contains("Reconnecting"));
    shot(&c, "reconnect-1-banner").await;
    // Meanwhile a move is played (by the same seat, elsewhere).
    let (status, body) = dama_server::client::http(
        server_addr,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(&token),
        Some(r#"{"type":"move","move":"11-15"}"#),
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    // The network comes back: the page reconnects by itself and shows the move it missed.
    up.store(true, Ordering::SeqCst);
    until("the banner to go", || async { !find(&c, "#banner").await.is_displayed().await.unwrap() }).await;
    until("the missed move", || async { text(&c, "#moves").await.contains("11-15") }).await;
    assert!(find(&c, "button[data-sq='15'].hasp")
        .await
        .attr("aria-label")
        .await
        .unwrap()
        .unwrap()
        .contains("black man"));
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_series_with_touch_move_takeback_and_resignation() {
    let Some((addr, d)) = start("series").await else { return };
    let a = browser(&d, 1024, 800, "en-US").await;
    let b = browser(&d, 1024, 800, "en-US").await;
    a.goto(&format!("http://{addr}/")).await.unwrap();
    click(&a, "input[name=variant][value=english]").await;
    click(&a, "input[name=mode][value=friend]").await;
    click(&a, "input[name=touch_move]").await;
    let series = find(&a, "#series").await;
    series.clear().await.unwrap();
    series.send_keys("2").await.unwrap();
    // A clock of the players' own: 2 minutes and 1 second a move.
    find(&a, "select[name=time]").await.select_by_value("custom").await.unwrap();
    for (name, value) in [("minutes", "2"), ("inc", "1")] {
        let input = find(&a, &format!("input[name={name}]")).await;
        input.clear().await.unwrap();
        input.send_keys(value).await.unwrap();
    }
    click(&a, "#start").await;
    let id = game_id(&a).await;
    let time = &get(addr, &format!("/api/games/{id}")).await["options"]["time"];
    assert_eq!(time, &serde_json::json!({"kind": "fischer", "initial_ms": 120000, "increment_ms": 1000}));
    b.goto(&find(&a, "#invite-url").await.prop("value").await.unwrap().unwrap()).await.unwrap();
    until("the friend's seat", || async { game_id(&b).await == id }).await;
    let color_a = seat(&a, &id).await["color"].as_str().unwrap().to_string();
    let (first, second) = if color_a == "black" { (&a, &b) } else { (&b, &a) };
    assert!(text(first, ".panel").await.contains("Game 1 of 2"));
    // Touch-move: once a piece is selected, selecting another one does nothing.
    wait_interactive(first).await;
    let snap = get(addr, &format!("/api/games/{id}")).await;
    let legal = snap["legal"].as_array().unwrap();
    let touched = legal[0]["path"][0].as_str().unwrap();
    let other = legal.iter().map(|m| m["path"][0].as_str().unwrap()).find(|s| *s != touched).unwrap();
    click(first, &format!("button[data-sq='{touched}']")).await;
    click(first, &format!("button[data-sq='{other}']")).await;
    assert_eq!(find(first, ".sq.sel").await.attr("data-sq").await.unwrap().as_deref(), Some(touched));
    until("the touch-move note", || async { text(first, ".toasts").await.contains("Touch-move") }).await;
    shot(first, "series-1-touch-move").await;
    click_move(first, &legal[0]).await;
    until("the first move", || async {
        get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() == 1
    })
    .await;
    for p in [first, second] {
        count_resyncs(p).await;
    }
    // The second player moves, then asks to take it back; the first accepts.
    wait_interactive(second).await;
    click_move(second, &engine_choice(&get(addr, &format!("/api/games/{id}")).await)).await;
    until("the second move", || async {
        get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() == 2
    })
    .await;
    click(second, "#takeback").await;
    click(first, ".offer button").await;
    until("the takeback", || async {
        get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() == 1
    })
    .await;
    // While the second player thinks, the first chooses a premove; it is played as soon
    // as the second has moved (picked here so that it is legal then).
    let snap = get(addr, &format!("/api/games/{id}")).await;
    let reply = engine_choice(&snap);
    let mut pos = dama_core::fen::parse_fen::<dama_core::variant::English>(snap["fen"].as_str().unwrap()).unwrap();
    pos = pos.play(&dama_core::notation::parse_move(&pos, reply["long"].as_str().unwrap()).unwrap());
    let name = |i: usize| dama_core::notation::square_name::<dama_core::variant::English>(i);
    let ends: Vec<(String, String)> = dama_core::notation::detailed_moves(&pos)
        .iter()
        .map(|d| (name(d.path[0]), name(*d.path.last().unwrap())))
        .collect();
    let (from, to) = ends.iter().find(|e| ends.iter().filter(|x| x == e).count() == 1).unwrap().clone();
    click(first, &format!("button[data-sq='{from}']")).await;
    click(first, &format!("button[data-sq='{to}']")).await;
    find(first, &format!("button[data-sq='{to}'].pre")).await;
    find(first, "#cancel-premove").await;
    wait_interactive(second).await;
    click_move(second, &reply).await;
    until("the premove played", || async {
        let s = get(addr, &format!("/api/games/{id}")).await;
        s["moves"].as_array().unwrap().len() == 3
            && s["moves"][2]["path"][0] == from.as_str()
            && s["moves"][2]["path"].as_array().unwrap().last().unwrap() == to.as_str()
    })
    .await;
    // The second player resigns (two steps); the series goes on with colours swapped.
    wait_interactive(second).await;
    click(second, "#resign").await;
    assert_eq!(text(second, "#resign").await, "Really resign?");
    click(second, "#resign").await;
    // Both see how game 1 ended, on its final position, with "Next game" focused; the
    // next game waits for them (its clocks stand until each side's first move).
    for p in [first, second] {
        find(p, "#result-next-game").await;
        assert!(!text(p, "#result-title").await.is_empty());
        assert!(text(p, "#result-text").await.contains("resign"), "{}", text(p, "#result-text").await);
        let focused = p.active_element().await.unwrap().attr("id").await.unwrap();
        assert_eq!(focused.as_deref(), Some("result-next-game"));
    }
    tokio::time::sleep(Duration::from_millis(1000)).await;
    for p in [first, second] {
        assert_eq!(game_id(p).await, id, "still on game 1");
        // A takeback, a premove, a resignation and the next game, all from events.
        assert_eq!(resyncs(p).await, 0);
    }
    shot(second, "series-1-result").await;
    // The first to open game 2 reads that its clock waits for the other player; it
    // starts once both are there.
    let waits = "The clock starts when both players are here.";
    for p in [first, second] {
        click(p, "#result-next-game").await;
        until("the next game of the series", || async { game_id(p).await != id }).await;
        if std::ptr::eq(p, first) {
            until("the clock's wait", || async { text(p, "#status").await == waits }).await;
        }
    }
    until("the start", || async { text(first, "#status").await != waits }).await;
    let next = game_id(&a).await;
    assert_eq!(game_id(&b).await, next);
    assert_ne!(seat(&a, &next).await["color"], color_a.as_str());
    until("the series score", || async { text(&a, ".panel").await.contains("Game 2 of 2") }).await;
    let snap = get(addr, &format!("/api/games/{next}")).await;
    assert_eq!(snap["state"], "live");
    shot(&a, "series-2-second-game").await;
    for c in [a, b] {
        c.close().await.unwrap();
    }
}

/// Seed 001 plays Red (moving first) against Black: the form, the pieces, the panel, the
/// board's spoken names, the result and the replay say so; an official English game
/// keeps Black and White.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seed_001_shows_red_against_black() {
    let Some((addr, d)) = start("seed001").await else { return };
    let c = browser(&d, 1024, 800, "en-US").await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    click(&c, "input[name=variant][value=english]").await;
    click(&c, "input[name=mode][value=ai]").await;
    find(&c, "#rules").await.select_by_value("seed001").await.unwrap();
    until("the Red choice", || async { text(&c, "#color").await.contains("Red (moves first)") }).await;
    // On one device there is no colour of one's own to choose.
    click(&c, "input[name=mode][value=hotseat]").await;
    until("no colour choice", || async { c.find(Locator::Css("#color")).await.is_err() }).await;
    click(&c, "#start").await;
    let id = game_id(&c).await;
    find(&c, ".board").await;
    let panel = text(&c, ".panel").await;
    assert!(panel.contains("Red to move") && panel.contains("Black"), "{panel}");
    assert!(!panel.contains("White"), "{panel}");
    // Seeds 000 and 003: the corner square on each player's left is a dark, playing
    // square (29 in English numbering, seen from the side of the men on 21-32).
    let corner = "const b = document.querySelector('.board').getBoundingClientRect(); \
        return document.elementFromPoint(b.left + b.width / 16, b.bottom - b.height / 16).closest('[data-sq]')?.dataset.sq";
    assert_eq!(c.execute(corner, vec![]).await.unwrap(), serde_json::json!("29"));
    // The pieces on 1-12 move first and are red; those on 21-32 are black.
    let fill = |sq: &'static str| {
        let c = c.clone();
        async move {
            let js =
                format!("return getComputedStyle(document.querySelector(\"button[data-sq='{sq}'] ellipse\")).fill");
            c.execute(&js, vec![]).await.unwrap().as_str().unwrap().to_string()
        }
    };
    assert_eq!(fill("11").await, "rgb(179, 38, 30)");
    assert_eq!(fill("22").await, "rgb(36, 33, 29)");
    let label = find(&c, "button[data-sq='11']").await.attr("aria-label").await.unwrap().unwrap();
    assert!(label.contains("red man"), "{label}");
    shot(&c, "seed001-1-red-to-move").await;
    wait_interactive(&c).await;
    let snap = get(addr, &format!("/api/games/{id}")).await;
    click_move(&c, &engine_choice(&snap)).await;
    until("Black to move", || async { text(&c, "#status").await == "Black to move" }).await;
    // Black resigns: Red wins.
    wait_interactive(&c).await;
    click(&c, "#resign").await;
    click(&c, "#resign").await;
    until("the result", || async { text(&c, "#result-text").await.contains("Red wins") }).await;
    shot(&c, "seed001-2-red-wins").await;
    // The same names in another language.
    c.execute("document.getElementById('result-dialog').close()", vec![]).await.unwrap();
    find(&c, "#lang").await.select_by_value("ru").await.unwrap();
    until("the Russian panel", || async { text(&c, ".panel").await.contains("Красные") }).await;
    let panel = text(&c, ".panel").await;
    assert!(panel.contains("Чёрные") && !panel.contains("Белые"), "{panel}");
    find(&c, "#lang").await.select_by_value("en").await.unwrap();
    // Seeds 000 and 003: a king is drawn as two men stacked (twice the discs of a man).
    let discs = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; import('/assets/board.js').then((m) => \
             done([m.pieceSvg('black', false), m.pieceSvg('black', true)].map((s) => s.match(/<ellipse/g).length)))",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(discs, serde_json::json!([3, 6]));
    // The replay of the game, from its PDN, names the sides the same way.
    c.goto(&format!("http://{addr}/replay?game={id}")).await.unwrap();
    until("the replay", || async { text(&c, "#termination").await.contains("Red wins") }).await;
    assert_eq!(fill("22").await, "rgb(36, 33, 29)");
    // An official English game: Black moves first against White.
    c.goto(&format!("http://{addr}/")).await.unwrap();
    click(&c, "input[name=variant][value=english]").await;
    click(&c, "input[name=mode][value=hotseat]").await;
    find(&c, "#rules").await.select_by_value("official").await.unwrap();
    click(&c, "#start").await;
    until("a new game", || async { game_id(&c).await != id }).await;
    until("Black to move", || async { text(&c, "#status").await == "Black to move" }).await;
    assert!(text(&c, ".panel").await.contains("White"));
    c.close().await.unwrap();
}

/// Signs up through the log-in page; waits for the name in the header.
pub(crate) async fn sign_up(c: &Client, addr: SocketAddr, name: &str) {
    c.goto(&format!("http://{addr}/")).await.unwrap();
    click(c, "#login-link").await;
    find(c, "form.login").await.find(Locator::Css("input[name=name]")).await.unwrap().send_keys(name).await.unwrap();
    find(c, "input[name=password]").await.send_keys("a good password").await.unwrap();
    click(c, "#signup").await;
    until("the name in the header", || async { text(c, "#account").await.contains(name) }).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_accounts_play_a_rated_game_and_see_their_ratings() {
    let Some((addr, d)) = start("rated").await else { return };
    let a = browser(&d, 1280, 900, "en-US").await;
    let b = browser(&d, 1024, 800, "en-US").await;
    // Without an account the rated box is a link to log in.
    a.goto(&format!("http://{addr}/")).await.unwrap();
    click(&a, "input[name=mode][value=open]").await;
    assert_eq!(text(&a, "#rated-login").await, "Log in to play rated games");
    sign_up(&a, addr, "ann").await;
    shot(&a, "rated-1-signed-up").await;
    click(&a, "input[name=mode][value=open]").await;
    find(&a, "select[name=time]").await.select_by_value("f3_2").await.unwrap();
    click(&a, "#rated").await;
    find(&a, "#range-lo").await.send_keys("1400").await.unwrap();
    find(&a, "#range-hi").await.send_keys("1700").await.unwrap();
    click(&a, "#start").await;
    let id = game_id(&a).await;
    assert_eq!(get(addr, &format!("/api/games/{id}")).await["options"]["rated"], true);
    assert_eq!(get(addr, "/api/seeks").await["seeks"][0]["rating_range"], json!([1400, 1700]));
    // Bob signs up in his own browser and joins from the lobby.
    sign_up(&b, addr, "bob").await;
    // The lobby lists the seek with ann's name and rating, and its dot on the graph.
    until("the seek", || async { text(&b, "#seeks").await.contains("ann (1500)") }).await;
    assert!(text(&b, "#seeks").await.contains("3+2 · Blitz"));
    find(&b, ".seek-graph circle.rated").await;
    shot(&b, "rated-1b-lobby").await;
    click(&b, &format!("button[data-seek='{id}']")).await;
    until("bob's seat", || async { game_id(&b).await == id }).await;
    for p in [&a, &b] {
        until("both names", || async {
            let lines = text(p, "main").await;
            lines.contains("ann") && lines.contains("bob")
        })
        .await;
    }
    // They chat: a line typed by ann reaches bob.
    find(&a, "#chat-input").await.send_keys("good luck\n").await.unwrap();
    until("the chat line", || async { text(&b, "#chat-lines").await.contains("ann good luck") }).await;
    // Ann's own line cannot be muted or reported by her; bob can.
    until("ann's line", || async { text(&a, "#chat-lines").await.contains("good luck") }).await;
    assert_eq!(a.find_all(Locator::Css("#chat-lines li button")).await.unwrap().len(), 0);
    assert_eq!(b.find_all(Locator::Css("#chat-lines li button")).await.unwrap().len(), 2);
    // The "Chat in rated games" box sits right by its words.
    let gap = "const box = document.getElementById('chat-rated').getBoundingClientRect(); \
        const words = document.getElementById('chat-rated-text').getBoundingClientRect(); \
        return words.left - box.right";
    let gap = a.execute(gap, vec![]).await.unwrap().as_f64().unwrap();
    assert!((0.0..16.0).contains(&gap), "the box is {gap}px from its words");
    // Whoever moves first plays; the other resigns.
    let snap = get(addr, &format!("/api/games/{id}")).await;
    let color_a = seat(&a, &id).await["color"].as_str().unwrap().to_string();
    let (first, second) = if snap["side_to_move"] == color_a.as_str() { (&a, &b) } else { (&b, &a) };
    wait_interactive(first).await;
    click_move(first, &engine_choice(&snap)).await;
    until("the move", || async {
        get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() == 1
    })
    .await;
    click(second, "#resign").await;
    click(second, "#resign").await;
    for p in [&a, &b] {
        find(p, "#result-dialog[open]").await;
    }
    // The rating changes show beside the names: +162 and -162 for two new players.
    for p in [first, second] {
        until("the rating change", || async { text(p, "main").await.contains("+162") }).await;
    }
    assert!(text(second, "main").await.contains("(-162)"));
    shot(first, "rated-2-rating-change").await;
    // The winner's page: the blitz rating, provisional, and the game.
    let winner = if std::ptr::eq(first, &a) { "ann" } else { "bob" };
    first.goto(&format!("http://{addr}/player/{winner}")).await.unwrap();
    until("the ratings table", || async { text(first, "#ratings").await.contains("1662?") }).await;
    assert!(text(first, "#ratings").await.contains("Blitz"));
    assert!(text(first, "#record").await.contains("1 won, 0 drawn, 0 lost"));
    assert!(text(first, "#games").await.contains("Won"));
    // The game list names the opponent, with a link to their page.
    let loser = if winner == "ann" { "bob" } else { "ann" };
    assert_eq!(text(first, "#games td.opponent a").await, loser);
    assert!(text(first, "#all-pdn").await.contains("PDN"));
    // One's own page makes a token for programs.
    click(first, "#new-token").await;
    until("the token", || async { text(first, "#token-out").await.contains("dama_") }).await;
    shot(first, "rated-3-player-page").await;
    // Log out: the header offers to log in again.
    click(first, "#log-out").await;
    until("logged out", || async { text(first, "#account").await.contains("Log in") }).await;
    for c in [a, b] {
        c.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_pairing_brings_two_players_to_one_game() {
    let Some((addr, d)) = start("quick").await else { return };
    let a = browser(&d, 1280, 900, "en-US").await;
    let b = browser(&d, 1024, 800, "en-US").await;
    for c in [&a, &b] {
        c.goto(&format!("http://{addr}/")).await.unwrap();
    }
    assert!(text(&a, "#quick").await.contains("Casual"));
    // The first click offers a seek and waits on it; the second, in another browser,
    // finds it and joins.
    click(&a, "button[data-quick='3+2']").await;
    let id = game_id(&a).await;
    assert!(text(&a, "#status").await.contains("Waiting for an opponent"));
    until("the seek in the lobby", || async { text(&b, "#seeks").await.contains("3+2") }).await;
    click(&b, "button[data-quick='3+2']").await;
    until("the same game", || async { game_id(&b).await == id }).await;
    let snap = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(snap["state"], "live");
    assert_eq!(snap["options"]["time"], json!({"kind": "fischer", "initial_ms": 180000, "increment_ms": 2000}));
    shot(&b, "quick-pairing").await;
    // The home page shows the game being played as a small board.
    a.goto(&format!("http://{addr}/")).await.unwrap();
    find(&a, &format!("a.thumb[data-game='{id}'] svg circle")).await;
    shot(&a, "live-thumbnails").await;
    for c in [a, b] {
        c.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_plays_by_name_and_later_sets_a_password() {
    let Some((addr, d)) = start("guest").await else { return };
    let c = browser(&d, 1024, 800, "en-US").await;
    c.goto(&format!("http://{addr}/login")).await.unwrap();
    find(&c, "input[name=name]").await.send_keys("gus").await.unwrap();
    click(&c, "#guest").await;
    until("the guest's name in the header", || async { text(&c, "#account").await.contains("gus") }).await;
    assert_eq!(get(addr, "/api/players/gus").await["guest"], true);
    click(&c, "#me").await;
    find(&c, "#claim-password").await.send_keys("a good password").await.unwrap();
    shot(&c, "guest-claim").await;
    click(&c, "#claim button").await;
    until("the account claimed", || async { get(addr, "/api/players/gus").await["guest"] == false }).await;
    find(&c, "#new-token").await;
    c.close().await.unwrap();
}
