//! Time management: how long to think for a move under each kind of clock.
//!
//! - A fixed time a move is spent whole: the search runs until the deadline (the time
//!   less a small margin for the answer to travel) and plays the best move found, from
//!   the unfinished iteration too when it has searched a root move through.
//! - A game clock (Fischer, whole game, moves to go) gets an aim and a ceiling. A
//!   reserve is kept first: [`MOVE_OVERHEAD`] for every move still expected, so a
//!   clock without increment never runs out. The aim is the rest shared over those
//!   moves plus most of the increment (half of it while the reserve is not whole, so
//!   the clock climbs back); the search stops after an iteration once past the aim,
//!   which stretches while the best move changes or the score falls (a critical
//!   position) and shrinks while it holds; the ceiling is a few aims, never more than
//!   half of what is left.
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

/// What a move costs besides its search: the answer's travel, the program or server
/// that relays it, a busy machine. It is kept back for every move still expected, so
/// that a clock without an increment never runs out however long the game goes on.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(5);

/// The aim and the ceiling on a game clock.
fn game_budget(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> (Duration, Duration) {
    let mtg = moves_to_go.unwrap_or(MOVES_LEFT).clamp(1, 60);
    // The most this move could take: what is left less a margin.
    let can = remaining.saturating_sub(Duration::from_millis(50) + remaining.mul_f64(0.02));
    // What may be shared out: beyond the reserve for the moves still expected.
    let spare = can.saturating_sub(MOVE_OVERHEAD * mtg);
    // Into the reserve, spend half the increment, so that the clock climbs back.
    let inc = if spare.is_zero() { increment / 2 } else { increment.mul_f64(0.9) };
    let aim = (spare / mtg + inc).min(can / 2);
    let ceiling = (aim * 4).min(spare / 4 + increment.mul_f64(0.8)).min(can / 2).max(aim);
    (aim, ceiling)
}

/// The search limits for a clock.
pub fn limits(clock: Clock) -> Limits {
    let (soft, hard) = match clock {
        Clock::MoveTime(t) => (None, t.saturating_sub(margin(t))),
        Clock::PerMove(t) => {
            let hard = t.saturating_sub(margin(t)).mul_f64(0.33).min(Duration::from_secs(60));
            (Some((t / 10).min(Duration::from_secs(20))), hard)
        }
        Clock::Game { remaining, increment, moves_to_go } => {
            let (aim, ceiling) = game_budget(remaining, increment, moves_to_go);
            (Some(aim), ceiling)
        }
    };
    Limits { soft_time: soft, hard_time: Some(hard.max(Duration::from_millis(1))), ..Limits::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays out `moves` moves on a game clock, each taking `took(aim, ceiling)` and
    /// `overhead_ms` more; the least time left after a move.
    fn game(
        (base_ms, inc_ms, overhead_ms, moves): (u64, u64, u64, u32),
        took: fn(Duration, Duration) -> Duration,
    ) -> Duration {
        let ms = Duration::from_millis;
        let (mut left, inc) = (ms(base_ms), ms(inc_ms));
        let mut least = left;
        for _ in 0..moves {
            let l = limits(Clock::Game { remaining: left, increment: inc, moves_to_go: None });
            let spent = took(l.soft_time.unwrap(), l.hard_time.unwrap()) + ms(overhead_ms);
            left = left.checked_sub(spent).unwrap_or_else(|| {
                panic!("{base_ms}+{inc_ms}: the flag fell with {left:?} left and a move of {spent:?}")
            });
            least = least.min(left);
            left += inc;
        }
        least
    }

    #[test]
    fn a_game_clock_keeps_a_reserve_for_every_move_to_come() {
        let overhead = MOVE_OVERHEAD.as_millis() as u64;
        // Moves that take their aim and the overhead kept for each besides last 100
        // moves (a long International game) on whole-game clocks of three seconds and
        // more; on one of a second, when a move costs a millisecond besides its search.
        let aimed = |aim: Duration, _: Duration| aim;
        for (base, over) in [(1_000, 1), (3_000, overhead), (60_000, overhead), (600_000, overhead)] {
            assert!(game((base, 0, over, 100), aimed) > Duration::ZERO, "{base}+0");
        }
        // With an increment, 150 moves that each take their whole ceiling and three
        // times the overhead besides.
        let ceiling = |_: Duration, hard: Duration| hard;
        for (base, inc) in [(1_000, 100), (3_000, 100), (300, 20), (60_000, 1_000)] {
            assert!(game((base, inc, 3 * overhead, 150), ceiling) > Duration::ZERO, "{base}+{inc}");
        }
        // Typical moves (the aim, not the ceiling) leave most of the reserve untouched
        // after a long game of one minute.
        let mut left = Duration::from_secs(60);
        for _ in 0..60 {
            left -= limits(Clock::Game { remaining: left, increment: Duration::ZERO, moves_to_go: None })
                .soft_time
                .unwrap();
        }
        assert!(left > Duration::from_secs(5), "{left:?}");
    }

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
