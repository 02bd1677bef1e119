//! An open game in the lobby: it lists itself as a seek while it waits for an opponent.

use super::{Mode, Options, Player};
use crate::error::ApiError;
use crate::lobby::Seek;
use crate::rating::{Rating, Speed};
use crate::registry::Ctx;
use crate::store::GameRow;

/// A waiting open game as the lobby lists it, with its creator's name and rating (the
/// rating they would start from when they have none in this variant and class); `None`
/// for any other game.
pub(super) async fn of(
    ctx: &Ctx,
    row: &GameRow,
    opts: &Options,
    players: &[Option<Player>; 2],
) -> Result<Option<Seek>, ApiError> {
    if opts.mode != Mode::Open || row.status != "waiting" {
        return Ok(None);
    }
    let speed = Speed::of(&opts.time);
    let creator = players.iter().flatten().next();
    let rating = match creator {
        Some(p) => Some(rating_for(ctx, Some(p), &row.variant, speed).await?.rating.round() as i64),
        None => None,
    };
    Ok(Some(Seek {
        id: row.id.clone(),
        variant: row.variant.clone(),
        time: opts.time,
        speed,
        rated: opts.rated,
        color: opts.color,
        rating_range: opts.rating_range,
        name: creator.map(|p| p.name.clone()),
        rating,
        created_ms: row.created_ms,
    }))
}

/// The rating of a player who would join a game of `variant` at `speed`: their own, or
/// a newcomer's.
pub async fn rating_for(ctx: &Ctx, player: Option<&Player>, variant: &str, speed: Speed) -> Result<Rating, ApiError> {
    Ok(match player {
        Some(p) => ctx.store.rating_of(&p.id, variant, speed.key()).await?.unwrap_or_default(),
        None => Rating::default(),
    })
}
