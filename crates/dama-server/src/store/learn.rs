//! The Learn section's progress of each account: the lessons and practice positions
//! completed, per rulebook.

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// The (variant, item) pairs an account has completed, in order.
    pub async fn learn_progress(&self, account_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query("SELECT variant, item FROM learn_progress WHERE account_id = $1 ORDER BY variant, item")
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("variant")?, r.try_get("item")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// Marks (variant, item) pairs completed by an account at `at_ms` (those marked
    /// already keep their first time); returns how many were new.
    pub async fn add_learn_progress(
        &self,
        account_id: &str,
        done: &[(String, String)],
        at_ms: i64,
    ) -> Result<u64, StoreError> {
        let mut tx = self.pool.begin().await?;
        let mut added = 0;
        for (variant, item) in done {
            added += sqlx::query(
                "INSERT INTO learn_progress (account_id, variant, item, done_ms) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (account_id, variant, item) DO NOTHING",
            )
            .bind(account_id)
            .bind(variant)
            .bind(item)
            .bind(at_ms)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        }
        tx.commit().await?;
        Ok(added)
    }
}
