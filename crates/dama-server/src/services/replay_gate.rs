//! The gate of PDN replays and imports: a few at once, a few waiting, the rest told to
//! come back.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::error::ApiError;

/// Replays run at most this many at once; a few more may wait, the rest are told to
/// come back.
pub struct ReplayGate {
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    max_waiting: usize,
}

impl ReplayGate {
    /// Half as many at once as the machine has cores (at least one: the games keep the
    /// rest), and 16 waiting.
    pub fn for_machine() -> ReplayGate {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        let permits = Arc::new(Semaphore::new((cores / 2).max(1)));
        ReplayGate { permits, waiting: AtomicUsize::new(0), max_waiting: 16 }
    }

    /// Waits for a turn to read a file; refused at once when too many wait already.
    pub async fn enter(&self) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        if self.permits.available_permits() == 0 && self.waiting.load(Ordering::Relaxed) >= self.max_waiting {
            return Err(ApiError::TooMany("the server is reading many files now; please try again in a moment".into()));
        }
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let permit = self.permits.clone().acquire_owned().await;
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        permit.map_err(|_| ApiError::Internal)
    }
}
