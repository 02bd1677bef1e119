//! The games whose task runs on this node, by id, and how many run.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::OnceCell;

use crate::game::GameHandle;

pub(crate) type Slot = Arc<OnceCell<GameHandle>>;

/// The games whose task is running (or being started), by id, and how many tasks run.
#[derive(Clone, Default)]
pub struct Registry {
    games: Arc<Mutex<HashMap<String, Slot>>>,
    running: Arc<AtomicUsize>,
}

/// Counts a game's task as running until dropped (when the task ends, however it ends).
pub struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Registry {
    pub(crate) fn slot(&self, id: &str) -> Slot {
        let mut g = self.games.lock().unwrap_or_else(|e| e.into_inner());
        g.entry(id.to_string()).or_default().clone()
    }

    /// Forgets `slot` for `id` (if it is still the one registered).
    pub(crate) fn forget(&self, id: &str, slot: &Slot) {
        let mut g = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if g.get(id).is_some_and(|s| Arc::ptr_eq(s, slot)) {
            g.remove(id);
        }
    }

    /// Registers a game just created.
    pub fn insert(&self, id: &str, h: GameHandle) {
        let cell = OnceCell::new();
        let _ = cell.set(h);
        self.games.lock().unwrap_or_else(|e| e.into_inner()).insert(id.to_string(), Arc::new(cell));
    }

    /// The task of a game in memory, without loading it.
    pub fn running(&self, id: &str) -> Option<GameHandle> {
        let g = self.games.lock().unwrap_or_else(|e| e.into_inner());
        g.get(id).and_then(|s| s.get()).filter(|h| !h.is_closed()).cloned()
    }

    /// Games in memory now: their tasks, counted as they start and end (no scan of the
    /// registry, which the limit check on every new or loaded game would pay for).
    pub fn loaded(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// Counts one more game in memory if fewer than `limit` are: the check and the
    /// count are one atomic step, so requests at once never overshoot the limit. The
    /// guard goes to the game's task and counts it while it lives.
    pub fn reserve(&self, limit: usize) -> Option<Running> {
        self.running
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < limit).then_some(n + 1))
            .ok()
            .map(|_| Running(self.running.clone()))
    }

    /// Drops the entries of games whose task ended.
    pub fn sweep(&self) {
        let mut g = self.games.lock().unwrap_or_else(|e| e.into_inner());
        g.retain(|_, s| s.get().is_none_or(|h| !h.is_closed()));
    }
}

/// True for a string that can be a game id (12 lowercase hex digits).
pub fn is_game_id(id: &str) -> bool {
    id.len() == 12 && id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}
