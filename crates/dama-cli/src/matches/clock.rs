//! A game clock for each engine of a match (`--clock BASE+INC`): each side starts a
//! game with BASE seconds, is charged the time it took for each move and gets INC
//! seconds after it; a side whose time runs out loses on time. The engines are told
//! their time left before each move (Hub's `level time= inc=`), as a server tells them.

use std::time::Duration;

use anyhow::{anyhow, Result};

/// A clock setting: the time each side starts with and the increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSetting {
    /// Time for the game.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

impl std::str::FromStr for ClockSetting {
    type Err = anyhow::Error;

    /// `BASE+INC` in seconds (`60+0.5`), or `BASE` alone for a whole-game clock.
    fn from_str(s: &str) -> Result<ClockSetting> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |x: &str, what: &str| -> Result<Duration> {
            let v: f64 = x.trim().parse().map_err(|_| anyhow!("--clock {s}: the {what} is not a number of seconds"))?;
            if !(0.0..=86_400.0).contains(&v) {
                return Err(anyhow!("--clock {s}: the {what} must be between 0 and 86400 seconds"));
            }
            Ok(Duration::from_secs_f64(v))
        };
        let c = ClockSetting { base: secs(base, "base time")?, increment: secs(inc, "increment")? };
        if c.base.is_zero() {
            return Err(anyhow!("--clock {s}: the base time must be more than 0"));
        }
        Ok(c)
    }
}

/// Both sides' clocks during one game (indexed as the match's engines: A is 0).
#[derive(Clone, Debug)]
pub struct GameClocks {
    setting: ClockSetting,
    left: [Duration; 2],
    /// The least time each side had left after a move, before its increment.
    lowest: [Duration; 2],
}

impl GameClocks {
    /// Both clocks at the start of a game.
    pub fn new(setting: ClockSetting) -> GameClocks {
        GameClocks { setting, left: [setting.base; 2], lowest: [setting.base; 2] }
    }

    /// The time engine `idx` has left, and the increment.
    pub fn left(&self, idx: usize) -> (Duration, Duration) {
        (self.left[idx], self.setting.increment)
    }

    /// Charges engine `idx` for a move that took `took`; false when its time ran out.
    pub fn charge(&mut self, idx: usize, took: Duration) -> bool {
        match self.left[idx].checked_sub(took) {
            Some(left) => {
                self.lowest[idx] = self.lowest[idx].min(left);
                self.left[idx] = left + self.setting.increment;
                true
            }
            None => {
                self.left[idx] = Duration::ZERO;
                self.lowest[idx] = Duration::ZERO;
                false
            }
        }
    }

    /// The least time each side had left after a move in this game.
    pub fn lowest(&self) -> [Duration; 2] {
        self.lowest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_base_and_increment_in_seconds() {
        let c: ClockSetting = "60+0.5".parse().unwrap();
        assert_eq!(c, ClockSetting { base: Duration::from_secs(60), increment: Duration::from_millis(500) });
        let c: ClockSetting = "3".parse().unwrap();
        assert_eq!(c.increment, Duration::ZERO);
        for bad in ["", "x+1", "0+1", "5+y", "-1+0", "1e9"] {
            assert!(bad.parse::<ClockSetting>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_side_is_charged_its_time_and_loses_when_it_runs_out() {
        let mut c = GameClocks::new("1+0.1".parse().unwrap());
        assert!(c.charge(0, Duration::from_millis(400)));
        assert_eq!(c.left(0).0, Duration::from_millis(700));
        assert_eq!(c.lowest()[0], Duration::from_millis(600));
        assert_eq!(c.left(1).0, Duration::from_secs(1));
        assert!(!c.charge(0, Duration::from_millis(701)));
        assert_eq!(c.lowest()[0], Duration::ZERO);
    }
}
