//! Addresses a visitor may type or follow (see `web.rs`): an address with no page, or a
//! player who does not exist, shows the site's own "nothing here" page in the reader's
//! language with a link home (status 404); the API's addresses keep their JSON errors.

use dama_server::client::request;

use crate::web::{browser, click, find, shot, start, text, until};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_with_no_page_shows_the_sites_not_found_page() {
    let Some((addr, d)) = start("not-found").await else { return };
    // Over HTTP: a page address answers 404 with the page, an API address its JSON.
    for path in ["/lobby", "/rules", "/standings"] {
        let r = request(addr, "GET", path, &[], None).await.unwrap();
        assert_eq!(r.status, 404, "{path}");
        assert!(r.header("content-type").is_some_and(|t| t.starts_with("text/html")), "{path}: {:?}", r.headers);
        assert!(r.body.as_str().is_some_and(|b| b.contains("<html")), "{path}: {}", r.body);
    }
    let r = request(addr, "GET", "/api/nothing", &[], None).await.unwrap();
    assert_eq!((r.status, r.body["code"].as_str()), (404, Some("no_route")));

    // In a Spanish browser: the words are Spanish, and the link goes home.
    let c = browser(&d, 390, 844, "es-ES").await;
    c.goto(&format!("http://{addr}/lobby")).await.unwrap();
    assert_eq!(text(&c, ".not-found h1").await, "Aquí no hay nada");
    assert_eq!(text(&c, "#not-found-home").await, "Volver a la página de inicio");
    shot(&c, "not-found-1-address-phone").await;
    click(&c, "#not-found-home").await;
    until("the home page", || async { c.current_url().await.is_ok_and(|u| u.path() == "/") }).await;
    find(&c, "#start").await;
    // A player who does not exist: the same page, not a bare line of English.
    c.goto(&format!("http://{addr}/player/nadie")).await.unwrap();
    assert_eq!(text(&c, ".not-found h1").await, "Aquí no hay nada");
    shot(&c, "not-found-2-player-phone").await;
    c.close().await.unwrap();
}

/// What does not fit a phone's screen on the page now: the page wider than the screen,
/// and each control (button, link, field) that lies outside it, by its id or text.
async fn overflow(c: &fantoccini::Client) -> serde_json::Value {
    let js = "const w = document.documentElement.clientWidth; const out = []; \
        if (document.documentElement.scrollWidth > w + 1) out.push('page ' + document.documentElement.scrollWidth + ' > ' + w); \
        for (const e of document.querySelectorAll('button, a:not(.skip), input, select, textarea, summary')) { \
          const r = e.getBoundingClientRect(); if (!r.width || !r.height) continue; \
          if (r.left < -1 || r.right > w + 1) out.push((e.id || e.textContent.trim().slice(0, 20) || e.tagName) + ' ' + Math.round(r.left) + '..' + Math.round(r.right)); } \
        return out";
    c.execute(js, vec![]).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_puzzle_report_and_analysis_pages_fit_a_phone() {
    use serde_json::json;
    let Some((addr, d)) = start("phone-pages").await else { return };
    crate::web_analysis::add_puzzle("phone-pages", "p1", "W:Wh6,a1:Bg7,c5,d2", "h6:f8:b4:e1").await;
    // A finished game with its report.
    let (id, token, _) = crate::common::create(addr, json!({"variant": "english", "mode": "hotseat"})).await;
    for m in ["11-15", "23-19", "8-11", "22-17"] {
        assert_eq!(crate::common::mv(addr, &id, &token, m).await.0, 200);
    }
    assert_eq!(crate::common::act(addr, &id, &token, json!({"type": "resign"})).await.0, 200);
    let c = browser(&d, 390, 844, "ru-RU").await;
    let game = format!("/game/{id}");
    let pages = [
        ("/puzzles?variant=russian", "#pz-status"),
        (game.as_str(), "#request-report"),
        ("/analysis?variant=international", ".board .sq.play"),
        ("/learn/canadian", "#learn-goal"),
    ];
    for (path, ready) in pages {
        c.goto(&format!("http://{addr}{path}")).await.unwrap();
        find(&c, ready).await;
        if path.starts_with("/game/") {
            click(&c, "#close-result").await;
            click(&c, "#request-report").await;
            find(&c, "#report-graph").await;
        }
        if path.starts_with("/analysis") {
            // With the PDN import open, the widest state (once the position is drawn:
            // the page draws itself again then).
            until("the position", || async { !text(&c, "#turn").await.is_empty() }).await;
            click(&c, "#import-open").await;
            find(&c, "#pdn-in").await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let name = path.trim_start_matches('/').split(['?', '/']).next().unwrap().to_string();
        shot(&c, &format!("phone-{name}")).await;
        assert_eq!(overflow(&c).await, json!([]), "{path} at 390x844");
    }
    c.close().await.unwrap();
}

/// What the page downloaded since it was opened: bytes over the network (headers
/// included), the files fetched, and the milliseconds from the navigation to `ready`.
async fn visit(c: &fantoccini::Client, url: &str, ready: &str) -> (u64, Vec<String>, f64) {
    c.goto(url).await.unwrap();
    find(c, ready).await;
    let js = "const nav = performance.getEntriesByType('navigation')[0]; \
        const res = performance.getEntriesByType('resource'); \
        return [nav.transferSize + res.reduce((n, r) => n + r.transferSize, 0), \
                res.map((r) => new URL(r.name).pathname), performance.now()]";
    let v = c.execute(js, vec![]).await.unwrap();
    let files = v[1].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect();
    (v[0].as_u64().unwrap(), files, v[2].as_f64().unwrap())
}

/// The home page on a slow mobile network ("slow 4G": 150 ms, 1.6 Mbit/s down, 750
/// kbit/s up): the first visit downloads the site compressed and one language's texts;
/// a repeat visit asks whether each file changed and downloads almost nothing. The
/// figures (printed) are in `docs/operations.md`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeat_visit_downloads_almost_nothing() {
    let Some((addr, d)) = start("repeat-visit").await else { return };
    // Over HTTP: a file comes gzipped with its tag, and the tag alone gets a 304.
    let gz = [("accept-encoding", "gzip, deflate, br")];
    let r = request(addr, "GET", "/assets/app.js", &gz, None).await.unwrap();
    assert_eq!((r.status, r.header("content-encoding")), (200, Some("gzip")), "{:?}", r.headers);
    let tag = r.header("etag").expect("an etag").to_string();
    let again = request(addr, "GET", "/assets/app.js", &[gz[0], ("if-none-match", &tag)], None).await.unwrap();
    assert_eq!(again.status, 304);

    let c = browser(&d, 390, 844, "es-ES").await;
    crate::web::throttle(&c, 150, 1600, 750).await;
    let home = format!("http://{addr}/");
    let (first, files, first_ms) = visit(&c, &home, "#start").await;
    // Spanish texts, not the other three languages'.
    assert!(files.iter().any(|f| f == "/assets/i18n-es.js"), "{files:?}");
    assert!(!files
        .iter()
        .any(|f| ["/assets/i18n-pt.js", "/assets/i18n-tr.js", "/assets/i18n-ru.js"].contains(&f.as_str())));
    let (repeat, _, repeat_ms) = visit(&c, &home, "#start").await;
    eprintln!("home page, slow 4G: first visit {first} bytes in {first_ms:.0} ms; repeat visit {repeat} bytes in {repeat_ms:.0} ms");
    assert!(first < 150_000, "first visit: {first} bytes");
    assert!(repeat * 5 < first, "a repeat visit downloaded {repeat} of {first} bytes");
    c.close().await.unwrap();
}
