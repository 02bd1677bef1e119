//! The wire: what clients send ([`ClientMsg`]) and hear ([`ServerMsg`]) on a game's
//! websocket, the events of a game ([`event`]), its snapshot ([`view`]), the settings of
//! a new game ([`options`]) and the actions of its players ([`action`]). Every message
//! is a serde type; no path of the game, the websocket or the bots writes JSON by hand.

pub mod action;
pub mod bot;
pub mod event;
pub mod options;
pub mod view;

pub use action::Action;
pub use event::{Audience, Event, EventBody, Published, Room};
pub use options::{ColorChoice, JoinRequest, Mode, Options, Player, RulesChoice, Seat, SeriesState};
pub use view::{ClockView, Phase, PlayerView, RatingView, ReasonView, ResultView, Snapshot};

use serde::{Deserialize, Serialize};

use crate::error::ApiError;

/// A chat line as clients see it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ChatLine {
    /// Its number in the game.
    pub n: i64,
    /// Who wrote it.
    pub author: String,
    /// What they wrote.
    pub text: String,
    /// When, ms since the epoch.
    pub at_ms: i64,
}

/// What the server sends on a game's websocket (besides events, which go out as the
/// text they were published with).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg<'a> {
    /// The whole game.
    Snapshot {
        /// Its version.
        v: u64,
        /// The game.
        game: &'a Snapshot,
    },
    /// The chat of the client's room so far.
    ChatHistory {
        /// The room.
        room: Room,
        /// Its lines.
        lines: Vec<ChatLine>,
    },
    /// A refusal or a bad frame: the HTTP status it would have, the words, and the
    /// machine-readable code (clients translate `err_<code>`).
    Error {
        /// HTTP status.
        status: u16,
        /// In words.
        message: String,
        /// The code.
        code: &'static str,
        /// The argument its words name, if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        arg: Option<serde_json::Value>,
    },
    /// The answer to a ping.
    Pong,
}

impl ServerMsg<'_> {
    /// The message as JSON text.
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// An error frame for an error.
    pub fn error(e: &ApiError) -> ServerMsg<'static> {
        ServerMsg::Error { status: e.status().as_u16(), message: e.to_string(), code: e.code(), arg: e.arg() }
    }
}

/// What a client sends on a game's websocket.
#[derive(Clone, Debug, PartialEq)]
pub enum ClientMsg {
    /// The first frame: the seat token, if any, and the last version seen.
    Hello {
        /// Seat token.
        token: Option<String>,
        /// Last version seen.
        since: Option<u64>,
    },
    /// Are you there?
    Ping,
    /// Send me the whole game.
    Resync,
    /// An action of the game.
    Act(Action),
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Control {
    Hello {
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        since: Option<u64>,
    },
    Ping,
    Resync,
}

impl ClientMsg {
    /// Reads a frame; the error says what is wrong ("bad JSON: ...", "unknown
    /// message: ...").
    pub fn parse(text: &str) -> Result<ClientMsg, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("bad JSON: {e}"))?;
        match v.get("type").and_then(|t| t.as_str()) {
            Some("hello" | "ping" | "resync") => {
                let c: Control = serde_json::from_value(v).map_err(|e| format!("bad {} frame: {e}", "control"))?;
                Ok(match c {
                    Control::Hello { token, since } => ClientMsg::Hello { token, since },
                    Control::Ping => ClientMsg::Ping,
                    Control::Resync => ClientMsg::Resync,
                })
            }
            _ => serde_json::from_value(v).map(ClientMsg::Act).map_err(|e| format!("unknown message: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_read_as_their_messages() {
        assert_eq!(
            ClientMsg::parse(r#"{"type": "hello", "token": "t", "since": 4}"#),
            Ok(ClientMsg::Hello { token: Some("t".into()), since: Some(4) })
        );
        assert_eq!(ClientMsg::parse(r#"{"type": "ping"}"#), Ok(ClientMsg::Ping));
        assert_eq!(ClientMsg::parse(r#"{"type": "resync"}"#), Ok(ClientMsg::Resync));
        assert_eq!(
            ClientMsg::parse(r#"{"type": "move", "move": "11-15"}"#),
            Ok(ClientMsg::Act(Action::Move { mv: "11-15".into() }))
        );
        assert!(ClientMsg::parse("{not json").unwrap_err().starts_with("bad JSON"));
        assert!(ClientMsg::parse(r#"{"type": "dance"}"#).unwrap_err().starts_with("unknown message"));
        let pong = ServerMsg::Pong.text();
        assert_eq!(pong, r#"{"type":"pong"}"#);
    }
}
