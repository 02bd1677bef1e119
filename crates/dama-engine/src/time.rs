//! Time management: how long to think for a move under each kind of clock.

use std::time::Duration;

/// The time the engine may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// A fixed time for this move.
    MoveTime(Duration),
    /// Remaining time for the game, with an increment per move and optionally the
    /// moves left until the next time control.
    Game {
        /// Time left on the engine's clock.
        remaining: Duration,
        /// Added after each move (Fischer).
        increment: Duration,
        /// Moves until the next control, if any.
        moves_to_go: Option<u32>,
    },
    /// A limit per move (seed 003: 5 minutes, or 1 minute when the only legal move is
    /// a single capture); the caller passes the limit that applies to this move.
    PerMove(Duration),
}

/// Safety margin kept for the move to travel back and be stored.
const MARGIN: Duration = Duration::from_millis(30);

/// (soft, hard) limits: stop starting new iterations after `soft`, abort at `hard`.
pub fn budget(clock: Clock) -> (Duration, Duration) {
    match clock {
        Clock::MoveTime(t) | Clock::PerMove(t) => {
            let hard = t.saturating_sub(MARGIN).max(Duration::from_millis(1));
            let hard = if matches!(clock, Clock::PerMove(_)) { hard.mul_f64(0.6) } else { hard };
            (hard.mul_f64(0.6), hard)
        }
        Clock::Game { remaining, increment, moves_to_go } => {
            let usable = remaining.saturating_sub(MARGIN * 2);
            let mtg = moves_to_go.unwrap_or(30).max(1);
            let base = usable / mtg + increment.mul_f64(0.8);
            let hard = (base * 3).min(usable.mul_f64(0.4)).max(Duration::from_millis(1));
            (base.min(hard), hard)
        }
    }
}
