//! A game's round, pure: its state ([`Round`]: the position and moves, where the game
//! stands, the seats, the clock, the offers, the series link, the touched piece, the
//! result) and one decision function, [`Round::decide`], which reads the state and an
//! [`Input`] (a player's action, the clock's deadline, what the engine or the store
//! answered) and returns a [`Decision`]: the state changes, the events to broadcast and
//! the effects to run (think, adjudicate, rate, create the next game, tell the lobby).
//! A next game is created held ([`Round::hold`]): its clock starts once its players are
//! there.
//! No store, no channels, no `async`: the game's task ([`crate::game`]) decides, stores
//! what [`Round::persist`] says in one transaction, then [`Round::apply`]s (which
//! cannot fail), broadcasts and runs the effects. A store failure leaves the round
//! untouched.

mod apply;
mod arrival;
mod decide;
mod decision;
pub mod draw_offer;
pub mod lag;
mod offers;
mod outcome;
pub mod refusal;
mod restore;

#[cfg(test)]
mod tests;

pub use apply::{Applied, Persist};
pub use arrival::Arrivals;
pub use decide::MAX_VOTERS;
pub use decision::{Change, Decision, Effect, Input};
pub use draw_offer::{ENGINE_DRAW_MARGIN, ENGINE_DRAW_PLY};
pub use offers::{Ask, AskRefused, Offers};
pub use outcome::{legacy_reason, Outcome};
pub use refusal::Refusal;
pub use restore::{Resumed, Stored, Unreadable};

use dama_core::any::{AnyGame, MoveView};
use dama_core::game::DrawRules;
use dama_core::Color;
use tokio::time::Instant;

use crate::clock::{Clock, TimeControl};
use crate::protocol::{
    ClockView, Mode, Options, Phase, Player, PlayerView, RatingView, RulesChoice, SeriesState, Snapshot,
};
use crate::secret;

/// How long an unclocked game against the engine or on one device may wait for a move.
pub const ALONE_MS: i64 = 86_400_000;
/// How long an unclocked game between two players online may wait for a move.
pub const ONLINE_MS: i64 = 7 * 86_400_000;

/// How long a game of `mode` without a clock may wait for a move before it ends by
/// itself (`DAMA_ABANDON_MS` sets one wait for every mode, for tests and for sites that
/// want another).
pub fn patience(mode: Mode) -> i64 {
    static SET: std::sync::OnceLock<Option<i64>> = std::sync::OnceLock::new();
    let set = *SET.get_or_init(|| std::env::var("DAMA_ABANDON_MS").ok().and_then(|v| v.parse().ok()));
    set.unwrap_or(match mode {
        Mode::Ai | Mode::Hotseat => ALONE_MS,
        Mode::Friend | Mode::Open => ONLINE_MS,
    })
}

/// Now, on the runtime's clock (deadlines) and the wall clock (what is stored).
#[derive(Clone, Copy, Debug)]
pub struct Now {
    /// The runtime's clock.
    pub at: Instant,
    /// Milliseconds since the epoch.
    pub ms: i64,
}

impl Now {
    /// This instant.
    pub fn current() -> Now {
        Now { at: Instant::now(), ms: crate::clock::now_ms() }
    }
}

/// A seat: the hash of its token, once taken, and the account there, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seat {
    /// SHA-256 of the seat token.
    pub token: Option<String>,
    /// The logged-in player at it.
    pub player: Option<Player>,
}

/// The moves as played, with what the record keeps beside them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Each move as clients see it.
    pub history: Vec<MoveView>,
    /// The mover's clock after each move.
    pub clocks_after: Vec<Option<u64>>,
    /// The spectators' suggestions of each move (`"11-15 x3"`).
    pub comments: Vec<Vec<String>>,
}

/// Who asks: the seats their token (or their account) holds, and their websocket.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Who {
    /// The seats held: none for a spectator, both on one device.
    pub seats: Vec<Color>,
    /// The websocket connection, for a spectator's suggestion.
    pub conn: Option<u64>,
}

/// A game's round.
#[derive(Clone, Debug)]
pub struct Round {
    /// The game's id.
    pub id: String,
    /// Its settings.
    pub opts: Options,
    /// When it was created, ms since the epoch.
    pub created_ms: i64,
    /// The position and the moves, under the rules in force.
    pub game: AnyGame,
    /// Where it stands.
    pub phase: Phase,
    /// White's seat and Black's.
    pub seats: [Seat; 2],
    /// The engine's colour, in a game against it.
    pub ai: Option<Color>,
    /// SHA-256 of a friend game's invite secret.
    pub invite_hash: Option<String>,
    /// The clocks.
    pub clock: Clock,
    /// When the side to move's turn began, ms since the epoch (while held: when the
    /// game was created).
    pub turn_started_ms: i64,
    /// While the game waits for its players before its clock starts (a rematch, the
    /// next game of a series): which of them are there.
    pub held: Option<Arrivals>,
    /// Pending offers.
    pub offers: Offers,
    /// The rematch or next game of the series, once created.
    pub next_game: Option<String>,
    /// Touch-move: the square of the piece the player to move touched.
    pub touched: Option<String>,
    /// The result, once over.
    pub outcome: Option<Outcome>,
    /// What a rated game did to the players' ratings, once rated.
    pub ratings: [Option<RatingView>; 2],
    /// The moves with their clocks and comments.
    pub record: Record,
    /// The spectators' suggestions for the move to come, by connection.
    pub votes: Vec<(u64, String)>,
    /// The version: how many versioned events the game has made.
    pub version: u64,
    /// The players' connections as measured, and their lag quotas ([`lag`]).
    pub lag: lag::Lag,
}

/// The clocks as clients see them at `now`, `side` to move.
pub fn clock_view(clock: &Clock, side: Color, now: Instant) -> Option<ClockView> {
    clock.enabled().then(|| ClockView {
        white_ms: clock.left(Color::White, side, now),
        black_ms: clock.left(Color::Black, side, now),
        running: clock.running_since.map(|_| side),
        first_move_ms: clock.first_move_left(now),
    })
}

/// Suggested moves with how many suggested each, most first.
pub fn tallies(votes: &[(u64, String)]) -> Vec<(String, usize)> {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for (_, m) in votes {
        *counts.entry(m.as_str()).or_default() += 1;
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().map(|(m, n)| (m.to_string(), n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// The rules a choice of rulebook sets for a variant.
pub fn rules_of(variant: dama_core::Variant, r: RulesChoice) -> DrawRules {
    DrawRules::preset(variant, preset_of(r))
}

/// The core's preset of a rulebook choice.
pub fn preset_of(r: RulesChoice) -> dama_core::game::RulePreset {
    use dama_core::game::RulePreset;
    match r {
        RulesChoice::Official => RulePreset::Official,
        RulesChoice::Seed000 => RulePreset::Seed000,
        RulesChoice::Seed001 => RulePreset::Seed001,
        RulesChoice::Seed003 => RulePreset::Seed003,
    }
}

/// The engine's colour in a game of `mode`: the seat left without a token in a game
/// against it (the player's seat has one).
pub fn engine_color(mode: Mode, white_seat_taken: bool) -> Option<Color> {
    (mode == Mode::Ai).then_some(if white_seat_taken { Color::Black } else { Color::White })
}

impl Round {
    /// A new round: `game` from its start, the seats as created, waiting for a second
    /// player in an online game with a free seat, else live from `now`.
    pub fn new(
        id: String,
        opts: Options,
        game: AnyGame,
        seats: [Seat; 2],
        invite_hash: Option<String>,
        now: Now,
    ) -> Round {
        let phase =
            if opts.mode.online() && seats.iter().any(|s| s.token.is_none()) { Phase::Waiting } else { Phase::Live };
        let ai = engine_color(opts.mode, seats[0].token.is_some());
        let mut r = Round {
            id,
            clock: Clock::of_game(&opts),
            opts,
            created_ms: now.ms,
            game,
            phase,
            seats,
            ai,
            invite_hash,
            turn_started_ms: now.ms,
            held: None,
            offers: Offers::default(),
            next_game: None,
            touched: None,
            outcome: None,
            ratings: [None, None],
            record: Record::default(),
            votes: Vec::new(),
            version: 0,
            lag: lag::Lag::default(),
        };
        if r.phase == Phase::Live {
            r.clock = r.clock_started(now);
        }
        r
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.game.side()
    }

    /// The seats a seat token holds.
    pub fn seats_of_token(&self, token: Option<&str>) -> Vec<Color> {
        let Some(t) = token else { return Vec::new() };
        Color::ALL
            .into_iter()
            .filter(|c| self.seats[c.index()].token.as_deref().is_some_and(|h| secret::matches(t, h)))
            .collect()
    }

    /// The seats an account (a program playing for it) holds.
    pub fn seats_of_account(&self, account: &str) -> Vec<Color> {
        Color::ALL
            .into_iter()
            .filter(|c| self.seats[c.index()].player.as_ref().is_some_and(|p| p.id == account))
            .collect()
    }

    /// The logged-in players.
    pub fn players(&self) -> [Option<Player>; 2] {
        [self.seats[0].player.clone(), self.seats[1].player.clone()]
    }

    /// The clock with the side to move's time started at `now` (seed 003's shorter
    /// limit when its only legal move is a single capture; before each side's first
    /// move only the wait for that move runs).
    pub fn clock_started(&self, now: Now) -> Clock {
        let mut c = self.clock.clone();
        let first = self.game.ply() < 2;
        c.start(self.side(), self.game.single_forced_capture(), first, now.at);
        c
    }

    /// The clocks as clients see them, at `now`.
    pub fn clock_view(&self, now: Instant) -> Option<ClockView> {
        clock_view(&self.clock, self.side(), now)
    }

    /// The players as clients see them.
    pub fn player_views(&self) -> [Option<PlayerView>; 2] {
        [0, 1].map(|i| {
            self.seats[i].player.as_ref().map(|p| PlayerView { name: p.name.clone(), rating: self.ratings[i] })
        })
    }

    /// The game at `now` as clients see it.
    pub fn snapshot(&self, now: Instant) -> Snapshot {
        Snapshot {
            id: self.id.clone(),
            variant: self.game.variant().key().into(),
            mode: self.opts.mode,
            version: self.version,
            start_fen: self.game.start_fen(),
            fen: self.game.fen(),
            pieces: self.game.pieces(),
            side_to_move: self.side(),
            legal: if self.phase == Phase::Live { self.game.legal() } else { Vec::new() },
            moves: self.record.history.clone(),
            state: self.phase,
            result: self.outcome.as_ref().map(Outcome::view),
            clocks: self.clock_view(now),
            seats: [0, 1].map(|i| self.seats[i].token.is_some() || self.ai == Some(Color::ALL[i])),
            ai: self.ai,
            draw_offer: self.offers.draw.by(),
            next_game: self.next_game.clone(),
            takeback_offer: self.offers.takeback.by(),
            rematch_offer: self.offers.rematch,
            options: self.opts.clone(),
            players: self.player_views(),
            held: self.is_held(),
            berserk: self.clock.berserk,
            connection: self.lag.rtt_ms,
        }
    }

    /// The legal moves the player to move hears (and spectators who may suggest moves),
    /// if the game is being played.
    pub fn legal_event(&self) -> Option<crate::protocol::EventBody> {
        (self.phase == Phase::Live).then(|| crate::protocol::EventBody::Legal {
            to: self.side(),
            moves: self.game.legal(),
            spectators: self.opts.suggestions,
        })
    }

    /// When this game counts as abandoned if nobody moves before (epoch ms): unclocked
    /// live games waiting for a player (not for the engine), and held games nobody
    /// came to (from their creation; they end void, as no clock ever ran).
    pub fn abandoned_at_ms(&self) -> Option<i64> {
        let waits_for_player = self.ai != Some(self.side());
        (self.phase == Phase::Live && (self.is_held() || (!self.clock.enabled() && waits_for_player)))
            .then(|| self.turn_started_ms.saturating_add(patience(self.opts.mode)))
    }

    /// When the game's task must look at it again (a flag falls, a first move is late,
    /// an unclocked or held game may be abandoned), on the runtime's clock.
    pub fn deadline(&self, now: Now) -> Option<Instant> {
        if self.phase != Phase::Live {
            None
        } else if self.clock.enabled() && !self.is_held() {
            // The flag waits for the credit a move in transit could claim.
            let credit = std::time::Duration::from_millis(self.lag_credit().into());
            self.clock.deadline(self.side()).map(|d| d + credit)
        } else {
            let at = self.abandoned_at_ms()?;
            let wait = u64::try_from(at - now.ms).unwrap_or(0);
            now.at.checked_add(std::time::Duration::from_millis(wait))
        }
    }

    /// What the side to move's next move is credited for its lag ([`lag`]): nothing
    /// while its first move is awaited (that wait charges no time).
    pub fn lag_credit(&self) -> u32 {
        match self.clock.first_move_until {
            Some(_) => 0,
            None => self.lag.credit(self.side(), &self.opts.time),
        }
    }

    /// True while it is the engine's turn in a game being played (not held).
    pub fn engine_to_move(&self) -> bool {
        self.phase == Phase::Live && !self.is_held() && self.ai == Some(self.side())
    }

    /// The spectators' suggestions for the move to come, most first.
    pub fn tallies(&self) -> Vec<(String, usize)> {
        tallies(&self.votes)
    }

    /// The next game of a series after this one ends with `winner`: its state, or
    /// `None` when the series is over (or the next game exists).
    pub fn series_next(&self, winner: Option<Color>) -> Option<SeriesState> {
        let st = self.opts.series_state.clone()?;
        if st.game >= self.opts.series || self.next_game.is_some() {
            return None;
        }
        let mut score = st.score;
        match winner {
            Some(c) => score[c.index()] += 1.0,
            None => {
                score[0] += 0.5;
                score[1] += 0.5;
            }
        }
        Some(SeriesState { game: st.game + 1, score: [score[1], score[0]] })
    }

    /// Whether the clock is a correspondence or no clock at all (the engine then
    /// thinks a fixed time).
    pub fn fixed_engine_time(&self) -> bool {
        matches!(self.clock.control, TimeControl::None | TimeControl::Correspondence { .. })
    }
}
