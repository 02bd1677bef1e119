//! What clients send and receive: game options, snapshots, events, actions and seats.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::session::{MoveView, PieceView};

/// How a game is played.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Against the engine.
    #[default]
    Ai,
    /// Two players on one device.
    Hotseat,
    /// Online with a friend through an invite link.
    Friend,
    /// Online, listed in the lobby for anyone to join.
    Open,
}

impl Mode {
    /// The mode's name, as in the API and the database.
    pub fn key(self) -> &'static str {
        match self {
            Mode::Ai => "ai",
            Mode::Hotseat => "hotseat",
            Mode::Friend => "friend",
            Mode::Open => "open",
        }
    }
}

/// Which rules end the game.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RulesChoice {
    /// The variant's official rules.
    #[default]
    Official,
    /// Seed 000 (Russian: its own draws only, without FMJD's counts).
    Seed000,
    /// Seed 001 (English house rules).
    Seed001,
    /// Seed 003 (official English rules with an arbiter).
    Seed003,
}

/// The creator's colour.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Drawn at random.
    #[default]
    Random,
}

/// A new game's settings.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Variant key.
    pub variant: String,
    /// Mode.
    #[serde(default)]
    pub mode: Mode,
    /// Engine level 1-10 (AI mode).
    #[serde(default = "default_level")]
    pub level: u8,
    /// The creator's colour.
    #[serde(default)]
    pub color: ColorChoice,
    /// Time control.
    #[serde(default)]
    pub time: TimeControl,
    /// End and draw rules.
    #[serde(default)]
    pub rules: RulesChoice,
    /// Start position (FEN), if not the standard one.
    #[serde(default)]
    pub fen: Option<String>,
    /// Spectators may suggest moves to the player to move.
    #[serde(default)]
    pub suggestions: bool,
    /// Touch-move (seed 003): a player who selects a piece that can move must move it.
    #[serde(default)]
    pub touch_move: bool,
    /// Games in the series, colours alternating (seed 003); 1 for a single game.
    #[serde(default = "one")]
    pub series: u32,
    /// Where this game stands in its series (set by the server).
    #[serde(default)]
    pub series_state: Option<SeriesState>,
    /// Rated: between two logged-in players, with a clock, from the standard start under
    /// the official rules; the result changes both players' ratings.
    #[serde(default)]
    pub rated: bool,
    /// An open game: only opponents rated within this range may join.
    #[serde(default)]
    pub rating_range: Option<[u32; 2]>,
}

impl Options {
    /// Checks what the creator chose (the variant and position are checked when the
    /// game is set up).
    pub fn validate(&self) -> Result<(), ApiError> {
        if !(1..=10).contains(&self.level) {
            return Err(ApiError::BadRequest("level must be 1 to 10".into()));
        }
        if !(1..=100).contains(&self.series) {
            return Err(ApiError::BadRequest("a series has 1 to 100 games".into()));
        }
        if self.fen.as_ref().is_some_and(|f| f.len() > 2000) {
            return Err(ApiError::BadRequest("fen: too long (2000 characters at most)".into()));
        }
        self.time.validate().map_err(ApiError::BadRequest)?;
        if let Some([lo, hi]) = self.rating_range {
            if lo > hi || hi > 4000 {
                return Err(ApiError::BadRequest("rating_range is [lowest, highest], at most 4000".into()));
            }
            if self.mode != Mode::Open {
                return Err(ApiError::BadRequest("only open games have a rating range".into()));
            }
        }
        if self.rated {
            let why = if !matches!(self.mode, Mode::Open | Mode::Friend) {
                "only games between two players (open or friend) can be rated"
            } else if self.fen.is_some() {
                "a rated game starts from the standard position"
            } else if self.rules != RulesChoice::Official {
                "a rated game is played under the official rules"
            } else if self.time == TimeControl::None {
                "a rated game needs a clock"
            } else {
                return Ok(());
            };
            return Err(ApiError::BadRequest(why.into()));
        }
        Ok(())
    }
}

/// An account at a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The account's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// A guest (a name only): casual games only.
    pub guest: bool,
}

impl From<crate::store::AccountRow> for Player {
    fn from(a: crate::store::AccountRow) -> Player {
        let guest = a.is_guest();
        Player { id: a.id, name: a.name, guest }
    }
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

fn one() -> u32 {
    1
}

/// A game's place in a series and the running score.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SeriesState {
    /// Game number, from 1.
    pub game: u32,
    /// Points so far of the players now White and Black.
    pub score: [f64; 2],
}

fn default_level() -> u8 {
    5
}

/// The result as clients see it (read back without its `reason`, which the text gives).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ResultView {
    /// "white", "black" or null for a draw.
    pub winner: Option<String>,
    /// PDN result token.
    pub token: String,
    /// In words: "Draw: 3 kings could not catch the lone king in 15 moves".
    pub text: String,
}

/// Sent as `{winner, token, text, reason}`: `reason` is the text's code and arguments
/// ([`super::reason::Reason`]) for clients to word in their language.
impl Serialize for ResultView {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("ResultView", 4)?;
        st.serialize_field("winner", &self.winner)?;
        st.serialize_field("token", &self.token)?;
        st.serialize_field("text", &self.text)?;
        st.serialize_field("reason", &super::reason::of_text(&self.text))?;
        st.end()
    }
}

/// Both clocks.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ClockView {
    /// White's time left, ms.
    pub white_ms: u64,
    /// Black's time left, ms.
    pub black_ms: u64,
    /// Whose clock runs.
    pub running: Option<String>,
    /// While the side to move has not made its first move: the time left to make it
    /// before the game is aborted (its clock stands meanwhile).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_move_ms: Option<u64>,
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
    /// "white" or "black".
    pub side_to_move: String,
    /// Legal moves of the side to move.
    pub legal: Vec<MoveView>,
    /// Moves played.
    pub moves: Vec<MoveView>,
    /// "waiting", "live" or "finished".
    pub state: String,
    /// Result, once finished.
    pub result: Option<ResultView>,
    /// Clocks, if the game has them.
    pub clocks: Option<ClockView>,
    /// Which seats are taken.
    pub seats: [bool; 2],
    /// The engine's colour in AI mode.
    pub ai: Option<String>,
    /// Who offers a draw.
    pub draw_offer: Option<String>,
    /// The rematch or next game of the series, once it exists.
    pub next_game: Option<String>,
    /// Who asks to take back a move.
    pub takeback_offer: Option<String>,
    /// Who asks for a rematch.
    pub rematch_offer: Option<String>,
    /// Options chosen at creation (suggestions, touch-move, series length, clock).
    pub options: Options,
    /// The logged-in players at the seats (White, Black), with their rating changes
    /// once a rated game is over.
    pub players: [Option<PlayerView>; 2],
}

/// An event with its JSON text, made once when it happens and shared by every
/// subscriber (websockets, bots, DXP links, the cluster's feed): no subscriber copies
/// the event or serializes it again.
#[derive(Debug)]
pub struct Published {
    /// The event.
    pub event: Event,
    /// Its JSON text, as sent to websockets and to the other nodes.
    pub text: axum::extract::ws::Utf8Bytes,
}

impl Published {
    /// Serializes `event` once.
    pub fn new(event: Event) -> Arc<Published> {
        let text = serde_json::to_string(&event).unwrap_or_default().into();
        Arc::new(Published { event, text })
    }
}

/// Something that happened, with the version it made.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A move.
    Move {
        /// Version.
        v: u64,
        /// Ply number.
        ply: usize,
        /// The move.
        mv: MoveView,
        /// Position after it.
        fen: String,
        /// Clocks after it.
        clocks: Option<ClockView>,
    },
    /// A player took a seat; the game may have started.
    Joined {
        /// Version.
        v: u64,
        /// The seat.
        color: String,
    },
    /// A draw was offered.
    DrawOffer {
        /// Version.
        v: u64,
        /// By whom.
        by: String,
    },
    /// The draw offer was declined (or lapsed with a move).
    DrawDeclined {
        /// Version.
        v: u64,
    },
    /// The game ended.
    End {
        /// Version.
        v: u64,
        /// The result.
        result: ResultView,
    },
    /// A takeback was asked for.
    TakebackOffer {
        /// Version.
        v: u64,
        /// By whom.
        by: String,
    },
    /// Moves were taken back: clients resync.
    Takeback {
        /// Version.
        v: u64,
        /// Plies taken back.
        plies: usize,
        /// Position now.
        fen: String,
    },
    /// The takeback request was declined.
    TakebackDeclined {
        /// Version.
        v: u64,
    },
    /// A rematch was asked for.
    RematchOffer {
        /// Version.
        v: u64,
        /// By whom.
        by: String,
    },
    /// The next game (rematch or next of the series) is ready; the players keep their
    /// tokens, with colours swapped.
    NextGame {
        /// Version.
        v: u64,
        /// The new game.
        id: String,
        /// Its series state, if in a series.
        series: Option<SeriesState>,
    },
    /// A rated game's result changed the players' ratings (White's, Black's).
    Rated {
        /// Version.
        v: u64,
        /// The changes.
        ratings: [Option<RatingView>; 2],
    },
    /// A chat line, sent only to its room (unversioned).
    Chat {
        /// The current version (chat does not change it).
        v: u64,
        /// The line's number in the game.
        n: i64,
        /// "players" or "spectators".
        room: String,
        /// Who wrote it.
        author: String,
        /// What they wrote.
        text: String,
    },
    /// A moderator hid a chat line: its room's clients drop it (unversioned).
    ChatHidden {
        /// The current version (hiding does not change it).
        v: u64,
        /// The line's number in the game.
        n: i64,
        /// Its room.
        room: String,
    },
    /// The legal moves of the side to move, sent only to its player after each event
    /// that changes them (a move, a takeback, the start), so that the page needs no
    /// snapshot to go on (unversioned: `v` is the version they are for).
    Legal {
        /// The version they are for.
        v: u64,
        /// The player they are for.
        to: String,
        /// The legal moves.
        moves: Vec<MoveView>,
    },
    /// Spectators' suggestions, sent only to the player to move (unversioned).
    Suggestions {
        /// The current version (suggestions do not change it).
        v: u64,
        /// Ply the suggestions are for.
        ply: usize,
        /// The player they are for.
        to: String,
        /// Moves with how many spectators suggested each, most first.
        moves: Vec<(String, usize)>,
    },
}

impl Event {
    /// The version this event made.
    pub fn version(&self) -> u64 {
        match *self {
            Event::Move { v, .. }
            | Event::Joined { v, .. }
            | Event::DrawOffer { v, .. }
            | Event::DrawDeclined { v }
            | Event::End { v, .. }
            | Event::TakebackOffer { v, .. }
            | Event::Takeback { v, .. }
            | Event::TakebackDeclined { v }
            | Event::RematchOffer { v, .. }
            | Event::NextGame { v, .. }
            | Event::Rated { v, .. }
            | Event::Chat { v, .. }
            | Event::ChatHidden { v, .. }
            | Event::Legal { v, .. }
            | Event::Suggestions { v, .. } => v,
        }
    }

    /// Gives the event its version.
    pub fn set_version(&mut self, version: u64) {
        match self {
            Event::Move { v, .. }
            | Event::Joined { v, .. }
            | Event::DrawOffer { v, .. }
            | Event::DrawDeclined { v }
            | Event::End { v, .. }
            | Event::TakebackOffer { v, .. }
            | Event::Takeback { v, .. }
            | Event::TakebackDeclined { v }
            | Event::RematchOffer { v, .. }
            | Event::NextGame { v, .. }
            | Event::Rated { v, .. }
            | Event::Chat { v, .. }
            | Event::ChatHidden { v, .. }
            | Event::Legal { v, .. }
            | Event::Suggestions { v, .. } => *v = version,
        }
    }
}

/// A player's action.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play a move (`11-15`, `c3:e5`, `h6:f8:b4:e1`).
    Move {
        /// Move text.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Resign.
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Accept the opponent's offer.
    AcceptDraw,
    /// Decline it.
    DeclineDraw,
    /// Abort before both sides have moved.
    Abort,
    /// A spectator suggests a move to the player to move.
    Suggest {
        /// Move text.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Touch-move: select the piece on a square.
    Touch {
        /// Square name.
        square: String,
    },
    /// Ask to take back (against the engine or on one device: done at once).
    Takeback,
    /// Accept the opponent's takeback request.
    AcceptTakeback,
    /// Decline it.
    DeclineTakeback,
    /// Ask for a rematch once the game is over (both must ask in online games).
    Rematch,
    /// Write a line in the game's chat (players in theirs, spectators in theirs).
    Chat {
        /// The line.
        text: String,
    },
    /// A moderator hides chat line `n` (refused to anyone else).
    HideChat {
        /// The line's number.
        n: i64,
    },
}

/// A seat given to a player.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Seat {
    /// The seat's secret token.
    pub token: String,
    /// "white", "black", or "both" (hot-seat).
    pub color: String,
}

/// What `POST /api/games/{id}/join` reads.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The invite secret of a friend game (the part after `#` in the invite link).
    #[serde(default)]
    pub invite: Option<String>,
}

#[cfg(test)]
mod mode_tests {
    use super::Mode;

    #[test]
    fn a_mode_key_is_its_api_name() {
        for m in [Mode::Ai, Mode::Hotseat, Mode::Friend, Mode::Open] {
            assert_eq!(serde_json::to_value(m).unwrap(), m.key());
        }
    }
}
