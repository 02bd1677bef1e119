//! `POST /api/replay`: PDN text (or one FEN) read into games for the replay screen.
//!
//! The answer is compact and bounded: each game's start position and its moves (the
//! squares each one visits and takes); the page computes the positions itself. At most
//! [`MAX_GAMES`] games and [`MAX_MOVES`] moves are sent at once (`next` says where the
//! following page starts), the work runs on the blocking pool behind a gate sized to
//! the machine, and memory per request stays a small multiple of its size.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use dama_core::any::{AnyGame, AnyPosition, MoveView, PieceView};
use dama_core::pdn::{PdnGame, PdnReader};
use dama_core::record::variant_of;
use dama_core::{Color, Variant};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::invalid::Invalid;
use crate::state::Services;

pub use crate::services::replay_gate::ReplayGate;

/// The largest request body for PDN texts up to `pdn` bytes (the `pdn` limit): the PDN
/// as a JSON string, with room for its escapes.
pub fn request_limit(pdn: usize) -> usize {
    pdn.saturating_add(pdn / 4)
}
/// At most this many games are sent at once.
pub const MAX_GAMES: usize = 200;
/// At most this many moves (all games together) are sent at once.
pub const MAX_MOVES: usize = 50_000;

/// What `POST /api/replay` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    /// PDN text of one game or more.
    #[serde(default)]
    pdn: Option<String>,
    /// A position instead.
    #[serde(default)]
    fen: Option<String>,
    /// Variant of games without a GameType tag, and of the FEN.
    #[serde(default)]
    variant: Option<String>,
    /// Games of the file to pass over (the `next` of the previous page).
    #[serde(default)]
    skip: usize,
}

/// A position: FEN, pieces, side to move.
#[derive(Serialize)]
struct PositionOut {
    fen: String,
    pieces: Vec<PieceView>,
    side: Color,
}

impl PositionOut {
    fn of(pos: &AnyPosition) -> PositionOut {
        PositionOut { fen: pos.fen(), pieces: pos.pieces(), side: pos.side() }
    }
}

/// One game of the answer.
#[derive(Serialize, Default)]
struct GameOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<&'static str>,
    tags: serde_json::Map<String, serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<PositionOut>,
    moves: Vec<MoveView>,
    warnings: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// The error as a code and where it is, for clients to word in their language.
    #[serde(skip_serializing_if = "Option::is_none")]
    error_at: Option<ErrorAt>,
    /// The error with its code (`pdn_<rule>`) and details, as the API's errors carry
    /// them (`{code, arg}`), for clients to word in their language.
    #[serde(skip_serializing_if = "Option::is_none")]
    problem: Option<serde_json::Value>,
}

/// Where a game stops replaying, and why (`code`: `setup`, `illegal_move`,
/// `ambiguous_move`, `bad_move_text`, `result_mismatch`; `detail`: the reason in English).
#[derive(Serialize)]
struct ErrorAt {
    code: &'static str,
    line: usize,
    col: usize,
    ply: usize,
    text: String,
    detail: String,
}

/// The answer.
#[derive(Serialize, Default)]
struct ReplayOut {
    games: Vec<GameOut>,
    more: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<usize>,
}

/// Replays a game, keeping at most `budget` of its moves: up to its first bad move
/// when it has one.
fn replay_game(variant: Variant, g: &PdnGame, budget: usize) -> GameOut {
    let tags = g.tags.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect();
    let mut out = GameOut { variant: Some(variant.key()), tags, ..GameOut::default() };
    let r = match AnyGame::replay(variant, g) {
        Ok(r) => r,
        Err(e) => {
            let at = format!("line {}, column {}", e.at.line, e.at.col);
            out.problem = Some(Invalid::from(&e).to_json());
            out.error_at = Some(ErrorAt {
                code: e.kind.code(),
                line: e.at.line,
                col: e.at.col,
                ply: e.ply,
                text: e.text.clone(),
                detail: e.reason.clone(),
            });
            out.error = Some(if e.ply == 0 {
                format!("{at}: {}", e.reason)
            } else {
                format!("{at}: move {} \"{}\": {}", e.ply, e.text, e.reason)
            });
            // A bad move does not hide the game: it is shown up to that move.
            let mut before = g.clone();
            before.moves.truncate(e.ply.saturating_sub(1));
            before.result = None;
            match (e.ply > 0).then(|| AnyGame::replay(variant, &before)) {
                Some(Ok(r)) => r,
                _ => return out,
            }
        }
    };
    out.start = Some(PositionOut::of(&r.game.start()));
    out.moves = r.game.views(budget);
    out.warnings = r.warnings.iter().map(|w| w.to_string()).collect();
    if r.game.ply() > budget {
        out.warnings.push(format!("only the first {budget} of its {} moves are shown", r.game.ply()));
    }
    out
}

/// A position alone, as a game without moves.
fn fen_only(variant: Variant, fen: &str) -> Result<GameOut, ApiError> {
    let pos = AnyPosition::new(variant, Some(fen.trim()))?;
    Ok(GameOut { variant: Some(variant.key()), start: Some(PositionOut::of(&pos)), ..GameOut::default() })
}

fn variant_named(key: Option<&str>) -> Result<Option<Variant>, ApiError> {
    key.filter(|k| !k.is_empty()).map(crate::analysis::variant_named).transpose()
}

/// Replays the games of `text` from game `skip`, at most `max_games` games and
/// `max_moves` moves.
fn replay_text(text: &str, default: Option<Variant>, skip: usize, max_games: usize, max_moves: usize) -> ReplayOut {
    let mut out = ReplayOut::default();
    let mut moves = 0;
    for (i, g) in PdnReader::new(text.as_bytes()).enumerate().skip(skip) {
        if out.games.len() == max_games || moves >= max_moves {
            (out.more, out.next) = (true, Some(i));
            break;
        }
        let game = match g {
            Ok(g) => {
                // A game that would pass the page's bound waits for the next page,
                // unless it is the first (then it is cut).
                if !out.games.is_empty() && moves + g.moves.len() > max_moves {
                    (out.more, out.next) = (true, Some(i));
                    break;
                }
                match variant_of(&g, default.unwrap_or(Variant::English)) {
                    Ok(v) => replay_game(v, &g, max_moves - moves),
                    Err(e) => GameOut {
                        problem: Some(Invalid::pdn_game_type(&g, e.clone()).to_json()),
                        error: Some(e),
                        ..GameOut::default()
                    },
                }
            }
            Err(e) => GameOut {
                problem: Some(Invalid::pdn_unreadable(&e).to_json()),
                error: Some(e.to_string()),
                ..GameOut::default()
            },
        };
        moves += game.moves.len();
        out.games.push(game);
    }
    out
}

/// `POST /api/replay`.
pub async fn replay_games(State(st): State<Services>, body: String) -> Result<Response, ApiError> {
    let req: ReplayRequest =
        serde_json::from_str(&body).map_err(|e| ApiError::BadRequest(format!("bad request body: {e}")))?;
    drop(body);
    let default = variant_named(req.variant.as_deref())?;
    if let Some(fen) = req.fen.as_deref().filter(|f| !f.trim().is_empty()) {
        let v = default.ok_or_else(|| ApiError::BadRequest("a FEN needs a variant".into()))?;
        let game = fen_only(v, fen)?;
        return Ok(axum::Json(ReplayOut { games: vec![game], ..ReplayOut::default() }).into_response());
    }
    let text = req.pdn.unwrap_or_default();
    if text.trim().is_empty() {
        return Err(Invalid::pdn_no_game().into());
    }
    let most = st.limits.pdn();
    if text.len() > most {
        return Err(Invalid::pdn_too_large(text.len(), most).into());
    }
    let permit = st.replay.enter().await?;
    let skip = req.skip;
    let bytes = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        serde_json::to_vec(&replay_text(&text, default, skip, MAX_GAMES, MAX_MOVES))
    })
    .await
    .map_err(|_| ApiError::Internal)?
    .map_err(|_| ApiError::Internal)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], bytes).into_response())
}

/// The fuzz harness's way in: a replay request read and run with small bounds.
pub(crate) fn fuzz(text: &str) {
    if let Ok(req) = serde_json::from_str::<ReplayRequest>(text) {
        if let Ok(default) = variant_named(req.variant.as_deref()) {
            if let (Some(fen), Some(v)) = (req.fen.as_deref(), default) {
                let _ = fen_only(v, fen);
            }
            let _ = serde_json::to_vec(&replay_text(req.pdn.as_deref().unwrap_or(""), default, req.skip, 5, 500));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_file_is_sent_in_bounded_pages() {
        // One 8-move game, 300 times: 200 games in the first page, then the rest.
        let game = "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 *\n\n";
        let text = game.repeat(300);
        let first = replay_text(&text, None, 0, MAX_GAMES, MAX_MOVES);
        assert_eq!((first.games.len(), first.more, first.next), (MAX_GAMES, true, Some(200)));
        let rest = replay_text(&text, None, 200, MAX_GAMES, MAX_MOVES);
        assert_eq!((rest.games.len(), rest.more), (100, false));
        assert_eq!(rest.games[0].moves.len(), 8);
        // Bounded by moves too: 20 moves a page is two whole games, and a first game
        // longer than a page is cut.
        let page = replay_text(&text, None, 0, MAX_GAMES, 20);
        assert_eq!((page.games.len(), page.next), (2, Some(2)));
        let cut = replay_text(&text, None, 5, MAX_GAMES, 6);
        assert_eq!((cut.games.len(), cut.games[0].moves.len(), cut.next), (1, 6, Some(6)));
        assert!(cut.games[0].warnings[0].contains("first 6 of its 8"), "{:?}", cut.games[0].warnings);
    }
}
