//! An open game in the lobby: it lists itself as a seek while it waits for an opponent.

use super::{ColorChoice, Mode, Options, Player};
use crate::error::ApiError;
use crate::lobby::Seek;
use crate::rating::{Rating, Speed};
use crate::registry::Ctx;
use crate::store::GameRow;

/// Lists a waiting open game in the lobby, with its creator's name and rating (the
/// rating they would start from when they have none in this variant and class).
pub(super) async fn list(
    ctx: &Ctx,
    row: &GameRow,
    opts: &Options,
    players: &[Option<Player>; 2],
) -> Result<(), ApiError> {
    if opts.mode != Mode::Open || row.status != "waiting" {
        return Ok(());
    }
    let speed = Speed::of(&opts.time);
    let creator = players.iter().flatten().next();
    let rating = match creator {
        Some(p) => {
            let r = ctx.store.rating_of(&p.id, &row.variant, speed.key()).await?.unwrap_or_default();
            Some(r.rating.round() as i64)
        }
        None => None,
    };
    let color = match opts.color {
        ColorChoice::White => "white",
        ColorChoice::Black => "black",
        ColorChoice::Random => "random",
    };
    ctx.lobby.add(Seek {
        id: row.id.clone(),
        variant: row.variant.clone(),
        time: opts.time,
        speed,
        rated: opts.rated,
        color: color.into(),
        rating_range: opts.rating_range,
        name: creator.map(|p| p.name.clone()),
        rating,
        created_ms: row.created_ms,
    });
    Ok(())
}

/// The rating of a player who would join a game of `variant` at `speed`: their own, or
/// a newcomer's.
pub async fn rating_for(ctx: &Ctx, player: Option<&Player>, variant: &str, speed: Speed) -> Result<Rating, ApiError> {
    Ok(match player {
        Some(p) => ctx.store.rating_of(&p.id, variant, speed.key()).await?.unwrap_or_default(),
        None => Rating::default(),
    })
}
