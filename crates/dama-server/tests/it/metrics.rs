//! Prometheus metrics: every family the operations notes promise shows up on the
//! metrics listener after a little play (one recorder per process: one test here).
//! The other tests of this binary run at the same time and record into the same
//! recorder once it is installed, so the lines are checked by name and labels, with
//! the values this test alone gives as a lower bound.

use std::time::Duration;

use serde_json::json;

use crate::common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_show_every_family_after_some_play() {
    let handle = dama_server::metrics::install().expect("recorder");
    let srv = start(&temp_db("metrics")).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let maddr = listener.local_addr().unwrap();
    tokio::spawn(dama_server::metrics::serve(listener, handle, srv.state.clone(), std::future::pending()));
    // A game on one device with two moves and a watcher; a game against the engine,
    // which moves first; a request for a game that does not exist.
    let (id, t, _) = create(srv.addr, json!({"variant": "english", "mode": "hotseat"})).await;
    let _watcher = ws(srv.addr, &id, None).await;
    assert_eq!(mv(srv.addr, &id, &t, "11-15").await.0, 200);
    assert_eq!(mv(srv.addr, &id, &t, "23-19").await.0, 200);
    let (ai, _, _) = create(srv.addr, json!({"variant": "russian", "mode": "ai", "level": 1, "color": "black"})).await;
    for _ in 0..100 {
        if !snapshot(srv.addr, &ai).await["moves"].as_array().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(http(srv.addr, "GET", "/api/games/000000000000", None, None).await.0, 404);
    let (st, body) = http(maddr, "GET", "/metrics", None, None).await;
    assert_eq!(st, 200);
    let text = body.as_str().expect("text").to_string();
    // At least this value (other tests may add to it), or present when None.
    let expected: [(&str, Option<f64>); 16] = [
        ("dama_games_created_total{variant=\"english\",mode=\"hotseat\"}", Some(1.0)),
        ("dama_games_created_total{variant=\"russian\",mode=\"ai\"}", Some(1.0)),
        ("dama_moves_total{variant=\"english\"}", Some(2.0)),
        ("dama_move_seconds_bucket", None),
        ("dama_move_store_seconds_bucket", None),
        ("dama_engine_search_seconds_bucket", None),
        ("dama_http_requests_total{method=\"POST\",status=\"200\"}", None),
        ("dama_http_request_seconds_bucket{method=\"GET\"", None),
        ("dama_errors_total{kind=\"not_found\"}", Some(1.0)),
        ("dama_websockets", Some(1.0)),
        ("dama_games_in_memory", Some(2.0)),
        ("dama_games_loaded{variant=\"english\",mode=\"hotseat\"}", Some(1.0)),
        ("dama_games_loaded{variant=\"russian\",mode=\"ai\"}", Some(1.0)),
        ("dama_engine_waiting", None),
        ("dama_db_connections{state=\"idle\"}", None),
        ("dama_process_resident_bytes", None),
    ];
    for (family, least) in expected {
        let line = text.lines().find(|l| l.starts_with(family));
        let Some(line) = line else { panic!("no {family} in\n{text}") };
        if let Some(least) = least {
            let value: f64 = line.rsplit(' ').next().and_then(|v| v.parse().ok()).unwrap_or(f64::NAN);
            assert!(value >= least, "{family}: {value}, expected at least {least}, in\n{text}");
        }
    }
    srv.task.abort();
}
