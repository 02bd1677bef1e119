//! Seeks: an open game offered in the lobby (variant, clock, rated or casual, colour,
//! rating range), accepted by one click; the list over HTTP and live over one
//! websocket.

use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::accounts::Me;
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::extract::{bad_body, on_game, parse, token_of, PeerIp};
use crate::game::{self, Action, Caller, ColorChoice, JoinRequest, Mode, Options, Player, RulesChoice};
use crate::lobby::{in_range, LobbyEvent};
use crate::state::Services;

/// What `POST /api/seeks` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeekRequest {
    variant: String,
    #[serde(default)]
    rules: RulesChoice,
    #[serde(default)]
    time: TimeControl,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    color: ColorChoice,
    #[serde(default)]
    rating_range: Option<[u32; 2]>,
}

/// `POST /api/seeks`: an open game in the lobby → `201 {"id", "game", "token",
/// "color"}` (the seek's id is its game's).
pub async fn create(
    State(st): State<Services>,
    PeerIp(ip): PeerIp,
    Me(me): Me,
    body: String,
) -> Result<Response, ApiError> {
    let r: SeekRequest = parse(&body)?;
    let opts: Options = serde_json::from_value(json!({
        "variant": r.variant,
        "mode": Mode::Open,
        "rules": r.rules,
        "time": r.time,
        "rated": r.rated,
        "color": r.color,
        "rating_range": r.rating_range,
    }))
    .map_err(bad_body)?;
    st.allow_new_game(ip)?;
    let c = game::create(st.clone(), opts, me.map(Player::from)).await?;
    let seat = c.seat.ok_or(ApiError::Internal)?;
    let body = json!({ "id": c.id, "game": c.id, "token": seat.token, "color": seat.color });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// `GET /api/seeks`: the open seeks, oldest first.
pub async fn list(State(st): State<Services>) -> Json<serde_json::Value> {
    Json(json!({ "seeks": st.lobby.list() }))
}

/// `POST /api/seeks/{id}/accept`: takes the seek's free seat → `{"game", "token",
/// "color"}`; the game starts for both players. 404 when the seek is gone (accepted,
/// cancelled), 403 outside its rating range or, for a rated seek, without an account.
pub async fn accept(State(st): State<Services>, Path(id): Path<String>, Me(me): Me) -> Result<Response, ApiError> {
    let seek = st.lobby.get(&id).ok_or_else(|| ApiError::NoSeek(id.chars().take(40).collect()))?;
    let player = me.map(Player::from);
    if player.as_ref().is_some_and(|p| seek.name.as_deref() == Some(p.name.as_str())) {
        return Err(ApiError::Conflict("this is your own seek".into()));
    }
    // No pairing between two players when one blocks the other.
    if let (Some(p), Some(seeker)) = (&player, &seek.name) {
        if let Some(seeker) = st.store().account_named(seeker).await? {
            if st.store().blocked_between(&p.id, &seeker.id).await? {
                return Err(crate::challenges::ChallengeRefusal::Blocked.into());
            }
        }
    }
    if let Some([lo, hi]) = seek.rating_range {
        let pool = seek.pool().ok_or(ApiError::Internal)?;
        let r = game::rating_for(&st, player.as_ref(), pool, seek.speed).await?;
        if !in_range(&seek, r.rating) {
            let yours = r.rating.round();
            return Err(ApiError::Forbidden(format!("this seek wants a rating from {lo} to {hi}; yours is {yours}")));
        }
    }
    let seat = on_game!(st, id, |h| h.join(JoinRequest::default(), player.clone()))?;
    Ok(Json(json!({ "game": id, "token": seat.token, "color": seat.color })).into_response())
}

/// `DELETE /api/seeks/{id}` with the seeker's seat token (`x-dama-token`): cancels the
/// seek (its game ends without a result).
pub async fn cancel(
    State(st): State<Services>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    st.lobby.get(&id).ok_or_else(|| ApiError::NoSeek(id.chars().take(40).collect()))?;
    let caller = Caller { token: token_of(&headers), conn: None, account: None, moderator: false };
    on_game!(st, id, |h| h.act(caller.clone(), Action::Abort))?;
    Ok(Json(json!({ "ok": true })).into_response())
}

/// `GET /api/lobby/ws`: the seeks, then each change as it happens: `{"type": "seeks",
/// "seeks": [...]}` first (and again after the client fell behind), then `{"type":
/// "seek", "seek"}` and `{"type": "unseek", "id"}`. Frames the client sends are read
/// and ignored.
pub async fn websocket(State(st): State<Services>, upgrade: WebSocketUpgrade) -> Result<Response, ApiError> {
    if st.shutting_down() {
        return Err(ApiError::Gone);
    }
    let ctx = st.clone();
    Ok(crate::ws::configure(upgrade, &ctx.limits).on_upgrade(move |mut socket| async move {
        let mut rx = ctx.lobby.subscribe();
        let all = |ctx: &crate::state::Services| json!({ "type": "seeks", "seeks": ctx.lobby.list() }).to_string();
        if socket.send(Message::Text(all(&ctx).into())).await.is_err() {
            return;
        }
        let stop = ctx.clone();
        let stopping = stop.until_shutdown();
        tokio::pin!(stopping);
        loop {
            let text = tokio::select! {
                e = rx.recv() => match e {
                    Ok(e @ (LobbyEvent::Seek { .. } | LobbyEvent::Unseek { .. })) => serde_json::to_string(&e).unwrap_or_default(),
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => all(&ctx),
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                },
                m = socket.recv() => match m {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                },
                _ = &mut stopping => {
                    let _ = socket.send(crate::ws::restarting()).await;
                    break;
                }
            };
            if socket.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
    }))
}
