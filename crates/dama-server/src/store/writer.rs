//! Group commit for moves: every game's moves go through one writer task, which inserts
//! all the moves waiting at that moment with one statement (one commit), then answers
//! each game. Nothing waits on purpose: a lone move is written at once, and under load
//! the moves that arrive while a write runs form the next group. A move is still
//! acknowledged only once it is stored.

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::{MoveRow, StoreError};

/// The most moves written by one statement (6 parameters each stays far below SQLite's
/// oldest limit of 999 parameters).
const MAX_GROUP: usize = 128;

type Answer = oneshot::Sender<Result<(), sqlx::Error>>;

enum Job {
    Move(String, MoveRow, Answer),
    /// Write what came before, then end.
    Stop(oneshot::Sender<()>),
}

/// The handle of the writer task.
#[derive(Clone)]
pub(super) struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    /// Starts the writer over `pool`.
    pub(super) fn start(pool: AnyPool) -> Writer {
        let (jobs, rx) = mpsc::channel(4096);
        tokio::spawn(run(pool, rx));
        Writer { jobs }
    }

    /// Stores a move of game `id`; returns once it is stored.
    pub(super) async fn add(&self, id: &str, m: &MoveRow) -> Result<(), StoreError> {
        let (answer, stored) = oneshot::channel();
        self.jobs.send(Job::Move(id.to_string(), m.clone(), answer)).await.map_err(|_| closed())?;
        Ok(stored.await.map_err(|_| closed())??)
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

async fn run(pool: AnyPool, mut jobs: mpsc::Receiver<Job>) {
    let mut group: Vec<(String, MoveRow, Answer)> = Vec::with_capacity(MAX_GROUP);
    while let Some(job) = jobs.recv().await {
        let mut stop = None;
        let mut next = Some(job);
        while let Some(job) = next.take() {
            match job {
                Job::Move(id, m, answer) => group.push((id, m, answer)),
                Job::Stop(done) => {
                    stop = Some(done);
                    break;
                }
            }
            if group.len() < MAX_GROUP {
                next = jobs.try_recv().ok();
            }
        }
        if group.len() > 1 {
            metrics::histogram!("dama_move_group_size").record(group.len() as f64);
        }
        write(&pool, &mut group).await;
        if let Some(done) = stop {
            let _ = done.send(());
            return;
        }
    }
}

/// Writes a group with one statement; if that fails, each move alone (so one bad move
/// fails only its own game), and answers each.
async fn write(pool: &AnyPool, group: &mut Vec<(String, MoveRow, Answer)>) {
    if group.is_empty() {
        return;
    }
    if group.len() > 1 {
        if insert(pool, group.iter().map(|(id, m, _)| (id.as_str(), m))).await.is_ok() {
            for (_, _, answer) in group.drain(..) {
                let _ = answer.send(Ok(()));
            }
            return;
        }
        tracing::warn!(moves = group.len(), "a group of moves failed to store; storing each alone");
    }
    for (id, m, answer) in group.drain(..) {
        let _ = answer.send(insert(pool, std::iter::once((id.as_str(), &m))).await);
    }
}

/// One INSERT of the given moves.
async fn insert<'a>(
    pool: &AnyPool,
    moves: impl Iterator<Item = (&'a str, &'a MoveRow)> + Clone,
) -> Result<(), sqlx::Error> {
    let n = moves.clone().count();
    let mut sql = String::from("INSERT INTO moves (game_id, ply, notation, clock_ms, at_ms, v) VALUES ");
    for i in 0..n {
        let b = 6 * i;
        if i > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!("(${}, ${}, ${}, ${}, ${}, ${})", b + 1, b + 2, b + 3, b + 4, b + 5, b + 6));
    }
    let mut q = sqlx::query(&sql);
    for (id, m) in moves {
        q = q.bind(id).bind(m.ply).bind(m.notation.as_str()).bind(m.clock_ms).bind(m.at_ms).bind(m.v);
    }
    q.execute(pool).await.map(|_| ())
}
