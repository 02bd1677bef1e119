//! Draw offers, takebacks and rematches. Each player may offer a draw and ask for a
//! takeback once per move (so a flood of offers cannot grow the event log), and pending
//! offers are stored with the game so a restart keeps them.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use dama_core::game::EndReason;
use dama_core::Color;
use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::{color_name, now_ms, Actor, Event, Mode, State};
use crate::error::ApiError;
use crate::session::ended;

/// The engine agrees to a draw when its score is at most this (hundredths of a man)...
const ENGINE_DRAW_MARGIN: i32 = 15;
/// ... once this many plies have been played (or at once when it stands worse).
const ENGINE_DRAW_PLY: usize = 30;

/// An offer by a colour (its index) made at a ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Offer {
    by: u8,
    ply: usize,
}

/// The pending offers, and when each colour last made one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Offers {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draw: Option<Offer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    takeback: Option<Offer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rematch: Option<u8>,
    /// The ply at which each colour last offered a draw.
    #[serde(default)]
    draw_at: [Option<usize>; 2],
    /// The ply at which each colour last asked for a takeback.
    #[serde(default)]
    takeback_at: [Option<usize>; 2],
}

fn color(i: u8) -> Color {
    Color::ALL[usize::from(i & 1)]
}

impl Offers {
    /// The stored offers of a game now at `ply` (offers made before a later move lapsed).
    pub(super) fn from_json(json: Option<&str>, ply: usize) -> Offers {
        let mut o: Offers = json.and_then(|j| serde_json::from_str(j).ok()).unwrap_or_default();
        if o.draw.is_some_and(|d| d.ply != ply) {
            o.draw = None;
        }
        if o.takeback.is_some_and(|d| d.ply != ply) {
            o.takeback = None;
        }
        o
    }

    /// The stored form (None when there is nothing to keep).
    pub(super) fn to_json(&self) -> Option<String> {
        (*self != Offers::default()).then(|| serde_json::to_string(self).unwrap_or_default())
    }

    /// Who offers a draw.
    pub(super) fn draw(&self) -> Option<Color> {
        self.draw.map(|o| color(o.by))
    }

    /// Who asks for a takeback.
    pub(super) fn takeback(&self) -> Option<Color> {
        self.takeback.map(|o| color(o.by))
    }

    /// Who asks for a rematch.
    pub(super) fn rematch(&self) -> Option<Color> {
        self.rematch.map(color)
    }

    /// A move lapses the draw offer and the takeback request.
    pub(super) fn moved(&mut self) {
        self.draw = None;
        self.takeback = None;
    }

    /// The game ended: only a rematch can be asked for now.
    pub(super) fn finished(&mut self) {
        self.moved();
    }
}

impl Actor {
    pub(super) async fn offer_draw(&mut self, by: Color, hotseat: bool) -> Result<(), ApiError> {
        if self.ai.color == Some(!by) {
            return self.offer_draw_to_engine(by).await;
        }
        if hotseat {
            // Both players are at the board; an offer is an agreement.
            self.finish(ended(None, EndReason::Agreement)).await;
            return Ok(());
        }
        let ply = self.session.ply();
        if self.offers.draw.is_some() {
            return Err(ApiError::Conflict("a draw offer is pending already".into()));
        }
        if self.offers.draw_at[by.index()] == Some(ply) {
            return Err(ApiError::Conflict("you offered a draw at this move already; offer again after a move".into()));
        }
        let before = self.offers.clone();
        self.offers.draw = Some(Offer { by: by.index() as u8, ply });
        self.offers.draw_at[by.index()] = Some(ply);
        self.announce_or_undo(before, Event::DrawOffer { v: 0, by: color_name(by) }).await
    }

    /// The engine answers a draw offer at once, after a short search of its own: it
    /// agrees when it stands worse, or when it does not think itself better by more
    /// than [`ENGINE_DRAW_MARGIN`] once [`ENGINE_DRAW_PLY`] plies have been played;
    /// otherwise it declines. One offer per move.
    async fn offer_draw_to_engine(&mut self, by: Color) -> Result<(), ApiError> {
        let ply = self.session.ply();
        if self.offers.draw_at[by.index()] == Some(ply) {
            return Err(ApiError::Conflict("you offered a draw at this move already; offer again after a move".into()));
        }
        let job = self.search_job("draw offer", Duration::from_millis(300));
        let judged = self.ctx.pool.search(job, Arc::new(AtomicBool::new(false)), false).await;
        let Ok(Some((_, score))) = judged else {
            return Err(ApiError::TooMany("the engine is busy; offer again in a moment".into()));
        };
        let engine = !by;
        let engine_score = if self.session.side() == engine { score } else { -score };
        if engine_score < 0 || (engine_score <= ENGINE_DRAW_MARGIN && ply >= ENGINE_DRAW_PLY) {
            self.finish(ended(None, EndReason::Agreement)).await;
            return Ok(());
        }
        let before = self.offers.clone();
        self.offers.draw_at[by.index()] = Some(ply);
        self.announce_or_undo(before, Event::DrawDeclined { v: 0 }).await
    }

    pub(super) async fn accept_draw(&mut self, seats: &[Color]) -> Result<(), ApiError> {
        match self.offers.draw() {
            Some(by) if !seats.contains(&by) => {
                self.finish(ended(None, EndReason::Agreement)).await;
                Ok(())
            }
            _ => Err(ApiError::Conflict("there is no draw offer to accept".into())),
        }
    }

    pub(super) async fn decline_draw(&mut self, seats: &[Color]) -> Result<(), ApiError> {
        match self.offers.draw() {
            Some(by) if !seats.contains(&by) => {
                let before = self.offers.clone();
                self.offers.draw = None;
                self.announce_or_undo(before, Event::DrawDeclined { v: 0 }).await
            }
            _ => Err(ApiError::Conflict("there is no draw offer to decline".into())),
        }
    }

    /// Stores and announces an offer's change; puts the offers back if the store failed.
    async fn announce_or_undo(&mut self, before: Offers, event: Event) -> Result<(), ApiError> {
        let r = self.announce(vec![event]).await;
        if r.is_err() {
            self.offers = before;
        }
        r
    }

    pub(super) async fn takeback(&mut self, by: Color, seats: &[Color]) -> Result<(), ApiError> {
        let ply = self.session.ply();
        match self.opts.mode {
            Mode::Hotseat => {
                if ply == 0 {
                    return Err(ApiError::Conflict("no move to take back".into()));
                }
                self.undo_plies(1).await
            }
            Mode::Ai => {
                let human = seats[0];
                if self.session.side() != human || self.ai.thinking() {
                    return Err(ApiError::Conflict("wait for the engine's move".into()));
                }
                if ply < 2 {
                    return Err(ApiError::Conflict("no move of yours to take back".into()));
                }
                self.undo_plies(2).await
            }
            Mode::Friend | Mode::Open => {
                if ply == 0 {
                    return Err(ApiError::Conflict("no move to take back".into()));
                }
                if self.offers.takeback.is_some() {
                    return Err(ApiError::Conflict("a takeback request is pending already".into()));
                }
                if self.offers.takeback_at[by.index()] == Some(ply) {
                    return Err(ApiError::Conflict("you asked for a takeback at this move already".into()));
                }
                let before = self.offers.clone();
                self.offers.takeback = Some(Offer { by: by.index() as u8, ply });
                self.offers.takeback_at[by.index()] = Some(ply);
                self.announce_or_undo(before, Event::TakebackOffer { v: 0, by: color_name(by) }).await
            }
        }
    }

    pub(super) async fn accept_takeback(&mut self, seats: &[Color]) -> Result<(), ApiError> {
        match self.offers.takeback() {
            Some(by) if !seats.contains(&by) => {
                let plies = if self.session.side() == by { 2 } else { 1 };
                self.undo_plies(plies).await
            }
            _ => Err(ApiError::Conflict("there is no takeback request to accept".into())),
        }
    }

    pub(super) async fn decline_takeback(&mut self, seats: &[Color]) -> Result<(), ApiError> {
        match self.offers.takeback() {
            Some(by) if !seats.contains(&by) => {
                let before = self.offers.clone();
                self.offers.takeback = None;
                self.announce_or_undo(before, Event::TakebackDeclined { v: 0 }).await
            }
            _ => Err(ApiError::Conflict("there is no takeback request to decline".into())),
        }
    }

    /// Takes back `n` plies: stored first (moves removed and the game saved in one
    /// transaction), then done in memory and announced.
    async fn undo_plies(&mut self, n: usize) -> Result<(), ApiError> {
        let ply = self.session.ply();
        let n = n.min(ply);
        let at = now_ms();
        let mut offers = self.offers.clone();
        offers.moved();
        let mut row = self.row(self.events.version + 1);
        row.offers = offers.to_json();
        row.turn_started_ms = Some(at);
        self.ctx.store.take_back(&self.id, (ply - n) as i64, &row).await?;
        for _ in 0..n {
            self.session.undo();
            self.record.history.pop();
            self.record.clocks_after.pop();
            self.record.comments.pop();
        }
        self.offers = offers;
        self.votes.clear();
        self.touched = None;
        self.start_clock(Instant::now(), at);
        let fen = self.session.fen();
        self.events.push(Event::Takeback { v: 0, plies: n, fen });
        self.tell_legal();
        self.maybe_start_ai();
        Ok(())
    }

    pub(super) async fn rematch(&mut self, seats: &[Color]) -> Result<(), ApiError> {
        if self.state != State::Finished {
            return Err(ApiError::Conflict("a rematch can be asked for once the game is over".into()));
        }
        if let Some(id) = &self.next_game {
            return Err(ApiError::Conflict(format!("the next game is already there: {id}")));
        }
        match self.opts.mode {
            Mode::Ai | Mode::Hotseat => self.start_next(None).await,
            Mode::Friend | Mode::Open => {
                let by = seats[0];
                match self.offers.rematch() {
                    Some(c) if c == !by => self.start_next(None).await,
                    Some(_) => Err(ApiError::Conflict("you have asked for a rematch already".into())),
                    None => {
                        let before = self.offers.clone();
                        self.offers.rematch = Some(by.index() as u8);
                        self.announce_or_undo(before, Event::RematchOffer { v: 0, by: color_name(by) }).await
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_made_before_a_later_move_lapse_when_restored() {
        let o = Offers { draw: Some(Offer { by: 1, ply: 4 }), draw_at: [None, Some(4)], ..Offers::default() };
        let json = o.to_json();
        assert_eq!(Offers::from_json(json.as_deref(), 4), o);
        let later = Offers::from_json(json.as_deref(), 5);
        assert_eq!((later.draw(), later.draw_at), (None, [None, Some(4)]));
        assert_eq!(Offers::default().to_json(), None);
    }
}
