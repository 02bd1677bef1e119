//! Clocks, authoritative on the server: exact deadlines, no polling.

use std::time::Duration;

use dama_core::Color;
use serde::{Deserialize, Serialize};
use tokio::time::Instant;

/// A time control.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// No clock.
    #[default]
    None,
    /// Fischer: `initial_ms` for the game, `increment_ms` added after each move
    /// (an increment of 0 is a whole-game clock, seed 001).
    Fischer {
        /// Time for the game.
        initial_ms: u64,
        /// Added after each move.
        increment_ms: u64,
    },
    /// A limit for each move, shorter when the only legal move is a single capture
    /// (seed 003: 300 000 and 60 000).
    PerMove {
        /// Limit of a move.
        limit_ms: u64,
        /// Limit when the only legal move is a single capture.
        capture_limit_ms: u64,
    },
    /// Days per move.
    Correspondence {
        /// Days for each move.
        days: u64,
    },
}

/// Both players' time.
#[derive(Clone, Debug)]
pub struct Clock {
    /// The control.
    pub control: TimeControl,
    /// Time left (Fischer) or for this move (per move), per colour, in ms.
    pub remaining: [u64; 2],
    /// When the side to move's time started running (None: stopped).
    pub running_since: Option<Instant>,
}

impl Clock {
    /// A stopped clock.
    pub fn new(control: TimeControl) -> Clock {
        let r = match control {
            TimeControl::Fischer { initial_ms, .. } => initial_ms,
            TimeControl::PerMove { limit_ms, .. } => limit_ms,
            TimeControl::Correspondence { days } => days * 86_400_000,
            TimeControl::None => 0,
        };
        Clock { control, remaining: [r; 2], running_since: None }
    }

    /// True when there is a clock.
    pub fn enabled(&self) -> bool {
        self.control != TimeControl::None
    }

    /// Starts `side`'s time (a new move to make), `single_capture` for seed 003.
    pub fn start(&mut self, side: Color, single_capture: bool, now: Instant) {
        match self.control {
            TimeControl::PerMove { limit_ms, capture_limit_ms } => {
                self.remaining[side.index()] = if single_capture { capture_limit_ms } else { limit_ms };
            }
            TimeControl::Correspondence { days } => self.remaining[side.index()] = days * 86_400_000,
            _ => {}
        }
        if self.enabled() {
            self.running_since = Some(now);
        }
    }

    /// Time left for `side` now.
    pub fn left(&self, side: Color, to_move: Color, now: Instant) -> u64 {
        let r = self.remaining[side.index()];
        match self.running_since {
            Some(t) if side == to_move => r.saturating_sub(now.saturating_duration_since(t).as_millis() as u64),
            _ => r,
        }
    }

    /// When `to_move` runs out, if the clock runs.
    pub fn deadline(&self, to_move: Color) -> Option<Instant> {
        self.running_since.map(|t| t + Duration::from_millis(self.remaining[to_move.index()]))
    }

    /// `side` completed a move at `now`: charge the time; false if it had run out.
    pub fn stop(&mut self, side: Color, now: Instant) -> bool {
        let Some(t) = self.running_since.take() else { return true };
        let used = now.saturating_duration_since(t).as_millis() as u64;
        let r = &mut self.remaining[side.index()];
        if used > *r {
            *r = 0;
            return false;
        }
        *r -= used;
        if let TimeControl::Fischer { increment_ms, .. } = self.control {
            *r += increment_ms;
        }
        true
    }
}
