//! The next game: a rematch, or the next game of a series with colours swapped and the
//! running score. The link is stored with the finished game, so a restart or an idle
//! unload never creates a second one.

use dama_core::Color;

use super::{setup, Actor, Event, Options, SeriesState};
use crate::error::ApiError;

impl Actor {
    /// Creates the next game with colours swapped; the players keep their tokens.
    pub(super) async fn start_next(&mut self, series: Option<SeriesState>) -> Result<(), ApiError> {
        let tokens = [self.tokens[1].clone(), self.tokens[0].clone()];
        let opts = Options { series_state: series.clone(), ..self.opts.clone() };
        let players = [self.players[1].clone(), self.players[0].clone()];
        let created = setup::create_with(self.ctx.clone(), opts, tokens, players, None).await?;
        let id = created.id;
        self.next_game = Some(id.clone());
        if let Err(e) = self.announce(vec![Event::NextGame { v: 0, id, series }]).await {
            self.next_game = None;
            return Err(e);
        }
        Ok(())
    }

    /// After a game of a series: the next one, with the score so far.
    pub(super) async fn series_goes_on(&mut self, winner: Option<Color>) {
        let Some(st) = self.opts.series_state.clone() else { return };
        if st.game >= self.opts.series || self.next_game.is_some() {
            return;
        }
        let mut score = st.score;
        match winner {
            Some(c) => score[c.index()] += 1.0,
            None => {
                score[0] += 0.5;
                score[1] += 0.5;
            }
        }
        let next = SeriesState { game: st.game + 1, score: [score[1], score[0]] };
        if let Err(e) = self.start_next(Some(next)).await {
            tracing::error!(error = %crate::error::Chain(&e), "next game of the series");
        }
    }
}
