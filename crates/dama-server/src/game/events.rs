//! A game's events: the version, the recent ones (for clients that resume), and the
//! channel to subscribers (and, in cluster mode, the other nodes).

use std::collections::VecDeque;
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::broadcast;

use super::{Event, Published};

/// At most this many recent events are kept for clients that resume with `since`;
/// one further behind gets a snapshot.
pub const LOG_EVENTS: usize = 128;

/// The events of a game in memory.
pub(super) struct Events {
    /// The recent events as their text (one allocation each), with their versions.
    log: VecDeque<(u64, Utf8Bytes)>,
    /// The latest version announced.
    version: u64,
    tx: broadcast::Sender<Arc<Published>>,
    /// In cluster mode: the game's id and the cluster, which every event goes to.
    out: Option<(String, Arc<crate::cluster::Cluster>)>,
}

impl Events {
    /// The events of a game at `version`; `out` in cluster mode.
    pub(super) fn new(version: u64, out: Option<(String, Arc<crate::cluster::Cluster>)>) -> Events {
        // A subscriber that falls behind this many events gets a fresh snapshot instead.
        let (tx, _) = broadcast::channel(32);
        Events { log: VecDeque::new(), version, tx, out }
    }

    /// Announces a versioned event (its version follows the last one).
    pub(super) fn push(&mut self, e: Event) {
        self.version = e.v;
        if self.log.len() == LOG_EVENTS {
            self.log.pop_front();
        }
        let p = Published::new(e);
        self.log.push_back((self.version, p.text.clone()));
        self.send(p);
    }

    /// Sends an event that makes no version (chat, suggestions, legal moves): not kept.
    pub(super) fn tell(&self, e: Event) {
        self.send(Published::new(e));
    }

    fn send(&self, p: Arc<Published>) {
        if let Some((id, cluster)) = &self.out {
            cluster.publish(id, p.text.clone().into());
        }
        let _ = self.tx.send(p);
    }

    /// A new subscriber.
    pub(super) fn subscribe(&self) -> broadcast::Receiver<Arc<Published>> {
        self.tx.subscribe()
    }

    /// Subscribers now.
    pub(super) fn subscribers(&self) -> usize {
        self.tx.receiver_count()
    }

    /// The events after `since`, if the log still has them all.
    pub(super) fn since(&self, since: u64) -> Option<Vec<Event>> {
        if since > self.version {
            return None;
        }
        let oldest = self.log.front().map_or(self.version + 1, |(v, _)| *v);
        if since + 1 < oldest && since < self.version {
            return None;
        }
        // Read back from their text: a reconnection is rare, a move is not.
        self.log.iter().filter(|(v, _)| *v > since).map(|(_, t)| serde_json::from_str(t).ok()).collect()
    }
}
