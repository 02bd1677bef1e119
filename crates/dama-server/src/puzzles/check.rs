//! `POST /api/puzzles/{id}/check`: the server judges a solver's move. The moves of the
//! puzzle's line are the line's; another move is judged by the engine
//! ([`dama_engine::puzzle::judge`]) on a searcher of the analysis pool, within the
//! node budget the puzzles are found with (`puzzle_nodes`): accepted when it keeps the
//! best move's outcome, and the puzzle then goes on with the engine's line, or ends
//! when its point is made.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use dama_core::any::AnyGame;
use dama_core::game::DrawRules;
use dama_core::Variant;
use dama_engine::puzzle::MAX_PLIES;
use dama_engine::search::Limits;
use serde::{Deserialize, Serialize};

use crate::accounts::Me;
use crate::error::ApiError;
use crate::extract::{parse, PeerIp};
use crate::pool::StopOnDrop;
use crate::state::Services;

/// What `POST /api/puzzles/{id}/check` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// The moves played from the puzzle's position (long notation): the solver's and
    /// the replies, the solver's move to judge last.
    moves: Vec<String>,
}

/// What became of the solver's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The puzzle's own line.
    Line,
    /// Another move that keeps the outcome.
    Accepted,
    /// A move that gives the win or the material up.
    Refused,
}

/// The answer of `POST /api/puzzles/{id}/check`.
#[derive(Clone, Debug, Serialize)]
pub struct Checked {
    /// What became of the move.
    pub verdict: Verdict,
    /// The puzzle ends here, solved (its point is made).
    pub solved: bool,
    /// How the puzzle goes on (long notation): the opponent's reply, then the
    /// solver's moves and the replies; empty when it ends.
    pub line: Vec<String>,
    /// The engine's score of the move for the solver, hundredths of a man (when the
    /// engine judged it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// The engine's score of the best move, searched within the same budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<i32>,
}

/// A stored line up to its point (a line kept whole by an older server, or found with
/// another budget, ends where its material is won); a line that does not replay is
/// offered as it is.
pub(crate) fn offered_line(variant: Variant, fen: &str, stored: &str) -> Vec<String> {
    let line: Vec<String> = stored.split(' ').map(String::from).collect();
    dama_engine::puzzle::line_to_point(variant, fen, &line).unwrap_or(line)
}

/// `POST /api/puzzles/{id}/check {"moves"}` → [`Checked`]. 400 for moves that are not
/// legal from the puzzle's position or do not end with a solver's move, 404 for an
/// unknown puzzle, 429 when the engine is busy.
pub async fn check(
    State(st): State<Services>,
    PeerIp(ip): PeerIp,
    Me(me): Me,
    Path(id): Path<String>,
    body: String,
) -> Result<Json<Checked>, ApiError> {
    let req: CheckRequest = parse(&body)?;
    let p = st.store.puzzle(&id).await?.ok_or_else(|| ApiError::NotFound(id.chars().take(40).collect()))?;
    let variant = crate::analysis::variant_named(&p.variant)?;
    let n = req.moves.len();
    if n % 2 == 0 || n > MAX_PLIES {
        return Err(ApiError::BadRequest(format!(
            "moves: the solver's moves and the replies, the solver's last: an odd number up to {MAX_PLIES}"
        )));
    }
    // The moves as the line writes them (long notation), each legal.
    let mut game = AnyGame::new(variant, Some(&p.fen), DrawRules::default()).map_err(|_| ApiError::Internal)?;
    let mut moves = Vec::with_capacity(n);
    for m in &req.moves {
        let v = game
            .play(m)
            .map_err(|e| ApiError::BadRequest(format!("moves: {}: {e}", m.chars().take(40).collect::<String>())))?;
        moves.push(v.long);
    }
    let line = offered_line(variant, &p.fen, &p.line);
    if line.get(..n) == Some(&moves[..]) {
        let rest = line[n..].to_vec();
        return Ok(Json(Checked {
            verdict: Verdict::Line,
            solved: rest.is_empty(),
            line: rest,
            score: None,
            best: None,
        }));
    }
    let limits = Limits { nodes: Some(st.limits.puzzle_nodes()), ..Limits::default() };
    let stop = Arc::new(AtomicBool::new(false));
    // A request that goes away stops its search.
    let _stop = StopOnDrop(stop.clone());
    let client = me.map_or_else(|| format!("ip:{ip}"), |a| format!("account:{}", a.id));
    let judged = st
        .analysis
        .with_searcher(&client, variant, p.fen.clone(), moves, stop, move |e, _| e.judge_puzzle(&line, limits))
        .await?
        .ok_or(ApiError::Internal)?
        .map_err(|e| {
            tracing::error!(puzzle = %id, error = %e, "judging a puzzle move");
            ApiError::Internal
        })?;
    let verdict = if judged.accepted { Verdict::Accepted } else { Verdict::Refused };
    Ok(Json(Checked {
        verdict,
        solved: judged.solved,
        line: judged.line,
        score: Some(judged.score),
        best: Some(judged.best),
    }))
}
