//! The router: every address with its handler, and the layers in front of them. Only
//! `lib.rs` reads this module: handlers live with their concern, never here.

use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::routing::{get, post};
use axum::Router;

use crate::games_api::*;
use crate::middleware::{json_errors, limit_requests, trace_requests};
use crate::state::Services;
use crate::{accounts, analysis, bot, replay, seeks, web};

/// The router. JSON bodies are bounded by the `body` limit, the replay route's (PDN
/// files) by the `pdn` limit.
pub fn router(state: Services) -> Router {
    let limits = state.limits.clone();
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
        .route("/leaderboard", get(index))
        .route("/games", get(index))
        .route("/learn", get(index))
        .route("/learn/{variant}", get(index))
        .route("/login", get(index))
        .route("/player/{name}", get(index))
        .route("/mod", get(index))
        .route("/tournaments", get(index))
        .route("/tournament/{id}", get(index))
        .route("/assets/{file}", get(web::asset))
        .route("/api/variants", get(web::variants))
        .route("/api/levels", get(web::levels))
        .route("/api/replay", replay_route)
        .route("/api/analysis/position", post(analysis::position))
        .route("/api/analysis/import", import_route)
        .route("/api/analysis/export", post(analysis::export))
        .route("/api/analysis/ws", get(analysis::engine::websocket))
        .route("/api/explorer", get(crate::explorer::moves))
        .route("/api/puzzles/next", get(crate::puzzles::next))
        .route("/api/leaderboard", get(crate::leaderboard::board))
        .route("/api/puzzles/{id}/check", post(crate::puzzles::check))
        .route("/api/puzzles/{id}/attempt", post(crate::puzzles::attempt))
        .route("/api/learn", get(crate::learn::index))
        .route("/api/learn/check", post(crate::learn::check))
        .route("/api/learn/progress", get(crate::learn::progress).post(crate::learn::save_progress))
        .route("/api/learn/{variant}", get(crate::learn::variant))
        .route("/api/accounts", post(accounts::sign_up))
        .route("/api/accounts/password", post(accounts::claim))
        .route("/api/guests", post(accounts::guest))
        .route("/api/session", post(accounts::log_in).get(accounts::whoami).delete(accounts::log_out))
        .route("/api/players/{name}", get(crate::players::player))
        .route("/api/players/{name}/games.pdn", get(crate::players::player_pdn))
        .route("/api/tokens", post(accounts::new_token))
        .route("/api/me/games", get(crate::my_games::list))
        .route("/api/me/following", get(crate::follows::following))
        .route("/api/players/{name}/follow", post(crate::follows::follow).delete(crate::follows::unfollow))
        .route("/api/players/{name}/block", post(crate::challenges::block).delete(crate::challenges::unblock))
        .route("/api/players/{name}/challenge", post(crate::challenges::create))
        .route("/api/challenges", get(crate::challenges::list))
        .route("/api/tournaments", get(crate::tournaments::api::list).post(crate::tournaments::api::create))
        .route("/api/tournaments/{id}", get(crate::tournaments::api::get))
        .route("/api/tournaments/{id}/join", post(crate::tournaments::api::join))
        .route("/api/tournaments/{id}/leave", post(crate::tournaments::api::leave))
        .route("/api/tournaments/{id}/games.pdn", get(crate::tournaments::api::pdn))
        .route("/api/challenges/{id}/accept", post(crate::challenges::accept))
        .route("/api/challenges/{id}/decline", post(crate::challenges::decline))
        .route("/api/challenges/{id}/cancel", post(crate::challenges::cancel))
        .route("/api/me/notifications", get(crate::notify::inbox::list))
        .route("/api/me/notifications/read", post(crate::notify::inbox::read))
        .route(
            "/api/me/settings",
            get(crate::challenges::settings::settings).post(crate::challenges::settings::set_settings),
        )
        .route("/api/me/ws", get(crate::notify::inbox::websocket))
        .route("/api/push/key", get(crate::push::key))
        .route("/api/me/push", post(crate::push::subscribe).delete(crate::push::unsubscribe))
        .route("/sw.js", get(crate::web::service_worker))
        .route("/api/mod/reports", get(crate::moderation::reports))
        .route("/api/mod/reports/{id}/{n}", post(crate::moderation::handle))
        .route("/api/mod/accounts/{name}/chat", post(crate::moderation::mute))
        .route("/api/stream/event", get(bot::stream_events))
        .route("/api/bot/game/stream/{id}", get(bot::stream_game))
        .route("/api/bot/game/{id}/move/{move}", post(bot::play))
        .route("/api/bot/game/{id}/resign", post(bot::resign))
        .route("/api/bot/game/{id}/berserk", post(bot::berserk))
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
