//! The inbox over HTTP and live: `GET /api/me/notifications`, `POST
//! /api/me/notifications/read`, and `GET /api/me/ws` (the account's live events for its
//! pages: notifications, challenges, followed players starting a game).

use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast;

use super::listeners::ONLINE_FOR_MS;
use crate::accounts::Me;
use crate::error::ApiError;
use crate::extract::parse_or_default;
use crate::state::Services;

/// Notifications listed at once.
const LISTED: i64 = 50;
/// Live sockets one account may hold (its tabs and devices).
const SOCKETS_PER_ACCOUNT: u32 = 16;
/// How often an open socket says its account is still there.
const STILL_HERE: std::time::Duration = std::time::Duration::from_secs(60);

/// `GET /api/me/notifications` → `{"notifications": [{"id", "kind", ..., "at_ms",
/// "read"}], "unread"}`, newest first; 401 without a log-in.
pub async fn list(State(st): State<Services>, me: Me) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let (rows, unread) = st.store().notifications(&me.id, LISTED).await?;
    let list: Vec<Value> = rows.iter().map(super::view).collect();
    Ok(Json(json!({ "notifications": list, "unread": unread })))
}

/// What `POST /api/me/notifications/read` reads: the ids, or none for all.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ReadRequest {
    #[serde(default)]
    ids: Option<Vec<String>>,
}

/// `POST /api/me/notifications/read` `{"ids": [...]}` (or `{}` for all) → `{"unread"}`.
pub async fn read(State(st): State<Services>, me: Me, body: String) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let r: ReadRequest = parse_or_default(&body)?;
    if r.ids.as_ref().is_some_and(|ids| ids.len() > crate::store::INBOX_SIZE as usize) {
        return Err(ApiError::BadRequest(format!("at most {} ids at once", crate::store::INBOX_SIZE)));
    }
    st.store().read_notifications(&me.id, r.ids.as_deref(), crate::clock::now_ms()).await?;
    let unread = st.store().unread(&me.id).await?;
    Ok(Json(json!({ "unread": unread })))
}

/// Whether an account is online now (a page of the site open, here or on another node).
pub async fn online(st: &Services, account: &str) -> Result<bool, ApiError> {
    Ok(st.store().seen_ms(account).await? > crate::clock::now_ms() - ONLINE_FOR_MS)
}

/// The events of the account's channel a page hears (the bot API's game events are
/// for programs).
fn for_pages(e: &Value) -> bool {
    matches!(e["type"].as_str(), Some("notification" | "following_playing" | "challenge_update" | "tournament_game"))
}

/// `GET /api/me/ws`: the account's live events, `{"type": "unread", "unread"}` first,
/// then each as it happens: `{"type": "notification", "notification"}`, `{"type":
/// "following_playing", "name", "game"}`, `{"type": "challenge_update", "id",
/// "status"}`, `{"type": "tournament_game", "tournament", "game"}` (a game of the
/// player's in an event starts: the page goes to it). Only from a page of the site's own origin, logged in; while it is open
/// the account shows as online.
pub async fn websocket(
    State(st): State<Services>,
    headers: HeaderMap,
    me: Me,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    crate::csrf::same_origin(&headers, &st.limits)?;
    let me = me.required()?;
    if st.shutting_down() {
        return Err(ApiError::Gone);
    }
    let held = st
        .inbox_sockets
        .take(me.id.clone(), SOCKETS_PER_ACCOUNT)
        .ok_or_else(|| ApiError::TooMany("too many pages open for this account".into()))?;
    let mut rx = st.bots.subscribe(&me.id);
    let unread = st.store().unread(&me.id).await?;
    st.store().seen(&me.id, crate::clock::now_ms()).await?;
    let ctx = st.clone();
    Ok(crate::ws::configure(upgrade, &ctx.limits).on_upgrade(move |mut socket| async move {
        let _held = held;
        let first = json!({ "type": "unread", "unread": unread }).to_string();
        if socket.send(Message::Text(first.into())).await.is_err() {
            return;
        }
        let stopping = ctx.until_shutdown();
        tokio::pin!(stopping);
        let mut still_here = tokio::time::interval_at(tokio::time::Instant::now() + STILL_HERE, STILL_HERE);
        loop {
            let text = tokio::select! {
                e = rx.recv() => match e {
                    Ok(e) if for_pages(&e) => e.to_string(),
                    Ok(_) => continue,
                    // Fell behind: the page reloads its inbox.
                    Err(broadcast::error::RecvError::Lagged(_)) => json!({ "type": "reload" }).to_string(),
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                m = socket.recv() => match m {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                },
                _ = still_here.tick() => {
                    if let Err(e) = ctx.store().seen(&me.id, crate::clock::now_ms()).await {
                        tracing::warn!(error = %crate::error::Chain(&e), "noting an account online");
                    }
                    continue;
                }
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
