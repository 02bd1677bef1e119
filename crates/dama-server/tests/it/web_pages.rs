//! Addresses a visitor may type or follow (see `web.rs`): an address with no page, or a
//! player who does not exist, shows the site's own "nothing here" page in the reader's
//! language with a link home (status 404); the API's addresses keep their JSON errors.

use dama_server::client::request;

use crate::web::{browser, click, find, shot, start, text, until};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_with_no_page_shows_the_sites_not_found_page() {
    let Some((addr, d)) = start("not-found").await else { return };
    // Over HTTP: a page address answers 404 with the page, an API address its JSON.
    for path in ["/lobby", "/rules", "/leaderboard"] {
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
