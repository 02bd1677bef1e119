//! Moderation: the operator gives an account the moderator role from the command line
//! (`dama accounts grant NAME moderator`); a moderator sees the reported chat lines
//! (`/mod`), hides a line (stored hidden, dropped at once from the pages that show
//! it), mutes the chat of the account that wrote it, or dismisses the report.
//!
//! - `GET /api/mod/reports`: the reported lines, those not handled yet first.
//! - `POST /api/mod/reports/{game}/{n} {"action": "hide" | "mute" | "dismiss"}`: `mute`
//!   also hides the line; 409 when a line's author had no account to mute.
//! - `POST /api/mod/accounts/{name}/chat {"muted": bool}`: mutes or unmutes an account.
//!
//! Every route answers 401 without a log-in and 403 for an account without the role.

use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts::Me;
use crate::error::ApiError;
use crate::extract::{on_game, parse};
use crate::game::{now_ms, Action, Caller};
use crate::state::Services;
use crate::store::AccountRow;

/// A role the operator gives an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Reads reported chat lines, hides lines, mutes accounts' chat.
    Moderator,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 1] = [Role::Moderator];

    /// Its name, as stored and as the command line takes it.
    pub fn key(self) -> &'static str {
        match self {
            Role::Moderator => "moderator",
        }
    }
}

impl std::str::FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> Result<Role, String> {
        Role::ALL.into_iter().find(|r| r.key() == s).ok_or_else(|| {
            let all: Vec<_> = Role::ALL.iter().map(|r| r.key()).collect();
            format!("unknown role '{s}' (there is {})", all.join(", "))
        })
    }
}

/// A logged-in moderator (401 without a log-in, 403 without the role).
pub struct Moderator(pub AccountRow);

impl FromRequestParts<Services> for Moderator {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, st: &Services) -> Result<Self, Self::Rejection> {
        let me = Me::from_request_parts(parts, st).await?.required()?;
        if !st.store().roles(&me.id).await?.iter().any(|r| r == Role::Moderator.key()) {
            return Err(ApiError::Forbidden("only moderators can do this".into()));
        }
        Ok(Moderator(me))
    }
}

/// The most reports listed.
const LISTED: i64 = 200;

/// `GET /api/mod/reports`.
pub async fn reports(State(st): State<Services>, _m: Moderator) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "reports": st.store().reported_lines(LISTED).await? })))
}

/// What a moderator does with a reported line.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
enum Handling {
    /// Hide the line.
    Hide,
    /// Hide it and mute its author's chat.
    Mute,
    /// Leave it: the report was not founded.
    Dismiss,
}

impl Handling {
    fn key(self) -> &'static str {
        match self {
            Handling::Hide => "hide",
            Handling::Mute => "mute",
            Handling::Dismiss => "dismiss",
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HandleRequest {
    action: Handling,
}

/// `POST /api/mod/reports/{game}/{n}`.
pub async fn handle(
    State(st): State<Services>,
    Moderator(m): Moderator,
    Path((id, n)): Path<(String, i64)>,
    body: String,
) -> Result<Json<Value>, ApiError> {
    let req: HandleRequest = parse(&body)?;
    // The decision is kept first; its effects below can be asked again if one fails.
    if !st.store().handle_report(&id, n, &m.id, req.action.key(), now_ms()).await? {
        return Err(ApiError::NotFound(format!("no report of {id} chat line {n}")));
    }
    let author = st.store().chat_line_account(&id, n).await?;
    if req.action == Handling::Mute {
        let Some(a) = &author else {
            return Err(ApiError::Conflict("this line's author has no account to mute; hide the line".into()));
        };
        st.store().set_chat_muted(a, Some(now_ms())).await?;
        tracing::warn!(moderator = %m.name, account = %a, "chat muted");
    }
    if req.action != Handling::Dismiss {
        let caller = Caller { moderator: true, account: Some(m.id.clone()), ..Caller::default() };
        on_game!(st, id, |h| h.act(caller.clone(), Action::HideChat { n }))?;
    }
    tracing::info!(moderator = %m.name, game = %id, line = n, action = req.action.key(), "report handled");
    if let Some(reporter) = st.store().chat_reporter(&id, n).await? {
        let notice = crate::notify::Notice::ReportHandled { game: id.clone(), action: req.action.key().into() };
        crate::notify::notify_or_log(&st, &reporter, notice).await;
    }
    Ok(Json(json!({ "ok": true })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MuteRequest {
    muted: bool,
}

/// `POST /api/mod/accounts/{name}/chat`.
pub async fn mute(
    State(st): State<Services>,
    Moderator(m): Moderator,
    Path(name): Path<String>,
    body: String,
) -> Result<Json<Value>, ApiError> {
    let req: MuteRequest = parse(&body)?;
    let account = crate::players::named(&st, &name).await?;
    st.store().set_chat_muted(&account.id, req.muted.then(now_ms)).await?;
    tracing::warn!(moderator = %m.name, account = %account.name, muted = req.muted, "chat mute set");
    Ok(Json(json!({ "name": account.name, "muted": req.muted })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_read_by_name_only() {
        assert_eq!("moderator".parse::<Role>(), Ok(Role::Moderator));
        assert!("admin".parse::<Role>().unwrap_err().contains("there is moderator"));
    }
}
