//! An open game in the lobby: it lists itself as a seek while it waits for an opponent.

use super::{Mode, Phase, Player};
use crate::error::ApiError;
use crate::lobby::Seek;
use crate::rating::{Rating, Speed};
use crate::rating_pool::Pool;
use crate::round::Round;
use crate::state::Services;

/// A waiting open game as the lobby lists it, with its creator's name and rating (the
/// rating they would start from when they have none in this pool and class); `None`
/// for any other game.
pub(super) async fn of(ctx: &Services, round: &Round) -> Result<Option<Seek>, ApiError> {
    let opts = &round.opts;
    if opts.mode != Mode::Open || round.phase != Phase::Waiting {
        return Ok(None);
    }
    let speed = Speed::of(&opts.time);
    let players = round.players();
    let creator = players.iter().flatten().next();
    let variant = round.game.variant();
    let pool = Pool::of_game(variant, opts.rules);
    let rating = match creator {
        Some(p) => Some(rating_for(ctx, Some(p), pool, speed).await?.rating.round() as i64),
        None => None,
    };
    Ok(Some(Seek {
        id: round.id.clone(),
        variant: variant.key().to_string(),
        rules: opts.rules,
        time: opts.time,
        speed,
        rated: opts.rated,
        color: opts.color,
        rating_range: opts.rating_range,
        name: creator.map(|p| p.name.clone()),
        rating,
        created_ms: round.created_ms,
    }))
}

/// The rating of a player who would join a game of `pool` at `speed`: their own, or a
/// newcomer's.
pub async fn rating_for(ctx: &Services, player: Option<&Player>, pool: Pool, speed: Speed) -> Result<Rating, ApiError> {
    Ok(match player {
        Some(p) => ctx.store.rating_of(&p.id, &pool.to_string(), speed.key()).await?.unwrap_or_default(),
        None => Rating::default(),
    })
}
