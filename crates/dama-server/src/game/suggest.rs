//! Spectators' suggestions, and touch-move. A suggestion is a vote of one websocket
//! connection (HTTP requests cannot vote, and one address may hold only a few
//! connections to a game), for the player to move only; the tallies join the record.

use std::collections::HashMap;

use dama_core::Color;

use super::{color_name, Actor, Event, State};
use crate::error::ApiError;

/// Most distinct voters for one move.
const MAX_VOTERS: usize = 10_000;

/// The votes for the move to come, by connection.
#[derive(Default)]
pub(super) struct Votes(HashMap<u64, String>);

impl Votes {
    /// Suggested moves with their counts, most first.
    pub(super) fn tallies(&self) -> Vec<(String, usize)> {
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for m in self.0.values() {
            *counts.entry(m.as_str()).or_default() += 1;
        }
        let mut v: Vec<(String, usize)> = counts.into_iter().map(|(m, n)| (m.to_string(), n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }

    /// The tallies, and a fresh start for the next move.
    pub(super) fn take(&mut self) -> Vec<(String, usize)> {
        let t = self.tallies();
        self.0.clear();
        t
    }

    pub(super) fn clear(&mut self) {
        self.0.clear();
    }
}

impl Actor {
    pub(super) fn suggest(&mut self, conn: Option<u64>, seats: &[Color], text: &str) -> Result<(), ApiError> {
        if !self.opts.suggestions {
            return Err(ApiError::Forbidden("the players did not allow suggestions in this game".into()));
        }
        if !seats.is_empty() {
            return Err(ApiError::Forbidden("players cannot suggest moves; spectators can".into()));
        }
        let Some(conn) = conn else {
            return Err(ApiError::BadRequest("suggest over the websocket (each spectator counts once)".into()));
        };
        if self.state != State::Live {
            return Err(ApiError::Conflict("the game is not being played".into()));
        }
        let legal = self.session.legal();
        let Some(m) = legal.iter().find(|v| v.notation == text || v.long == text) else {
            return Err(ApiError::BadRequest(format!("'{text}' is not a legal move here")));
        };
        if self.votes.0.len() >= MAX_VOTERS && !self.votes.0.contains_key(&conn) {
            return Err(ApiError::Conflict("too many suggestions".into()));
        }
        self.votes.0.insert(conn, m.notation.clone());
        let (ply, to, moves) = (self.session.ply() + 1, color_name(self.session.side()), self.votes.tallies());
        // Only the player to move hears of them; the version does not change.
        self.events.tell(Event::Suggestions { v: self.events.version, ply, to, moves });
        Ok(())
    }

    /// The suggestions for the move just played join the game record.
    pub(super) async fn keep_suggestions(&mut self, ply: usize, tallies: Vec<(String, usize)>) {
        if !tallies.is_empty() {
            let rows: Vec<(String, i64)> = tallies.iter().map(|(m, n)| (m.clone(), *n as i64)).collect();
            if let Err(e) = self.ctx.store.add_suggestions(&self.id, ply as i64, &rows).await {
                tracing::error!(error = %crate::error::Chain(&e), "storing a suggestion");
            }
        }
        self.record.comments.push(tallies.iter().map(|(m, n)| format!("{m} x{n}")).collect());
    }

    pub(super) fn touch(&mut self, seats: &[Color], square: &str) -> Result<(), ApiError> {
        let side = self.session.side();
        if !seats.contains(&side) {
            return Err(ApiError::Forbidden(format!("it is {side}'s turn")));
        }
        if !self.opts.touch_move {
            return Ok(());
        }
        if let Some(t) = &self.touched {
            return if t == square {
                Ok(())
            } else {
                Err(ApiError::Conflict(format!("touch-move: you touched the piece on {t} and must move it")))
            };
        }
        if self.session.legal().iter().any(|v| v.path.first().map(String::as_str) == Some(square)) {
            self.touched = Some(square.to_string());
        }
        Ok(())
    }
}
