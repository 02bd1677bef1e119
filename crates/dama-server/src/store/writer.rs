//! Group commit for moves: every game's moves go through one writer task, which inserts
//! all the moves waiting at that moment with one statement (one commit), then answers
//! each game. Nothing waits on purpose: a lone move is written at once, and under load
//! the moves that arrive while a write runs form the next group. A move is still
//! acknowledged only once it is stored. On SQLite the writer is a thread that owns a
//! connection of its own ([`super::sqlite_writer`]); on PostgreSQL a task over the pool.

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::{MoveRow, StoreError, WriteGate};

/// The most moves written by one statement (6 parameters each stays far below SQLite's
/// oldest limit of 999 parameters).
pub(super) const MAX_GROUP: usize = 128;

pub(super) type Answer = oneshot::Sender<Result<(), StoreError>>;

/// Cluster mode: the node and the token the game's lease must still have for its move
/// to be written.
pub(super) type Fence = Option<(String, i64)>;

pub(super) enum Job {
    Move(String, MoveRow, Fence, Answer),
    /// Write what came before, then end.
    Stop(oneshot::Sender<()>),
}

/// The handle of the writer task.
#[derive(Clone)]
pub(super) struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    /// Starts the writer over `pool`, writing in its turn at `gate`: a thread with its
    /// own connection to `sqlite_file` when given (and it opens), else a task.
    pub(super) fn start(pool: AnyPool, gate: WriteGate, sqlite_file: Option<&std::path::Path>) -> Writer {
        let (jobs, rx) = mpsc::channel(4096);
        let rx = match sqlite_file {
            Some(path) => match super::sqlite_writer::start(path, gate.clone(), rx) {
                Ok(()) => return Writer { jobs },
                Err((e, rx)) => {
                    tracing::warn!(error = %e, "the moves' SQLite writer could not open its connection; writing through the pool");
                    rx
                }
            },
            None => rx,
        };
        tokio::spawn(run(pool, gate, rx));
        Writer { jobs }
    }

    /// Stores a move of game `id` (only while `fence` holds); returns once it is stored.
    pub(super) async fn add(&self, id: &str, m: &MoveRow, fence: Fence) -> Result<(), StoreError> {
        let (answer, stored) = oneshot::channel();
        self.jobs.send(Job::Move(id.to_string(), m.clone(), fence, answer)).await.map_err(|_| closed())?;
        stored.await.map_err(|_| closed())?
    }

    /// Writes the moves already sent, then stops (later moves fail as the pool would
    /// once closed).
    pub(super) async fn stop(&self) {
        let (done, stopped) = oneshot::channel();
        if self.jobs.send(Job::Stop(done)).await.is_ok() {
            let _ = stopped.await;
        }
    }
}

fn closed() -> StoreError {
    StoreError::from(sqlx::Error::PoolClosed)
}

/// Adds `first` and the jobs already waiting (up to [`MAX_GROUP`] moves) to `group`;
/// the answer of a stop request among them, which ends the gathering.
pub(super) fn gather(first: Job, jobs: &mut mpsc::Receiver<Job>, group: &mut Vec<Item>) -> Option<oneshot::Sender<()>> {
    let mut next = Some(first);
    while let Some(job) = next.take() {
        match job {
            Job::Move(id, m, fence, answer) => group.push((id, m, fence, answer)),
            Job::Stop(done) => return Some(done),
        }
        if group.len() < MAX_GROUP {
            next = jobs.try_recv().ok();
        }
    }
    if group.len() > 1 {
        metrics::histogram!("dama_move_group_size").record(group.len() as f64);
    }
    None
}

async fn run(pool: AnyPool, gate: WriteGate, mut jobs: mpsc::Receiver<Job>) {
    let mut group: Vec<Item> = Vec::with_capacity(MAX_GROUP);
    while let Some(job) = jobs.recv().await {
        let stop = gather(job, &mut jobs, &mut group);
        {
            let _turn = gate.turn().await;
            write(&pool, &mut group).await;
        }
        if let Some(done) = stop {
            let _ = done.send(());
            return;
        }
    }
}

pub(super) type Item = (String, MoveRow, Fence, Answer);

/// Writes a group in one transaction; if that fails, each move alone (so one bad move
/// fails only its own game), and answers each.
async fn write(pool: &AnyPool, group: &mut Vec<Item>) {
    if group.is_empty() {
        return;
    }
    if group.len() > 1 {
        if let Ok(written) = insert(pool, group).await {
            for ((_, _, _, answer), ok) in group.drain(..).zip(written) {
                let _ = answer.send(if ok { Ok(()) } else { Err(super::lease::fenced()) });
            }
            return;
        }
        tracing::warn!(moves = group.len(), "a group of moves failed to store; storing each alone");
    }
    for item in group.drain(..) {
        let r = match insert(pool, std::slice::from_ref(&item)).await {
            Ok(w) if w.first() == Some(&true) => Ok(()),
            Ok(_) => Err(super::lease::fenced()),
            Err(e) => Err(e.into()),
        };
        let _ = item.3.send(r);
    }
}

/// Writes the given moves in one transaction; which were written. In cluster mode (the
/// moves carry fences) the leases of their games are read and locked first, in the same
/// transaction, and only the moves whose lease still has this node and their token are
/// written: a takeover waits for the commit, and a stale owner writes nothing.
async fn insert(pool: &AnyPool, moves: &[Item]) -> Result<Vec<bool>, sqlx::Error> {
    let node = moves.iter().find_map(|(_, _, f, _)| f.as_ref().map(|(n, _)| n.as_str()));
    let Some(node) = node else {
        insert_rows(pool, moves.iter()).await?;
        return Ok(vec![true; moves.len()]);
    };
    let mut tx = pool.begin().await?;
    let mut sql =
        String::from("SELECT game_id FROM game_leases WHERE node = $1 AND free = 0 AND (game_id, token) IN (");
    super::push_tuples(&mut sql, moves.len(), 2, 2);
    sql.push_str(") FOR SHARE");
    let mut q = sqlx::query(&sql).bind(node);
    for (id, _, fence, _) in moves {
        q = q.bind(id.as_str()).bind(fence.as_ref().map_or(-1, |f| f.1));
    }
    let held: std::collections::HashSet<String> =
        q.fetch_all(&mut *tx).await?.iter().filter_map(|r| sqlx::Row::try_get(r, 0).ok()).collect();
    let written: Vec<bool> = moves.iter().map(|(id, ..)| held.contains(id)).collect();
    if written.iter().any(|w| *w) {
        insert_rows(&mut *tx, moves.iter().zip(&written).filter(|(_, w)| **w).map(|(m, _)| m)).await?;
    }
    tx.commit().await?;
    Ok(written)
}

/// One INSERT of the given moves.
async fn insert_rows<'a, 'c>(
    db: impl sqlx::Executor<'c, Database = sqlx::Any>,
    moves: impl Iterator<Item = &'a Item> + Clone,
) -> Result<(), sqlx::Error> {
    let n = moves.clone().count();
    let mut sql = String::from("INSERT INTO moves (game_id, ply, notation, clock_ms, at_ms, v) VALUES ");
    super::push_tuples(&mut sql, n, 6, 1);
    let mut q = sqlx::query(&sql);
    for (id, m, _, _) in moves {
        q = q.bind(id.as_str()).bind(m.ply).bind(m.notation.as_str()).bind(m.clock_ms).bind(m.at_ms).bind(m.v);
    }
    q.execute(db).await.map(|_| ())
}
