//! What happens in a game, as every client hears it: an event with the version it made
//! (or, for the few that make none, the version it follows) and who hears it.

use std::sync::Arc;

use dama_core::any::MoveView;
use dama_core::Color;
use serde::{Deserialize, Serialize};

use super::options::SeriesState;
use super::view::{ClockView, PlayerView, RatingView, ResultView};

/// A game's two chat rooms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Room {
    /// The two players'.
    Players,
    /// The spectators'.
    Spectators,
}

impl Room {
    /// The room of a caller holding `seats` (none: a spectator).
    pub fn of(seats: &[Color]) -> Room {
        if seats.is_empty() {
            Room::Spectators
        } else {
            Room::Players
        }
    }

    /// Its name, as stored.
    pub fn key(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }
}

/// An event: its version and what happened. Sent as one JSON object,
/// `{"type": "move", "v": 7, ...}`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Event {
    /// The version it made, or (for those that make none) the version it follows.
    pub v: u64,
    /// What happened.
    #[serde(flatten)]
    pub body: EventBody,
}

/// What happened.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventBody {
    /// A move.
    Move {
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
        /// The seat.
        color: Color,
        /// The logged-in player who took it, if any.
        #[serde(default)]
        player: Option<PlayerView>,
        /// The clocks as the start set them.
        #[serde(default)]
        clocks: Option<ClockView>,
    },
    /// A game held until its players were there (a rematch, the next game of a
    /// series) starts: they are, and the clock runs.
    Started {
        /// The clocks as the start set them.
        #[serde(default)]
        clocks: Option<ClockView>,
    },
    /// A draw was offered.
    DrawOffer {
        /// By whom.
        by: Color,
    },
    /// The draw offer was declined (or lapsed with a move).
    DrawDeclined,
    /// The game ended.
    End {
        /// The result.
        result: ResultView,
    },
    /// A takeback was asked for.
    TakebackOffer {
        /// By whom.
        by: Color,
    },
    /// Moves were taken back.
    Takeback {
        /// Plies taken back.
        plies: usize,
        /// Position now.
        fen: String,
        /// The clocks now (the side to move's turn started again).
        #[serde(default)]
        clocks: Option<ClockView>,
    },
    /// The takeback request was declined.
    TakebackDeclined,
    /// A player went berserk: half their time, no increment.
    Berserk {
        /// Who.
        color: Color,
        /// The clocks now.
        #[serde(default)]
        clocks: Option<ClockView>,
    },
    /// A rematch was asked for.
    RematchOffer {
        /// By whom.
        by: Color,
    },
    /// The next game (rematch or next of the series) is ready; the players keep their
    /// tokens, with colours swapped.
    NextGame {
        /// The new game.
        id: String,
        /// Its series state, if in a series.
        series: Option<SeriesState>,
    },
    /// A rated game's result changed the players' ratings (White's, Black's).
    Rated {
        /// The changes.
        ratings: [Option<RatingView>; 2],
    },
    /// A chat line, for its room only (makes no version).
    Chat {
        /// The line's number in the game.
        n: i64,
        /// Its room.
        room: Room,
        /// Who wrote it.
        author: String,
        /// What they wrote.
        text: String,
    },
    /// A moderator hid a chat line: its room's clients drop it (makes no version).
    ChatHidden {
        /// The line's number in the game.
        n: i64,
        /// Its room.
        room: Room,
    },
    /// The legal moves of the side to move, for its player (and, where spectators may
    /// suggest moves, for spectators too) after each event that changes them (makes no
    /// version).
    Legal {
        /// The player they are for.
        to: Color,
        /// The legal moves.
        moves: Vec<MoveView>,
        /// Spectators hear them too (they may suggest moves).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        spectators: bool,
    },
    /// The players' connections changed (a round trip measured into another band:
    /// good, fair, poor), for everyone (makes no version).
    Connection {
        /// Each player's round trip (White, Black), ms.
        rtt_ms: [Option<u32>; 2],
    },
    /// Spectators' suggestions, for the player to move only (makes no version).
    Suggestions {
        /// Ply the suggestions are for.
        ply: usize,
        /// The player they are for.
        to: Color,
        /// Moves with how many spectators suggested each, most first.
        moves: Vec<(String, usize)>,
    },
}

/// Who hears an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everyone watching.
    Everyone,
    /// The player of this seat only.
    Seat(Color),
    /// The player of this seat and the spectators.
    SeatAndSpectators(Color),
    /// The clients in this chat room only.
    Room(Room),
}

impl EventBody {
    /// Its type, as the JSON's `type` says.
    pub fn kind(&self) -> &'static str {
        match self {
            EventBody::Move { .. } => "move",
            EventBody::Joined { .. } => "joined",
            EventBody::Started { .. } => "started",
            EventBody::DrawOffer { .. } => "draw_offer",
            EventBody::DrawDeclined => "draw_declined",
            EventBody::End { .. } => "end",
            EventBody::TakebackOffer { .. } => "takeback_offer",
            EventBody::Takeback { .. } => "takeback",
            EventBody::TakebackDeclined => "takeback_declined",
            EventBody::Berserk { .. } => "berserk",
            EventBody::RematchOffer { .. } => "rematch_offer",
            EventBody::NextGame { .. } => "next_game",
            EventBody::Rated { .. } => "rated",
            EventBody::Chat { .. } => "chat",
            EventBody::ChatHidden { .. } => "chat_hidden",
            EventBody::Legal { .. } => "legal",
            EventBody::Suggestions { .. } => "suggestions",
            EventBody::Connection { .. } => "connection",
        }
    }

    /// True for the events that make a version (all but chat, legal moves and
    /// suggestions).
    pub fn versioned(&self) -> bool {
        !matches!(
            self,
            EventBody::Chat { .. }
                | EventBody::ChatHidden { .. }
                | EventBody::Legal { .. }
                | EventBody::Suggestions { .. }
                | EventBody::Connection { .. }
        )
    }

    /// Who hears it.
    pub fn audience(&self) -> Audience {
        match self {
            EventBody::Chat { room, .. } | EventBody::ChatHidden { room, .. } => Audience::Room(*room),
            EventBody::Legal { to, spectators: true, .. } => Audience::SeatAndSpectators(*to),
            EventBody::Legal { to, .. } | EventBody::Suggestions { to, .. } => Audience::Seat(*to),
            _ => Audience::Everyone,
        }
    }
}

impl Audience {
    /// Whether a client holding `seats` hears it.
    pub fn includes(self, seats: &[Color]) -> bool {
        match self {
            Audience::Everyone => true,
            Audience::Seat(c) => seats.contains(&c),
            Audience::SeatAndSpectators(c) => seats.is_empty() || seats.contains(&c),
            Audience::Room(r) => Room::of(seats) == r,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_one_object_with_its_type_and_version() {
        let e = Event { v: 8, body: EventBody::DrawOffer { by: Color::White } };
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(v, serde_json::json!({"type": "draw_offer", "v": 8, "by": "white"}));
        assert_eq!(serde_json::from_value::<Event>(v).unwrap(), e);
        let d = serde_json::to_value(Event { v: 9, body: EventBody::DrawDeclined }).unwrap();
        assert_eq!(d, serde_json::json!({"type": "draw_declined", "v": 9}));
        let chat = EventBody::Chat { n: 1, room: Room::Spectators, author: "a".into(), text: "b".into() };
        assert!(!chat.versioned());
        assert!(chat.audience().includes(&[]) && !chat.audience().includes(&[Color::White]));
        let legal = EventBody::Legal { to: Color::Black, moves: vec![], spectators: false };
        assert!(legal.audience().includes(&[Color::Black]) && !legal.audience().includes(&[Color::White]));
    }
}
