//! Who may challenge an account (`GET` / `POST /api/me/settings`), with the players it
//! blocks.

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts::Me;
use crate::error::ApiError;
use crate::extract::parse;
use crate::state::Services;

/// Who may challenge an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengesFrom {
    /// Any player with an account.
    All,
    /// The players the account follows.
    Friends,
    /// Nobody.
    None,
}

impl ChallengesFrom {
    /// Its key, as stored.
    pub fn key(self) -> &'static str {
        match self {
            ChallengesFrom::All => "all",
            ChallengesFrom::Friends => "friends",
            ChallengesFrom::None => "none",
        }
    }

    /// The stored key read back (anything else reads as `all`).
    pub fn of(key: &str) -> ChallengesFrom {
        match key {
            "friends" => ChallengesFrom::Friends,
            "none" => ChallengesFrom::None,
            _ => ChallengesFrom::All,
        }
    }
}

/// What `POST /api/me/settings` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    challenges: ChallengesFrom,
}

/// `GET /api/me/settings` → `{"challenges": "all" | "friends" | "none", "blocked":
/// [names]}`.
pub async fn settings(State(st): State<Services>, me: Me) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let from = ChallengesFrom::of(&st.store().challenge_setting(&me.id).await?);
    let blocked = st.store().blocked_names(&me.id).await?;
    Ok(Json(json!({ "challenges": from, "blocked": blocked })))
}

/// `POST /api/me/settings` `{"challenges": "all" | "friends" | "none"}`.
pub async fn set_settings(State(st): State<Services>, me: Me, body: String) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let s: Settings = parse(&body)?;
    st.store().set_challenge_setting(&me.id, s.challenges.key()).await?;
    Ok(Json(json!({ "challenges": s.challenges })))
}
