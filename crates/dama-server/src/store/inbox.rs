//! Each account's inbox of notifications, who may challenge it, and when it was last
//! seen online.

use sqlx::Row;

use super::{Store, StoreError};

/// A stored notification.
#[derive(Clone, Debug, PartialEq)]
pub struct NotificationRow {
    /// Its id.
    pub id: String,
    /// Its kind's key.
    pub kind: String,
    /// Its details, JSON.
    pub data: String,
    /// When, ms since the epoch.
    pub created_ms: i64,
    /// Read yet.
    pub read: bool,
}

/// The most notifications an account keeps (the oldest go first).
pub const INBOX_SIZE: i64 = 200;

impl Store {
    /// Adds a notification to an account's inbox (dropping the oldest past
    /// [`INBOX_SIZE`]).
    pub async fn add_notification(&self, account: &str, n: &NotificationRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO notifications (id, account, kind, data, created_ms, read_ms) VALUES ($1, $2, $3, $4, $5, NULL)",
        )
        .bind(&n.id)
        .bind(account)
        .bind(&n.kind)
        .bind(&n.data)
        .bind(n.created_ms)
        .execute(&self.pool)
        .await?;
        sqlx::query(
            "DELETE FROM notifications WHERE account = $1 AND id NOT IN \
             (SELECT id FROM notifications WHERE account = $1 ORDER BY created_ms DESC, id DESC LIMIT $2)",
        )
        .bind(account)
        .bind(INBOX_SIZE)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The account's notifications, newest first, and how many are unread.
    pub async fn notifications(&self, account: &str, limit: i64) -> Result<(Vec<NotificationRow>, i64), StoreError> {
        let rows = sqlx::query(
            "SELECT id, kind, data, created_ms, read_ms FROM notifications WHERE account = $1 \
             ORDER BY created_ms DESC, id DESC LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let list = rows
            .iter()
            .map(|r| {
                Ok(NotificationRow {
                    id: r.try_get("id")?,
                    kind: r.try_get("kind")?,
                    data: r.try_get("data")?,
                    created_ms: r.try_get("created_ms")?,
                    read: r.try_get::<Option<i64>, _>("read_ms")?.is_some(),
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok((list, self.unread(account).await?))
    }

    /// How many of the account's notifications are unread.
    pub async fn unread(&self, account: &str) -> Result<i64, StoreError> {
        let r = sqlx::query("SELECT COUNT(*) AS n FROM notifications WHERE account = $1 AND read_ms IS NULL")
            .bind(account)
            .fetch_one(&self.pool)
            .await?;
        Ok(r.try_get("n")?)
    }

    /// Marks the account's notifications read: those listed, or every one.
    pub async fn read_notifications(
        &self,
        account: &str,
        ids: Option<&[String]>,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        match ids {
            None => {
                sqlx::query("UPDATE notifications SET read_ms = $1 WHERE account = $2 AND read_ms IS NULL")
                    .bind(now_ms)
                    .bind(account)
                    .execute(&self.pool)
                    .await?;
            }
            Some(ids) => {
                for id in ids {
                    sqlx::query(
                        "UPDATE notifications SET read_ms = $1 WHERE account = $2 AND id = $3 AND read_ms IS NULL",
                    )
                    .bind(now_ms)
                    .bind(account)
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
                }
            }
        }
        Ok(())
    }

    /// Who may challenge the account: `all`, `friends` or `none`.
    pub async fn challenge_setting(&self, account: &str) -> Result<String, StoreError> {
        let r = sqlx::query("SELECT challenges FROM accounts WHERE id = $1")
            .bind(account)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.map(|r| r.try_get("challenges")).transpose()?.unwrap_or_else(|| "all".into()))
    }

    /// Sets who may challenge the account.
    pub async fn set_challenge_setting(&self, account: &str, who: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE accounts SET challenges = $1 WHERE id = $2")
            .bind(who)
            .bind(account)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The account was seen online at `now_ms` (0: it left).
    pub async fn seen(&self, account: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE accounts SET seen_ms = $1 WHERE id = $2")
            .bind(now_ms)
            .bind(account)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// When the account was last seen online (0: not online since it left).
    pub async fn seen_ms(&self, account: &str) -> Result<i64, StoreError> {
        let r =
            sqlx::query("SELECT seen_ms FROM accounts WHERE id = $1").bind(account).fetch_optional(&self.pool).await?;
        Ok(r.map(|r| r.try_get("seen_ms")).transpose()?.unwrap_or(0))
    }

    /// The followers of `account` seen online since `since_ms`.
    pub async fn online_followers(&self, account: &str, since_ms: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT f.follower AS id FROM follows f JOIN accounts a ON a.id = f.follower \
             WHERE f.followed = $1 AND a.seen_ms > $2",
        )
        .bind(account)
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.try_get("id")).collect::<Result<_, _>>()?)
    }

    /// Records a reminder for the move at `ply` of a game: `Ok(false)` when it was
    /// sent already.
    pub async fn remind_once(&self, game: &str, ply: i64, now_ms: i64) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "INSERT INTO reminders (game_id, ply, sent_ms) VALUES ($1, $2, $3) ON CONFLICT (game_id, ply) DO NOTHING",
        )
        .bind(game)
        .bind(ply)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// The live correspondence games whose side to move has `within_ms` or less left at
    /// `now_ms` (but some time), with the account to move; read from the stored game
    /// (the side to move is the start's, or the other after an odd number of plies), so
    /// no game is brought into memory for it.
    pub async fn correspondence_turns(
        &self,
        now_ms: i64,
        within_ms: i64,
    ) -> Result<Vec<CorrespondenceTurn>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id AS id, g.options AS options, g.turn_started_ms AS started, g.start_fen AS start_fen, \
             g.white_account AS white, g.black_account AS black, w.name AS white_name, b.name AS black_name, \
             (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies \
             FROM games g LEFT JOIN accounts w ON w.id = g.white_account LEFT JOIN accounts b ON b.id = g.black_account \
             WHERE g.status = 'live' AND g.turn_started_ms IS NOT NULL AND g.options LIKE '%correspondence%' LIMIT 5000",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut due = Vec::new();
        for r in rows {
            let options: String = r.try_get("options")?;
            let Ok(o) = serde_json::from_str::<crate::protocol::Options>(&options) else { continue };
            let crate::clock::TimeControl::Correspondence { days } = o.time else { continue };
            let started: i64 = r.try_get("started")?;
            let left_ms = started + days as i64 * 86_400_000 - now_ms;
            if left_ms <= 0 || left_ms > within_ms {
                continue;
            }
            let (start_fen, ply): (String, i64) = (r.try_get("start_fen")?, r.try_get("plies")?);
            let white_first = start_fen.trim_start().starts_with(['W', 'w']);
            let white_to_move = white_first == (ply % 2 == 0);
            let seats: [(Option<String>, Option<String>); 2] =
                [(r.try_get("white")?, r.try_get("white_name")?), (r.try_get("black")?, r.try_get("black_name")?)];
            let [mover, other] = if white_to_move { [0, 1] } else { [1, 0] };
            let Some(player) = seats[mover].0.clone() else { continue };
            due.push(CorrespondenceTurn {
                game: r.try_get("id")?,
                left_ms,
                ply,
                player,
                opponent: seats[other].1.clone(),
            });
        }
        Ok(due)
    }
}

/// A correspondence player's turn running short ([`Store::correspondence_turns`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorrespondenceTurn {
    /// The game.
    pub game: String,
    /// Time left for the move, ms.
    pub left_ms: i64,
    /// Plies played.
    pub ply: i64,
    /// The account to move.
    pub player: String,
    /// The opponent's name, if an account.
    pub opponent: Option<String>,
}
