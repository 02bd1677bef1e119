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

impl Store {
    /// Adds counts under `name` (a game id or a collection's name), once: false when
    /// `name` was counted already. One transaction: the mark and the counts go in
    /// together, so two nodes never count one game twice.
    pub async fn explorer_add(
        &self,
        name: &str,
        variant: &str,
        source: &str,
        band: i64,
        counts: &[(i64, MoveCount)],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let claimed = sqlx::query("INSERT INTO explorer_counted (name) VALUES ($1) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if claimed == 0 {
            return Ok(false);
        }
        for (key, c) in counts {
            sqlx::query(
                "INSERT INTO explorer (variant, source, pos_key, band, mv, games, white, draws, black) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
                 ON CONFLICT (variant, source, pos_key, band, mv) DO UPDATE SET games = explorer.games + excluded.games, \
                 white = explorer.white + excluded.white, draws = explorer.draws + excluded.draws, \
                 black = explorer.black + excluded.black",
            )
            .bind(variant)
            .bind(source)
            .bind(*key)
            .bind(band)
            .bind(&c.mv)
            .bind(c.games)
            .bind(c.white)
            .bind(c.draws)
            .bind(c.black)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
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
