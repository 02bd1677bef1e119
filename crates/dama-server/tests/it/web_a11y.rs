//! Accessibility (see `web.rs`): axe-core, the accessibility checker, run in the home,
//! game, analysis and learn pages, in the light theme and in the dark one the system
//! setting chooses, finds no violation of WCAG 2 A and AA (contrast included); moves are
//! announced to screen readers, and the board and every control are reached by keyboard.

use std::path::PathBuf;

use fantoccini::Client;
use serde_json::Value;

use crate::web::{browser_with, click, find, game_id, shot, start, until};

/// axe-core as `scripts/install-browser` installs it.
fn axe_source() -> Option<String> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/axe/node_modules/axe-core/axe.min.js");
    match std::fs::read_to_string(&p) {
        Ok(s) => Some(s),
        Err(e) if std::env::var("CI").is_ok() => {
            panic!("axe-core must be installed in CI (scripts/install-browser): {e}")
        }
        Err(e) => {
            eprintln!("skipping the accessibility checks: {} ({e}); run scripts/install-browser", p.display());
            None
        }
    }
}

/// The WCAG 2 A and AA violations axe finds in the page now: each rule with the
/// elements it fails on.
async fn violations(c: &Client, axe: &str) -> Vec<String> {
    c.execute(axe, vec![]).await.expect("axe loads");
    let r: Value = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
               .then((r) => done(r.violations.map((v) => v.id + ': ' + v.help + ' — ' +
                 v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' (' + (n.failureSummary || '').replace(/\\s+/g, ' ') + ')').join('; '))))
               .catch((e) => done(['axe failed: ' + e]));",
            vec![],
        )
        .await
        .expect("axe runs");
    r.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

/// Visits each page in one theme and checks it.
async fn check_pages(c: &Client, addr: std::net::SocketAddr, axe: &str, theme: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut check = |page: &str, v: Vec<String>| found.extend(v.into_iter().map(|v| format!("{theme} {page}: {v}")));
    let at = |p: &str| format!("http://{addr}{p}");
    c.goto(&at("/")).await.unwrap();
    find(c, "#start").await;
    check("/", violations(c, axe).await);
    shot(c, &format!("a11y-{theme}-home")).await;
    // A game on one device, after a move.
    click(c, "input[name=mode][value=hotseat]").await;
    click(c, "#start").await;
    game_id(c).await;
    find(c, ".board.interactive").await;
    check("/game", violations(c, axe).await);
    shot(c, &format!("a11y-{theme}-game")).await;
    // The same game's result dialog.
    click(c, "#resign").await;
    click(c, "#resign").await;
    find(c, "#result-dialog[open]").await;
    check("/game (result)", violations(c, axe).await);
    for (path, ready) in
        [("/analysis", ".board .sq.play"), ("/learn", "main h1"), ("/learn/english", ".board .sq.play")]
    {
        c.goto(&at(path)).await.unwrap();
        find(c, ready).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        check(path, violations(c, axe).await);
    }
    shot(c, &format!("a11y-{theme}")).await;
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_pass_the_accessibility_checker_in_both_themes() {
    let Some((addr, d)) = start("a11y").await else { return };
    let Some(axe) = axe_source() else { return };
    let mut found = Vec::new();
    for (theme, args) in [
        ("light", &["--blink-settings=preferredColorScheme=1"][..]),
        ("dark", &["--blink-settings=preferredColorScheme=0"][..]),
    ] {
        let c = browser_with(&d, 1280, 900, "en-US", args).await;
        let dark = c.execute("return matchMedia('(prefers-color-scheme: dark)').matches", vec![]).await.unwrap();
        assert_eq!(dark, Value::Bool(theme == "dark"));
        found.extend(check_pages(&c, addr, &axe, theme).await);
        if theme == "dark" {
            // The dark theme is the one drawn: a dark page behind light text.
            c.goto(&format!("http://{addr}/")).await.unwrap();
            find(&c, "#start").await;
            let bg =
                c.execute("return getComputedStyle(document.documentElement).backgroundColor", vec![]).await.unwrap();
            assert_eq!(bg, Value::String("rgb(27, 26, 23)".into()), "the dark theme's background");
        }
        c.close().await.unwrap();
    }
    assert!(found.is_empty(), "accessibility violations:\n{}", found.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_are_announced_and_played_by_keyboard() {
    let Some((addr, d)) = start("a11y-keys").await else { return };
    let c = browser_with(&d, 1280, 900, "en-US", &[]).await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    click(&c, "input[name=variant][value=english]").await;
    click(&c, "input[name=mode][value=hotseat]").await;
    click(&c, "#start").await;
    game_id(&c).await;
    find(&c, ".board.interactive").await;
    // The keyboard alone: focus the man on 11, Enter, then 15, Enter (Black's 11-15).
    for sq in ["11", "15"] {
        c.execute(&format!("document.querySelector(\"button[data-sq='{sq}']\").focus()"), vec![]).await.unwrap();
        find(&c, &format!("button[data-sq='{sq}']")).await.send_keys("\u{E007}").await.unwrap();
    }
    let said = || async { c.execute("return document.getElementById('announce').textContent", vec![]).await.unwrap() };
    until("the move announced", || async { said().await == "Black played 11-15." }).await;
    // Every control of the page is reached by Tab: none is left out of the order.
    let unreachable = c
        .execute(
            "return [...document.querySelectorAll('button, a[href], input, select, textarea, summary')]
               .filter((e) => e.offsetParent !== null && !e.disabled && e.tabIndex < 0 && !e.closest('.board'))
               .map((e) => e.outerHTML.slice(0, 80))",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(unreachable, Value::Array(vec![]), "controls out of the Tab order");
    c.close().await.unwrap();
}
