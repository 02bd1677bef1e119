//! Lag compensation, as lichess does it: the server measures each player's round trip
//! on the game's websocket (a ping its browser answers at once), and a move of a clocked
//! game is charged its time less the player's measured lag, up to a quota that each
//! move refills a little and that never grows past a bound. A player on a slow phone
//! network is not flagged on a click that was in time; a player cannot bank lag to
//! play for free. The flag itself waits for the credit the player to move could claim.
//! Measurements are not stored: after a restart the quotas start afresh.

use dama_core::Color;

use crate::clock::TimeControl;

/// Each player's quota to start with, ms.
pub const START_MS: u32 = 1000;
/// What each move adds to its player's quota, ms.
pub const GAIN_MS: u32 = 300;
/// The largest quota, ms.
pub const MAX_QUOTA_MS: u32 = 2000;
/// The largest credit for one move, ms.
pub const MAX_CREDIT_MS: u32 = 1000;

/// The players' measured round trips and their quotas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lag {
    /// The latest round trip of each seat's connection (White, Black), ms.
    pub rtt_ms: [Option<u32>; 2],
    /// What each seat may still be credited, ms.
    pub quota_ms: [u32; 2],
}

impl Default for Lag {
    fn default() -> Self {
        Lag { rtt_ms: [None; 2], quota_ms: [START_MS; 2] }
    }
}

impl Lag {
    /// A new round trip of `side`'s connection: a running average, so that one slow
    /// ping does not count in full.
    pub fn measured(&mut self, side: Color, rtt_ms: u32) {
        let i = side.index();
        self.rtt_ms[i] = Some(match self.rtt_ms[i] {
            Some(old) => ((u64::from(old) * 3 + u64::from(rtt_ms)) / 4) as u32,
            None => rtt_ms,
        });
    }

    /// The time `side`'s next move is credited under `time` (real-time clocks only).
    pub fn credit(&self, side: Color, time: &TimeControl) -> u32 {
        if !matches!(time, TimeControl::Fischer { .. } | TimeControl::PerMove { .. }) {
            return 0;
        }
        let i = side.index();
        self.rtt_ms[i].unwrap_or(0).min(self.quota_ms[i]).min(MAX_CREDIT_MS)
    }

    /// `side` moved and was credited `credit`: its quota after.
    pub fn after_move(&self, side: Color, credit: u32) -> Lag {
        let mut next = *self;
        let q = &mut next.quota_ms[side.index()];
        *q = (q.saturating_sub(credit) + GAIN_MS).min(MAX_QUOTA_MS);
        next
    }

    /// How a connection is, from its round trip: `good` (under 150 ms), `fair` (under
    /// 400 ms) or `poor`.
    pub fn quality(rtt_ms: u32) -> &'static str {
        match rtt_ms {
            0..150 => "good",
            150..400 => "fair",
            _ => "poor",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLITZ: TimeControl = TimeControl::Fischer { initial_ms: 180_000, increment_ms: 2000 };

    #[test]
    fn a_slow_connection_is_credited_its_lag_within_the_quota() {
        let mut l = Lag::default();
        assert_eq!(l.credit(Color::White, &BLITZ), 0, "nothing measured: nothing credited");
        l.measured(Color::White, 400);
        assert_eq!(l.credit(Color::White, &BLITZ), 400);
        assert_eq!(l.credit(Color::Black, &BLITZ), 0, "each seat its own");
        for t in [TimeControl::None, TimeControl::Correspondence { days: 1 }] {
            assert_eq!(l.credit(Color::White, &t), 0, "{t:?}: no credit without a running clock");
        }
        // A lag of 800 ms every move: the quota (1000, +300 a move, 2000 at most) runs
        // down to what each move earns.
        let mut l = Lag::default();
        l.measured(Color::Black, 800);
        let mut credits = Vec::new();
        for _ in 0..6 {
            let c = l.credit(Color::Black, &BLITZ);
            credits.push(c);
            l = l.after_move(Color::Black, c);
        }
        assert_eq!(credits, [800, 500, 300, 300, 300, 300]);
        // A quick player banks no more than the bound.
        let mut l = Lag::default();
        for _ in 0..20 {
            l = l.after_move(Color::White, 0);
        }
        assert_eq!(l.quota_ms[0], MAX_QUOTA_MS);
        l.measured(Color::White, 5000);
        assert_eq!(l.credit(Color::White, &BLITZ), MAX_CREDIT_MS);
    }

    #[test]
    fn round_trips_are_averaged_and_rated() {
        let mut l = Lag::default();
        l.measured(Color::White, 100);
        l.measured(Color::White, 500);
        assert_eq!(l.rtt_ms[0], Some(200));
        assert_eq!((Lag::quality(40), Lag::quality(200), Lag::quality(900)), ("good", "fair", "poor"));
    }
}
