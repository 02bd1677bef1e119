//! Time management: how long to think for a move under each kind of clock.
//!
//! - A fixed time a move is spent whole: the search runs until the deadline (the time
//!   less a small margin for the answer to travel) and plays the best move found, from
//!   the unfinished iteration too when it has searched a root move through.
//! - A game clock (Fischer, whole game, moves to go) gets an aim and a ceiling: the aim
//!   is the time left shared over the moves still expected plus most of the increment;
//!   the search stops after an iteration once past the aim, which stretches while the
//!   best move changes or the score falls and shrinks while it holds; the ceiling is a
//!   few aims, never more than a quarter of the time left.
//! - A limit for each move (seed 003's 5 minutes, 1 for a single forced capture) is a
//!   ceiling, not a time to spend: the engine aims at a tenth of it.
//! - A single legal move is played at once (by the search).

use std::time::Duration;

use crate::search::Limits;

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

/// Kept back from a fixed move time for the answer to travel: 2 ms and 3% of it.
fn margin(t: Duration) -> Duration {
    Duration::from_millis(2) + t.mul_f64(0.03)
}

/// Moves a game is expected to last beyond this one, without moves to go.
const MOVES_LEFT: u32 = 25;

/// The search limits for a clock.
pub fn limits(clock: Clock) -> Limits {
    let (soft, hard) = match clock {
        Clock::MoveTime(t) => (None, t.saturating_sub(margin(t))),
        Clock::PerMove(t) => {
            let hard = t.saturating_sub(margin(t)).mul_f64(0.33).min(Duration::from_secs(60));
            (Some((t / 10).min(Duration::from_secs(20))), hard)
        }
        Clock::Game { remaining, increment, moves_to_go } => {
            let usable = remaining.saturating_sub(Duration::from_millis(50) + remaining.mul_f64(0.02));
            let mtg = moves_to_go.unwrap_or(MOVES_LEFT).clamp(1, 60);
            let aim = (usable / mtg + increment.mul_f64(0.9)).min(usable / 2);
            let ceiling = (aim * 4).min(usable / 4 + increment.mul_f64(0.8)).min(usable).max(aim);
            (Some(aim), ceiling)
        }
    };
    Limits { soft_time: soft, hard_time: Some(hard.max(Duration::from_millis(1))), ..Limits::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_move_time_is_spent_whole_less_a_small_margin() {
        let l = limits(Clock::MoveTime(Duration::from_millis(100)));
        assert_eq!(l.soft_time, None);
        assert_eq!(l.hard_time, Some(Duration::from_millis(95)));
        let l = limits(Clock::MoveTime(Duration::from_secs(2)));
        assert_eq!(l.hard_time, Some(Duration::from_millis(1938)));
    }

    #[test]
    fn game_clocks_aim_at_a_share_and_never_risk_the_flag() {
        let l = limits(Clock::Game {
            remaining: Duration::from_secs(60),
            increment: Duration::from_secs(1),
            moves_to_go: None,
        });
        let (aim, ceiling) = (l.soft_time.unwrap(), l.hard_time.unwrap());
        assert!(aim > Duration::from_secs(3) && aim < Duration::from_secs(4), "{aim:?}");
        assert!(ceiling > aim && ceiling <= Duration::from_secs(16), "{ceiling:?}");
        // Almost out of time: still a move, within what is left.
        let l =
            limits(Clock::Game { remaining: Duration::from_millis(80), increment: Duration::ZERO, moves_to_go: None });
        assert!(l.hard_time.unwrap() <= Duration::from_millis(30));
        // A per-move limit is a ceiling; the aim is far below it.
        let l = limits(Clock::PerMove(Duration::from_secs(300)));
        assert_eq!(l.soft_time, Some(Duration::from_secs(20)));
        assert_eq!(l.hard_time, Some(Duration::from_secs(60)));
    }
}
