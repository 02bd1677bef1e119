//! The analysis board's server side: any position's legal moves (`POST
//! /api/analysis/position`), a game with variations read from PDN into a tree (`POST
//! /api/analysis/import`) and a tree written back as PDN (`POST /api/analysis/export`),
//! and the engine's lines streamed over a websocket ([`engine`]).
//!
//! The page holds the tree; the server holds no state for it. Every position the page
//! shows comes from here, so the page never decides legality itself.

pub mod engine;

use axum::extract::State;
use axum::Json;
use dama_core::any::{AnyPosition, LegalView, PieceView};
use dama_core::any_record::{NodeView, TreeView};
use dama_core::pdn::{PdnGame, PdnReader};
use dama_core::record::variant_of;
use dama_core::tree::TextNode;
use dama_core::{Color, Variant};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::invalid::Invalid;
use crate::read_notes::Note;
use crate::state::Services;

/// The variant named `key` (as `/api/variants` lists them).
pub(crate) fn variant_named(key: &str) -> Result<Variant, ApiError> {
    Variant::ALL.into_iter().find(|v| v.key() == key).ok_or_else(|| {
        ApiError::BadRequest(format!("unknown variant \"{}\"", key.chars().take(40).collect::<String>()))
    })
}

/// What `POST /api/analysis/position` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The variant's key.
    variant: String,
    /// The position; the start position when left out.
    #[serde(default)]
    fen: Option<String>,
}

/// A position: its pieces, side to move, legal moves, and the winner when the side to
/// move has none.
#[derive(Serialize)]
struct PositionOut {
    variant: &'static str,
    fen: String,
    side: Color,
    pieces: Vec<PieceView>,
    legal: Vec<LegalView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<Color>,
}

impl PositionOut {
    fn of(pos: &AnyPosition) -> PositionOut {
        let legal = pos.legal_with_fen();
        PositionOut {
            variant: pos.variant().key(),
            fen: pos.fen(),
            side: pos.side(),
            pieces: pos.pieces(),
            winner: legal.is_empty().then(|| !pos.side()),
            legal,
        }
    }
}

/// The position of `fen` (the start when none or blank).
fn position_of(variant: Variant, fen: Option<&str>) -> Result<AnyPosition, ApiError> {
    AnyPosition::new(variant, fen.map(str::trim).filter(|f| !f.is_empty())).map_err(ApiError::from)
}

/// `POST /api/analysis/position`: the position of a FEN with its legal moves.
pub async fn position(Json(req): Json<PositionRequest>) -> Result<Json<serde_json::Value>, ApiError> {
    let v = variant_named(&req.variant)?;
    let out = PositionOut::of(&position_of(v, req.fen.as_deref())?);
    serde_json::to_value(out).map(Json).map_err(|_| ApiError::Internal)
}

/// A move of a tree as the page sends it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeIn {
    /// The index of the move it follows; none for a first move.
    #[serde(default)]
    parent: Option<usize>,
    /// The move, in the variant's notation.
    #[serde(rename = "move")]
    text: String,
    /// Annotation glyphs.
    #[serde(default)]
    nags: Vec<String>,
    /// Comments after the move.
    #[serde(default)]
    comments: Vec<String>,
}

/// What `POST /api/analysis/export` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    variant: String,
    /// The start position; the variant's start when left out.
    #[serde(default)]
    fen: Option<String>,
    /// A comment before the first move.
    #[serde(default)]
    comment: String,
    /// Tags (White, Black, Event, ...).
    #[serde(default)]
    tags: Vec<(String, String)>,
    /// The result token; `*` when left out.
    #[serde(default)]
    result: Option<String>,
    /// The moves, each after its parent.
    nodes: Vec<NodeIn>,
}

/// A tree as one PDN game with its variations.
fn export_tree(v: Variant, r: &ExportRequest) -> Result<String, ApiError> {
    let start = position_of(v, r.fen.as_deref())?;
    let nodes: Vec<TextNode> = r
        .nodes
        .iter()
        .map(|n| TextNode {
            parent: n.parent,
            text: n.text.clone(),
            nags: n.nags.clone(),
            comments: n.comments.clone(),
        })
        .collect();
    let result = match r.result.as_deref() {
        None | Some("") => "*",
        Some(t @ ("*" | "1-0" | "0-1" | "1/2-1/2" | "2-0" | "0-2" | "1-1")) => t,
        Some(t) => {
            return Err(ApiError::BadRequest(format!("\"{}\" is not a result", t.chars().take(20).collect::<String>())))
        }
    };
    for (k, v) in &r.tags {
        let tag_ok = !k.is_empty() && k.len() <= 40 && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !tag_ok || v.contains(['\n', '\r', ']']) {
            return Err(ApiError::BadRequest(format!(
                "tag \"{}\" cannot be written",
                k.chars().take(40).collect::<String>()
            )));
        }
    }
    start.write_tree(&r.tags, &nodes, &r.comment, result).map_err(|e| ApiError::BadRequest(e.to_string()))
}

/// `POST /api/analysis/export`: a tree as one PDN game with its variations.
pub async fn export(Json(req): Json<ExportRequest>) -> Result<Json<serde_json::Value>, ApiError> {
    let v = variant_named(&req.variant)?;
    let text = tokio::task::spawn_blocking(move || export_tree(v, &req)).await.map_err(|_| ApiError::Internal)??;
    Ok(Json(serde_json::json!({ "pdn": text })))
}

/// What `POST /api/analysis/import` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// PDN text.
    pdn: String,
    /// The variant of a game without a GameType tag.
    #[serde(default)]
    variant: Option<String>,
    /// Which game of the text (0 for the first).
    #[serde(default)]
    game: usize,
}

/// An imported tree.
#[derive(Serialize)]
struct TreeOut {
    variant: &'static str,
    fen: String,
    tags: Vec<(String, String)>,
    comment: String,
    nodes: Vec<NodeView>,
    warnings: Vec<String>,
    /// The warnings with their codes and details (`{code, arg, error}`), for clients to
    /// word in their language.
    notes: Vec<crate::read_notes::Note>,
    /// Games in the text.
    games: usize,
}

/// One game of a PDN text read as a tree.
fn import_tree(v: Variant, g: &PdnGame) -> Result<TreeOut, ApiError> {
    let t = TreeView::read(v, g).map_err(|e| Invalid::from(&e))?;
    let mut notes: Vec<Note> = g.warnings.iter().map(Note::from).collect();
    notes.extend(t.warnings.iter().map(Note::from));
    let warnings = notes.iter().map(|n| n.error.clone()).collect();
    Ok(TreeOut {
        variant: v.key(),
        fen: t.start.fen(),
        tags: g.tags.clone(),
        comment: g.leading_comments.join(" "),
        nodes: t.nodes,
        warnings,
        notes,
        games: 0,
    })
}

/// `POST /api/analysis/import`: one game of a PDN text with its variations, as a tree
/// of moves with every position.
pub async fn import(
    State(st): State<Services>,
    Json(req): Json<ImportRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let most = st.limits.pdn();
    if req.pdn.len() > most {
        return Err(Invalid::pdn_too_large(req.pdn.len(), most).into());
    }
    let default = match req.variant.as_deref() {
        None | Some("") => Variant::English,
        Some(k) => variant_named(k)?,
    };
    let permit = st.replay.enter().await?;
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut games = 0;
        let mut chosen = None;
        for (i, g) in PdnReader::new(req.pdn.as_bytes()).enumerate() {
            games += 1;
            if i == req.game {
                chosen = Some(g);
            }
        }
        let g = match chosen {
            Some(Ok(g)) => g,
            Some(Err(e)) => return Err(Invalid::pdn_unreadable(&e).into()),
            None if games == 0 => return Err(Invalid::pdn_no_game().into()),
            None => return Err(Invalid::pdn_no_such_game(req.game + 1, games).into()),
        };
        let v = variant_of(&g, default).map_err(|e| Invalid::pdn_game_type(&g, e))?;
        let mut out = import_tree(v, &g)?;
        out.games = games;
        serde_json::to_value(out).map_err(|_| ApiError::Internal)
    })
    .await
    .map_err(|_| ApiError::Internal)??;
    Ok(Json(out))
}
