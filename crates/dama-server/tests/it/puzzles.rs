//! Puzzles: found by the engine in real positions (the book shots of Tricks, traps
//! and shots), offered near a rating, and rated by the attempts.

use serde_json::{json, Value};

use crate::common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn book_shots_become_puzzles_offered_and_rated() {
    use dama_core::record::replay;
    use dama_core::variant::English;
    let srv = start(&temp_db("puzzles")).await;
    let (_, none) = http(srv.addr, "GET", "/api/puzzles/next?variant=english", None, None).await;
    assert_eq!(none["puzzle"], Value::Null);

    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../dama-core/tests/data/pdn/pdn3-test-suite/succeed/Tricks_traps_and_shots.pdn");
    let text = std::fs::read_to_string(p).unwrap();
    let mut shots = Vec::new();
    for g in dama_core::pdn::read_all(&text).into_iter().flatten() {
        let Ok(r) = replay::<English>(&g) else { continue };
        if g.tag("FEN").is_none() || r.moves.is_empty() {
            continue;
        }
        let start = *r.game.start();
        let fen = dama_core::fen::write_fen(&start);
        let moves = dama_core::notation::line_to_strings(&start, &r.moves, true);
        let (pool, store) = (srv.state.analysis_pool(), srv.state.store());
        let n = dama_server::puzzles::scan_game(
            pool,
            store,
            dama_core::Variant::English,
            fen.clone(),
            moves.clone(),
            Some(vec![0]),
            "book".into(),
            1_000_000,
        )
        .await;
        if n == 1 {
            shots.push((fen, moves[0].clone()));
        }
        if shots.len() == 3 {
            break;
        }
    }
    assert_eq!(shots.len(), 3, "three book shots found as puzzles");

    // Offered near the rating, with the book's shot as the first move of the line; a
    // visitor gets a cookie that makes it a solver.
    let r =
        dama_server::client::request(srv.addr, "GET", "/api/puzzles/next?variant=english", &[], None).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.body.clone();
    let set = r.header("set-cookie").expect("a visitor cookie");
    let visitor = set.split(';').next().unwrap().to_string();
    assert!(visitor.starts_with("dama_visitor="), "{set}");
    let puzzle = &v["puzzle"];
    let shot = shots.iter().find(|(fen, _)| *fen == puzzle["fen"]).expect("one of the three");
    assert_eq!(puzzle["line"][0], shot.1.as_str(), "{puzzle}");
    assert_eq!(puzzle["line"].as_array().unwrap().len() % 2, 1, "{puzzle}");
    assert_eq!((&puzzle["rating"], &v["rating"]), (&json!(1500), &json!(1500)));
    // Solving it at 1500 moves the solver up 16 and the puzzle down 8.
    let id = puzzle["id"].as_str().unwrap();
    let path = format!("/api/puzzles/{id}/attempt");
    let h = [("Cookie", visitor.as_str())];
    let body = json!({"solved": true}).to_string();
    let a = dama_server::client::request(srv.addr, "POST", &path, &h, Some(&body)).await.unwrap().body;
    assert_eq!((a["rating"].as_i64(), a["puzzle_rating"].as_i64()), (Some(1516), Some(1492)), "{a}");
    // The next one offered is another.
    let q = format!("/api/puzzles/next?variant=english&after={id}");
    let next = dama_server::client::request(srv.addr, "GET", &q, &h, None).await.unwrap().body;
    assert_ne!(next["puzzle"]["id"], id);
    assert_eq!(next["rating"], 1516);
    // Unknown puzzles and bad bodies say so.
    let r =
        dama_server::client::request(srv.addr, "POST", "/api/puzzles/0000/attempt", &h, Some(r#"{"solved": true}"#));
    assert_eq!(r.await.unwrap().status, 404);
    let r = dama_server::client::request(srv.addr, "POST", &path, &h, Some(r#"{"solved": "yes"}"#)).await.unwrap();
    let (st, e) = (r.status, r.body);
    assert_eq!(st, 400);
    assert!(e["error"].as_str().unwrap().contains("solved"), "{e}");
}

/// A measurement (by hand, `-- --ignored --nocapture`): the puzzles found in the first
/// 10 games of USSR 1947 at the default budget, and the time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn puzzles_in_ten_master_games() {
    use dama_core::record::replay;
    use dama_core::variant::Russian;
    let srv = start(&temp_db("puzzles-time")).await;
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../dama-core/tests/data/pdn/pdn3-test-suite/succeed/ussr1947.pdn");
    let text = std::fs::read_to_string(p).unwrap();
    let started = std::time::Instant::now();
    let (mut games, mut positions, mut found) = (0, 0, 0);
    for g in dama_core::pdn::read_all(&text).into_iter().flatten().take(10) {
        let Ok(r) = replay::<Russian>(&g) else { continue };
        let moves = dama_core::notation::line_to_strings(r.game.start(), &r.moves, true);
        positions += moves.len().saturating_sub(7);
        let fen = dama_core::fen::write_fen(r.game.start());
        let (pool, store) = (srv.state.analysis_pool(), srv.state.store());
        found += dama_server::puzzles::scan_game(
            pool,
            store,
            dama_core::Variant::Russian,
            fen,
            moves,
            None,
            "m".into(),
            200_000,
        )
        .await;
        games += 1;
    }
    eprintln!("{games} games, {positions} positions: {found} puzzles in {:.1} s", started.elapsed().as_secs_f64());
}
