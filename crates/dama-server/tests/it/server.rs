//! The play server end to end: a real server on a free port, HTTP and websocket clients.

use std::time::Duration;

use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

on_both!(
    full_game_against_the_ai,
    hotseat_game_to_the_end,
    friend_game_through_an_invite_with_a_spectator,
    loss_on_time_resignation_and_abort,
    a_restart_loses_no_move,
    bad_requests_get_clear_errors,
    suggestions_reach_only_the_player_to_move,
    touch_move_and_takebacks,
    a_series_of_two_games_swaps_colours,
    open_game_from_the_lobby_to_the_end,
    seed_003_clock_and_arbiter,
    seed_001_pdn_says_red_and_black,
    the_screens_endpoints_and_their_bad_input
);

async fn full_game_against_the_ai(db: String) {
    let srv = start(&db).await;
    let (id, token, color) =
        create(srv.addr, json!({"variant": "english", "mode": "ai", "level": 1, "color": "black"})).await;
    assert_eq!(color, "black");
    let end = play_out(srv.addr, &id, &[("black", &token)], 400).await;
    assert_eq!(end["state"], "finished", "{end}");
    assert!(end["result"]["text"].as_str().unwrap().len() > 5);
    let (st, pdn) = http(srv.addr, "GET", &format!("/api/games/{id}/pdn"), None, None).await;
    assert_eq!(st, 200);
    let pdn = pdn.as_str().unwrap().to_string();
    assert!(pdn.contains("[GameType \"21\"]"));
    // The tags say when, who, with what clock and how the game ended.
    let g = dama_core::pdn::read_all(&pdn).remove(0).unwrap();
    let date = g.tag("Date").unwrap();
    assert!(date.len() == 10 && date.starts_with("20") && date.as_bytes()[4] == b'.', "{pdn}");
    assert_eq!(g.tag("White"), Some("dama level 1"));
    assert_eq!(g.tag("Black"), Some("Anonymous"));
    assert_eq!(g.tag("TimeControl"), Some("-"));
    assert_eq!(g.tag("Termination"), end["result"]["text"].as_str());
    // The result comes with its reason as a code, for clients to word.
    assert_ne!(end["result"]["reason"]["code"], "other", "{}", end["result"]);
    // The PDN replays to the same moves.
    let g = dama_core::pdn::read_all(&pdn).remove(0).unwrap();
    let r = dama_core::record::replay::<dama_core::variant::English>(&g).unwrap();
    assert_eq!(r.moves.len(), end["moves"].as_array().unwrap().len());
    // The engine answers a draw offer at once: at the start it declines (once per move),
    let offer = r#"{"type":"offer_draw"}"#;
    let (id, token, _) =
        create(srv.addr, json!({"variant": "english", "mode": "ai", "level": 3, "color": "black"})).await;
    let path = format!("/api/games/{id}/actions");
    assert_eq!(http(srv.addr, "POST", &path, Some(&token), Some(offer)).await.0, 200);
    assert_eq!(snapshot(srv.addr, &id).await["state"], "live");
    assert_eq!(http(srv.addr, "POST", &path, Some(&token), Some(offer)).await.0, 409);
    // and a lost position it takes gladly (White, the engine, has one man against three kings).
    let body = json!({"variant": "english", "mode": "ai", "level": 3, "color": "black", "fen": "B:W28:BK1,K2,K3"});
    let (id, token, _) = create(srv.addr, body).await;
    let path = format!("/api/games/{id}/actions");
    assert_eq!(http(srv.addr, "POST", &path, Some(&token), Some(offer)).await.0, 200);
    let s = snapshot(srv.addr, &id).await;
    assert_eq!((s["state"].as_str(), s["result"]["text"].as_str()), (Some("finished"), Some("Draw: agreement")));
    srv.task.abort();
}

async fn hotseat_game_to_the_end(db: String) {
    let srv = start(&db).await;
    let (id, token, color) = create(srv.addr, json!({"variant": "russian", "mode": "hotseat"})).await;
    assert_eq!(color, "both");
    let end = play_out(srv.addr, &id, &[("both", &token)], 400).await;
    assert_eq!(end["state"], "finished", "{end}");
    srv.task.abort();
}

async fn friend_game_through_an_invite_with_a_spectator(db: String) {
    let srv = start(&db).await;
    let created = create_full(srv.addr, json!({"variant": "international", "mode": "friend", "color": "white"})).await;
    let (id, t1, invite) =
        (created["id"].as_str().unwrap(), created["token"].as_str().unwrap(), created["invite"].clone());
    let (id, t1) = (id.to_string(), t1.to_string());
    assert_eq!(created["color"], "white");
    assert_eq!(created["invite_url"], format!("/game/{id}/join#{}", invite.as_str().unwrap()));
    let mut spectator = ws(srv.addr, &id, None).await;
    assert_eq!(next_json(&mut spectator).await["type"], "snapshot");
    // Moving before the opponent arrives is refused.
    assert_eq!(mv(srv.addr, &id, &t1, "32-28").await.0, 409);
    let (st, seat) = join(srv.addr, &id, invite.as_str()).await;
    assert_eq!(st, 200);
    assert_eq!(seat["color"], "black");
    let t2 = seat["token"].as_str().unwrap().to_string();
    // A third person cannot take a seat or move; a spectator cannot move.
    assert_eq!(join(srv.addr, &id, invite.as_str()).await.0, 409);
    assert_eq!(mv(srv.addr, &id, "0123456789abcdef0123456789abcdef", "32-28").await.0, 403);
    spectator.send(Message::Text(json!({"type": "move", "move": "32-28"}).to_string().into())).await.unwrap();
    assert_eq!(next_json(&mut spectator).await["type"], "joined");
    let e = next_json(&mut spectator).await;
    assert_eq!((e["type"].as_str(), e["status"].as_u64()), (Some("error"), Some(403)), "{e}");
    // Players move over their websockets; the spectator sees every move with versions.
    let mut white = ws(srv.addr, &id, Some(&t1)).await;
    let mut black = ws(srv.addr, &id, Some(&t2)).await;
    next_json(&mut white).await;
    next_json(&mut black).await;
    // Black may not move for White.
    black.send(Message::Text(json!({"type": "move", "move": "32-28"}).to_string().into())).await.unwrap();
    assert_eq!(next_of(&mut black, "error").await["status"], 403);
    let moves = [("32-28", &mut white), ("18-23", &mut black)];
    let mut seen = 0;
    for (m, sock) in moves {
        sock.send(Message::Text(json!({"type": "move", "move": m}).to_string().into())).await.unwrap();
        let e = next_json(&mut spectator).await;
        assert_eq!(e["type"], "move", "{e}");
        assert_eq!(e["mv"]["notation"], m);
        seen += 1;
    }
    assert_eq!(seen, 2);
    // Bad frames get clear errors and the connection survives.
    white.send(Message::Text("{not json".into())).await.unwrap();
    let e = next_of(&mut white, "error").await;
    assert!(e["message"].as_str().unwrap().contains("bad JSON"), "{e}");
    white.send(Message::Text("x".repeat(10_000).into())).await.unwrap();
    let e = next_of(&mut white, "error").await;
    assert!(e["message"].as_str().unwrap().contains("too large"), "{e}");
    white.send(Message::Text(json!({"type": "ping"}).to_string().into())).await.unwrap();
    next_of(&mut white, "pong").await;
    // A reconnecting client with a version gets only what it missed.
    let mut late = ws(srv.addr, &id, None).await;
    let snap = next_json(&mut late).await;
    let v = snap["v"].as_u64().unwrap();
    let (_, s) = http(
        srv.addr,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(&t1),
        Some(&json!({"type": "move", "move": "33-29"}).to_string()),
    )
    .await;
    assert_eq!(s["ok"], true);
    let mut again = ws_since(srv.addr, &id, None, Some(v)).await;
    let e = next_json(&mut again).await;
    assert_eq!((e["type"].as_str(), e["v"].as_u64()), (Some("move"), Some(v + 1)), "{e}");
    // Draw by agreement.
    let act = |t: &str, body: Value| {
        let (addr, id, t) = (srv.addr, id.clone(), t.to_string());
        async move { http(addr, "POST", &format!("/api/games/{id}/actions"), Some(&t), Some(&body.to_string())).await }
    };
    assert_eq!(act(&t1, json!({"type": "accept_draw"})).await.0, 409);
    assert_eq!(act(&t2, json!({"type": "offer_draw"})).await.0, 200);
    assert_eq!(act(&t1, json!({"type": "accept_draw"})).await.0, 200);
    let s = snapshot(srv.addr, &id).await;
    assert_eq!(s["state"], "finished");
    assert_eq!(s["result"]["token"], "1-1");
    assert_eq!(s["result"]["text"], "Draw: agreement");
    srv.task.abort();
}

async fn loss_on_time_resignation_and_abort(db: String) {
    let srv = start(&db).await;
    let tc = json!({"kind": "fischer", "initial_ms": 1000, "increment_ms": 0});
    let created =
        create_full(srv.addr, json!({"variant": "english", "mode": "friend", "color": "black", "time": tc})).await;
    let (id, t1) = (created["id"].as_str().unwrap().to_string(), created["token"].as_str().unwrap().to_string());
    let mut watcher = ws(srv.addr, &id, None).await;
    next_json(&mut watcher).await;
    assert_eq!(join(srv.addr, &id, created["invite"].as_str()).await.0, 200);
    assert_eq!(next_json(&mut watcher).await["type"], "joined");
    // Black (to move first) waits: its clock stands until its first move, and the game
    // is aborted (nobody loses) when the wait for it (here the whole 1 s clock) ends.
    let s = snapshot(srv.addr, &id).await;
    assert_eq!(s["clocks"]["running"], Value::Null, "{s}");
    assert!(s["clocks"]["first_move_ms"].as_u64().is_some_and(|ms| ms <= 1000), "{s}");
    let e = next_json(&mut watcher).await;
    assert_eq!(e["type"], "end", "{e}");
    assert_eq!(e["result"]["winner"], Value::Null);
    assert_eq!(e["result"]["token"], "*");
    assert_eq!(e["result"]["text"], "Aborted: black made no first move");
    assert_eq!(e["result"]["reason"], json!({"code": "no_first_move", "side": "black"}));
    assert_eq!(mv(srv.addr, &id, &t1, "11-15").await.0, 409);
    // Once both sides have moved the clock runs and the flag falls: a loss on time.
    let (id, b, w) =
        friends(srv.addr, json!({"variant": "english", "mode": "friend", "color": "black", "time": tc})).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(mv(srv.addr, &id, &b, "11-15").await.0, 200);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(mv(srv.addr, &id, &w, "23-19").await.0, 200);
    let s = snapshot(srv.addr, &id).await;
    // Neither first move cost time: White's clock is whole, Black's has just started.
    assert_eq!(s["clocks"]["white_ms"].as_u64(), Some(1000), "{s}");
    assert!(s["clocks"]["black_ms"].as_u64().is_some_and(|ms| ms > 900), "{s}");
    assert_eq!(s["clocks"]["running"], "black");
    let mut watcher = ws(srv.addr, &id, None).await;
    next_json(&mut watcher).await;
    let e = next_json(&mut watcher).await;
    assert_eq!(e["type"], "end", "{e}");
    assert_eq!(e["result"]["winner"], "white");
    assert!(e["result"]["text"].as_str().unwrap().contains("time"));
    // Resignation.
    let (id, t, _) = create(srv.addr, json!({"variant": "turkish", "mode": "ai", "color": "white", "level": 1})).await;
    let (st, _) =
        http(srv.addr, "POST", &format!("/api/games/{id}/actions"), Some(&t), Some(r#"{"type":"resign"}"#)).await;
    assert_eq!(st, 200);
    let s = snapshot(srv.addr, &id).await;
    assert_eq!((s["state"].as_str(), s["result"]["winner"].as_str()), (Some("finished"), Some("black")));
    // Idle, the finished game's task ends; asking again restores it from the store.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let again = snapshot(srv.addr, &id).await;
    assert_eq!(again["result"], s["result"]);
    assert_eq!(again["moves"], s["moves"]);
    // Abort before both sides moved.
    let (id, t, _) = create(srv.addr, json!({"variant": "czech", "mode": "hotseat"})).await;
    let (st, _) =
        http(srv.addr, "POST", &format!("/api/games/{id}/actions"), Some(&t), Some(r#"{"type":"abort"}"#)).await;
    assert_eq!(st, 200);
    assert_eq!(snapshot(srv.addr, &id).await["result"]["text"], "Aborted");
    srv.task.abort();
}

async fn a_restart_loses_no_move(db: String) {
    let srv = start(&db).await;
    let tc = json!({"kind": "fischer", "initial_ms": 600000, "increment_ms": 0});
    let (id, t, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat", "time": tc})).await;
    for m in ["11-15", "23-19", "8-11", "22-17"] {
        assert_eq!(mv(srv.addr, &id, &t, m).await.0, 200);
    }
    let before = snapshot(srv.addr, &id).await;
    srv.task.abort();
    let _ = srv.task.await;
    let srv = start(&db).await;
    let after = snapshot(srv.addr, &id).await;
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["fen"], before["fen"]);
    let (w0, w1) = (before["clocks"]["white_ms"].as_u64().unwrap(), after["clocks"]["white_ms"].as_u64().unwrap());
    assert!(w1 <= w0 && w0 - w1 < 2000, "{w0} {w1}");
    assert_eq!(mv(srv.addr, &id, &t, "9-13").await.0, 200);
    assert_eq!(snapshot(srv.addr, &id).await["moves"].as_array().unwrap().len(), 5);
    // A resignation in the middle of White's turn stops White's clock at the end time:
    // it does not jump back to its value at the last move, then or after a restart.
    let white = |s: &Value| s["clocks"]["white_ms"].as_u64().unwrap();
    let turn = white(&snapshot(srv.addr, &id).await);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let (st, _) =
        http(srv.addr, "POST", &format!("/api/games/{id}/actions"), Some(&t), Some(r#"{"type":"resign"}"#)).await;
    assert_eq!(st, 200);
    let end = snapshot(srv.addr, &id).await;
    assert_eq!(end["state"], "finished");
    assert!(white(&end) + 500 <= turn, "{} then {turn}", white(&end));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(white(&snapshot(srv.addr, &id).await), white(&end));
    srv.task.abort();
    let _ = srv.task.await;
    let srv = start(&db).await;
    assert_eq!(white(&snapshot(srv.addr, &id).await), white(&end));
    srv.task.abort();
}

async fn bad_requests_get_clear_errors(db: String) {
    let srv = start(&db).await;
    let (st, v) = http(srv.addr, "POST", "/api/games", None, Some("{nope")).await;
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("line 1"), "{v}");
    let (st, v) = http(srv.addr, "POST", "/api/games", None, Some(r#"{"variant":"english","mode":"sideways"}"#)).await;
    assert_eq!(st, 400, "{v}");
    let (st, v) = http(srv.addr, "POST", "/api/games", None, Some(r#"{"variant":"english","fen":"W:Wz9"}"#)).await;
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("z9"), "{v}");
    assert_eq!(http(srv.addr, "GET", "/api/games/doesnotexist", None, None).await.0, 404);
    assert_eq!(http(srv.addr, "GET", "/api/games/..%2F..", None, None).await.0, 404);
    let (id, t, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat"})).await;
    let (st, v) = mv(srv.addr, &id, &t, "21-17").await;
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("not a legal move"), "{v}");
    let (st, _) =
        http(srv.addr, "POST", &format!("/api/games/{id}/actions"), Some(&t), Some(r#"{"type":"fly"}"#)).await;
    assert_eq!(st, 400);
    // The game is unharmed.
    assert_eq!(mv(srv.addr, &id, &t, "11-15").await.0, 200);
    srv.task.abort();
}

/// What the web UI asks beyond play: the boards, PDN and FEN read for replay, hints.
async fn the_screens_endpoints_and_their_bad_input(db: String) {
    let srv = start(&db).await;
    // Boards: International has 50 squares, 1 = b10 (top row, column 1); Turkish all 64.
    let (st, v) = http(srv.addr, "GET", "/api/variants", None, None).await;
    assert_eq!(st, 200);
    let intl = v["variants"].as_array().unwrap().iter().find(|x| x["key"] == "international").unwrap();
    assert_eq!(intl["squares"].as_array().unwrap().len(), 50);
    assert!(intl["squares"].as_array().unwrap().contains(&json!(["1", 0, 1])), "{intl}");
    let tk = v["variants"].as_array().unwrap().iter().find(|x| x["key"] == "turkish").unwrap();
    assert_eq!((tk["full"].clone(), tk["squares"].as_array().unwrap().len()), (json!(true), 64));
    // A PDN game replays with a position after every move.
    let pdn = r#"[GameType "21"] 1. 11-15 23-19 2. 8-11 22-17 *"#;
    let (st, v) = http(srv.addr, "POST", "/api/replay", None, Some(&json!({"pdn": pdn}).to_string())).await;
    assert_eq!(st, 200, "{v}");
    let g = &v["games"][0];
    assert_eq!(g["moves"].as_array().unwrap().len(), 4);
    assert_eq!(g["moves"][0]["path"], json!(["11", "15"]));
    assert_eq!(g["start"]["side"], "black");
    // An illegal move (Black must take 15x24) says which and where; the rest of the
    // file is still read.
    let bad = "[GameType \"21\"]\n1. 11-15 23-19 2. 8-12 19-10 *\n\n[GameType \"21\"]\n1. 9-13 *\n";
    let (st, v) = http(srv.addr, "POST", "/api/replay", None, Some(&json!({"pdn": bad}).to_string())).await;
    assert_eq!(st, 200, "{v}");
    let e = v["games"][0]["error"].as_str().unwrap();
    assert!(e.contains("line 2") && e.contains("\"8-12\"") && e.contains("not a legal move"), "{e}");
    // ... also as a code with its place, for the page to say in the reader's language.
    let at = &v["games"][0]["error_at"];
    assert_eq!(
        (at["code"].as_str(), at["line"].as_u64(), at["ply"].as_u64()),
        (Some("illegal_move"), Some(2), Some(3)),
        "{at}"
    );
    assert_eq!(at["text"], "8-12");
    // The game is still shown, up to the bad move.
    let shown: Vec<&str> =
        v["games"][0]["moves"].as_array().unwrap().iter().map(|m| m["notation"].as_str().unwrap()).collect();
    assert_eq!(shown, ["11-15", "23-19"]);
    assert_eq!(v["games"][1]["moves"].as_array().unwrap().len(), 1);
    // A FEN needs a variant it belongs to; nonsense is refused in words.
    let (st, v) =
        http(srv.addr, "POST", "/api/replay", None, Some(r#"{"fen":"W:W31-50:B1-20","variant":"international"}"#))
            .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["games"][0]["start"]["pieces"].as_array().unwrap().len(), 40);
    for (body, says) in [
        (r#"{"fen":"W:W31-50:B1-20"}"#, "needs a variant"),
        (r#"{"fen":"W:Wz9","variant":"russian"}"#, "z9"),
        (r#"{"pdn":"1. 11-15","variant":"chess"}"#, "unknown variant"),
        (r#"{"pdn":"  "}"#, "no game in this text"),
        (r#"{"pgn":"1. e4"}"#, "unknown field"),
        ("{", "bad request body"),
    ] {
        let (st, v) = http(srv.addr, "POST", "/api/replay", None, Some(body)).await;
        assert_eq!(st, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{body}: {v}");
    }
    // Hints: only for the player to move against the engine.
    let (id, t, color) =
        create(srv.addr, json!({"variant": "english", "mode": "ai", "color": "black", "level": 1})).await;
    assert_eq!(color, "black");
    let (st, v) = http(srv.addr, "GET", &format!("/api/games/{id}/hint"), Some(&t), None).await;
    assert_eq!(st, 200, "{v}");
    let legal: Vec<Value> = snapshot(srv.addr, &id).await["legal"].as_array().unwrap().clone();
    assert!(legal.iter().any(|m| m["notation"] == v["move"] || m["long"] == v["move"]), "{v}");
    assert_eq!(http(srv.addr, "GET", &format!("/api/games/{id}/hint"), None, None).await.0, 403);
    assert_eq!(v["end"], Value::Null, "{v}");
    // A known end is told: a king on the edge in opposition is caught in 4 moves.
    let (won, wt, _) = create(
        srv.addr,
        json!({"variant": "english", "mode": "ai", "color": "white", "level": 10, "fen": "W:WK9:BK30"}),
    )
    .await;
    let (st, v) = http(srv.addr, "GET", &format!("/api/games/{won}/hint"), Some(&wt), None).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!((v["move"].as_str(), &v["end"]), (Some("9-14"), &json!({"result": "win", "moves": 4})), "{v}");
    let (hs, ht, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat"})).await;
    assert_eq!(http(srv.addr, "GET", &format!("/api/games/{hs}/hint"), Some(&ht), None).await.0, 409);
    // The UI's pages and files are served; unknown files are not.
    for path in ["/", "/game/abc", "/game/abc/join", "/rules/turkish", "/replay", "/assets/app.js", "/assets/style.css"]
    {
        assert_eq!(http(srv.addr, "GET", path, None, None).await.0, 200, "{path}");
    }
    assert_eq!(http(srv.addr, "GET", "/assets/..%2Fsecret", None, None).await.0, 404);
    srv.task.abort();
}

async fn suggestions_reach_only_the_player_to_move(db: String) {
    let srv = start(&db).await;
    let body = json!({"variant": "turkish", "mode": "friend", "color": "white", "suggestions": true});
    let (id, white, black) = friends(srv.addr, body).await;
    let mut w = ws(srv.addr, &id, Some(&white)).await;
    let mut b = ws(srv.addr, &id, Some(&black)).await;
    let mut s1 = ws(srv.addr, &id, None).await;
    let mut s2 = ws(srv.addr, &id, None).await;
    for s in [&mut w, &mut b, &mut s1, &mut s2] {
        next_of(s, "snapshot").await;
    }
    // Two spectators suggest; one changes its mind; an illegal suggestion is refused.
    let suggest = |m: &str| Message::Text(json!({"type": "suggest", "move": m}).to_string().into());
    s1.send(suggest("d3-d4")).await.unwrap();
    s2.send(suggest("d3-d4")).await.unwrap();
    s1.send(suggest("a3-a4")).await.unwrap();
    s2.send(Message::Text(json!({"type": "suggest", "move": "d3-d5"}).to_string().into())).await.unwrap();
    assert!(next_of(&mut s2, "error").await["message"].as_str().unwrap().contains("not a legal move"));
    let mut last = Value::Null;
    for _ in 0..3 {
        last = next_of(&mut w, "suggestions").await;
    }
    assert_eq!(last["to"], "white");
    assert_eq!(last["moves"], json!([["a3-a4", 1], ["d3-d4", 1]]));
    // Players may not suggest, and neither Black nor the spectators hear of them.
    b.send(Message::Text(json!({"type": "suggest", "move": "d6-d5"}).to_string().into())).await.unwrap();
    assert_eq!(next_of(&mut b, "error").await["status"], 403);
    w.send(Message::Text(json!({"type": "move", "move": "d3-d4"}).to_string().into())).await.unwrap();
    let m = next_of(&mut s1, "move").await;
    assert_eq!(m["mv"]["notation"], "d3-d4");
    b.send(Message::Text(json!({"type": "ping"}).to_string().into())).await.unwrap();
    let mut before_pong = Vec::new();
    loop {
        let v = next_json(&mut b).await;
        if v["type"] == "pong" {
            break;
        }
        before_pong.push(v["type"].as_str().unwrap().to_string());
    }
    assert!(!before_pong.contains(&"suggestions".to_string()), "{before_pong:?}");
    // The record keeps them.
    let (_, pdn) = http(srv.addr, "GET", &format!("/api/games/{id}/pdn"), None, None).await;
    assert!(pdn.as_str().unwrap().contains("suggested: a3-a4 x1, d3-d4 x1"), "{pdn}");
    // Without the creator's permission there are no suggestions.
    let (id2, _, _) = create(srv.addr, json!({"variant": "turkish", "mode": "hotseat"})).await;
    let mut s3 = ws(srv.addr, &id2, None).await;
    next_of(&mut s3, "snapshot").await;
    s3.send(Message::Text(json!({"type": "suggest", "move": "d3-d4"}).to_string().into())).await.unwrap();
    assert!(next_of(&mut s3, "error").await["message"].as_str().unwrap().contains("did not allow"));
    srv.task.abort();
}

async fn touch_move_and_takebacks(db: String) {
    let srv = start(&db).await;
    // Touch-move: once a movable piece is selected, another piece may not move.
    let (id, t, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat", "touch_move": true})).await;
    assert_eq!(act(srv.addr, &id, &t, json!({"type": "touch", "square": "11"})).await.0, 200);
    let (st, v) = mv(srv.addr, &id, &t, "9-13").await;
    assert_eq!(st, 403);
    assert!(v["error"].as_str().unwrap().contains("touch-move"), "{v}");
    assert_eq!(act(srv.addr, &id, &t, json!({"type": "touch", "square": "9"})).await.0, 409);
    assert_eq!(mv(srv.addr, &id, &t, "11-15").await.0, 200);
    // Hot-seat takeback is immediate.
    assert_eq!(act(srv.addr, &id, &t, json!({"type": "takeback"})).await.0, 200);
    assert_eq!(snapshot(srv.addr, &id).await["moves"].as_array().unwrap().len(), 0);
    // Against the engine: the player's move and the engine's reply are taken back.
    let (id, t, _) = create(srv.addr, json!({"variant": "russian", "mode": "ai", "color": "white", "level": 1})).await;
    assert_eq!(mv(srv.addr, &id, &t, "c3-d4").await.0, 200);
    for _ in 0..100 {
        if snapshot(srv.addr, &id).await["moves"].as_array().unwrap().len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(act(srv.addr, &id, &t, json!({"type": "takeback"})).await.0, 200);
    let s = snapshot(srv.addr, &id).await;
    assert_eq!((s["moves"].as_array().unwrap().len(), s["side_to_move"].as_str()), (0, Some("white")));
    // Online: the opponent must accept.
    let (id, w, white) = friends(srv.addr, json!({"variant": "english", "mode": "friend", "color": "black"})).await;
    assert_eq!(mv(srv.addr, &id, &w, "11-15").await.0, 200);
    assert_eq!(act(srv.addr, &id, &w, json!({"type": "takeback"})).await.0, 200);
    assert_eq!(act(srv.addr, &id, &w, json!({"type": "accept_takeback"})).await.0, 409);
    assert_eq!(act(srv.addr, &id, &white, json!({"type": "accept_takeback"})).await.0, 200);
    assert_eq!(snapshot(srv.addr, &id).await["moves"].as_array().unwrap().len(), 0);
    srv.task.abort();
}

async fn a_series_of_two_games_swaps_colours(db: String) {
    let srv = start(&db).await;
    let body = json!({"variant": "english", "mode": "friend", "color": "black", "series": 2});
    let (id, a, b) = friends(srv.addr, body).await;
    let mut watch = ws(srv.addr, &id, None).await;
    next_of(&mut watch, "snapshot").await;
    // Player A (Black) resigns the first game: B scores 1.
    assert_eq!(act(srv.addr, &id, &a, json!({"type": "resign"})).await.0, 200);
    let next = next_of(&mut watch, "next_game").await;
    let id2 = next["id"].as_str().unwrap().to_string();
    assert_eq!(next["series"]["game"], 2);
    // Colours swap: A now plays White, B Black; the score follows the players
    // ([points of the player now White, of the player now Black]).
    assert_eq!(next["series"]["score"], json!([0.0, 1.0]));
    let g2 = snapshot(srv.addr, &id2).await;
    assert_eq!(g2["state"], "live");
    assert_eq!(g2["side_to_move"], "black");
    assert_eq!(mv(srv.addr, &id2, &a, "11-15").await.0, 403);
    assert_eq!(mv(srv.addr, &id2, &b, "11-15").await.0, 200);
    // No third game in a series of two; a rematch is asked for by both.
    assert_eq!(act(srv.addr, &id2, &b, json!({"type": "resign"})).await.0, 200);
    assert_eq!(act(srv.addr, &id2, &a, json!({"type": "rematch"})).await.0, 200);
    assert_eq!(act(srv.addr, &id2, &b, json!({"type": "rematch"})).await.0, 200);
    assert_eq!(act(srv.addr, &id2, &a, json!({"type": "rematch"})).await.0, 409);
    srv.task.abort();
}

async fn open_game_from_the_lobby_to_the_end(db: String) {
    let srv = start(&db).await;
    let (id, a, color) = create(srv.addr, json!({"variant": "brazilian", "mode": "open"})).await;
    let (_, lobby) = http(srv.addr, "GET", "/api/games?state=waiting", None, None).await;
    assert!(lobby["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()), "{lobby}");
    let (_, seat) = join(srv.addr, &id, None).await;
    let b = seat["token"].as_str().unwrap().to_string();
    let (_, live) = http(srv.addr, "GET", "/api/games?state=live", None, None).await;
    assert!(live["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()));
    let other = if color == "white" { "black" } else { "white" };
    let end = play_out(srv.addr, &id, &[(color.as_str(), &a), (other, &b)], 500).await;
    assert_eq!(end["state"], "finished", "{end}");
    let (_, done) = http(srv.addr, "GET", "/api/games?state=finished", None, None).await;
    assert!(done["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()));
    srv.task.abort();
}

async fn seed_003_clock_and_arbiter(db: String) {
    let srv = start(&db).await;
    // Per-move limit, shorter when the only legal move is a single capture: Black's
    // only move here is 14x23, so its 300 ms apply, not the 60 s.
    let tc = json!({"kind": "per_move", "limit_ms": 60000, "capture_limit_ms": 300});
    let body =
        json!({"variant": "english", "mode": "hotseat", "time": tc, "rules": "seed003", "fen": "B:W18,30:B14,1"});
    let (id, _, _) = create(srv.addr, body).await;
    let mut w = ws(srv.addr, &id, None).await;
    next_of(&mut w, "snapshot").await;
    let e = next_of(&mut w, "end").await;
    assert!(e["result"]["text"].as_str().unwrap().contains("time"), "{e}");
    // Twenty king moves with a repetition: the engine decides as arbiter (three kings
    // against one: White wins).
    let body = json!({"variant": "english", "mode": "hotseat", "rules": "seed003", "fen": "B:WK29,K22,K18:BK4"});
    let (id, t, _) = create(srv.addr, body).await;
    let cycle = ["4-8", "29-25", "8-4", "25-29"];
    let mut n = 0;
    while snapshot(srv.addr, &id).await["state"] == "live" && n < 20 {
        assert_eq!(mv(srv.addr, &id, &t, cycle[n % 4]).await.0, 200);
        n += 1;
    }
    let s = snapshot(srv.addr, &id).await;
    assert_eq!(s["state"], "finished", "{s}");
    assert_eq!(s["result"]["text"], "White wins: adjudication");
    srv.task.abort();
}

/// Seed 001 plays Red (moving first) against Black. PDN's English seats stay as readers
/// expect them (the Black seat moves first), and the tags say the house rules and which
/// side is which; the other presets and variants keep their own names.
async fn seed_001_pdn_says_red_and_black(db: String) {
    let srv = start(&db).await;
    let tags = |pdn: &str| {
        let g = dama_core::pdn::read_all(pdn).remove(0).unwrap();
        (g.tag("Rules").map(str::to_string), g.tag("Sides").map(str::to_string), g.tag("GameType").map(str::to_string))
    };
    let pdn_of = |id: String| async move {
        let (st, pdn) = http(srv.addr, "GET", &format!("/api/games/{id}/pdn"), None, None).await;
        assert_eq!(st, 200);
        pdn.as_str().unwrap().to_string()
    };
    let (id, t, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat", "rules": "seed001"})).await;
    // The first move is the Black seat's (Red's): 11-15 from the men on 1-12.
    assert_eq!(mv(srv.addr, &id, &t, "11-15").await.0, 200);
    let (rules, sides, gametype) = tags(&pdn_of(id).await);
    assert_eq!(rules.as_deref(), Some("seed 001"));
    assert_eq!(sides.as_deref(), Some("Red (the Black seat) moves first, Black (the White seat) second"));
    assert_eq!(gametype.as_deref(), Some("21"));
    let (id, _, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat", "rules": "seed003"})).await;
    assert_eq!(tags(&pdn_of(id).await).0.as_deref(), Some("seed 003"));
    let (id, _, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat"})).await;
    assert_eq!(tags(&pdn_of(id).await).0, None);
    // The presets concern English only: a Russian game asked for with them plays its own.
    let (id, _, _) = create(srv.addr, json!({"variant": "russian", "mode": "hotseat", "rules": "seed001"})).await;
    assert_eq!(tags(&pdn_of(id).await), (None, None, Some("25".to_string())));
    let (id, _, _) = create(srv.addr, json!({"variant": "russian", "mode": "hotseat", "rules": "seed000"})).await;
    assert_eq!(tags(&pdn_of(id).await).0.as_deref(), Some("seed 000"));
    srv.task.abort();
}

/// After each move, the player to move (only they) hears their legal moves, so that a
/// page goes on without a snapshot; a player who resumes with `since` gets them too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_player_to_move_hears_their_legal_moves() {
    let srv = start(&temp_db("legal")).await;
    let (id, black, white) = friends(srv.addr, json!({"variant": "english", "mode": "friend", "color": "black"})).await;
    let mut b = ws(srv.addr, &id, Some(&black)).await;
    let mut w = ws(srv.addr, &id, Some(&white)).await;
    let mut spectator = ws(srv.addr, &id, None).await;
    for s in [&mut b, &mut w, &mut spectator] {
        assert_eq!(next_json(s).await["type"], "snapshot");
    }
    assert_eq!(mv(srv.addr, &id, &black, "11-15").await.0, 200);
    let moved = next_of(&mut w, "move").await;
    let legal = next_of(&mut w, "legal").await;
    assert_eq!((&legal["to"], &legal["v"]), (&json!("white"), &moved["v"]));
    let snap = snapshot(srv.addr, &id).await;
    assert_eq!(legal["moves"], snap["legal"]);
    // Black and the spectator hear the move, and no legal moves.
    for s in [&mut b, &mut spectator] {
        assert_eq!(next_json(s).await["type"], "move");
        let more = quiet_for(s, 300).await;
        assert!(more.is_ok(), "nothing more: {more:?}");
    }
    // White resumes after the move: the missed events, then the legal moves.
    let v = moved["v"].as_u64().unwrap();
    let mut again = ws_since(srv.addr, &id, Some(&white), Some(v - 1)).await;
    assert_eq!(next_json(&mut again).await["type"], "move");
    assert_eq!(next_json(&mut again).await["moves"], snap["legal"]);
}
