//! One input's way through the game: decide, store, apply, broadcast, run the effects,
//! and decide in turn on what the effects answer.

use dama_core::Color;

use super::{Actor, EventBody, Phase};
use crate::error::ApiError;
use crate::news::GameNews;
use crate::round::{Input, Now, Who};

impl Actor {
    /// Decides `input` from `who`, stores the decision, applies and announces it, then
    /// runs its effects (whose answers are decided in turn, before the caller hears
    /// back). Returns the seat a join gave. A refusal or a store failure changes
    /// nothing.
    pub(super) async fn step(&mut self, who: &Who, input: Input) -> Result<Option<Color>, ApiError> {
        let arrived = std::time::Instant::now();
        let is_move = matches!(input, Input::Act(crate::protocol::Action::Move { .. }) | Input::EngineMove(_));
        let decision = self.round.decide(who, input, Now::current())?;
        if decision.is_empty() && decision.refusal.is_none() {
            return Ok(decision.seat);
        }
        let persist = self.round.persist(&decision);
        if !persist.is_empty() {
            let storing = std::time::Instant::now();
            self.ctx.store.commit(&self.round.id, &persist).await?;
            if !persist.moves.is_empty() {
                crate::metrics::seconds("dama_move_store_seconds", storing.elapsed());
            }
        }
        let applied = self.round.apply(decision);
        for e in applied.events {
            if let EventBody::Move { .. } = e.body {
                metrics::counter!("dama_moves_total", "variant" => self.round.game.variant().key()).increment(1);
            }
            self.events.push(e);
        }
        for t in applied.tells {
            self.events.tell(t);
        }
        if applied.moved {
            self.tell_legal();
            self.correspondence_news();
        }
        if is_move && applied.refusal.is_none() {
            // Stored and announced: the move's round trip inside the server.
            crate::metrics::seconds("dama_move_seconds", arrived.elapsed());
        }
        let mut outcome = match applied.refusal {
            Some(r) => Err(r.into()),
            None => Ok(applied.seat),
        };
        for effect in applied.effects {
            match Box::pin(self.run_effect(effect)).await {
                Ok(Some(next)) => {
                    if let Err(e) = Box::pin(self.step(&Who::default(), next)).await {
                        tracing::error!(game = %self.round.id, error = %crate::error::Chain(&e), "deciding an effect's answer");
                    }
                }
                Ok(None) => {}
                // An effect the caller waits on failed (the engine could not judge a draw
                // offer, a rematch could not be created): the caller hears why.
                Err(e) => {
                    if outcome.is_ok() {
                        outcome = Err(e);
                    }
                }
            }
        }
        outcome
    }

    /// After a move of a live correspondence game: its news, for the player to move to
    /// be told ([`crate::notify`]).
    fn correspondence_news(&self) {
        let r = &self.round;
        if !matches!(r.opts.time, crate::clock::TimeControl::Correspondence { .. }) || r.phase != Phase::Live {
            return;
        }
        let left_ms = r.clock_view(crate::round::Now::current().at).map(|c| match r.side() {
            Color::White => c.white_ms,
            Color::Black => c.black_ms,
        });
        let news = GameNews::Moved { id: r.id.clone(), to_move: r.side(), players: r.players(), left_ms };
        self.ctx.news.publish(news);
    }

    /// Tells the player to move their legal moves now (no one else hears them).
    pub(super) fn tell_legal(&self) {
        if let Some(body) = self.round.legal_event() {
            self.events.tell(crate::protocol::Event { v: self.round.version, body });
        }
    }
}
