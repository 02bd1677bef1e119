//! dama-server: the play server. One task owns each game in memory ([`game`]), loaded
//! on demand and unloaded when idle ([`registry`]); clients talk to it through HTTP
//! ([`api`]) and websockets ([`ws`]); games are stored with sqlx ([`store`]), SQLite by
//! default and PostgreSQL with the same code; clocks run on the server ([`clock`]) with
//! exact deadlines; engine work runs on a shared, bounded pool ([`pool`]).

pub mod accounts;
pub mod analysis;
pub mod assets;
pub mod bot;
pub mod challenges;
pub mod client;
pub mod clock;
pub mod cluster;
pub mod csrf;
pub mod dxp;
pub mod error;
pub mod explorer;
pub mod extract;
pub mod fair;
pub mod follows;
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub mod games_api;
pub mod invalid;
pub mod leaderboard;
pub mod learn;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod middleware;
pub mod moderation;
pub mod my_games;
pub mod news;
pub mod notify;
pub mod passwords;
pub mod players;
pub mod pool;
pub mod protocol;
pub mod push;
pub mod puzzles;
pub mod rating;
pub mod rating_pool;
pub mod read_notes;
pub mod registry;
pub mod replay;
pub mod report;
pub mod round;
mod routes;
pub mod secret;
pub mod seeks;
pub mod services;
pub mod state;
pub mod store;
pub mod sweep;
#[doc(hidden)]
pub mod testing;
pub mod tournaments;
pub mod web;
pub mod ws;

use std::net::SocketAddr;
use std::time::Duration;

pub use cluster::ClusterSetup;
pub use limits::Limits;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened or migrated.
    #[error("database: {0}")]
    Store(#[from] store::StoreError),
    /// The cluster could not be joined.
    #[error("cluster: {0}")]
    Cluster(#[from] cluster::ClusterError),
    /// The address could not be bound.
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
    /// Restoring the live games failed.
    #[error("restoring live games failed")]
    Restore,
    /// The metrics could not be set up.
    #[error("{0}")]
    Metrics(#[from] metrics::MetricsError),
    /// The server stopped with an error.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// Opens the store, restores live games, and returns the router and the state.
pub async fn app(database_url: &str, limits: Limits) -> Result<(axum::Router, state::Services, usize), ServeError> {
    app_in(database_url, limits, None).await
}

/// [`app`], as a node of a cluster when `cluster` is given ([`cluster`]).
pub async fn app_in(
    database_url: &str,
    limits: Limits,
    cluster: Option<ClusterSetup>,
) -> Result<(axum::Router, state::Services, usize), ServeError> {
    let mut store = store::Store::connect(database_url).await?;
    let mut link = None;
    if let Some(c) = &cluster {
        link = Some(cluster::Cluster::connect(c, database_url).await?);
        store = store.for_node(&c.node);
    }
    let state = state::Services::new(store, limits, link.clone());
    if let Some(l) = link {
        tracing::info!(node = %l.node, "joined the cluster");
        cluster::start(&state).await?;
    }
    // What follows games (the explorer, the bot API) listens to their news.
    news::start_listeners(&state);
    notify::listeners::start(&state);
    tournaments::results::start(&state);
    tournaments::director::start(&state);
    sweep::start(&state);
    let restored = state.restore_live().await.map_err(|_| ServeError::Restore)?;
    if state.limits.explorer_bundled() {
        tokio::spawn(explorer::load_bundled(state.store.clone()));
    }
    if state.limits.puzzles_bundled() {
        let nodes = state.limits.puzzle_nodes();
        tokio::spawn(puzzles::scan_bundled(state.analysis.clone(), state.store.clone(), nodes));
    }
    Ok((routes::router(state.clone()), state, restored))
}

/// Where and how a server runs: what `dama serve`'s settings give [`serve`].
pub struct Setup {
    /// The address to listen on.
    pub bind: SocketAddr,
    /// `sqlite:FILE` or `postgres://...`.
    pub database_url: String,
    /// Where to serve Prometheus metrics, if anywhere.
    pub metrics: Option<SocketAddr>,
    /// Where International engines connect by DamExchange, if anywhere.
    pub dxp: Option<SocketAddr>,
    /// The cluster to join, if any.
    pub cluster: Option<ClusterSetup>,
    /// The limits.
    pub limits: Limits,
    /// The events the server makes on a schedule ([`tournaments::schedule`]).
    pub tournaments: Vec<tournaments::schedule::Schedule>,
}

/// Serves as `setup` says until `stop` completes, then shuts down gracefully ([`run`]);
/// `ready` hears the bound address and how many live games were restored. With
/// `setup.metrics`, Prometheus metrics are served there at `/metrics` ([`metrics`]).
pub async fn serve(
    setup: Setup,
    ready: impl FnOnce(SocketAddr, usize),
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let Setup { bind, database_url, metrics, dxp, cluster, limits, tournaments } = setup;
    // The recorder first, so that restoring the games is counted too.
    let handle = metrics.map(|_| metrics::install()).transpose()?;
    let (router, state, restored) = app_in(&database_url, limits, cluster).await?;
    tournaments::schedule::start(&state, tournaments);
    let listener = tokio::net::TcpListener::bind(bind).await.map_err(|e| ServeError::Bind(bind, e))?;
    if let (Some(addr), Some(handle)) = (metrics, handle) {
        let l = tokio::net::TcpListener::bind(addr).await.map_err(|e| metrics::MetricsError::Bind(addr, e))?;
        tracing::info!(addr = %l.local_addr()?, "metrics at /metrics");
        let ctx = state.clone();
        let stopping = ctx.clone();
        let stopped = async move { stopping.until_shutdown().await };
        tokio::spawn(async move {
            if let Err(e) = metrics::serve(l, handle, ctx, stopped).await {
                tracing::error!(error = %error::Chain(&e), "metrics listener");
            }
        });
    }
    if let Some(addr) = dxp {
        let l = tokio::net::TcpListener::bind(addr).await.map_err(|e| ServeError::Bind(addr, e))?;
        tracing::info!(addr = %l.local_addr()?, "DXP engines connect here");
        tokio::spawn(dxp::serve(l, state.clone()));
    }
    ready(listener.local_addr()?, restored);
    run(listener, router, state, stop, SHUTDOWN_GRACE).await
}

/// How long a shutdown waits for requests and connections to finish before it closes
/// the database anyway.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serves on `listener` until `stop` completes. Then: no new connection is accepted,
/// every websocket is told to reconnect (close code 1012) and closed, requests in flight
/// finish (a move is stored before it is answered, so every answered move is kept), and
/// the database is closed once its connections are back; all within `grace` (after it,
/// whatever is still open is dropped, and the store, which answered nothing unstored,
/// still holds every acknowledged move).
pub async fn run(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    state: state::Services,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> Result<(), ServeError> {
    let ctx = state.clone();
    let begin = ctx.clone();
    // Small frames go out at once (without it, a frame sent while an earlier one waits
    // for its acknowledgement is held back, up to 40 ms with delayed ACKs).
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let server = axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(async move {
            stop.await;
            tracing::info!("shutting down: closing websockets, finishing requests");
            begin.begin_shutdown();
            // In a cluster the games go to the other nodes now; requests still in
            // flight here reach them there.
            cluster::hand_over(&begin, grace / 2).await;
        });
    tokio::select! {
        r = server => r?,
        _ = async {
            ctx.until_shutdown().await;
            tokio::time::sleep(grace).await;
        } => tracing::warn!(grace_ms = grace.as_millis() as u64, "connections still open after the grace period; closing"),
    }
    ctx.store.close().await;
    let ms = ctx.shutdown_began().map_or(0, |t| t.elapsed().as_millis() as u64);
    tracing::info!(ms, "stopped");
    Ok(())
}

/// Completes on SIGINT (Ctrl-C) or, on Unix, SIGTERM. The handlers are in place when
/// this returns (not at the future's first poll), so a signal sent as soon as the server
/// answers is never met by the default action. Call it inside the runtime.
pub fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (int, term) = (signal(SignalKind::interrupt()).ok(), signal(SignalKind::terminate()).ok());
        async move {
            let wait = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                _ = wait(int) => tracing::info!("SIGINT"),
                _ = wait(term) => tracing::info!("SIGTERM"),
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("SIGINT");
    }
}
