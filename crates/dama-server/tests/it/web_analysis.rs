//! The analysis board in a real headless browser (see `web.rs`): moves and variations
//! played by clicks, the engine's lines streamed, a variation made the main line, the
//! tree written as PDN, a position set up from the palette, and a replayed game opened
//! on the board. Screenshots go to `target/e2e-screenshots/`.

use fantoccini::Client;
use serde_json::json;

use crate::web::{browser, click, click_move, count, find, shot, start, text, until};

async fn value(c: &Client, css: &str) -> String {
    find(c, css).await.prop("value").await.unwrap().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_plays_variations_streams_the_engine_and_writes_pdn() {
    let Some((addr, d)) = start("analysis").await else { return };
    let c = browser(&d, 1280, 900, "en-US").await;
    c.goto(&format!("http://{addr}/analysis?variant=russian")).await.unwrap();
    find(&c, ".board .sq.play").await;

    // A move by clicks: it is in the tree, and the engine's two lines arrive with a score
    // on the bar.
    click_move(&c, &json!({"path": ["c3", "d4"]})).await;
    until("the move in the tree", || async { text(&c, "#tree").await.contains("c3-d4") }).await;
    until("two engine lines", || async { count(&c, "#lines li").await == 2 }).await;
    let bar = find(&c, "#evalbar").await.attr("aria-label").await.unwrap().unwrap_or_default();
    assert!(bar.contains('+') || bar.contains('−'), "{bar}");

    // Back to the start and another first move: a variation.
    click(&c, "#back").await;
    until("the start position", || async { count(&c, ".tree .mv.cur").await == 0 }).await;
    click_move(&c, &json!({"path": ["g3", "h4"]})).await;
    until("the variation", || async { count(&c, ".tree .var").await == 1 }).await;
    assert!(text(&c, ".tree .var").await.contains("g3-h4"));
    find(&c, "#comment").await.send_keys("a flank opening").await.unwrap();
    until("the comment in the tree", || async { text(&c, "#tree").await.contains("a flank opening") }).await;
    shot(&c, "analysis-1-variation").await;

    // The variation becomes the main line; the tree written as PDN says so.
    click(&c, "#promote").await;
    until("g3-h4 first", || async { text(&c, ".tree .mv").await == "g3-h4" }).await;
    click(&c, "#export").await;
    until("the PDN", || async { value(&c, "#pdn-out").await.contains("[GameType \"25\"]") }).await;
    let pdn = value(&c, "#pdn-out").await;
    let flat = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("1. g3-h4 {a flank opening} (1. c3-d4) *"), "{pdn}");

    // A position set up from the palette: a white king on c1 against a black man on f6.
    click(&c, "#setup-open").await;
    click(&c, "#setup-clear").await;
    click(&c, "button[data-tool='wk']").await;
    click(&c, "button[data-sq='c1']").await;
    // The black man is dragged from the palette (the page's drag and drop, as a mouse
    // drag fires it).
    let drag = "const dt = new DataTransfer(); \
        document.querySelector(\"button[data-tool='bm']\").dispatchEvent(new DragEvent('dragstart', {dataTransfer: dt, bubbles: true})); \
        const sq = document.querySelector(\"button[data-sq='f6']\"); \
        sq.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true})); \
        sq.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));";
    c.execute(drag, vec![]).await.unwrap();
    find(&c, "#setup-side").await.select_by_value("white").await.unwrap();
    until("the set-up FEN", || async { value(&c, "#fen").await == "W:WKc1:Bf6" }).await;
    shot(&c, "analysis-2-setup").await;
    click(&c, "#setup-done").await;
    until("the engine on the new position", || async { count(&c, "#lines li").await >= 1 }).await;
    assert_eq!(count(&c, ".tree .mv").await, 0);
    assert!(text(&c, "#turn").await.contains("White"), "{}", text(&c, "#turn").await);

    // A game replayed from PDN opens on the analysis board with its variations.
    c.goto(&format!("http://{addr}/replay")).await.unwrap();
    let game = "[GameType \"25\"]\n1. c3-d4 f6-g5 (1... d6-c5 2. b2-c3) 2. b2-c3 g7-f6 *\n";
    find(&c, "#pdntext").await.send_keys(game).await.unwrap();
    click(&c, "form.card button[type=submit]").await;
    click(&c, "#analyse").await;
    until("the analysis page", || async { c.current_url().await.unwrap().path() == "/analysis" }).await;
    until("the imported tree", || async { count(&c, ".tree .mv").await == 6 }).await;
    assert!(text(&c, ".tree .var").await.contains("d6-c5"));
    shot(&c, "analysis-3-imported").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_shows_its_report_graph_and_marks_the_mistake() {
    let Some((addr, d)) = start("report").await else { return };
    // A game played through the API: an opening, a man given away, taken, resigned.
    let (id, token, _) = crate::common::create(addr, json!({"variant": "english", "mode": "hotseat"})).await;
    for m in ["11-15", "23-19", "8-11", "22-17"] {
        assert_eq!(crate::common::mv(addr, &id, &token, m).await.0, 200);
    }
    let fen = crate::common::snapshot(addr, &id).await["fen"].as_str().unwrap().to_string();
    let bad = crate::analysis::hanging_move(addr, &fen).await.expect("a move that gives a man away");
    assert_eq!(crate::common::mv(addr, &id, &token, bad["long"].as_str().unwrap()).await.0, 200);
    let take = crate::common::snapshot(addr, &id).await["legal"][0]["long"].as_str().unwrap().to_string();
    assert_eq!(crate::common::mv(addr, &id, &token, &take).await.0, 200);
    assert_eq!(crate::common::act(addr, &id, &token, json!({"type": "resign"})).await.0, 200);

    // A spectator opens the finished game and asks for the report.
    let c = browser(&d, 1280, 900, "en-US").await;
    c.goto(&format!("http://{addr}/game/{id}")).await.unwrap();
    // The result comes up first; its "Analyse" leads to the analysis board, here it is
    // closed to read the report on the game's page.
    click(&c, "#close-result").await;
    click(&c, "#request-report").await;
    until("the graph", || async { count(&c, "#report-graph").await == 1 }).await;
    let marked = find(&c, "#moves button[data-ply='5']").await;
    let class = marked.attr("class").await.unwrap().unwrap_or_default();
    assert!(class.contains("j-mistake") || class.contains("j-blunder"), "{class}");
    let title = marked.attr("title").await.unwrap().unwrap_or_default();
    assert!(title.starts_with("Better: "), "{title}");
    assert!(text(&c, "#report-black").await.contains("accuracy"));
    shot(&c, "report-1-graph").await;
    // A click on the graph shows that move.
    click(&c, "#report-graph").await;
    until("browsing a move", || async { count(&c, "#browse").await == 1 }).await;

    // On a phone (no hover): a click on the marked move shows the position it was
    // played in with the better move as an arrow, and the engine's line in words.
    let phone = browser(&d, 390, 844, "en-US").await;
    phone.goto(&format!("http://{addr}/game/{id}")).await.unwrap();
    click(&phone, "#close-result").await;
    until("the graph", || async { count(&phone, "#report-graph").await == 1 }).await;
    click(&phone, "#moves button[data-ply='5']").await;
    until("the better move", || async { count(&phone, "#report-better").await == 1 }).await;
    let better = text(&phone, "#report-better").await;
    let best = title.trim_start_matches("Better: ");
    assert!(better.contains(&format!("better was {best}")), "{better}");
    assert!(better.contains("The engine's line: "), "{better}");
    assert!(count(&phone, ".board .arrows line").await >= 1, "no arrow");
    // The arrow starts on the better move's first square, where a piece stands before it.
    let from = best.split(['-', 'x']).next().unwrap();
    let js = format!("return !!document.querySelector(\"button[data-sq='{from}'] ellipse\")");
    assert_eq!(phone.execute(&js, vec![]).await.unwrap(), json!(true));
    shot(&phone, "report-2-better-move-phone").await;
    phone.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_opening_explorer_lists_the_masters_moves_and_plays_one() {
    let Some((addr, d)) =
        crate::web::start_with("explorer", dama_server::Limits { puzzles_bundled: Some(false), ..Default::default() })
            .await
    else {
        return;
    };
    let c = browser(&d, 1280, 900, "en-US").await;
    c.goto(&format!("http://{addr}/analysis?variant=russian")).await.unwrap();
    // The bundled Russian master games (USSR 1947) are counted in the background.
    for _ in 0..100 {
        if count(&c, "#explorer-table tbody tr").await > 0 {
            break;
        }
        // Look again: the collections may still be on their way.
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        c.refresh().await.unwrap();
        find(&c, "#explorer-moves").await;
    }
    assert!(count(&c, "#explorer-table tbody tr").await > 0, "no master moves from the start");
    let first = find(&c, "#explorer-table tbody tr button").await.text().await.unwrap();
    shot(&c, "explorer-1-start").await;
    click(&c, "#explorer-table tbody tr button").await;
    until("the move played", || async { text(&c, ".tree .mv").await == first }).await;
    // The players' tab has no games yet.
    find(&c, "#ex-source").await.select_by_value("players").await.unwrap();
    until("the players' tab", || async { text(&c, "#explorer-moves").await.contains("No game") }).await;
}

/// Keeps a puzzle in the database of the browser tests' server `name`.
pub(crate) async fn add_puzzle(name: &str, id: &str, fen: &str, line: &str) {
    use sqlx::Connection;
    let p = std::env::temp_dir().join(format!("dama-web-{name}-{}.sqlite", std::process::id()));
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite:{}", p.display())).await.unwrap();
    sqlx::query(
        "INSERT INTO puzzles (id, variant, fen, line, source, rating, attempts, solved) \
         VALUES ($1, 'russian', $2, $3, 'test', 1500, 0, 0)",
    )
    .bind(id)
    .bind(fen)
    .bind(line)
    .execute(&mut c)
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_by_clicks_and_a_wrong_move_shows_the_line() {
    let Some((addr, d)) = start("puzzles").await else { return };
    let c = browser(&d, 1280, 900, "en-US").await;
    c.goto(&format!("http://{addr}/puzzles?variant=russian")).await.unwrap();
    until("no puzzle yet", || async { count(&c, "#pz-none").await == 1 }).await;
    // The man crowned on f8 sweeps on as a king and takes everything.
    add_puzzle("puzzles", "p1", "W:Wh6,a1:Bg7,c5,d2", "h6:f8:b4:e1").await;
    c.refresh().await.unwrap();
    until("the puzzle", || async { count(&c, "#pz-status").await == 1 }).await;
    assert!(text(&c, "#pz-status").await.contains("White to move"));
    click_move(&c, &json!({"path": ["h6", "f8", "b4", "e1"]})).await;
    until("solved", || async { text(&c, "#pz-status").await.contains("Solved") }).await;
    assert!(text(&c, "#pz-rating").await.contains("1516"), "{}", text(&c, "#pz-rating").await);
    shot(&c, "puzzle-1-solved").await;
    // The next one: a wrong move ends it and shows the winning line.
    add_puzzle("puzzles", "p2", "W:Wc3,e3:Bf6,h8", "e3-d4").await;
    click(&c, "#pz-next").await;
    until("the second puzzle", || async { count(&c, "#pz-line").await == 0 && count(&c, "#pz-status").await == 1 })
        .await;
    click_move(&c, &json!({"path": ["c3", "b4"]})).await;
    until("the wrong move", || async { text(&c, "#pz-status").await.contains("Not that move") }).await;
    assert!(text(&c, "#pz-line").await.contains("e3-d4"));
    shot(&c, "puzzle-2-wrong").await;
    // The last: two moves win (by the endgame tables, see puzzles.rs). The other one is
    // accepted, and the puzzle goes on along the engine's line (the server gives the
    // same line to the page and to this test) to its end.
    only_puzzle("puzzles", "p3", "W:Wa3,e1:Bg5", "a3-b4 g5-h4 e1-f2 h4-g3 f2:h4").await;
    click(&c, "#pz-next").await;
    until("the third puzzle", || async { count(&c, "#pz-line").await == 0 && count(&c, "#pz-status").await == 1 })
        .await;
    click_move(&c, &json!({"path": ["e1", "f2"]})).await;
    until("accepted", || async { text(&c, "#pz-status").await.contains("Another winning move: accepted.") }).await;
    shot(&c, "puzzle-3-other").await;
    let body = json!({"moves": ["e1-f2"]}).to_string();
    let (_, v) = dama_server::client::http(addr, "POST", "/api/puzzles/p3/check", None, Some(&body)).await.unwrap();
    let line: Vec<String> = serde_json::from_value(v["line"].clone()).unwrap();
    let path = |m: &str| json!({"path": m.split(['-', ':']).collect::<Vec<_>>()});
    for pair in line.chunks(2) {
        let landing = path(&pair[0])["path"].as_array().unwrap().last().unwrap().clone();
        let replied = format!(".sq.last[data-sq={landing}]");
        until("the reply", || async { count(&c, &replied).await == 1 }).await;
        click_move(&c, &path(&pair[1])).await;
    }
    until("solved", || async { text(&c, "#pz-status").await.contains("Solved") }).await;
    shot(&c, "puzzle-3-solved").await;
}

/// Leaves puzzle `id` alone in the database of the browser tests' server `name`.
async fn only_puzzle(name: &str, id: &str, fen: &str, line: &str) {
    use sqlx::Connection;
    let p = std::env::temp_dir().join(format!("dama-web-{name}-{}.sqlite", std::process::id()));
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite:{}", p.display())).await.unwrap();
    sqlx::query("DELETE FROM puzzles").execute(&mut c).await.unwrap();
    drop(c);
    add_puzzle(name, id, fen, line).await;
}

/// The rectangle of the element `css` (left, top, right, bottom), if it is shown.
async fn rect(c: &Client, css: &str) -> Option<[f64; 4]> {
    let js = format!(
        "const e = document.querySelector('{css}'); if (!e || e.hidden) return null; \
         const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]"
    );
    serde_json::from_value(c.execute(&js, vec![]).await.unwrap()).unwrap()
}

fn overlap(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_shows_one_error_that_covers_no_control() {
    let Some((addr, d)) = start("analysis-errors").await else { return };
    for (w, h) in [(1280, 900), (390, 844)] {
        let c = browser(&d, w, h, "en-US").await;
        c.goto(&format!("http://{addr}/analysis?variant=russian")).await.unwrap();
        find(&c, ".board .sq.play").await;
        // A board with no piece at all is refused (it used to load and say "White wins").
        let load = |fen: &'static str| {
            let c = c.clone();
            async move {
                let input = find(&c, "#fen").await;
                input.clear().await.unwrap();
                input.send_keys(fen).await.unwrap();
                click(&c, "#load-fen").await;
            }
        };
        load("B:W:B").await;
        until("the error", || async { rect(&c, "#an-note").await.is_some() }).await;
        assert!(text(&c, "#an-note").await.contains("no pieces"), "{}", text(&c, "#an-note").await);
        assert!(count(&c, ".board ellipse").await > 0, "the old position stays");
        // Three errors: one message, the last, in one place.
        load("W:Wz9").await;
        load("W:W1-50:B").await;
        until("the last error", || async { text(&c, "#an-note").await.contains("50") }).await;
        assert_eq!(count(&c, "#an-note").await, 1);
        assert_eq!(count(&c, "#toasts .toast").await, 0, "errors are not toasts that stack");
        // It covers none of the page's controls.
        let note = rect(&c, "#an-note").await.unwrap();
        for css in ["#export", "#import-open", "#setup-open", "#load-fen", "#fen"] {
            if let Some(r) = rect(&c, css).await {
                assert!(!overlap(note, r), "{w}px: the message covers {css}: {note:?} {r:?}");
            }
        }
        let hidden_by_note = "const n = document.getElementById('an-note').getBoundingClientRect(); \
            return [...document.querySelectorAll('button, input, select, textarea, a')].filter((e) => { \
              const r = e.getBoundingClientRect(); if (!r.width) return false; \
              const x = r.left + r.width / 2, y = r.top + r.height / 2; \
              const top = document.elementFromPoint(x, y); \
              return top && !e.contains(top) && document.getElementById('an-note').contains(top); }).length";
        assert_eq!(c.execute(hidden_by_note, vec![]).await.unwrap(), json!(0));
        shot(&c, &format!("analysis-errors-{w}")).await;
        // It can be dismissed.
        click(&c, "#an-note-close").await;
        until("no message", || async { rect(&c, "#an-note").await.is_none() }).await;
        c.close().await.unwrap();
    }
}
