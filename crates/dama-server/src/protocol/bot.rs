//! The bot API's messages (newline-delimited JSON, shaped like lichess's Bot API):
//! the account's event stream and a game's stream.

use dama_core::Color;
use serde::Serialize;

use super::view::{ClockView, Phase, ResultView, Snapshot};

/// A game in the account's event stream.
#[derive(Serialize)]
pub struct BotGame<'a> {
    /// The game.
    pub id: &'a str,
    /// The account's colour (on start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// The variant (on start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<&'a str>,
}

/// An event of the account's stream.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum AccountEvent<'a> {
    /// A game of the account starts (or is being played when the stream opens).
    GameStart {
        /// The game.
        game: BotGame<'a>,
    },
    /// A game of the account is over.
    GameFinish {
        /// The game.
        game: BotGame<'a>,
    },
}

impl AccountEvent<'_> {
    /// As JSON, for the accounts' channels.
    pub fn value(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// A player in `gameFull`.
#[derive(Serialize)]
pub struct BotPlayer<'a> {
    /// The account's name.
    pub name: &'a str,
}

/// A game's state as a program sees it.
#[derive(Serialize)]
#[serde(tag = "type", rename = "gameState")]
pub struct GameState<'a> {
    /// The moves, long notation, space-separated.
    pub moves: String,
    /// Plies played.
    pub ply: usize,
    /// The side to move.
    pub side_to_move: Color,
    /// The legal moves' short notation.
    pub legal: Vec<&'a str>,
    /// Where the game stands.
    pub status: Phase,
    /// The result, once over.
    pub result: &'a Option<ResultView>,
    /// The clocks.
    pub clocks: &'a Option<ClockView>,
    /// Who offers a draw.
    pub draw_offer: Option<Color>,
}

impl<'a> GameState<'a> {
    /// The state of a snapshot.
    pub fn of(s: &'a Snapshot) -> GameState<'a> {
        let moves: Vec<&str> = s.moves.iter().map(|m| m.long.as_str()).collect();
        GameState {
            moves: moves.join(" "),
            ply: s.moves.len(),
            side_to_move: s.side_to_move,
            legal: s.legal.iter().map(|m| m.notation.as_str()).collect(),
            status: s.state,
            result: &s.result,
            clocks: &s.clocks,
            draw_offer: s.draw_offer,
        }
    }
}

/// A message of a game's stream.
#[derive(Serialize)]
#[serde(untagged)]
pub enum GameStreamMsg<'a> {
    /// The game as it stands when the stream opens.
    Full(GameFull<'a>),
    /// Its state after a change.
    State(GameState<'a>),
    /// A line of the players' chat.
    Chat(ChatLine<'a>),
}

/// The first message of a game's stream.
#[derive(Serialize)]
#[serde(tag = "type", rename = "gameFull")]
pub struct GameFull<'a> {
    /// The game.
    pub id: &'a str,
    /// Its variant.
    pub variant: &'a str,
    /// White's account.
    pub white: Option<BotPlayer<'a>>,
    /// Black's account.
    pub black: Option<BotPlayer<'a>>,
    /// The start position.
    #[serde(rename = "initialFen")]
    pub initial_fen: &'a str,
    /// The state now.
    pub state: GameState<'a>,
}

/// A line of the players' chat.
#[derive(Serialize)]
#[serde(tag = "type", rename = "chatLine")]
pub struct ChatLine<'a> {
    /// Always `player`.
    pub room: &'static str,
    /// Who wrote it.
    pub username: &'a str,
    /// What they wrote.
    pub text: &'a str,
}

/// The answer to a bot's action.
#[derive(Serialize)]
pub struct Done {
    /// Always true.
    pub ok: bool,
}
