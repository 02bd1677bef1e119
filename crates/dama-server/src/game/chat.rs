//! A game's chat: two rooms, the players' (seen by the two players only) and the
//! spectators' (seen by spectators only, so nobody whispers moves to a player). Lines are
//! short, plain and paced; each is stored with the game, and any can be reported.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use dama_core::Color;

use super::{color_name, now_ms, Actor, Caller, Event};
use crate::error::ApiError;
use crate::store::ChatRow;

/// The longest line, in characters.
pub const MAX_CHARS: usize = 140;
/// Lines a game keeps; past it the chat is closed.
pub const MAX_LINES: usize = 500;
/// Lines one writer may send a minute.
const PER_MINUTE: usize = 15;
/// The shortest pause between two lines of one writer.
const PAUSE: Duration = Duration::from_millis(700);

/// The room of a caller with these seats.
pub fn room_of(seats: &[Color]) -> &'static str {
    if seats.is_empty() {
        "spectators"
    } else {
        "players"
    }
}

/// The chat of a game in memory: its lines and when each writer last wrote.
#[derive(Default)]
pub(super) struct Chat {
    pub(super) lines: Vec<ChatRow>,
    recent: HashMap<String, VecDeque<Instant>>,
}

impl Chat {
    /// A chat with the stored lines.
    pub(super) fn with(lines: Vec<ChatRow>) -> Chat {
        Chat { lines, recent: HashMap::new() }
    }

    /// The lines of one room (not those a moderator hid).
    pub(super) fn room(&self, room: &str) -> Vec<ChatRow> {
        self.lines.iter().filter(|l| l.room == room && !l.hidden).cloned().collect()
    }

    /// Takes a writer's turn, or says to slow down.
    fn pace(&mut self, who: &str, now: Instant) -> Result<(), ApiError> {
        let times = self.recent.entry(who.to_string()).or_default();
        while times.front().is_some_and(|t| now.duration_since(*t) > Duration::from_secs(60)) {
            times.pop_front();
        }
        if times.len() >= PER_MINUTE || times.back().is_some_and(|t| now.duration_since(*t) < PAUSE) {
            return Err(ApiError::TooMany("you are writing too fast; wait a moment".into()));
        }
        times.push_back(now);
        Ok(())
    }
}

/// A line as it is kept: trimmed, without control characters, 1 to [`MAX_CHARS`].
pub fn clean(text: &str) -> Result<String, ApiError> {
    let t: String = text.trim().chars().filter(|c| !c.is_control()).collect();
    match t.chars().count() {
        0 => Err(ApiError::BadRequest("an empty chat line".into())),
        n if n > MAX_CHARS => Err(ApiError::BadRequest(format!("a chat line has at most {MAX_CHARS} characters"))),
        _ => Ok(t),
    }
}

impl Actor {
    /// Writes a chat line for `caller`: a player in the players' room (as their
    /// account's name, or their colour), a spectator watching over a websocket in the
    /// spectators' room.
    pub(super) async fn chat(&mut self, caller: &Caller, seats: &[Color], text: &str) -> Result<(), ApiError> {
        let room = room_of(seats);
        let author = match seats {
            [] => match caller.conn {
                Some(c) => format!("spectator {c}"),
                None => return Err(ApiError::Forbidden("watch the game to chat with its spectators".into())),
            },
            [c] => self.players[c.index()].as_ref().map_or_else(|| color_name(*c), |p| p.name.clone()),
            _ => return Err(ApiError::Conflict("a game on one device has no chat".into())),
        };
        let account = match seats {
            [c] => self.players[c.index()].as_ref().map(|p| p.id.clone()),
            _ => None,
        };
        let text = clean(text)?;
        if let Some(a) = &account {
            if self.ctx.store.chat_muted(a).await? {
                return Err(ApiError::Forbidden("a moderator has muted your chat".into()));
            }
        }
        if self.chat.lines.len() >= MAX_LINES {
            return Err(ApiError::Conflict("this game's chat is full".into()));
        }
        self.chat.pace(&author, Instant::now())?;
        let n = self.chat.lines.last().map_or(0, |l| l.n) + 1;
        let line = ChatRow { n, room: room.into(), author, text, at_ms: now_ms(), account, hidden: false };
        self.ctx.store.add_chat(&self.id, &line).await?;
        let ChatRow { n, room, author, text, .. } = line.clone();
        self.chat.lines.push(line);
        // Chat does not change the game: the version stays.
        self.events.tell(Event::Chat { v: self.events.version, n, room, author, text });
        Ok(())
    }

    /// A moderator hides line `n`: stored hidden, dropped from the room's clients.
    pub(super) async fn hide_chat(&mut self, caller: &Caller, n: i64) -> Result<(), ApiError> {
        if !caller.moderator {
            return Err(ApiError::Forbidden("only a moderator can hide a chat line".into()));
        }
        let Some(i) = self.chat.lines.iter().position(|l| l.n == n) else {
            return Err(ApiError::NotFound(format!("{} chat line {n}", self.id)));
        };
        self.ctx.store.hide_chat_line(&self.id, n, now_ms()).await?;
        let line = &mut self.chat.lines[i];
        if !line.hidden {
            line.hidden = true;
            let room = line.room.clone();
            self.events.tell(Event::ChatHidden { v: self.events.version, n, room });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cleaned_and_writers_paced() {
        assert_eq!(clean("  hi\u{7}there \n").unwrap(), "hithere");
        assert!(clean(" \n ").is_err());
        assert!(clean(&"é".repeat(MAX_CHARS)).is_ok() && clean(&"é".repeat(MAX_CHARS + 1)).is_err());
        let mut c = Chat::default();
        let t = Instant::now();
        assert!(c.pace("ann", t).is_ok());
        assert!(c.pace("ann", t + Duration::from_millis(100)).is_err(), "too soon");
        assert!(c.pace("bob", t).is_ok(), "another writer");
        for i in 1..PER_MINUTE {
            assert!(c.pace("ann", t + Duration::from_secs(i as u64)).is_ok());
        }
        assert!(c.pace("ann", t + Duration::from_secs(30)).is_err(), "15 a minute");
        assert!(c.pace("ann", t + Duration::from_secs(61)).is_ok());
    }
}
