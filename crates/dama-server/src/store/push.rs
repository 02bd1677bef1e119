//! The server's own keys, and the accounts' Web Push subscriptions.

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// The server key `name`'s private part: the one stored, or this one (stored now)
    /// when there is none yet.
    pub async fn server_key(&self, name: &str, private: &str, public: &str, now_ms: i64) -> Result<String, StoreError> {
        sqlx::query(
            "INSERT INTO server_keys (name, private_key, public_key, created_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(private)
        .bind(public)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        let r =
            sqlx::query("SELECT private_key FROM server_keys WHERE name = $1").bind(name).fetch_one(&self.pool).await?;
        Ok(r.try_get("private_key")?)
    }

    /// Keeps a browser's subscription for `account` (again: its keys are updated), and
    /// drops the account's oldest past `most`.
    #[allow(clippy::too_many_arguments)]
    pub async fn add_push(
        &self,
        account: &str,
        endpoint: &str,
        p256dh: &str,
        auth: &str,
        lang: &str,
        now_ms: i64,
        most: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO push_subscriptions (endpoint, account, p256dh, auth, lang, created_ms) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (endpoint) DO UPDATE SET account = $2, p256dh = $3, auth = $4, lang = $5, created_ms = $6",
        )
        .bind(endpoint)
        .bind(account)
        .bind(p256dh)
        .bind(auth)
        .bind(lang)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        sqlx::query(
            "DELETE FROM push_subscriptions WHERE account = $1 AND endpoint NOT IN \
             (SELECT endpoint FROM push_subscriptions WHERE account = $1 ORDER BY created_ms DESC LIMIT $2)",
        )
        .bind(account)
        .bind(most)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Forgets a subscription (of `account` only, when given).
    pub async fn remove_push(&self, account: Option<&str>, endpoint: &str) -> Result<(), StoreError> {
        match account {
            Some(a) => sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1 AND account = $2")
                .bind(endpoint)
                .bind(a),
            None => sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1").bind(endpoint),
        }
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The account's subscriptions: (endpoint, p256dh, auth, language).
    pub async fn pushes(&self, account: &str) -> Result<Vec<(String, String, String, String)>, StoreError> {
        let rows = sqlx::query("SELECT endpoint, p256dh, auth, lang FROM push_subscriptions WHERE account = $1")
            .bind(account)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("endpoint")?, r.try_get("p256dh")?, r.try_get("auth")?, r.try_get("lang")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }
}
