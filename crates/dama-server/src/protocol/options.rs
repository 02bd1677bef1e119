//! A game's settings as clients choose them, the accounts at its seats, and the seat a
//! player is given.

use serde::{Deserialize, Serialize};

use crate::clock::TimeControl;
use crate::error::ApiError;

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
    /// Every mode.
    pub const ALL: [Mode; 4] = [Mode::Ai, Mode::Hotseat, Mode::Friend, Mode::Open];

    /// The mode's name, as in the API and the database.
    pub fn key(self) -> &'static str {
        match self {
            Mode::Ai => "ai",
            Mode::Hotseat => "hotseat",
            Mode::Friend => "friend",
            Mode::Open => "open",
        }
    }

    /// Two players online: a friend game or an open one.
    pub fn online(self) -> bool {
        matches!(self, Mode::Friend | Mode::Open)
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        Mode::ALL.into_iter().find(|m| m.key() == s).ok_or_else(|| format!("unknown mode '{s}'"))
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

impl RulesChoice {
    /// Every rulebook.
    pub const ALL: [RulesChoice; 4] =
        [RulesChoice::Official, RulesChoice::Seed000, RulesChoice::Seed001, RulesChoice::Seed003];

    /// The key the API uses (`official`, `seed000`, ...).
    pub fn key(self) -> &'static str {
        match self {
            RulesChoice::Official => "official",
            RulesChoice::Seed000 => "seed000",
            RulesChoice::Seed001 => "seed001",
            RulesChoice::Seed003 => "seed003",
        }
    }

    /// The variant a seed rulebook was written for (none for the official rules,
    /// which every variant has).
    pub fn variant(self) -> Option<dama_core::Variant> {
        match self {
            RulesChoice::Official => None,
            RulesChoice::Seed000 => Some(dama_core::Variant::Russian),
            RulesChoice::Seed001 | RulesChoice::Seed003 => Some(dama_core::Variant::English),
        }
    }

    /// Why a game of another variant cannot be rated under this rulebook.
    pub fn wrong_variant(self) -> &'static str {
        match self {
            RulesChoice::Seed000 => "rulebook seed000 is for Russian draughts",
            _ => "rulebooks seed001 and seed003 are for English draughts",
        }
    }
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
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
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
    /// the official rules or a seed rulebook of the variant; the result changes both
    /// players' ratings in the pool of the variant and rulebook.
    #[serde(default)]
    pub rated: bool,
    /// An open game: only opponents rated within this range may join.
    #[serde(default)]
    pub rating_range: Option<[u32; 2]>,
    /// The tournament the game is played in (set by the server): no suggestions, a
    /// first move within [`crate::clock::EVENT_FIRST_MOVE_MS`] or the game is lost, and
    /// a balloted start may be rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// A tournament game whose players may go berserk (set by the server).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub berserk: bool,
}

impl Default for Options {
    /// An English game against the engine at level 5, as an empty request body reads.
    fn default() -> Self {
        Options {
            variant: "english".into(),
            mode: Mode::default(),
            level: default_level(),
            color: ColorChoice::default(),
            time: TimeControl::default(),
            rules: RulesChoice::default(),
            fen: None,
            suggestions: false,
            touch_move: false,
            series: one(),
            series_state: None,
            rated: false,
            rating_range: None,
            tournament: None,
            berserk: false,
        }
    }
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
        if self.tournament.is_some() && self.suggestions {
            return Err(ApiError::BadRequest("spectators cannot suggest moves in a tournament game".into()));
        }
        if self.rated {
            let why = if !matches!(self.mode, Mode::Open | Mode::Friend) {
                "only games between two players (open or friend) can be rated"
            } else if self.fen.is_some() && self.tournament.is_none() {
                "a rated game starts from the standard position"
            } else if let Some(why) = self
                .variant
                .parse::<dama_core::Variant>()
                .ok()
                .and_then(|v| crate::rating_pool::Pool::of(v, self.rules).err())
            {
                why
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

fn one() -> u32 {
    1
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
        for m in Mode::ALL {
            assert_eq!(serde_json::to_value(m).unwrap(), m.key());
            assert_eq!(m.key().parse::<Mode>(), Ok(m));
        }
    }
}
