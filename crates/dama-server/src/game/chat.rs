//! A game's chat: two rooms, the players' (seen by the two players only) and the
//! spectators' (seen by spectators only, so nobody whispers moves to a player). Lines are
//! short, plain and paced; each is stored with the game, and any can be reported; a
//! moderator hides lines and mutes accounts ([`crate::moderation`]).

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use dama_core::Color;

use super::{now_ms, Actor, Caller, Event, EventBody, Room};
use crate::error::ApiError;
use crate::round::Refusal;
use crate::store::ChatRow;

/// The longest line, in characters.
pub const MAX_CHARS: usize = 140;
/// Lines a game keeps; past it the chat is closed.
pub const MAX_LINES: usize = 500;
/// Lines one writer may send a minute.
const PER_MINUTE: usize = 15;
/// The shortest pause between two lines of one writer.
const PAUSE: Duration = Duration::from_millis(700);

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
    pub(super) fn room(&self, room: Room) -> Vec<ChatRow> {
        self.lines.iter().filter(|l| l.room == room.key() && !l.hidden).cloned().collect()
    }

    /// Admits a line of `author` at `now`: cleaned, the chat not full, the writer's pace
    /// kept; its number.
    pub(super) fn admit(&mut self, author: &str, text: &str, now: Instant) -> Result<(i64, String), Refusal> {
        let text = clean(text)?;
        if self.lines.len() >= MAX_LINES {
            return Err(Refusal::ChatFull);
        }
        self.pace(author, now)?;
        Ok((self.lines.last().map_or(0, |l| l.n) + 1, text))
    }

    /// Hides line `n` (its room, if it was shown until now).
    pub(super) fn hide(&mut self, n: i64) -> Result<Option<Room>, Refusal> {
        let line = self.lines.iter_mut().find(|l| l.n == n).ok_or(Refusal::NoChatLine(n))?;
        if line.hidden {
            return Ok(None);
        }
        line.hidden = true;
        Ok(Some(if line.room == Room::Players.key() { Room::Players } else { Room::Spectators }))
    }

    /// Takes a writer's turn, or says to slow down.
    fn pace(&mut self, who: &str, now: Instant) -> Result<(), Refusal> {
        let times = self.recent.entry(who.to_string()).or_default();
        while times.front().is_some_and(|t| now.duration_since(*t) > Duration::from_secs(60)) {
            times.pop_front();
        }
        if times.len() >= PER_MINUTE || times.back().is_some_and(|t| now.duration_since(*t) < PAUSE) {
            return Err(Refusal::ChatTooFast);
        }
        times.push_back(now);
        Ok(())
    }
}

/// A line as it is kept: trimmed, without control characters, 1 to [`MAX_CHARS`].
pub fn clean(text: &str) -> Result<String, Refusal> {
    let t: String = text.trim().chars().filter(|c| !c.is_control()).collect();
    match t.chars().count() {
        0 => Err(Refusal::ChatEmpty),
        n if n > MAX_CHARS => Err(Refusal::ChatTooLong(MAX_CHARS)),
        _ => Ok(t),
    }
}

impl Actor {
    /// Writes a chat line for `caller`: a player in the players' room (as their
    /// account's name, or their colour), a spectator watching over a websocket in the
    /// spectators' room.
    pub(super) async fn chat(&mut self, caller: &Caller, seats: &[Color], text: &str) -> Result<(), ApiError> {
        let room = Room::of(seats);
        let players = self.round.players();
        let (author, account) = match seats {
            [] => match caller.conn {
                Some(c) => (format!("spectator {c}"), None),
                None => return Err(Refusal::WatchToChat.into()),
            },
            [c] => match &players[c.index()] {
                Some(p) => (p.name.clone(), Some(p.id.clone())),
                None => (c.to_string(), None),
            },
            _ => return Err(Refusal::NoChatOnOneDevice.into()),
        };
        clean(text)?;
        if let Some(a) = &account {
            if self.ctx.store.chat_muted(a).await? {
                return Err(Refusal::ChatMuted.into());
            }
            let other = seats.first().and_then(|c| players[(!*c).index()].as_ref());
            if let Some(other) = other {
                if self.ctx.store.blocked_between(a, &other.id).await? {
                    return Err(Refusal::ChatBlocked.into());
                }
            }
        }
        let (n, text) = self.chat.admit(&author, text, Instant::now())?;
        let line = ChatRow { n, room: room.key().into(), author, text, at_ms: now_ms(), account, hidden: false };
        self.ctx.store.add_chat(&self.round.id, &line).await?;
        let (author, text) = (line.author.clone(), line.text.clone());
        self.chat.lines.push(line);
        // Chat does not change the game: the version stays.
        self.events.tell(Event { v: self.round.version, body: EventBody::Chat { n, room, author, text } });
        Ok(())
    }

    /// A moderator hides line `n`: stored hidden, dropped from the room's clients.
    pub(super) async fn hide_chat(&mut self, caller: &Caller, n: i64) -> Result<(), ApiError> {
        if !caller.moderator {
            return Err(Refusal::NotModerator.into());
        }
        if !self.chat.lines.iter().any(|l| l.n == n) {
            return Err(Refusal::NoChatLine(n).into());
        }
        self.ctx.store.hide_chat_line(&self.round.id, n, now_ms()).await?;
        if let Some(room) = self.chat.hide(n)? {
            self.events.tell(Event { v: self.round.version, body: EventBody::ChatHidden { n, room } });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_chat_and_a_line_nobody_wrote_are_refused() {
        let t = Instant::now();
        let row = |n: i64| ChatRow {
            n,
            room: "players".into(),
            author: "a".into(),
            text: "x".into(),
            at_ms: 0,
            account: None,
            hidden: false,
        };
        let mut c = Chat::with((1..=MAX_LINES as i64).map(row).collect());
        assert_eq!(c.admit("ann", "hello", t), Err(Refusal::ChatFull));
        assert_eq!(c.hide(MAX_LINES as i64 + 1), Err(Refusal::NoChatLine(MAX_LINES as i64 + 1)));
        assert_eq!(c.hide(3), Ok(Some(Room::Players)));
        assert_eq!(c.hide(3), Ok(None), "hidden once");
        let mut c = Chat::default();
        assert_eq!(c.admit("ann", "hello", t), Ok((1, "hello".into())));
        assert_eq!(c.admit("ann", "again", t), Err(Refusal::ChatTooFast));
        assert_eq!(c.admit("ann", "", t), Err(Refusal::ChatEmpty));
        assert_eq!(c.admit("ann", &"x".repeat(MAX_CHARS + 1), t), Err(Refusal::ChatTooLong(MAX_CHARS)));
    }

    #[test]
    fn lines_are_cleaned_and_writers_paced() {
        assert_eq!(clean("  hi\u{7}there \n").unwrap(), "hithere");
        assert_eq!(clean(" \n "), Err(Refusal::ChatEmpty));
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
