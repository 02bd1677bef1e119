//! `GET /api/leaderboard`: the top 100 of a rating pool (a variant under its official
//! rules, or under a seed rulebook) in a speed class — established ratings (not
//! provisional) of players active in the last [`ACTIVE_DAYS`] days.

use axum::extract::{Query, State};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::error::ApiError;
use crate::rating::Speed;
use crate::rating_pool::Pool;
use crate::state::Services;

/// A player is on the boards while their last rated game there is this recent.
pub const ACTIVE_DAYS: i64 = 28;

/// Players shown on a board.
pub const BOARD_SIZE: i64 = 100;

/// The oldest last game that keeps a player on the boards, for a time `now_ms`.
pub fn active_since(now_ms: i64) -> i64 {
    now_ms - ACTIVE_DAYS * 86_400_000
}

/// What `GET /api/leaderboard` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardQuery {
    /// The pool: `english`, `english-seed001`, ... (default `english`).
    #[serde(default)]
    pool: Option<String>,
    /// The speed class (default `blitz`).
    #[serde(default)]
    speed: Option<String>,
}

/// `GET /api/leaderboard?pool=P&speed=S` → `{pool, speed, active_days, players: [{rank,
/// name, rating, rd, games}]}`, best first; 400 for an unknown pool or class.
pub async fn board(
    State(st): State<Services>,
    Query(q): Query<BoardQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let pool_key = q.pool.unwrap_or_else(|| "english".into());
    let pool = Pool::from_key(&pool_key).ok_or_else(|| {
        ApiError::BadRequest(format!("unknown rating pool \"{}\"", pool_key.chars().take(40).collect::<String>()))
    })?;
    let speed_key = q.speed.unwrap_or_else(|| "blitz".into());
    let speed = Speed::from_key(&speed_key).ok_or_else(|| {
        ApiError::BadRequest(format!("unknown speed class \"{}\"", speed_key.chars().take(40).collect::<String>()))
    })?;
    let since = active_since(crate::clock::now_ms());
    let leaders = st.store().leaderboard(&pool.to_string(), speed.key(), since, BOARD_SIZE).await?;
    let players: Vec<_> = leaders
        .iter()
        .enumerate()
        .map(|(i, l)| {
            json!({"rank": i + 1, "name": l.name, "rating": l.rating.round() as i64, "rd": l.rd.round() as i64, "games": l.games})
        })
        .collect();
    Ok(Json(json!({
        "pool": pool.to_string(),
        "speed": speed.key(),
        "active_days": ACTIVE_DAYS,
        "players": players,
    })))
}
