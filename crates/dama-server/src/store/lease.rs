//! Leases of games to nodes (cluster mode): one row per game owned by a node, with a
//! fencing token that grows with every new owner, and one row per node saying until when
//! it is alive (the node pushes it forward; a lease holds while its node is alive). Every
//! move and state the owner writes is conditioned on its token in the same transaction,
//! which locks the lease row, so a node that lost a game can never write to it.
//! The heartbeat is one row per node: renewing it never waits for the games' writes.

use std::collections::HashMap;
use std::sync::Mutex;

use sqlx::Row;

use super::{Store, StoreError};

/// The leases this node holds: game id to fencing token.
#[derive(Debug)]
pub struct Leases {
    /// This node's id.
    pub node: String,
    held: Mutex<HashMap<String, i64>>,
}

impl Leases {
    /// No lease held yet, for node `node`.
    pub fn new(node: &str) -> Leases {
        Leases { node: node.to_string(), held: Mutex::default() }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The token held for game `id`, if this node holds it.
    pub fn token(&self, id: &str) -> Option<i64> {
        self.map().get(id).copied()
    }

    /// The games held now.
    pub fn held(&self) -> Vec<(String, i64)> {
        self.map().iter().map(|(k, v)| (k.clone(), *v)).collect()
    }

    /// How many games this node holds.
    pub fn count(&self) -> usize {
        self.map().len()
    }

    fn hold(&self, id: &str, token: i64) {
        self.map().insert(id.to_string(), token);
    }

    /// Forgets game `id` if it is still held with `token`; true if it was.
    pub fn forget(&self, id: &str, token: i64) -> bool {
        let mut m = self.map();
        if m.get(id) == Some(&token) {
            m.remove(id);
            true
        } else {
            false
        }
    }
}

/// The prefix of a tournament's lease key (`tournament:<id>`): an event's director
/// holds it ([`crate::tournaments::director`]); it is not a game to take over.
pub const EVENT_LEASE: &str = "tournament:";

/// Who owns a game after a claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// This node, with this fencing token.
    Mine(i64),
    /// Another node, whose lease runs.
    Theirs(String),
}

/// The error of a write refused because this node no longer holds the game's lease.
pub(super) fn fenced() -> StoreError {
    StoreError::from(sqlx::Error::Protocol("this node no longer holds the game's lease".into()))
}

impl Store {
    /// The leases of this node, in cluster mode.
    pub fn leases(&self) -> Option<&Leases> {
        self.leases.as_deref()
    }

    /// The fence of game `id`'s writes: none in single-node mode; in cluster mode this
    /// node and its token, or an error when this node does not hold the game.
    pub(super) fn fence(&self, id: &str) -> Result<Option<(&str, i64)>, StoreError> {
        let Some(l) = self.leases.as_deref() else { return Ok(None) };
        let token = l.token(id).ok_or_else(fenced)?;
        Ok(Some((l.node.as_str(), token)))
    }

    /// Takes game `id` for this node unless it is owned by another node alive at
    /// `now_ms` (and not handed over); the token is one above the previous owner's.
    pub async fn claim(&self, id: &str, now_ms: i64) -> Result<Claim, StoreError> {
        let Some(l) = self.leases.as_deref() else { return Ok(Claim::Mine(0)) };
        let row = sqlx::query(
            "INSERT INTO game_leases (game_id, node, token, free) VALUES ($1, $2, 1, 0) \
             ON CONFLICT (game_id) DO UPDATE SET node = $2, token = game_leases.token + 1, free = 0 \
             WHERE game_leases.free = 1 OR NOT EXISTS (SELECT 1 FROM cluster_nodes n \
             WHERE n.node = game_leases.node AND n.alive_until_ms >= $3) RETURNING token",
        )
        .bind(id)
        .bind(l.node.as_str())
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        if let Some(r) = row {
            let token: i64 = r.try_get(0)?;
            l.hold(id, token);
            return Ok(Claim::Mine(token));
        }
        let owner = sqlx::query("SELECT node FROM game_leases WHERE game_id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .map(|r| r.try_get::<String, _>(0))
            .transpose()?;
        Ok(Claim::Theirs(owner.unwrap_or_default()))
    }

    /// Says this node is alive until `until_ms`; returns the games and tokens the
    /// database says this node holds.
    pub async fn renew(&self, until_ms: i64) -> Result<Vec<(String, i64)>, StoreError> {
        let Some(l) = self.leases.as_deref() else { return Ok(Vec::new()) };
        sqlx::query(
            "INSERT INTO cluster_nodes (node, alive_until_ms) VALUES ($1, $2) \
             ON CONFLICT (node) DO UPDATE SET alive_until_ms = $2",
        )
        .bind(l.node.as_str())
        .bind(until_ms)
        .execute(&self.pool)
        .await?;
        let rows = sqlx::query("SELECT game_id, token FROM game_leases WHERE node = $1 AND free = 0")
            .bind(l.node.as_str())
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).collect()
    }

    /// Gives game `id` up: its lease row goes if `token` is still the one there. With
    /// `handover`, the row stays, marked free, so that another node takes the game at
    /// once.
    pub async fn release(&self, id: &str, token: i64, handover: bool) -> Result<(), StoreError> {
        let Some(l) = self.leases.as_deref() else { return Ok(()) };
        let sql = if handover {
            "UPDATE game_leases SET free = 1 WHERE game_id = $1 AND token = $2 AND node = $3"
        } else {
            "DELETE FROM game_leases WHERE game_id = $1 AND token = $2 AND node = $3"
        };
        let done = sqlx::query(sql).bind(id).bind(token).bind(l.node.as_str()).execute(&self.pool).await;
        // Forgotten once written (a drain waits for this node to hold nothing), and
        // even if the write failed: the lease then ends with the node.
        l.forget(id, token);
        done?;
        Ok(())
    }

    /// Frees every lease of this node (a node starting again under the same id:
    /// whatever it held before is free for any node to take).
    pub async fn expire_mine(&self) -> Result<u64, StoreError> {
        let Some(l) = self.leases.as_deref() else { return Ok(0) };
        let r = sqlx::query("UPDATE game_leases SET free = 1 WHERE node = $1")
            .bind(l.node.as_str())
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    /// Games free to take at `now_ms` (handed over, or of a node no longer alive), at
    /// most `limit`.
    pub async fn expired(&self, now_ms: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id FROM game_leases WHERE free = 1 UNION ALL \
             SELECT l.game_id FROM game_leases l JOIN cluster_nodes n ON n.node = l.node \
             WHERE n.alive_until_ms < $1 AND l.free = 0 LIMIT $2",
        )
        .bind(now_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }
}
