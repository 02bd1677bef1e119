//! A game held until its players are there: the next game of a series and a rematch
//! are created at once, when the game before ends, but their clocks start as a first
//! game's do, once the players have come. While held the game is live (its moves can
//! be seen) but no clock runs, no first-move wait, and the engine does not think; it
//! starts when every seat a person plays has been opened (a websocket with the seat's
//! token, a program's game stream, or any action of that seat).

use dama_core::Color;

use super::{Change, Decision, Effect, Now, Round};
use crate::clock::Clock;
use crate::protocol::{EventBody, Phase};

/// Which seats' players have opened a held game (White's, Black's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arrivals(pub [bool; 2]);

impl Arrivals {
    /// These arrivals and `seats`'.
    fn with(mut self, seats: &[Color]) -> Arrivals {
        for c in seats {
            self.0[c.index()] = true;
        }
        self
    }
}

impl Round {
    /// Holds a new live game until its players are there: its clock stands as created
    /// and nothing runs (a game that is not live is left as it is).
    pub fn hold(mut self) -> Round {
        if self.phase == Phase::Live {
            self.clock = Clock::of_game(&self.opts);
            self.held = Some(Arrivals::default());
        }
        self
    }

    /// True while the game waits for its players before its clock starts.
    pub fn is_held(&self) -> bool {
        self.held.is_some()
    }

    /// The seats a person plays (the engine's needs nobody): the game starts once
    /// they have all been opened.
    fn awaited(&self) -> impl Iterator<Item = Color> + '_ {
        Color::ALL.into_iter().filter(|c| self.ai != Some(*c) && self.seats[c.index()].token.is_some())
    }

    /// The players of `seats` are there: noted, and once every seat a person plays is
    /// there the game starts (the clock as a first game's, the engine thinks if it is
    /// to move). Nothing for a game not held, or for a spectator.
    pub(super) fn arrive(&self, seats: &[Color], now: Now) -> Decision {
        let mut d = Decision::default();
        let Some(arrived) = self.held else { return d };
        if seats.is_empty() || self.phase != Phase::Live {
            return d;
        }
        let arrived = arrived.with(seats);
        if !self.awaited().all(|c| arrived.0[c.index()]) {
            if Some(arrived) != self.held {
                d.push(Change::Arrived(arrived));
            }
            return d;
        }
        let clock = self.clock_started(now);
        let clocks = super::clock_view(&clock, self.side(), now.at);
        d.push(Change::Started { clock, at_ms: now.ms }).event(EventBody::Started { clocks });
        if self.ai == Some(self.side()) {
            d.effect(Effect::Think);
        }
        d
    }
}
