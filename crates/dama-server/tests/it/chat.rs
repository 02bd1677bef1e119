//! A game's chat: the players' room and the spectators' room apart, lines cleaned and
//! paced, kept with the game (after a restart too), and reported.

use serde_json::json;

use crate::common::*;

on_both!(players_and_spectators_chat_in_their_own_rooms);

async fn players_and_spectators_chat_in_their_own_rooms(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (id, t1, t2) = friends(a, json!({"variant": "english", "mode": "friend"})).await;
    let mut p2 = ws(a, &id, Some(&t2)).await;
    let mut watcher = ws(a, &id, None).await;
    let mut other = ws(a, &id, None).await;
    for s in [&mut p2, &mut watcher, &mut other] {
        next_of(s, "snapshot").await;
    }
    // A player writes over HTTP: the other player hears it, spectators do not.
    let (st, v) = act(a, &id, &t1, json!({"type": "chat", "text": "  good luck\u{0007} "})).await;
    assert_eq!(st, 200, "{v}");
    let heard = next_of(&mut p2, "chat").await;
    assert_eq!(
        (heard["room"].as_str(), heard["text"].as_str(), heard["n"].as_i64()),
        (Some("players"), Some("good luck"), Some(1))
    );
    // Too fast, too long, empty.
    assert_eq!(act(a, &id, &t1, json!({"type": "chat", "text": "again"})).await.0, 429);
    assert_eq!(act(a, &id, &t2, json!({"type": "chat", "text": "x".repeat(141)})).await.0, 400);
    assert_eq!(act(a, &id, &t2, json!({"type": "chat", "text": "   "})).await.0, 400);
    // A spectator writes over the websocket: spectators hear it, players do not.
    use futures_util::SinkExt;
    let line = json!({"type": "chat", "text": "nice opening"}).to_string();
    watcher.send(tokio_tungstenite::tungstenite::Message::Text(line.into())).await.unwrap();
    let heard = next_of(&mut other, "chat").await;
    assert_eq!((heard["room"].as_str(), heard["n"].as_i64()), (Some("spectators"), Some(2)));
    assert!(heard["author"].as_str().unwrap().starts_with("spectator "), "{heard}");
    // Without a seat or a websocket there is nobody to write as.
    assert_eq!(act(a, &id, "not-a-token", json!({"type": "chat", "text": "hi"})).await.0, 403);
    // A player's move comes next on p2's socket: the spectators' line never reached it.
    let snap = snapshot(a, &id).await;
    let first = snap["legal"][0]["notation"].as_str().unwrap().to_string();
    // Whichever token holds the side to move plays (the other is refused).
    let played = mv(a, &id, &t1, &first).await.0 == 200 || mv(a, &id, &t2, &first).await.0 == 200;
    assert!(played);
    let next = next_json(&mut p2).await;
    assert_eq!(next["type"], "move", "{next}");
    // Reported lines are kept for a moderator.
    let report = json!({"reason": "rude"}).to_string();
    assert_eq!(http(a, "POST", &format!("/api/games/{id}/chat/1/report"), None, Some(&report)).await.0, 200);
    assert_eq!(http(a, "POST", &format!("/api/games/{id}/chat/9/report"), None, Some(&report)).await.0, 404);
    // After a restart a player gets the players' room's lines on connecting.
    srv.task.abort();
    let srv = start(&db).await;
    let mut p1 = ws(srv.addr, &id, Some(&t1)).await;
    next_of(&mut p1, "snapshot").await;
    let history = next_of(&mut p1, "chat_history").await;
    assert_eq!(history["room"], "players");
    assert_eq!(history["lines"].as_array().unwrap().len(), 1, "{history}");
    assert_eq!(history["lines"][0]["text"], "good luck");
}
