//! The leaderboards: the best established, active ratings of a pool and speed class,
//! and a player's rank among them.

use sqlx::Row;

use super::{int, Store, StoreError};
use crate::rating::PROVISIONAL_RD;

/// A player on a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Leader {
    /// The account's name.
    pub name: String,
    /// Its rating.
    pub rating: f64,
    /// Its rating deviation.
    pub rd: f64,
    /// Its rated games in this pool and class.
    pub games: i64,
}

impl Store {
    /// The best `limit` ratings of `pool` (a variant's key, or a variant and a seed
    /// rulebook) in `speed`: established ones (not provisional) of players who played a
    /// rated game there since `active_since_ms`, best first (ties by name).
    pub async fn leaderboard(
        &self,
        pool: &str,
        speed: &str,
        active_since_ms: i64,
        limit: i64,
    ) -> Result<Vec<Leader>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name AS name, r.rating AS rating, r.rd AS rd, r.games AS games \
             FROM ratings r JOIN accounts a ON a.id = r.account_id \
             WHERE r.variant = $1 AND r.speed = $2 AND r.rd <= $3 AND r.updated_ms >= $4 \
             ORDER BY r.rating DESC, a.name_key LIMIT $5",
        )
        .bind(pool)
        .bind(speed)
        .bind(PROVISIONAL_RD)
        .bind(active_since_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Leader {
                    name: r.try_get("name")?,
                    rating: r.try_get("rating")?,
                    rd: r.try_get("rd")?,
                    games: int(r, "games")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// The rank (from 1) of an account on the leaderboard of `pool` and `speed`, as
    /// [`Store::leaderboard`] ranks it (ties by name); `None` when it is not on it
    /// (provisional, or no rated game there since `active_since_ms`).
    pub async fn rank(
        &self,
        account_id: &str,
        pool: &str,
        speed: &str,
        active_since_ms: i64,
    ) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS above FROM ratings r JOIN accounts a ON a.id = r.account_id, \
               ratings me JOIN accounts mine ON mine.id = me.account_id \
             WHERE me.account_id = $1 AND me.variant = $2 AND me.speed = $3 \
               AND me.rd <= $4 AND me.updated_ms >= $5 \
               AND r.variant = $2 AND r.speed = $3 AND r.rd <= $4 AND r.updated_ms >= $5 \
               AND (r.rating > me.rating OR (r.rating = me.rating AND a.name_key < mine.name_key))",
        )
        .bind(account_id)
        .bind(pool)
        .bind(speed)
        .bind(PROVISIONAL_RD)
        .bind(active_since_ms)
        .fetch_one(&self.pool)
        .await?;
        let above = int(&row, "above")?;
        // The count is 0 both for the first and for one not on the board: ask which.
        let on = sqlx::query(
            "SELECT 1 AS one FROM ratings WHERE account_id = $1 AND variant = $2 AND speed = $3 \
             AND rd <= $4 AND updated_ms >= $5",
        )
        .bind(account_id)
        .bind(pool)
        .bind(speed)
        .bind(PROVISIONAL_RD)
        .bind(active_since_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(on.map(|_| above + 1))
    }
}
