//! The moves' group commit on SQLite, written by a thread that owns a connection of its
//! own (rusqlite, over the same SQLite library as sqlx). Through sqlx each group was a
//! hand-off from the writer task to the pool's connection thread and back, with the
//! connection taken from and given back to the pool and its parameters converted twice;
//! here the thread takes the moves from the games' queue, writes them with one prepared
//! statement in one transaction, and answers each game itself.
//!
//! It writes in its turn at the store's [`WriteGate`], like every other SQLite write made
//! under load, so it never sleeps in SQLite's busy handler behind them.

use std::path::Path;

use rusqlite::{params, Connection, TransactionBehavior};
use tokio::sync::mpsc;

use super::writer::{gather, Item, Job, MAX_GROUP};
use super::{StoreError, WriteGate};

/// Opens the connection to `path` and starts the thread; if the connection does not
/// open, the queue is given back (for the pool's writer) with the reason.
pub(super) fn start(
    path: &Path,
    gate: WriteGate,
    jobs: mpsc::Receiver<Job>,
) -> Result<(), (String, mpsc::Receiver<Job>)> {
    let conn = match open(path) {
        Ok(c) => c,
        Err(e) => return Err((e.to_string(), jobs)),
    };
    // The thread ends when the store's last handle is dropped (the queue closes) or on
    // a stop request.
    // A thread that cannot start takes the queue with it: every move then fails with a
    // storage error (and this is logged) instead of waiting forever.
    let spawned = std::thread::Builder::new().name("dama-moves".into()).spawn(move || run(conn, gate, jobs));
    if let Err(e) = spawned {
        tracing::error!(error = %e, "the moves' SQLite writer thread could not start; moves cannot be stored");
    }
    Ok(())
}

fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    // WAL is the database's (set by the pool); these two are the connection's own.
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    // Fails now, not at the first move, if the schema is not there.
    conn.prepare_cached(INSERT)?;
    Ok(conn)
}

const INSERT: &str = "INSERT INTO moves (game_id, ply, notation, clock_ms, at_ms, v) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

fn run(mut conn: Connection, gate: WriteGate, mut jobs: mpsc::Receiver<Job>) {
    let mut group: Vec<Item> = Vec::with_capacity(MAX_GROUP);
    while let Some(job) = jobs.blocking_recv() {
        let stop = gather(job, &mut jobs, &mut group);
        {
            let _turn = gate.blocking_turn();
            write(&mut conn, &mut group);
        }
        if let Some(done) = stop {
            let _ = done.send(());
            return;
        }
    }
}

/// Writes a group in one transaction; if that fails, each move alone (so one bad move
/// fails only its own game), and answers each.
fn write(conn: &mut Connection, group: &mut Vec<Item>) {
    if group.is_empty() {
        return;
    }
    if group.len() > 1 {
        match insert(conn, group) {
            Ok(()) => {
                for (_, _, _, answer) in group.drain(..) {
                    let _ = answer.send(Ok(()));
                }
                return;
            }
            Err(e) => {
                tracing::warn!(moves = group.len(), error = %e, "a group of moves failed to store; storing each alone")
            }
        }
    }
    for item in group.drain(..) {
        let r = insert(conn, std::slice::from_ref(&item)).map_err(store_error);
        let _ = item.3.send(r);
    }
}

/// Writes the given moves in one transaction.
fn insert(conn: &mut Connection, moves: &[Item]) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    {
        let mut insert = tx.prepare_cached(INSERT)?;
        for (id, m, fence, _) in moves {
            // Leases (cluster mode) live on PostgreSQL only; a fenced move never comes here.
            if fence.is_some() {
                return Err(rusqlite::Error::InvalidParameterName("a fenced move needs PostgreSQL".into()));
            }
            insert.execute(params![id, m.ply, m.notation, m.clock_ms, m.at_ms, m.v])?;
        }
    }
    tx.commit()
}

fn store_error(e: rusqlite::Error) -> StoreError {
    StoreError::from(sqlx::Error::Io(std::io::Error::other(e)))
}
