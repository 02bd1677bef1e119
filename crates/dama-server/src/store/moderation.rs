//! Moderation: accounts' roles, reported chat lines and what moderators did with them,
//! hidden lines and muted accounts.

use sqlx::Row;

use super::{int, Store, StoreError};

/// A reported chat line with its report.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReportedLine {
    /// The game.
    pub game_id: String,
    /// The line's number in the game.
    pub n: i64,
    /// "players" or "spectators".
    pub room: String,
    /// Its author as shown.
    pub author: String,
    /// The author's account name, when a logged-in player wrote it.
    pub account: Option<String>,
    /// What it says.
    pub text: String,
    /// When it was written, ms since the epoch.
    pub at_ms: i64,
    /// Why it was reported.
    pub reason: String,
    /// When it was reported.
    pub reported_ms: i64,
    /// Whether a moderator hid it.
    pub hidden: bool,
    /// What a moderator did ("hide", "mute", "dismiss"), if anything yet.
    pub action: Option<String>,
    /// Who did it (the moderator's name).
    pub handled_by: Option<String>,
}

impl Store {
    /// Gives `account_id` the role `role`; false when it had it.
    pub async fn grant_role(&self, account_id: &str, role: &str) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "INSERT INTO account_roles (account_id, role) VALUES ($1, $2) ON CONFLICT (account_id, role) DO NOTHING",
        )
        .bind(account_id)
        .bind(role)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Takes the role `role` from `account_id`; false when it did not have it.
    pub async fn revoke_role(&self, account_id: &str, role: &str) -> Result<bool, StoreError> {
        let r = sqlx::query("DELETE FROM account_roles WHERE account_id = $1 AND role = $2")
            .bind(account_id)
            .bind(role)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() == 1)
    }

    /// The roles of an account.
    pub async fn roles(&self, account_id: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT role FROM account_roles WHERE account_id = $1 ORDER BY role")
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| r.try_get("role")).collect::<Result<_, _>>()?)
    }

    /// The reported lines, those nobody handled first, then the newest; at most `limit`.
    pub async fn reported_lines(&self, limit: i64) -> Result<Vec<ReportedLine>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.game_id, r.n, r.reason, r.at_ms AS reported_ms, r.action, r.handled_ms, \
                    l.room, l.author, l.text, l.at_ms, l.hidden_ms, a.name AS account, m.name AS moderator \
             FROM chat_reports r JOIN chat_lines l ON l.game_id = r.game_id AND l.n = r.n \
             LEFT JOIN accounts a ON a.id = l.account_id LEFT JOIN accounts m ON m.id = r.handled_by \
             ORDER BY CASE WHEN r.handled_ms IS NULL THEN 0 ELSE 1 END, r.at_ms DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ReportedLine {
                    game_id: r.try_get("game_id")?,
                    n: int(r, "n")?,
                    room: r.try_get("room")?,
                    author: r.try_get("author")?,
                    account: r.try_get("account")?,
                    text: r.try_get("text")?,
                    at_ms: r.try_get("at_ms")?,
                    reason: r.try_get("reason")?,
                    reported_ms: r.try_get("reported_ms")?,
                    hidden: r.try_get::<Option<i64>, _>("hidden_ms")?.is_some(),
                    action: r.try_get("action")?,
                    handled_by: r.try_get("moderator")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// The account that wrote line `n` of a game, if a logged-in player did.
    pub async fn chat_line_account(&self, game_id: &str, n: i64) -> Result<Option<String>, StoreError> {
        let r = sqlx::query("SELECT account_id FROM chat_lines WHERE game_id = $1 AND n = $2")
            .bind(game_id)
            .bind(n)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.map(|r| r.try_get::<Option<String>, _>("account_id")).transpose()?.flatten())
    }

    /// Hides line `n` of a game (kept for the record, shown to nobody).
    pub async fn hide_chat_line(&self, game_id: &str, n: i64, at_ms: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE chat_lines SET hidden_ms = $3 WHERE game_id = $1 AND n = $2 AND hidden_ms IS NULL")
            .bind(game_id)
            .bind(n)
            .bind(at_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Marks the report of line `n` handled by the moderator `by` with `action`.
    pub async fn handle_report(
        &self,
        game_id: &str,
        n: i64,
        by: &str,
        action: &str,
        at_ms: i64,
    ) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "UPDATE chat_reports SET handled_ms = $3, handled_by = $4, action = $5 WHERE game_id = $1 AND n = $2",
        )
        .bind(game_id)
        .bind(n)
        .bind(at_ms)
        .bind(by)
        .bind(action)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Mutes an account's chat (from `at_ms`), or lets it speak again (`None`).
    pub async fn set_chat_muted(&self, account_id: &str, at_ms: Option<i64>) -> Result<(), StoreError> {
        sqlx::query("UPDATE accounts SET chat_muted_ms = $2 WHERE id = $1")
            .bind(account_id)
            .bind(at_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Whether an account's chat is muted.
    pub async fn chat_muted(&self, account_id: &str) -> Result<bool, StoreError> {
        let r = sqlx::query("SELECT chat_muted_ms FROM accounts WHERE id = $1")
            .bind(account_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.map(|r| r.try_get::<Option<i64>, _>("chat_muted_ms")).transpose()?.flatten().is_some())
    }
}
