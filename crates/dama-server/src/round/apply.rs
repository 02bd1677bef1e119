//! Applying a decision (it cannot fail), and what of it the store keeps first.

use dama_core::game::Status;
use dama_core::Color;

use super::{Change, Decision, Effect, Phase, Refusal, Round, Seat};
use crate::protocol::{Event, EventBody};
use crate::store::{GameState, MoveRow};

/// What the store writes for a decision, in one transaction: the moves played, the
/// moves taken back (those after ply `keep` go), and the game's state when more than
/// its moves changed. A decision that only plays a move writes that move alone (its
/// row carries the version).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Persist {
    /// Moves to add.
    pub moves: Vec<MoveRow>,
    /// Keep the moves up to this ply (a takeback).
    pub keep: Option<i64>,
    /// The game's row as it stands after the decision.
    pub state: Option<GameState>,
}

impl Persist {
    /// True when nothing is written.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty() && self.keep.is_none() && self.state.is_none()
    }
}

/// What an applied decision leaves to do: the events with their versions, the events
/// that make none, the effects, the caller's refusal and the seat a join gave.
#[derive(Debug, Default)]
pub struct Applied {
    /// Versioned events, in order.
    pub events: Vec<Event>,
    /// Events that make no version (at the version the round has now).
    pub tells: Vec<Event>,
    /// What follows outside the round.
    pub effects: Vec<Effect>,
    /// The caller's refusal, if the game changed without doing what they asked.
    pub refusal: Option<Refusal>,
    /// The seat a join gave.
    pub seat: Option<Color>,
    /// The game's position or start changed (a move, a takeback, a seat): the player
    /// to move hears their legal moves.
    pub moved: bool,
}

impl Round {
    /// The game's row as it stands.
    pub fn state_row(&self) -> GameState {
        GameState {
            status: self.phase,
            white_token: self.seats[0].token.clone(),
            black_token: self.seats[1].token.clone(),
            result: self.outcome.as_ref().map(|o| o.token.clone()),
            reason: self.outcome.as_ref().map(|o| o.stored_reason()),
            version: self.version as i64,
            next_game: self.next_game.clone(),
            offers: self.offers.column(),
            // None while held: a restart brings the game back held.
            turn_started_ms: (!self.is_held()).then_some(self.turn_started_ms),
            end_clock_ms: (self.phase == Phase::Finished && self.clock.enabled())
                .then(|| self.clock.remaining[self.side().index()] as i64),
            accounts: self.seats.clone().map(|s: Seat| s.player.map(|p| p.id)),
            berserk: i64::from(self.clock.berserk[0]) | (i64::from(self.clock.berserk[1]) << 1),
        }
    }

    /// What the store keeps of `d` before it is applied.
    pub fn persist(&self, d: &Decision) -> Persist {
        let version = self.version + d.events.len() as u64;
        let mut p = Persist::default();
        let mut ply = self.game.ply();
        let mut more = false;
        for c in &d.changes {
            match c {
                Change::Moved { view, clock_ms, at_ms, .. } => {
                    ply += 1;
                    p.moves.push(MoveRow {
                        ply: ply as i64,
                        notation: view.long.clone(),
                        clock_ms: clock_ms.map(|c| c as i64),
                        at_ms: *at_ms,
                        v: Some(version as i64),
                    });
                }
                Change::TookBack { plies, .. } => {
                    ply -= plies;
                    p.keep = Some(ply as i64);
                    more = true;
                }
                // Kept in memory only.
                Change::Touched(_) | Change::Voted { .. } | Change::Arrived(_) => {}
                _ => more = true,
            }
        }
        if more || (p.moves.is_empty() && !d.events.is_empty()) {
            let mut after = self.clone();
            after.apply_changes(d.changes.clone());
            after.version = version;
            p.state = Some(after.state_row());
        }
        p
    }

    /// Applies a decision: the state changes, then the events take their versions.
    pub fn apply(&mut self, d: Decision) -> Applied {
        let moved = d
            .changes
            .iter()
            .any(|c| matches!(c, Change::Moved { .. } | Change::TookBack { .. } | Change::Seated { .. }));
        self.apply_changes(d.changes);
        let mut events = Vec::with_capacity(d.events.len());
        for body in d.events {
            self.version += 1;
            events.push(Event { v: self.version, body });
        }
        let tells = d.tells.into_iter().map(|body| Event { v: self.version, body }).collect();
        Applied { events, tells, effects: d.effects, refusal: d.refusal, seat: d.seat, moved }
    }

    fn apply_changes(&mut self, changes: Vec<Change>) {
        for c in changes {
            match c {
                Change::Moved { game, view, clock_ms, clock, at_ms, lag } => {
                    // The quotas; the round trips measured meanwhile stay.
                    self.lag.quota_ms = lag.quota_ms;
                    let comment = self.tallies().into_iter().map(|(m, n)| format!("{m} x{n}")).collect();
                    self.record.history.push(view);
                    self.record.clocks_after.push(clock_ms);
                    self.record.comments.push(comment);
                    self.game = game;
                    self.clock = clock;
                    self.turn_started_ms = at_ms;
                    self.after_moves();
                }
                Change::TookBack { game, plies, clock, at_ms } => {
                    for _ in 0..plies {
                        self.record.history.pop();
                        self.record.clocks_after.pop();
                        self.record.comments.pop();
                    }
                    self.game = game;
                    self.clock = clock;
                    self.turn_started_ms = at_ms;
                    self.after_moves();
                }
                Change::Seated { color, token, player, clock, at_ms } => {
                    self.seats[color.index()] = Seat { token: Some(token), player };
                    self.phase = Phase::Live;
                    self.clock = clock;
                    self.turn_started_ms = at_ms;
                }
                Change::Arrived(a) => self.held = Some(a),
                Change::Started { clock, at_ms } => {
                    self.held = None;
                    self.clock = clock;
                    self.turn_started_ms = at_ms;
                }
                Change::Offers(o) => self.offers = o,
                Change::Touched(t) => self.touched = t,
                Change::Voted { conn, mv } => {
                    self.votes.retain(|(c, _)| *c != conn);
                    self.votes.push((conn, mv));
                }
                Change::Ended { outcome, result, clock } => {
                    if !matches!(self.game.status(), Status::Over(_)) {
                        self.game.end(result);
                    }
                    self.phase = Phase::Finished;
                    self.held = None;
                    self.outcome = Some(outcome);
                    self.clock = clock;
                    self.offers.moved();
                    self.touched = None;
                    self.votes.clear();
                }
                Change::NextGame(id) => self.next_game = Some(id),
                Change::Berserk(c) => self.clock.go_berserk(c),
                Change::Rated(r) => self.ratings = r,
            }
        }
    }

    /// After a move or a takeback: the touched piece, the offers and the votes lapse.
    fn after_moves(&mut self) {
        self.touched = None;
        self.offers.moved();
        self.votes.clear();
    }
}

impl Decision {
    /// The versioned events' bodies (for tests and logs).
    pub fn event_types(&self) -> Vec<&'static str> {
        self.events.iter().map(EventBody::kind).collect()
    }
}
