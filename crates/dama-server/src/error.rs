//! Errors as clients see them: one place maps every failure to a status and a message.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// A failed request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// No such game.
    #[error("no game with id '{0}'")]
    NotFound(String),
    /// No open seek with this id.
    #[error("no open seek with id '{0}'")]
    NoSeek(String),
    /// No account with this name.
    #[error("no player named '{0}'")]
    NoPlayer(String),
    /// No route at this address.
    #[error("nothing at '{0}'")]
    NoRoute(String),
    /// The request is malformed or the move illegal.
    #[error("{0}")]
    BadRequest(String),
    /// Wrong credentials.
    #[error("{0}")]
    Unauthorized(String),
    /// The caller may not do this (not their seat, not their turn, a spectator).
    #[error("{0}")]
    Forbidden(String),
    /// The game is not in a state that allows this.
    #[error("{0}")]
    Conflict(String),
    /// Too many requests of this kind at once (a hint already running, too many
    /// connections from one address, the replay queue full).
    #[error("{0}")]
    TooMany(String),
    /// The server cannot take this now (its games-in-memory limit is reached).
    #[error("{0}")]
    Unavailable(String),
    /// The game's task ended while the request was on its way (an idle finished game
    /// giving its memory back); the request is retried with a restored task.
    #[error("the game is being reloaded; please try again")]
    Gone,
    /// Something failed on the server (details are only logged).
    #[error("internal error; please try again")]
    Internal,
    /// The game refused (its own code says why).
    #[error("{0}")]
    Refused(crate::round::refusal::Refusal),
    /// The request's content is not allowed (its own code says why).
    #[error("{0}")]
    Invalid(crate::invalid::Invalid),
    /// A challenge refused (its own code says why).
    #[error("{0}")]
    Challenge(crate::challenges::ChallengeRefusal),
    /// A tournament request refused (its own code says why).
    #[error("{0}")]
    Tournament(crate::tournaments::TournamentRefusal),
}

impl From<dama_core::fen::FenError> for ApiError {
    fn from(e: dama_core::fen::FenError) -> Self {
        ApiError::Invalid(e.into())
    }
}

impl From<crate::invalid::Invalid> for ApiError {
    fn from(i: crate::invalid::Invalid) -> Self {
        ApiError::Invalid(i)
    }
}

impl From<crate::challenges::ChallengeRefusal> for ApiError {
    fn from(r: crate::challenges::ChallengeRefusal) -> Self {
        ApiError::Challenge(r)
    }
}

impl From<crate::tournaments::TournamentRefusal> for ApiError {
    fn from(r: crate::tournaments::TournamentRefusal) -> Self {
        ApiError::Tournament(r)
    }
}

impl From<crate::round::refusal::Refusal> for ApiError {
    fn from(r: crate::round::refusal::Refusal) -> Self {
        ApiError::Refused(r)
    }
}

impl ApiError {
    /// The error's kind, a label for the metrics.
    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::NotFound(_) => "not_found",
            ApiError::NoRoute(_) => "no_route",
            ApiError::NoPlayer(_) => "no_player",
            ApiError::NoSeek(_) => "no_seek",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::Conflict(_) => "conflict",
            ApiError::TooMany(_) => "too_many",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::Gone => "gone",
            ApiError::Internal => "internal",
            ApiError::Refused(_) => "refused",
            ApiError::Invalid(_) => "invalid",
            ApiError::Challenge(_) => "challenge",
            ApiError::Tournament(_) => "tournament",
        }
    }

    /// The machine-readable code clients translate (`err_<code>`): a refusal's own
    /// code, else the kind.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Refused(r) => r.code(),
            ApiError::Invalid(i) => i.code(),
            ApiError::Challenge(c) => c.code(),
            ApiError::Tournament(t) => t.code(),
            e => e.kind(),
        }
    }

    /// The argument a refusal's words name (a colour, a square, a number), for clients
    /// to put in their own words.
    pub fn arg(&self) -> Option<serde_json::Value> {
        match self {
            ApiError::Refused(r) => serde_json::to_value(r).ok()?.get("arg").cloned(),
            ApiError::Invalid(i) => serde_json::to_value(i).ok()?.get("arg").cloned(),
            ApiError::Challenge(c) => serde_json::to_value(c).ok()?.get("arg").cloned(),
            ApiError::Tournament(t) => serde_json::to_value(t).ok()?.get("arg").cloned(),
            _ => None,
        }
    }

    /// The HTTP status of the error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::NotFound(_) | ApiError::NoRoute(_) | ApiError::NoPlayer(_) | ApiError::NoSeek(_) => {
                StatusCode::NOT_FOUND
            }
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::BadRequest(_) | ApiError::Invalid(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) | ApiError::Gone => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Refused(r) => r.status(),
            ApiError::Challenge(c) => c.status(),
            ApiError::Tournament(t) => t.status(),
        }
    }
}

/// An error with its causes, for the log: "storing a move: storage: error returned from
/// database: disk I/O error" (a cause whose text its effect already shows is not repeated).
pub struct Chain<'a>(pub &'a (dyn std::error::Error + 'static));

impl std::fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut shown = self.0.to_string();
        f.write_str(&shown)?;
        let mut cause = self.0.source();
        while let Some(c) = cause {
            let text = c.to_string();
            if !shown.contains(&text) {
                write!(f, ": {text}")?;
                shown = text;
            }
            cause = c.source();
        }
        Ok(())
    }
}

/// The JSON of an error answer: the words, and the code clients translate.
#[derive(serde::Serialize)]
struct ErrorBody {
    error: String,
    code: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    arg: Option<serde_json::Value>,
}

/// Seconds a client is asked to wait before it tries again after a 503.
pub const RETRY_AFTER_S: u32 = 2;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        metrics::counter!("dama_errors_total", "kind" => self.kind()).increment(1);
        let body = Json(ErrorBody { error: self.to_string(), code: self.code(), arg: self.arg() });
        if matches!(self, ApiError::Unavailable(_) | ApiError::Gone) {
            let retry = [(axum::http::header::RETRY_AFTER, RETRY_AFTER_S.to_string())];
            return (self.status(), retry, body).into_response();
        }
        (self.status(), body).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("storing a move")]
    struct Outer(#[source] std::io::Error);

    #[derive(Debug, thiserror::Error)]
    #[error("reading: {0}")]
    struct Shows(#[source] std::io::Error);

    #[test]
    fn a_chain_names_every_cause_once() {
        let io = || std::io::Error::other("disk full");
        assert_eq!(Chain(&Outer(io())).to_string(), "storing a move: disk full");
        assert_eq!(Chain(&Shows(io())).to_string(), "reading: disk full");
    }
}
