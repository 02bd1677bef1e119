//! Who follows whom.

use sqlx::Row;

use super::{Store, StoreError};

/// The most players one account follows.
pub const MOST_FOLLOWED: i64 = 500;

impl Store {
    /// `follower` follows `followed` (again: nothing changes). `Ok(false)` when the
    /// follower already follows [`MOST_FOLLOWED`] players.
    pub async fn follow(&self, follower: &str, followed: &str, now_ms: i64) -> Result<bool, StoreError> {
        let n: i64 = sqlx::query("SELECT COUNT(*) AS n FROM follows WHERE follower = $1")
            .bind(follower)
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?;
        if n >= MOST_FOLLOWED {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO follows (follower, followed, created_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (follower, followed) DO NOTHING",
        )
        .bind(follower)
        .bind(followed)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(true)
    }

    /// `follower` no longer follows `followed`.
    pub async fn unfollow(&self, follower: &str, followed: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM follows WHERE follower = $1 AND followed = $2")
            .bind(follower)
            .bind(followed)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Whether `follower` follows `followed`.
    pub async fn follows(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        let r = sqlx::query("SELECT 1 AS one FROM follows WHERE follower = $1 AND followed = $2")
            .bind(follower)
            .bind(followed)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.is_some())
    }

    /// The players `follower` follows: (account id, name), by name.
    pub async fn followed(&self, follower: &str) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.id AS id, a.name AS name FROM follows f JOIN accounts a ON a.id = f.followed \
             WHERE f.follower = $1 ORDER BY a.name_key",
        )
        .bind(follower)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("name")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// The games `account` is playing now (not waiting, not over), oldest first, at
    /// most `limit`.
    pub async fn live_games_of(&self, account: &str, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE (white_account = $1 OR black_account = $1) AND status = 'live' \
             ORDER BY created_ms LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| r.try_get("id")).collect::<Result<_, sqlx::Error>>().map_err(StoreError)
    }
}
