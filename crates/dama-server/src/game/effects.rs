//! The effects of a game's decisions, outside the round: the engine thinks, judges a
//! draw offer or arbitrates; the game leaves the lobby; a rated game is rated; the next
//! game is created; the spectators' suggestions are kept; and the news of a game that
//! starts or ends goes to whoever listens ([`crate::news`]: the explorer, the bot API,
//! and whatever comes next).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use dama_engine::level::Level;

use super::{ai, setup, Actor, Options};
use crate::error::ApiError;
use crate::news::GameNews;
use crate::protocol::RatingView;
use crate::rating::Speed;
use crate::rating_pool::Pool;
use crate::round::{Effect, Input, Refusal};

impl Actor {
    /// Runs an effect; what it answers, to decide in turn.
    pub(super) async fn run_effect(&mut self, effect: Effect) -> Result<Option<Input>, ApiError> {
        match effect {
            Effect::Think => {
                self.engine.think(&self.round, &self.ctx);
                Ok(None)
            }
            Effect::StopThinking => {
                self.engine.stop();
                Ok(None)
            }
            Effect::JudgeDraw(by) => {
                let job = ai::search_job(&self.round, "draw offer", Duration::from_millis(300), Level::new(10));
                let judged = self.ctx.pool.search(job, Arc::new(AtomicBool::new(false)), false).await;
                match judged {
                    Ok(Some((_, score))) => Ok(Some(Input::DrawJudged { by, score })),
                    _ => Err(Refusal::EngineBusy.into()),
                }
            }
            Effect::Adjudicate => {
                let pos = self.round.game.position();
                let judge = move || dama_engine::arbiter::adjudicate_any(&pos, 300_000, 150);
                let winner = self.ctx.pool.run(judge).await.unwrap_or(None);
                Ok(Some(Input::Adjudicated(winner)))
            }
            Effect::Started => {
                self.ctx.lobby.remove(&self.round.id);
                let news = GameNews::Started {
                    id: self.round.id.clone(),
                    variant: self.round.game.variant(),
                    players: self.round.players(),
                };
                self.ctx.news.publish(news);
                Ok(None)
            }
            Effect::Rate => Ok(self.rate().await),
            Effect::Over => {
                self.over();
                Ok(None)
            }
            Effect::NextGame(series) => {
                let rematch = series.is_none();
                match self.create_next(series.clone()).await {
                    Ok(id) => Ok(Some(Input::NextGameCreated { id, series })),
                    // A rematch asked for hears why; a series goes on without a word.
                    Err(e) if rematch => Err(e),
                    Err(e) => {
                        tracing::error!(game = %self.round.id, error = %crate::error::Chain(&e), "next game of the series");
                        Ok(None)
                    }
                }
            }
            Effect::KeepSuggestions { ply, tallies } => {
                let rows: Vec<(String, i64)> = tallies.iter().map(|(m, n)| (m.clone(), *n as i64)).collect();
                if let Err(e) = self.ctx.store.add_suggestions(&self.round.id, ply as i64, &rows).await {
                    tracing::error!(error = %crate::error::Chain(&e), "storing a suggestion");
                }
                Ok(None)
            }
        }
    }

    /// Rates a finished rated game (once, however often this runs): the players hear
    /// by how much; a failure is logged and the game's end goes out unrated.
    async fn rate(&mut self) -> Option<Input> {
        let [Some(white), Some(black)] = self.round.players() else {
            self.over();
            return None;
        };
        let score = match self.round.outcome.as_ref().and_then(|o| o.winner) {
            Some(dama_core::Color::White) => 1.0,
            Some(dama_core::Color::Black) => 0.0,
            None => 0.5,
        };
        // A seed rulebook rates in a pool of its own (the options were checked to
        // have one).
        let v = self.round.game.variant();
        let variant = Pool::of_game(v, self.round.opts.rules).to_string();
        let speed = Speed::of(&self.round.opts.time).key();
        let changes = {
            let _one_at_a_time = self.ctx.rating.lock().await;
            let now = super::now_ms();
            self.ctx.store.rate_game(&self.round.id, &variant, speed, [&white.id, &black.id], score, now).await
        };
        match changes {
            Ok(Some(c)) => {
                let ratings = c.map(|c| Some(RatingView::of(c.before, c.after.rating)));
                tracing::info!(game = %self.round.id, white = ?ratings[0], black = ?ratings[1], "rated");
                Some(Input::Rated(ratings))
            }
            Ok(None) => {
                self.over();
                None
            }
            Err(e) => {
                tracing::error!(game = %self.round.id, error = %crate::error::Chain(&e), "rating the game");
                self.over();
                None
            }
        }
    }

    /// The game is over (and rated, if rated): it leaves the lobby, and its news goes
    /// out.
    fn over(&self) {
        let r = &self.round;
        self.ctx.lobby.remove(&r.id);
        let Some(outcome) = &r.outcome else { return };
        tracing::info!(game = %r.id, result = %outcome.text, "game finished");
        metrics::counter!("dama_games_finished_total", "variant" => r.game.variant().key()).increment(1);
        // Rated games count in the band of their players' average rating before.
        let band = match r.ratings {
            [Some(w), Some(b)] if r.opts.rated => (w.before + b.before) / 200,
            _ => -1,
        };
        self.ctx.news.publish(GameNews::Over {
            id: r.id.clone(),
            variant: r.game.variant(),
            start_fen: r.game.start_fen(),
            moves: r.game.moves().to_vec(),
            winner: outcome.winner,
            reason: outcome.reason,
            played: !outcome.reason.is_some_and(|x| x.is_void()),
            band,
            players: r.players(),
            correspondence: matches!(r.opts.time, crate::clock::TimeControl::Correspondence { .. }),
        });
    }

    /// Creates the next game with colours swapped; the players keep their tokens. It is
    /// held: its clock starts once its players have opened it.
    async fn create_next(&self, series: Option<crate::protocol::SeriesState>) -> Result<String, ApiError> {
        let r = &self.round;
        let tokens = [r.seats[1].token.clone(), r.seats[0].token.clone()];
        let opts = Options { series_state: series, ..r.opts.clone() };
        let players = [r.seats[1].player.clone(), r.seats[0].player.clone()];
        let created = setup::create_with(self.ctx.clone(), opts, tokens, players, None, true).await?;
        Ok(created.id)
    }
}
