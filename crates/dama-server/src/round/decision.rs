//! What a round decides on ([`Input`]) and what it decides ([`Decision`]: the state
//! [`Change`]s, the events, the [`Effect`]s that follow outside the round).

use dama_core::any::{AnyGame, MoveView};
use dama_core::game::GameResult;
use dama_core::Color;

use super::{Arrivals, Offers, Outcome, Refusal};
use crate::clock::Clock;
use crate::protocol::{Action, EventBody, Player, RatingView, SeriesState};

/// What the round is asked to decide on.
#[derive(Clone, Debug)]
pub enum Input {
    /// A player's (or a spectator's) action.
    Act(Action),
    /// Take the free seat: the new token's hash (the token is made outside), the
    /// account, the invite shown.
    Join {
        /// SHA-256 of the new seat token.
        token: String,
        /// The logged-in player, if any.
        player: Option<Player>,
        /// The invite secret shown (friend games).
        invite: Option<String>,
    },
    /// The caller's players are there (they opened the game, or acted in it): a held
    /// game starts once all its players are.
    Arrived,
    /// The deadline came: a flag, a first move, an abandoned game.
    Deadline,
    /// The engine's move.
    EngineMove(String),
    /// The engine judged `by`'s draw offer: its score for the side to move.
    DrawJudged {
        /// Who offered.
        by: Color,
        /// The engine's score for the side to move, hundredths of a man.
        score: i32,
    },
    /// The arbiter decided (seed 003): the winner, or a draw.
    Adjudicated(Option<Color>),
    /// The rated game's ratings changed so (White's, Black's).
    Rated([Option<RatingView>; 2]),
    /// The next game exists.
    NextGameCreated {
        /// Its id.
        id: String,
        /// Its place in the series.
        series: Option<SeriesState>,
    },
}

/// A change of the round's state.
#[derive(Clone, Debug)]
pub enum Change {
    /// A move: the game after it, the move as played, the mover's clock after it, and
    /// the clock with the next turn started at `at_ms`.
    Moved {
        /// The game after the move.
        game: AnyGame,
        /// The move.
        view: MoveView,
        /// The mover's time left after it.
        clock_ms: Option<u64>,
        /// The clock, the next turn started.
        clock: Clock,
        /// When.
        at_ms: i64,
        /// The players' lag quotas after it.
        lag: super::lag::Lag,
    },
    /// `plies` taken back: the game after, the clock restarted at `at_ms`.
    TookBack {
        /// The game after.
        game: AnyGame,
        /// How many.
        plies: usize,
        /// The clock.
        clock: Clock,
        /// When.
        at_ms: i64,
    },
    /// A seat taken: the game starts.
    Seated {
        /// The seat.
        color: Color,
        /// Its token's hash.
        token: String,
        /// The account there.
        player: Option<Player>,
        /// The clock, the first turn started.
        clock: Clock,
        /// When.
        at_ms: i64,
    },
    /// More of a held game's players are there (kept in memory only).
    Arrived(Arrivals),
    /// A held game starts: its players are there; the clock, the first turn started
    /// at `at_ms`.
    Started {
        /// The clock, the first turn started.
        clock: Clock,
        /// When.
        at_ms: i64,
    },
    /// The offers now.
    Offers(Offers),
    /// The touched piece now.
    Touched(Option<String>),
    /// A spectator's suggestion for the move to come.
    Voted {
        /// The spectator's connection.
        conn: u64,
        /// The move suggested (short notation).
        mv: String,
    },
    /// The game ended: its outcome, the clock frozen.
    Ended {
        /// The result.
        outcome: Outcome,
        /// Core's result, to end the game with.
        result: GameResult,
        /// The clock, frozen.
        clock: Clock,
    },
    /// The next game exists.
    NextGame(String),
    /// A player went berserk.
    Berserk(Color),
    /// The ratings changed.
    Rated([Option<RatingView>; 2]),
}

/// What follows a decision outside the round.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// The engine's turn: search its move (the answer comes as [`Input::EngineMove`]).
    Think,
    /// The engine's search stops (the game ended, or a move was taken back).
    StopThinking,
    /// The engine judges `by`'s draw offer ([`Input::DrawJudged`]).
    JudgeDraw(Color),
    /// The arbiter decides the game ([`Input::Adjudicated`]).
    Adjudicate,
    /// The game started: it leaves the lobby; the players' programs hear of it.
    Started,
    /// A rated game ended: rate it ([`Input::Rated`]).
    Rate,
    /// The game is over (rated, if it is rated): it leaves the lobby; what follows a
    /// game's end hears of it (the explorer, the players' programs).
    Over,
    /// Create the next game, in the series or a rematch ([`Input::NextGameCreated`]).
    NextGame(Option<SeriesState>),
    /// Keep the spectators' suggestions of the move at `ply`.
    KeepSuggestions {
        /// The move's ply.
        ply: usize,
        /// The moves suggested, with how many suggested each.
        tallies: Vec<(String, usize)>,
    },
}

/// What the round decided.
#[derive(Clone, Debug, Default)]
pub struct Decision {
    /// The state changes, in order.
    pub changes: Vec<Change>,
    /// The versioned events, in order (their versions follow the round's).
    pub events: Vec<EventBody>,
    /// Events that make no version (suggestions; the legal moves come after apply).
    pub tells: Vec<EventBody>,
    /// What follows, outside the round.
    pub effects: Vec<Effect>,
    /// The caller's action is refused although the game changed (the mover's time
    /// had run out: the game is over).
    pub refusal: Option<Refusal>,
    /// The seat a join gave.
    pub seat: Option<Color>,
}

impl Decision {
    pub(super) fn push(&mut self, change: Change) -> &mut Self {
        self.changes.push(change);
        self
    }

    pub(super) fn event(&mut self, e: EventBody) -> &mut Self {
        self.events.push(e);
        self
    }

    pub(super) fn effect(&mut self, e: Effect) -> &mut Self {
        self.effects.push(e);
        self
    }

    /// True when nothing changes.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.events.is_empty() && self.tells.is_empty() && self.effects.is_empty()
    }
}
