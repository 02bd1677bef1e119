//! Accounts, their log-in sessions and their ratings.

use dama_core::Color;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::games::{options, parsed, readable};
use super::{game, int, GameRow, Store, StoreError};
use crate::protocol::{Options, Phase};
use crate::rating::{Outcome, Rating};
use dama_core::Variant;

/// A stored account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    /// Random id.
    pub id: String,
    /// The name as its owner wrote it.
    pub name: String,
    /// The Argon2id hash of the password (PHC string); empty for a guest, who has a
    /// name only until they set a password.
    pub password_hash: String,
    /// Creation time, ms since the epoch.
    pub created_ms: i64,
}

impl AccountRow {
    /// A guest: a name without a password (no log-in from elsewhere, no rated games).
    pub fn is_guest(&self) -> bool {
        self.password_hash.is_empty()
    }
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

/// The rating columns of a row.
fn rating(r: &AnyRow) -> Result<Rating, sqlx::Error> {
    Ok(Rating { rating: r.try_get("rating")?, rd: r.try_get("rd")?, volatility: r.try_get("volatility")? })
}

/// What a rated game did to one player's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: Rating,
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

    /// Stores an API token (its hash) for an account, with its scopes (space-separated).
    pub async fn add_api_token(
        &self,
        token_hash: &str,
        account_id: &str,
        scopes: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO api_tokens (token_hash, account_id, scopes, created_ms) VALUES ($1, $2, $3, $4)")
            .bind(token_hash)
            .bind(account_id)
            .bind(scopes)
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The account an API token's hash acts for, with the token's scopes.
    pub async fn api_token_account(&self, token_hash: &str) -> Result<Option<(AccountRow, String)>, StoreError> {
        let r = sqlx::query(
            "SELECT a.*, t.scopes FROM api_tokens t JOIN accounts a ON a.id = t.account_id WHERE t.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        Ok(r.map(|r| -> Result<_, sqlx::Error> { Ok((account(&r)?, r.try_get("scopes")?)) }).transpose()?)
    }

    /// An account's rating in one variant and class, if it has played a rated game there.
    pub async fn rating_of(&self, account_id: &str, variant: &str, speed: &str) -> Result<Option<Rating>, StoreError> {
        let r = sqlx::query(
            "SELECT rating, rd, volatility FROM ratings WHERE account_id = $1 AND variant = $2 AND speed = $3",
        )
        .bind(account_id)
        .bind(variant)
        .bind(speed)
        .fetch_optional(&self.pool)
        .await?;
        Ok(r.as_ref().map(rating).transpose()?)
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
                    rating: rating(r)?,
                    games: int(r, "games")?,
                    updated_ms: r.try_get("updated_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// Sets a guest's password: the account becomes a full one, keeping its name and
    /// games. `Ok(false)` when it has a password already.
    pub async fn set_password(&self, account_id: &str, password_hash: &str) -> Result<bool, StoreError> {
        let r = sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2 AND password_hash = ''")
            .bind(password_hash)
            .bind(account_id)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() == 1)
    }

    /// The account with this id.
    pub async fn account_by_id(&self, id: &str) -> Result<Option<AccountRow>, StoreError> {
        let r = sqlx::query("SELECT * FROM accounts WHERE id = $1").bind(id).fetch_optional(&self.pool).await?;
        Ok(r.as_ref().map(account).transpose()?)
    }

    /// Rates a finished game between two accounts: both ratings in `variant` and
    /// `speed` change as Glicko-2 says (each player's deviation first grows with the
    /// days since their last rated game), in one transaction with the history rows.
    /// `white_score` is 1, 0.5 or 0. A game already rated is not rated again (`None`).
    /// Callers serialise rating updates (the registry's lock), so that two games ending
    /// at once for one player do not both start from the same rating.
    pub async fn rate_game(
        &self,
        game_id: &str,
        variant: &str,
        speed: &str,
        accounts: [&str; 2],
        white_score: f64,
        now_ms: i64,
    ) -> Result<Option<[RatingChange; 2]>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query("SELECT account_id FROM rating_history WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&mut *tx)
            .await?;
        if done.is_some() {
            return Ok(None);
        }
        let mut before = [(Rating::default(), 0i64, now_ms); 2];
        for (i, id) in accounts.iter().enumerate() {
            let r = sqlx::query("SELECT * FROM ratings WHERE account_id = $1 AND variant = $2 AND speed = $3")
                .bind(*id)
                .bind(variant)
                .bind(speed)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(r) = r {
                before[i] = (rating(&r)?, int(&r, "games")?, r.try_get("updated_ms")?);
            }
        }
        let scores = [white_score, 1.0 - white_score];
        let mut changes = [RatingChange { before: 0.0, after: Rating::default() }; 2];
        for i in 0..2 {
            let (me, games, updated) = before[i];
            let idle_days = (now_ms - updated).max(0) as f64 / 86_400_000.0;
            let after = me.after_game(idle_days, Outcome { opponent: before[1 - i].0, score: scores[i] });
            changes[i] = RatingChange { before: me.rating, after };
            sqlx::query(
                "INSERT INTO ratings (account_id, variant, speed, rating, rd, volatility, games, updated_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (account_id, variant, speed) DO UPDATE SET \
                 rating = $4, rd = $5, volatility = $6, games = $7, updated_ms = $8",
            )
            .bind(accounts[i])
            .bind(variant)
            .bind(speed)
            .bind(after.rating)
            .bind(after.rd)
            .bind(after.volatility)
            .bind(games + 1)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_history (account_id, game_id, variant, speed, rating_before, rating, rd, at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(accounts[i])
            .bind(game_id)
            .bind(variant)
            .bind(speed)
            .bind(me.rating)
            .bind(after.rating)
            .bind(after.rd)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(Some(changes))
    }

    /// What a rated game did to its players' ratings: (account, before, after).
    pub async fn game_rating_changes(&self, game_id: &str) -> Result<Vec<(String, f64, f64)>, StoreError> {
        let rows = sqlx::query("SELECT account_id, rating_before, rating FROM rating_history WHERE game_id = $1")
            .bind(game_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("account_id")?, r.try_get("rating_before")?, r.try_get("rating")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// An account's games, newest first.
    pub async fn account_games(&self, account_id: &str, limit: i64) -> Result<Vec<PlayedGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.variant, g.status, g.result, g.white_account, g.options, g.created_ms, o.name AS opponent \
             FROM games g LEFT JOIN accounts o \
             ON o.id = CASE WHEN g.white_account = $1 THEN g.black_account ELSE g.white_account END \
             WHERE g.white_account = $1 OR g.black_account = $1 ORDER BY g.created_ms DESC LIMIT $2",
        )
        .bind(account_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(readable(&rows, |r| {
            let white: Option<String> = r.try_get("white_account")?;
            Ok(PlayedGame {
                id: r.try_get("id")?,
                variant: parsed(r, "variant")?,
                status: parsed(r, "status")?,
                result: r.try_get("result")?,
                seat: if white.as_deref() == Some(account_id) { Color::White } else { Color::Black },
                options: options(r)?,
                created_ms: r.try_get("created_ms")?,
                opponent: r.try_get("opponent")?,
            })
        }))
    }

    /// An account's games not over yet (waiting or being played): their ids, oldest
    /// first, at most `limit`.
    pub async fn account_open_games(&self, account_id: &str, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE (white_account = $1 OR black_account = $1) AND status <> 'finished' \
             ORDER BY created_ms LIMIT $2",
        )
        .bind(account_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| r.try_get("id")).collect::<Result<_, sqlx::Error>>().map_err(StoreError)
    }

    /// An account's finished games, whole rows, newest first.
    pub async fn account_finished_games(&self, account_id: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM games WHERE (white_account = $1 OR black_account = $1) AND status = 'finished' \
             ORDER BY created_ms DESC LIMIT $2",
        )
        .bind(account_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(readable(&rows, game))
    }

    /// An account's rating after each rated game, oldest first: (variant, speed,
    /// rating, at_ms).
    pub async fn rating_history(&self, account_id: &str) -> Result<Vec<(String, String, f64, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT variant, speed, rating, at_ms FROM rating_history WHERE account_id = $1 ORDER BY at_ms, game_id",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("variant")?, r.try_get("speed")?, r.try_get("rating")?, r.try_get("at_ms")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }
}

/// A game an account played.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Game id.
    pub id: String,
    /// Its rulebook.
    pub variant: Variant,
    /// Where it stands.
    pub status: Phase,
    /// Result token, once finished.
    pub result: Option<String>,
    /// The account's seat.
    pub seat: Color,
    /// The game's options.
    pub options: Options,
    /// Creation time.
    pub created_ms: i64,
    /// The opponent's account name, if the other seat had one.
    pub opponent: Option<String>,
}

impl From<AccountRow> for crate::protocol::Player {
    fn from(a: AccountRow) -> crate::protocol::Player {
        let guest = a.is_guest();
        crate::protocol::Player { id: a.id, name: a.name, guest }
    }
}
