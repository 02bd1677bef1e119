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
        // The account's own place first: none when it is not on the board.
        let Some(me) = sqlx::query(
            "SELECT r.rating AS rating, a.name_key AS name_key FROM ratings r JOIN accounts a ON a.id = r.account_id \
             WHERE r.account_id = $1 AND r.variant = $2 AND r.speed = $3 AND r.rd <= $4 AND r.updated_ms >= $5",
        )
        .bind(account_id)
        .bind(pool)
        .bind(speed)
        .bind(PROVISIONAL_RD)
        .bind(active_since_ms)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let (rating, name_key): (f64, String) = (me.try_get("rating")?, me.try_get("name_key")?);
        // Then the players on the board before it.
        let row = sqlx::query(
            "SELECT COUNT(*) AS above FROM ratings r JOIN accounts a ON a.id = r.account_id \
             WHERE r.variant = $1 AND r.speed = $2 AND r.rd <= $3 AND r.updated_ms >= $4 \
               AND (r.rating > $5 OR (r.rating = $5 AND a.name_key < $6))",
        )
        .bind(pool)
        .bind(speed)
        .bind(PROVISIONAL_RD)
        .bind(active_since_ms)
        .bind(rating)
        .bind(name_key)
        .fetch_one(&self.pool)
        .await?;
        Ok(Some(int(&row, "above")? + 1))
    }
}
