//! Tournaments: arenas, Swiss events and round robins, in every rulebook.
//!
//! - An event is made through the API ([`api`]) or by the server's schedule
//!   ([`schedule`]); its settings are checked once, into [`Settings`].
//! - A director ([`director`]) runs each started event on one node at a time (the
//!   event holds a lease as a game does, in cluster mode): it starts the event, pairs
//!   (the rules are in the `dama-pairing` crate), makes the games, and ends it.
//! - What each format does next is decided from the stored event alone ([`steps`]).
//! - Results come from the news of games ([`results`]); a result whose news was
//!   missed (a restart, another node) is read from the stored game.
//! - Standings, tie-breaks and the crosstable are computed from the stored games
//!   ([`standings`]).

pub mod api;
pub mod director;
mod refusal;
pub mod results;
pub mod schedule;
pub mod standings;
pub mod steps;

use dama_core::ballot::BallotList;
use dama_core::Variant;
use serde::{Deserialize, Serialize};

pub use refusal::TournamentRefusal;

use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::protocol::{Mode, Options, RulesChoice};

/// An event's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Play as many games as you can in the time: paired again as soon as a game ends.
    Arena,
    /// N rounds, the Dutch system.
    Swiss,
    /// Everyone plays everyone (Berger tables).
    Robin,
}

impl Format {
    /// Its key, as stored.
    pub fn key(self) -> &'static str {
        match self {
            Format::Arena => "arena",
            Format::Swiss => "swiss",
            Format::Robin => "robin",
        }
    }

    /// Reads a stored key.
    pub fn from_key(key: &str) -> Option<Format> {
        [Format::Arena, Format::Swiss, Format::Robin].into_iter().find(|f| f.key() == key)
    }
}

/// Where an event stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Open to join, not started.
    Created,
    /// Under way.
    Started,
    /// Over.
    Finished,
}

impl Status {
    /// Its key, as stored.
    pub fn key(self) -> &'static str {
        match self {
            Status::Created => "created",
            Status::Started => "started",
            Status::Finished => "finished",
        }
    }

    /// Reads a stored key.
    pub fn from_key(key: &str) -> Option<Status> {
        [Status::Created, Status::Started, Status::Finished].into_iter().find(|s| s.key() == key)
    }
}

/// Who may join: each condition checked when a player joins.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conditions {
    /// The lowest rating in the event's pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<u32>,
    /// The highest rating in the event's pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rating: Option<u32>,
    /// The account's age at least, in days.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_account_days: Option<u32>,
    /// Rated games played in the event's pool at least.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rated_games: Option<u32>,
}

/// An event's game settings, checked ([`Settings::check`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The variant's key.
    pub variant: String,
    /// The rulebook.
    #[serde(default)]
    pub rules: RulesChoice,
    /// The clock of every game.
    pub time: TimeControl,
    /// Rated games.
    #[serde(default)]
    pub rated: bool,
    /// The ballot of openings (a list's key), if any: each pairing plays both colours
    /// of a drawn opening.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ballot: Option<String>,
    /// Each pairing plays two games, colours swapped (a micro-match, FMJD practice);
    /// always so with a ballot.
    #[serde(default)]
    pub micro: bool,
    /// Arena: a player may halve their clock for a bonus point.
    #[serde(default)]
    pub berserk: bool,
    /// Who may join.
    #[serde(default)]
    pub conditions: Conditions,
}

impl Settings {
    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant.parse().unwrap_or(Variant::English)
    }

    /// The ballot list, if any.
    pub fn ballot(&self) -> Option<BallotList> {
        self.ballot.as_deref().and_then(BallotList::from_key)
    }

    /// Games per pairing: 2 with a ballot or a micro-match.
    pub fn legs(&self) -> i64 {
        if self.micro || self.ballot.is_some() {
            2
        } else {
            1
        }
    }

    /// A game's options in event `id` (starting from `fen` when balloted).
    pub fn options(&self, id: &str, fen: Option<String>) -> Options {
        Options {
            variant: self.variant.clone(),
            mode: Mode::Friend,
            rules: self.rules,
            time: self.time,
            rated: self.rated,
            fen,
            suggestions: false,
            tournament: Some(id.to_string()),
            berserk: self.berserk,
            ..Options::default()
        }
    }

    /// Checks the settings for an event of `format`: a known variant, a clock (an
    /// arena's a real-time one), a ballot of the variant, and what a rated game needs.
    pub fn check(&self, format: Format) -> Result<(), ApiError> {
        let variant: Variant = self
            .variant
            .parse()
            .map_err(|e: dama_core::variant::UnknownVariant| ApiError::BadRequest(format!("variant: {e}")))?;
        match (format, self.time) {
            (_, TimeControl::None) => return Err(TournamentRefusal::NeedsClock.into()),
            (Format::Arena, TimeControl::Correspondence { .. }) => return Err(TournamentRefusal::ArenaClock.into()),
            _ => {}
        }
        if let Some(key) = &self.ballot {
            let list = BallotList::from_key(key).ok_or_else(|| ApiError::BadRequest(format!("no ballot '{key}'")))?;
            if !list.variants().contains(&variant) {
                return Err(TournamentRefusal::BallotVariant.into());
            }
        }
        if let (Some(lo), Some(hi)) = (self.conditions.min_rating, self.conditions.max_rating) {
            if lo > hi {
                return Err(ApiError::BadRequest("conditions: min_rating is above max_rating".into()));
            }
        }
        self.options("check", None).validate()
    }
}

/// Points doubled (2 a win, 1 a draw) of White and Black for a game's result: the
/// winner, none for a draw; a game called off (`played` false: aborted) scores nothing
/// for either player.
pub fn points(winner: Option<dama_core::Color>, played: bool) -> [i64; 2] {
    match (played, winner) {
        (false, _) => [0, 0],
        (true, Some(dama_core::Color::White)) => [2, 0],
        (true, Some(dama_core::Color::Black)) => [0, 2],
        (true, None) => [1, 1],
    }
}
