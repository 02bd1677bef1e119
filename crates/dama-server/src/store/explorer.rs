//! The opening explorer's counts.

use sqlx::Row;

use super::{int, Store, StoreError};

/// One move's count from a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveCount {
    /// The move, long notation.
    pub mv: String,
    /// Games.
    pub games: i64,
    /// Won by White.
    pub white: i64,
    /// Drawn.
    pub draws: i64,
    /// Won by Black.
    pub black: i64,
}

/// Counts to add under one name (a game id or a collection's name), once.
#[derive(Clone, Debug, Default)]
pub struct CountBatch {
    /// What is counted: `game:ID` or `collection:NAME`.
    pub name: String,
    /// Variant key.
    pub variant: String,
    /// `masters` or `players`.
    pub source: String,
    /// Rating band.
    pub band: i64,
    /// (position key, move count).
    pub rows: Vec<(i64, MoveCount)>,
}

/// The most rows one transaction of [`Store::explorer_add`] writes before the next
/// game's counts go into a transaction of their own: a burst of finished games never
/// holds SQLite's one writer for long, so the moves stored meanwhile do not wait. About
/// two games of 30 plies: with 256, moves at 4,700 live games had a p99 of 26-32 ms; with
/// 64, 13-15 ms (docs/throughput.md).
const ROWS_PER_TRANSACTION: usize = 64;

/// Rows per INSERT statement (9 parameters each: 576, below SQLite's oldest limit of 999).
const ROWS_PER_STATEMENT: usize = 64;

impl Store {
    /// Adds batches of counts, each once: a batch whose name was counted already is
    /// left out (the mark and the counts go in together, in one transaction, so two
    /// nodes never count one game twice). Consecutive batches share a transaction until
    /// it holds [`ROWS_PER_TRANSACTION`] rows; in each, the rows are merged and written
    /// in one order (so concurrent writers wait for each other instead of deadlocking).
    /// Returns how many batches were new.
    pub async fn explorer_add(&self, batches: &[CountBatch]) -> Result<usize, StoreError> {
        let mut new = 0;
        let mut rest = batches;
        while !rest.is_empty() {
            let mut take = 0;
            let mut rows = 0;
            while take < rest.len() && (take == 0 || rows + rest[take].rows.len() <= ROWS_PER_TRANSACTION) {
                rows += rest[take].rows.len();
                take += 1;
            }
            new += self.explorer_add_once(&rest[..take]).await?;
            rest = &rest[take..];
        }
        Ok(new)
    }

    /// [`Store::explorer_add`] for batches written in one transaction.
    async fn explorer_add_once(&self, batches: &[CountBatch]) -> Result<usize, StoreError> {
        use std::collections::BTreeMap;
        let _turn = self.gate.turn().await;
        let mut tx = self.pool.begin().await?;
        let mut merged: BTreeMap<(&str, &str, i64, i64, &str), [i64; 4]> = BTreeMap::new();
        let mut new = 0;
        for b in batches {
            let claimed = sqlx::query("INSERT INTO explorer_counted (name) VALUES ($1) ON CONFLICT (name) DO NOTHING")
                .bind(&b.name)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if claimed == 0 {
                continue;
            }
            new += 1;
            for (key, c) in &b.rows {
                let e = merged.entry((&b.variant, &b.source, *key, b.band, &c.mv)).or_default();
                e[0] += c.games;
                e[1] += c.white;
                e[2] += c.draws;
                e[3] += c.black;
            }
        }
        let merged: Vec<_> = merged.into_iter().collect();
        for chunk in merged.chunks(ROWS_PER_STATEMENT) {
            let mut sql = String::from(
                "INSERT INTO explorer (variant, source, pos_key, band, mv, games, white, draws, black) VALUES ",
            );
            super::push_tuples(&mut sql, chunk.len(), 9, 1);
            sql.push_str(
                " ON CONFLICT (variant, source, pos_key, band, mv) DO UPDATE SET games = explorer.games + excluded.games, \
                 white = explorer.white + excluded.white, draws = explorer.draws + excluded.draws, \
                 black = explorer.black + excluded.black",
            );
            let mut q = sqlx::query(&sql);
            for ((variant, source, key, band, mv), [games, white, draws, black]) in chunk {
                q = q.bind(*variant).bind(*source).bind(*key).bind(*band).bind(*mv);
                q = q.bind(*games).bind(*white).bind(*draws).bind(*black);
            }
            q.execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(new)
    }

    /// The moves played from the position `key`, most played first (at most `limit`),
    /// from games of rating bands `bands` (inclusive).
    pub async fn explorer_moves(
        &self,
        variant: &str,
        source: &str,
        key: i64,
        bands: (i64, i64),
        limit: i64,
    ) -> Result<Vec<MoveCount>, StoreError> {
        let rows = sqlx::query(
            "SELECT mv, CAST(SUM(games) AS BIGINT) AS games, CAST(SUM(white) AS BIGINT) AS white, \
             CAST(SUM(draws) AS BIGINT) AS draws, CAST(SUM(black) AS BIGINT) AS black FROM explorer \
             WHERE variant = $1 AND source = $2 AND pos_key = $3 AND band BETWEEN $4 AND $5 \
             GROUP BY mv ORDER BY games DESC, mv LIMIT $6",
        )
        .bind(variant)
        .bind(source)
        .bind(key)
        .bind(bands.0)
        .bind(bands.1)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(MoveCount {
                    mv: r.try_get("mv")?,
                    games: int(r, "games")?,
                    white: int(r, "white")?,
                    draws: int(r, "draws")?,
                    black: int(r, "black")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }
}
