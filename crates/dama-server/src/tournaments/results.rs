//! The results of events' games: the news of a game's end records its result at
//! once (on the node where it ended) and pokes the director; a result whose news was
//! missed (a restart, a node that died) is read from the stored game by the director
//! ([`reconcile`]). Either way a result is recorded once.
//!
//! A player who loses a game by not coming (no first move within the first-move
//! wait) is taken out of the pairing — paused in an arena, absent in a
//! Swiss — until they join again.

use dama_core::game::EndReason;
use dama_core::Color;

use super::director::Event;
use super::points;
use crate::error::ApiError;
use crate::news::GameNews;
use crate::round::Outcome;
use crate::state::Services;

/// Listens to the games' news for the results of events' games.
pub fn start(ctx: &Services) {
    crate::news::subscribe(ctx, "tournaments", |ctx, n| {
        if let GameNews::Over { id, winner, reason, played, moves, .. } = n {
            let ctx = ctx.clone();
            tokio::spawn(async move {
                if let Err(e) = record(&ctx, &id, winner, reason, played, moves.len() as i64).await {
                    tracing::warn!(game = %id, error = %e, "recording a tournament result");
                }
            });
        }
    });
}

/// Records the result of game `id` if it is an event's (once), pauses a player who
/// did not come, and pokes the director.
async fn record(
    ctx: &Services,
    id: &str,
    winner: Option<Color>,
    reason: Option<EndReason>,
    played: bool,
    plies: i64,
) -> Result<(), ApiError> {
    let now = crate::clock::now_ms();
    let Some(event) = ctx.store.tournament_result(id, points(winner, played), plies, now).await? else {
        return Ok(());
    };
    pause_no_show(ctx, &event, id, no_show(winner, reason, plies)).await?;
    ctx.pokes.poke(&event);
    Ok(())
}

/// The player who did not come: the loser of a game lost by abandonment (an event's
/// first move not made in time, [`crate::clock::EVENT_FIRST_MOVE_MS`]) before the
/// second move.
fn no_show(winner: Option<Color>, reason: Option<EndReason>, plies: i64) -> Option<Color> {
    match (winner, reason) {
        (Some(w), Some(EndReason::Abandonment)) if plies < 2 => Some(!w),
        _ => None,
    }
}

/// Takes the player of `game` who did not come (`loser`) out of the pairing.
async fn pause_no_show(ctx: &Services, event: &str, game: &str, loser: Option<Color>) -> Result<(), ApiError> {
    let Some(loser) = loser else { return Ok(()) };
    let Some(g) = ctx.store.pairing_of_game(game).await? else { return Ok(()) };
    let account = if loser == Color::White { Some(g.white.as_str()) } else { g.black.as_deref() };
    if let Some(a) = account {
        ctx.store.leave_tournament(event, a).await?;
        tracing::info!(tournament = %event, account = %a, "a player who did not come is paused");
    }
    Ok(())
}

/// Records the results of event `ev`'s games that ended without their news reaching
/// here; how many.
pub async fn reconcile(ctx: &Services, ev: &Event) -> Result<usize, ApiError> {
    let ended = ctx.store.tournament_games_ended(&ev.row.id).await?;
    let first = ev.settings.variant().first_to_move();
    let now = crate::clock::now_ms();
    let mut n = 0;
    for (game, token, reason, plies) in ended {
        let o = Outcome::stored(token.as_deref(), reason.as_deref(), first);
        let played = o.reason.is_none_or(|r| !r.is_void());
        if ctx.store.tournament_result(&game, points(o.winner, played), plies, now).await?.is_some() {
            pause_no_show(ctx, &ev.row.id, &game, no_show(o.winner, o.reason, plies)).await?;
            n += 1;
        }
    }
    Ok(n)
}
