//! The opening explorer: the bundled master collections counted at the first start,
//! games counted as they finish, filters, and bad queries.

use serde_json::{json, Value};

use crate::common::*;

async fn explorer(addr: std::net::SocketAddr, query: &str) -> (u16, Value) {
    http(addr, "GET", &format!("/api/explorer?{query}"), None, None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn masters_and_players_moves_are_counted_with_their_results() {
    let limits = dama_server::Limits { idle_ms: Some(300), puzzles_bundled: Some(false), ..Default::default() };
    let srv = start_with(&temp_db("explorer"), limits).await;
    // The bundled English collections come in the background: the 43 games of the Open
    // Checkers Archive sample and the 9,377 of the ACF archive.
    let mut start = Value::Null;
    for _ in 0..600 {
        let (st, v) = explorer(srv.addr, "variant=english").await;
        assert_eq!(st, 200, "{v}");
        if v["games"].as_i64().unwrap() >= 9377 {
            start = v;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let moves = start["moves"].as_array().expect("the English collections within 60 s");
    assert!(start["games"].as_i64().unwrap() <= 9377 + 43, "{start}");
    // Most played first; in master play that is 11-15, the ACF archive's first move in
    // 2,048 games (the dataset's "9-13" in its own numbering).
    assert!(moves.windows(2).all(|w| w[0]["games"].as_i64() >= w[1]["games"].as_i64()), "{start}");
    assert_eq!(moves[0]["notation"], "11-15", "{start}");
    assert!(moves[0]["games"].as_i64().unwrap() >= 2048, "{start}");
    for m in moves {
        let sum = m["white"].as_i64().unwrap() + m["draws"].as_i64().unwrap() + m["black"].as_i64().unwrap();
        assert_eq!(sum, m["games"].as_i64().unwrap(), "{m}");
    }
    // After the most played move its replies are listed from the position it leads to.
    let (_, pos) = http(srv.addr, "POST", "/api/analysis/position", None, Some(r#"{"variant":"english"}"#)).await;
    let first = moves[0]["notation"].clone();
    let after = pos["legal"].as_array().unwrap().iter().find(|m| m["notation"] == first).unwrap()["fen"].clone();
    let (_, replies) = explorer(srv.addr, &format!("variant=english&fen={}", urlencode(after.as_str().unwrap()))).await;
    let reply_games: i64 = replies["moves"].as_array().unwrap().iter().map(|m| m["games"].as_i64().unwrap()).sum();
    // (as many as went on past that move)
    assert!(reply_games > 0 && reply_games <= moves[0]["games"].as_i64().unwrap(), "{replies}");
    // Russian and International collections too.
    for (variant, most) in [("russian", 183), ("international", 136), ("italian", 53)] {
        let mut n = 0;
        for _ in 0..200 {
            n = explorer(srv.addr, &format!("variant={variant}")).await.1["games"].as_i64().unwrap();
            if n > 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        // The games of the collections that replay, with a result (some records do not).
        assert!(n >= 20 && n <= most, "{variant}: {n} games");
    }

    // Two games finished here: each first move counted once, with its result.
    for first in ["9-13", "10-14"] {
        let (id, token, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat"})).await;
        assert_eq!(mv(srv.addr, &id, &token, first).await.0, 200);
        // White resigns: Black wins.
        assert_eq!(act(srv.addr, &id, &token, json!({"type": "resign"})).await.0, 200);
    }
    let mut players = Value::Null;
    for _ in 0..100 {
        players = explorer(srv.addr, "variant=english&source=players").await.1;
        if players["games"] == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let list = players["moves"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{players}");
    for m in list {
        assert_eq!((m["games"].as_i64(), m["black"].as_i64()), (Some(1), Some(1)), "{m}");
    }
    // A rating range keeps rated games only: these two were casual.
    assert_eq!(explorer(srv.addr, "variant=english&source=players&min=1000&max=2000").await.1["games"], 0);
    // Bad queries say what is wrong.
    let (st, e) = explorer(srv.addr, "variant=english&source=robots").await;
    assert_eq!(st, 400);
    assert!(e["error"].as_str().unwrap().contains("robots"), "{e}");
    assert_eq!(explorer(srv.addr, "variant=english&fen=W:Wz9").await.0, 400);
    assert_eq!(explorer(srv.addr, "variant=go").await.0, 400);
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A measurement (by hand, `-- --ignored --nocapture`): the explorer's answer time over
/// HTTP for 1,000 positions of a collection of 10,000 games of 30 plies (random legal
/// moves, so nearly every position after the first plies is its own), on SQLite and,
/// when it is there, PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn time_of_an_explorer_answer_in_ten_thousand_games() {
    use dama_core::fen::write_fen;
    use dama_core::variant::English;
    use dama_core::{movegen::legal_moves, Position};
    use rand::{Rng, SeedableRng};
    let mut urls = vec![temp_db("explorer-bench")];
    urls.extend(postgres().await);
    for url in urls {
        let limits =
            dama_server::Limits { explorer_bundled: Some(false), requests_per_minute: Some(0), ..Default::default() };
        let srv = start_with(&url, limits).await;
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut probes = Vec::new();
        let started = std::time::Instant::now();
        for g in 0..10_000 {
            let mut pos = Position::<English>::start();
            let mut moves = Vec::new();
            for ply in 0..30 {
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                // Openings repeat: the first plies come from a few moves only.
                let k = if ply < 4 { rng.gen_range(0..2.min(legal.len())) } else { rng.gen_range(0..legal.len()) };
                let m = legal.as_slice()[k];
                if g % 10 == 0 && ply % 3 == 0 {
                    probes.push(write_fen(&pos));
                }
                moves.push(m);
                pos = pos.play(&m);
            }
            let mut counts = dama_server::explorer::Counts::new();
            let winner = [Some(dama_core::Color::White), None, Some(dama_core::Color::Black)][g % 3];
            let mut game = dama_core::game::Game::<English>::new();
            for m in &moves {
                let _ = game.play(m);
            }
            dama_server::explorer::count_game(&dama_core::any::AnyGame::of(game), winner, &mut counts);
            let rows: Vec<_> = counts.into_iter().map(|((k, _), c)| (k, c)).collect();
            let batch = dama_server::store::CountBatch {
                name: format!("game:{g}"),
                variant: "english".into(),
                source: "players".into(),
                band: -1,
                rows,
            };
            srv.state.store().explorer_add(&[batch]).await.unwrap();
        }
        let filled = started.elapsed();
        let mut times = Vec::new();
        for fen in probes.iter().take(1000) {
            let q = format!("/api/explorer?variant=english&source=players&fen={}", urlencode(fen));
            let t = std::time::Instant::now();
            let (st, v) = http(srv.addr, "GET", &q, None, None).await;
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(st, 200, "{v}");
            assert!(v["games"].as_i64().unwrap() > 0, "{v}");
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        let db = if url.starts_with("sqlite") { "SQLite" } else { "PostgreSQL" };
        eprintln!(
            "{db}: 10,000 games counted in {:.1} s; {} answers: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            filled.as_secs_f64(),
            times.len(),
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
}
