//! `dama loadtest --idle N`: the memory of games nobody plays. For each mode, N games
//! are created with nobody connected; the server's resident memory is read once they
//! exist and again after they have been idle for a while (the server is started with a
//! 3 s idle time).

use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Result};
use dama_server::client::http;
use serde_json::{json, Value};

use super::{remove_db, rss_kb, start_server};

/// Runs the measurement against `bin serve`.
pub async fn run(bin: &Path, n: usize) -> Result<()> {
    let env = [("DAMA_IDLE_MS", "3000")];
    let (addr, server, db) = start_server(bin, &env, None).await?;
    let pid = server.0.id();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let fischer = json!({"kind": "fischer", "initial_ms": 600000, "increment_ms": 5000});
    let modes: [(&str, Value); 5] = [
        (
            "against the engine (it moved first)",
            json!({"variant": "international", "mode": "ai", "level": 1, "color": "black"}),
        ),
        ("two players on one device", json!({"variant": "international", "mode": "hotseat"})),
        ("friend game waiting for the friend", json!({"variant": "international", "mode": "friend"})),
        ("open game in the lobby", json!({"variant": "international", "mode": "open"})),
        ("one device with a running clock", json!({"variant": "international", "mode": "hotseat", "time": fischer})),
    ];
    // The engine pool's searchers are a fixed cost, not a cost per game: let them exist
    // before measuring.
    for _ in 0..2 {
        http(addr, "POST", "/api/games", None, Some(&modes[0].1.to_string())).await?;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    println!("{n} games of each mode, nobody connected; server resident memory (KB)");
    println!("{:<40} {:>10} {:>12} {:>12} {:>14}", "mode", "before", "created", "idle 5 s", "KB/game idle");
    for (name, body) in modes {
        let before = rss_kb(pid).unwrap_or(0);
        for _ in 0..n {
            let (st, v) = http(addr, "POST", "/api/games", None, Some(&body.to_string())).await?;
            if st != 201 {
                bail!("{name}: {st} {v}");
            }
        }
        // Let the engine answer in games it starts.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let created = rss_kb(pid).unwrap_or(0);
        tokio::time::sleep(Duration::from_secs(5)).await;
        let idle = rss_kb(pid).unwrap_or(0);
        let per = idle.saturating_sub(before) as f64 / n as f64;
        println!("{name:<40} {before:>10} {created:>12} {idle:>12} {per:>14.1}");
    }
    drop(server);
    remove_db(&db);
    Ok(())
}
