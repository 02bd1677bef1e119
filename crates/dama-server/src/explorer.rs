//! The opening explorer: for the position on the board, the moves played from it in
//! the bundled master collections and in the games finished here, with how often and
//! how those games ended.
//!
//! The first [`PLIES`] plies of each game are counted into the `explorer` table by
//! position (its Zobrist key), move, source and rating band; a finished game is counted
//! as it ends ([`Queue`]), the bundled collections once, in the background, the
//! first time a server starts on a database (`load_bundled`). `GET /api/explorer`
//! answers from the table's primary key.

use axum::extract::{Query, State};
use axum::Json;
use dama_core::any::{AnyGame, AnyPosition};
use dama_core::pdn::PdnReader;
use dama_core::record::result_winner;
use dama_core::Variant;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::state::Services;
use crate::store::{CountBatch, MoveCount, Store};

pub use crate::services::explorer_counts::{count_game, Counts, Queue, PLIES};

/// A collection of real games bundled in the binary.
pub(crate) struct Collection {
    /// Its name in the database (`collection:<name>`).
    pub name: &'static str,
    pub variant: Variant,
    /// PDN, or JSON (`{"<any key>": ["<PDN game>", ...]}`) when `json`.
    pub text: &'static str,
    pub json: bool,
    /// Master games, counted into the explorer's `masters` source; other games (online
    /// samples) feed the puzzles only.
    pub masters: bool,
    /// How many of its games, from the first, are scanned for puzzles.
    pub puzzle_games: usize,
}

/// A bundled collection, by its path under dama-core's `tests/data/pdn/`: `masters`
/// (PDN, scanned for puzzles in its first `$puzzles` games, all by default) or `online`
/// (a JSON sample, puzzles only).
macro_rules! collection {
    ($name:literal, $variant:ident, $path:literal, masters) => {
        collection!($name, $variant, $path, masters, usize::MAX)
    };
    ($name:literal, $variant:ident, $path:literal, masters, $puzzles:expr) => {
        Collection {
            name: $name,
            variant: Variant::$variant,
            text: include_str!(concat!("../../dama-core/tests/data/pdn/", $path)),
            json: false,
            masters: true,
            puzzle_games: $puzzles,
        }
    };
    ($name:literal, $variant:ident, $path:literal, online) => {
        Collection {
            name: $name,
            variant: Variant::$variant,
            text: include_str!(concat!("../../dama-core/tests/data/pdn/", $path)),
            json: true,
            masters: false,
            puzzle_games: usize::MAX,
        }
    };
}

/// The bundled collections: championship games of the PDN 3.0 test suite (USSR 1947,
/// the 2003 World and Dutch championships, Italy 2005, the Open Checkers Archive's
/// 19th-century English matches), 9,377 games of the American Checker Federation's
/// archives, and the samples of lidraughts and playstrategy games the tests read
/// (online games, not masters': puzzles only). The ACF archive is scanned for puzzles
/// in its first 200 games only: all of them would keep a core busy for hours.
pub(crate) const BUNDLED: &[Collection] = &[
    collection!("ussr1947", Russian, "pdn3-test-suite/succeed/ussr1947.pdn", masters),
    collection!("wk2003", International, "pdn3-test-suite/succeed/wk2003.pdn", masters),
    collection!("nk2003-amsterdam", International, "pdn3-test-suite/succeed/nk2003-amsterdam.pdn", masters),
    collection!("DUTCH96H", International, "pdn3-test-suite/succeed/DUTCH96H.pdn", masters),
    collection!("PROF2", International, "pdn3-test-suite/succeed/PROF2.pdn", masters),
    collection!("Campionato_Assoluto_2005", Italian, "pdn3-test-suite/succeed/Campionato_Assoluto_2005.pdn", masters),
    collection!("OCA_2.0", English, "pdn3-test-suite/succeed/OCA_2.0.pdn", masters),
    collection!("acf-archive", English, "masters/acf-archive.pdn", masters, 200),
    collection!("lidraughts-russian", Russian, "online-samples/russian_lidraughts_random_pdns.json", online),
    collection!(
        "lidraughts-international",
        International,
        "online-samples/standard_lidraughts_random_pdns.json",
        online
    ),
    collection!("playstrategy-english", English, "online-samples/american_playstrategy_random_pdns.json", online),
];

/// The PDN text of a bundled collection.
pub(crate) fn pdn_of(text: &str, json: bool) -> String {
    if !json {
        return text.to_string();
    }
    let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    let games = v.as_object().and_then(|o| o.values().find_map(Value::as_array)).cloned().unwrap_or_default();
    games.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("\n\n")
}

/// Counts every game of a PDN text that replays; returns the counts and the games.
fn count_text(variant: Variant, text: &str) -> (Counts, usize) {
    let mut counts = Counts::new();
    let mut games = 0;
    for g in PdnReader::new(text.as_bytes()).flatten() {
        let Ok(r) = AnyGame::replay(variant, &g) else { continue };
        let first = variant.first_to_move();
        let Some(winner) = g.result.as_deref().or(g.tag("Result")).and_then(|t| result_winner(t, first)) else {
            continue;
        };
        count_game(&r.game, winner, &mut counts);
        games += 1;
    }
    (counts, games)
}

/// Counts the bundled collections not counted yet on this database.
pub async fn load_bundled(store: Store) {
    for c in BUNDLED.iter().filter(|c| c.masters) {
        let (name, variant) = (c.name, c.variant);
        let started = std::time::Instant::now();
        let (counts, games) =
            match tokio::task::spawn_blocking(move || count_text(variant, &pdn_of(c.text, c.json))).await {
                Ok(c) => c,
                Err(_) => continue,
            };
        let rows: Vec<(i64, MoveCount)> = counts.into_iter().map(|((k, _), c)| (k, c)).collect();
        let positions = rows.len();
        let batch = CountBatch {
            name: format!("collection:{name}"),
            variant: variant.key().to_string(),
            source: "masters".into(),
            band: -1,
            rows,
        };
        match store.explorer_add(&[batch]).await {
            Ok(1) => {
                let ms = started.elapsed().as_millis() as u64;
                tracing::info!(collection = %name, games, positions, ms, "opening explorer: collection counted");
            }
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(collection = %name, error = %crate::error::Chain(&e), "opening explorer: counting a collection")
            }
        }
    }
}

/// What `GET /api/explorer` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplorerQuery {
    variant: String,
    /// The position; the start when left out.
    #[serde(default)]
    fen: Option<String>,
    /// `masters` (the default) or `players`.
    #[serde(default)]
    source: Option<String>,
    /// Lowest average rating of the players' games (rated games only when given).
    #[serde(default)]
    min: Option<i64>,
    /// Highest average rating.
    #[serde(default)]
    max: Option<i64>,
}

/// `GET /api/explorer?variant=V&fen=F&source=masters|players&min=R&max=R`: the moves
/// played from a position, most played first, with the results of their games.
pub async fn moves(State(st): State<Services>, Query(q): Query<ExplorerQuery>) -> Result<Json<Value>, ApiError> {
    let variant = crate::analysis::variant_named(&q.variant)?;
    let source = match q.source.as_deref() {
        None | Some("masters") => "masters",
        Some("players") => "players",
        Some(s) => {
            return Err(ApiError::BadRequest(format!(
                "source \"{}\" is neither masters nor players",
                s.chars().take(20).collect::<String>()
            )))
        }
    };
    let fen = q.fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
    let pos = AnyPosition::new(variant, fen)?;
    let key = pos.hash() as i64;
    let legal: Vec<(String, String)> = pos.legal().into_iter().map(|m| (m.long, m.notation)).collect();
    // Bands are ratings / 100; without a range every game counts (unrated ones too).
    let bands = match (q.min, q.max) {
        (None, None) => (i64::MIN, i64::MAX),
        (lo, hi) => (lo.unwrap_or(0).div_euclid(100), hi.unwrap_or(10_000).div_euclid(100)),
    };
    let rows = st.store.explorer_moves(variant.key(), source, key, bands, 40).await?;
    // A key shared by another position (a hash collision) could list a move that is
    // not legal here: only legal moves are shown.
    let moves: Vec<Value> = rows
        .iter()
        .filter_map(|c| {
            let (long, short) = legal.iter().find(|(l, _)| *l == c.mv)?;
            Some(json!({ "long": long, "notation": short, "games": c.games, "white": c.white, "draws": c.draws, "black": c.black }))
        })
        .collect();
    let games: i64 = rows.iter().map(|c| c.games).sum();
    Ok(Json(json!({ "variant": variant.key(), "source": source, "games": games, "moves": moves })))
}
