//! dama-server: the play server. One task owns each game in memory ([`game`]), loaded
//! on demand and unloaded when idle ([`registry`]); clients talk to it through HTTP
//! ([`api`]) and websockets ([`ws`]); games are stored with sqlx ([`store`]), SQLite by
//! default and PostgreSQL with the same code; clocks run on the server ([`clock`]) with
//! exact deadlines; engine work runs on a shared, bounded pool ([`pool`]).

pub mod api;
pub mod client;
pub mod clock;
pub mod error;
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub mod pool;
pub mod registry;
pub mod replay;
pub mod secret;
pub mod session;
pub mod store;
pub mod web;
pub mod ws;

use std::net::SocketAddr;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened or migrated.
    #[error("database: {0}")]
    Store(#[from] store::StoreError),
    /// The address could not be bound.
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
    /// Restoring the live games failed.
    #[error("restoring live games failed")]
    Restore,
    /// The server stopped with an error.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// Opens the store, restores live games, and returns the router and the state.
pub async fn app(database_url: &str) -> Result<(axum::Router, api::AppState, usize), ServeError> {
    let store = store::Store::connect(database_url).await?;
    let state = api::AppState::new(store);
    let restored = state.restore_live().await.map_err(|_| ServeError::Restore)?;
    Ok((api::router(state.clone()), state, restored))
}

/// Serves on `bind` until the process ends; `ready` hears the bound address.
pub async fn serve(
    bind: SocketAddr,
    database_url: &str,
    ready: impl FnOnce(SocketAddr, usize),
) -> Result<(), ServeError> {
    let (router, _, restored) = app(database_url).await?;
    let listener = tokio::net::TcpListener::bind(bind).await.map_err(|e| ServeError::Bind(bind, e))?;
    ready(listener.local_addr()?, restored);
    axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>()).await?;
    Ok(())
}
