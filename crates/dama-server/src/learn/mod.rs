//! The Learn section: short lessons for each rulebook, a beginner's first steps on a
//! real board (how men move, capturing and its rules, crowning, kings, the draw rules),
//! then [`lessons::PRACTICE`] practice positions ("find the winning shot").
//!
//! The lessons are data (`lessons.json`: positions on an 8x8 lesson board, each with
//! its goal and the rules it applies to, named in each variant's notation when read);
//! the practice positions too (`practice.json`, found and checked by the engine, see
//! the tests). The server judges every move with the rules of `dama_core`
//! ([`check::judge`]): an illegal move is refused with the rule it breaks, exactly as a
//! game refuses it (`illegal_move`, its `arg` naming the reason).
//!
//! - `GET /api/learn`: how many lessons each rulebook has.
//! - `GET /api/learn/{variant}`: the lessons and practice positions of a rulebook.
//! - `POST /api/learn/check {"variant", "lesson", "moves"}`: judges the learner's moves.
//! - `GET /api/learn/progress`, `POST /api/learn/progress {"done": {variant: [id]}}`:
//!   the completed lessons of the logged-in account (401 without one); the page sends
//!   the browser's own on logging in, and each lesson completed.

pub mod check;
pub mod lessons;
pub mod rules;

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::Json;
use dama_core::Variant;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts::Me;
use crate::analysis::variant_named;
use crate::error::ApiError;
use crate::extract::parse;
use crate::state::Services;

pub use check::{judge, Judged, Verdict};
pub use lessons::{Goal, Lesson};

/// A rulebook's lessons, or 500 when the data does not read (the tests read it all).
fn lessons_of(variant: Variant) -> Result<&'static [Lesson], ApiError> {
    lessons::of(variant).map_err(|e| {
        tracing::error!(error = %e, "the Learn section's data");
        ApiError::Internal
    })
}

/// `GET /api/learn` → `{"variants": {variant: n}}`: how many lessons and practice
/// positions each rulebook has.
pub async fn index() -> Result<Json<Value>, ApiError> {
    let mut counts = serde_json::Map::new();
    for v in Variant::ALL {
        counts.insert(v.key().to_string(), lessons_of(v)?.len().into());
    }
    Ok(Json(json!({ "variants": counts })))
}

/// `GET /api/learn/{variant}` → `{"variant", "lessons": [{"id", "practice", "fen",
/// "goal", "moves"}]}`: the lessons, then the practice positions.
pub async fn variant(Path(key): Path<String>) -> Result<Json<Value>, ApiError> {
    let v = variant_named(&key)?;
    Ok(Json(json!({ "variant": v.key(), "lessons": lessons_of(v)? })))
}

/// What `POST /api/learn/check` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    variant: String,
    /// The lesson's id.
    lesson: String,
    /// The learner's moves from the lesson's position, the one to judge last (the
    /// replies are the lesson's).
    moves: Vec<String>,
}

/// `POST /api/learn/check` → [`Judged`]; 400 `illegal_move` with the rule a move
/// breaks, 404 for an unknown lesson.
pub async fn check(body: String) -> Result<Json<Judged>, ApiError> {
    let req: CheckRequest = parse(&body)?;
    let v = variant_named(&req.variant)?;
    let lesson = lessons_of(v)?.iter().find(|l| l.id == req.lesson).ok_or_else(|| {
        ApiError::NoRoute(format!("/learn/{}/{}", v.key(), req.lesson.chars().take(40).collect::<String>()))
    })?;
    if req.moves.iter().any(|m| m.len() > 200) {
        return Err(ApiError::BadRequest("moves: a move of over 200 characters".into()));
    }
    // The engine may answer for the opponent: off the async threads.
    let moves = req.moves;
    tokio::task::spawn_blocking(move || judge(v, lesson, &moves)).await.map_err(|_| ApiError::Internal)?.map(Json)
}

/// Progress as the API writes it: each rulebook's completed lessons.
fn progress_json(rows: Vec<(String, String)>) -> Value {
    let mut by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (v, item) in rows {
        by.entry(v).or_default().push(item);
    }
    json!({ "done": by })
}

fn account(me: Me) -> Result<crate::store::AccountRow, ApiError> {
    me.0.ok_or_else(|| ApiError::Unauthorized("log in to keep your progress on your account".into()))
}

/// `GET /api/learn/progress` → `{"done": {variant: [id]}}` of the logged-in account.
pub async fn progress(State(st): State<Services>, me: Me) -> Result<Json<Value>, ApiError> {
    let a = account(me)?;
    Ok(Json(progress_json(st.store.learn_progress(&a.id).await?)))
}

/// What `POST /api/learn/progress` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressRequest {
    /// Completed lessons by rulebook.
    done: BTreeMap<String, Vec<String>>,
}

/// The most lessons one request marks (every lesson of every rulebook fits).
const MOST: usize = 1000;

/// `POST /api/learn/progress {"done": {variant: [id]}}`: marks lessons completed on
/// the account (kept with those already there) → the account's whole progress. 400
/// for an unknown rulebook or lesson.
pub async fn save_progress(State(st): State<Services>, me: Me, body: String) -> Result<Json<Value>, ApiError> {
    let a = account(me)?;
    let req: ProgressRequest = parse(&body)?;
    let mut done = Vec::new();
    for (key, ids) in &req.done {
        let v = variant_named(key)?;
        let list = lessons_of(v)?;
        for id in ids {
            if !list.iter().any(|l| &l.id == id) {
                let id: String = id.chars().take(40).collect();
                return Err(ApiError::BadRequest(format!("done: {key} has no lesson \"{id}\"")));
            }
            done.push((v.key().to_string(), id.clone()));
        }
    }
    if done.len() > MOST {
        return Err(ApiError::BadRequest(format!("done: at most {MOST} lessons at once")));
    }
    st.store.add_learn_progress(&a.id, &done, crate::game::now_ms()).await?;
    Ok(Json(progress_json(st.store.learn_progress(&a.id).await?)))
}
