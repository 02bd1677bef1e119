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

impl Store {
    /// Adds batches of counts in one transaction, each once: a batch whose name was
    /// counted already is left out (the mark and the counts go in together, so two
    /// nodes never count one game twice). The rows are merged and written in one
    /// order (so concurrent writers wait for each other instead of deadlocking).
    /// Returns how many batches were new.
    pub async fn explorer_add(&self, batches: &[CountBatch]) -> Result<usize, StoreError> {
        use std::collections::BTreeMap;
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
        for ((variant, source, key, band, mv), [games, white, draws, black]) in merged {
            sqlx::query(
                "INSERT INTO explorer (variant, source, pos_key, band, mv, games, white, draws, black) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
                 ON CONFLICT (variant, source, pos_key, band, mv) DO UPDATE SET games = explorer.games + excluded.games, \
                 white = explorer.white + excluded.white, draws = explorer.draws + excluded.draws, \
                 black = explorer.black + excluded.black",
            )
            .bind(variant)
            .bind(source)
            .bind(key)
            .bind(band)
            .bind(mv)
            .bind(games)
            .bind(white)
            .bind(draws)
            .bind(black)
            .execute(&mut *tx)
            .await?;
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
