//! Puzzles from real games: positions where exactly one move wins material or the
//! game ([`dama_engine::puzzle`]), found by the engine in the bundled collections (in
//! the background, once per database, game by game) and in the games of the site (the
//! positions after the mistakes and blunders a game report finds).
//!
//! `GET /api/puzzles/next?variant=V` offers a puzzle near the solver's rating with its
//! winning line up to its point (the move that wins the material; the page plays the
//! line), `POST /api/puzzles/{id}/check` judges a move off the line ([`check`]: the
//! engine accepts another move that keeps the outcome), and
//! `POST /api/puzzles/{id}/attempt` counts an attempt: the puzzle's rating and the
//! solver's move as two Elo players' would (K 16 for the puzzle, 32 for the solver).
//!
//! The server keeps every solver's rating per variant: an account's, or a visitor's,
//! known by a random visitor cookie that `next` gives. Only a solver's first attempt
//! at a puzzle counts, a rating a client sends is ignored, ratings stay within
//! [`BOUNDS`], and one address moves puzzles' ratings at most
//! `puzzle_attempts_per_minute` times a minute.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use dama_core::any::AnyGame;
use dama_core::pdn::PdnReader;
use dama_core::Variant;
use dama_engine::search::Limits;
use rand::seq::SliceRandom;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts::Me;
use crate::error::ApiError;
use crate::extract::{parse, PeerIp};
use crate::pool::EnginePool;
use crate::state::Services;
use crate::store::{AttemptOf, PuzzleRow, RatingRules, Store};

mod check;

pub use check::{check, CheckRequest, Checked, Verdict};

/// A new puzzle's rating, and a new solver's.
pub const START_RATING: i64 = 1500;
/// The lowest and highest rating of a puzzle or a solver.
pub const BOUNDS: (i64, i64) = (100, 3500);
pub use crate::accounts::VISITOR;

/// A stable 64-bit hash (FNV-1a) of a puzzle's variant and position: its id.
fn id_of(variant: Variant, fen: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in variant.key().bytes().chain(fen.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Looks for puzzles in a game (the positions at `plies`, or all from the eighth) on a
/// searcher of `pool`, keeps those found under `source`; returns how many.
#[allow(clippy::too_many_arguments)]
pub async fn scan_game(
    pool: &Arc<EnginePool>,
    store: &Store,
    variant: Variant,
    fen: String,
    moves: Vec<String>,
    plies: Option<Vec<usize>>,
    source: String,
    nodes: u64,
) -> usize {
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let stop = Arc::new(AtomicBool::new(false));
    let found = pool
        .with_searcher("puzzles", variant, fen, moves, stop, move |p, stop| {
            p.find_puzzles(limits, plies.as_deref(), stop)
        })
        .await;
    let Ok(Some(found)) = found else { return 0 };
    let mut kept = 0;
    for (fen, line) in found {
        let row = PuzzleRow {
            id: id_of(variant, &fen),
            variant: variant.key().to_string(),
            line: line.join(" "),
            fen,
            source: source.clone(),
            rating: START_RATING,
            attempts: 0,
            solved: 0,
        };
        match store.add_puzzle(&row).await {
            Ok(()) => kept += 1,
            Err(e) => tracing::warn!(error = %crate::error::Chain(&e), "keeping a puzzle"),
        }
    }
    kept
}

/// The start and moves (long notation) of each game of a text that replays.
fn games_of(variant: Variant, text: &str) -> Vec<(String, Vec<String>)> {
    PdnReader::new(text.as_bytes())
        .flatten()
        .filter_map(|g| AnyGame::replay(variant, &g).ok())
        .map(|r| (r.game.start_fen(), r.game.moves().to_vec()))
        .collect()
}

/// Scans the bundled collections for puzzles, one game at a time, each game once per
/// database (a restart goes on where the last run stopped).
pub async fn scan_bundled(pool: Arc<EnginePool>, store: Store, nodes: u64) {
    for c in crate::explorer::BUNDLED {
        let (name, variant) = (c.name, c.variant);
        let games = tokio::task::spawn_blocking(move || games_of(variant, &crate::explorer::pdn_of(c.text, c.json)))
            .await
            .unwrap_or_default();
        for (i, (fen, moves)) in games.into_iter().enumerate().take(c.puzzle_games) {
            let source = format!("collection:{name}:{}", i + 1);
            match store.mark_done(&format!("puzzles:{source}")).await {
                Ok(true) => {
                    let n = scan_game(&pool, &store, variant, fen, moves, None, source.clone(), nodes).await;
                    tracing::debug!(source = %source, puzzles = n, "puzzles: a game scanned");
                }
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(error = %crate::error::Chain(&e), "puzzles: scanning the collections");
                    return;
                }
            }
        }
    }
}

/// What `GET /api/puzzles/next` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    variant: String,
    /// Read for older pages, and ignored: the server keeps the solver's rating.
    #[serde(default)]
    #[allow(dead_code)]
    rating: Option<i64>,
    /// The puzzle just played, not to be offered again at once.
    #[serde(default)]
    after: Option<String>,
}

/// A puzzle as `next` offers it: its line up to its point.
fn puzzle_json(variant: Variant, p: &PuzzleRow) -> Value {
    json!({
        "id": p.id, "variant": p.variant, "fen": p.fen, "line": check::offered_line(variant, &p.fen, &p.line),
        "rating": p.rating, "attempts": p.attempts, "solved": p.solved, "source": p.source,
    })
}

/// Who solves: an account (`account:ID`) or a visitor (`visitor:HASH` of the visitor
/// cookie); `None` for a client that has neither.
fn solver_of(me: &Option<crate::store::AccountRow>, headers: &HeaderMap) -> Option<String> {
    if let Some(a) = me {
        return Some(format!("account:{}", a.id));
    }
    crate::accounts::cookie(headers, VISITOR).map(|t| format!("visitor:{}", crate::secret::hash(&t)))
}

/// `GET /api/puzzles/next?variant=V&after=ID`: one of the puzzles nearest the solver's
/// rating, at random, and that rating: `{"puzzle": ..., "rating": R}` (`"puzzle":
/// null` when the variant has none yet). A client with neither an account nor a
/// visitor cookie gets a visitor cookie.
pub async fn next(
    State(st): State<Services>,
    Me(me): Me,
    headers: HeaderMap,
    Query(q): Query<NextQuery>,
) -> Result<Response, ApiError> {
    let variant = crate::analysis::variant_named(&q.variant)?;
    let mut new_visitor = None;
    let solver = match solver_of(&me, &headers) {
        Some(s) => s,
        None => {
            let t = crate::secret::token();
            let s = format!("visitor:{}", crate::secret::hash(&t));
            new_visitor = Some(t);
            s
        }
    };
    let rating = st.store.solver_rating(&solver, variant.key()).await?.unwrap_or(START_RATING);
    let near = st.store.puzzles_near(variant.key(), rating, 12).await?;
    let choice: Vec<&PuzzleRow> = near.iter().filter(|p| Some(&p.id) != q.after.as_ref()).collect();
    let pick = choice.choose(&mut rand::thread_rng()).copied().or(near.first());
    let body = Json(json!({ "puzzle": pick.map(|p| puzzle_json(variant, p)), "rating": rating }));
    Ok(match new_visitor {
        Some(t) => {
            let secure = crate::accounts::over_tls(&headers, &st.limits);
            let cookie = crate::accounts::cookie_value(VISITOR, &t, 365 * 24 * 3600, secure);
            ([(header::SET_COOKIE, cookie)], body).into_response()
        }
        None => body.into_response(),
    })
}

/// What `POST /api/puzzles/{id}/attempt` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    solved: bool,
    /// Read for older pages, and ignored: the server keeps the solver's rating.
    #[serde(default)]
    #[allow(dead_code)]
    rating: Option<serde_json::Value>,
}

/// The Elo changes of an attempt: (solver's, puzzle's).
pub fn rating_changes(solver: i64, puzzle: i64, solved: bool) -> (i64, i64) {
    let expected = 1.0 / (1.0 + 10f64.powf((puzzle - solver) as f64 / 400.0));
    let score = if solved { 1.0 } else { 0.0 };
    ((32.0 * (score - expected)).round() as i64, (-16.0 * (score - expected)).round() as i64)
}

/// `POST /api/puzzles/{id}/attempt {"solved"}`: counts the solver's first attempt at
/// the puzzle → `{"rating", "change", "puzzle_rating", "counted"}` (a later attempt
/// at the same puzzle answers `"counted": false` and changes nothing). 403 for a
/// client with neither an account nor a visitor cookie.
pub async fn attempt(
    State(st): State<Services>,
    PeerIp(ip): PeerIp,
    Me(me): Me,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: String,
) -> Result<Json<Value>, ApiError> {
    let a: Attempt = parse(&body)?;
    let Some(solver) = solver_of(&me, &headers) else {
        return Err(ApiError::Forbidden("an attempt counts for a solver: open the puzzle on this site first".into()));
    };
    let p = st.store.puzzle(&id).await?.ok_or_else(|| ApiError::NotFound(id.chars().take(40).collect()))?;
    let moves_puzzle = || st.puzzle_attempts.allow(ip);
    let attempt = AttemptOf { solver: &solver, puzzle: &p, solved: a.solved, at_ms: crate::game::now_ms() };
    let rules = RatingRules { start: START_RATING, bounds: BOUNDS };
    let changes = |me, it| rating_changes(me, it, a.solved);
    let done = st.store.puzzle_attempt(attempt, rules, changes, moves_puzzle).await?;
    Ok(Json(json!({
        "rating": done.rating,
        "change": done.change,
        "puzzle_rating": done.puzzle_rating,
        "counted": done.counted,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_move_as_elo_says() {
        // Equal ratings: half of K either way.
        assert_eq!(rating_changes(1500, 1500, true), (16, -8));
        assert_eq!(rating_changes(1500, 1500, false), (-16, 8));
        // Solving a much harder puzzle gains more than an easy one.
        assert!(rating_changes(1200, 1800, true).0 > rating_changes(1800, 1200, true).0);
        assert_eq!(id_of(Variant::English, "B:W1:B2"), id_of(Variant::English, "B:W1:B2"));
        assert_ne!(id_of(Variant::English, "B:W1:B2"), id_of(Variant::Russian, "B:W1:B2"));
    }
}
