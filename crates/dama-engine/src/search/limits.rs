//! When a search stops: its [`Limits`], the stop flags it watches, and the check it
//! makes every 1024 nodes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use dama_core::Rules;

use super::Searcher;

/// When to stop searching.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Most nodes.
    pub nodes: Option<u64>,
    /// The time aimed at: after an iteration, stop once past this (stretched while the
    /// best move keeps changing or the score falls, shrunk while it is stable). None:
    /// search until `hard_time` (a fixed move time is spent whole).
    pub soft_time: Option<Duration>,
    /// Abort at this, and play the best move found so far.
    pub hard_time: Option<Duration>,
}

/// Two stop flags: the caller's, and (for helper threads) the main search's.
#[derive(Clone, Copy)]
pub struct StopEither<'a>(pub(super) &'a AtomicBool, pub(super) &'a AtomicBool);

impl StopEither<'_> {
    #[inline]
    pub(super) fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed) || self.1.load(Ordering::Relaxed)
    }
}

impl<R: Rules> Searcher<R> {
    /// True once the search must stop: out of nodes or time, or told to.
    pub(super) fn out_of_time(&mut self, stop: &StopEither<'_>) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes & 1023 == 0 {
            let over_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            let over_time = self.limits.hard_time.is_some_and(|t| self.start.elapsed() >= t);
            if over_nodes || over_time || stop.is_set() {
                self.aborted = true;
            }
        }
        self.aborted
    }
}
