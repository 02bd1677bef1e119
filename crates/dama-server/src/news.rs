//! The news of games: a game that starts or ends says so once, here, and whatever
//! follows a game listens ([`subscribe`]) instead of being called from the game: the
//! opening explorer counts finished games, the bot API tells the players' programs.
//! Tournaments and notifications listen the same way.

use dama_core::Color;
use tokio::sync::broadcast;

use crate::protocol::bot::{AccountEvent, BotGame};
use crate::state::Services;

pub use crate::services::news::{GameNews, News};

/// Runs `f` on every piece of news from now on, until the server stops.
pub fn subscribe(ctx: &Services, name: &'static str, mut f: impl FnMut(&Services, GameNews) + Send + 'static) {
    let mut rx = ctx.news.subscribe();
    let ctx = ctx.clone();
    tokio::spawn(async move {
        loop {
            match rx.recv().await {
                Ok(n) => f(&ctx, n),
                Err(broadcast::error::RecvError::Lagged(k)) => {
                    tracing::warn!(listener = name, missed = k, "a game news listener fell behind");
                }
                Err(broadcast::error::RecvError::Closed) => break,
            }
        }
    });
}

/// The listeners every server runs: the explorer counts finished games, and the
/// players' programs hear of their games' start and end (the notifications listen
/// too: [`crate::notify::listeners`]).
pub fn start_listeners(ctx: &Services) {
    subscribe(ctx, "explorer", |ctx, n| {
        if let GameNews::Over { id, variant, start_fen, moves, winner, played: true, band, .. } = n {
            ctx.explorer.finished(&id, variant, &start_fen, &moves, winner, band);
        }
    });
    subscribe(ctx, "bots", |ctx, n| match n {
        GameNews::Started { id, variant, players } => {
            for (color, p) in Color::ALL.into_iter().zip(players) {
                if let Some(p) = p {
                    let game = BotGame { id: &id, color: Some(color), variant: Some(variant.key()) };
                    ctx.bots.send(&p.id, AccountEvent::GameStart { game }.value());
                }
            }
        }
        GameNews::Over { id, players, .. } => {
            for p in players.iter().flatten() {
                let game = BotGame { id: &id, color: None, variant: None };
                ctx.bots.send(&p.id, AccountEvent::GameFinish { game }.value());
            }
        }
        GameNews::Moved { .. } => {}
    });
}
