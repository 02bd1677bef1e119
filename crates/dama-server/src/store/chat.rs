//! Games' chat lines and reports.

use sqlx::Row;

use super::{int, Store, StoreError};

/// A stored chat line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChatRow {
    /// Its number in the game, from 1.
    pub n: i64,
    /// "players" or "spectators".
    pub room: String,
    /// Who wrote it, as shown.
    pub author: String,
    /// What they wrote.
    pub text: String,
    /// When, ms since the epoch.
    pub at_ms: i64,
    /// The account of a logged-in player who wrote it (kept for moderators; never
    /// sent to clients).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// A moderator hid it: kept (its number is taken), shown to nobody.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
}

impl Store {
    /// Keeps a chat line.
    pub async fn add_chat(&self, game_id: &str, line: &ChatRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO chat_lines (game_id, n, room, author, text, at_ms, account_id) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(game_id)
        .bind(line.n)
        .bind(&line.room)
        .bind(&line.author)
        .bind(&line.text)
        .bind(line.at_ms)
        .bind(&line.account)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A game's chat, in order (the lines a moderator hid marked so).
    pub async fn chat(&self, game_id: &str) -> Result<Vec<ChatRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT n, room, author, text, at_ms, account_id, hidden_ms FROM chat_lines WHERE game_id = $1 ORDER BY n",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ChatRow {
                    n: int(r, "n")?,
                    room: r.try_get("room")?,
                    author: r.try_get("author")?,
                    text: r.try_get("text")?,
                    at_ms: r.try_get("at_ms")?,
                    account: r.try_get("account_id")?,
                    hidden: r.try_get::<Option<i64>, _>("hidden_ms")?.is_some(),
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// Records a report of chat line `n` (once per line), by `reporter`'s account if
    /// logged in.
    pub async fn report_chat(
        &self,
        game_id: &str,
        n: i64,
        reason: &str,
        at_ms: i64,
        reporter: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO chat_reports (game_id, n, reason, at_ms, reporter) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (game_id, n) DO NOTHING",
        )
        .bind(game_id)
        .bind(n)
        .bind(reason)
        .bind(at_ms)
        .bind(reporter)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Who reported chat line `n` of a game (an account), if anyone logged in did.
    pub async fn chat_reporter(&self, game_id: &str, n: i64) -> Result<Option<String>, StoreError> {
        let r = sqlx::query("SELECT reporter FROM chat_reports WHERE game_id = $1 AND n = $2")
            .bind(game_id)
            .bind(n)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.map(|r| r.try_get::<Option<String>, _>("reporter")).transpose()?.flatten())
    }
}
