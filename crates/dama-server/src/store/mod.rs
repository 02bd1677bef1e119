//! Persistence with sqlx: SQLite by default, PostgreSQL with the same code.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

mod accounts;
mod chat;
mod commit;
mod explorer;
mod lease;
mod moderation;
mod puzzles;
mod sqlite_writer;
mod writer;

pub use accounts::{name_key, AccountRow, PlayedGame, RatingChange, RatingRow};
pub use chat::ChatRow;
pub use explorer::{CountBatch, MoveCount};
pub use lease::{Claim, Leases};
pub use moderation::ReportedLine;
pub use puzzles::{AttemptOf, Attempted, PuzzleRow, RatingRules};

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
    /// The version of the game's last event (versions never go back, across restarts).
    pub version: i64,
    /// The rematch or next game of the series, once created.
    pub next_game: Option<String>,
    /// Pending offers as JSON (see `game::offers`).
    pub offers: Option<String>,
    /// When the side to move's time started, ms since the epoch (the clock charges it
    /// after a restart).
    pub turn_started_ms: Option<i64>,
    /// Hash of the friend invite secret.
    pub invite_hash: Option<String>,
    /// Once finished: the clock of the side to move, frozen at the end.
    pub end_clock_ms: Option<i64>,
    /// The accounts at the seats (White, Black), if any.
    pub accounts: [Option<String>; 2],
}

/// What changes in a game row as it is played (everything but its moves).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameState {
    /// "waiting", "live" or "finished".
    pub status: String,
    /// Hashes of the seat tokens.
    pub white_token: Option<String>,
    /// Hashes of the seat tokens.
    pub black_token: Option<String>,
    /// Result token, once finished.
    pub result: Option<String>,
    /// Why it finished.
    pub reason: Option<String>,
    /// The version of the last event.
    pub version: i64,
    /// The rematch or next game.
    pub next_game: Option<String>,
    /// Pending offers as JSON.
    pub offers: Option<String>,
    /// When the side to move's time started.
    pub turn_started_ms: Option<i64>,
    /// Once finished: the clock of the side to move, frozen at the end.
    pub end_clock_ms: Option<i64>,
    /// The accounts at the seats (White, Black), if any.
    pub accounts: [Option<String>; 2],
}

/// A stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// Ply, from 1.
    pub ply: i64,
    /// Long notation.
    pub notation: String,
    /// The mover's clock after the move, if any.
    pub clock_ms: Option<i64>,
    /// When it was stored, ms since the epoch.
    pub at_ms: i64,
    /// The game's version once the move and what it caused were announced.
    pub v: Option<i64>,
}

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
        version: int(r, "version")?,
        next_game: r.try_get("next_game")?,
        offers: r.try_get("offers")?,
        turn_started_ms: r.try_get("turn_started_ms")?,
        invite_hash: r.try_get("invite_hash")?,
        end_clock_ms: r.try_get("end_clock_ms")?,
        accounts: [r.try_get("white_account")?, r.try_get("black_account")?],
    })
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

    /// Stores a new game.
    pub async fn create(&self, g: &GameRow) -> Result<(), StoreError> {
        let _turn = self.gate.turn().await;
        sqlx::query(
            "INSERT INTO games (id, variant, mode, start_fen, options, white_token, black_token, status, created_ms, \
             result, reason, version, turn_started_ms, invite_hash, white_account, black_account) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
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
        .bind(g.result.clone())
        .bind(g.reason.clone())
        .bind(g.version)
        .bind(g.turn_started_ms)
        .bind(g.invite_hash.clone())
        .bind(g.accounts[0].clone())
        .bind(g.accounts[1].clone())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Saves what changed in a game (seats, status, result, version, offers, links).
    pub async fn save(&self, id: &str, s: &GameState) -> Result<(), StoreError> {
        let _turn = self.gate.turn().await;
        if let Some((node, token)) = self.fence(id)? {
            let r = save_query(SAVE_FENCED, id, s).bind(node).bind(token).execute(&self.pool).await?;
            return if r.rows_affected() == 1 { Ok(()) } else { Err(lease::fenced()) };
        }
        save_query(SAVE, id, s).execute(&self.pool).await?;
        Ok(())
    }

    /// Records a move (the move is acknowledged only after this returns), in a group
    /// with the other games' moves that wait to be stored at the same moment.
    pub async fn add_move(&self, id: &str, m: &MoveRow) -> Result<(), StoreError> {
        // In cluster mode, written only while this node holds the game's lease.
        let fence = self.fence(id)?.map(|(node, token)| (node.to_string(), token));
        self.moves.add(id, m, fence).await
    }

    /// Takes back the moves after ply `keep` and saves the game's state, together.
    pub async fn take_back(&self, id: &str, keep: i64, s: &GameState) -> Result<(), StoreError> {
        let _turn = self.gate.turn().await;
        let mut tx = self.pool.begin().await?;
        // Fenced: the state first (it locks the lease row), and nothing is kept if it fails.
        let fence = self.fence(id)?;
        let saved = match fence {
            Some((node, token)) => save_query(SAVE_FENCED, id, s).bind(node).bind(token).execute(&mut *tx).await?,
            None => save_query(SAVE, id, s).execute(&mut *tx).await?,
        };
        if saved.rows_affected() != 1 && fence.is_some() {
            return Err(lease::fenced());
        }
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2").bind(id).bind(keep).execute(&mut *tx).await?;
        tx.commit().await?;
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

    /// One game.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let r = sqlx::query("SELECT * FROM games WHERE id = $1").bind(id).fetch_optional(&self.pool).await?;
        Ok(r.as_ref().map(game).transpose()?)
    }

    /// The moves of a game in order.
    pub async fn moves(&self, id: &str) -> Result<Vec<MoveRow>, StoreError> {
        let rows = sqlx::query("SELECT ply, notation, clock_ms, at_ms, v FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(MoveRow {
                    ply: int(r, "ply")?,
                    notation: r.try_get("notation")?,
                    clock_ms: r.try_get("clock_ms")?,
                    at_ms: r.try_get("at_ms")?,
                    v: r.try_get("v")?,
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

/// The UPDATE of a game's state.
macro_rules! save_sql {
    ($fence:literal) => {
        concat!(
            "UPDATE games SET status = $1, white_token = $2, black_token = $3, result = $4, reason = $5, version = $6, ",
            "next_game = $7, offers = $8, turn_started_ms = $9, end_clock_ms = $10, white_account = $11, ",
            "black_account = $12 WHERE id = $13",
            $fence
        )
    };
}
const SAVE: &str = save_sql!("");
/// The same, only while this node holds the game's lease ($14 node, $15 token).
const SAVE_FENCED: &str = save_sql!(
    " AND EXISTS (SELECT 1 FROM game_leases WHERE game_id = $13 AND node = $14 AND token = $15 AND free = 0 FOR SHARE)"
);

/// The UPDATE of a game's state by `sql` ([`SAVE`] or [`SAVE_FENCED`], whose fence the
/// caller binds).
fn save_query<'q>(
    sql: &'static str,
    id: &'q str,
    s: &'q GameState,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    sqlx::query(sql)
        .bind(&s.status)
        .bind(s.white_token.clone())
        .bind(s.black_token.clone())
        .bind(s.result.clone())
        .bind(s.reason.clone())
        .bind(s.version)
        .bind(s.next_game.clone())
        .bind(s.offers.clone())
        .bind(s.turn_started_ms)
        .bind(s.end_clock_ms)
        .bind(s.accounts[0].clone())
        .bind(s.accounts[1].clone())
        .bind(id)
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
