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

/// Keeps a Russian puzzle with its line, as a scan would.
async fn keep(srv: &Server, id: &str, fen: &str, line: &[&str]) {
    let row = dama_server::store::PuzzleRow {
        id: id.into(),
        variant: "russian".into(),
        fen: fen.into(),
        line: line.join(" "),
        source: "test".into(),
        rating: 1500,
        attempts: 0,
        solved: 0,
    };
    srv.state.store().add_puzzle(&row).await.unwrap();
}

/// Asks the server about the moves played in puzzle `id`: (status, answer).
async fn check(srv: &Server, id: &str, moves: &[&str]) -> (u16, Value) {
    let body = json!({ "moves": moves }).to_string();
    http(srv.addr, "POST", &format!("/api/puzzles/{id}/check"), None, Some(&body)).await
}

/// Russian by the rules: the position after `moves` from `fen`.
fn after(fen: &str, moves: &[&str]) -> dama_core::Position<dama_core::variant::Russian> {
    let mut p = dama_core::fen::parse_fen(fen).unwrap();
    for m in moves {
        p = p.play(&dama_core::notation::parse_move(&p, m).unwrap());
    }
    p
}

/// By the rules: what `side` has in men (a king counts one and a half) less the
/// other side, and whether the side to move must capture (an exchange under way).
fn balance(p: &dama_core::Position<dama_core::variant::Russian>, side: dama_core::Color) -> (f64, bool) {
    use dama_core::Bits;
    let of = |c| p.men(c).count() as f64 + 1.5 * p.kings_of(c).count() as f64;
    (of(side) - of(!side), dama_core::movegen::has_capture(p))
}

/// USSR 1947 (ussr1947.pdn, the 146th game, before Black's 11th move): the puzzle of
/// issue 49. Black gives a man on f4 and takes two back with h4:f6:h8.
const USSR: &str = "B:Wg7,a3,c3,e3,b2,f2,h2,c1,e1,g1:Bb8,d8,f8,c7,e7,b6,h6,g5,h4";
/// The line as it was kept, past the capture: quiet moves after the man was won.
const USSR_LINE: &[&str] = &["g5-f4", "e3:g5", "h4:f6:h8", "c3-d4", "h8-g7", "b2-c3", "g7-f6"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reported_puzzle_ends_once_the_man_is_won() {
    let srv = start(&temp_db("puzzles-point")).await;
    keep(&srv, "ussr", USSR, USSR_LINE).await;
    // By the rules: Black starts a man down, and after the capture has won it back
    // and White has nothing to take.
    let black = dama_core::Color::Black;
    assert_eq!(balance(&after(USSR, &[]), black), (-1.0, false));
    assert_eq!(balance(&after(USSR, &USSR_LINE[..3]), black), (0.0, false));
    // Offered up to the capture, and solved there.
    let (_, next) = http(srv.addr, "GET", "/api/puzzles/next?variant=russian", None, None).await;
    assert_eq!(next["puzzle"]["line"], json!(["g5-f4", "e3:g5", "h4:f6:h8"]), "{next}");
    let (st, v) = check(&srv, "ussr", &["g5-f4"]).await;
    assert_eq!((st, &v), (200, &json!({"verdict": "line", "solved": false, "line": ["e3:g5", "h4:f6:h8"]})));
    let (_, v) = check(&srv, "ussr", &USSR_LINE[..3]).await;
    assert_eq!(v, json!({"verdict": "line", "solved": true, "line": []}));
    // The move the page refused (e7-d6 where the line had g7-f6), the man kept:
    // accepted, and the puzzle is over.
    let mut reported = USSR_LINE[..6].to_vec();
    reported.push("e7-d6");
    assert_eq!(balance(&after(USSR, &reported), black), (0.0, false));
    let (st, v) = check(&srv, "ussr", &reported).await;
    assert_eq!(
        (st, &v["verdict"], &v["solved"], &v["line"]),
        (200, &json!("accepted"), &json!(true), &json!([])),
        "{v}"
    );
    // A man given for nothing (e7-f6: White must take g7:e5, and Black has nothing to
    // take back) is refused.
    let p = after(USSR, &["e7-f6"]);
    for m in dama_core::movegen::legal_moves(&p).iter() {
        assert_eq!(balance(&p.play(m), black), (-2.0, false));
    }
    let (_, v) = check(&srv, "ussr", &["e7-f6"]).await;
    assert_eq!((&v["verdict"], &v["solved"], &v["line"]), (&json!("refused"), &json!(false), &json!([])), "{v}");
}

/// Russian positions of three pieces where two moves win (by the endgame tables,
/// built here): (position, the move of the stored line, the other winning move, a
/// move that does not win).
const TWO_WINS: &[(&str, &str, &str, &str)] = &[
    ("W:Wa3,e1:Bg5", "a3-b4", "e1-f2", "e1-d2"),
    ("W:Wd4,h2:Bh6", "h2-g3", "d4-c5", "d4-e5"),
    ("W:We5,e1:Bg7", "e1-f2", "e5-d6", "e5-f6"),
];

/// Russian tables up to three pieces, built for this test.
fn tables() -> dama_engine::egdb::Egdb<dama_core::variant::Russian> {
    let dir = std::env::temp_dir().join(format!("dama-test-puzzle-egdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dama_engine::egdb::build::<dama_core::variant::Russian>(&dir, 3, 1, &mut |_| {}).unwrap();
    dama_engine::egdb::Egdb::open(&dir).unwrap().unwrap()
}

/// By the tables: the move `m` wins for the side that plays it.
fn wins(db: &dama_engine::egdb::Egdb<dama_core::variant::Russian>, fen: &str, moves: &[&str]) -> bool {
    let p = after(fen, moves);
    dama_core::movegen::legal_moves(&p).is_empty() || db.probe(&p).and_then(|v| v.plies()).is_some_and(|(l, _)| l)
}

/// The tables' line from `fen` after `first`: the winner's fastest win against the
/// longest defence, to the end of the game.
fn table_line(db: &dama_engine::egdb::Egdb<dama_core::variant::Russian>, fen: &str, first: &str) -> Vec<String> {
    let mut line = vec![first.to_string()];
    loop {
        let played: Vec<&str> = line.iter().map(String::as_str).collect();
        let p = after(fen, &played);
        let moves = dama_core::movegen::legal_moves(&p);
        // The value of each reply for the side to move after it: plies to its loss
        // (a win for the mover) count down, the mover's losses last.
        let best = moves.iter().min_by_key(|m| {
            let c = p.play(m);
            match db.probe(&c).and_then(|v| v.plies()) {
                _ if dama_core::movegen::legal_moves(&c).is_empty() => -1000,
                Some((true, d)) => d as i64 - 1000,
                Some((false, d)) => 1000 - d as i64,
                None => 0,
            }
        });
        let Some(m) = best else { return line };
        line.push(dama_core::notation::move_to_string(&p, m, true));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_winning_moves_are_accepted_and_a_move_that_does_not_win_is_refused() {
    let srv = start(&temp_db("puzzles-two")).await;
    let db = tables();
    let over = |fen: &str, moves: &[&str]| dama_core::movegen::legal_moves(&after(fen, moves)).is_empty();
    for (i, (fen, first, other, wrong)) in TWO_WINS.iter().enumerate() {
        // The truth, by the tables.
        assert!(wins(&db, fen, &[first]) && wins(&db, fen, &[other]) && !wins(&db, fen, &[wrong]), "{fen}");
        let line = table_line(&db, fen, first);
        let id = format!("two{i}");
        keep(&srv, &id, fen, &line.iter().map(String::as_str).collect::<Vec<_>>()).await;
        // The stored line: each solver's move is the line's, the last solves it, when
        // Black has no move left (the man taken or blocked: the game won).
        let offered: Vec<String> = dama_engine::puzzle::line_to_point(dama_core::Variant::Russian, fen, &line).unwrap();
        for k in (1..=offered.len()).step_by(2) {
            let played: Vec<&str> = offered[..k].iter().map(String::as_str).collect();
            let (_, v) = check(&srv, &id, &played).await;
            assert_eq!(
                (&v["verdict"], &v["solved"]),
                (&json!("line"), &json!(k == offered.len())),
                "{fen} {played:?}: {v}"
            );
        }
        assert!(over(fen, &offered.iter().map(String::as_str).collect::<Vec<_>>()), "{fen} {offered:?}");
        // The other winning move: accepted, and the engine's line goes on to the end;
        // every solver's move of it wins by the tables, and the puzzle ends when the
        // game is won, not before.
        let mut played = vec![other.to_string()];
        loop {
            let refs: Vec<&str> = played.iter().map(String::as_str).collect();
            assert!(wins(&db, fen, &refs), "{fen} {refs:?} wins by the tables");
            let (st, v) = check(&srv, &id, &refs).await;
            assert_eq!((st, &v["verdict"]), (200, &json!("accepted")), "{fen} {refs:?}: {v}");
            let won = over(fen, &refs);
            assert_eq!(v["solved"], json!(won), "{fen} {refs:?}: {v}");
            if won {
                break;
            }
            let next: Vec<String> = serde_json::from_value(v["line"].clone()).unwrap();
            assert!(next.len() >= 2 && next.len() % 2 == 0, "{fen} {refs:?}: {v}");
            played.extend(next[..2].iter().cloned());
            assert!(played.len() <= 9, "{fen}: {played:?}");
        }
        // The move that does not win: refused.
        let (_, v) = check(&srv, &id, &[wrong]).await;
        assert_eq!((&v["verdict"], &v["solved"]), (&json!("refused"), &json!(false)), "{fen} {wrong}: {v}");
        // The same question, the same answer (a node budget, a cleared searcher).
        assert_eq!(check(&srv, &id, &[other]).await, check(&srv, &id, &[other]).await);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checks_of_moves_that_are_not_a_solvers_are_refused() {
    let srv = start(&temp_db("puzzles-check-errors")).await;
    keep(&srv, "ussr", USSR, USSR_LINE).await;
    for (moves, status) in [
        (&[][..], 400),
        (&["g5-f4", "e3:g5"][..], 400),
        (&["g5-f4", "e3-d4", "h4:f6:h8"][..], 400),
        (&["a1-b2"][..], 400),
        (USSR_LINE, 200),
    ] {
        let (st, v) = check(&srv, "ussr", moves).await;
        assert_eq!(st, status, "{moves:?}: {v}");
        if st == 400 {
            assert_eq!(v["code"], "bad_request", "{v}");
        }
    }
    let (st, v) = check(&srv, "nope", &["g5-f4"]).await;
    assert_eq!((st, v["code"].as_str()), (404, Some("not_found")));
    let (st, _) = http(srv.addr, "POST", "/api/puzzles/ussr/check", None, Some(r#"{"moves": "g5-f4"}"#)).await;
    assert_eq!(st, 400);
}
