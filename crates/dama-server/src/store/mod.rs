//! Persistence with sqlx: SQLite by default, PostgreSQL with the same code.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

mod accounts;
mod challenges;
mod chat;
mod commit;
mod explorer;
mod follows;
mod games;
mod inbox;
mod leaders;
mod learn;
mod lease;
mod moderation;
mod push;
mod puzzles;
mod sqlite_writer;
mod tournaments;
mod writer;

pub use accounts::{name_key, AccountRow, PlayedGame, RatingChange, RatingRow};
pub use challenges::ChallengeRow;
pub use chat::ChatRow;
pub use explorer::{CountBatch, MoveCount};
pub use follows::MOST_FOLLOWED;
pub(crate) use games::game;
pub use games::{GameRow, GameState, MoveRow, OffersColumn, StoredOffer};
pub use inbox::{CorrespondenceTurn, NotificationRow, INBOX_SIZE};
pub use leaders::Leader;
pub use lease::{Claim, Leases, EVENT_LEASE};
pub use moderation::ReportedLine;
pub use puzzles::{AttemptOf, Attempted, PuzzleRow, RatingRules};
pub use tournaments::{EntryRow, PairingRow, TournamentRow};

/// A storage failure (details are logged, never sent to clients).
#[derive(Debug, thiserror::Error)]
#[error("storage: {0}")]
pub struct StoreError(#[from] sqlx::Error);

/// The database.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    /// The moves' group commit.
    moves: writer::Writer,
    /// The games this node holds, in cluster mode: their writes are fenced.
    leases: Option<std::sync::Arc<Leases>>,
    /// SQLite's writes under load, one at a time in arrival order (see [`WriteGate`]).
    gate: WriteGate,
    /// For tests: while set, the games' decisions fail to be stored ([`Store::fail_commits`]).
    failing: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// SQLite lets one connection write at a time; another that tries waits in SQLite's busy
/// handler, which sleeps (1, 2, 5, ... up to 100 ms) and polls. When the moves' writer
/// met a game's end or the explorer's counts that way, a whole group of moves waited
/// that long (round trips of 100-500 ms in the load test). The writes made under load
/// (moves, games' states, new games, the explorer's counts) take this queue first, so
/// they follow each other at once. PostgreSQL locks rows and needs none.
#[derive(Clone, Default)]
pub(crate) struct WriteGate(Option<std::sync::Arc<tokio::sync::Mutex<()>>>);

impl WriteGate {
    fn new(sqlite: bool) -> WriteGate {
        WriteGate(sqlite.then(Default::default))
    }

    /// Waits for the turn to write (at once for PostgreSQL); the turn ends when the
    /// guard is dropped.
    pub(crate) async fn turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match &self.0 {
            Some(m) => Some(m.lock().await),
            None => None,
        }
    }

    /// [`WriteGate::turn`] for a thread outside the runtime.
    pub(crate) fn blocking_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        self.0.as_ref().map(|m| m.blocking_lock())
    }
}

/// Appends `rows` tuples of `cols` numbered parameters each, `($1, $2), ($3, $4)`, the
/// first numbered `first` (the multi-row statements of the moves and the counts).
fn push_tuples(sql: &mut String, rows: usize, cols: usize, first: usize) {
    use std::fmt::Write;
    for r in 0..rows {
        sql.push_str(if r == 0 { "(" } else { ", (" });
        for c in 0..cols {
            let _ = write!(sql, "{}${}", if c == 0 { "" } else { ", " }, first + r * cols + c);
        }
        sql.push(')');
    }
}

/// The file of an SQLite URL, or None for an in-memory database.
fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    use std::str::FromStr;
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url).ok()?;
    let file = options.get_filename();
    let name = file.to_string_lossy();
    (!name.is_empty() && !name.starts_with(":memory:") && !name.starts_with("file:")).then(|| file.to_path_buf())
}

/// An integer column that PostgreSQL may hand back as INTEGER or BIGINT.
fn int(r: &AnyRow, col: &str) -> Result<i64, sqlx::Error> {
    r.try_get::<i64, _>(col).or_else(|_| r.try_get::<i32, _>(col).map(i64::from))
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
            // No ping before each query: it was a round trip to the connection's thread
            // for every move (12% of the server's CPU under load, with the return to
            // the pool); a broken connection fails its query and is replaced.
            .test_before_acquire(false)
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
        let gate = WriteGate::new(sqlite);
        let file = if sqlite { sqlite_file(&url) } else { None };
        let moves = writer::Writer::start(pool.clone(), gate.clone(), file.as_deref());
        let store = Store { moves, pool, leases: None, gate, failing: Default::default() };
        store.hash_plain_tokens().await?;
        Ok(store)
    }

    /// The same store for node `node` of a cluster: it holds leases on games, and
    /// writes a game's moves and state only while it holds the game's lease.
    pub fn for_node(mut self, node: &str) -> Store {
        self.leases = Some(std::sync::Arc::new(Leases::new(node)));
        self
    }

    /// Connections open and idle now (for the metrics).
    pub fn connections(&self) -> (u32, usize) {
        (self.pool.size(), self.pool.num_idle())
    }

    /// Whether the database answers (a trivial query), for the readiness check.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Waits for the connections in use to come back, then closes them all (the last
    /// step of a graceful shutdown; SQLite checkpoints its log as the last one closes).
    pub async fn close(&self) {
        self.moves.stop().await;
        self.pool.close().await;
    }

    /// Databases written before tokens were stored hashed hold them in clear (32 hex
    /// digits); they are replaced by their hashes (64 hex digits), once.
    async fn hash_plain_tokens(&self) -> Result<(), StoreError> {
        let rows = sqlx::query(
            "SELECT id, white_token, black_token FROM games WHERE LENGTH(white_token) = 32 OR LENGTH(black_token) = 32",
        )
        .fetch_all(&self.pool)
        .await?;
        for r in rows {
            let id: String = r.try_get("id")?;
            let hash = |t: Option<String>| t.map(|t| if t.len() == 32 { crate::secret::hash(&t) } else { t });
            let (w, b) = (hash(r.try_get("white_token")?), hash(r.try_get("black_token")?));
            sqlx::query("UPDATE games SET white_token = $1, black_token = $2 WHERE id = $3")
                .bind(w)
                .bind(b)
                .bind(id)
                .execute(&self.pool)
                .await?;
        }
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
            .map(|r| Ok((int(r, "ply")?, r.try_get("notation")?, int(r, "count")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// Keeps a game's report (JSON), replacing an earlier one.
    pub async fn save_report(&self, id: &str, report: &str, at_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO game_reports (game_id, report, created_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id) DO UPDATE SET report = excluded.report, created_ms = excluded.created_ms",
        )
        .bind(id)
        .bind(report)
        .bind(at_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A game's report, if one was made.
    pub async fn report(&self, id: &str) -> Result<Option<String>, StoreError> {
        let r = sqlx::query("SELECT report FROM game_reports WHERE game_id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.map(|r| r.try_get("report")).transpose()?)
    }
}

impl From<StoreError> for crate::error::ApiError {
    /// A storage failure is logged; the client hears of an internal error only.
    fn from(e: StoreError) -> Self {
        tracing::error!(error = %crate::error::Chain(&e), "database");
        crate::error::ApiError::Internal
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn tuples_number_their_parameters_in_order() {
        let mut sql = String::from("IN (");
        super::push_tuples(&mut sql, 2, 2, 2);
        assert_eq!(sql, "IN (($2, $3), ($4, $5)");
        let mut sql = String::new();
        super::push_tuples(&mut sql, 2, 3, 1);
        assert_eq!(sql, "($1, $2, $3), ($4, $5, $6)");
    }
}
