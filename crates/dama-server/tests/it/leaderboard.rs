//! Leaderboards: the top of a rating pool and speed class lists established ratings
//! (not provisional) of players active in the last four weeks, best first, and a
//! player's page gives their rank; on SQLite and PostgreSQL, and in a browser.

use dama_server::store::Store;
use serde_json::{json, Value};

use crate::common::*;
use crate::web::{browser, find, start as start_browser, text, until};

on_both!(the_leaderboard_lists_established_active_ratings_best_first);

const DAY_MS: i64 = 86_400_000;

/// Signs up `names` and returns their account ids.
async fn accounts(addr: std::net::SocketAddr, store: &Store, names: &[&str]) -> Vec<String> {
    let mut ids = Vec::new();
    for n in names {
        let body = json!({"name": n, "password": "a good password"}).to_string();
        let (st, v) = http(addr, "POST", "/api/accounts", None, Some(&body)).await;
        assert_eq!(st, 201, "{v}");
        ids.push(store.account_named(n).await.unwrap().unwrap().id);
    }
    ids
}

/// Rates `games` blitz games of `pool` between `a` and `b` at `at_ms`, `a` winning
/// `wins` of them spread evenly and losing the rest.
async fn play(store: &Store, pool: &str, a: &str, b: &str, games: usize, wins: usize, at_ms: i64) {
    for i in 0..games {
        let id = format!("{a}-{b}-{pool}-{i}");
        let score = if i * wins / games != (i + 1) * wins / games { 1.0 } else { 0.0 };
        store.rate_game(&id, pool, "blitz", [a, b], score, at_ms).await.unwrap().expect("rated");
    }
}

/// Fills `store` with: ann and bob (40 games, ann 30 wins), cat and dan (40 games,
/// even), eve and fay (2 games: provisional), gus and hal (40 games, even, six weeks
/// ago: inactive), and ann and bob again under seed 001 (another pool, bob 30 wins).
async fn fill(addr: std::net::SocketAddr, store: &Store) -> Vec<String> {
    let now = dama_server::clock::now_ms();
    let ids = accounts(addr, store, &["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]).await;
    play(store, "english", &ids[0], &ids[1], 40, 30, now).await;
    play(store, "english", &ids[2], &ids[3], 40, 20, now).await;
    play(store, "english", &ids[4], &ids[5], 2, 2, now).await;
    play(store, "english", &ids[6], &ids[7], 40, 20, now - 42 * DAY_MS).await;
    play(store, "english-seed001", &ids[1], &ids[0], 40, 30, now).await;
    ids
}

async fn the_leaderboard_lists_established_active_ratings_best_first(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let store = Store::connect(&db).await.unwrap();
    let ids = fill(a, &store).await;
    // The truth, from the stored ratings: established (RD at most 110) and active.
    let mut want: Vec<(String, i64)> = Vec::new();
    for (name, id) in ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"].iter().zip(&ids) {
        for r in store.ratings(id).await.unwrap() {
            let active = r.updated_ms >= dama_server::clock::now_ms() - 28 * DAY_MS;
            if r.variant == "english" && r.rating.rd <= 110.0 && active {
                want.push((name.to_string(), r.rating.rating.round() as i64));
            }
        }
    }
    want.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    // Gus is established too: only his six weeks away keep him off.
    let gus = store.ratings(&ids[6]).await.unwrap();
    assert!(gus[0].rating.rd <= 110.0, "{gus:?}");
    assert_eq!(want.len(), 4, "ann, bob, cat and dan are established: {want:?}");
    let (st, v) = http(a, "GET", "/api/leaderboard?pool=english&speed=blitz", None, None).await;
    assert_eq!(st, 200, "{v}");
    let got: Vec<(String, i64)> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p["rating"].as_i64().unwrap()))
        .collect();
    assert_eq!(got, want, "{v}");
    assert_eq!(got[0].0, "ann", "ann won three games in four");
    let ranks: Vec<u64> = v["players"].as_array().unwrap().iter().map(|p| p["rank"].as_u64().unwrap()).collect();
    assert_eq!(ranks, [1, 2, 3, 4]);
    // The seed 001 pool is another board: there bob leads.
    let (_, v) = http(a, "GET", "/api/leaderboard?pool=english-seed001&speed=blitz", None, None).await;
    assert_eq!(v["players"][0]["name"], "bob", "{v}");
    // A player's page gives the rank of each rating on a board, and none otherwise.
    for (name, rank) in [("ann", json!(1)), ("eve", Value::Null), ("gus", Value::Null)] {
        let (_, p) = http(a, "GET", &format!("/api/players/{name}"), None, None).await;
        assert_eq!(p["ratings"]["english"]["blitz"]["rank"], rank, "{name}: {p}");
    }
    let (_, p) = http(a, "GET", "/api/players/bob", None, None).await;
    let bob = want.iter().position(|w| w.0 == "bob").unwrap() + 1;
    assert_eq!(p["ratings"]["english"]["blitz"]["rank"], json!(bob));
    assert_eq!(p["ratings"]["english-seed001"]["blitz"]["rank"], json!(1));
    // Unknown pools and classes are refused with what is wrong.
    for q in ["pool=chess", "pool=international-seed001", "speed=fast", "flavour=x"] {
        let (st, v) = http(a, "GET", &format!("/api/leaderboard?{q}"), None, None).await;
        assert_eq!(st, 400, "{q}: {v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_page_and_the_rank_on_a_players_page() {
    let Some((addr, d)) = start_browser("leaderboard").await else { return };
    let db = std::env::temp_dir().join(format!("dama-web-leaderboard-{}.sqlite", std::process::id()));
    let store = Store::connect(&format!("sqlite:{}", db.display())).await.unwrap();
    fill(addr, &store).await;
    let c = browser(&d, 1024, 800, "es-ES").await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    crate::web::click(&c, "a[href='/leaderboard']").await;
    find(&c, "#leaderboard tbody tr").await;
    let rows = text(&c, "#leaderboard tbody").await;
    assert_eq!(rows.lines().count(), 4, "{rows}");
    assert!(rows.lines().next().unwrap().starts_with("1 ann"), "{rows}");
    assert!(text(&c, "main").await.contains("Clasificación"));
    // Another pool: seed 001's, chosen in the menu.
    find(&c, "#lb-pool").await.select_by_value("english-seed001").await.unwrap();
    until("the seed 001 board", || async { text(&c, "#leaderboard tbody").await.starts_with("1 bob") }).await;
    // A class nobody plays: said so.
    find(&c, "#lb-speed").await.select_by_value("bullet").await.unwrap();
    find(&c, "#lb-empty").await;
    // Ann's page names her place and leads to the board.
    c.goto(&format!("http://{addr}/player/ann")).await.unwrap();
    let link = find(&c, "a.rank").await;
    assert_eq!(link.text().await.unwrap(), "N.º 1 de la clasificación");
    link.click().await.unwrap();
    find(&c, "#leaderboard tbody tr").await;
    crate::web::shot(&c, "leaderboard").await;
    c.close().await.unwrap();
}
