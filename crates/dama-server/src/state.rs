//! The server's one bag of shared services: every part of the server (the routes, the
//! games' tasks, the cluster, DXP, the bots) holds a [`Services`] and finds there the
//! store, the games in memory, the engine pools, the limits and their counters, the
//! lobby, the news of games and the other nodes. A new service is one more field here.

use std::net::IpAddr;
use std::ops::Deref;
use std::sync::Arc;

use tokio::sync::{watch, Semaphore};

use crate::error::ApiError;
use crate::limits::{Holds, Limits, RateLimiter};
use crate::pool::EnginePool;
use crate::services::registry::Registry;
use crate::services::replay_gate::ReplayGate;
use crate::store::Store;

/// The services, shared: cheap to clone (one pointer).
#[derive(Clone)]
pub struct Services(Arc<Shared>);

impl Deref for Services {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What [`Services`] holds.
pub struct Shared {
    /// The database.
    pub store: Store,
    /// The games in memory.
    pub games: Registry,
    /// The games' engine pool (engine moves, hints, the arbiter).
    pub pool: Arc<EnginePool>,
    /// The analysis board's searchers, apart from the games' (game reports and puzzle
    /// scans too).
    pub analysis: Arc<EnginePool>,
    /// The limits this server keeps.
    pub limits: Arc<Limits>,
    /// When this server started, ms since the epoch (a turn that began earlier was
    /// interrupted by a restart, and gets a grace on the clock).
    pub started_ms: i64,
    /// Loads from the store running at once (a flood of unknown ids waits here, not on
    /// the database's connections).
    pub(crate) loads: Semaphore,
    /// When the server began to shut down (none while it runs): websockets then tell
    /// their clients to reconnect (elsewhere, or here after the restart) and close.
    shutdown: watch::Sender<Option<std::time::Instant>>,
    /// Held while a finished game's ratings are updated, so that two games ending at
    /// once for one player never start from the same rating.
    pub rating: tokio::sync::Mutex<()>,
    /// The open games waiting for an opponent, as seeks.
    pub lobby: crate::lobby::Lobby,
    /// The event streams of programs playing for accounts (the bot API).
    pub bots: crate::services::account_events::AccountEvents,
    /// The other nodes, in cluster mode.
    pub cluster: Option<Arc<crate::cluster::Cluster>>,
    /// Finished games waiting to be counted into the opening explorer.
    pub explorer: crate::services::explorer_counts::Queue,
    /// The news of games starting and ending, for whatever follows them.
    pub news: crate::services::news::News,
    /// New games per address and minute (over HTTP and DamExchange alike).
    pub new_games: RateLimiter,
    /// Requests to /api per address.
    pub(crate) requests: RateLimiter,
    /// Puzzle attempts that move puzzles' ratings, per address.
    pub(crate) puzzle_attempts: RateLimiter,
    /// Sign-ups and log-ins.
    pub(crate) logins: crate::services::logins::LoginLimits,
    /// The password hasher, bounded for the whole server.
    pub hasher: Arc<crate::passwords::Hasher>,
    /// PDN replays running and waiting.
    pub(crate) replay: ReplayGate,
    /// Game reports under way.
    pub(crate) reports: Arc<crate::services::reports::Reports>,
    /// Analysis sockets open, by address and by account.
    pub(crate) analysis_sockets: Holds<String>,
    /// The accounts' live sockets (`/api/me/ws`), by account.
    pub(crate) inbox_sockets: Holds<String>,
    /// Web Push: the server's VAPID key once read or made, and its HTTPS client
    /// ([`crate::push`]).
    pub(crate) push: crate::push::PushState,
    /// The events whose games ended, for the tournament director.
    pub pokes: crate::services::pokes::Pokes,
}

impl Services {
    /// The services over a store, bounded by `limits` (the engine pools' sizes among
    /// them), as a node of `cluster` when given (its store must hold leases:
    /// [`Store::for_node`]).
    pub fn new(store: Store, limits: Limits, cluster: Option<Arc<crate::cluster::Cluster>>) -> Services {
        let per = |n| RateLimiter::new(n);
        Services(Arc::new(Shared {
            explorer: crate::services::explorer_counts::Queue::start(store.clone()),
            store,
            games: Registry::default(),
            pool: EnginePool::new(limits.engine_threads(), limits.engine_queue()),
            analysis: EnginePool::new(limits.analysis_threads(), limits.analysis_queue()),
            started_ms: crate::clock::now_ms(),
            loads: Semaphore::new(4),
            shutdown: watch::channel(None).0,
            rating: Default::default(),
            lobby: Default::default(),
            bots: Default::default(),
            cluster,
            news: Default::default(),
            new_games: per(limits.games_per_minute()),
            requests: per(limits.requests_per_minute()),
            puzzle_attempts: per(limits.puzzle_attempts_per_minute()),
            logins: crate::services::logins::LoginLimits::new(limits.logins_per_minute()),
            hasher: crate::passwords::Hasher::new(
                limits.password_hashes(),
                std::time::Duration::from_millis(limits.password_wait_ms()),
            ),
            replay: ReplayGate::for_machine(),
            reports: Default::default(),
            analysis_sockets: Default::default(),
            inbox_sockets: Default::default(),
            push: Default::default(),
            pokes: Default::default(),
            limits: Arc::new(limits),
        }))
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The analysis board's engine pool (analyses, game reports, puzzle scans).
    pub fn analysis_pool(&self) -> &Arc<EnginePool> {
        &self.analysis
    }

    /// Analysis-board searches running now.
    pub fn analyses_running(&self) -> usize {
        self.analysis.running()
    }

    /// Loads the live games whose clocks run (after a restart); the others load when
    /// asked for.
    pub async fn restore_live(&self) -> Result<usize, ApiError> {
        self.restore_timed().await
    }

    /// Takes one of `ip`'s new games for the minute, or says it has had its share.
    pub fn allow_new_game(&self, ip: IpAddr) -> Result<(), ApiError> {
        if self.new_games.allow(ip) {
            return Ok(());
        }
        let per_minute = self.limits.games_per_minute();
        Err(ApiError::TooMany(format!("too many new games from your address ({per_minute} a minute at most)")))
    }

    /// Starts the shutdown (once): every websocket closes with "restarting, reconnect".
    pub fn begin_shutdown(&self) {
        self.shutdown.send_if_modified(|began| {
            let first = began.is_none();
            if first {
                *began = Some(std::time::Instant::now());
            }
            first
        });
    }

    /// Whether the shutdown has begun.
    pub fn shutting_down(&self) -> bool {
        self.shutdown.borrow().is_some()
    }

    /// When the shutdown began, if it has.
    pub fn shutdown_began(&self) -> Option<std::time::Instant> {
        *self.shutdown.borrow()
    }

    /// Completes when the shutdown begins.
    pub async fn until_shutdown(&self) {
        let mut rx = self.shutdown.subscribe();
        // The sender lives as long as `self`: waiting cannot fail.
        let _ = rx.wait_for(Option::is_some).await;
    }
}
