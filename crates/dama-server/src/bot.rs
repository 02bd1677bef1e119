//! Programs as players: an HTTP and NDJSON API shaped like lichess's Bot API, so that
//! bot frameworks adapt easily. A program authenticates with an API token of its
//! account (`Authorization: Bearer`, scope `bot:play`); it offers or accepts seeks with
//! the seek routes, hears its games start on `/api/stream/event`, follows a game on
//! `/api/bot/game/stream/{id}` and plays with `/api/bot/game/{id}/move/{move}`.
//! Streams are newline-delimited JSON, with an empty line every 7 s to keep the
//! connection open.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;
use tokio::sync::{broadcast, mpsc};

use crate::accounts::Bot;
use crate::error::ApiError;
use crate::extract::{on_game, parse, PeerIp};
use crate::game::{Action, Caller, Catchup, Hello};
use crate::protocol::bot::{AccountEvent, BotGame, BotPlayer, ChatLine, Done, GameFull, GameState, GameStreamMsg};
use crate::protocol::{Event, EventBody, Phase, Published, Room};
use crate::state::Services;

pub use crate::services::account_events::{AccountEvents, Out};

/// How often an idle stream sends an empty line.
const KEEP_ALIVE: Duration = Duration::from_secs(7);

/// An NDJSON response fed by a task through `rx`.
fn ndjson(rx: mpsc::Receiver<Bytes>) -> Response {
    let stream =
        futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|b| (Ok::<_, Infallible>(b), rx)) });
    ([(header::CONTENT_TYPE, "application/x-ndjson")], Body::from_stream(stream)).into_response()
}

fn line(v: &impl serde::Serialize) -> Bytes {
    let mut s = serde_json::to_string(v).unwrap_or_default();
    s.push('\n');
    Bytes::from(s)
}

/// The events of the account's channel its programs hear (its pages hear the rest).
fn for_programs(e: &Value) -> bool {
    matches!(
        e["type"].as_str(),
        Some("gameStart" | "gameFinish" | "challenge" | "challengeCanceled" | "challengeDeclined")
    )
}

/// `GET /api/stream/event`: the account's games as they start (`{"type": "gameStart",
/// "game": {"id", "color", "variant"}}`, first for each game already being played) and
/// end (`gameFinish`); challenges to it (`{"type": "challenge", "challenge": {"id",
/// "from", "variant", "rules", "time", "rated", "color", ...}}`, answered with
/// `/api/challenges/{id}/accept` or `/decline`), withdrawn or expired
/// (`challengeCanceled`), and its own challenges declined (`challengeDeclined`).
pub async fn stream_events(State(st): State<Services>, Bot(me): Bot) -> Result<Response, ApiError> {
    let mut events = st.bots.subscribe(&me.id);
    let playing: Vec<Value> = st
        .store()
        .account_games(&me.id, 200)
        .await?
        .into_iter()
        .filter(|g| g.status == Phase::Live)
        .map(|g| {
            let game = BotGame { id: &g.id, color: Some(g.seat), variant: Some(g.variant.key()) };
            AccountEvent::GameStart { game }.value()
        })
        .collect();
    let (tx, rx) = mpsc::channel(16);
    let ctx = st.clone();
    tokio::spawn(async move {
        for e in playing {
            if tx.send(line(&e)).await.is_err() {
                return;
            }
        }
        let stopping = ctx.until_shutdown();
        tokio::pin!(stopping);
        loop {
            let out = tokio::select! {
                e = events.recv() => match e {
                    Ok(e) if for_programs(&e) => line(&e),
                    Ok(_) => continue,
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = tokio::time::sleep(KEEP_ALIVE) => Bytes::from_static(b"\n"),
                _ = &mut stopping => return,
            };
            if tx.send(out).await.is_err() {
                return;
            }
        }
    });
    Ok(ndjson(rx))
}

/// `GET /api/bot/game/stream/{id}`: `{"type": "gameFull", "id", "variant", "white",
/// "black", "initialFen", "state"}` first, then `{"type": "gameState", "moves" (long
/// notation, space-separated), "ply", "side_to_move", "legal" (the legal moves' short
/// notation), "status" ("waiting", "live", "finished"), "result", "clocks",
/// "draw_offer"}` whenever the game changes; the stream ends after the state that
/// finishes the game.
pub async fn stream_game(
    State(st): State<Services>,
    Path(id): Path<String>,
    PeerIp(ip): PeerIp,
    Bot(me): Bot,
) -> Result<Response, ApiError> {
    let h = st.game(&id).await?;
    // Following its game is the program's arrival: a held game of its account starts.
    let hello = Hello { token: None, account: Some(me.id.clone()), since: None, ip };
    let mut sub = h.subscribe(hello).await?;
    let snap = match sub.first {
        Catchup::Snapshot(s) => *s,
        Catchup::Events(_) => h.snapshot().await?,
    };
    let name = |i: usize| snap.players[i].as_ref().map(|p| BotPlayer { name: &p.name });
    // The players' chat is for the players: a program of another account does not see it.
    let seated = snap.players.iter().flatten().any(|p| p.name == me.name);
    let full = line(&GameStreamMsg::Full(GameFull {
        id: &snap.id,
        variant: &snap.variant,
        white: name(0),
        black: name(1),
        initial_fen: &snap.start_fen,
        state: GameState::of(&snap),
    }));
    let (tx, rx) = mpsc::channel(16);
    let ctx = st.clone();
    tokio::spawn(async move {
        let mut last = (snap.moves.len(), snap.state, snap.draw_offer);
        let mut over = snap.state == Phase::Finished;
        if tx.send(full).await.is_err() || over {
            h.leave(ip).await;
            return;
        }
        let stopping = ctx.until_shutdown();
        tokio::pin!(stopping);
        while !over {
            let out = tokio::select! {
                e = sub.rx.recv() => match e.as_deref() {
                    Ok(Published { event: Event { body: EventBody::Chat { room, author, text, .. }, .. }, .. }) => {
                        if *room != Room::Players || !seated {
                            continue;
                        }
                        line(&GameStreamMsg::Chat(ChatLine { room: "player", username: author, text }))
                    }
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        let Ok(s) = h.snapshot().await else { break };
                        // One line per change that matters to a player.
                        let now = (s.moves.len(), s.state, s.draw_offer);
                        if now == last {
                            continue;
                        }
                        last = now;
                        over = s.state == Phase::Finished;
                        line(&GameStreamMsg::State(GameState::of(&s)))
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = tokio::time::sleep(KEEP_ALIVE) => Bytes::from_static(b"\n"),
                _ = &mut stopping => break,
            };
            if tx.send(out).await.is_err() {
                break;
            }
        }
        h.leave(ip).await;
    });
    Ok(ndjson(rx))
}

async fn act(st: &Services, id: &str, me: &crate::store::AccountRow, action: Action) -> Result<Response, ApiError> {
    let caller = Caller { token: None, conn: None, account: Some(me.id.clone()), moderator: false };
    on_game!(st, id, |h| h.act(caller.clone(), action.clone()))?;
    Ok(Json(Done { ok: true }).into_response())
}

/// `POST /api/bot/game/{id}/move/{move}`: plays a move (any notation the game reads).
pub async fn play(
    State(st): State<Services>,
    Path((id, mv)): Path<(String, String)>,
    Bot(me): Bot,
) -> Result<Response, ApiError> {
    act(&st, &id, &me, Action::Move { mv }).await
}

/// `POST /api/bot/game/{id}/chat {"text"}`: a line in the players' chat.
pub async fn chat(
    State(st): State<Services>,
    Path(id): Path<String>,
    Bot(me): Bot,
    body: String,
) -> Result<Response, ApiError> {
    #[derive(serde::Deserialize)]
    struct Line {
        text: String,
    }
    let line: Line = parse(&body)?;
    act(&st, &id, &me, Action::Chat { text: line.text }).await
}

/// `POST /api/bot/game/{id}/resign`.
pub async fn resign(State(st): State<Services>, Path(id): Path<String>, Bot(me): Bot) -> Result<Response, ApiError> {
    act(&st, &id, &me, Action::Resign).await
}

/// `POST /api/bot/game/{id}/berserk` (an arena that allows it, before the first move).
pub async fn berserk(State(st): State<Services>, Path(id): Path<String>, Bot(me): Bot) -> Result<Response, ApiError> {
    act(&st, &id, &me, Action::Berserk).await
}

/// `POST /api/bot/game/{id}/draw/{yes|no}`: offers or accepts a draw (`yes`), or
/// declines the opponent's offer (`no`).
pub async fn draw(
    State(st): State<Services>,
    Path((id, answer)): Path<(String, String)>,
    Bot(me): Bot,
) -> Result<Response, ApiError> {
    let h = st.game(&id).await?;
    let snap = h.snapshot().await?;
    let action = match answer.as_str() {
        "yes" if snap.draw_offer.is_some() => Action::AcceptDraw,
        "yes" => Action::OfferDraw,
        "no" => Action::DeclineDraw,
        _ => return Err(ApiError::BadRequest("answer yes or no".into())),
    };
    act(&st, &id, &me, action).await
}
