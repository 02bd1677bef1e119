//! Cluster mode: several nodes behind one address, over one PostgreSQL database and a
//! NATS server. Each live game is owned by one node at a time, by a lease in the
//! database ([`crate::store::Leases`]) that the owner renews and whose fencing token
//! guards every write. Any node takes any request: for a game another node owns it asks
//! the owner over NATS ([`remote`]); the owner answers ([`owner`]) and publishes the
//! game's events, which every node's websockets hear. When a node dies its leases run
//! out and the other nodes take its games over from the database; a node that stops
//! (SIGTERM) hands its games over first ([`hand_over`]).
//!
//! Subjects, under the cluster's name (`dama` unless `--cluster-name` says otherwise, so
//! that several clusters can share a NATS server): `NAME.game.<id>.cmd` (requests to the
//! owner), `NAME.game.<id>.ev` (events), `NAME.shared` ([`shared`]) and
//! `NAME.engine.search` ([`engine`]).

pub mod engine;
mod link;
mod owner;
mod remote;
mod shared;
mod wire;

pub use link::{connect_nats, valid_node_id, Cluster, ClusterError, ClusterSetup};

use std::time::Duration;

pub use owner::serve;
pub use remote::{Feed, Remote};

use crate::game::now_ms;
use crate::state::Services;
use crate::store::Claim;

/// How long a node is taken for alive after its last heartbeat: a dead node's games
/// are taken over after this (and at most one sweep more).
pub const LEASE_MS: i64 = 2_500;
/// How often a node says it is alive (and checks which games it still holds).
pub const RENEW_EVERY: Duration = Duration::from_millis(700);
/// How often each node looks for games whose lease ran out.
pub const SWEEP_EVERY: Duration = Duration::from_millis(400);

/// Takes game `id` for this node if nobody else holds it: true if this node now holds
/// its lease (the caller restores it), false if another node's lease on it runs (or
/// this node is shutting down and takes nothing).
pub async fn claim(ctx: &Services, id: &str) -> Result<bool, crate::error::ApiError> {
    if ctx.cluster.is_none() {
        return Ok(true);
    }
    if ctx.shutting_down() {
        return Ok(false);
    }
    Ok(matches!(ctx.store.claim(id, now_ms()).await?, Claim::Mine(_)))
}

/// Starts the node's cluster duties: renewing its leases (and stopping the games whose
/// lease it lost), and taking over games whose lease ran out.
pub async fn start(ctx: &Services) -> Result<(), crate::store::StoreError> {
    if ctx.cluster.is_none() {
        return Ok(());
    }
    // A node starting again under its old id frees what it held before at once, then
    // says it is alive (before it claims any game).
    let freed = ctx.store.expire_mine().await?;
    ctx.store.renew(now_ms() + LEASE_MS).await?;
    if freed > 0 {
        tracing::info!(games = freed, "leases of this node's previous run freed");
    }
    if let Some(c) = &ctx.cluster {
        if let Err(e) = shared::start(ctx, c).await {
            tracing::error!(error = %e, "the lobby cannot hear the other nodes");
        }
        let jobs = engine::subject(&c.name);
        ctx.pool.use_cluster(c.nats.clone(), jobs.clone());
        if c.engine_worker {
            if let Err(e) = engine::work(c.nats.clone(), jobs, ctx.pool.clone()).await {
                tracing::error!(error = %e, "this node cannot take engine jobs");
            }
        }
    }
    tokio::spawn(renew(ctx.clone()));
    tokio::spawn(sweep(ctx.clone()));
    Ok(())
}

async fn renew(ctx: Services) {
    let Some(leases) = ctx.store.leases() else { return };
    let mut last_ok = tokio::time::Instant::now();
    let mut strays: Vec<(String, i64)> = Vec::new();
    let mut tick = tokio::time::interval(RENEW_EVERY);
    loop {
        tick.tick().await;
        if ctx.shutting_down() && leases.count() == 0 {
            return;
        }
        // Only leases held before the renewal are judged by its answer: one claimed
        // meanwhile may be missing from it.
        let before = leases.held();
        match ctx.store.renew(now_ms() + LEASE_MS).await {
            Ok(rows) => {
                last_ok = tokio::time::Instant::now();
                let in_db: std::collections::HashSet<(&str, i64)> =
                    rows.iter().map(|(i, t)| (i.as_str(), *t)).collect();
                for (id, token) in before {
                    if leases.token(&id) != Some(token) {
                        continue;
                    }
                    if !in_db.contains(&(id.as_str(), token)) {
                        tracing::warn!(game = %id, "lease lost to another node; stopping the game here");
                        give_up(&ctx, &id, token).await;
                    }
                }
                // A row of this node that it does not hold (a release that failed) is
                // freed once it was seen twice, so that a claim in flight is not taken.
                let now_strays: Vec<(String, i64)> =
                    rows.into_iter().filter(|(id, t)| leases.token(id) != Some(*t)).collect();
                for s in now_strays.iter().filter(|s| strays.contains(s)) {
                    let _ = ctx.store.release(&s.0, s.1, true).await;
                }
                strays = now_strays;
            }
            Err(e) => {
                tracing::error!(error = %crate::error::Chain(&e), "renewing leases");
                // Past the lease's term another node may own these games: stop them here
                // (their writes are refused by the fence anyway).
                if last_ok.elapsed() > Duration::from_millis(LEASE_MS as u64) {
                    for (id, token) in leases.held() {
                        give_up(&ctx, &id, token).await;
                    }
                }
            }
        }
    }
}

/// Forgets this node's lease on game `id` (another node may own it now) and stops the
/// game's task here.
async fn give_up(ctx: &Services, id: &str, token: i64) {
    if let Some(l) = ctx.store.leases() {
        l.forget(id, token);
    }
    if let Some(h) = ctx.games.running(id) {
        h.stop().await;
    }
}

async fn sweep(ctx: Services) {
    let mut tick = tokio::time::interval(SWEEP_EVERY);
    loop {
        tick.tick().await;
        if ctx.shutting_down() {
            return;
        }
        let ids = match ctx.store.expired(now_ms(), 64).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %crate::error::Chain(&e), "looking for games to take over");
                continue;
            }
        };
        // An event's lease is taken by its director, not here.
        for id in ids.into_iter().filter(|id| !id.starts_with(crate::store::EVENT_LEASE)) {
            match ctx.game(&id).await {
                Ok(h) if !h.is_remote() => tracing::info!(game = %id, "game taken over"),
                Ok(_) => {}
                Err(e) => tracing::warn!(game = %id, error = %e, "taking a game over"),
            }
        }
    }
}

/// Hands every game of this node over (a drain before it stops): each game's task
/// ends once the commands before are done, its lease is left expired, and the other
/// nodes take it over within a sweep. Waits up to `most` for the leases to go.
pub async fn hand_over(ctx: &Services, most: Duration) {
    let Some(leases) = ctx.store.leases() else { return };
    // The events this node directs go at once: their directors run on every node.
    for (id, token) in leases.held().into_iter().filter(|(id, _)| id.starts_with(crate::store::EVENT_LEASE)) {
        let _ = ctx.store.release(&id, token, true).await;
    }
    let held = leases.held();
    tracing::info!(games = held.len(), "handing games over to the other nodes");
    for (id, _) in &held {
        if let Some(h) = ctx.games.running(id) {
            h.stop().await;
        }
    }
    let until = tokio::time::Instant::now() + most;
    while leases.count() > 0 && tokio::time::Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Whatever is still held (a task that did not end in time, a claim whose restore
    // failed) is left expired for another node.
    for (id, token) in leases.held() {
        let _ = ctx.store.release(&id, token, true).await;
    }
    tracing::info!(games = held.len(), "games handed over");
}
