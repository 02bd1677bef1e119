//! Games as PDN: the tags every exported game carries, and a stored game's PDN written
//! without bringing it into memory (a player's whole history in one file).

use dama_core::game::RulePreset;
use dama_core::{Color, Variant};

use crate::protocol::RulesChoice;

use super::{setup, Options, Player};
use crate::error::ApiError;
use crate::round::{Round, Stored};
use crate::state::Services;
use crate::store::GameRow;

/// The PDN tags that say which house rules a game was played under. Seed 001 calls the
/// sides Red (moving first) and Black; PDN's seats stay as every reader expects them
/// (Black moves first in English) and a tag says which is which. A preset that does not
/// concern the variant is not applied (the game plays its official rules) and not tagged.
fn rules_tags(rules: RulesChoice, variant: Variant) -> Vec<(String, String)> {
    let preset = crate::round::preset_of(rules);
    if !preset.concerns(variant) {
        return Vec::new();
    }
    let rule = |s: &str| ("Rules".to_string(), s.to_string());
    match preset {
        RulePreset::Official => Vec::new(),
        RulePreset::Seed000 => vec![rule("seed 000")],
        RulePreset::Seed001 => vec![
            rule("seed 001"),
            ("Sides".to_string(), "Red (the Black seat) moves first, Black (the White seat) second".to_string()),
        ],
        RulePreset::Seed003 => vec![rule("seed 003")],
    }
}

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
    tags.extend(rules_tags(h.opts.rules, h.variant));
    if let Some(t) = h.termination {
        tags.push(("Termination".to_string(), t.to_string()));
    }
    tags
}

/// The tags of a round's game.
fn round_tags(r: &Round) -> Vec<(String, String)> {
    tags(&Header {
        id: &r.id,
        variant: r.game.variant(),
        created_ms: r.created_ms,
        opts: &r.opts,
        ai: r.ai,
        players: &r.players(),
        termination: r.outcome.as_ref().map(|o| o.text.as_str()),
    })
}

/// A round's game as PDN, with the clocks after each move and the spectators'
/// suggestions as comments.
pub(super) fn pdn(r: &Round) -> String {
    let comments: Vec<Vec<String>> = r
        .record
        .comments
        .iter()
        .map(|c| if c.is_empty() { Vec::new() } else { vec![format!("suggested: {}", c.join(", "))] })
        .collect();
    r.game.pdn(&round_tags(r), &r.record.clocks_after, &comments)
}

/// The PDN of a stored game, written from its row and moves (the game stays out of
/// memory), with the same tags and clock comments as the game's own PDN.
pub async fn stored_pdn(ctx: &Services, row: &GameRow) -> Result<String, ApiError> {
    let moves = ctx.store.moves(&row.id).await?;
    let (players, _) = setup::load_players(ctx, row).await?;
    let stored = Stored { moves, players, ..Stored::default() };
    let r = setup::round_of(ctx, row, stored).map_err(|_| ApiError::Internal)?;
    let comments = vec![Vec::new(); r.record.clocks_after.len()];
    Ok(r.game.pdn(&round_tags(&r), &r.record.clocks_after, &comments))
}
