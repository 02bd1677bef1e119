//! Games as PDN: the tags every exported game carries, and a stored game's PDN written
//! without bringing it into memory (a player's whole history in one file).

use dama_core::{Color, Variant};

use super::{rated, setup, Options, Player};
use crate::error::ApiError;
use crate::registry::Ctx;
use crate::store::GameRow;

/// What a game's PDN tags say.
pub(super) struct Header<'a> {
    pub id: &'a str,
    pub variant: Variant,
    pub created_ms: i64,
    pub opts: &'a Options,
    /// The engine's colour in a game against it.
    pub ai: Option<Color>,
    pub players: &'a [Option<Player>; 2],
    /// Why the game ended, once it has.
    pub termination: Option<&'a str>,
}

/// The tags of a game: event, site, date, the game's id as the round, the players (the
/// engine with its level, an account's name, or "Anonymous"), the clock, the house
/// rules, and why it ended.
pub(super) fn tags(h: &Header<'_>) -> Vec<(String, String)> {
    let player = |c: Color| match (h.ai, &h.players[c.index()]) {
        (Some(ai), _) if ai == c => format!("dama level {}", h.opts.level),
        (_, Some(p)) => p.name.clone(),
        _ => "Anonymous".to_string(),
    };
    let mut tags = vec![
        ("Event".to_string(), format!("dama {} game", h.variant.key())),
        ("Site".to_string(), "dama".to_string()),
        ("Date".to_string(), crate::clock::pdn_date(h.created_ms)),
        ("Round".to_string(), h.id.to_string()),
        ("White".to_string(), player(Color::White)),
        ("Black".to_string(), player(Color::Black)),
        ("TimeControl".to_string(), h.opts.time.pdn_tag()),
    ];
    tags.extend(setup::rules_tags(h.opts.rules, h.variant));
    if let Some(t) = h.termination {
        tags.push(("Termination".to_string(), t.to_string()));
    }
    tags
}

/// The PDN of a stored game, written from its row and moves (the game stays out of
/// memory), with the same tags and clock comments as the game's own PDN.
pub async fn stored_pdn(ctx: &Ctx, row: &GameRow) -> Result<String, ApiError> {
    let (opts, mut session) = setup::stored_session(row)?;
    let variant = session.variant();
    let mut clocks = Vec::new();
    for m in ctx.store.moves(&row.id).await? {
        session.play_recorded(&m.notation).map_err(|_| ApiError::Internal)?;
        clocks.push(m.clock_ms.map(|c| c.max(0) as u64));
    }
    let (players, _) = rated::load_players(ctx, row).await?;
    let ai = setup::engine_color(opts.mode, row.white_token.is_some());
    let tags = tags(&Header {
        id: &row.id,
        variant,
        created_ms: row.created_ms,
        opts: &opts,
        ai,
        players: &players,
        termination: row.reason.as_deref(),
    });
    setup::end_as_stored(session.as_mut(), row.result.as_deref());
    let comments = vec![Vec::new(); clocks.len()];
    Ok(session.pdn(&tags, &clocks, &comments))
}
