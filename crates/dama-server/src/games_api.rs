//! The games' HTTP routes (create, list, read, join, act, PDN, hints, a chat line's
//! report, the websocket), the pages' shell, and the health checks.

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::error::ApiError;
use crate::extract::{on_game, parse, parse_or_default, token_of, PeerIp};
use crate::game::{self, Action, Caller, JoinRequest, Options};
use crate::protocol::{Mode, Phase};
use crate::state::Services;
use crate::{accounts, web, ws};

/// The process is up and answering.
pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

/// Ready for traffic: the database answers (its migrations ran before the server began
/// to listen) and the server is not shutting down; 503 otherwise, saying why.
pub async fn readyz(State(st): State<Services>) -> Response {
    if st.shutting_down() {
        return (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "status": "shutting down" }))).into_response();
    }
    match st.store.ping().await {
        Ok(()) => Json(json!({ "status": "ready", "games_in_memory": st.games.loaded() })).into_response(),
        Err(e) => {
            tracing::warn!(error = %crate::error::Chain(&e), "readiness: the database does not answer");
            (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "status": "database unreachable" }))).into_response()
        }
    }
}

/// The page every UI route answers with (gzipped, with its `ETag`).
pub async fn index(headers: HeaderMap) -> Response {
    web::index_page(&headers)
}

/// Nothing at this address: a 404. An address of the API (or of the page's files)
/// answers its JSON error; any other is a page address, and gets the site's page, which
/// says "nothing here" in the reader's language with a link home.
pub async fn no_route(req: Request) -> Response {
    let path = req.uri().path();
    if path.starts_with("/api/") || path.starts_with("/assets/") || req.method() != axum::http::Method::GET {
        return ApiError::NoRoute(path.chars().take(200).collect()).into_response();
    }
    (StatusCode::NOT_FOUND, Html(web::INDEX)).into_response()
}

/// `GET /api/games/{id}/hint`: a hint for the player to move (games against the engine).
pub async fn hint(
    State(st): State<Services>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let pool = st.pool.clone();
    Ok(Json(on_game!(st, id, |h| h.hint(&pool, token_of(&headers)))?).into_response())
}

/// `POST /api/games`: a new game, the creator seated.
pub async fn create(
    State(st): State<Services>,
    PeerIp(ip): PeerIp,
    accounts::Me(me): accounts::Me,
    body: String,
) -> Result<Response, ApiError> {
    let opts: Options = parse(&body)?;
    st.allow_new_game(ip)?;
    let c = game::create(st.clone(), opts, me.map(game::Player::from)).await?;
    let (id, seat) = (c.id, c.seat.ok_or(ApiError::Internal)?);
    // The secret travels after '#': browsers never send it in requests or logs.
    let invite_url = c.invite.as_ref().map(|s| format!("/game/{id}/join#{s}"));
    let body = json!({
        "id": id,
        "token": seat.token,
        "color": seat.color,
        "watch_url": format!("/game/{id}"),
        "invite": c.invite,
        "invite_url": invite_url,
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// What `GET /api/games` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    state: Option<String>,
}

/// Live games listed with their position.
const LIVE_THUMBNAILS: usize = 20;

/// `GET /api/games?state=waiting|live|finished`: the lobby's games.
pub async fn list(State(st): State<Services>, Query(q): Query<ListQuery>) -> Result<Response, ApiError> {
    let state: Phase = q
        .state
        .as_deref()
        .unwrap_or("waiting")
        .parse()
        .map_err(|_| ApiError::BadRequest("state must be waiting, live or finished".into()))?;
    let rows = st.store.list(state, 100).await?;
    // Only lobby games are public: invitations, games on one device and games against
    // the engine are reached by their own link only.
    let mut games: Vec<_> = rows
        .iter()
        .filter(|r| r.mode == Mode::Open)
        .map(|r| json!({"id": r.id, "variant": r.variant.key(), "mode": r.mode, "state": r.state.status, "result": r.state.result, "created_ms": r.created_ms}))
        .collect();
    // Games being played show their position (for the lobby's thumbnails), read from
    // the games in memory; a game is not loaded for it.
    if state == Phase::Live {
        for g in games.iter_mut().take(LIVE_THUMBNAILS) {
            let Some(h) = g["id"].as_str().and_then(|id| st.games.running(id)) else { continue };
            let Ok(snap) = h.snapshot().await else { continue };
            g["fen"] = json!(snap.fen);
            g["players"] = json!(snap.players.iter().map(|p| p.as_ref().map(|p| p.name.clone())).collect::<Vec<_>>());
        }
    }
    Ok(Json(json!({ "games": games })).into_response())
}

/// `GET /api/games/{id}`: the game now.
pub async fn snapshot(State(st): State<Services>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(on_game!(st, id, |h| h.snapshot())?).into_response())
}

/// `POST /api/games/{id}/join`: takes the free seat.
pub async fn join(
    State(st): State<Services>,
    Path(id): Path<String>,
    accounts::Me(me): accounts::Me,
    body: String,
) -> Result<Response, ApiError> {
    let req: JoinRequest = parse_or_default(&body)?;
    let player = me.map(game::Player::from);
    Ok(Json(on_game!(st, id, |h| h.join(req.clone(), player.clone()))?).into_response())
}

/// `POST /api/games/{id}/actions`: an action of the seat of `x-dama-token`.
pub async fn act(
    State(st): State<Services>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Result<Response, ApiError> {
    let action: Action = parse(&body)?;
    let caller = Caller { token: token_of(&headers), conn: None, account: None, moderator: false };
    on_game!(st, id, |h| h.act(caller.clone(), action.clone()))?;
    Ok(Json(json!({"ok": true})).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Report {
    reason: String,
}

/// Reports chat line `n` of a game for a moderator (kept with the line, and logged).
pub async fn report_chat(
    State(st): State<Services>,
    Path((id, n)): Path<(String, i64)>,
    accounts::Me(me): accounts::Me,
    body: String,
) -> Result<Response, ApiError> {
    let r: Report = parse(&body)?;
    let reason: String = r.reason.trim().chars().filter(|c| !c.is_control()).take(200).collect();
    if reason.is_empty() {
        return Err(ApiError::BadRequest("say why you report the line".into()));
    }
    let lines = st.store.chat(&id).await?;
    let Some(line) = lines.iter().find(|l| l.n == n) else {
        return Err(ApiError::NotFound(format!("{id} chat line {n}")));
    };
    st.store.report_chat(&id, n, &reason, game::now_ms(), me.as_ref().map(|a| a.id.as_str())).await?;
    tracing::warn!(game = %id, line = n, author = %line.author, reason = %reason, "chat line reported");
    Ok(Json(json!({"ok": true})).into_response())
}

/// `GET /api/games/{id}/pdn`: the game as PDN.
pub async fn pdn(State(st): State<Services>, Path(id): Path<String>) -> Result<Response, ApiError> {
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

/// What a game's websocket address reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WsQuery {
    since: Option<u64>,
    token: Option<String>,
}

/// `GET /api/games/{id}/ws`: the game's websocket.
pub async fn websocket(
    State(st): State<Services>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    PeerIp(ip): PeerIp,
    accounts::Me(me): accounts::Me,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if q.token.is_some() {
        return Err(ApiError::BadRequest(
            "send the seat token in the first frame ({\"type\": \"hello\", \"token\": ...}), not in the address".into(),
        ));
    }
    // An unknown game is refused before the upgrade.
    st.game(&id).await?;
    let ctx = st.clone();
    let token = token_of(&headers);
    // A browser sends its cookies with a websocket from any page: only a page of this
    // site's own may hold the account's seats.
    let account = me.filter(|_| crate::csrf::same_origin(&headers, &st.limits).is_ok()).map(|a| a.id);
    let since = q.since;
    if ctx.shutting_down() {
        return Err(ApiError::Gone);
    }
    Ok(ws::configure(upgrade, &ctx.limits).on_upgrade(move |socket| {
        use tracing::Instrument;
        let span = tracing::info_span!("websocket", game = %id);
        ws::client(socket, ctx, id, ws::Opening { since, ip, token, account }).instrument(span)
    }))
}
