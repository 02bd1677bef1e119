//! Persistence with sqlx: SQLite by default, PostgreSQL with the same code.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

/// A storage failure (details are logged, never sent to clients).
#[derive(Debug, thiserror::Error)]
#[error("storage: {0}")]
pub struct StoreError(#[from] sqlx::Error);

/// A stored game.
#[derive(Clone, Debug, Default)]
pub struct GameRow {
    /// Game id.
    pub id: String,
    /// Variant key.
    pub variant: String,
    /// Mode key.
    pub mode: String,
    /// Start position.
    pub start_fen: String,
    /// Options as JSON.
    pub options: String,
    /// Seat tokens.
    pub white_token: Option<String>,
    /// Seat tokens.
    pub black_token: Option<String>,
    /// "waiting", "live" or "finished".
    pub status: String,
    /// Result token, once finished.
    pub result: Option<String>,
    /// Why it finished.
    pub reason: Option<String>,
    /// Creation time, ms since the epoch.
    pub created_ms: i64,
}

/// A stored move.
#[derive(Clone, Debug)]
pub struct MoveRow {
    /// Ply, from 1.
    pub ply: i64,
    /// Long notation.
    pub notation: String,
    /// The mover's clock after the move, if any.
    pub clock_ms: Option<i64>,
    /// When it was stored, ms since the epoch.
    pub at_ms: i64,
}

/// The database.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
}

fn game(r: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: r.try_get("id")?,
        variant: r.try_get("variant")?,
        mode: r.try_get("mode")?,
        start_fen: r.try_get("start_fen")?,
        options: r.try_get("options")?,
        white_token: r.try_get("white_token")?,
        black_token: r.try_get("black_token")?,
        status: r.try_get("status")?,
        result: r.try_get("result")?,
        reason: r.try_get("reason")?,
        created_ms: r.try_get("created_ms")?,
    })
}

impl Store {
    /// Connects (creating an SQLite file if missing) and runs the migrations.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let url = if sqlite && !url.contains("mode=") {
            format!("{url}{}mode=rwc", if url.contains('?') { "&" } else { "?" })
        } else {
            url.to_string()
        };
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 16 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // WAL: readers never wait for the writer; a committed move
                        // survives a crash of the process.
                        for p in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA busy_timeout=5000"] {
                            sqlx::query(p).execute(&mut *conn).await?;
                        }
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        let mut migrator = sqlx::migrate!("./migrations");
        // A database already migrated by a newer dama (another node during a rolling
        // restart) is fine: the schema only grows.
        migrator.set_ignore_missing(true);
        migrator.run(&pool).await.map_err(|e| StoreError(e.into()))?;
        Ok(Store { pool })
    }

    /// Stores a new game.
    pub async fn create(&self, g: &GameRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO games (id, variant, mode, start_fen, options, white_token, black_token, status, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&g.id)
        .bind(&g.variant)
        .bind(&g.mode)
        .bind(&g.start_fen)
        .bind(&g.options)
        .bind(g.white_token.clone())
        .bind(g.black_token.clone())
        .bind(&g.status)
        .bind(g.created_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Seats and status.
    pub async fn update_seats(
        &self,
        id: &str,
        white: Option<&str>,
        black: Option<&str>,
        status: &str,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET white_token = $1, black_token = $2, status = $3 WHERE id = $4")
            .bind(white.map(str::to_string))
            .bind(black.map(str::to_string))
            .bind(status)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Records a move (the move is acknowledged only after this returns).
    pub async fn add_move(&self, id: &str, m: &MoveRow) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO moves (game_id, ply, notation, clock_ms, at_ms) VALUES ($1, $2, $3, $4, $5)")
            .bind(id)
            .bind(m.ply)
            .bind(&m.notation)
            .bind(m.clock_ms)
            .bind(m.at_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Removes the last move (takeback).
    pub async fn remove_move(&self, id: &str, ply: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply = $2").bind(id).bind(ply).execute(&self.pool).await?;
        Ok(())
    }

    /// Keeps the spectators' suggestions for a ply with the game record.
    pub async fn add_suggestions(&self, id: &str, ply: i64, tallies: &[(String, i64)]) -> Result<(), StoreError> {
        for (notation, count) in tallies {
            sqlx::query("INSERT INTO suggestions (game_id, ply, notation, count) VALUES ($1, $2, $3, $4)")
                .bind(id)
                .bind(ply)
                .bind(notation)
                .bind(*count)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// The suggestions kept for a game: (ply, move, count).
    pub async fn suggestions(&self, id: &str) -> Result<Vec<(i64, String, i64)>, StoreError> {
        let rows =
            sqlx::query("SELECT ply, notation, count FROM suggestions WHERE game_id = $1 ORDER BY ply, count DESC")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        rows.iter()
            .map(|r| {
                let ply = r.try_get::<i64, _>("ply").or_else(|_| r.try_get::<i32, _>("ply").map(i64::from))?;
                let count = r.try_get::<i64, _>("count").or_else(|_| r.try_get::<i32, _>("count").map(i64::from))?;
                Ok((ply, r.try_get("notation")?, count))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// Marks a game finished.
    pub async fn finish(&self, id: &str, result: &str, reason: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET status = 'finished', result = $1, reason = $2 WHERE id = $3")
            .bind(result)
            .bind(reason)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// One game.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let r = sqlx::query("SELECT * FROM games WHERE id = $1").bind(id).fetch_optional(&self.pool).await?;
        Ok(r.as_ref().map(game).transpose()?)
    }

    /// The moves of a game in order.
    pub async fn moves(&self, id: &str) -> Result<Vec<MoveRow>, StoreError> {
        let rows = sqlx::query("SELECT ply, notation, clock_ms, at_ms FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(MoveRow {
                    ply: r.try_get::<i64, _>("ply").or_else(|_| r.try_get::<i32, _>("ply").map(i64::from))?,
                    notation: r.try_get("notation")?,
                    clock_ms: r.try_get("clock_ms")?,
                    at_ms: r.try_get("at_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// Games with a status, newest first.
    pub async fn list(&self, status: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query("SELECT * FROM games WHERE status = $1 ORDER BY created_ms DESC LIMIT $2")
            .bind(status)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(game).collect::<Result<_, _>>().map_err(StoreError)
    }
}
