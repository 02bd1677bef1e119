//! Challenges to a named player, and blocks between players.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Store, StoreError};

/// A stored challenge.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    /// Its id.
    pub id: String,
    /// The account that challenges.
    pub challenger: String,
    /// The account challenged.
    pub challenged: String,
    /// The game's settings as JSON (variant, rulebook, clock, colour, rated).
    pub options: String,
    /// `pending`, `accepted`, `declined`, `cancelled` or `expired`.
    pub status: String,
    /// Why it was declined (a reason's key).
    pub reason: Option<String>,
    /// The game, once accepted.
    pub game_id: Option<String>,
    /// When it was made, ms since the epoch.
    pub created_ms: i64,
    /// When it expires unanswered.
    pub expires_ms: i64,
    /// The challenger's name and the challenged player's (read with the row; not
    /// stored with it).
    pub names: [String; 2],
}

/// The challenges with their players' names (`FROM` and the joins of every read).
const WITH_NAMES: &str = "SELECT c.*, a.name AS from_name, b.name AS to_name FROM challenges c \
     JOIN accounts a ON a.id = c.challenger JOIN accounts b ON b.id = c.challenged";

fn challenge(r: &AnyRow) -> Result<ChallengeRow, sqlx::Error> {
    Ok(ChallengeRow {
        id: r.try_get("id")?,
        challenger: r.try_get("challenger")?,
        challenged: r.try_get("challenged")?,
        options: r.try_get("options")?,
        status: r.try_get("status")?,
        reason: r.try_get("reason")?,
        game_id: r.try_get("game_id")?,
        created_ms: r.try_get("created_ms")?,
        expires_ms: r.try_get("expires_ms")?,
        names: [r.try_get("from_name")?, r.try_get("to_name")?],
    })
}

impl Store {
    /// Stores a new pending challenge.
    pub async fn add_challenge(&self, c: &ChallengeRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO challenges (id, challenger, challenged, options, status, reason, game_id, created_ms, expires_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&c.id)
        .bind(&c.challenger)
        .bind(&c.challenged)
        .bind(&c.options)
        .bind(&c.status)
        .bind(&c.reason)
        .bind(&c.game_id)
        .bind(c.created_ms)
        .bind(c.expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// One challenge.
    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        let r = sqlx::query(&format!("{WITH_NAMES} WHERE c.id = $1")).bind(id).fetch_optional(&self.pool).await?;
        Ok(r.as_ref().map(challenge).transpose()?)
    }

    /// Moves a pending, unexpired challenge to `status` (with a reason): `Ok(false)` when
    /// it was no longer pending, or expired at `now_ms` — of two answers at once, one
    /// wins.
    pub async fn close_challenge(
        &self,
        id: &str,
        status: &str,
        reason: Option<&str>,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "UPDATE challenges SET status = $1, reason = $2 WHERE id = $3 AND status = 'pending' AND expires_ms > $4",
        )
        .bind(status)
        .bind(reason)
        .bind(id)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// An accepted challenge whose game could not be made waits again.
    pub async fn reopen_challenge(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE challenges SET status = 'pending' WHERE id = $1 AND status = 'accepted' AND game_id IS NULL",
        )
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records the game an accepted challenge became.
    pub async fn challenge_game(&self, id: &str, game: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE challenges SET game_id = $1 WHERE id = $2").bind(game).bind(id).execute(&self.pool).await?;
        Ok(())
    }

    /// The pending, unexpired challenges to or from `account`, newest first.
    pub async fn open_challenges(&self, account: &str, now_ms: i64) -> Result<Vec<ChallengeRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "{WITH_NAMES} WHERE (c.challenged = $1 OR c.challenger = $1) AND c.status = 'pending' \
                 AND c.expires_ms > $2 ORDER BY c.created_ms DESC LIMIT 100"
        ))
        .bind(account)
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(challenge).collect::<Result<_, _>>()?)
    }

    /// How many challenges `account` made since `since_ms`, and how many of those are
    /// still pending at `now_ms`.
    pub async fn challenges_made(&self, account: &str, since_ms: i64, now_ms: i64) -> Result<(i64, i64), StoreError> {
        let r = sqlx::query(
            "SELECT COUNT(*) AS n, COALESCE(SUM(CASE WHEN status = 'pending' AND expires_ms > $3 THEN 1 ELSE 0 END), 0) AS open \
             FROM challenges WHERE challenger = $1 AND created_ms > $2",
        )
        .bind(account)
        .bind(since_ms)
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok((r.try_get("n")?, r.try_get("open")?))
    }

    /// Marks expired the pending challenges whose time is up at `now_ms`, and returns
    /// them.
    pub async fn expire_challenges(&self, now_ms: i64) -> Result<Vec<ChallengeRow>, StoreError> {
        let rows = sqlx::query(&format!("{WITH_NAMES} WHERE c.status = 'pending' AND c.expires_ms <= $1 LIMIT 500"))
            .bind(now_ms)
            .fetch_all(&self.pool)
            .await?;
        let mut gone = Vec::new();
        for r in rows.iter().map(challenge) {
            let c = r?;
            let done = sqlx::query("UPDATE challenges SET status = 'expired' WHERE id = $1 AND status = 'pending'")
                .bind(&c.id)
                .execute(&self.pool)
                .await?;
            if done.rows_affected() == 1 {
                gone.push(c);
            }
        }
        Ok(gone)
    }

    /// Cancels the pending challenges between two accounts (either way), as a block
    /// is placed; returns them.
    pub async fn cancel_challenges_between(&self, a: &str, b: &str) -> Result<Vec<ChallengeRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "{WITH_NAMES} WHERE c.status = 'pending' AND \
                 ((c.challenger = $1 AND c.challenged = $2) OR (c.challenger = $2 AND c.challenged = $1))"
        ))
        .bind(a)
        .bind(b)
        .fetch_all(&self.pool)
        .await?;
        let mut gone = Vec::new();
        for r in rows.iter().map(challenge) {
            let c = r?;
            if self.close_challenge(&c.id, "cancelled", Some("blocked"), i64::MIN).await? {
                gone.push(c);
            }
        }
        Ok(gone)
    }

    /// `blocker` blocks `blocked` (again: nothing changes).
    pub async fn block(&self, blocker: &str, blocked: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO blocks (blocker, blocked, created_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (blocker, blocked) DO NOTHING",
        )
        .bind(blocker)
        .bind(blocked)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `blocker` no longer blocks `blocked`.
    pub async fn unblock(&self, blocker: &str, blocked: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
            .bind(blocker)
            .bind(blocked)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Whether `blocker` blocks `blocked`.
    pub async fn blocks(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
        let r = sqlx::query("SELECT 1 AS one FROM blocks WHERE blocker = $1 AND blocked = $2")
            .bind(blocker)
            .bind(blocked)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.is_some())
    }

    /// Whether either of two accounts blocks the other.
    pub async fn blocked_between(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "SELECT 1 AS one FROM blocks WHERE (blocker = $1 AND blocked = $2) OR (blocker = $2 AND blocked = $1)",
        )
        .bind(a)
        .bind(b)
        .fetch_optional(&self.pool)
        .await?;
        Ok(r.is_some())
    }

    /// The names `blocker` blocks, by name.
    pub async fn blocked_names(&self, blocker: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name AS name FROM blocks b JOIN accounts a ON a.id = b.blocked WHERE b.blocker = $1 ORDER BY a.name_key",
        )
        .bind(blocker)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.try_get("name")).collect::<Result<_, _>>()?)
    }
}
