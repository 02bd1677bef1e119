//! The analysis board's server side: positions with their legal moves, PDN with
//! variations in and out, and the engine's lines over the websocket.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

async fn post(addr: std::net::SocketAddr, path: &str, body: Value) -> (u16, Value) {
    http(addr, "POST", path, None, Some(&body.to_string())).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_come_with_every_legal_move_and_the_position_after_it() {
    let srv = start(&temp_db("an-pos")).await;
    // Published perft(1) of the start positions: Russian 7, International 9.
    for (variant, n) in [("russian", 7), ("international", 9), ("english", 7)] {
        let (st, v) = post(srv.addr, "/api/analysis/position", json!({"variant": variant})).await;
        assert_eq!(st, 200, "{v}");
        let legal = v["legal"].as_array().unwrap();
        assert_eq!(legal.len(), n, "{variant}");
        // Each move's position is the position after it: asking for it gives the
        // other side to move.
        let after = legal[0]["fen"].as_str().unwrap();
        let (_, w) = post(srv.addr, "/api/analysis/position", json!({"variant": variant, "fen": after})).await;
        assert_ne!(w["side"], v["side"]);
        assert!(v.get("winner").is_none());
    }
    // A side with no piece left has lost.
    let (st, v) = post(srv.addr, "/api/analysis/position", json!({"variant": "russian", "fen": "B:Wc3:B"})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!((v["legal"].as_array().unwrap().len(), v["winner"].as_str()), (0, Some("white")));
    // Bad input says what is wrong.
    let (st, v) = post(srv.addr, "/api/analysis/position", json!({"variant": "russian", "fen": "W:Wz9"})).await;
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("bad FEN"), "{v}");
    let (st, v) = post(srv.addr, "/api/analysis/position", json!({"variant": "chess"})).await;
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("unknown variant"), "{v}");
}

/// A Russian game with a variation, a nested one and comments, written for this test.
const GAME: &str = r#"[Event "Analysis test"]
[GameType "25"]

{A quiet start.} 1. c3-d4 f6-g5 (1... d6-c5 {the exchange} 2. b2-c3 (2. g3-h4 c7-d6) c7-d6)
(1... f6-e5 2. d4:f6 g7:e5) 2. b2-c3 g7-f6 *
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_variations_is_imported_and_exported_as_the_same_tree() {
    let srv = start(&temp_db("an-pdn")).await;
    let (st, v) = post(srv.addr, "/api/analysis/import", json!({"pdn": GAME})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["variant"], "russian");
    assert_eq!(v["comment"], "A quiet start.");
    let nodes = v["nodes"].as_array().unwrap();
    let text = |i: usize| nodes[i]["notation"].as_str().unwrap().to_string();
    // Main line 4 moves, the variations 3 and 3, the nested one 2.
    assert_eq!(nodes.len(), 12, "{v}");
    assert_eq!(v["warnings"], json!([]));
    let main: Vec<_> = nodes.iter().enumerate().filter(|(_, n)| n["parent"].is_null()).map(|(i, _)| text(i)).collect();
    assert_eq!(main, ["c3-d4"]);
    let replies: Vec<_> = nodes.iter().enumerate().filter(|(_, n)| n["parent"] == 0).map(|(i, _)| text(i)).collect();
    assert_eq!(replies, ["f6-g5", "d6-c5", "f6-e5"]);
    let exchange = nodes.iter().position(|n| n["notation"] == "d6-c5").unwrap();
    assert_eq!(nodes[exchange]["comments"], json!(["the exchange"]));
    // Every node carries its move's squares and the position after it: the capture
    // d4:f6 took the man on e5.
    let capture = nodes.iter().find(|n| n["notation"] == "d4:f6").unwrap();
    assert_eq!(capture["captured"], json!(["e5"]));
    assert!(!capture["fen"].as_str().unwrap().contains("e5"), "{capture}");

    // Written back, the tree reads the same.
    let send: Vec<Value> = nodes
        .iter()
        .map(|n| json!({"parent": n["parent"], "move": n["long"], "comments": n.get("comments").cloned().unwrap_or(json!([]))}))
        .collect();
    let body =
        json!({"variant": "russian", "comment": "A quiet start.", "nodes": send, "tags": [["Event", "Analysis test"]]});
    let (st, out) = post(srv.addr, "/api/analysis/export", body).await;
    assert_eq!(st, 200, "{out}");
    let pdn = out["pdn"].as_str().unwrap();
    let flat = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    let line = "1. c3-d4 f6-g5 (1... d6-c5 {the exchange} 2. b2-c3 (2. g3-h4 c7-d6) 2... c7-d6) \
                (1... f6-e5 2. d4:f6 g7:e5) 2. b2-c3 g7-f6 *";
    assert!(flat.contains(line), "{pdn}");
    let (st, again) = post(srv.addr, "/api/analysis/import", json!({"pdn": pdn})).await;
    assert_eq!(st, 200, "{again}");
    assert_eq!(again["nodes"], v["nodes"]);

    // A move that is not legal where the tree puts it is named.
    let bad = json!({"variant": "russian", "nodes": [{"move": "c3-d4"}, {"parent": 0, "move": "c3-b4"}]});
    let (st, e) = post(srv.addr, "/api/analysis/export", bad).await;
    assert_eq!(st, 400);
    assert!(e["error"].as_str().unwrap().contains("move 1 (\"c3-b4\")"), "{e}");
    let cycle = json!({"variant": "russian", "nodes": [{"parent": 1, "move": "c3-d4"}, {"move": "c3-d4"}]});
    assert_eq!(post(srv.addr, "/api/analysis/export", cycle).await.0, 400);
    // A file without that game, or without any.
    let (st, e) = post(srv.addr, "/api/analysis/import", json!({"pdn": GAME, "game": 3})).await;
    assert_eq!(st, 400);
    assert!(e["error"].as_str().unwrap().contains("1 games"), "{e}");
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn analysis_socket(addr: std::net::SocketAddr) -> Socket {
    tokio_tungstenite::connect_async(format!("ws://{addr}/api/analysis/ws")).await.unwrap().0
}

async fn send(s: &mut Socket, v: Value) {
    s.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// The next frame within `secs` seconds, if any.
async fn frame(s: &mut Socket, secs: u64) -> Option<Value> {
    loop {
        match tokio::time::timeout(Duration::from_secs(secs), s.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return Some(serde_json::from_str(t.as_str()).unwrap()),
            Ok(Some(Ok(_))) => continue,
            _ => return None,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_streams_its_best_lines_and_stops_when_asked_or_left() {
    let srv = start(&temp_db("an-ws")).await;
    let mut s = analysis_socket(srv.addr).await;

    // A shot: the man crowned on f8 sweeps on as a king and takes everything, the only
    // legal move; the engine says it wins at once and ends by itself.
    send(&mut s, json!({"type": "analyse", "id": 1, "variant": "russian", "fen": "W:Wh6:Bg7,c5,d2", "lines": 3})).await;
    let mut last = None;
    while let Some(f) = frame(&mut s, 20).await {
        if f["type"] == "done" {
            assert_eq!(f["id"], 1);
            break;
        }
        assert_eq!(f["type"], "lines", "{f}");
        last = Some(f);
    }
    let last = last.expect("lines before done");
    let lines = last["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 1, "one legal move, one line: {last}");
    assert_eq!(lines[0]["moves"][0], "h6:f8:b4:e1");
    assert_eq!(lines[0]["moves_to_end"], 1);

    // From the start, three lines, each with another first move, best first; then a
    // new position replaces the search, and "stop" ends it without "done".
    let start_lines = json!({"type": "analyse", "id": 2, "variant": "english", "fen": "B:W21-32:B1-12", "lines": 3});
    send(&mut s, start_lines).await;
    let mut depth = 0;
    let mut seen = 0;
    while seen < 3 {
        let f = frame(&mut s, 20).await.expect("lines");
        if f["id"] != 2 || f["type"] != "lines" {
            continue;
        }
        let lines = f["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 3, "{f}");
        let firsts: std::collections::HashSet<_> = lines.iter().map(|l| l["moves"][0].as_str().unwrap()).collect();
        assert_eq!(firsts.len(), 3, "{f}");
        let scores: Vec<i64> = lines.iter().map(|l| l["score"].as_i64().unwrap()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{f}");
        assert!(f["depth"].as_u64().unwrap() > depth);
        depth = f["depth"].as_u64().unwrap();
        seen += 1;
    }
    let moves = json!(["11-15", "23-19"]);
    send(&mut s, json!({"type": "analyse", "id": 3, "variant": "english", "fen": "B:W21-32:B1-12", "moves": moves}))
        .await;
    loop {
        let f = frame(&mut s, 20).await.expect("lines of the new position");
        // While the last search gives its searcher back, the new one may be queued.
        if f["id"] == 3 && f["type"] != "queued" {
            assert_eq!(f["type"], "lines");
            assert_eq!(f["lines"].as_array().unwrap().len(), 1);
            break;
        }
    }
    send(&mut s, json!({"type": "stop"})).await;
    // The stream ends: the frames of the depths finished before the stop arrived may
    // still be on their way, then nothing, and no "done".
    let mut quiet = false;
    for _ in 0..200 {
        match frame(&mut s, 2).await {
            None => {
                quiet = true;
                break;
            }
            Some(f) => assert_ne!(f["type"], "done", "{f}"),
        }
    }
    assert!(quiet, "the search went on after stop");
    assert_eq!(srv.state.analyses_running(), 0);

    // Bad frames get an error and the socket stays open.
    send(
        &mut s,
        json!({"type": "analyse", "id": 4, "variant": "english", "fen": "B:W21-32:B1-12", "moves": ["11-18"]}),
    )
    .await;
    let e = frame(&mut s, 5).await.unwrap();
    assert_eq!((e["type"].as_str(), e["id"].as_u64()), (Some("error"), Some(4)));
    assert!(e["message"].as_str().unwrap().contains("move 1 (\"11-18\")"), "{e}");
    send(&mut s, json!({"type": "analyse", "id": 5, "variant": "english", "fen": "B:W21-32:B1-12", "lines": 9})).await;
    assert!(frame(&mut s, 5).await.unwrap()["message"].as_str().unwrap().contains("lines must be 1 to 3"));
    s.send(Message::Text("{not json".into())).await.unwrap();
    assert!(frame(&mut s, 5).await.unwrap()["message"].as_str().unwrap().starts_with("bad frame"));

    // A page that leaves stops its search.
    send(&mut s, json!({"type": "analyse", "id": 6, "variant": "international", "fen": "W:W31-50:B1-20"})).await;
    let mut f = frame(&mut s, 20).await.unwrap();
    if f["type"] == "queued" {
        f = frame(&mut s, 20).await.unwrap();
    }
    assert_eq!((f["type"].as_str(), f["id"].as_u64()), (Some("lines"), Some(6)));
    assert_eq!(srv.state.analyses_running(), 1);
    drop(s);
    let mut waited = 0;
    while srv.state.analyses_running() > 0 && waited < 50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
    }
    assert_eq!(srv.state.analyses_running(), 0, "the search outlived its page");
}

/// A measurement, not a check (run by hand, `-- --ignored --nocapture`): the time from
/// a position change to the first lines, over 200 positions of a random game in
/// each variant, with another page analysing meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn time_to_the_first_lines() {
    let srv = start(&temp_db("an-latency")).await;
    let mut busy = analysis_socket(srv.addr).await;
    send(&mut busy, json!({"type": "analyse", "id": 1, "variant": "international", "fen": "W:W31-50:B1-20"})).await;
    let mut s = analysis_socket(srv.addr).await;
    let mut all = Vec::new();
    let mut id = 0;
    for variant in ["english", "russian", "international", "turkish"] {
        let (_, mut pos) = post(srv.addr, "/api/analysis/position", json!({"variant": variant})).await;
        for ply in 0..50 {
            let legal = pos["legal"].as_array().unwrap().clone();
            if legal.is_empty() {
                break;
            }
            id += 1;
            let started = std::time::Instant::now();
            send(&mut s, json!({"type": "analyse", "id": id, "variant": variant, "fen": pos["fen"], "lines": 2})).await;
            loop {
                let f = frame(&mut s, 10).await.expect("a frame");
                if f["id"] == id && f["type"] == "lines" {
                    break;
                }
            }
            all.push(started.elapsed().as_secs_f64() * 1000.0);
            let next = legal[(ply * 7 + id) % legal.len()]["fen"].as_str().unwrap().to_string();
            pos = post(srv.addr, "/api/analysis/position", json!({"variant": variant, "fen": next})).await.1;
        }
    }
    all.sort_by(f64::total_cmp);
    let at = |q: f64| all[((all.len() - 1) as f64 * q) as usize];
    eprintln!(
        "{} positions: first lines after p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        all.len(),
        at(0.5),
        at(0.95),
        at(1.0)
    );
}

/// A move of the position `fen` after which the opponent takes a man and the mover
/// cannot take one back, found through the position API.
pub(crate) async fn hanging_move(addr: std::net::SocketAddr, fen: &str) -> Option<Value> {
    let (_, pos) = post(addr, "/api/analysis/position", json!({"variant": "english", "fen": fen})).await;
    for m in pos["legal"].as_array().unwrap() {
        let (_, after) = post(addr, "/api/analysis/position", json!({"variant": "english", "fen": m["fen"]})).await;
        let takes: Vec<&Value> = after["legal"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| !r["captured"].as_array().unwrap().is_empty())
            .collect();
        for t in takes {
            let (_, back) = post(addr, "/api/analysis/position", json!({"variant": "english", "fen": t["fen"]})).await;
            if back["legal"].as_array().unwrap().iter().all(|r| r["captured"].as_array().unwrap().is_empty()) {
                return Some(m.clone());
            }
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_gets_a_report_that_finds_the_man_given_away() {
    let srv = start(&temp_db("an-report")).await;
    let (id, token, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat"})).await;
    let path = format!("/api/games/{id}/report");
    // Not before the game ends; not for a game that does not exist.
    assert_eq!(http(srv.addr, "POST", &path, None, None).await.0, 409);
    assert_eq!(http(srv.addr, "GET", "/api/games/0123456789ab/report", None, None).await.0, 404);
    // A standard opening, then Black gives a man away and White takes it.
    for m in ["11-15", "23-19", "8-11", "22-17"] {
        assert_eq!(mv(srv.addr, &id, &token, m).await.0, 200);
    }
    let fen = snapshot(srv.addr, &id).await["fen"].as_str().unwrap().to_string();
    let bad = hanging_move(srv.addr, &fen).await.expect("a move that gives a man away");
    assert_eq!(mv(srv.addr, &id, &token, bad["long"].as_str().unwrap()).await.0, 200);
    let take = snapshot(srv.addr, &id).await["legal"][0]["long"].as_str().unwrap().to_string();
    assert_eq!(mv(srv.addr, &id, &token, &take).await.0, 200);
    assert_eq!(act(srv.addr, &id, &token, json!({"type": "resign"})).await.0, 200);

    let (st, v) = http(srv.addr, "GET", &path, None, None).await;
    assert_eq!((st, v["state"].as_str()), (200, Some("none")));
    let (st, v) = http(srv.addr, "POST", &path, None, None).await;
    assert_eq!(st, 200, "{v}");
    assert!(["queued", "running"].contains(&v["state"].as_str().unwrap()), "{v}");
    let mut report = Value::Null;
    for _ in 0..300 {
        // Anyone who can see the game can follow it (no token here).
        let (_, v) = http(srv.addr, "GET", &path, None, None).await;
        if v["state"] == "done" {
            report = v["report"].clone();
            break;
        }
        assert_ne!(v["state"], "failed", "{v}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let plies = report["plies"].as_array().expect("a report within 30 s");
    assert_eq!(plies.len(), 6);
    assert_eq!(report["scores"].as_array().unwrap().len(), 7);
    // The man given away is marked, with the engine's better move.
    let given = &plies[4];
    assert_eq!(given["color"], "black");
    assert!(given["judgment"].is_string(), "{report}");
    assert!(given["best"].is_string() && given["best"] != bad["notation"], "{report}");
    // After it White stands better.
    assert!(report["scores"][5].as_i64().unwrap() > 50, "{report}");
    for side in ["white", "black"] {
        let a = report[side]["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&a), "{report}");
    }
    assert!(report["black"]["accuracy"].as_f64() < report["white"]["accuracy"].as_f64(), "{report}");
    // Asked again, the stored report comes back at once.
    let (_, again) = http(srv.addr, "POST", &path, None, None).await;
    assert_eq!(again["state"], "done");
    assert_eq!(again["report"], report);
}

/// A measurement (by hand, `-- --ignored --nocapture`): a report of a 60-ply game at
/// the default budget, from the request to the stored report.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn time_of_a_sixty_ply_report() {
    let srv = start(&temp_db("an-report-time")).await;
    for variant in ["english", "russian", "international"] {
        let (id, token, _) = create(srv.addr, json!({"variant": variant, "mode": "hotseat"})).await;
        for i in 0..60 {
            let snap = snapshot(srv.addr, &id).await;
            let legal = snap["legal"].as_array().unwrap();
            if legal.is_empty() {
                break;
            }
            let m = legal[(i * 5) % legal.len()]["long"].as_str().unwrap().to_string();
            assert_eq!(mv(srv.addr, &id, &token, &m).await.0, 200);
        }
        let _ = act(srv.addr, &id, &token, json!({"type": "resign"})).await;
        let plies = snapshot(srv.addr, &id).await["moves"].as_array().unwrap().len();
        let path = format!("/api/games/{id}/report");
        let started = std::time::Instant::now();
        http(srv.addr, "POST", &path, None, None).await;
        loop {
            if http(srv.addr, "GET", &path, None, None).await.1["state"] == "done" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        eprintln!("{variant}: a report of {plies} plies in {:.1} s", started.elapsed().as_secs_f64());
    }
}

/// An untidy English game: a tag without quotes, a nested comment, a variation that
/// stops at a move black cannot play, and no result.
const UNTIDY: &str = "[Round 17]\n1. 11-15 23-19 {a {b} 2. 8-11 (2. 22-17) 22-17\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_untidy_game_is_imported_with_warnings_each_with_its_code_and_place() {
    let srv = start(&temp_db("an-untidy")).await;
    let (st, v) = post(srv.addr, "/api/analysis/import", json!({"pdn": UNTIDY})).await;
    assert_eq!(st, 200, "{v}");
    let notes = v["notes"].as_array().unwrap();
    let codes: Vec<&str> = notes.iter().map(|n| n["code"].as_str().unwrap()).collect();
    assert_eq!(
        codes,
        ["pdnw_tag_without_quotes", "pdnw_nested_comment", "pdnw_no_result", "pdnw_variation_illegal_move"],
        "{v}"
    );
    // Where each is, and what it names: the tag's name, the move the variation stops at.
    assert_eq!((notes[0]["arg"]["line"].as_u64(), notes[0]["arg"]["text"].as_str()), (Some(1), Some("Round")));
    assert_eq!((notes[3]["arg"]["line"].as_u64(), notes[3]["arg"]["text"].as_str()), (Some(2), Some("22-17")));
    // The English words stay for clients that show them as they are.
    assert_eq!(v["warnings"].as_array().unwrap().len(), 4);
    assert!(v["warnings"][1].as_str().unwrap().contains("do not nest"), "{v}");
}
