//! HTTP routes and the websocket; every failure goes through `ApiError`.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast;

use crate::actor::{self, Action, Event, GameHandle, Options, Registry};
use crate::error::ApiError;
use crate::store::Store;
use crate::web;

/// Shared server state: the store and the live games' handles.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub store: Store,
    games: Registry,
}

impl AppState {
    /// State over a store; stored live games start their tasks on first use.
    pub fn new(store: Store) -> Self {
        AppState { store, games: Registry::default() }
    }

    /// The handle of a game, restoring it from the store if its task is not running.
    pub async fn game(&self, id: &str) -> Result<GameHandle, ApiError> {
        if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(ApiError::NotFound(id.chars().take(64).collect()));
        }
        let mut games = self.games.lock().await;
        if let Some(h) = games.get(id) {
            if !h.is_closed() {
                return Ok(h.clone());
            }
            games.remove(id);
        }
        let row = self.store.game(id).await?.ok_or_else(|| ApiError::NotFound(id.to_string()))?;
        let h = actor::restore(self.store.clone(), self.games.clone(), row).await?;
        games.insert(id.to_string(), h.clone());
        Ok(h)
    }

    /// Restarts the tasks of every game that was live or waiting (after a restart).
    pub async fn restore_live(&self) -> Result<usize, ApiError> {
        let mut n = 0;
        for status in ["live", "waiting"] {
            for row in self.store.list(status, 100_000).await? {
                self.game(&row.id).await?;
                n += 1;
            }
        }
        Ok(n)
    }
}

/// Runs `$call` on the game's handle `$h`, once more with a restored task if the task
/// ended meanwhile (an idle finished game).
macro_rules! on_game {
    ($st:expr, $id:expr, |$h:ident| $call:expr) => {{
        let $h = $st.game(&$id).await?;
        match $call.await {
            Err(ApiError::Gone) => {
                let $h = $st.game(&$id).await?;
                $call.await
            }
            r => r,
        }
    }};
}

/// The router.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/game/{id}", get(index))
        .route("/game/{id}/join", get(index))
        .route("/rules/{variant}", get(index))
        .route("/replay", get(index))
        .route("/assets/{file}", get(web::asset))
        .route("/api/variants", get(web::variants))
        .route("/api/replay", post(web::replay_games).layer(axum::extract::DefaultBodyLimit::max(web::MAX_IMPORT)))
        .route("/api/games", post(create).get(list))
        .route("/api/games/{id}", get(snapshot))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/pdn", get(pdn))
        .route("/api/games/{id}/hint", get(hint))
        .route("/api/games/{id}/ws", get(ws))
        .with_state(state)
}

async fn index() -> Html<&'static str> {
    Html(web::INDEX)
}

async fn hint(State(st): State<AppState>, Path(id): Path<String>, headers: HeaderMap) -> Result<Response, ApiError> {
    let mv = on_game!(st, id, |h| h.hint(token_of(&headers)))?;
    Ok(Json(json!({ "move": mv })).into_response())
}

fn parse<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    serde_json::from_str(body).map_err(|e| ApiError::BadRequest(format!("bad request body: {e}")))
}

async fn create(State(st): State<AppState>, body: String) -> Result<Response, ApiError> {
    let opts: Options = parse(&body)?;
    let (id, _, seat) = actor::create(st.store.clone(), st.games.clone(), opts).await?;
    let body = json!({
        "id": id,
        "token": seat.token,
        "color": seat.color,
        "watch_url": format!("/game/{id}"),
        "invite_url": format!("/game/{id}/join"),
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

#[derive(Deserialize)]
struct ListQuery {
    state: Option<String>,
}

async fn list(State(st): State<AppState>, Query(q): Query<ListQuery>) -> Result<Response, ApiError> {
    let state = q.state.unwrap_or_else(|| "waiting".into());
    if !["waiting", "live", "finished"].contains(&state.as_str()) {
        return Err(ApiError::BadRequest("state must be waiting, live or finished".into()));
    }
    let rows = st.store.list(&state, 100).await?;
    let games: Vec<_> = rows
        .iter()
        .filter(|r| state != "waiting" || r.mode == "open")
        .map(|r| json!({"id": r.id, "variant": r.variant, "mode": r.mode, "state": r.status, "result": r.result, "created_ms": r.created_ms}))
        .collect();
    Ok(Json(json!({ "games": games })).into_response())
}

async fn snapshot(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(on_game!(st, id, |h| h.snapshot())?).into_response())
}

async fn join(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(on_game!(st, id, |h| h.join())?).into_response())
}

fn token_of(headers: &HeaderMap) -> Option<String> {
    headers.get("x-dama-token").and_then(|v| v.to_str().ok()).map(str::to_string)
}

async fn act(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Result<Response, ApiError> {
    let action: Action = parse(&body)?;
    on_game!(st, id, |h| h.act(token_of(&headers), action.clone()))?;
    Ok(Json(json!({"ok": true})).into_response())
}

async fn pdn(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = on_game!(st, id, |h| h.pdn())?;
    let disposition = format!("attachment; filename=\"dama-{id}.pdn\"");
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pdn; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
struct WsQuery {
    token: Option<String>,
    since: Option<u64>,
}

/// Largest frame a client may send.
pub const MAX_FRAME: usize = 4096;

async fn ws(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let h = st.game(&id).await?;
    // Small buffers: a live game holds three connections or more, and its messages are
    // small (the read buffer grows when a larger frame arrives).
    Ok(upgrade
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_message_size(1 << 20)
        .on_upgrade(move |socket| client(socket, h, q)))
}

async fn client(socket: WebSocket, h: GameHandle, q: WsQuery) {
    let (mut sink, mut stream) = socket.split();
    // A spectator without a token still counts once for suggestions.
    let token = q.token.clone().or_else(|| Some(format!("viewer-{}", actor::token())));
    let Ok((snap, log, mut rx, seats)) = h.subscribe(token.clone()).await else { return };
    // A reconnecting client that says what it has seen gets what it missed; anyone else
    // (or one too far behind) gets the whole game.
    let first: Vec<String> = match q.since {
        Some(s) if s <= snap.version => log.iter().filter(|e| e.version() > s).map(|e| json!(e).to_string()).collect(),
        _ => vec![json!({"type": "snapshot", "v": snap.version, "game": snap}).to_string()],
    };
    for m in first {
        if sink.send(Message::Text(m.into())).await.is_err() {
            return;
        }
    }
    loop {
        tokio::select! {
            ev = rx.recv() => {
                let text = match ev {
                    // Suggestions are for the player to move only.
                    Ok(Event::Suggestions { ref to, .. }) if !seats.iter().any(|c| c.to_string() == *to) => continue,
                    Ok(e) => json!(e).to_string(),
                    Err(broadcast::error::RecvError::Lagged(_)) => match h.snapshot().await {
                        Ok(s) => json!({"type": "snapshot", "v": s.version, "game": s}).to_string(),
                        Err(_) => break,
                    },
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if sink.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            msg = stream.next() => {
                let reply = match msg {
                    Some(Ok(Message::Text(t))) => handle_frame(&h, token.clone(), t.as_str()).await,
                    Some(Ok(Message::Binary(_))) => Some(json!({"type": "error", "message": "send JSON text frames"})),
                    Some(Ok(_)) => None,
                    _ => break,
                };
                if let Some(r) = reply {
                    if sink.send(Message::Text(r.to_string().into())).await.is_err() {
                        break;
                    }
                }
            }
        }
    }
}

async fn handle_frame(h: &GameHandle, token: Option<String>, text: &str) -> Option<serde_json::Value> {
    if text.len() > MAX_FRAME {
        return Some(
            json!({"type": "error", "message": format!("frame too large ({} bytes; the limit is {MAX_FRAME})", text.len())}),
        );
    }
    let v: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return Some(json!({"type": "error", "message": format!("bad JSON: {e}")})),
    };
    match v.get("type").and_then(|t| t.as_str()) {
        Some("ping") => return Some(json!({"type": "pong"})),
        Some("resync") => {
            return h.snapshot().await.ok().map(|s| json!({"type": "snapshot", "v": s.version, "game": s}));
        }
        _ => {}
    }
    let action: Action = match serde_json::from_value(v) {
        Ok(a) => a,
        Err(e) => return Some(json!({"type": "error", "message": format!("unknown message: {e}")})),
    };
    match h.act(token, action).await {
        Ok(()) => None,
        Err(e) => Some(json!({"type": "error", "status": e.status().as_u16(), "message": e.to_string()})),
    }
}
