//! When a search stops: its [`Limits`], the stop flags it watches, and the check it
//! makes every 1024 nodes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use dama_core::Rules;

use super::Searcher;

/// When to stop searching.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

impl Limits {
    /// These limits for a search that starts `spent` late (a move on a clock that waited
    /// for a searcher): the time already gone is taken off the aim and the ceiling, and
    /// the ceiling stays at least a millisecond, so the search still plays a move.
    pub fn less(self, spent: Duration) -> Limits {
        let cut = |t: Option<Duration>| t.map(|t| t.saturating_sub(spent).max(Duration::from_millis(1)));
        Limits { soft_time: cut(self.soft_time), hard_time: cut(self.hard_time), ..self }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_already_spent_comes_off_the_aim_and_the_ceiling() {
        let ms = Duration::from_millis;
        let l = Limits { soft_time: Some(ms(300)), hard_time: Some(ms(900)), depth: Some(7), nodes: None };
        let late = l.less(ms(200));
        assert_eq!((late.soft_time, late.hard_time, late.depth), (Some(ms(100)), Some(ms(700)), Some(7)));
        // Later than the ceiling: still a move, at once.
        let too_late = l.less(ms(2000));
        assert_eq!((too_late.soft_time, too_late.hard_time), (Some(ms(1)), Some(ms(1))));
        assert_eq!(Limits::default().less(ms(5)), Limits::default());
    }
}
