//! The engine's side of a game against the computer: its moves are searched on the
//! shared engine pool, never by an engine the game owns.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use dama_engine::level::Level;
use dama_engine::search::Limits;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::clock::TimeControl;
use crate::pool::{SearchJob, StopOnDrop};
use crate::round::Round;
use crate::state::Services;

/// The engine's search under way, if any.
#[derive(Default)]
pub(super) struct Engine {
    task: Option<(JoinHandle<Option<String>>, StopOnDrop)>,
}

impl Engine {
    /// True while the engine searches.
    pub(super) fn thinking(&self) -> bool {
        self.task.is_some()
    }

    /// Stops the search under way, if any.
    pub(super) fn stop(&mut self) {
        if let Some((task, _stop)) = self.task.take() {
            task.abort();
        }
    }

    /// Starts the engine's search for its move in `round` (once: a search under way
    /// goes on).
    pub(super) fn think(&mut self, round: &Round, ctx: &Services) {
        if self.thinking() || !round.engine_to_move() {
            return;
        }
        let level = Level::new(round.opts.level);
        let (limits, on_clock) = engine_limits(round, level, Instant::now());
        let job = SearchJob { limits, on_clock, ..search_job(round, "move", Duration::ZERO, level) };
        let stop = Arc::new(AtomicBool::new(false));
        let pool = ctx.pool.clone();
        let s = stop.clone();
        let task = tokio::spawn(async move { pool.search(job, s, false).await.ok().flatten().map(|(m, _)| m) });
        self.task = Some((task, StopOnDrop(stop)));
    }

    /// The engine's move once its search ends (pending while it searches or is idle).
    pub(super) async fn done(&mut self) -> Option<String> {
        match &mut self.task {
            Some((t, _)) => {
                let r = t.await.ok().flatten();
                self.task = None;
                r
            }
            None => std::future::pending().await,
        }
    }
}

/// A search of the round's position for `time` at `level` (hints and draw offers at
/// full strength).
pub(super) fn search_job(round: &Round, purpose: &'static str, time: Duration, level: Level) -> SearchJob {
    SearchJob {
        game: round.id.clone(),
        purpose,
        record: round.game.clone(),
        limits: crate::pool::move_time(time),
        level,
        on_clock: false,
    }
}

/// How long the engine thinks: 1 s (2 s at levels 9-10) without a clock (or with days a
/// move), else what its clock allows at `now` (the time its turn has run already is
/// gone); and whether a clock runs for the move (the wait for a searcher is then taken
/// off too).
fn engine_limits(round: &Round, level: Level, now: Instant) -> (Limits, bool) {
    let side = round.side();
    let clock = &round.clock;
    let left = Duration::from_millis(clock.left(side, side, now));
    let c = match clock.control {
        TimeControl::None | TimeControl::Correspondence { .. } => {
            let t = Duration::from_millis(if level.number >= 9 { 2000 } else { 1000 });
            return (dama_engine::time::limits(dama_engine::time::Clock::MoveTime(t)), false);
        }
        TimeControl::Fischer { increment_ms, .. } => dama_engine::time::Clock::Game {
            remaining: left,
            increment: Duration::from_millis(increment_ms),
            moves_to_go: None,
        },
        TimeControl::PerMove { .. } => dama_engine::time::Clock::PerMove(left),
    };
    (dama_engine::time::limits(c), true)
}
