//! What clients see of a game: the snapshot and its parts, colours as
//! [`dama_core::Color`] (sent as `"white"` and `"black"`).

use dama_core::any::{MoveView, PieceView};
use dama_core::game::EndReason;
use dama_core::Color;
use serde::{Deserialize, Serialize};

use super::options::{Mode, Options};

/// Where a game stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for its second player.
    #[default]
    Waiting,
    /// Being played.
    Live,
    /// Over.
    Finished,
}

impl Phase {
    /// Its name, as in the API and the database.
    pub fn key(self) -> &'static str {
        match self {
            Phase::Waiting => "waiting",
            Phase::Live => "live",
            Phase::Finished => "finished",
        }
    }
}

impl std::str::FromStr for Phase {
    type Err = String;
    fn from_str(s: &str) -> Result<Phase, String> {
        [Phase::Waiting, Phase::Live, Phase::Finished]
            .into_iter()
            .find(|p| p.key() == s)
            .ok_or_else(|| format!("unknown game state '{s}'"))
    }
}

/// Why a game ended, for clients to word in their language: `code` names it (`time`,
/// `repetition`, `aborted`, ..., `other` for an old text the server does not know),
/// `n` is its number where it has one, `side` the player it names where it names one.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ReasonView {
    /// The reason's name.
    pub code: String,
    /// Its number, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
    /// The side it names, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Color>,
}

impl ReasonView {
    /// The view of a reason (`other` for none).
    pub fn of(reason: Option<EndReason>) -> ReasonView {
        match reason {
            Some(r) => ReasonView { code: r.code().into(), n: r.number(), side: r.side() },
            None => ReasonView { code: "other".into(), n: None, side: None },
        }
    }
}

/// The result as clients see it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ResultView {
    /// The winner, or null for a draw or a game called off.
    pub winner: Option<Color>,
    /// PDN result token (`*` for a game called off).
    pub token: String,
    /// In words: "Draw: 3 kings could not catch the lone king in 15 moves".
    pub text: String,
    /// Why, as a code.
    pub reason: ReasonView,
}

/// Both clocks.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ClockView {
    /// White's time left, ms.
    pub white_ms: u64,
    /// Black's time left, ms.
    pub black_ms: u64,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// While the side to move has not made its first move: the time left to make it
    /// before the game is aborted (its clock stands meanwhile).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_move_ms: Option<u64>,
}

/// A player as clients see them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PlayerView {
    /// The account's name.
    pub name: String,
    /// What the game did to their rating, once a rated game is over.
    pub rating: Option<RatingView>,
}

/// A rating change, rounded.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RatingView {
    /// Before the game.
    pub before: i64,
    /// After it.
    pub after: i64,
    /// The difference.
    pub change: i64,
}

impl RatingView {
    /// The view of a change from `before` to `after`.
    pub fn of(before: f64, after: f64) -> RatingView {
        let (b, a) = (before.round() as i64, after.round() as i64);
        RatingView { before: b, after: a, change: a - b }
    }
}

/// A hint: the engine's move, and (where the end is known: endgame tables, or a win
/// the search sees) who wins in how many moves of the side to move.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Hint {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The known end, if any.
    pub end: Option<HintEnd>,
}

/// A known end, as a hint says it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct HintEnd {
    /// `win` or `loss`, for the side to move.
    pub result: String,
    /// In how many of its moves.
    pub moves: i32,
}

/// Everything about a game at one version.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Snapshot {
    /// Game id.
    pub id: String,
    /// Variant key.
    pub variant: String,
    /// Mode.
    pub mode: Mode,
    /// Version: the number of events so far.
    pub version: u64,
    /// Start position.
    pub start_fen: String,
    /// Current position.
    pub fen: String,
    /// Pieces.
    pub pieces: Vec<PieceView>,
    /// The side to move.
    pub side_to_move: Color,
    /// Legal moves of the side to move.
    pub legal: Vec<MoveView>,
    /// Moves played.
    pub moves: Vec<MoveView>,
    /// Where the game stands.
    pub state: Phase,
    /// Result, once finished.
    pub result: Option<ResultView>,
    /// Clocks, if the game has them.
    pub clocks: Option<ClockView>,
    /// Which seats are taken.
    pub seats: [bool; 2],
    /// The engine's colour in AI mode.
    pub ai: Option<Color>,
    /// Who offers a draw.
    pub draw_offer: Option<Color>,
    /// The rematch or next game of the series, once it exists.
    pub next_game: Option<String>,
    /// Who asks to take back a move.
    pub takeback_offer: Option<Color>,
    /// Who asks for a rematch.
    pub rematch_offer: Option<Color>,
    /// Options chosen at creation (suggestions, touch-move, series length, clock).
    pub options: Options,
    /// The logged-in players at the seats (White, Black), with their rating changes
    /// once a rated game is over.
    pub players: [Option<PlayerView>; 2],
    /// A rematch or the next game of a series waits for its players: its clock starts
    /// once they are all there (a `started` event says when).
    #[serde(default)]
    pub held: bool,
    /// Who went berserk in a tournament game (White, Black).
    #[serde(default)]
    pub berserk: [bool; 2],
    /// Each player's connection as measured (White, Black): the round trip, ms.
    #[serde(default)]
    pub connection: [Option<u32>; 2],
}
