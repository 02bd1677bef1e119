//! What notifies, listening to the news of games: the players of a correspondence game
//! hear of their move and of its end, and the online followers of a player hear that
//! they started a game; and, called by [`crate::sweep`], a player with a day left for a
//! correspondence move is reminded once.

use dama_core::Color;
use serde_json::json;

use super::{notify_or_log, Notice};
use crate::news::{self, GameNews};
use crate::protocol::Player;
use crate::state::Services;

/// How long after its last sign of life a page's account counts as online.
pub const ONLINE_FOR_MS: i64 = 90_000;
/// A correspondence player is reminded when this much is left for their move.
pub const REMIND_AT_MS: i64 = 86_400_000;

/// Starts the listeners.
pub fn start(ctx: &Services) {
    news::subscribe(ctx, "notify", |ctx, n| {
        let ctx = ctx.clone();
        tokio::spawn(async move { on_news(&ctx, n).await });
    });
}

fn name(p: &Option<Player>) -> Option<String> {
    p.as_ref().map(|p| p.name.clone())
}

async fn on_news(ctx: &Services, n: GameNews) {
    match n {
        GameNews::Started { id, players, .. } => {
            let since = crate::clock::now_ms() - ONLINE_FOR_MS;
            for p in players.iter().flatten() {
                match ctx.store().online_followers(&p.id, since).await {
                    Ok(followers) => {
                        let e = json!({ "type": "following_playing", "name": p.name, "game": id });
                        for f in followers {
                            ctx.bots.send(&f, e.clone());
                        }
                    }
                    Err(e) => tracing::error!(error = %crate::error::Chain(&e), "reading a player's followers"),
                }
            }
        }
        GameNews::Moved { id, to_move, players, left_ms } => {
            if let Some(p) = &players[to_move.index()] {
                let opponent = name(&players[(!to_move).index()]);
                notify_or_log(ctx, &p.id, Notice::YourMove { game: id, opponent, left_ms }).await;
            }
        }
        GameNews::Over { id, winner, played, players, correspondence: true, .. } => {
            for c in Color::ALL {
                let Some(p) = &players[c.index()] else { continue };
                let result = match (played, winner) {
                    (false, _) => "void",
                    (true, None) => "draw",
                    (true, Some(w)) if w == c => "win",
                    (true, Some(_)) => "loss",
                };
                let opponent = name(&players[(!c).index()]);
                let notice = Notice::GameOver { game: id.clone(), opponent, result: result.into() };
                notify_or_log(ctx, &p.id, notice).await;
            }
        }
        GameNews::Over { .. } => {}
    }
}

/// Reminds the player to move in each correspondence game with a day or less left at
/// `now_ms` (once per move).
pub async fn remind(ctx: &Services, now_ms: i64) -> Result<(), crate::error::ApiError> {
    for t in ctx.store().correspondence_turns(now_ms, REMIND_AT_MS).await? {
        if ctx.store().remind_once(&t.game, t.ply, now_ms).await? {
            let notice = Notice::TimeRunningOut { game: t.game, opponent: t.opponent, left_ms: t.left_ms as u64 };
            notify_or_log(ctx, &t.player, notice).await;
        }
    }
    Ok(())
}
