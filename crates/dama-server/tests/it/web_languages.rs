//! Every page in every language (see `web.rs`): for Spanish, Portuguese, Turkish and
//! Russian, each page is visited and its visible words (the text, and the `title`,
//! `aria-label` and `placeholder` of its elements) are searched for English left
//! behind: a text of the English dictionary that the language words otherwise, or a
//! common English word. A FEN and a PDN error, and the warnings of an untidy PDN
//! import, are worded in the language too, and a date on a player's page is written
//! as the language writes it.

use fantoccini::Client;
use serde_json::{json, Value};

use crate::web::{browser, click, find, game_id, shot, start, text, until};

/// Common English words that a page in another language should not show (compared
/// whole and without case).
const ENGLISH_WORDS: &[&str] = &[
    "the", "and", "move", "moves", "game", "games", "player", "players", "clock", "white", "black", "wins", "draw",
    "drawn", "with", "your", "you", "is", "of", "not", "level", "play", "rated", "casual", "rating", "analysis",
    "puzzle", "puzzles", "login", "password", "name", "start", "new", "back", "here", "there",
];

/// Words that are the same in every language or are not words of the interface: the
/// site's name, file formats, a PDN tag's name, and notation.
const ALLOWED: &[&str] = &["dama", "PDN", "FEN", "GameType", "API"];

/// Words borrowed from English that a language uses as its own: Portuguese says
/// "rating" for a player's rating.
const BORROWED: &[(&str, &str)] = &[("pt", "rating")];

/// Everything the page shows to a reader: its text, and the titles, labels and
/// placeholders of its elements.
async fn visible(c: &Client) -> String {
    let js = "const out = [document.body.innerText]; \
        for (const e of document.querySelectorAll('[title], [aria-label], [placeholder]')) \
          for (const a of ['title', 'aria-label', 'placeholder']) if (e.getAttribute(a)) out.push(e.getAttribute(a)); \
        return out.join('\\n')";
    c.execute(js, vec![]).await.unwrap().as_str().unwrap_or_default().to_string()
}

/// The English texts and those of `lang`, by key, as the page's dictionaries hold them.
async fn dictionaries(c: &Client, lang: &str) -> (Value, Value) {
    let js = "const done = arguments[arguments.length - 1]; \
        Promise.all([import('/assets/i18n.js'), import('/assets/i18n-' + arguments[0] + '.js')]) \
          .then(([en, l]) => done([en.englishTexts(), l.default]), (e) => done(String(e)));";
    let v = c.execute_async(js, vec![json!(lang)]).await.unwrap();
    assert!(v.is_array(), "the dictionaries: {v}");
    (v[0].clone(), v[1].clone())
}

/// The English left on the page: texts of the English dictionary (their parts between
/// `{parameters}`, of more than 12 characters) that `lang` words otherwise, and common
/// English words.
fn english_left(lang: &str, page: &str, en: &Value, other: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let theirs: Vec<&str> = other.as_object().unwrap().values().filter_map(Value::as_str).collect();
    for (key, v) in en.as_object().unwrap() {
        let Some(v) = v.as_str() else { continue };
        if other.get(key).and_then(Value::as_str) == Some(v) {
            continue;
        }
        for part in v.split(['{', '}']).step_by(2).map(str::trim) {
            // A part the language's own texts also hold is not English left behind.
            if part.chars().count() > 12 && page.contains(part) && !theirs.iter().any(|t| t.contains(part)) {
                found.push(format!("{key}: “{part}”"));
            }
        }
    }
    for word in page.split(|c: char| !c.is_alphanumeric() && c != '\'') {
        let w = word.trim_matches('\'');
        if ENGLISH_WORDS.iter().any(|e| e.eq_ignore_ascii_case(w))
            && !ALLOWED.contains(&w)
            && !BORROWED.iter().any(|&(l, b)| l == lang && b.eq_ignore_ascii_case(w))
        {
            let line = page.lines().find(|l| l.split(|c: char| !c.is_alphanumeric()).any(|x| x == w)).unwrap_or("");
            found.push(format!("the word “{w}” in “{line}”"));
        }
    }
    found.sort();
    found.dedup();
    found
}

async fn check(c: &Client, lang: &str, page: &str, dicts: &(Value, Value)) -> Vec<String> {
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let seen = visible(c).await;
    assert!(!seen.contains('⟦'), "{lang} {page}: a text is missing: {seen}");
    english_left(lang, &seen, &dicts.0, &dicts.1).into_iter().map(|e| format!("{lang} {page}: {e}")).collect()
}

/// A message is not English: it is none of the English dictionary's texts (with their
/// parameters), and it has no common English word.
fn not_english(lang: &str, what: &str, msg: &str, dicts: &(Value, Value)) -> Vec<String> {
    let mut out = Vec::new();
    if msg.trim().is_empty() {
        out.push(format!("{lang} {what}: no message"));
    }
    out.extend(english_left(lang, msg, &dicts.0, &dicts.1).into_iter().map(|e| format!("{lang} {what}: {e} ({msg})")));
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_speaks_the_readers_language() {
    let Some((addr, d)) = start("languages").await else { return };
    let (st, v) = crate::common::http(
        addr,
        "POST",
        "/api/accounts",
        None,
        Some(&json!({"name": "pepe7", "password": "correct horse"}).to_string()),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    // A finished game on the player's page, so that it shows a date and a record.
    let mut problems = Vec::new();
    for (lang, browser_lang) in [("es", "es-ES"), ("pt", "pt-BR"), ("tr", "tr-TR"), ("ru", "ru-RU")] {
        let c = browser(&d, 1280, 900, browser_lang).await;
        let at = |p: &str| format!("http://{addr}{p}");
        c.goto(&at("/")).await.unwrap();
        find(&c, "#start").await;
        let dicts = dictionaries(&c, lang).await;
        // The search finds English where there is some: the English not-found page's
        // words, and a sentence of common words.
        let nf = format!("{} {}", dicts.0["nf_title"].as_str().unwrap(), dicts.0["nf_text"].as_str().unwrap());
        assert!(!english_left(lang, &nf, &dicts.0, &dicts.1).is_empty(), "{lang}: the search finds nothing in {nf}");
        assert_eq!(english_left(lang, "Black wins the game", &json!({}), &json!({})).len(), 4);
        problems.extend(check(&c, lang, "/", &dicts).await);

        // A game against the computer, as its creator sees it.
        click(&c, "input[name=mode][value=ai]").await;
        click(&c, "#start").await;
        let id = game_id(&c).await;
        find(&c, ".board .sq").await;
        problems.extend(check(&c, lang, "/game (computer)", &dicts).await);
        let _ = id;

        // A finished game with its result dialog.
        c.goto(&at("/")).await.unwrap();
        click(&c, "input[name=mode][value=hotseat]").await;
        click(&c, "#start").await;
        game_id(&c).await;
        click(&c, "#resign").await;
        click(&c, "#resign").await;
        find(&c, "#result-dialog[open]").await;
        problems.extend(check(&c, lang, "/game (finished)", &dicts).await);

        for (path, ready) in [
            ("/analysis", ".board .sq.play"),
            ("/puzzles", "main"),
            ("/learn", "a.learn-variant"),
            ("/leaderboard", "#lb-empty"),
            ("/games", "#mg-login"),
            ("/learn/turkish", "#learn-goal"),
            ("/learn/international", "#learn-goal"),
            ("/replay", "#pdntext"),
            ("/login", "main input"),
            ("/rules/international", "svg.diagram"),
            ("/player/pepe7", "main h1"),
            ("/nothing", ".not-found h1"),
        ] {
            c.goto(&at(path)).await.unwrap();
            find(&c, ready).await;
            problems.extend(check(&c, lang, path, &dicts).await);
        }

        // A move a lesson refuses, with its reason, in the language.
        c.goto(&at("/learn/russian")).await.unwrap();
        click(&c, "button[data-lesson='compulsory']").await;
        find(&c, "button[data-lesson='compulsory'][aria-current='step']").await;
        click(&c, "button[data-sq='c3']").await;
        click(&c, "button[data-sq='d4']").await;
        until("the refusal", || async { text(&c, "#learn-status").await.contains("g3:e5") }).await;
        problems.extend(not_english(lang, "learn refusal", &text(&c, "#learn-status").await, &dicts));

        // A FEN and a PDN that do not read, on the analysis board.
        c.goto(&at("/analysis")).await.unwrap();
        find(&c, ".board .sq.play").await;
        click(&c, "#setup-open").await;
        find(&c, "#fen").await.send_keys("W:W99:B1").await.unwrap();
        click(&c, "#load-fen").await;
        until("the FEN error", || async { !text(&c, ".an-note").await.is_empty() }).await;
        problems.extend(not_english(lang, "analysis FEN error", &text(&c, ".an-note").await, &dicts));
        c.goto(&at("/analysis")).await.unwrap();
        find(&c, ".board .sq.play").await;
        click(&c, "#import-open").await;
        find(&c, "#pdn-in").await.send_keys("[GameType \"21\"]\n1. 11-15 23-19 2. 11-16 *").await.unwrap();
        click(&c, "#import-form button[type=submit]").await;
        until("the PDN error", || async { !text(&c, ".an-note").await.is_empty() }).await;
        let msg = text(&c, ".an-note").await;
        assert!(msg.contains("11-16"), "{lang}: the PDN error names the move: {msg}");
        problems.extend(not_english(lang, "analysis PDN error", &msg, &dicts));
        // An untidy game that reads, with what the reader read past.
        c.goto(&at("/analysis")).await.unwrap();
        find(&c, ".board .sq.play").await;
        click(&c, "#import-open").await;
        find(&c, "#pdn-in")
            .await
            .send_keys("[Round 17]\n1. 11-15 23-19 {a {b} 2. 8-11 (2. 22-17) 22-17")
            .await
            .unwrap();
        click(&c, "#import-form button[type=submit]").await;
        until("the PDN warnings", || async { !text(&c, ".an-note").await.is_empty() }).await;
        let msg = text(&c, ".an-note").await;
        assert!(msg.contains("Round") && msg.contains('{'), "{lang}: the warnings name the tag and the brace: {msg}");
        problems.extend(not_english(lang, "analysis PDN warnings", &msg, &dicts));

        // The same on the replay page.
        c.goto(&at("/replay")).await.unwrap();
        find(&c, "#pdntext").await.send_keys("W:W99:B1").await.unwrap();
        click(&c, "main form button[type=submit]").await;
        until("the FEN error", || async { !text(&c, "main .error").await.is_empty() }).await;
        problems.extend(not_english(lang, "replay FEN error", &text(&c, "main .error").await, &dicts));
        c.goto(&at("/replay")).await.unwrap();
        find(&c, "#pdntext").await.send_keys("[GameType \"21\"]\n1. 11-15 23-19 2. 11-16 *").await.unwrap();
        click(&c, "main form button[type=submit]").await;
        let msg = text(&c, "#game-error").await;
        assert!(msg.contains("11-16"), "{lang}: the PDN error names the move: {msg}");
        problems.extend(not_english(lang, "replay PDN error", &msg, &dicts));
        c.goto(&at("/replay")).await.unwrap();
        find(&c, "#pdntext").await.send_keys("[Event \"x\"]\n1. 11-15 {never closed").await.unwrap();
        click(&c, "main form button[type=submit]").await;
        until("the PDN error", || async { !text(&c, "main .error").await.is_empty() }).await;
        problems.extend(not_english(lang, "replay unreadable PDN", &text(&c, "main .error").await, &dicts));

        if lang == "ru" {
            // A date as Russian writes it: dd.mm.yyyy.
            c.goto(&at("/player/pepe7")).await.unwrap();
            find(&c, "main h1").await;
            let page = text(&c, "main").await;
            let today = c.execute("return new Date().toLocaleDateString('ru')", vec![]).await.unwrap();
            let today = today.as_str().unwrap();
            assert!(today.len() == 10 && today.as_bytes()[2] == b'.', "{today}");
            assert!(page.contains(today), "the date as Russian writes it ({today}): {page}");
        }
        shot(&c, &format!("languages-{lang}")).await;
        c.close().await.unwrap();
    }
    assert!(problems.is_empty(), "English left on the pages:\n{}", problems.join("\n"));
}
