//! The analysis board's engine over a websocket: `GET /api/analysis/ws`.
//!
//! The page sends `{"type":"analyse","id":N,"variant":"russian","fen":"...","moves":[...],
//! "lines":1..3}` whenever the position on its board changes (the moves, if any, lead
//! from the FEN to the position, so repetitions count), and `{"type":"stop"}`. The
//! server answers with `{"type":"lines","id":N,...}` after every finished depth (the
//! best lines, best first, scored for the side to move), `{"type":"done","id":N}` when
//! the search ends (after the `analysis_seconds` limit, or when every line ends in a
//! known result), `{"type":"queued","id":N}` while every analysis searcher is busy, and
//! `{"type":"error","id":N,"message":...}` for a position it cannot analyse.
//!
//! A new position stops the search of the last one, and a closed socket stops its
//! search: nothing runs for a page that left. Searches run on their own pool, apart
//! from the games' engine moves, shared fairly: one address (or account) has at most
//! `analysis_per_client` sockets open, waiting searches are served round robin by
//! client, and a search that has run [`SHARE`] gives its searcher up (ending with
//! `done`) when other clients wait.

/// How long a search runs before it gives its searcher up to other clients waiting.
pub const SHARE: Duration = Duration::from_secs(5);

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use dama_core::game::DrawRules;
use dama_engine::player::LinesReport;
use dama_engine::search::{moves_to_end, score_text, Limits};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;

use super::variant_named;
use crate::accounts::Me;
use crate::error::ApiError;
use crate::extract::PeerIp;
use crate::pool::{EnginePool, StopOnDrop};
use crate::state::Services;

/// The most lines the engine shows.
pub const MAX_LINES: usize = 3;
/// The most moves from the FEN to the position analysed.
const MAX_MOVES: usize = 1000;

/// A frame from the page.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Request {
    Analyse {
        id: u64,
        variant: String,
        fen: String,
        #[serde(default)]
        moves: Vec<String>,
        #[serde(default = "one")]
        lines: usize,
    },
    Stop,
}

fn one() -> usize {
    1
}

/// A position checked and ready for the engine.
struct Job {
    id: u64,
    variant: dama_core::Variant,
    fen: String,
    moves: Vec<String>,
    lines: usize,
}

/// Checks a request: a known variant, a FEN that reads, legal moves, 1-3 lines.
fn check(id: u64, variant: &str, fen: &str, moves: Vec<String>, lines: usize) -> Result<Job, String> {
    let v = variant_named(variant).map_err(|e| e.to_string())?;
    if moves.len() > MAX_MOVES {
        return Err(format!("at most {MAX_MOVES} moves lead to the position"));
    }
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(format!("lines must be 1 to {MAX_LINES}"));
    }
    let mut s =
        dama_core::any::AnyGame::new(v, Some(fen), DrawRules::default()).map_err(|e| format!("bad FEN: {e}"))?;
    for (i, m) in moves.iter().enumerate() {
        s.play(m).map_err(|e| format!("move {} (\"{}\"): {e}", i + 1, m.chars().take(40).collect::<String>()))?;
    }
    Ok(Job { id, variant: v, fen: fen.to_string(), moves, lines })
}

/// One report as the page reads it.
fn lines_frame(id: u64, r: &LinesReport) -> String {
    let lines: Vec<_> = r
        .lines
        .iter()
        .map(|(score, moves)| {
            let end = moves_to_end(*score).map(|(wins, n)| if wins { i64::from(n) } else { -i64::from(n) });
            json!({
                "score": if end.is_some() { None } else { Some(score) },
                "moves_to_end": end,
                "text": score_text(*score),
                "moves": moves,
            })
        })
        .collect();
    json!({ "type": "lines", "id": id, "depth": r.depth, "nodes": r.nodes, "ms": r.millis, "lines": lines }).to_string()
}

/// Runs one analysis for `client`, sending its frames to `out`; returns when it ends,
/// is stopped, or gives its searcher up to other clients (after [`SHARE`]).
async fn run(
    pool: Arc<EnginePool>,
    client: String,
    job: Job,
    seconds: u64,
    stop: Arc<AtomicBool>,
    out: mpsc::Sender<String>,
) {
    let id = job.id;
    if pool.busy() {
        let _ = out.send(json!({ "type": "queued", "id": id }).to_string()).await;
    }
    let limits = Limits { hard_time: Some(Duration::from_secs(seconds.max(1))), ..Limits::default() };
    let tx = out.clone();
    let searching = Arc::new(std::sync::OnceLock::<std::time::Instant>::new());
    let began = searching.clone();
    let report = move |r: &LinesReport| {
        let _ = began.set(std::time::Instant::now());
        let _ = tx.blocking_send(lines_frame(id, r));
    };
    let started = std::time::Instant::now();
    let (yielded, search_stop) = (Arc::new(AtomicBool::new(false)), stop.clone());
    let analysis = pool.analyse(&client, job.variant, job.fen, job.moves, job.lines, limits, stop.clone(), report);
    tokio::pin!(analysis);
    let done = loop {
        tokio::select! {
            d = &mut analysis => break d,
            () = tokio::time::sleep(Duration::from_millis(250)) => {
                // Stopped by its page (a new position, "stop", the page gone) before
                // it ran: it leaves the queue at once.
                if search_stop.load(Ordering::Relaxed) && !yielded.load(Ordering::Relaxed) && searching.get().is_none() {
                    return;
                }
                let long = searching.get().is_some_and(|t| t.elapsed() >= SHARE);
                if long && pool.others_waiting(&client) > 0 && !search_stop.load(Ordering::Relaxed) {
                    yielded.store(true, Ordering::Relaxed);
                    search_stop.store(true, Ordering::Relaxed);
                }
            }
        }
    };
    crate::metrics::seconds("dama_analysis_seconds", started.elapsed());
    let frame = match done {
        Ok(()) if yielded.load(Ordering::Relaxed) => json!({ "type": "done", "id": id, "shared": true }),
        Ok(()) if stop.load(Ordering::Relaxed) => return,
        Ok(()) => json!({ "type": "done", "id": id }),
        Err(e) => json!({ "type": "error", "id": id, "message": e.to_string() }),
    };
    let _ = out.send(frame.to_string()).await;
}

/// `GET /api/analysis/ws`: 429 when the address (or the account) has
/// `analysis_per_client` analysis sockets open already.
pub async fn websocket(
    State(st): State<Services>,
    PeerIp(ip): PeerIp,
    Me(me): Me,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if st.shutting_down() {
        return Err(ApiError::Gone);
    }
    let cap = st.limits.analysis_per_client();
    let too_many = || ApiError::TooMany(format!("at most {cap} analysis boards at once from one address or account"));
    let by_address = st.analysis_sockets.take(format!("ip:{ip}"), cap).ok_or_else(too_many)?;
    let by_account = match &me {
        Some(a) => Some(st.analysis_sockets.take(format!("account:{}", a.id), cap).ok_or_else(too_many)?),
        None => None,
    };
    // Searches wait their turn by account when logged in, else by address.
    let client = me.map_or_else(|| format!("ip:{ip}"), |a| format!("account:{}", a.id));
    let pool = st.analysis.clone();
    let ctx = st.clone();
    let seconds = ctx.limits.analysis_seconds();
    Ok(crate::ws::configure(upgrade, &ctx.limits).on_upgrade(move |mut socket| async move {
        let _held = (by_address, by_account);
        let (tx, mut rx) = mpsc::channel::<String>(8);
        // The search under way: dropping its guard stops it.
        let mut current: Option<StopOnDrop> = None;
        let stopping = ctx.until_shutdown();
        tokio::pin!(stopping);
        loop {
            tokio::select! {
                m = socket.recv() => {
                    let text = match m {
                        Some(Ok(Message::Text(t))) => t,
                        Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                        Some(Ok(_)) => continue,
                    };
                    let reply = match serde_json::from_str::<Request>(text.as_str()) {
                        Ok(Request::Stop) => {
                            current = None;
                            None
                        }
                        Ok(Request::Analyse { id, variant, fen, moves, lines }) => {
                            current = None;
                            match check(id, &variant, &fen, moves, lines) {
                                Ok(job) => {
                                    let stop = Arc::new(AtomicBool::new(false));
                                    current = Some(StopOnDrop(stop.clone()));
                                    tokio::spawn(run(pool.clone(), client.clone(), job, seconds, stop, tx.clone()));
                                    None
                                }
                                Err(e) => Some(json!({ "type": "error", "id": id, "message": e })),
                            }
                        }
                        Err(e) => Some(json!({ "type": "error", "message": format!("bad frame: {e}") })),
                    };
                    if let Some(r) = reply {
                        if socket.send(Message::Text(r.to_string().into())).await.is_err() {
                            break;
                        }
                    }
                }
                Some(frame) = rx.recv() => {
                    if socket.send(Message::Text(frame.into())).await.is_err() {
                        break;
                    }
                }
                _ = &mut stopping => {
                    let _ = socket.send(crate::ws::restarting()).await;
                    break;
                }
            }
        }
        drop(current);
    }))
}
