//! Clocks, authoritative on the server: exact deadlines, no polling.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

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

/// The longest clock for a game or a move: 24 hours.
pub const MAX_TIME_MS: u64 = 86_400_000;
/// The largest Fischer increment: 1 hour.
pub const MAX_INCREMENT_MS: u64 = 3_600_000;
/// The shortest clock: a tenth of a second (tests use short clocks; the UI offers
/// minutes).
pub const MIN_TIME_MS: u64 = 100;
/// Correspondence: 1 to 30 days a move.
pub const MAX_DAYS: u64 = 30;
/// The longest wait for a player's first move of a clocked game; the game is aborted,
/// not lost, when it passes (as lichess does). A shorter clock gives its own length.
pub const FIRST_MOVE_MS: u64 = 60_000;
/// The first-move wait of a tournament game (lichess's arena rule): the player who
/// has not moved by then loses the game.
pub const EVENT_FIRST_MOVE_MS: u64 = 30_000;
/// After a restart the player to move is charged the time since their turn began, but
/// keeps at least this much (or what they had, if less) to answer.
pub const RESTORE_GRACE_MS: u64 = 5_000;

impl TimeControl {
    /// Checks the ranges: a clock that cannot run out at once and whose arithmetic
    /// never overflows.
    pub fn validate(&self) -> Result<(), String> {
        let within = |what: &str, v: u64, lo: u64, hi: u64| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(format!("time: {what} must be {lo} to {hi} ms (it is {v})"))
            }
        };
        match *self {
            TimeControl::None => Ok(()),
            TimeControl::Fischer { initial_ms, increment_ms } => {
                within("initial_ms", initial_ms, MIN_TIME_MS, MAX_TIME_MS)?;
                within("increment_ms", increment_ms, 0, MAX_INCREMENT_MS)
            }
            TimeControl::PerMove { limit_ms, capture_limit_ms } => {
                within("limit_ms", limit_ms, MIN_TIME_MS, MAX_TIME_MS)?;
                within("capture_limit_ms", capture_limit_ms, MIN_TIME_MS, limit_ms)
            }
            TimeControl::Correspondence { days } => {
                if (1..=MAX_DAYS).contains(&days) {
                    Ok(())
                } else {
                    Err(format!("time: days must be 1 to {MAX_DAYS} (it is {days})"))
                }
            }
        }
    }

    /// The PDN `TimeControl` tag (PGN's forms, in seconds): `-` without a clock,
    /// `300+3` for Fischer, `1/300` for a limit on each move (a period of one move,
    /// repeated), and `1/259200` for three days a move.
    pub fn pdn_tag(&self) -> String {
        match *self {
            TimeControl::None => "-".into(),
            TimeControl::Fischer { initial_ms, increment_ms } => {
                format!("{}+{}", initial_ms / 1000, increment_ms / 1000)
            }
            TimeControl::PerMove { limit_ms, .. } => format!("1/{}", limit_ms / 1000),
            TimeControl::Correspondence { days } => format!("1/{}", days.saturating_mul(86_400)),
        }
    }
}

/// A PDN date (`YYYY.MM.DD`, UTC) of an instant in ms since the Unix epoch.
pub fn pdn_date(ms: i64) -> String {
    // Days to a civil date (the proleptic Gregorian calendar, by 400-year eras).
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
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
    /// While the side to move has not made its first move: its clock stands, and the
    /// game is aborted at this instant.
    pub first_move_until: Option<Instant>,
    /// The longest first-move wait: [`FIRST_MOVE_MS`], or a tournament's.
    pub first_move_ms: u64,
    /// Who went berserk (White, Black): half the time, no increment.
    pub berserk: [bool; 2],
}

impl Clock {
    /// A stopped clock.
    pub fn new(control: TimeControl) -> Clock {
        let r = match control {
            TimeControl::Fischer { initial_ms, .. } => initial_ms,
            TimeControl::PerMove { limit_ms, .. } => limit_ms,
            TimeControl::Correspondence { days } => days.saturating_mul(86_400_000),
            TimeControl::None => 0,
        };
        Clock {
            control,
            remaining: [r; 2],
            running_since: None,
            first_move_until: None,
            first_move_ms: FIRST_MOVE_MS,
            berserk: [false; 2],
        }
    }

    /// How long a player may take over the first move of a game clock (Fischer or
    /// whole-game) before the game is aborted: [`Clock::first_move_ms`], or the player's whole
    /// time if less. A per-move limit (seed 003) governs every move, the first
    /// included, and correspondence has its days.
    pub fn first_move_window(&self) -> Option<u64> {
        match self.control {
            TimeControl::Fischer { initial_ms, .. } => Some(initial_ms.min(self.first_move_ms)),
            TimeControl::PerMove { .. } | TimeControl::None | TimeControl::Correspondence { .. } => None,
        }
    }

    /// The clock of a game with `opts`: a tournament's first move is awaited
    /// [`EVENT_FIRST_MOVE_MS`].
    pub fn of_game(opts: &crate::protocol::Options) -> Clock {
        let mut c = Clock::new(opts.time);
        if opts.tournament.is_some() {
            c.first_move_ms = EVENT_FIRST_MOVE_MS;
        }
        c
    }

    /// `side` goes berserk: its time is halved and it earns no increment from now on.
    pub fn go_berserk(&mut self, side: Color) {
        if !self.berserk[side.index()] {
            self.berserk[side.index()] = true;
            self.remaining[side.index()] /= 2;
        }
    }

    /// Time left to make the first move, while it is awaited.
    pub fn first_move_left(&self, now: Instant) -> Option<u64> {
        self.first_move_until.map(|t| t.saturating_duration_since(now).as_millis() as u64)
    }

    /// True when there is a clock.
    pub fn enabled(&self) -> bool {
        self.control != TimeControl::None
    }

    /// Starts `side`'s time (a new move to make), `single_capture` for seed 003. For a
    /// side's `first` move the clock stands and the first-move wait starts instead.
    pub fn start(&mut self, side: Color, single_capture: bool, first: bool, now: Instant) {
        self.first_move_until = None;
        if let (true, Some(w)) = (first, self.first_move_window()) {
            self.running_since = None;
            self.first_move_until = now.checked_add(Duration::from_millis(w));
            return;
        }
        match self.control {
            TimeControl::PerMove { limit_ms, capture_limit_ms } => {
                self.remaining[side.index()] = if single_capture { capture_limit_ms } else { limit_ms };
            }
            TimeControl::Correspondence { days } => self.remaining[side.index()] = days.saturating_mul(86_400_000),
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

    /// When `to_move` runs out, or the wait for its first move ends, if either runs.
    pub fn deadline(&self, to_move: Color) -> Option<Instant> {
        self.first_move_until.or_else(|| {
            self.running_since.and_then(|t| t.checked_add(Duration::from_millis(self.remaining[to_move.index()])))
        })
    }

    /// `side` completed a move at `now`: charge the time; false if it had run out.
    pub fn stop(&mut self, side: Color, now: Instant) -> bool {
        self.stop_credited(side, now, 0)
    }

    /// [`Clock::stop`], the time charged less `credit_ms` (the player's lag).
    pub fn stop_credited(&mut self, side: Color, now: Instant, credit_ms: u32) -> bool {
        if self.first_move_until.take().is_some() {
            // A first move costs no time (and earns no increment).
            return true;
        }
        let Some(t) = self.running_since.take() else { return true };
        let used = (now.saturating_duration_since(t).as_millis() as u64).saturating_sub(credit_ms.into());
        let r = &mut self.remaining[side.index()];
        if used > *r {
            *r = 0;
            return false;
        }
        *r -= used;
        if let (TimeControl::Fischer { increment_ms, .. }, false) = (self.control, self.berserk[side.index()]) {
            *r = r.saturating_add(increment_ms);
        }
        true
    }

    /// The game ended during `side`'s turn at `now`: its time used so far comes off (no
    /// increment) and the clock stops, so both clocks show the end time.
    pub fn freeze(&mut self, side: Color, now: Instant) {
        self.remaining[side.index()] = self.left(side, side, now);
        self.running_since = None;
        self.first_move_until = None;
    }

    /// When a game comes back into memory: `side`'s turn began `elapsed_ms` ago (by the
    /// stored turn start); that time comes off its clock, which runs from `now`. After a
    /// restart (`grace`: the server was down during the turn) it keeps at least
    /// [`RESTORE_GRACE_MS`] (or what it had, if less).
    pub fn resume(&mut self, side: Color, elapsed_ms: u64, grace: bool, now: Instant) {
        if !self.enabled() {
            return;
        }
        if let (Some(_), Some(w)) = (self.first_move_until, self.first_move_window()) {
            // Still waiting for the first move: the wait goes on from where it was.
            let keep = if grace { RESTORE_GRACE_MS.min(w) } else { 0 };
            let left = w.saturating_sub(elapsed_ms).max(keep);
            self.first_move_until = now.checked_add(Duration::from_millis(left));
            return;
        }
        let r = self.remaining[side.index()];
        let keep = if grace { r.min(RESTORE_GRACE_MS) } else { 0 };
        let charged = elapsed_ms.min(r.saturating_sub(keep));
        self.remaining[side.index()] = r - charged;
        self.running_since = Some(now);
    }
}

/// Milliseconds since the epoch.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_checked() {
        assert!(TimeControl::Correspondence { days: 0 }.validate().is_err());
        assert!(TimeControl::Correspondence { days: u64::MAX }.validate().is_err());
        assert!(TimeControl::Correspondence { days: 3 }.validate().is_ok());
        assert!(TimeControl::Fischer { initial_ms: 300_000, increment_ms: u64::MAX }.validate().is_err());
        assert!(TimeControl::Fischer { initial_ms: u64::MAX, increment_ms: 0 }.validate().is_err());
        assert!(TimeControl::PerMove { limit_ms: 300_000, capture_limit_ms: 600_000 }.validate().is_err());
        assert!(TimeControl::PerMove { limit_ms: 300_000, capture_limit_ms: 60_000 }.validate().is_ok());
    }

    #[test]
    fn pdn_dates_and_time_controls() {
        assert_eq!(pdn_date(0), "1970.01.01");
        // 2024-02-29 12:00 UTC and 2026-12-01 00:00 UTC.
        assert_eq!(pdn_date(1_709_208_000_000), "2024.02.29");
        assert_eq!(pdn_date(1_796_083_200_000), "2026.12.01");
        assert_eq!(TimeControl::Fischer { initial_ms: 300_000, increment_ms: 3_000 }.pdn_tag(), "300+3");
        assert_eq!(TimeControl::PerMove { limit_ms: 300_000, capture_limit_ms: 60_000 }.pdn_tag(), "1/300");
        assert_eq!(TimeControl::None.pdn_tag(), "-");
    }

    #[test]
    fn a_first_move_costs_no_time_and_has_its_own_wait() {
        let now = Instant::now();
        let later = now + Duration::from_millis(5_000);
        let mut c = Clock::new(TimeControl::Fischer { initial_ms: 300_000, increment_ms: 2_000 });
        c.start(Color::Black, false, true, now);
        assert_eq!(c.deadline(Color::Black), Some(now + Duration::from_millis(FIRST_MOVE_MS)));
        assert_eq!(c.left(Color::Black, Color::Black, later), 300_000);
        assert!(c.stop(Color::Black, later));
        assert_eq!(c.remaining, [300_000, 300_000]);
        // From the second move on the clock runs.
        c.start(Color::Black, false, false, later);
        assert_eq!(c.deadline(Color::Black), Some(later + Duration::from_millis(300_000)));
        // A clock shorter than a minute gives its own length to the first move.
        let mut c = Clock::new(TimeControl::Fischer { initial_ms: 1_000, increment_ms: 0 });
        c.start(Color::White, false, true, now);
        assert_eq!(c.first_move_left(now), Some(1_000));
        // A per-move limit applies to the first move too; correspondence has its days.
        for control in [
            TimeControl::PerMove { limit_ms: 300_000, capture_limit_ms: 60_000 },
            TimeControl::Correspondence { days: 1 },
        ] {
            let mut c = Clock::new(control);
            c.start(Color::White, false, true, now);
            assert_eq!(c.first_move_until, None);
            assert!(c.running_since.is_some());
        }
    }

    #[test]
    fn a_restart_charges_the_turn_with_a_small_grace() {
        let now = Instant::now();
        let mut c = Clock::new(TimeControl::Fischer { initial_ms: 60_000, increment_ms: 0 });
        c.resume(Color::White, 20_000, true, now);
        assert_eq!(c.left(Color::White, Color::White, now), 40_000);
        // Down longer than the time left: a few seconds remain to answer.
        c.resume(Color::White, 600_000, true, now);
        assert_eq!(c.left(Color::White, Color::White, now), RESTORE_GRACE_MS);
        // A game unloaded while idle (no restart) gets no grace: its flag has fallen.
        let mut c = Clock::new(TimeControl::Fischer { initial_ms: 60_000, increment_ms: 0 });
        c.resume(Color::White, 600_000, false, now);
        assert_eq!(c.left(Color::White, Color::White, now), 0);
    }
}
