//! Tournament pairing for dama: pure functions, no I/O.
//!
//! - [`swiss`]: the FIDE Dutch system (Handbook C.04.3, 2017 rules), computed bracket by
//!   bracket with a maximum-weight matching ([`matching`], on `i128` or 256-bit
//!   [`weight::Wide`] weights), then the exact Dutch candidate order for small brackets.
//! - [`berger`]: round-robin tables (Handbook C.05 Annex 1).
//! - [`arena`]: lichess-style arena pairing and scoring.
//! - [`tiebreak`]: Buchholz, Sonneborn-Berger and standings.
//! - [`sim`]: deterministic random events, shared by the tests and the benchmark.
//!
//! Scores are kept as integers: points doubled (`points2`: win 2, draw 1, loss 0).

use serde::{Deserialize, Serialize};

pub mod arena;
pub mod berger;
pub mod matching;
pub mod sim;
pub mod swiss;
pub mod tiebreak;
pub mod weight;

/// A player's identity, chosen by the caller.
pub type PlayerId = u64;

/// A side in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// Moves first in the pairing's game.
    White,
    /// Moves second.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// One round of a player's history in a Swiss or round-robin event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The opponent; `None` for a bye or an absence.
    pub opponent: Option<PlayerId>,
    /// The colour played; `None` when the game was not played.
    pub colour: Option<Colour>,
    /// A player's result in one game, as points doubled: 2 win, 1 draw, 0 loss.
    /// A pairing-allocated bye scores 2.
    pub points2: u32,
    /// False for a bye, a forfeit or an absence: such a round does not count as a game
    /// for colours or repeats.
    pub played: bool,
}

/// A player as the pairing sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The player's identity.
    pub id: PlayerId,
    /// The rating that fixes the initial ranking (higher first; ties keep the given order).
    pub rating: i32,
    /// One entry per round already played, in order.
    pub history: Vec<Played>,
    /// Whether a pairing-allocated bye was already received.
    pub had_bye: bool,
}

impl Entrant {
    /// The player's score, points doubled.
    pub fn points2(&self) -> u32 {
        self.history.iter().map(|p| p.points2).sum()
    }

    /// Whether the player ever won by forfeit (an opponent was named, the game not played,
    /// and the player scored the win). Such a player gets no bye (C.04.3 C2).
    pub fn won_by_forfeit(&self) -> bool {
        self.history.iter().any(|p| p.opponent.is_some() && !p.played && p.points2 == 2)
    }

    /// Whether the player has already played a game against `other` (forfeits do not count).
    pub fn has_played(&self, other: PlayerId) -> bool {
        self.history.iter().any(|p| p.played && p.opponent == Some(other))
    }
}

/// One game of a round: who has White and who has Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    /// The player with White.
    pub white: PlayerId,
    /// The player with Black.
    pub black: PlayerId,
}

/// A round's games, in board order, and the player who gets the pairing-allocated bye.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairings {
    /// The games, first board first.
    pub pairings: Vec<Pairing>,
    /// The player left out with a bye (odd number of players).
    pub bye: Option<PlayerId>,
}

/// Why a round cannot be paired.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum PairingError {
    /// No pairing of all players satisfies the absolute criteria (no repeat game, no bye
    /// twice, no two players with the same absolute colour preference together).
    #[error("no legal pairing exists for round {round}: the absolute criteria cannot all be met")]
    NoLegalPairing {
        /// The round that was asked for.
        round: u32,
    },
    /// The same player id appears twice among the entrants.
    #[error("player {0} is listed twice")]
    DuplicatePlayer(PlayerId),
    /// The round number is 0 or beyond the event's rounds.
    #[error("round {round} is not within 1..={total_rounds}")]
    BadRound {
        /// The round that was asked for.
        round: u32,
        /// The event's number of rounds.
        total_rounds: u32,
    },
}
