//! People in a real browser: a challenge sent from a player's page and accepted in the
//! other player's bell, both taken to the game; a correspondence move told to the
//! other session at once; a block that stops the next challenge.

use crate::common::*;
use crate::web::{browser, click, click_move, find, game_id, shot, sign_up, start, text, until, wait_interactive};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_accepted_in_the_bell_and_a_block_stops_the_next() {
    let Some((addr, d)) = start("people").await else { return };
    let (a, b) = (browser(&d, 1200, 900, "en-US").await, browser(&d, 1200, 900, "en-US").await);
    sign_up(&a, addr, "ann").await;
    sign_up(&b, addr, "bob").await;
    // Bob has a page open: Ann sees him online on his page, and challenges him to a
    // correspondence game, she with White.
    a.goto(&format!("http://{addr}/player/bob")).await.unwrap();
    until("Bob online", || async { text(&a, "h1").await.contains("Online now") }).await;
    click(&a, "#challenge").await;
    find(&a, "#ch-time").await.select_by_value("corr3").await.unwrap();
    find(&a, "#ch-color").await.select_by_value("white").await.unwrap();
    click(&a, "#ch-send").await;
    until("sent", || async { text(&a, "#toasts").await.contains("Challenge sent to bob") }).await;
    // Bob's bell counts it at once, with a toast; he accepts there.
    until("the bell's count", || async { text(&b, "#bell-count").await == "1" }).await;
    assert!(text(&b, "#toasts").await.contains("ann challenges you"), "{}", text(&b, "#toasts").await);
    click(&b, "#bell").await;
    let item = text(&b, "#inbox .ntf[data-kind=challenge]").await;
    assert!(item.contains("Correspondence") || item.contains("3 days per move"), "{item}");
    // The bell offers this device Web Push (the service worker is the site's).
    find(&b, "#push-on").await;
    let sw = text_at(addr, "/sw.js").await;
    assert!(sw.contains("showNotification"), "{sw}");
    shot(&b, "people-bell").await;
    click(&b, "#inbox .accept").await;
    let game = game_id(&b).await;
    // Ann is taken to the game too, which starts once both are there.
    until("Ann at the game", || async { a.current_url().await.unwrap().path() == format!("/game/{game}") }).await;
    wait_interactive(&b).await;
    // Bob (Black) moves first; Ann's session is told at once.
    let snap = snapshot(addr, &game).await;
    click_move(&b, &snap["legal"][0]).await;
    until("Ann told", || async { text(&a, "#toasts").await.contains("Your move against bob") }).await;
    let s = snapshot(addr, &game).await;
    assert_eq!(s["moves"].as_array().unwrap().len(), 1, "{s}");
    // Each player's connection as the server measured it shows by their name.
    until("both connections", || async { crate::web::count(&a, ".clock.side .conn").await == 2 }).await;
    let label = find(&a, ".clock.side .conn").await.attr("aria-label").await.unwrap().unwrap_or_default();
    assert!(label.starts_with("Connection: good"), "{label}");
    shot(&a, "people-your-move").await;
    // Ann resigns; her rematch is a challenge to Bob, colours swapped, which he
    // accepts in his bell: both are taken to the new game.
    click(&a, "#resign").await;
    click(&a, "#resign").await;
    click(&a, "#result-rematch").await;
    until("the rematch heard", || async { text(&b, "#toasts").await.contains("ann challenges you") }).await;
    b.goto(&format!("http://{addr}/")).await.unwrap();
    click(&b, "#bell").await;
    click(&b, "#inbox .accept").await;
    until("Bob at the rematch", || async { !b.current_url().await.unwrap().path().ends_with(&game) }).await;
    let rematch = game_id(&b).await;
    until("Ann at the rematch", || async { a.current_url().await.unwrap().path() == format!("/game/{rematch}") }).await;
    let s = snapshot(addr, &rematch).await;
    assert_eq!((s["players"][0]["name"].as_str(), s["players"][1]["name"].as_str()), (Some("bob"), Some("ann")), "{s}");
    assert_eq!(s["options"]["time"]["kind"], "correspondence");
    // Bob blocks Ann: her next challenge is refused, in her words.
    b.goto(&format!("http://{addr}/player/ann")).await.unwrap();
    click(&b, "#block").await;
    until("blocked", || async { text(&b, "#block").await.contains("Blocked") }).await;
    a.goto(&format!("http://{addr}/player/bob")).await.unwrap();
    click(&a, "#challenge").await;
    click(&a, "#ch-send").await;
    until("refused", || async {
        text(&a, "#challenge-form .error").await.contains("one of you has blocked the other")
    })
    .await;
    a.close().await.unwrap();
    b.close().await.unwrap();
}

/// The text at `path`.
async fn text_at(addr: std::net::SocketAddr, path: &str) -> String {
    let r = dama_server::client::request(addr, "GET", path, &[], None).await.unwrap();
    r.body.as_str().map(str::to_string).unwrap_or_else(|| r.body.to_string())
}
