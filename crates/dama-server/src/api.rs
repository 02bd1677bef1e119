//! HTTP routes; every failure goes through `ApiError`, and one middleware turns any
//! other error response (a bad query string, a body over its limit, an unknown path)
//! into the same JSON.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use crate::error::ApiError;
use crate::game::{self, Action, Caller, JoinRequest, Options};
use crate::limits::{Limits, RateLimiter};
use crate::pool::EnginePool;
use crate::registry::Ctx;
use crate::replay::{self, ReplayGate};
use crate::store::Store;
use crate::{accounts, analysis, bot, seeks, web, ws};

/// Shared server state: the games' context, the replay gate and the rate limits.
#[derive(Clone)]
pub struct AppState {
    /// The store, the games in memory, the engine pool and the limits.
    pub ctx: Ctx,
    replay: Arc<ReplayGate>,
    /// Requests to /api per address.
    requests: Arc<RateLimiter>,
    /// Puzzle attempts that move puzzles' ratings, per address.
    pub(crate) puzzle_attempts: Arc<RateLimiter>,
    /// Sign-ups and log-ins.
    pub(crate) logins: Arc<crate::accounts::LoginLimits>,
    /// The password hasher, bounded for the whole server.
    pub hasher: Arc<crate::passwords::Hasher>,
    /// The analysis board's searchers, apart from the games' (game reports too).
    pub(crate) analysis: Arc<EnginePool>,
    /// Game reports under way.
    pub(crate) reports: Arc<crate::report::Reports>,
    /// Analysis sockets open, by address and by account.
    pub(crate) analysis_sockets: Arc<crate::limits::Holds<String>>,
}

impl AppState {
    /// State over a store, bounded by `limits` (the engine pool's size among them).
    pub fn new(store: Store, limits: Limits) -> Self {
        let pool = EnginePool::new(limits.engine_threads(), limits.engine_queue());
        let analysis = EnginePool::new(limits.analysis_threads(), limits.analysis_queue());
        AppState {
            requests: Arc::new(RateLimiter::new(limits.requests_per_minute())),
            puzzle_attempts: Arc::new(RateLimiter::new(limits.puzzle_attempts_per_minute())),
            logins: crate::accounts::LoginLimits::new(limits.logins_per_minute()),
            hasher: crate::passwords::Hasher::new(
                limits.password_hashes(),
                std::time::Duration::from_millis(limits.password_wait_ms()),
            ),
            ctx: Ctx::new(store, pool, limits),
            replay: Arc::new(ReplayGate::for_machine()),
            analysis,
            reports: Arc::default(),
            analysis_sockets: Arc::default(),
        }
    }

    /// The analysis board's engine pool (analyses, game reports, puzzle scans).
    pub fn analysis_pool(&self) -> &Arc<EnginePool> {
        &self.analysis
    }

    /// Analysis-board searches running now.
    pub fn analyses_running(&self) -> usize {
        self.analysis.running()
    }

    pub(crate) fn replay_gate(&self) -> &ReplayGate {
        &self.replay
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.ctx.store
    }

    /// Loads the live games whose clocks run (after a restart); the others load when
    /// asked for.
    pub async fn restore_live(&self) -> Result<usize, ApiError> {
        self.ctx.restore_timed().await
    }

    /// Takes one of `ip`'s new games for the minute, or says it has had its share.
    pub(crate) fn allow_new_game(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.ctx.allow_new_game(ip)
    }
}

/// Runs `$call` on the game's handle `$h`, once more with a restored task if the task
/// ended meanwhile (a game giving its memory back).
macro_rules! on_game_macro {
    ($st:expr, $id:expr, |$h:ident| $call:expr) => {{
        let $h = $st.ctx.game(&$id).await?;
        match $call.await {
            Err($crate::error::ApiError::Gone) => {
                let $h = $st.ctx.game(&$id).await?;
                $call.await
            }
            r => r,
        }
    }};
}

pub(crate) use on_game_macro as on_game;

/// The router. JSON bodies are bounded by the `body` limit, the replay route's (PDN
/// files) by the `pdn` limit.
pub fn router(state: AppState) -> Router {
    let limits = state.ctx.limits.clone();
    let replay_route = post(replay::replay_games).layer(DefaultBodyLimit::max(replay::request_limit(limits.pdn())));
    let import_route = post(analysis::import).layer(DefaultBodyLimit::max(replay::request_limit(limits.pdn())));
    Router::new()
        .route("/", get(index))
        .route("/game/{id}", get(index))
        .route("/game/{id}/join", get(index))
        .route("/rules/{variant}", get(index))
        .route("/replay", get(index))
        .route("/analysis", get(index))
        .route("/puzzles", get(index))
        .route("/login", get(index))
        .route("/player/{name}", get(index))
        .route("/mod", get(index))
        .route("/assets/{file}", get(web::asset))
        .route("/api/variants", get(web::variants))
        .route("/api/replay", replay_route)
        .route("/api/analysis/position", post(analysis::position))
        .route("/api/analysis/import", import_route)
        .route("/api/analysis/export", post(analysis::export))
        .route("/api/analysis/ws", get(analysis::engine::websocket))
        .route("/api/explorer", get(crate::explorer::moves))
        .route("/api/puzzles/next", get(crate::puzzles::next))
        .route("/api/puzzles/{id}/attempt", post(crate::puzzles::attempt))
        .route("/api/accounts", post(accounts::sign_up))
        .route("/api/accounts/password", post(accounts::claim))
        .route("/api/guests", post(accounts::guest))
        .route("/api/session", post(accounts::log_in).get(accounts::whoami).delete(accounts::log_out))
        .route("/api/players/{name}", get(accounts::player))
        .route("/api/players/{name}/games.pdn", get(accounts::player_pdn))
        .route("/api/tokens", post(accounts::new_token))
        .route("/api/mod/reports", get(crate::moderation::reports))
        .route("/api/mod/reports/{id}/{n}", post(crate::moderation::handle))
        .route("/api/mod/accounts/{name}/chat", post(crate::moderation::mute))
        .route("/api/stream/event", get(bot::stream_events))
        .route("/api/bot/game/stream/{id}", get(bot::stream_game))
        .route("/api/bot/game/{id}/move/{move}", post(bot::play))
        .route("/api/bot/game/{id}/resign", post(bot::resign))
        .route("/api/bot/game/{id}/chat", post(bot::chat))
        .route("/api/bot/game/{id}/draw/{answer}", post(bot::draw))
        .route("/api/seeks", post(seeks::create).get(seeks::list))
        .route("/api/seeks/{id}/accept", post(seeks::accept))
        .route("/api/seeks/{id}", axum::routing::delete(seeks::cancel))
        .route("/api/lobby/ws", get(seeks::websocket))
        .route("/api/games", post(create).get(list))
        .route("/api/games/{id}", get(snapshot))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/pdn", get(pdn))
        .route("/api/games/{id}/chat/{n}/report", post(report_chat))
        .route("/api/games/{id}/hint", get(hint))
        .route("/api/games/{id}/report", get(crate::report::get).post(crate::report::request))
        .route("/api/games/{id}/ws", get(websocket))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .fallback(no_route)
        .layer(DefaultBodyLimit::max(limits.body()))
        .layer(middleware::from_fn_with_state(state.clone(), crate::csrf::guard))
        .layer(middleware::from_fn_with_state(state.clone(), limit_requests))
        .layer(middleware::from_fn(json_errors))
        .layer(middleware::from_fn(web::security_headers))
        .layer(middleware::from_fn(trace_requests))
        .with_state(state)
}

/// The process is up and answering.
async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

/// Ready for traffic: the database answers (its migrations ran before the server began
/// to listen) and the server is not shutting down; 503 otherwise, saying why.
async fn readyz(State(st): State<AppState>) -> Response {
    if st.ctx.shutting_down() {
        return (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "status": "shutting down" }))).into_response();
    }
    match st.ctx.store.ping().await {
        Ok(()) => Json(json!({ "status": "ready", "games_in_memory": st.ctx.games.loaded() })).into_response(),
        Err(e) => {
            tracing::warn!(error = %crate::error::Chain(&e), "readiness: the database does not answer");
            (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "status": "database unreachable" }))).into_response()
        }
    }
}

/// One span per request (method and path; never the query string or headers, where
/// invite and seat tokens travel), and a line at the end with the status and the time.
async fn trace_requests(req: Request, next: Next) -> Response {
    use tracing::Instrument;
    let started = std::time::Instant::now();
    let path: String = req.uri().path().chars().take(200).collect();
    let method = req.method().as_str().to_string();
    let span = tracing::info_span!("request", method = %method, path = %path);
    let res = next.run(req).instrument(span.clone()).await;
    let status = res.status().as_u16();
    let elapsed = started.elapsed();
    let micros = elapsed.as_micros() as u64;
    metrics::counter!("dama_http_requests_total", "method" => method.clone(), "status" => status.to_string())
        .increment(1);
    metrics::histogram!("dama_http_request_seconds", "method" => method).record(elapsed.as_secs_f64());
    span.in_scope(|| {
        if res.status().is_server_error() {
            tracing::warn!(status, micros, "answered");
        } else {
            tracing::debug!(status, micros, "answered");
        }
    });
    res
}

/// Requests to /api beyond an address's rate get 429 (pages, assets and health checks
/// are not counted).
async fn limit_requests(State(st): State<AppState>, PeerIp(ip): PeerIp, req: Request, next: Next) -> Response {
    if req.uri().path().starts_with("/api/") && !st.requests.allow(ip) {
        let per_minute = st.ctx.limits.requests_per_minute();
        return ApiError::TooMany(format!("too many requests from your address ({per_minute} a minute at most)"))
            .into_response();
    }
    next.run(req).await
}

async fn index() -> Html<&'static str> {
    Html(web::INDEX)
}

async fn no_route(req: Request) -> ApiError {
    ApiError::NoRoute(req.uri().path().chars().take(200).collect())
}

/// Error responses that did not come from `ApiError` (axum's own rejections) get the
/// documented JSON body too, with the message in words.
async fn json_errors(req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    let status = res.status();
    let json = res.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return res;
    }
    let text = match axum::body::to_bytes(res.into_body(), 4096).await {
        Ok(b) if !b.is_empty() => String::from_utf8_lossy(&b).into_owned(),
        _ => status.canonical_reason().unwrap_or("error").to_string(),
    };
    let (message, code) = match status {
        StatusCode::PAYLOAD_TOO_LARGE => ("request body too large".to_string(), "too_large"),
        StatusCode::METHOD_NOT_ALLOWED => ("method not allowed for this address".to_string(), "method_not_allowed"),
        StatusCode::NOT_FOUND => (text, "no_route"),
        s if s.is_server_error() => ("internal error; please try again".to_string(), "internal"),
        _ => (text, "bad_request"),
    };
    (status, Json(json!({ "error": message, "code": code }))).into_response()
}

async fn hint(State(st): State<AppState>, Path(id): Path<String>, headers: HeaderMap) -> Result<Response, ApiError> {
    let pool = st.ctx.pool.clone();
    Ok(Json(on_game!(st, id, |h| h.hint(&pool, token_of(&headers)))?).into_response())
}

/// A JSON request body, or 400 saying what is wrong with it and in which field.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_str(body);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." || path.is_empty() {
            bad_body(inner)
        } else {
            ApiError::BadRequest(format!("bad request body: {path}: {inner}"))
        }
    })?;
    // Nothing but white space may follow the value.
    de.end().map_err(bad_body)?;
    Ok(value)
}

/// The answer to a request body that does not read.
pub(crate) fn bad_body(e: serde_json::Error) -> ApiError {
    ApiError::BadRequest(format!("bad request body: {e}"))
}

async fn create(
    State(st): State<AppState>,
    PeerIp(ip): PeerIp,
    accounts::Me(me): accounts::Me,
    body: String,
) -> Result<Response, ApiError> {
    let opts: Options = parse(&body)?;
    st.allow_new_game(ip)?;
    let c = game::create(st.ctx.clone(), opts, me.map(game::Player::from)).await?;
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    state: Option<String>,
}

/// Live games listed with their position.
const LIVE_THUMBNAILS: usize = 20;

async fn list(State(st): State<AppState>, Query(q): Query<ListQuery>) -> Result<Response, ApiError> {
    let state = q.state.unwrap_or_else(|| "waiting".into());
    if !["waiting", "live", "finished"].contains(&state.as_str()) {
        return Err(ApiError::BadRequest("state must be waiting, live or finished".into()));
    }
    let rows = st.ctx.store.list(&state, 100).await?;
    // Only lobby games are public: invitations, games on one device and games against
    // the engine are reached by their own link only.
    let mut games: Vec<_> = rows
        .iter()
        .filter(|r| r.mode == "open")
        .map(|r| json!({"id": r.id, "variant": r.variant, "mode": r.mode, "state": r.status, "result": r.result, "created_ms": r.created_ms}))
        .collect();
    // Games being played show their position (for the lobby's thumbnails), read from
    // the games in memory; a game is not loaded for it.
    if state == "live" {
        for g in games.iter_mut().take(LIVE_THUMBNAILS) {
            let Some(h) = g["id"].as_str().and_then(|id| st.ctx.games.running(id)) else { continue };
            let Ok(snap) = h.snapshot().await else { continue };
            g["fen"] = json!(snap.fen);
            g["players"] = json!(snap.players.iter().map(|p| p.as_ref().map(|p| p.name.clone())).collect::<Vec<_>>());
        }
    }
    Ok(Json(json!({ "games": games })).into_response())
}

async fn snapshot(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(on_game!(st, id, |h| h.snapshot())?).into_response())
}

async fn join(
    State(st): State<AppState>,
    Path(id): Path<String>,
    accounts::Me(me): accounts::Me,
    body: String,
) -> Result<Response, ApiError> {
    let req: JoinRequest = if body.trim().is_empty() { JoinRequest::default() } else { parse(&body)? };
    let player = me.map(game::Player::from);
    Ok(Json(on_game!(st, id, |h| h.join(req.clone(), player.clone()))?).into_response())
}

/// The seat token of a request (header `x-dama-token`).
pub(crate) fn token_of(headers: &HeaderMap) -> Option<String> {
    headers.get("x-dama-token").and_then(|v| v.to_str().ok()).map(str::to_string)
}

async fn act(
    State(st): State<AppState>,
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
async fn report_chat(
    State(st): State<AppState>,
    Path((id, n)): Path<(String, i64)>,
    body: String,
) -> Result<Response, ApiError> {
    let r: Report = parse(&body)?;
    let reason: String = r.reason.trim().chars().filter(|c| !c.is_control()).take(200).collect();
    if reason.is_empty() {
        return Err(ApiError::BadRequest("say why you report the line".into()));
    }
    let lines = st.ctx.store.chat(&id).await?;
    let Some(line) = lines.iter().find(|l| l.n == n) else {
        return Err(ApiError::NotFound(format!("{id} chat line {n}")));
    };
    st.ctx.store.report_chat(&id, n, &reason, game::now_ms()).await?;
    tracing::warn!(game = %id, line = n, author = %line.author, reason = %reason, "chat line reported");
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

/// The client's address: the connection's peer, or with the `forwarded_for` setting the
/// last X-Forwarded-For entry (the one the proxy in front added); unspecified when the
/// server runs without connection info.
pub struct PeerIp(pub IpAddr);

impl FromRequestParts<AppState> for PeerIp {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, st: &AppState) -> Result<Self, Self::Rejection> {
        let forwarded = || {
            let h = parts.headers.get_all("x-forwarded-for").iter().next_back()?;
            h.to_str().ok()?.rsplit(',').next()?.trim().parse::<IpAddr>().ok()
        };
        let peer = || parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        let ip = if st.ctx.limits.forwarded_for() { forwarded().or_else(peer) } else { peer() };
        Ok(PeerIp(ip.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WsQuery {
    since: Option<u64>,
    token: Option<String>,
}

async fn websocket(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    PeerIp(ip): PeerIp,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if q.token.is_some() {
        return Err(ApiError::BadRequest(
            "send the seat token in the first frame ({\"type\": \"hello\", \"token\": ...}), not in the address".into(),
        ));
    }
    // An unknown game is refused before the upgrade.
    st.ctx.game(&id).await?;
    let ctx = st.ctx.clone();
    let token = token_of(&headers);
    let since = q.since;
    if ctx.shutting_down() {
        return Err(ApiError::Gone);
    }
    Ok(ws::configure(upgrade, &ctx.limits).on_upgrade(move |socket| {
        use tracing::Instrument;
        let span = tracing::info_span!("websocket", game = %id);
        ws::client(socket, ctx, id, ws::Opening { since, ip, token }).instrument(span)
    }))
}
