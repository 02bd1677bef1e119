//! Game reports: after a game, the engine reviews every move at a fixed budget, and the
//! page draws the evaluation over the game, marks inaccuracies, mistakes and blunders
//! with the better move, and gives each player an accuracy.
//!
//! `POST /api/games/{id}/report` asks for one (queued on the analysis pool; the answer
//! says where it stands), `GET` reads it: `{"state": "none" | "queued" | "running" |
//! "failed" | "done", "done", "total", "report"}`. A report is kept with the game and
//! shown to whoever can see the game. In a cluster, the node that took the request
//! makes the report; the others see it once it is stored.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use dama_core::game::DrawRules;
use dama_core::Color;
use dama_engine::review::judge;
use dama_engine::search::{plies_to_end, Limits};
use serde::Serialize;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::extract::PeerIp;
use crate::protocol::Phase;
use crate::services::reports::Job;
use crate::state::Services;

pub use crate::services::reports::Reports;

/// One move of a report.
#[derive(Serialize)]
struct PlyOut {
    /// 1-based.
    ply: usize,
    /// "white" or "black": who played it.
    color: String,
    /// The move, short notation.
    notation: String,
    /// The engine's choice when it differs, short notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    best: Option<String>,
    /// That choice's squares, origin first (for an arrow on the board).
    #[serde(skip_serializing_if = "Option::is_none")]
    best_path: Option<Vec<String>>,
    /// The engine's line from that choice on, short notation (the choice first).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    line: Vec<String>,
    /// `inaccuracy`, `mistake` or `blunder`.
    #[serde(skip_serializing_if = "Option::is_none")]
    judgment: Option<&'static str>,
    /// Winning chances given away (0 to 2).
    loss: f64,
}

/// A player's side of a report.
#[derive(Serialize, Default)]
struct SideOut {
    accuracy: f64,
    inaccuracy: usize,
    mistake: usize,
    blunder: usize,
}

/// A report as stored and sent.
#[derive(Serialize)]
struct ReportOut {
    /// Nodes searched per position.
    nodes: u64,
    /// The evaluation of each position (the start, then after each move) for White, in
    /// hundredths of a man, within ±2000; a known end is ±2000.
    scores: Vec<i32>,
    /// For a known end, in how many moves of the side to move it comes (positive when
    /// that side wins); null for an evaluation.
    ends: Vec<Option<i32>>,
    plies: Vec<PlyOut>,
    white: SideOut,
    black: SideOut,
}

/// Builds a report from the engine's scores: `scores[i]` for the side to move in the
/// position before ply `i + 1` (the last one after the last move), and its best line
/// (long notation).
fn build(
    session: &mut dama_core::any::AnyGame,
    moves: &[String],
    scores: &[(i32, Vec<String>)],
    nodes: u64,
) -> Result<ReportOut, String> {
    let mut out = ReportOut {
        nodes,
        scores: Vec::new(),
        ends: Vec::new(),
        plies: Vec::new(),
        white: SideOut::default(),
        black: SideOut::default(),
    };
    let mut sides: Vec<Color> = Vec::new();
    let mut accuracy = [Vec::new(), Vec::new()];
    for (i, (score, line)) in scores.iter().enumerate() {
        let best = line.first();
        let side = session.side();
        sides.push(side);
        let white = if side == Color::White { *score } else { -*score };
        let end = plies_to_end(*score).map(|p| (p + p.signum()) / 2);
        out.scores.push(if end.is_some() { 2000 * white.signum() } else { white.clamp(-2000, 2000) });
        out.ends.push(end);
        let Some(played) = moves.get(i) else { break };
        let Some((after, _)) = scores.get(i + 1) else { break };
        let legal = session.legal();
        let best_view = best.and_then(|b| legal.iter().find(|m| &m.long == b));
        let is_best = best_view.is_some_and(|b| &b.long == played);
        let r = judge(*score, *after, is_best);
        let line = if is_best || best_view.is_none() { Vec::new() } else { short_line(session, line) };
        let v = session.play_recorded(played)?;
        let s = if side == Color::White { &mut out.white } else { &mut out.black };
        match r.judgment.map(|j| j.key()) {
            Some("inaccuracy") => s.inaccuracy += 1,
            Some("mistake") => s.mistake += 1,
            Some(_) => s.blunder += 1,
            None => {}
        }
        accuracy[side.index()].push(r.accuracy);
        out.plies.push(PlyOut {
            ply: i + 1,
            color: side.to_string(),
            notation: v.notation,
            best: if is_best { None } else { best_view.map(|b| b.notation.clone()) },
            best_path: if is_best { None } else { best_view.map(|b| b.path.clone()) },
            line,
            judgment: r.judgment.map(|j| j.key()),
            loss: (r.loss * 1000.0).round() / 1000.0,
        });
    }
    let mean =
        |v: &[f64]| if v.is_empty() { 0.0 } else { (v.iter().sum::<f64>() / v.len() as f64 * 10.0).round() / 10.0 };
    out.white.accuracy = mean(&accuracy[Color::White.index()]);
    out.black.accuracy = mean(&accuracy[Color::Black.index()]);
    Ok(out)
}

/// Makes the report of game `id` for `client` (who asked: the engine's turn is theirs)
/// and stores it.
/// A line in long notation from the game's position now, in short notation (as far as
/// its moves are legal).
fn short_line(game: &dama_core::any::AnyGame, line: &[String]) -> Vec<String> {
    let mut g = game.clone();
    line.iter().map_while(|m| g.play_recorded(m).ok().map(|v| v.notation)).collect()
}

async fn make(st: Services, id: String, client: String) -> Result<(), String> {
    let store = &st.store;
    let row = store.game(&id).await.map_err(|e| e.to_string())?.ok_or("the game is gone")?;
    let moves: Vec<String> =
        store.moves(&id).await.map_err(|e| e.to_string())?.into_iter().map(|m| m.notation).collect();
    let variant = row.variant;
    let nodes = st.limits.report_nodes();
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let reports = st.reports.clone();
    let key = id.clone();
    let (fen, played) = (row.start_fen.clone(), moves.clone());
    let stop = Arc::new(AtomicBool::new(false));
    let scores = st
        .analysis
        .with_searcher(&client, variant, fen, played, stop, move |p, stop| {
            p.review(limits, stop, &mut |done, total| reports.set(&key, Some(Job::Running { done, total })))
        })
        .await
        .map_err(|e| e.to_string())?
        .ok_or("stopped")?;
    let mut session =
        dama_core::any::AnyGame::new(variant, Some(&row.start_fen), DrawRules::default()).map_err(|e| e.to_string())?;
    let report = build(&mut session, &moves, &scores, nodes)?;
    let text = serde_json::to_string(&report).map_err(|e| e.to_string())?;
    store.save_report(&id, &text, crate::game::now_ms()).await.map_err(|e| e.to_string())?;
    // After a mistake or a blunder the opponent may have one winning move: a puzzle.
    let after: Vec<usize> =
        report.plies.iter().filter(|p| matches!(p.judgment, Some("mistake" | "blunder"))).map(|p| p.ply).collect();
    if !after.is_empty() {
        let nodes = st.limits.puzzle_nodes();
        let n = crate::puzzles::scan_game(
            &st.analysis,
            store,
            variant,
            row.start_fen.clone(),
            moves,
            Some(after),
            format!("game:{id}"),
            nodes,
        )
        .await;
        tracing::debug!(game = %id, puzzles = n, "puzzles from a game report");
    }
    Ok(())
}

/// What a client sees of the report of `id`.
async fn state(st: &Services, id: &str) -> Result<Value, ApiError> {
    if let Some(text) = st.store.report(id).await? {
        let report: Value = serde_json::from_str(&text).map_err(|_| ApiError::Internal)?;
        return Ok(json!({ "state": "done", "report": report }));
    }
    Ok(match st.reports.get(id) {
        None => json!({ "state": "none" }),
        Some(Job::Queued) => json!({ "state": "queued" }),
        Some(Job::Running { done, total }) => json!({ "state": "running", "done": done, "total": total }),
        Some(Job::Failed(why)) => json!({ "state": "failed", "error": why }),
    })
}

/// `GET /api/games/{id}/report`.
pub async fn get(State(st): State<Services>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    if st.store.game(&id).await?.is_none() {
        return Err(ApiError::NotFound(id.chars().take(40).collect()));
    }
    state(&st, &id).await.map(Json)
}

/// `POST /api/games/{id}/report`: queues the report of a finished game (once: a
/// report asked for already is shared, its state answered). One address has at most
/// `reports_per_address` reports queued or running (429 past it).
pub async fn request(
    State(st): State<Services>,
    PeerIp(ip): PeerIp,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let row = st.store.game(&id).await?.ok_or_else(|| ApiError::NotFound(id.chars().take(40).collect()))?;
    if row.state.status != Phase::Finished {
        return Err(ApiError::Conflict("a game is reviewed once it is finished".into()));
    }
    let now = state(&st, &id).await?;
    if matches!(now["state"].as_str(), Some("done" | "queued" | "running")) {
        return Ok(Json(now));
    }
    let cap = st.limits.reports_per_address();
    let Some(held) = st.reports.by_address.take(ip, cap) else {
        return Err(ApiError::TooMany(format!(
            "at most {cap} game reports at once from one address; wait for yours to finish"
        )));
    };
    if !st.reports.enter(&id) {
        return Err(ApiError::TooMany("the engine is reviewing many games now; please try again in a moment".into()));
    }
    let (job_state, key) = (st.clone(), id.clone());
    tokio::spawn(async move {
        let _held = held;
        let started = std::time::Instant::now();
        match make(job_state.clone(), key.clone(), format!("ip:{ip}")).await {
            Ok(()) => {
                tracing::info!(game = %key, ms = started.elapsed().as_millis() as u64, "game report made");
                job_state.reports.set(&key, None);
            }
            Err(why) => {
                tracing::warn!(game = %key, error = %why, "game report failed");
                job_state.reports.set(&key, Some(Job::Failed(why)));
            }
        }
    });
    state(&st, &id).await.map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thrown_man_is_a_blunder_with_the_better_move_named() {
        // English from the start: 11-15, then White's 22-18?? gives a man away (15x22).
        let mut s = dama_core::any::AnyGame::new(dama_core::Variant::English, None, DrawRules::default()).unwrap();
        let moves = ["11-15".to_string(), "22-18".to_string(), "15x22".to_string()];
        // Scores for the side to move before each move, and after the last: level,
        // level, a man down for Black to move... as an engine would give them.
        let line = |l: &[&str]| l.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        let scores = vec![
            (5, line(&["11-15"])),
            (0, line(&["23-19", "8-11", "22-17"])),
            (120, line(&["15x22"])),
            (-110, Vec::new()),
        ];
        let r = build(&mut s, &moves, &scores, 1000).unwrap();
        assert_eq!(r.plies.len(), 3);
        assert_eq!(r.plies[0].judgment, None);
        assert_eq!((r.plies[1].judgment, r.plies[1].best.as_deref()), (Some("blunder"), Some("23-19")));
        assert_eq!(r.plies[1].color, "white");
        // The better move's squares (for the board's arrow) and the line from it.
        assert_eq!(r.plies[1].best_path.as_deref(), Some(&["23".to_string(), "19".to_string()][..]));
        assert_eq!(r.plies[1].line, ["23-19", "8-11", "22-17"]);
        assert!(r.plies[0].line.is_empty() && r.plies[0].best_path.is_none());
        assert_eq!((r.white.blunder, r.black.blunder), (1, 0));
        assert!(r.white.accuracy < r.black.accuracy);
        // Scores for White: Black (first to move in English) is 0.05 up, then White
        // stands 1.2 down after its blunder.
        assert_eq!(r.scores, vec![-5, 0, -120, -110]);
    }
}
