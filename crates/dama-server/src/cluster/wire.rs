//! What nodes say to each other about a game: a request to its owner, and the answer
//! (JSON both ways; the answer carries the owner's error as its kind and message, so the
//! asking node answers its client exactly as the owner would have).

use std::net::IpAddr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::ApiError;
use crate::game::{Action, Caller, Catchup, JoinRequest, Player};
use crate::store::ChatRow;

/// A request for a game's owner.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// The game now.
    Snapshot,
    /// A websocket's start (its events come on the game's event subject).
    Subscribe {
        /// Seat token.
        token: Option<String>,
        /// The account a program follows the game for (its seats count as there).
        #[serde(default)]
        account: Option<String>,
        /// Last version seen.
        since: Option<u64>,
        /// The client's address.
        ip: IpAddr,
    },
    /// A round trip measured on the websocket of these seats' player, ms.
    Lag {
        /// The seats.
        seats: Vec<dama_core::Color>,
        /// The round trip.
        rtt_ms: u32,
    },
    /// A websocket closed.
    Leave {
        /// The client's address.
        ip: IpAddr,
    },
    /// Take the free seat.
    Join {
        /// The request.
        req: JoinRequest,
        /// The logged-in player, if any.
        player: Option<Player>,
    },
    /// An action.
    Act {
        /// Who acts.
        caller: Caller,
        /// What they do.
        action: Action,
    },
    /// The game as PDN.
    Pdn,
    /// A hint for the seat of `token`.
    Hint {
        /// Seat token.
        token: Option<String>,
    },
}

/// The start of a websocket on a node that does not own the game.
#[derive(Debug, Serialize, Deserialize)]
pub struct Subscribed {
    /// What the client missed.
    pub first: Catchup,
    /// The seats its token holds ("white", "black").
    pub seats: Vec<String>,
    /// The connection's number at the owner.
    pub conn: u64,
    /// The chat of its room so far.
    pub chat: Vec<ChatRow>,
}

/// An answer: `{"ok": ...}` or `{"err": {"kind", "message"}}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// The value asked for.
    Ok(Value),
    /// The owner's error.
    Err {
        /// [`ApiError::kind`].
        kind: String,
        /// Its message.
        message: String,
    },
}

impl Answer {
    /// The answer for a result.
    pub fn of<T: Serialize>(r: Result<T, ApiError>) -> Answer {
        match r.and_then(|v| serde_json::to_value(v).map_err(|_| ApiError::Internal)) {
            Ok(v) => Answer::Ok(v),
            Err(e) => Answer::Err { kind: e.kind().to_string(), message: detail(&e) },
        }
    }

    /// The result it carries.
    pub fn into_result<T: serde::de::DeserializeOwned>(self) -> Result<T, ApiError> {
        match self {
            Answer::Ok(v) => serde_json::from_value(v).map_err(|e| {
                tracing::error!(error = %e, "a node's answer does not read");
                ApiError::Internal
            }),
            Answer::Err { kind, message } => Err(error_of(&kind, message)),
        }
    }
}

/// The text an error carries (its message without the variant's own wording).
fn detail(e: &ApiError) -> String {
    match e {
        ApiError::NotFound(s)
        | ApiError::NoSeek(s)
        | ApiError::NoPlayer(s)
        | ApiError::NoRoute(s)
        | ApiError::BadRequest(s)
        | ApiError::Unauthorized(s)
        | ApiError::Forbidden(s)
        | ApiError::Conflict(s)
        | ApiError::TooMany(s)
        | ApiError::Unavailable(s) => s.clone(),
        ApiError::Refused(r) => serde_json::to_string(r).unwrap_or_default(),
        ApiError::Invalid(i) => serde_json::to_string(i).unwrap_or_default(),
        ApiError::Challenge(c) => serde_json::to_string(c).unwrap_or_default(),
        ApiError::Tournament(t) => serde_json::to_string(t).unwrap_or_default(),
        ApiError::Gone | ApiError::Internal => String::new(),
    }
}

/// The error of `kind` with `message` (an unknown kind is an internal error).
fn error_of(kind: &str, m: String) -> ApiError {
    match kind {
        "not_found" => ApiError::NotFound(m),
        "no_seek" => ApiError::NoSeek(m),
        "no_player" => ApiError::NoPlayer(m),
        "no_route" => ApiError::NoRoute(m),
        "bad_request" => ApiError::BadRequest(m),
        "unauthorized" => ApiError::Unauthorized(m),
        "forbidden" => ApiError::Forbidden(m),
        "conflict" => ApiError::Conflict(m),
        "too_many" => ApiError::TooMany(m),
        "unavailable" => ApiError::Unavailable(m),
        "gone" => ApiError::Gone,
        "refused" => serde_json::from_str(&m).map(ApiError::Refused).unwrap_or(ApiError::Internal),
        "invalid" => serde_json::from_str(&m).map(ApiError::Invalid).unwrap_or(ApiError::Internal),
        "challenge" => serde_json::from_str(&m).map(ApiError::Challenge).unwrap_or(ApiError::Internal),
        "tournament" => serde_json::from_str(&m).map(ApiError::Tournament).unwrap_or(ApiError::Internal),
        _ => ApiError::Internal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_crosses_nodes_unchanged() {
        let all = [
            ApiError::NotFound("a".into()),
            ApiError::NoSeek("b".into()),
            ApiError::NoPlayer("c".into()),
            ApiError::NoRoute("d".into()),
            ApiError::BadRequest("illegal move 11-16".into()),
            ApiError::Unauthorized("e".into()),
            ApiError::Forbidden("not your turn".into()),
            ApiError::Conflict("f".into()),
            ApiError::TooMany("g".into()),
            ApiError::Unavailable("h".into()),
            ApiError::Invalid(crate::invalid::Invalid::NameChars('é')),
            ApiError::Gone,
            ApiError::Internal,
            ApiError::Refused(crate::round::Refusal::NotYourTurn(dama_core::Color::Black)),
            ApiError::Refused(crate::round::Refusal::MustMoveTouched("9".into())),
            ApiError::Refused(crate::round::Refusal::GameOver),
            ApiError::Refused(crate::round::Refusal::IllegalMove(dama_core::illegal::Refused {
                why: dama_core::illegal::Illegal::MustTakeMost { n: 4 },
                words: "'23-18' is not a legal move here: you must take the most pieces: 4 here".into(),
            })),
        ];
        for e in all {
            let bytes = serde_json::to_vec(&Answer::of::<()>(Err(e.clone()))).unwrap();
            let back: Answer = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(back.into_result::<()>(), Err(e));
        }
    }

    #[test]
    fn an_action_request_reads_back() {
        let r = Request::Act { caller: Caller::default(), action: Action::Move { mv: "11-15".into() } };
        let text = serde_json::to_string(&r).unwrap();
        let back: Request = serde_json::from_str(&text).unwrap();
        assert!(matches!(back, Request::Act { action: Action::Move { mv }, .. } if mv == "11-15"));
    }
}
