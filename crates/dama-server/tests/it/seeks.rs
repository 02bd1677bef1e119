//! Seeks: offered in the lobby, listed over HTTP and live over the lobby websocket,
//! accepted by one request (the game starts for both), cancelled, bounded by a rating
//! range, and listed again after a restart; on SQLite and PostgreSQL.

use std::net::SocketAddr;

use dama_server::client::request;
use serde_json::{json, Value};

use crate::common::*;

on_both!(a_seek_is_listed_streamed_accepted_and_gone, seeks_keep_their_rating_range_and_can_be_cancelled);

const BLITZ: &str = r#"{"kind": "fischer", "initial_ms": 180000, "increment_ms": 2000}"#;

async fn post(addr: SocketAddr, path: &str, cookie: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let cookie = cookie.map(|c| format!("dama_session={c}"));
    let headers: Vec<(&str, &str)> = cookie.as_deref().map(|c| ("Cookie", c)).into_iter().collect();
    let r = request(addr, "POST", path, &headers, body.map(|b| b.to_string()).as_deref()).await.unwrap();
    (r.status, r.body)
}

async fn account(addr: SocketAddr, name: &str) -> String {
    let body = json!({"name": name, "password": "a good password"}).to_string();
    let r = request(addr, "POST", "/api/accounts", &[], Some(&body)).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let c = r.header("set-cookie").unwrap();
    c.strip_prefix("dama_session=").and_then(|c| c.split(';').next()).unwrap().to_string()
}

async fn seeks(addr: SocketAddr) -> Vec<Value> {
    let (st, v) = http(addr, "GET", "/api/seeks", None, None).await;
    assert_eq!(st, 200);
    v["seeks"].as_array().unwrap().clone()
}

fn ids(list: &[Value]) -> Vec<&str> {
    list.iter().map(|s| s["id"].as_str().unwrap()).collect()
}

async fn a_seek_is_listed_streamed_accepted_and_gone(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (mut lobby, _) = tokio_tungstenite::connect_async(format!("ws://{a}/api/lobby/ws")).await.unwrap();
    let first = next_json(&mut lobby).await;
    assert_eq!(first["type"], "seeks");
    // An anonymous blitz seek.
    let body: Value =
        serde_json::from_str(&format!(r#"{{"variant": "russian", "time": {BLITZ}, "color": "black"}}"#)).unwrap();
    let (st, seek) = post(a, "/api/seeks", None, Some(body)).await;
    assert_eq!(st, 201, "{seek}");
    let id = seek["id"].as_str().unwrap().to_string();
    assert_eq!((seek["game"].as_str(), seek["color"].as_str()), (Some(id.as_str()), Some("black")));
    let heard = next_json(&mut lobby).await;
    assert_eq!((heard["type"].as_str(), heard["seek"]["id"].as_str()), (Some("seek"), Some(id.as_str())), "{heard}");
    let listed = seeks(a).await;
    let mine = listed.iter().find(|s| s["id"] == id.as_str()).expect("listed");
    assert_eq!(
        (&mine["variant"], &mine["speed"], &mine["rated"], &mine["color"], &mine["name"]),
        (&json!("russian"), &json!("blitz"), &json!(false), &json!("black"), &Value::Null)
    );
    // Accepted: the accepter gets the other seat, the game starts, the seek is gone.
    let (st, got) = post(a, &format!("/api/seeks/{id}/accept"), None, None).await;
    assert_eq!(st, 200, "{got}");
    assert_eq!((got["game"].as_str(), got["color"].as_str()), (Some(id.as_str()), Some("white")));
    let heard = next_of(&mut lobby, "unseek").await;
    assert_eq!(heard["id"], id.as_str());
    assert!(!ids(&seeks(a).await).contains(&id.as_str()));
    let snap = snapshot(a, &id).await;
    assert_eq!(snap["state"], "live");
    let first = snap["legal"][0]["notation"].as_str().unwrap().to_string();
    assert_eq!(mv(a, &id, got["token"].as_str().unwrap(), &first).await.0, 200);
    let (st, v) = post(a, &format!("/api/seeks/{id}/accept"), None, None).await;
    assert_eq!((st, v["error"].as_str()), (404, Some(format!("no open seek with id '{id}'").as_str())));
    // Bad seeks say what is wrong.
    for (body, says) in [
        (json!({"variant": "chess"}), "variant"),
        (json!({"variant": "english", "rated": true}), "clock"),
        (json!({"variant": "english", "rating_range": [1600, 1400]}), "rating_range"),
        (json!({"variant": "english", "colour": "white"}), "unknown field"),
    ] {
        let (st, v) = post(a, "/api/seeks", None, Some(body)).await;
        assert_eq!(st, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{v}");
    }
}

async fn seeks_keep_their_rating_range_and_can_be_cancelled(db: String) {
    let srv = start(&db).await;
    let a = srv.addr;
    let (ann, bob) = (account(a, "ann").await, account(a, "bob").await);
    let rated: Value = serde_json::from_str(&format!(
        r#"{{"variant": "english", "time": {BLITZ}, "rated": true, "rating_range": [1600, 2200]}}"#
    ))
    .unwrap();
    let (st, v) = post(a, "/api/seeks", None, Some(rated.clone())).await;
    assert_eq!((st, v["error"].as_str()), (403, Some("log in to play a rated game")));
    let (st, seek) = post(a, "/api/seeks", Some(&ann), Some(rated)).await;
    assert_eq!(st, 201, "{seek}");
    let id = seek["id"].as_str().unwrap().to_string();
    let listed = seeks(a).await;
    let mine = listed.iter().find(|s| s["id"] == id.as_str()).unwrap();
    assert_eq!(
        (&mine["rating"], &mine["rating_range"], &mine["rated"]),
        (&json!(1500), &json!([1600, 2200]), &json!(true))
    );
    assert!(mine["name"].as_str().unwrap().starts_with("ann"));
    let (st, v) = post(a, &format!("/api/seeks/{id}/accept"), Some(&ann), None).await;
    assert_eq!((st, v["error"].as_str()), (409, Some("this is your own seek")));
    // Bob is a newcomer (1500): outside the range.
    let (st, v) = post(a, &format!("/api/seeks/{id}/accept"), Some(&bob), None).await;
    assert_eq!(st, 403, "{v}");
    assert_eq!(v["error"], "this seek wants a rating from 1600 to 2200; yours is 1500");
    // After a restart the seek is listed again.
    srv.task.abort();
    let srv = start(&db).await;
    let a = srv.addr;
    assert!(ids(&seeks(a).await).contains(&id.as_str()));
    // Only the seeker cancels it.
    let del = |token: Option<&str>| {
        let id = id.clone();
        let token = token.map(str::to_string);
        async move {
            let headers: Vec<(&str, &str)> = token.as_deref().map(|t| ("x-dama-token", t)).into_iter().collect();
            request(a, "DELETE", &format!("/api/seeks/{id}"), &headers, None).await.unwrap().status
        }
    };
    assert_eq!(del(None).await, 403);
    assert_eq!(del(seek["token"].as_str()).await, 200);
    assert!(!ids(&seeks(a).await).contains(&id.as_str()));
    assert_eq!(snapshot(a, &id).await["result"]["text"], "Aborted");
}
