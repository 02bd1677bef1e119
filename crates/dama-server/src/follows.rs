//! Following players: `POST` / `DELETE /api/players/{name}/follow`, and `GET
//! /api/me/following`, the players one follows with the games they are playing and
//! their latest finished one, for the home page.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::json;

use crate::accounts::Me;
use crate::error::ApiError;
use crate::state::Services;

/// `POST /api/players/{name}/follow`: the logged-in player follows `name` → `{"following":
/// true}`; 400 for oneself, 404 for an unknown name, 409 past the most one may follow.
pub async fn follow(
    State(st): State<Services>,
    Path(name): Path<String>,
    me: Me,
) -> Result<Json<serde_json::Value>, ApiError> {
    let me = me.required()?;
    let them = crate::players::named(&st, &name).await?;
    if them.id == me.id {
        return Err(ApiError::BadRequest("you cannot follow yourself".into()));
    }
    if !st.store().follow(&me.id, &them.id, crate::clock::now_ms()).await? {
        let most = crate::store::MOST_FOLLOWED;
        return Err(ApiError::Conflict(format!("you follow {most} players already, the most one may")));
    }
    Ok(Json(json!({ "following": true })))
}

/// `DELETE /api/players/{name}/follow`: no longer follows → `{"following": false}`.
pub async fn unfollow(
    State(st): State<Services>,
    Path(name): Path<String>,
    me: Me,
) -> Result<Json<serde_json::Value>, ApiError> {
    let me = me.required()?;
    let them = crate::players::named(&st, &name).await?;
    st.store().unfollow(&me.id, &them.id).await?;
    Ok(Json(json!({ "following": false })))
}

/// `GET /api/me/following` → `{"players": [{"name", "playing": [game ids], "online", "last":
/// {id, variant, result} | null}]}`, by name; 401 without a log-in.
pub async fn following(State(st): State<Services>, me: Me) -> Result<Json<serde_json::Value>, ApiError> {
    let me = me.required()?;
    let mut players = Vec::new();
    for (id, name) in st.store().followed(&me.id).await? {
        let playing = st.store().live_games_of(&id, 10).await?;
        let last =
            st.store().account_games(&id, 20).await?.into_iter().find(|g| g.status == crate::protocol::Phase::Finished);
        players.push(json!({
            "name": name,
            "playing": playing,
            "online": crate::notify::inbox::online(&st, &id).await?,
            "last": last.map(|g| json!({"id": g.id, "variant": g.variant.key(), "opponent": g.opponent})),
        }));
    }
    Ok(Json(json!({ "players": players })))
}
