//! The engine's side of a game against the computer: its moves are searched on the
//! shared engine pool, never by an engine the game owns.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use dama_core::Color;
use dama_engine::level::Level;
use dama_engine::search::Limits;
use tokio::task::JoinHandle;

use super::{Actor, State};
use crate::clock::TimeControl;
use crate::pool::{SearchJob, StopOnDrop};

/// The engine's colour and its search under way.
#[derive(Default)]
pub(super) struct Ai {
    /// The engine's colour, in games against it.
    pub(super) color: Option<Color>,
    task: Option<(JoinHandle<Option<String>>, StopOnDrop)>,
}

impl Ai {
    /// The engine's side of a game where it plays `color`.
    pub(super) fn playing(color: Option<Color>) -> Ai {
        Ai { color, task: None }
    }

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
}

/// The engine's move once its search ends (pending while it searches or is idle).
pub(super) async fn done(ai: &mut Ai) -> Option<String> {
    match &mut ai.task {
        Some((t, _)) => {
            let r = t.await.ok().flatten();
            ai.task = None;
            r
        }
        None => std::future::pending().await,
    }
}

impl Actor {
    /// Starts the engine's search when it is the engine's turn.
    pub(super) fn maybe_start_ai(&mut self) {
        if self.state != State::Live || self.ai.color != Some(self.session.side()) || self.ai.thinking() {
            return;
        }
        let level = Level::new(self.opts.level);
        let job = SearchJob {
            game: self.id.clone(),
            purpose: "move",
            variant: self.session.variant(),
            fen: self.session.start_fen(),
            moves: self.session.moves(),
            limits: self.engine_limits(level),
            level,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let pool = self.ctx.pool.clone();
        let s = stop.clone();
        let task = tokio::spawn(async move { pool.search(job, s, false).await.ok().flatten().map(|(m, _)| m) });
        self.ai.task = Some((task, StopOnDrop(stop)));
    }

    /// How long the engine thinks: 1 s (2 s at levels 9-10) without a clock, else what
    /// its clock allows.
    fn engine_limits(&self, level: Level) -> Limits {
        let side = self.session.side();
        let clock = match self.clock.control {
            TimeControl::None | TimeControl::Correspondence { .. } => {
                let t = Duration::from_millis(if level.number >= 9 { 2000 } else { 1000 });
                return dama_engine::time::limits(dama_engine::time::Clock::MoveTime(t));
            }
            TimeControl::Fischer { increment_ms, .. } => dama_engine::time::Clock::Game {
                remaining: Duration::from_millis(self.clock.remaining[side.index()]),
                increment: Duration::from_millis(increment_ms),
                moves_to_go: None,
            },
            TimeControl::PerMove { .. } => {
                dama_engine::time::Clock::PerMove(Duration::from_millis(self.clock.remaining[side.index()]))
            }
        };
        dama_engine::time::limits(clock)
    }
}
