//! The players' accounts at a game's seats, and rated games: who may join one, and the
//! ratings once it is over.

use dama_core::Color;

use super::{color_name, now_ms, Actor, Event, Player, PlayerView, RatingView};
use crate::error::ApiError;
use crate::rating::Speed;
use crate::registry::Ctx;
use crate::store::GameRow;

/// Why a guest may not play a rated game.
const GUEST_RATED: &str = "a guest plays casual games only: set a password to play rated games";

/// Refuses a player who may not play rated games: nobody logged in, or a guest.
pub(super) fn may_play_rated(player: Option<&Player>) -> Result<&Player, ApiError> {
    match player {
        None => Err(ApiError::Forbidden("log in to play a rated game".into())),
        Some(p) if p.guest => Err(ApiError::Forbidden(GUEST_RATED.into())),
        Some(p) => Ok(p),
    }
}

/// The players and rating changes of a stored game.
pub(super) async fn load_players(
    ctx: &Ctx,
    row: &GameRow,
) -> Result<([Option<Player>; 2], [Option<RatingView>; 2]), ApiError> {
    let mut players = [None, None];
    for (seat, id) in row.accounts.iter().enumerate() {
        if let Some(id) = id {
            players[seat] = ctx.store.account_by_id(id).await?.map(Player::from);
        }
    }
    let mut ratings = [None, None];
    if row.status == "finished" && players.iter().all(Option::is_some) {
        for (account, before, after) in ctx.store.game_rating_changes(&row.id).await? {
            if let Some(seat) = players.iter().position(|p| p.as_ref().is_some_and(|p| p.id == account)) {
                ratings[seat] = Some(RatingView::of(before, after));
            }
        }
    }
    Ok((players, ratings))
}

/// Tells the programs playing for the accounts at a game's seats that it starts (the
/// bot API's event stream).
pub(super) fn tell_start(ctx: &Ctx, id: &str, variant: &str, players: &[Option<Player>; 2]) {
    for (color, p) in Color::ALL.into_iter().zip(players) {
        if let Some(p) = p {
            let game = serde_json::json!({"id": id, "color": color_name(color), "variant": variant});
            ctx.bots.send(&p.id, serde_json::json!({"type": "gameStart", "game": game}));
        }
    }
}

impl Actor {
    /// Refuses a player who may not take the free seat of this game: a rated game needs
    /// an account, not the one already seated.
    pub(super) fn may_join(&self, player: Option<&Player>) -> Result<(), ApiError> {
        if !self.opts.rated {
            return Ok(());
        }
        let p = may_play_rated(player)?;
        if self.players.iter().flatten().any(|q| q.id == p.id) {
            return Err(ApiError::Forbidden("you cannot play a rated game against yourself".into()));
        }
        Ok(())
    }

    /// Tells the programs playing for the seated accounts that the game starts (the
    /// bot API's event stream).
    pub(super) fn tell_players_it_starts(&self) {
        tell_start(&self.ctx, &self.id, self.session.variant().key(), &self.players);
    }

    /// The players as clients see them.
    pub(super) fn player_views(&self) -> [Option<PlayerView>; 2] {
        [0, 1].map(|i| self.players[i].as_ref().map(|p| PlayerView { name: p.name.clone(), rating: self.ratings[i] }))
    }

    /// After a rated game between two accounts: both ratings change (once, however
    /// often this runs), and the players hear by how much. A failure is logged: the
    /// result stands either way.
    pub(super) async fn rate(&mut self, winner: Option<Color>) {
        if !self.opts.rated {
            return;
        }
        let [Some(white), Some(black)] = &self.players else { return };
        let score = match winner {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        };
        let variant = self.session.variant().key();
        let speed = Speed::of(&self.opts.time).key();
        let changes = {
            let _one_at_a_time = self.ctx.rating.lock().await;
            self.ctx.store.rate_game(&self.id, variant, speed, [&white.id, &black.id], score, now_ms()).await
        };
        match changes {
            Ok(Some(c)) => {
                self.ratings = c.map(|c| Some(RatingView::of(c.before, c.after.rating)));
                tracing::info!(game = %self.id, white = ?self.ratings[0], black = ?self.ratings[1], "rated");
                let ratings = self.ratings;
                if let Err(e) = self.announce(vec![Event::Rated { v: 0, ratings }]).await {
                    tracing::error!(game = %self.id, error = %e, "announcing the rating change");
                }
            }
            Ok(None) => {}
            Err(e) => tracing::error!(game = %self.id, error = %crate::error::Chain(&e), "rating the game"),
        }
    }

    /// Counts the finished game into the opening explorer (queued): rated
    /// games in the band of their players' average rating before the game.
    pub(super) fn count_for_explorer(&self, winner: Option<Color>) {
        let band = match self.ratings {
            [Some(w), Some(b)] if self.opts.rated => (w.before + b.before) / 200,
            _ => -1,
        };
        let s = &self.session;
        self.ctx.explorer.finished(&self.id, s.variant(), &s.start_fen(), &s.moves(), winner, band);
    }
}
