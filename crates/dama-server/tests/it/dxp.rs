//! International engines on the site by DamExchange: an engine's game request becomes a
//! seek in the lobby; a player accepts it and the moves go both ways; a player's
//! resignation reaches the engine; an engine that leaves before anyone joined takes its
//! seek with it. The engine here is a DXP initiator written for the test.

use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use crate::common::*;

struct Engine {
    r: BufReader<tokio::net::tcp::OwnedReadHalf>,
    w: tokio::net::tcp::OwnedWriteHalf,
}

impl Engine {
    async fn connect(addr: std::net::SocketAddr) -> Engine {
        let (r, w) = TcpStream::connect(addr).await.unwrap().into_split();
        Engine { r: BufReader::new(r), w }
    }
    async fn send(&mut self, m: &str) {
        self.w.write_all(m.as_bytes()).await.unwrap();
        self.w.write_all(&[0]).await.unwrap();
    }
    async fn next(&mut self) -> String {
        let mut buf = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), self.r.read_until(0, &mut buf))
            .await
            .expect("a message")
            .unwrap();
        buf.pop();
        String::from_utf8(buf).unwrap()
    }
}

/// A move of a snapshot's legal list as a DXP `M` message.
fn dxp_move(mv: &Value) -> String {
    let path = mv["path"].as_array().unwrap();
    let caught = mv["captured"].as_array().unwrap();
    let n = |v: &Value| v.as_str().unwrap().parse::<u32>().unwrap();
    let mut m = format!("M0001{:02}{:02}{:02}", n(&path[0]), n(path.last().unwrap()), caught.len());
    for c in caught {
        m.push_str(&format!("{:02}", n(c)));
    }
    m
}

async fn seek_of(addr: std::net::SocketAddr, n: usize) -> Value {
    for _ in 0..100 {
        let (_, v) = http(addr, "GET", "/api/seeks", None, None).await;
        if let Some(s) = v["seeks"].as_array().unwrap().get(n) {
            return s.clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no seek");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_plays_a_visitor_through_dxp() {
    let srv = start(&temp_db("dxp")).await;
    let a = srv.addr;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let dxp = listener.local_addr().unwrap();
    tokio::spawn(dama_server::dxp::serve(listener, srv.state.clone()));
    // The engine asks for a game: the visitor (the follower) Black, 5 minutes.
    let mut engine = Engine::connect(dxp).await;
    engine.send(&format!("R01{:<32}Z005000A", "Test engine")).await;
    let seek = seek_of(a, 0).await;
    assert_eq!(
        (&seek["variant"], &seek["color"], &seek["speed"]),
        (&json!("international"), &json!("white"), &json!("blitz"))
    );
    let id = seek["id"].as_str().unwrap().to_string();
    let (st, seat) = http(a, "POST", &format!("/api/seeks/{id}/accept"), None, None).await;
    assert_eq!((st, seat["color"].as_str()), (200, Some("black")), "{seat}");
    let token = seat["token"].as_str().unwrap().to_string();
    let acc = engine.next().await;
    assert!(acc.starts_with('A') && acc.ends_with('0'), "{acc}");
    // The engine's move reaches the game; the visitor's move reaches the engine.
    for _ in 0..3 {
        let snap = snapshot(a, &id).await;
        assert_eq!(snap["side_to_move"], "white");
        let before = snap["moves"].as_array().unwrap().len();
        engine.send(&dxp_move(&snap["legal"][0])).await;
        let mut snap = snapshot(a, &id).await;
        for _ in 0..100 {
            if snap["moves"].as_array().unwrap().len() > before {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
            snap = snapshot(a, &id).await;
        }
        assert_eq!(snap["side_to_move"], "black", "{snap}");
        let reply = &snap["legal"][0];
        assert_eq!(mv(a, &id, &token, reply["long"].as_str().unwrap()).await.0, 200);
        let heard = engine.next().await;
        assert_eq!(heard[5..], dxp_move(reply)[5..], "{heard}");
    }
    // The visitor resigns: the engine hears that the site's side lost.
    assert_eq!(act(a, &id, &token, json!({"type": "resign"})).await.0, 200);
    assert_eq!(engine.next().await, "E10");
    assert_eq!(snapshot(a, &id).await["result"]["winner"], "white");
    // A second request on the same connection, then the engine leaves before anyone
    // joins: its seek goes with it.
    engine.send(&format!("R01{:<32}W005000A", "Test engine")).await;
    let second = seek_of(a, 0).await["id"].as_str().unwrap().to_string();
    drop(engine);
    for _ in 0..100 {
        if seek_of_none(a).await {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(seek_of_none(a).await);
    assert_eq!(snapshot(a, &second).await["result"]["text"], "Aborted");
}

async fn seek_of_none(addr: std::net::SocketAddr) -> bool {
    let (_, v) = http(addr, "GET", "/api/seeks", None, None).await;
    v["seeks"].as_array().unwrap().is_empty()
}
