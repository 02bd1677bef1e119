//! What a page shows around a game (see `web.rs`): how a game or a series ends, what a
//! screen reader hears after a move, the chat's own lines and a lobby game's wait, the
//! player page's opponents, a rules diagram.

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use crate::common::{act, create_full, friends};
use crate::web::{
    browser, click, click_move, engine_choice, find, game_id, get, shot, start, text, until, wait_interactive,
};

async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.map(|v| v.len()).unwrap_or(0)
}

/// Opens game `id` in `c` holding the seat `token` of `color`.
async fn open_seat(c: &Client, addr: std::net::SocketAddr, id: &str, token: &str, color: &str) {
    c.goto(&format!("http://{addr}/")).await.unwrap();
    let seat = json!({ "token": token, "color": color }).to_string();
    c.execute("localStorage.setItem(arguments[0], arguments[1])", vec![json!(format!("dama.seat.{id}")), json!(seat)])
        .await
        .unwrap();
    c.goto(&format!("http://{addr}/game/{id}")).await.unwrap();
    find(c, ".board").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aborted_game_says_so_and_a_series_ends_with_its_score() {
    let Some((addr, d)) = start("endings").await else { return };
    let c = browser(&d, 1280, 900, "en-US").await;

    // A friend game aborted before any move: "Aborted", and nothing to analyse.
    let v = create_full(addr, json!({"variant": "english", "mode": "friend", "color": "black"})).await;
    let id = v["id"].as_str().unwrap().to_string();
    crate::common::join(addr, &id, v["invite"].as_str()).await;
    open_seat(&c, addr, &id, v["token"].as_str().unwrap(), "black").await;
    click(&c, "#abort").await;
    until("the result dialog", || async { text(&c, "#result-title").await == "Aborted" }).await;
    assert_eq!(count(&c, "#result-dialog a[href^='/analysis']").await, 0, "an aborted game offers no analysis");
    assert_eq!(count(&c, "#analyse").await, 0);
    shot(&c, "endings-1-aborted").await;

    // A series of two on one device: game 1 resigned by Black, game 2 won by the player
    // who was White in game 1 (now Black): 2–0 for that player.
    c.goto(&format!("http://{addr}/")).await.unwrap();
    click(&c, "input[name=variant][value=english]").await;
    click(&c, "input[name=mode][value=hotseat]").await;
    let series = find(&c, "#series").await;
    series.clear().await.unwrap();
    series.send_keys("2").await.unwrap();
    click(&c, "#start").await;
    let first = game_id(&c).await;
    wait_interactive(&c).await;
    // Black moves first and resigns: White wins game 1.
    click(&c, "#resign").await;
    click(&c, "#resign").await;
    until("the next game", || async { count(&c, "#result-next-game").await == 1 }).await;
    click(&c, "#result-next-game").await;
    until("game 2", || async { game_id(&c).await != first }).await;
    until("the series line", || async { text(&c, ".panel").await.contains("Game 2 of 2") }).await;
    // Game 2: Black (game 1's White) moves, then White resigns.
    wait_interactive(&c).await;
    let second = game_id(&c).await;
    let snap = get(addr, &format!("/api/games/{second}")).await;
    click_move(&c, &engine_choice(&snap)).await;
    until("White to move", || async { text(&c, "#status").await == "White to move" }).await;
    wait_interactive(&c).await;
    click(&c, "#resign").await;
    click(&c, "#resign").await;
    until("the series' result", || async { count(&c, "#result-dialog #series-final").await == 1 }).await;
    let fin = text(&c, "#result-dialog #series-final").await;
    assert!(fin.contains("0–2"), "{fin}");
    assert!(fin.contains("Black won the series"), "{fin}");
    c.execute("document.getElementById('result-dialog').close()", vec![]).await.unwrap();
    let panel = text(&c, ".panel").await;
    assert!(!panel.contains("Game 2 of 2"), "{panel}");
    assert!(panel.contains("Series over"), "{panel}");
    shot(&c, "endings-2-series-over").await;
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_label_chat_lobby_and_player_page_say_the_right_thing() {
    let Some((addr, d)) = start("first-hour").await else { return };
    let c = browser(&d, 1280, 900, "tr-TR").await;

    // A Turkish man's move: forward, left and right (two other moves dashed).
    c.goto(&format!("http://{addr}/rules/turkish")).await.unwrap();
    find(&c, "ul.rules").await;
    let alts: Value = c
        .execute(
            "return [...document.querySelectorAll('ul.rules li')].map((li) => li.querySelectorAll('polyline.d-alt').length)",
            vec![],
        )
        .await
        .unwrap();
    assert!(alts.as_array().unwrap().contains(&json!(2)), "{alts}");

    // A friend game: after one's own move the board names the opponent's side.
    let (id, a, b) = friends(addr, json!({"variant": "english", "mode": "friend", "color": "black"})).await;
    open_seat(&c, addr, &id, &a, "black").await;
    wait_interactive(&c).await;
    let snap = get(addr, &format!("/api/games/{id}")).await;
    click_move(&c, &engine_choice(&snap)).await;
    until("the move", || async {
        get(addr, &format!("/api/games/{id}")).await["moves"].as_array().unwrap().len() == 1
    })
    .await;
    let white = "Beyaz";
    until("the label", || async {
        find(&c, ".board").await.attr("aria-label").await.unwrap().unwrap_or_default().contains(white)
    })
    .await;

    // The chat: one's own line has no mute or report; the opponent's has both, and the
    // authors are named in Turkish, not `black`/`white`.
    find(&c, "#chat-input").await.send_keys("merhaba\u{E007}").await.unwrap();
    until("my line", || async { count(&c, "#chat-lines li").await == 1 }).await;
    act(addr, &id, &b, json!({"type": "chat", "text": "selam"})).await;
    until("their line", || async { count(&c, "#chat-lines li").await == 2 }).await;
    let lines: Value = c
        .execute(
            "return [...document.querySelectorAll('#chat-lines li')].map((li) => [li.querySelector('b').textContent, li.querySelectorAll('button').length])",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(lines, json!([["Siyah", 0], ["Beyaz", 2]]));
    shot(&c, "first-hour-1-chat-tr").await;

    // A lobby game waits in the open games: no invite link is spoken of.
    let v = create_full(addr, json!({"variant": "english", "mode": "open", "time": {"kind": "fischer", "initial_ms": 300000, "increment_ms": 0}})).await;
    let open = v["id"].as_str().unwrap().to_string();
    open_seat(&c, addr, &open, v["token"].as_str().unwrap(), v["color"].as_str().unwrap()).await;
    until("the wait", || async { !text(&c, "#status").await.is_empty() }).await;
    let status = text(&c, "#status").await;
    assert!(!status.contains("davet"), "{status}");
    c.close().await.unwrap();
}
