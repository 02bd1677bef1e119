//! Health checks and the graceful shutdown: the server stops taking connections, tells
//! websocket clients to reconnect, finishes what is in flight, and a server started
//! again on the same database has every move; the client resumes from its version.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

on_both!(a_shutdown_mid_game_loses_nothing_and_the_client_resumes);

/// A server that stops when `stop` is sent: (address, stop, the task running it).
async fn stoppable(url: &str) -> (SocketAddr, tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    let (router, state, _) = dama_server::app(url, Default::default()).await.expect("app");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let stop = async move {
            let _ = rx.await;
        };
        dama_server::run(listener, router, state, stop, Duration::from_secs(5)).await.expect("run");
    });
    (addr, tx, task)
}

async fn a_shutdown_mid_game_loses_nothing_and_the_client_resumes(db: String) {
    let (addr, stop, task) = stoppable(&db).await;
    assert_eq!(http(addr, "GET", "/healthz", None, None).await, (200, json!({"status": "ok"})));
    let (st, ready) = http(addr, "GET", "/readyz", None, None).await;
    assert_eq!((st, &ready["status"]), (200, &json!("ready")), "{ready}");
    // A friend game with a clock: two moves, a spectator watching.
    let tc = json!({"kind": "fischer", "initial_ms": 300000, "increment_ms": 0});
    let (id, black, white) =
        friends(addr, json!({"variant": "english", "mode": "friend", "color": "black", "time": tc})).await;
    assert_eq!(mv(addr, &id, &black, "11-15").await.0, 200);
    assert_eq!(mv(addr, &id, &white, "23-19").await.0, 200);
    let mut watcher = ws(addr, &id, None).await;
    let snap = next_of(&mut watcher, "snapshot").await;
    let v = snap["v"].as_u64().unwrap();
    // SIGTERM's stand-in: the websocket is told to reconnect, the server stops.
    let stopped = std::time::Instant::now();
    stop.send(()).unwrap();
    let close = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(m) = watcher.next().await {
            match m {
                Ok(Message::Close(Some(f))) => return Some(u16::from(f.code)),
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
        None
    })
    .await
    .expect("the close frame within 5 s");
    assert_eq!(close, Some(1012), "close code: service restart");
    tokio::time::timeout(Duration::from_secs(6), task).await.expect("stopped within the grace").unwrap();
    assert!(stopped.elapsed() < Duration::from_secs(6));
    assert!(tokio::net::TcpStream::connect(addr).await.is_err(), "no longer listening");
    // Started again on the same database: both moves are there, and the client resumes
    // after its version with nothing missing (only what happened since).
    let srv = start(&db).await;
    let s = snapshot(srv.addr, &id).await;
    assert_eq!(s["state"], "live", "{s}");
    let moves: Vec<&str> = s["moves"].as_array().unwrap().iter().map(|m| m["notation"].as_str().unwrap()).collect();
    assert_eq!(moves, ["11-15", "23-19"]);
    let mut again = ws_since(srv.addr, &id, None, Some(v)).await;
    assert_eq!(mv(srv.addr, &id, &black, "8-11").await.0, 200);
    let e = next_json(&mut again).await;
    assert_eq!((e["type"].as_str(), e["v"].as_u64()), (Some("move"), Some(v + 1)), "{e}");
    srv.task.abort();
}
