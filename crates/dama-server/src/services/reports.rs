//! The game reports under way on this node: each one's progress, and how many each
//! address has asked for.

use std::collections::HashMap;
use std::sync::Mutex;

/// At most this many reports wait or run at once on a node.
const MAX_JOBS: usize = 16;

/// Where a report under way stands.
#[derive(Clone, Debug)]
pub(crate) enum Job {
    /// Waiting for the engine.
    Queued,
    /// `done` of `total` positions searched.
    Running {
        /// Positions searched.
        done: usize,
        /// Positions in all.
        total: usize,
    },
    /// It failed, and why.
    Failed(String),
}

/// The reports under way on this node.
#[derive(Default)]
pub struct Reports {
    jobs: Mutex<HashMap<String, Job>>,
    /// Reports queued or running, by the address that asked.
    pub(crate) by_address: crate::limits::Holds<std::net::IpAddr>,
}

impl Reports {
    pub(crate) fn get(&self, id: &str) -> Option<Job> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }
    pub(crate) fn set(&self, id: &str, job: Option<Job>) {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        match job {
            Some(j) => jobs.insert(id.to_string(), j),
            None => jobs.remove(id),
        };
    }
    /// Takes a place for `id`; false when the queue is full.
    pub(crate) fn enter(&self, id: &str) -> bool {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jobs.retain(|_, j| !matches!(j, Job::Failed(_)));
        if jobs.len() >= MAX_JOBS {
            return false;
        }
        jobs.insert(id.to_string(), Job::Queued);
        true
    }
}
