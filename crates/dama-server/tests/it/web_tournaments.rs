//! Tournaments in a real browser: a player creates an arena from the tournaments page,
//! two players join it, both are taken to their game when the director pairs them,
//! one goes berserk, play it to a result, are paired again at once, and the event's page shows the
//! standings with the winner's points.

use crate::common::*;
use crate::web::{browser, click, click_move, find, game_id, shot, sign_up, start, text, until, wait_interactive};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_is_created_joined_played_and_standings_shown() {
    let Some((addr, d)) = start("tournaments").await else { return };
    let (a, b) = (browser(&d, 1200, 900, "en-US").await, browser(&d, 1200, 900, "en-US").await);
    sign_up(&a, addr, "ann").await;
    sign_up(&b, addr, "bob").await;
    // Ann creates an English arena of 30 minutes, 3+2, starting now.
    a.goto(&format!("http://{addr}/tournaments")).await.unwrap();
    find(&a, "#t-name").await.send_keys("Friday arena").await.unwrap();
    find(&a, "#t-format").await.select_by_value("arena").await.unwrap();
    find(&a, "#t-variant").await.select_by_value("english").await.unwrap();
    let starts = find(&a, "#t-starts").await;
    starts.clear().await.unwrap();
    starts.send_keys("0").await.unwrap();
    let minutes = find(&a, "#t-minutes").await;
    minutes.clear().await.unwrap();
    minutes.send_keys("30").await.unwrap();
    click(&a, "#t-berserk").await;
    shot(&a, "tournament-create").await;
    click(&a, "#t-create").await;
    until("the event's page", || async { text(&a, "#t-title").await.contains("Friday arena") }).await;
    let url = a.current_url().await.unwrap().to_string();
    assert!(text(&a, "#t-settings").await.contains("3 min + 2 s"), "{}", text(&a, "#t-settings").await);
    // It is listed for everyone.
    b.goto(&format!("http://{addr}/tournaments")).await.unwrap();
    until("listed", || async { text(&b, "#tournaments-list").await.contains("Friday arena") }).await;
    // Both join; the director pairs them and each is taken to the game.
    click(&a, "#t-join").await;
    b.goto(&url).await.unwrap();
    click(&b, "#t-join").await;
    let game = game_id(&a).await;
    until("Bob at the game", || async { b.current_url().await.unwrap().path() == format!("/game/{game}") }).await;
    wait_interactive(&a).await;
    wait_interactive(&b).await;
    let snap = snapshot(addr, &game).await;
    assert_eq!(snap["options"]["tournament"].as_str(), url.rsplit('/').next(), "{:#}", snap["options"]);
    // The first mover (Black, in English) moves; White resigns.
    let black = snap["players"][1]["name"].as_str().unwrap().to_string();
    let (mover, other) = if black == "ann" { (&a, &b) } else { (&b, &a) };
    // The arena allows berserk: the first mover halves their clock before moving.
    click(mover, "#berserk").await;
    until("berserk", || async { snapshot(addr, &game).await["berserk"][1] == true }).await;
    until("berserk told", || async { text(other, "#toasts").await.contains("went berserk") }).await;
    click_move(mover, &snap["legal"][0]).await;
    until("the move", || async { snapshot(addr, &game).await["moves"].as_array().unwrap().len() == 1 }).await;
    click(other, "#resign").await;
    click(other, "#resign").await;
    // Paired again at once: both are taken to a new game.
    until("the next game", || async { !a.current_url().await.unwrap().path().ends_with(&game) }).await;
    // The event's page: the winner has 2 points.
    a.goto(&url).await.unwrap();
    until("the standings", || async { text(&a, "#t-standings").await.contains(&black) }).await;
    let standings = text(&a, "#t-standings").await;
    let first = standings.lines().find(|l| l.contains(&black)).unwrap_or_default().to_string();
    assert!(first.contains('2'), "{standings}");
    find(&a, "#t-pdn").await;
    shot(&a, "tournament-standings").await;
    a.close().await.unwrap();
    b.close().await.unwrap();
}
