//! Why a tournament request was refused: each reason with its machine-readable code
//! (clients translate `err_<code>`), its HTTP status and its words in English.

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

/// A tournament request refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "code", content = "arg", rename_all = "snake_case")]
pub enum TournamentRefusal {
    /// No event with this id.
    #[error("no such tournament")]
    NotFound,
    /// Every game of an event has a clock.
    #[error("a tournament's games need a clock")]
    NeedsClock,
    /// An arena is played in real time.
    #[error("an arena needs a real-time clock, not correspondence")]
    ArenaClock,
    /// The ballot is not one of the variant's.
    #[error("this ballot is not played in this variant")]
    BallotVariant,
    /// The event is over, or a round robin has started: no one joins now.
    #[error("this tournament takes no more players")]
    Closed,
    /// The event's password is wrong.
    #[error("wrong password for this private tournament")]
    Password,
    /// The player's rating is outside the event's range (the rating).
    #[error("your rating ({0}) is outside this tournament's range")]
    Rating(i64),
    /// The account is younger than the event asks (the days asked).
    #[error("your account must be at least {0} days old")]
    AccountAge(u32),
    /// Too few rated games in the event's pool (the games asked).
    #[error("you need at least {0} rated games in this variant")]
    RatedGames(u32),
    /// A guest cannot play in events.
    #[error("guests cannot play in tournaments: set a password first")]
    Guest,
    /// Not a player of the event (or no game of theirs to go berserk in).
    #[error("you are not playing in this tournament")]
    NotPlaying,
    /// Too many events made lately by one account (the most a day).
    #[error("too many tournaments: at most {0} a day")]
    Flood(i64),
}

impl TournamentRefusal {
    /// The code clients translate (`err_<code>`).
    pub fn code(&self) -> &'static str {
        match self {
            TournamentRefusal::NotFound => "tournament_not_found",
            TournamentRefusal::NeedsClock => "tournament_needs_clock",
            TournamentRefusal::ArenaClock => "tournament_arena_clock",
            TournamentRefusal::BallotVariant => "tournament_ballot_variant",
            TournamentRefusal::Closed => "tournament_closed",
            TournamentRefusal::Password => "tournament_password",
            TournamentRefusal::Rating(_) => "tournament_rating",
            TournamentRefusal::AccountAge(_) => "tournament_account_age",
            TournamentRefusal::RatedGames(_) => "tournament_rated_games",
            TournamentRefusal::Guest => "tournament_guest",
            TournamentRefusal::NotPlaying => "tournament_not_playing",
            TournamentRefusal::Flood(_) => "tournament_flood",
        }
    }

    /// The HTTP status it is answered with.
    pub fn status(&self) -> StatusCode {
        use TournamentRefusal::*;
        match self {
            NotFound => StatusCode::NOT_FOUND,
            NeedsClock | ArenaClock | BallotVariant | Guest => StatusCode::BAD_REQUEST,
            Password | Rating(_) | AccountAge(_) | RatedGames(_) | NotPlaying => StatusCode::FORBIDDEN,
            Closed => StatusCode::CONFLICT,
            Flood(_) => StatusCode::TOO_MANY_REQUESTS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_its_own_code_and_reads_back() {
        use TournamentRefusal::*;
        let all = [
            NotFound,
            NeedsClock,
            ArenaClock,
            BallotVariant,
            Closed,
            Password,
            Rating(1400),
            AccountAge(7),
            RatedGames(5),
            Guest,
            NotPlaying,
            Flood(10),
        ];
        let codes: std::collections::HashSet<_> = all.iter().map(|r| r.code()).collect();
        assert_eq!(codes.len(), all.len());
        for r in all {
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<TournamentRefusal>(&json).unwrap(), r);
        }
    }
}
