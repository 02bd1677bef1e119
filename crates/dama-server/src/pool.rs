//! The engine pool: a few searchers shared by every game (engine moves, hints, the
//! arbiter), sized to the machine's cores. A game holds no engine of its own, so an idle
//! game against the computer costs no more memory than any other.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dama_core::any::AnyGame;
use dama_core::Variant;
use dama_engine::level::Level;
use dama_engine::player::{player, LinesReport, Player};
use dama_engine::search::Limits;

use crate::fair::{FairGate, FairPermit};

/// Megabytes of transposition table per searcher.
pub const TT_MB: usize = 16;

/// Optional jobs one client may have waiting for a searcher.
pub const WAITING_PER_CLIENT: usize = 4;

/// Why the pool did not run a job.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// Too many jobs are waiting already (only optional jobs, such as hints, are refused).
    #[error("the engine is busy; please try again in a moment")]
    Busy,
    /// The job could not be set up or failed.
    #[error("the engine could not search this position")]
    Failed,
}

/// A search to run: the game so far, the limits and the level.
#[derive(Clone, Debug)]
pub struct SearchJob {
    /// The game searched for (for the log).
    pub game: String,
    /// What the search is for: `move`, `hint` or `draw offer` (for the log).
    pub purpose: &'static str,
    /// The game so far (a searcher of this process takes its moves as played; the
    /// cluster's workers get its start and moves as text).
    pub record: AnyGame,
    /// Time and depth limits.
    pub limits: Limits,
    /// Playing level.
    pub level: Level,
    /// An engine move on a clock: the time it waits for a searcher is its own time
    /// running, so it is taken off the limits when the search starts.
    pub on_clock: bool,
}

/// Searchers shared by all games; at most `size` jobs run at once and at most `size`
/// searchers exist.
pub struct EnginePool {
    /// In cluster mode: searches go to the cluster's workers.
    cluster: std::sync::OnceLock<(async_nats::Client, String)>,
    /// Permits to search, handed out round robin by client ([`FairGate`]).
    gate: Arc<FairGate>,
    idle: Mutex<Vec<Box<dyn Player>>>,
    /// For tests: while set, every search fails ([`EnginePool::fail_searches`]).
    failing: AtomicBool,
    /// For tests: every search first waits this many milliseconds.
    delay_ms: std::sync::atomic::AtomicU64,
    size: usize,
    max_waiting: usize,
}

/// Sets `stop` when dropped: a job whose caller went away (a game unloaded, a request
/// cancelled) stops searching.
pub struct StopOnDrop(pub Arc<AtomicBool>);
impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl EnginePool {
    /// A pool of `size` searchers; optional jobs are refused when `max_waiting` wait.
    pub fn new(size: usize, max_waiting: usize) -> Arc<EnginePool> {
        let size = size.max(1);
        Arc::new(EnginePool {
            cluster: std::sync::OnceLock::new(),
            gate: FairGate::new(size),
            idle: Mutex::new(Vec::new()),
            failing: AtomicBool::new(false),
            delay_ms: std::sync::atomic::AtomicU64::new(0),
            size,
            max_waiting,
        })
    }

    /// For tests: makes every search fail (`true`) or work again, as a lost engine
    /// worker would.
    #[doc(hidden)]
    pub fn fail_searches(&self, failing: bool) {
        self.failing.store(failing, Ordering::Relaxed);
    }

    /// For tests: makes every search first wait `ms` milliseconds (0: none), so that a
    /// test can be sure two requests overlap.
    #[doc(hidden)]
    pub fn delay_searches(&self, ms: u64) {
        self.delay_ms.store(ms, Ordering::Relaxed);
    }

    /// How many searchers can run at once.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Jobs waiting for a searcher now.
    pub fn waiting(&self) -> usize {
        self.gate.waiting()
    }

    /// Jobs of other clients than `client` waiting now.
    pub fn others_waiting(&self, client: &str) -> usize {
        self.gate.others_waiting(client)
    }

    /// Searchers in memory now (idle ones; busy ones are held by their jobs).
    pub fn idle_searchers(&self) -> usize {
        self.idle.lock().map(|v| v.len()).unwrap_or(0)
    }

    /// A permit to run for `client`, in its turn among the clients waiting; held by
    /// the blocking task itself (so a cancelled caller never lets more than `size`
    /// searches run).
    ///
    /// Optional jobs are refused when no searcher is free and their client has
    /// [`WAITING_PER_CLIENT`] waiting already, or has one waiting and `max_waiting`
    /// wait in all: a client with nothing waiting always gets a place in the queue,
    /// however many others fill it.
    async fn permit(&self, client: &str, optional: bool) -> Result<FairPermit, PoolError> {
        if optional && self.gate.free() == 0 {
            let mine = self.gate.waiting_of(client);
            if mine >= WAITING_PER_CLIENT || (mine > 0 && self.waiting() >= self.max_waiting) {
                return Err(PoolError::Busy);
            }
        }
        Ok(self.gate.acquire(client).await)
    }

    /// Sends searches to the cluster's workers from now on ([`crate::cluster`]).
    pub fn use_cluster(&self, nats: async_nats::Client, subject: String) {
        let _ = self.cluster.set((nats, subject));
    }

    /// Runs a search and returns the move chosen and its score for the side to move:
    /// on a worker of the cluster in cluster mode (here when none listens), else here.
    /// `optional` jobs (hints) are refused when the queue is long; engine moves wait.
    pub async fn search(
        self: &Arc<Self>,
        job: SearchJob,
        stop: Arc<AtomicBool>,
        optional: bool,
    ) -> Result<Option<(String, i32)>, PoolError> {
        if self.failing.load(Ordering::Relaxed) {
            return Err(PoolError::Failed);
        }
        let delay = self.delay_ms.load(Ordering::Relaxed);
        if delay > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
        }
        if let Some((nats, subject)) = self.cluster.get() {
            if let Some(done) = crate::cluster::engine::search(nats, subject, &job, optional).await {
                return done;
            }
        }
        self.search_here(job, stop, optional).await
    }

    /// Runs a search on a searcher of this process.
    pub async fn search_here(
        self: &Arc<Self>,
        job: SearchJob,
        stop: Arc<AtomicBool>,
        optional: bool,
    ) -> Result<Option<(String, i32)>, PoolError> {
        let (game, purpose, variant, level) = (job.game.clone(), job.purpose, job.record.variant(), job.level.number);
        let started = std::time::Instant::now();
        let (limits, level_of, record, on_clock) = (job.limits, job.level, job.record, job.on_clock);
        let set = move |p: &mut dyn Player| p.set_game(&record);
        let d = self
            .on_searcher(&game, optional, variant, set, move |engine| {
                let limits = if on_clock { limits.less(started.elapsed()) } else { limits };
                let started = std::time::Instant::now();
                let d = engine.think(limits, level_of, &stop, &mut |_| {});
                crate::metrics::seconds("dama_engine_search_seconds", started.elapsed());
                d
            })
            .await?;
        let ms = started.elapsed().as_millis() as u64;
        tracing::info!(
            game = %game, purpose, variant = %variant, level, ms, nodes = d.nodes, depth = d.depth, score = d.score,
            best = d.best.as_deref().unwrap_or("-"), "engine search"
        );
        Ok(d.best.map(|m| (m, d.score)))
    }

    /// Jobs running now.
    pub fn running(&self) -> usize {
        self.size - self.gate.free()
    }

    /// True when every searcher is busy (a new job would wait).
    pub fn busy(&self) -> bool {
        self.gate.free() == 0
    }

    /// Runs `work` on a searcher of this process once `set` has set its position, on
    /// the blocking pool, once a permit is free (`optional` work is refused when the
    /// queue is long); the searcher goes back to the pool after.
    async fn on_searcher<T: Send + 'static>(
        self: &Arc<Self>,
        client: &str,
        optional: bool,
        variant: Variant,
        set: impl FnOnce(&mut dyn Player) -> Result<(), String> + Send + 'static,
        work: impl FnOnce(&mut dyn Player) -> T + Send + 'static,
    ) -> Result<T, PoolError> {
        let permit = self.permit(client, optional).await?;
        let mut engine = self.take(variant);
        let pool = self.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let out = match set(engine.as_mut()) {
                Ok(()) => Ok(work(engine.as_mut())),
                Err(_) => Err(PoolError::Failed),
            };
            pool.give_back(engine);
            out
        })
        .await
        .map_err(|_| PoolError::Failed)?
    }

    /// Runs `work` for `client` (an address, an account, a background job's name) on
    /// a searcher of this process (never the cluster's) set to the position after
    /// `moves` from `fen`: optional work, refused when the queue is long, waiting its
    /// client's turn; work stopped while it waits never runs (`None`).
    pub async fn with_searcher<T: Send + 'static>(
        self: &Arc<Self>,
        client: &str,
        variant: Variant,
        fen: String,
        moves: Vec<String>,
        stop: Arc<AtomicBool>,
        work: impl FnOnce(&mut dyn Player, &AtomicBool) -> T + Send + 'static,
    ) -> Result<Option<T>, PoolError> {
        let set = move |p: &mut dyn Player| p.set_position(Some(&fen), &moves);
        self.on_searcher(client, true, variant, set, move |p| (!stop.load(Ordering::Relaxed)).then(|| work(p, &stop)))
            .await
    }

    /// Analyses a position (the FEN, then `moves`) for its best `lines` moves
    /// ([`Self::with_searcher`]); `report` hears of each finished depth, on the
    /// searcher's thread.
    #[allow(clippy::too_many_arguments)]
    pub async fn analyse(
        self: &Arc<Self>,
        client: &str,
        variant: Variant,
        fen: String,
        moves: Vec<String>,
        lines: usize,
        limits: Limits,
        stop: Arc<AtomicBool>,
        mut report: impl FnMut(&LinesReport) + Send + 'static,
    ) -> Result<(), PoolError> {
        self.with_searcher(client, variant, fen, moves, stop, move |p, stop| {
            p.analyse(limits, lines, stop, &mut report)
        })
        .await
        .map(|_| ())
    }

    /// Runs other engine work (the arbiter's search) under the same limit.
    pub async fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Result<T, PoolError> {
        let permit = self.permit("arbiter", false).await?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            f()
        })
        .await
        .map_err(|_| PoolError::Failed)
    }

    /// An idle searcher of `variant`, or a new one (an idle searcher of another
    /// variant is dropped first, so there are never more than `size`).
    fn take(&self, variant: Variant) -> Box<dyn Player> {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = idle.iter().position(|p| p.variant() == variant) {
            return idle.swap_remove(i);
        }
        if !idle.is_empty() {
            idle.remove(0);
        }
        drop(idle);
        let mut p = player(variant, TT_MB, None, rand::random());
        // The top levels open from the book, with variety from game to game.
        p.set_book(true);
        p
    }

    fn give_back(&self, engine: Box<dyn Player>) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() >= self.size {
            idle.remove(0);
        }
        idle.push(engine);
    }
}

/// Limits for a fixed thinking time.
pub fn move_time(t: Duration) -> Limits {
    dama_engine::time::limits(dama_engine::time::Clock::MoveTime(t))
}

impl From<PoolError> for crate::error::ApiError {
    /// A busy pool asks the client to come back; a failed search is an internal error.
    fn from(e: crate::pool::PoolError) -> Self {
        match e {
            PoolError::Busy => crate::error::ApiError::TooMany(e.to_string()),
            PoolError::Failed => {
                tracing::error!(error = %crate::error::Chain(&e), "engine pool");
                crate::error::ApiError::Internal
            }
        }
    }
}
