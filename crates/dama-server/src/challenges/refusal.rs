//! Why a challenge was refused: each reason with its machine-readable code (clients
//! translate `err_<code>`), its HTTP status and its words in English.

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

/// A challenge refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "code", content = "arg", rename_all = "snake_case")]
pub enum ChallengeRefusal {
    /// One cannot challenge oneself.
    #[error("you cannot challenge yourself")]
    Yourself,
    /// One of the two players blocks the other.
    #[error("you cannot play this player: one of you has blocked the other")]
    Blocked,
    /// The player takes no challenges.
    #[error("this player takes no challenges")]
    Closed,
    /// The player takes challenges only from the players they follow.
    #[error("this player takes challenges only from players they follow")]
    FriendsOnly,
    /// Too many challenges made lately (the most an hour).
    #[error("too many challenges: at most {0} an hour")]
    Flood(i64),
    /// Too many challenges waiting for an answer (the most at once).
    #[error("too many challenges waiting for an answer: at most {0} at once")]
    TooManyOpen(i64),
    /// The challenge is no longer open: answered, cancelled or expired (or there is
    /// none with this id).
    #[error("this challenge is no longer open")]
    Gone,
    /// Only the player challenged may answer, and only the challenger cancel.
    #[error("this challenge is not yours to answer")]
    NotYours,
    /// A guest (a name without a password) cannot challenge nor be challenged.
    #[error("guests cannot take part in challenges: set a password first")]
    Guest,
}

impl ChallengeRefusal {
    /// The code clients translate (`err_<code>`).
    pub fn code(&self) -> &'static str {
        match self {
            ChallengeRefusal::Yourself => "challenge_yourself",
            ChallengeRefusal::Blocked => "blocked",
            ChallengeRefusal::Closed => "challenge_closed",
            ChallengeRefusal::FriendsOnly => "challenge_friends_only",
            ChallengeRefusal::Flood(_) => "challenge_flood",
            ChallengeRefusal::TooManyOpen(_) => "challenge_too_many_open",
            ChallengeRefusal::Gone => "challenge_gone",
            ChallengeRefusal::NotYours => "challenge_not_yours",
            ChallengeRefusal::Guest => "challenge_guest",
        }
    }

    /// The HTTP status it is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            ChallengeRefusal::Yourself | ChallengeRefusal::Guest => StatusCode::BAD_REQUEST,
            ChallengeRefusal::Blocked
            | ChallengeRefusal::Closed
            | ChallengeRefusal::FriendsOnly
            | ChallengeRefusal::NotYours => StatusCode::FORBIDDEN,
            ChallengeRefusal::Flood(_) | ChallengeRefusal::TooManyOpen(_) => StatusCode::TOO_MANY_REQUESTS,
            ChallengeRefusal::Gone => StatusCode::CONFLICT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_its_own_code_and_reads_back() {
        let all = [
            ChallengeRefusal::Yourself,
            ChallengeRefusal::Blocked,
            ChallengeRefusal::Closed,
            ChallengeRefusal::FriendsOnly,
            ChallengeRefusal::Flood(20),
            ChallengeRefusal::TooManyOpen(10),
            ChallengeRefusal::Gone,
            ChallengeRefusal::NotYours,
            ChallengeRefusal::Guest,
        ];
        let codes: std::collections::HashSet<_> = all.iter().map(|r| r.code()).collect();
        assert_eq!(codes.len(), all.len());
        for r in all {
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<ChallengeRefusal>(&json).unwrap(), r);
            assert!(json.contains(r.code().trim_start_matches("challenge_")), "{json}");
        }
    }
}
