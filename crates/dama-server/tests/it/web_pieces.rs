//! The piece sets (see `web.rs`): the red and black set is offered for every variant,
//! and colours the side that moves first red (White in International, the side on 1-12
//! in English), as the pieces' computed colours show.

use fantoccini::Client;

use crate::web::{browser, click, find, game_id, shot, start};

const RED: &str = "rgb(179, 38, 30)";
const BLACK: &str = "rgb(36, 33, 29)";

/// The computed fill of the piece on square `sq`.
async fn fill(c: &Client, sq: &str) -> String {
    let js = format!("return getComputedStyle(document.querySelector(\"button[data-sq='{sq}'] ellipse\")).fill");
    c.execute(&js, vec![]).await.unwrap().as_str().unwrap().to_string()
}

/// A game on one device of `variant`, from the home page.
async fn hotseat(c: &Client, addr: std::net::SocketAddr, variant: &str) {
    c.goto(&format!("http://{addr}/")).await.unwrap();
    click(c, &format!("input[name=variant][value={variant}]")).await;
    click(c, "input[name=mode][value=hotseat]").await;
    click(c, "#start").await;
    game_id(c).await;
    find(c, ".board button[data-sq] ellipse").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_red_and_black_set_colours_the_first_mover_red_in_every_variant() {
    let Some((addr, d)) = start("pieces").await else { return };
    let c = browser(&d, 1024, 800, "en-US").await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    find(&c, "#theme").await.select_by_value("theme-rb").await.unwrap();
    // International: White (31-50) moves first and is red; Black (1-20) is black.
    hotseat(&c, addr, "international").await;
    assert_eq!((fill(&c, "33").await, fill(&c, "18").await), (RED.to_string(), BLACK.to_string()));
    shot(&c, "pieces-1-international-red-black").await;
    // English: the side on 1-12 moves first and is red.
    hotseat(&c, addr, "english").await;
    assert_eq!((fill(&c, "11").await, fill(&c, "22").await), (RED.to_string(), BLACK.to_string()));
    // Russian (squares named as on a chess board): White on a1-h3 is red.
    hotseat(&c, addr, "russian").await;
    assert_eq!((fill(&c, "c3").await, fill(&c, "f6").await), (RED.to_string(), BLACK.to_string()));
    // The set is kept: back on the white and black set, White is light again.
    find(&c, "#theme").await.select_by_value("theme-wb").await.unwrap();
    assert_eq!(fill(&c, "c3").await, "rgb(248, 246, 239)");
    c.close().await.unwrap();
}
