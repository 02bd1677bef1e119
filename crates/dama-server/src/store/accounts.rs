//! Accounts, their log-in sessions and their ratings.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{int, Store, StoreError};
use crate::rating::Rating;

/// A stored account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    /// Random id.
    pub id: String,
    /// The name as its owner wrote it.
    pub name: String,
    /// The Argon2id hash of the password (PHC string).
    pub password_hash: String,
    /// Creation time, ms since the epoch.
    pub created_ms: i64,
}

/// A stored rating in one variant and speed class.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// Variant key.
    pub variant: String,
    /// Speed class key.
    pub speed: String,
    /// The rating.
    pub rating: Rating,
    /// Rated games played in this variant and class.
    pub games: i64,
    /// When it last changed, ms since the epoch.
    pub updated_ms: i64,
}

fn account(r: &AnyRow) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        password_hash: r.try_get("password_hash")?,
        created_ms: r.try_get("created_ms")?,
    })
}

/// The key two names clash on: names are unique whatever their case.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

impl Store {
    /// Stores a new account; `Ok(false)` when the name is taken.
    pub async fn create_account(&self, a: &AccountRow) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "INSERT INTO accounts (id, name, name_key, password_hash, created_ms) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (name_key) DO NOTHING",
        )
        .bind(&a.id)
        .bind(&a.name)
        .bind(name_key(&a.name))
        .bind(&a.password_hash)
        .bind(a.created_ms)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// The account with this name (in any case).
    pub async fn account_named(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
        let r = sqlx::query("SELECT * FROM accounts WHERE name_key = $1")
            .bind(name_key(name))
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.as_ref().map(account).transpose()?)
    }

    /// Stores a log-in session (its token's hash) until `expires_ms`.
    pub async fn add_session(
        &self,
        token_hash: &str,
        account_id: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO account_sessions (token_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash)
        .bind(account_id)
        .bind(now_ms)
        .bind(expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The account a session token's hash logs in, if the session has not expired.
    pub async fn session_account(&self, token_hash: &str, now_ms: i64) -> Result<Option<AccountRow>, StoreError> {
        let r = sqlx::query(
            "SELECT a.* FROM account_sessions s JOIN accounts a ON a.id = s.account_id \
             WHERE s.token_hash = $1 AND s.expires_ms > $2",
        )
        .bind(token_hash)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(r.as_ref().map(account).transpose()?)
    }

    /// Ends a log-in session (and drops the expired ones).
    pub async fn drop_session(&self, token_hash: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM account_sessions WHERE token_hash = $1 OR expires_ms <= $2")
            .bind(token_hash)
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// An account's ratings, by variant and class.
    pub async fn ratings(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query("SELECT * FROM ratings WHERE account_id = $1 ORDER BY variant, speed")
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingRow {
                    variant: r.try_get("variant")?,
                    speed: r.try_get("speed")?,
                    rating: Rating {
                        rating: r.try_get("rating")?,
                        rd: r.try_get("rd")?,
                        volatility: r.try_get("volatility")?,
                    },
                    games: int(r, "games")?,
                    updated_ms: r.try_get("updated_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }
}
