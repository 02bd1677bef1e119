//! A player's public page: their ratings with their history, their results per
//! variant, their recent games, and all their finished games as one PDN file.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::error::ApiError;
use crate::rating::Speed;
use crate::state::Services;
use crate::store::AccountRow;

/// The account of a player's page, or 404.
pub(crate) async fn named(st: &Services, name: &str) -> Result<AccountRow, ApiError> {
    st.store().account_named(name).await?.ok_or_else(|| ApiError::NoPlayer(name.chars().take(40).collect()))
}

/// `GET /api/players/{name}`: the player's name, when they joined, their ratings by
/// pool and speed class (`rating`, `rd`, `games`, `provisional`, `rank` on the pool's
/// leaderboard or null), the rating after
/// each rated game (`history`: variant, class, then `[at_ms, rating]` pairs), wins,
/// draws and losses per variant (`record`, over their last 5,000 games) and their 20
/// most recent games.
pub async fn player(
    State(st): State<Services>,
    Path(name): Path<String>,
    crate::accounts::Me(me): crate::accounts::Me,
) -> Result<Response, ApiError> {
    type Table = BTreeMap<String, serde_json::Map<String, serde_json::Value>>;
    let account = named(&st, &name).await?;
    let mut ratings = Table::new();
    let since = crate::leaderboard::active_since(crate::clock::now_ms());
    for r in st.store().ratings(&account.id).await? {
        if Speed::from_key(&r.speed).is_none() {
            continue;
        }
        // The place on the pool's leaderboard, when the rating is on it.
        let rank = st.store().rank(&account.id, &r.variant, &r.speed, since).await?;
        ratings.entry(r.variant).or_default().insert(
            r.speed,
            json!({
                "rating": r.rating.rating.round() as i64,
                "rd": r.rating.rd.round() as i64,
                "games": r.games,
                "provisional": r.rating.provisional(),
                "rank": rank,
            }),
        );
    }
    let mut history = Table::new();
    for (variant, speed, rating, at) in st.store().rating_history(&account.id).await? {
        let points = history.entry(variant).or_default().entry(speed).or_insert_with(|| json!([]));
        if let Some(list) = points.as_array_mut() {
            list.push(json!([at, rating.round() as i64]));
        }
    }
    let games = st.store().account_games(&account.id, 5000).await?;
    let mut record: BTreeMap<String, [u32; 3]> = BTreeMap::new();
    let mut recent = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let outcome = outcome_of(g);
        if let Some(o) = outcome {
            record.entry(g.variant.key().to_string()).or_default()[o] += 1;
        }
        if i < 20 {
            recent.push(json!({
                "id": g.id,
                "variant": g.variant.key(),
                "color": g.seat,
                "state": g.status,
                "result": outcome.map(|o| ["win", "draw", "loss"][o]),
                "rated": g.options.rated,
                "speed": Speed::of(&g.options.time).key(),
                "created_ms": g.created_ms,
                "opponent": g.opponent,
                "engine_level": (g.options.mode == crate::protocol::Mode::Ai).then_some(g.options.level),
            }));
        }
    }
    let record: BTreeMap<_, _> =
        record.into_iter().map(|(v, [w, d, l])| (v, json!({"win": w, "draw": d, "loss": l}))).collect();
    Ok(Json(json!({
        "name": account.name,
        "guest": account.is_guest(),
        "created_ms": account.created_ms,
        "ratings": ratings,
        "history": history,
        "record": record,
        "games": recent,
        // For a logged-in visitor: whether they follow this player.
        "following": match &me {
            Some(m) if m.id != account.id => Some(st.store().follows(&m.id, &account.id).await?),
            _ => None,
        },
        // And whether they block this player.
        "blocked": match &me {
            Some(m) if m.id != account.id => Some(st.store().blocks(&m.id, &account.id).await?),
            _ => None,
        },
        // A page of the site open now.
        "online": crate::notify::inbox::online(&st, &account.id).await?,
    }))
    .into_response())
}

/// The most games one PDN download holds.
const PDN_GAMES: i64 = 2000;

/// `GET /api/players/{name}/games.pdn`: the player's finished games as one PDN file,
/// newest first (at most 2,000; aborted games left out).
pub async fn player_pdn(State(st): State<Services>, Path(name): Path<String>) -> Result<Response, ApiError> {
    let account = named(&st, &name).await?;
    let mut out = String::new();
    for row in st.store().account_finished_games(&account.id, PDN_GAMES).await? {
        // Aborted games (no result) are not part of a player's record.
        if row.state.result.as_deref().is_none_or(|r| r == "*") {
            continue;
        }
        out.push_str(&crate::game::stored_pdn(&st, &row).await?);
        out.push('\n');
    }
    let disposition = format!("attachment; filename=\"dama-{}.pdn\"", account.name);
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pdn; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        out,
    )
        .into_response())
}

/// 0 a win, 1 a draw, 2 a loss for the account of a finished game; `None` for a game
/// that is not over or was aborted.
fn outcome_of(g: &crate::store::PlayedGame) -> Option<usize> {
    let winner = dama_core::record::result_winner(g.result.as_deref()?, g.variant.first_to_move())?;
    Some(match winner {
        None => 1,
        Some(c) if c == g.seat => 0,
        Some(_) => 2,
    })
}
