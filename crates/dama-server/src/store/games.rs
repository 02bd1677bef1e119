//! The games table: a game's row read into types in one place ([`game`]), created,
//! listed, and its state written in a decision's transaction ([`super::commit`]).
//!
//! A row is what never changes after creation (variant, mode, start, options, time,
//! invite) and a [`GameState`], the columns the round rewrites as it is played; the
//! columns `variant`, `mode`, `status`, `options` and `offers` hold text (keys, JSON)
//! and are read into [`Variant`], [`Mode`], [`Phase`], [`Options`] and
//! [`OffersColumn`] here alone.

use dama_core::Variant;
use serde::{Deserialize, Serialize};
use sqlx::any::AnyRow;
use sqlx::Row;

use super::{int, Store, StoreError};
use crate::protocol::{Mode, Options, Phase};

/// A stored game.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// Game id.
    pub id: String,
    /// Its rulebook.
    pub variant: Variant,
    /// How it is played.
    pub mode: Mode,
    /// Start position.
    pub start_fen: String,
    /// Its options.
    pub options: Options,
    /// Creation time, ms since the epoch.
    pub created_ms: i64,
    /// Hash of the friend invite secret.
    pub invite_hash: Option<String>,
    /// What changes as it is played.
    pub state: GameState,
}

impl Default for GameRow {
    fn default() -> GameRow {
        GameRow {
            id: String::new(),
            variant: Variant::English,
            mode: Mode::default(),
            start_fen: String::new(),
            options: Options::default(),
            created_ms: 0,
            invite_hash: None,
            state: GameState::default(),
        }
    }
}

/// What changes in a game row as it is played (everything but its moves).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameState {
    /// Where it stands.
    pub status: Phase,
    /// Hashes of the seat tokens.
    pub white_token: Option<String>,
    /// Hashes of the seat tokens.
    pub black_token: Option<String>,
    /// Result token, once finished.
    pub result: Option<String>,
    /// Why it finished (an end reason's stored form).
    pub reason: Option<String>,
    /// The version of the last event (versions never go back, across restarts).
    pub version: i64,
    /// The rematch or next game of the series, once created.
    pub next_game: Option<String>,
    /// Pending offers.
    pub offers: OffersColumn,
    /// When the side to move's time started, ms since the epoch (the clock charges it
    /// after a restart).
    pub turn_started_ms: Option<i64>,
    /// Once finished: the clock of the side to move, frozen at the end.
    pub end_clock_ms: Option<i64>,
    /// The accounts at the seats (White, Black), if any.
    pub accounts: [Option<String>; 2],
    /// Who went berserk: 1 White, 2 Black.
    pub berserk: i64,
}

/// A stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// Ply, from 1.
    pub ply: i64,
    /// Long notation.
    pub notation: String,
    /// The mover's clock after the move, if any.
    pub clock_ms: Option<i64>,
    /// When it was stored, ms since the epoch.
    pub at_ms: i64,
    /// The game's version once the move and what it caused were announced.
    pub v: Option<i64>,
}

/// The `offers` column: a draw offer or takeback request waiting for an answer (who
/// asked, at which ply), who asked for a rematch, and the plies at which each side last
/// asked. Colours are 0 (White) and 1 (Black), as rows written before hold them; the
/// column is empty (NULL) when there is nothing to keep, and a value that does not read
/// is no offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffersColumn {
    /// A draw offer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<StoredOffer>,
    /// A takeback request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback: Option<StoredOffer>,
    /// Who asked for a rematch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<u8>,
    /// The plies at which each side last offered a draw.
    #[serde(default)]
    pub draw_at: [Option<usize>; 2],
    /// The plies at which each side last asked to take back.
    #[serde(default)]
    pub takeback_at: [Option<usize>; 2],
}

/// An offer waiting for an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredOffer {
    /// Who asked (0 White, 1 Black).
    pub by: u8,
    /// At which ply.
    pub ply: usize,
}

impl OffersColumn {
    fn read(text: Option<&str>) -> OffersColumn {
        text.and_then(|t| serde_json::from_str(t).ok()).unwrap_or_default()
    }

    fn write(&self) -> Option<String> {
        (*self != OffersColumn::default()).then(|| serde_json::to_string(self).unwrap_or_default())
    }
}

/// A column of text that must read as `T`.
pub(super) fn parsed<T>(r: &AnyRow, col: &str) -> Result<T, sqlx::Error>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    let text: String = r.try_get(col)?;
    text.parse().map_err(|e: T::Err| sqlx::Error::ColumnDecode { index: col.into(), source: e.to_string().into() })
}

/// The `options` column.
pub(super) fn options(r: &AnyRow) -> Result<Options, sqlx::Error> {
    let text: String = r.try_get("options")?;
    serde_json::from_str(&text).map_err(|e| sqlx::Error::ColumnDecode { index: "options".into(), source: Box::new(e) })
}

/// A game's row, read into its types (the one place the games table is read).
pub(crate) fn game(r: &AnyRow) -> Result<GameRow, sqlx::Error> {
    let options = options(r)?;
    let offers: Option<String> = r.try_get("offers")?;
    Ok(GameRow {
        id: r.try_get("id")?,
        variant: parsed(r, "variant")?,
        mode: parsed(r, "mode")?,
        start_fen: r.try_get("start_fen")?,
        options,
        created_ms: r.try_get("created_ms")?,
        invite_hash: r.try_get("invite_hash")?,
        state: GameState {
            status: parsed(r, "status")?,
            white_token: r.try_get("white_token")?,
            black_token: r.try_get("black_token")?,
            result: r.try_get("result")?,
            reason: r.try_get("reason")?,
            version: int(r, "version")?,
            next_game: r.try_get("next_game")?,
            offers: OffersColumn::read(offers.as_deref()),
            turn_started_ms: r.try_get("turn_started_ms")?,
            end_clock_ms: r.try_get("end_clock_ms")?,
            accounts: [r.try_get("white_account")?, r.try_get("black_account")?],
            berserk: int(r, "berserk")?,
        },
    })
}

/// The rows that read, each one that does not logged with its error.
pub(super) fn readable<T>(rows: &[AnyRow], read: impl Fn(&AnyRow) -> Result<T, sqlx::Error>) -> Vec<T> {
    rows.iter()
        .filter_map(|r| {
            read(r)
                .map_err(|e| {
                    let id = r.try_get::<String, _>("id").unwrap_or_default();
                    tracing::error!(game = %id, error = %e, "a stored game does not read");
                })
                .ok()
        })
        .collect()
}

impl Store {
    /// Stores a new game.
    pub async fn create(&self, g: &GameRow) -> Result<(), StoreError> {
        let options = serde_json::to_string(&g.options).map_err(|e| StoreError(sqlx::Error::Encode(Box::new(e))))?;
        let s = &g.state;
        let _turn = self.gate.turn().await;
        sqlx::query(
            "INSERT INTO games (id, variant, mode, start_fen, options, white_token, black_token, status, created_ms, \
             result, reason, version, turn_started_ms, invite_hash, white_account, black_account, offers, next_game, \
             end_clock_ms, berserk) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)",
        )
        .bind(&g.id)
        .bind(g.variant.key())
        .bind(g.mode.key())
        .bind(&g.start_fen)
        .bind(options)
        .bind(s.white_token.clone())
        .bind(s.black_token.clone())
        .bind(s.status.key())
        .bind(g.created_ms)
        .bind(s.result.clone())
        .bind(s.reason.clone())
        .bind(s.version)
        .bind(s.turn_started_ms)
        .bind(g.invite_hash.clone())
        .bind(s.accounts[0].clone())
        .bind(s.accounts[1].clone())
        .bind(s.offers.write())
        .bind(s.next_game.clone())
        .bind(s.end_clock_ms)
        .bind(s.berserk)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records a move (the move is acknowledged only after this returns), in a group
    /// with the other games' moves that wait to be stored at the same moment.
    pub async fn add_move(&self, id: &str, m: &MoveRow) -> Result<(), StoreError> {
        // In cluster mode, written only while this node holds the game's lease.
        let fence = self.fence(id)?.map(|(node, token)| (node.to_string(), token));
        self.moves.add(id, m, fence).await
    }

    /// One game.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let r = sqlx::query("SELECT * FROM games WHERE id = $1").bind(id).fetch_optional(&self.pool).await?;
        Ok(r.as_ref().map(game).transpose()?)
    }

    /// The moves of a game in order.
    pub async fn moves(&self, id: &str) -> Result<Vec<MoveRow>, StoreError> {
        let rows = sqlx::query("SELECT ply, notation, clock_ms, at_ms, v FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(MoveRow {
                    ply: int(r, "ply")?,
                    notation: r.try_get("notation")?,
                    clock_ms: r.try_get("clock_ms")?,
                    at_ms: r.try_get("at_ms")?,
                    v: r.try_get("v")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// Games with a status, newest first (a row that does not read is logged and left
    /// out: one bad row does not hide the others or stop a restart).
    pub async fn list(&self, status: Phase, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query("SELECT * FROM games WHERE status = $1 ORDER BY created_ms DESC LIMIT $2")
            .bind(status.key())
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(readable(&rows, game))
    }
}

/// The UPDATE of a game's state.
macro_rules! save_sql {
    ($fence:literal) => {
        concat!(
            "UPDATE games SET status = $1, white_token = $2, black_token = $3, result = $4, reason = $5, version = $6, ",
            "next_game = $7, offers = $8, turn_started_ms = $9, end_clock_ms = $10, white_account = $11, ",
            "black_account = $12, berserk = $13 WHERE id = $14",
            $fence
        )
    };
}
pub(super) const SAVE: &str = save_sql!("");
/// The same, only while this node holds the game's lease ($15 node, $16 token).
pub(super) const SAVE_FENCED: &str = save_sql!(
    " AND EXISTS (SELECT 1 FROM game_leases WHERE game_id = $14 AND node = $15 AND token = $16 AND free = 0 FOR SHARE)"
);

/// The UPDATE of a game's state by `sql` ([`SAVE`] or [`SAVE_FENCED`], whose fence the
/// caller binds).
pub(super) fn save_query<'q>(
    sql: &'static str,
    id: &'q str,
    s: &'q GameState,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    sqlx::query(sql)
        .bind(s.status.key())
        .bind(s.white_token.clone())
        .bind(s.black_token.clone())
        .bind(s.result.clone())
        .bind(s.reason.clone())
        .bind(s.version)
        .bind(s.next_game.clone())
        .bind(s.offers.write())
        .bind(s.turn_started_ms)
        .bind(s.end_clock_ms)
        .bind(s.accounts[0].clone())
        .bind(s.accounts[1].clone())
        .bind(s.berserk)
        .bind(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offers_column_reads_what_it_writes_and_empty_is_null() {
        assert_eq!(OffersColumn::default().write(), None);
        let c =
            OffersColumn { draw: Some(StoredOffer { by: 1, ply: 4 }), draw_at: [None, Some(4)], ..Default::default() };
        assert_eq!(OffersColumn::read(c.write().as_deref()), c);
        // Rows written before this type hold the same layout.
        let old = r#"{"takeback":{"by":0,"ply":7},"draw_at":[null,null],"takeback_at":[7,null]}"#;
        assert_eq!(OffersColumn::read(Some(old)).takeback, Some(StoredOffer { by: 0, ply: 7 }));
        assert_eq!(OffersColumn::read(Some("not json")), OffersColumn::default());
    }
}
