//! The web UI: its files, embedded in the binary, and the boards of the variants its
//! screens draw (replay and import are in [`crate::replay`]).

use axum::extract::Path;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use dama_core::ballot::BallotList;
use dama_core::Variant;
use serde_json::json;

use crate::assets::Shelf;
use crate::error::ApiError;

/// The UI's files: name, content type, content.
const ASSETS: &[(&str, &str, &str)] = &[
    ("account.js", "text/javascript", include_str!("../web/account.js")),
    ("analysis.js", "text/javascript", include_str!("../web/analysis.js")),
    ("app.js", "text/javascript", include_str!("../web/app.js")),
    ("board.js", "text/javascript", include_str!("../web/board.js")),
    ("i18n.js", "text/javascript", include_str!("../web/i18n.js")),
    ("i18n-es.js", "text/javascript", include_str!("../web/i18n-es.js")),
    ("i18n-pt.js", "text/javascript", include_str!("../web/i18n-pt.js")),
    ("i18n-tr.js", "text/javascript", include_str!("../web/i18n-tr.js")),
    ("i18n-ru.js", "text/javascript", include_str!("../web/i18n-ru.js")),
    ("learn.js", "text/javascript", include_str!("../web/learn.js")),
    ("mod.js", "text/javascript", include_str!("../web/mod.js")),
    ("people.js", "text/javascript", include_str!("../web/people.js")),
    ("play.js", "text/javascript", include_str!("../web/play.js")),
    ("play-actions.js", "text/javascript", include_str!("../web/play-actions.js")),
    ("play-chat.js", "text/javascript", include_str!("../web/play-chat.js")),
    ("play-clock.js", "text/javascript", include_str!("../web/play-clock.js")),
    ("play-moves.js", "text/javascript", include_str!("../web/play-moves.js")),
    ("play-panel.js", "text/javascript", include_str!("../web/play-panel.js")),
    ("play-state.js", "text/javascript", include_str!("../web/play-state.js")),
    ("puzzles.js", "text/javascript", include_str!("../web/puzzles.js")),
    ("leaderboard.js", "text/javascript", include_str!("../web/leaderboard.js")),
    ("tournaments.js", "text/javascript", include_str!("../web/tournaments.js")),
    ("games.js", "text/javascript", include_str!("../web/games.js")),
    ("report.js", "text/javascript", include_str!("../web/report.js")),
    ("pages.js", "text/javascript", include_str!("../web/pages.js")),
    ("rules.js", "text/javascript", include_str!("../web/rules.js")),
    ("socket.js", "text/javascript", include_str!("../web/socket.js")),
    ("sound.js", "text/javascript", include_str!("../web/sound.js")),
    ("style.css", "text/css", include_str!("../web/style.css")),
    ("icon.svg", "image/svg+xml", include_str!("../web/icon.svg")),
];

/// The page every UI route answers with; the script draws the screen for the address.
pub const INDEX: &str = include_str!("../web/index.html");

/// The UI's files, compressed and tagged on first use.
static SHELF: Shelf = Shelf::new(ASSETS);

/// `GET /assets/{file}`: gzipped when the browser takes it, with an `ETag` (304 when
/// the browser has this version).
pub async fn asset(Path(name): Path<String>, headers: HeaderMap) -> Response {
    match SHELF.get(&name) {
        Some(file) => file.answer(&headers),
        None => ApiError::NoRoute(format!("/assets/{name}")).into_response(),
    }
}

/// The page every UI route answers with, prepared like the assets.
pub fn index_page(headers: &HeaderMap) -> Response {
    static PAGE: Shelf = Shelf::new(&[("index.html", "text/html", INDEX)]);
    PAGE.get("index.html").map_or_else(|| ApiError::Internal.into_response(), |p| p.answer(headers))
}

/// `GET /sw.js`: the service worker that shows pushed notifications, at the site's
/// root so that it may serve the whole site.
pub async fn service_worker(headers: HeaderMap) -> Response {
    static SW: Shelf = Shelf::new(&[("sw.js", "text/javascript", include_str!("../web/sw.js"))]);
    SW.get("sw.js").map_or_else(|| ApiError::Internal.into_response(), |p| p.answer(&headers))
}

/// `GET /api/variants`: every variant with its board — square names with their row
/// (from the top, White at the bottom) and column — who moves first, and the ballots
/// of openings its tournaments may draw from.
pub async fn variants() -> Response {
    let all: Vec<serde_json::Value> = Variant::ALL
        .into_iter()
        .map(|v| {
            let mut board = serde_json::to_value(v.board()).unwrap_or_default();
            let ballots: Vec<&str> = BallotList::for_variant(v).into_iter().map(BallotList::key).collect();
            board["ballots"] = json!(ballots);
            board
        })
        .collect();
    axum::Json(json!({ "variants": all, "levels": levels_json() })).into_response()
}

/// Each level of play with its approximate rating (`dama_engine::level::Level::rating`).
fn levels_json() -> serde_json::Value {
    let all: Vec<serde_json::Value> =
        (1..=10u8).map(|n| json!({ "level": n, "rating": dama_engine::level::Level::new(n).rating() })).collect();
    json!(all)
}

/// `GET /api/levels`: the levels of play against the computer with their approximate
/// ratings, `{"levels": [{"level": 1, "rating": ...}, ...]}`.
pub async fn levels() -> Response {
    axum::Json(json!({ "levels": levels_json() })).into_response()
}

/// The Content-Security-Policy of every answer: scripts, styles, fonts and
/// connections (websockets included) from this origin only; images also as `data:`
/// and `blob:` (the board's pictures, exported images); no plugins; no page of
/// another origin may frame ours (clickjacking), nor may a form post elsewhere.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: blob:; media-src 'self' data: blob:; connect-src 'self'; object-src 'none'; \
base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to every answer: [`CSP`], `X-Content-Type-Options:
/// nosniff`, `X-Frame-Options: DENY` (for browsers without frame-ancestors) and a
/// referrer policy that never sends a game's address (with its invite) elsewhere.
pub async fn security_headers(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    use axum::http::HeaderValue;
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    res
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// The keys of an object literal written as `key: '...'` or `'key': '...'`.
    fn keys(block: &str) -> BTreeSet<String> {
        let b = block.as_bytes();
        let (mut out, mut word, mut string) = (BTreeSet::new(), String::new(), None::<String>);
        let mut i = 0;
        while i < b.len() {
            let c = b[i] as char;
            if c == '\'' || c == '"' {
                let start = i + 1;
                i += 1;
                while b[i] != c as u8 {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                string = Some(block[start..i].to_string());
                word.clear();
            } else if c == ':' {
                if !word.is_empty() {
                    out.insert(std::mem::take(&mut word));
                } else if let Some(s) = string.take() {
                    out.insert(s);
                }
            } else if c.is_ascii_alphanumeric() || c == '_' {
                string = None;
                word.push(c);
            } else {
                word.clear();
                string = None;
            }
            i += 1;
        }
        out
    }

    /// Each language's keys: English in `i18n.js`, the others in their own files.
    fn dictionaries() -> Vec<(String, BTreeSet<String>)> {
        ["en", "es", "pt", "tr", "ru"]
            .iter()
            .map(|l| {
                let (file, opener) = if *l == "en" {
                    ("i18n.js".to_string(), "const en = {")
                } else {
                    (format!("i18n-{l}.js"), "export default {")
                };
                let src = super::ASSETS.iter().find(|a| a.0 == file).expect("a dictionary").2;
                let start = src.find(opener).expect("a dictionary");
                let end = start + src[start..].find("\n};").expect("its end");
                (l.to_string(), keys(&src[start..end]))
            })
            .collect()
    }

    #[tokio::test]
    async fn the_first_page_load_is_under_300_kb() {
        use axum::body::to_bytes;
        let variants = to_bytes(super::variants().await.into_body(), 1 << 20).await.unwrap().len();
        // The home page's modules; the other screens' own modules load when they open.
        let later = [
            "play.js",
            "play-actions.js",
            "play-chat.js",
            "play-clock.js",
            "play-moves.js",
            "play-panel.js",
            "play-state.js",
            "socket.js",
            "report.js",
            "analysis.js",
            "puzzles.js",
            "leaderboard.js",
            "tournaments.js",
            "games.js",
            "learn.js",
            "mod.js",
            "people.js",
        ];
        // One language's texts besides English (the largest).
        let other = |a: &&(&str, &str, &str)| a.0.starts_with("i18n-");
        let language = super::ASSETS.iter().filter(other).map(|a| a.2.len()).max().unwrap_or(0);
        let assets: usize =
            super::ASSETS.iter().filter(|a| !later.contains(&a.0) && !other(a)).map(|a| a.2.len()).sum();
        let total = super::INDEX.len() + assets + language + variants;
        assert!(total < 300_000, "{total} bytes");
    }

    #[test]
    fn every_language_has_every_text() {
        let dicts = dictionaries();
        let en = &dicts[0].1;
        assert!(en.len() > 150, "{}", en.len());
        for (l, d) in &dicts[1..] {
            let missing: Vec<_> = en.difference(d).filter(|k| *k != "rules_note").collect();
            let extra: Vec<_> = d.difference(en).collect();
            assert!(missing.is_empty() && extra.is_empty(), "{l}: missing {missing:?}, unknown {extra:?}");
        }
    }

    #[test]
    fn the_rules_exist_for_every_variant_and_translation() {
        let src = include_str!("../web/rules.js");
        let block = |name: &str| {
            let start = src.find(&format!("const {name} = {{")).expect("a block");
            &src[start..start + src[start..].find("\n};").expect("its end")]
        };
        let en = keys(block("en"));
        let layout = block("LAYOUT");
        let used: BTreeSet<String> = layout.split('\'').skip(1).step_by(2).map(str::to_string).collect();
        let variants = keys(layout);
        assert_eq!(variants.len(), 13, "{variants:?}");
        let missing: Vec<_> = used.difference(&en).collect();
        assert!(missing.is_empty(), "sentences without English text: {missing:?}");
        for l in ["es", "pt", "tr", "ru"] {
            let d = keys(block(l));
            assert_eq!(d, en, "{l}: the same sentences as English");
        }
    }

    #[test]
    fn every_text_the_screens_ask_for_exists() {
        let en = &dictionaries()[0].1;
        for (name, _, src) in super::ASSETS.iter().filter(|a| a.0.ends_with(".js") && !a.0.starts_with("i18n")) {
            let b = src.as_bytes();
            for (i, _) in src.match_indices("t('") {
                if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.') {
                    continue; // closest(', select(' ...
                }
                let key: String = src[i + 3..].chars().take_while(|&c| c != '\'').collect();
                let dynamic = src[i + 3 + key.len() + 1..].trim_start().starts_with('+');
                if dynamic {
                    assert!(en.iter().any(|k| k.starts_with(&key)), "{name}: no text starts with {key}");
                } else {
                    assert!(en.contains(&key), "{name}: no text '{key}'");
                }
            }
        }
    }
}
