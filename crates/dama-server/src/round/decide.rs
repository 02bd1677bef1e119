//! The decision: what an input does to a round, decided without changing it.

use dama_core::any::AnyGame;
use dama_core::game::{EndReason, GameResult, Status};
use dama_core::Color;

use super::{AskRefused, Change, Decision, Effect, Input, Now, Outcome, Refusal, Round, Who};
use crate::protocol::{Action, EventBody, Mode, Phase, Player};
use crate::secret;

/// Most distinct voters for one move.
pub const MAX_VOTERS: usize = 10_000;

type Decided = Result<Decision, Refusal>;

fn one_event(e: EventBody, change: Change) -> Decided {
    let mut d = Decision::default();
    d.push(change).event(e);
    Ok(d)
}

impl Round {
    /// Decides what `input` from `who` does at `now`.
    pub fn decide(&self, who: &Who, input: Input, now: Now) -> Decided {
        match input {
            Input::Act(action) => self.act(who, action, now),
            Input::Join { token, player, invite } => self.join(token, player, invite, now),
            Input::Arrived => Ok(self.arrive(&who.seats, now)),
            Input::Deadline => Ok(self.deadline_passed(now)),
            Input::EngineMove(text) => {
                if self.engine_to_move() {
                    self.play(&text, now)
                } else {
                    Ok(Decision::default())
                }
            }
            Input::DrawJudged { by, score } => Ok(self.draw_judged(by, score, now)),
            Input::Adjudicated(winner) => {
                Ok(self.end(GameResult { winner, reason: EndReason::Adjudication }, now).unwrap_or_default())
            }
            Input::Rated(ratings) => {
                let mut d = Decision::default();
                d.push(Change::Rated(ratings)).event(EventBody::Rated { ratings }).effect(Effect::Over);
                Ok(d)
            }
            Input::NextGameCreated { id, series } => {
                if self.next_game.is_some() {
                    return Ok(Decision::default());
                }
                one_event(EventBody::NextGame { id: id.clone(), series }, Change::NextGame(id))
            }
        }
    }

    fn act(&self, who: &Who, action: Action, now: Now) -> Decided {
        if let Action::Suggest { mv } = &action {
            return self.suggest(who, mv);
        }
        if matches!(action, Action::Chat { .. } | Action::HideChat { .. }) {
            // The chat room answers these; a round never sees them.
            return Ok(Decision::default());
        }
        let seats = &who.seats;
        if seats.is_empty() {
            return Err(Refusal::NotAPlayer);
        }
        if let Action::Rematch = action {
            return self.rematch(seats);
        }
        if self.phase == Phase::Finished {
            return Err(Refusal::GameOver);
        }
        let side = self.side();
        // On one device one token holds both seats: it acts for the side to move.
        let me = if seats.len() == 2 { side } else { seats[0] };
        match action {
            Action::Suggest { .. } | Action::Rematch | Action::Chat { .. } | Action::HideChat { .. } => {
                Ok(Decision::default())
            }
            Action::Touch { square } => self.touch(seats, square),
            Action::Takeback => self.takeback(me, seats, now),
            Action::AcceptTakeback => match self.offers.takeback.answerable_by(seats) {
                Some(by) => Ok(self.take_back(if side == by { 2 } else { 1 }, now)),
                None => Err(Refusal::NoTakebackRequest),
            },
            Action::DeclineTakeback => {
                self.decline(seats, |o| &mut o.takeback, EventBody::TakebackDeclined, Refusal::NoTakebackRequest)
            }
            Action::OfferDraw => self.offer_draw(me, seats.len() == 2, now),
            Action::AcceptDraw => match self.offers.draw.answerable_by(seats) {
                Some(_) => self.end(GameResult { winner: None, reason: EndReason::Agreement }, now),
                None => Err(Refusal::NoDrawOffer),
            },
            Action::DeclineDraw => self.decline(seats, |o| &mut o.draw, EventBody::DrawDeclined, Refusal::NoDrawOffer),
            Action::Move { mv } => {
                if self.phase != Phase::Live {
                    return Err(Refusal::NotStarted);
                }
                if !seats.contains(&side) {
                    return Err(Refusal::NotYourTurn(side));
                }
                if self.is_held() {
                    // The mover is there (their action said so): the opponent is not.
                    return Err(Refusal::OpponentNotHere);
                }
                if mv.len() > 200 {
                    return Err(Refusal::MoveTooLong);
                }
                self.play(&mv, now)
            }
            Action::Resign => self.end(GameResult { winner: Some(!me), reason: EndReason::Resignation }, now),
            Action::Berserk => self.berserk(me, now),
            Action::Abort => {
                if self.game.ply() >= 2 {
                    return Err(Refusal::CannotAbort);
                }
                self.end(GameResult { winner: None, reason: EndReason::Aborted }, now)
            }
        }
    }

    /// `me` goes berserk: in an event's game that allows it, with a game clock, before
    /// their first move, once.
    fn berserk(&self, me: Color, now: Now) -> Decided {
        let first = self.game.variant().first_to_move();
        let moved = self.game.ply() > usize::from(me != first);
        let fischer = matches!(self.opts.time, crate::clock::TimeControl::Fischer { .. });
        if !self.opts.berserk || !fischer || moved || self.clock.berserk[me.index()] || self.phase != Phase::Live {
            return Err(Refusal::NoBerserk);
        }
        let mut clock = self.clock.clone();
        clock.go_berserk(me);
        let clocks = super::clock_view(&clock, self.side(), now.at);
        one_event(EventBody::Berserk { color: me, clocks }, Change::Berserk(me))
    }

    /// One of `seats` declines the question `ask` picks (a draw offer, a takeback
    /// request): it closes and `declined` is told; `none` when there is none to answer.
    fn decline(
        &self,
        seats: &[Color],
        ask: fn(&mut super::Offers) -> &mut super::Ask,
        declined: EventBody,
        none: Refusal,
    ) -> Decided {
        let mut o = self.offers;
        if ask(&mut o).answerable_by(seats).is_none() {
            return Err(none);
        }
        ask(&mut o).close();
        one_event(declined, Change::Offers(o))
    }

    /// Plays a move for the side to move: the time charged, the move checked against
    /// the rules and touch-move, the game's end if it ends it.
    fn play(&self, text: &str, now: Now) -> Decided {
        let side = self.side();
        let mut clock = self.clock.clone();
        // The player's measured lag comes off the time charged, within their quota.
        let credit = self.lag_credit();
        if !clock.stop_credited(side, now.at, credit) {
            let mut d = self.end(GameResult { winner: Some(!side), reason: EndReason::Time }, now)?;
            d.refusal = Some(Refusal::TimeRanOut);
            return Ok(d);
        }
        let mut game = self.game.clone();
        let view = game.play(text).map_err(Refusal::IllegalMove)?;
        if let Some(t) = &self.touched {
            if view.path.first() != Some(t) {
                return Err(Refusal::MustMoveTouched(t.clone()));
            }
        }
        let ply = game.ply();
        let clock_ms = clock.enabled().then(|| clock.remaining[side.index()]);
        let fen = game.fen();
        // The next turn's clock: the side now to move starts.
        let mut next = clock;
        next.start(game.side(), game.single_forced_capture(), ply < 2, now.at);
        let clocks = super::clock_view(&next, game.side(), now.at);
        let mut d = Decision::default();
        let tallies = self.tallies();
        // What the game's end (or the engine's turn) adds, read before the game moves
        // into the change (one copy of the game per move, the decision's own).
        let status = game.status();
        let engine_turn = self.ai == Some(game.side());
        let end = match status {
            Status::Over(r) => Some(self.ended(&game, r, now)),
            _ => None,
        };
        let lag = self.lag.after_move(side, credit);
        d.push(Change::Moved { game, view: view.clone(), clock_ms, clock: next, at_ms: now.ms, lag });
        d.event(EventBody::Move { ply, mv: view, fen, clocks });
        if self.offers.draw.by().is_some() {
            d.event(EventBody::DrawDeclined);
        }
        if !tallies.is_empty() {
            d.effect(Effect::KeepSuggestions { ply, tallies });
        }
        match (status, end) {
            (_, Some(end)) => {
                d.changes.extend(end.changes);
                d.events.extend(end.events);
                d.effects.extend(end.effects);
            }
            (Status::NeedsAdjudication, None) => {
                d.effect(Effect::Adjudicate);
            }
            (_, None) => {
                if engine_turn {
                    d.effect(Effect::Think);
                }
            }
        }
        Ok(d)
    }

    /// Ends the game with `result` (a refusal when it is over already).
    fn end(&self, result: GameResult, now: Now) -> Decided {
        if self.phase == Phase::Finished {
            return Err(Refusal::GameOver);
        }
        Ok(self.ended(&self.game, result, now))
    }

    /// The game `game` ends with `result` at `now`.
    fn ended(&self, game: &AnyGame, result: GameResult, now: Now) -> Decision {
        let mut clock = self.clock.clone();
        clock.freeze(game.side(), now.at);
        let outcome = Outcome::of(game, result);
        let mut d = Decision::default();
        d.push(Change::Ended { outcome: outcome.clone(), result, clock })
            .event(EventBody::End { result: outcome.view() });
        d.effect(Effect::StopThinking);
        let rated = self.opts.rated && self.seats.iter().all(|s| s.player.is_some()) && !result.reason.is_void();
        d.effect(if rated { Effect::Rate } else { Effect::Over });
        if !result.reason.is_void() {
            if let Some(next) = self.series_next(outcome.winner) {
                d.effect(Effect::NextGame(Some(next)));
            }
        }
        d
    }

    /// The deadline came: the flag fell (the game is lost, or called off before the
    /// first move), or an unclocked game has waited too long for its player, or a held
    /// one for its players (called off: it has no move).
    fn deadline_passed(&self, now: Now) -> Decision {
        if self.phase != Phase::Live {
            return Decision::default();
        }
        let side = self.side();
        if !self.clock.enabled() || self.is_held() {
            return match self.abandoned_at_ms() {
                Some(at) if now.ms >= at => {
                    let reason = if self.game.ply() < 2 || self.opts.mode == Mode::Hotseat {
                        GameResult { winner: None, reason: EndReason::Abandoned }
                    } else {
                        GameResult { winner: Some(!side), reason: EndReason::Abandonment }
                    };
                    self.ended(&self.game, reason, now)
                }
                _ => Decision::default(),
            };
        }
        // The flag's own deadline: the clock's, and the lag a move in transit may claim.
        match self.deadline(now) {
            Some(d) if d <= now.at => {}
            _ => return Decision::default(),
        }
        if self.clock.first_move_until.is_some() && self.opts.tournament.is_some() {
            // A tournament game: the player who did not come loses it.
            self.ended(&self.game, GameResult { winner: Some(!side), reason: EndReason::Abandonment }, now)
        } else if self.clock.first_move_until.is_some() {
            // No first move in time: the game is called off, nobody loses.
            self.ended(&self.game, GameResult { winner: None, reason: EndReason::NoFirstMove(side) }, now)
        } else {
            self.ended(&self.game, GameResult { winner: Some(!side), reason: EndReason::Time }, now)
        }
    }

    fn join(&self, token: String, player: Option<Player>, invite: Option<String>, now: Now) -> Decided {
        if self.phase != Phase::Waiting {
            return Err(Refusal::NoFreeSeat);
        }
        if self.opts.rated {
            match &player {
                None => return Err(Refusal::LogInForRated),
                Some(p) if p.guest => return Err(Refusal::GuestRated),
                Some(p) if self.seats.iter().any(|s| s.player.as_ref().is_some_and(|q| q.id == p.id)) => {
                    return Err(Refusal::RatedAgainstSelf)
                }
                Some(_) => {}
            }
        }
        if self.opts.mode == Mode::Friend {
            let ok = match (&invite, &self.invite_hash) {
                (Some(s), Some(h)) => secret::matches(s, h),
                _ => false,
            };
            if !ok {
                return Err(Refusal::InviteNeeded);
            }
        }
        let free = Color::ALL.into_iter().find(|c| self.seats[c.index()].token.is_none()).ok_or(Refusal::NoFreeSeat)?;
        let clock = self.clock_started(now);
        let clocks = super::clock_view(&clock, self.side(), now.at);
        let view = player.as_ref().map(|p| crate::protocol::PlayerView { name: p.name.clone(), rating: None });
        let mut d = Decision::default();
        d.push(Change::Seated { color: free, token, player, clock, at_ms: now.ms })
            .event(EventBody::Joined { color: free, player: view, clocks })
            .effect(Effect::Started);
        d.seat = Some(free);
        Ok(d)
    }

    fn offer_draw(&self, by: Color, hotseat: bool, now: Now) -> Decided {
        let ply = self.game.ply();
        if self.ai == Some(!by) {
            if self.offers.draw.last_at(by) == Some(ply) {
                return Err(Refusal::DrawOfferedThisMove);
            }
            let mut d = Decision::default();
            d.effect(Effect::JudgeDraw(by));
            return Ok(d);
        }
        if hotseat {
            // Both players are at the board: an offer is an agreement.
            return self.end(GameResult { winner: None, reason: EndReason::Agreement }, now);
        }
        self.offers.draw.may_ask(by, ply).map_err(|e| match e {
            AskRefused::Pending => Refusal::DrawOfferPending,
            AskRefused::ThisMove => Refusal::DrawOfferedThisMove,
        })?;
        let mut o = self.offers;
        o.draw.ask(by, ply);
        one_event(EventBody::DrawOffer { by }, Change::Offers(o))
    }

    /// The engine answers a draw offer after a short search of its own
    /// ([`super::draw_offer`]: clearly worse, a drawn ending, or late in an even game).
    fn draw_judged(&self, by: Color, score: i32, now: Now) -> Decision {
        if self.phase != Phase::Live {
            return Decision::default();
        }
        let ply = self.game.ply();
        let engine = !by;
        let engine_score = if self.side() == engine { score } else { -score };
        if super::draw_offer::engine_agrees(self.opts.level, engine_score, ply, self.game.pieces().len()) {
            return self.ended(&self.game, GameResult { winner: None, reason: EndReason::Agreement }, now);
        }
        let mut o = self.offers;
        o.draw.asked_and_answered(by, ply);
        let mut d = Decision::default();
        d.push(Change::Offers(o)).event(EventBody::DrawDeclined);
        d
    }

    fn takeback(&self, by: Color, seats: &[Color], now: Now) -> Decided {
        let ply = self.game.ply();
        match self.opts.mode {
            Mode::Hotseat => {
                if ply == 0 {
                    return Err(Refusal::NothingToTakeBack);
                }
                Ok(self.take_back(1, now))
            }
            Mode::Ai => {
                if self.side() != seats[0] {
                    return Err(Refusal::WaitForEngine);
                }
                if ply < 2 {
                    return Err(Refusal::NoMoveOfYours);
                }
                Ok(self.take_back(2, now))
            }
            Mode::Friend | Mode::Open => {
                if ply == 0 {
                    return Err(Refusal::NothingToTakeBack);
                }
                self.offers.takeback.may_ask(by, ply).map_err(|e| match e {
                    AskRefused::Pending => Refusal::TakebackPending,
                    AskRefused::ThisMove => Refusal::TakebackAskedThisMove,
                })?;
                let mut o = self.offers;
                o.takeback.ask(by, ply);
                one_event(EventBody::TakebackOffer { by }, Change::Offers(o))
            }
        }
    }

    /// Takes back `n` plies (at most those played).
    fn take_back(&self, n: usize, now: Now) -> Decision {
        let n = n.min(self.game.ply());
        let mut game = self.game.clone();
        for _ in 0..n {
            game.undo();
        }
        let mut clock = self.clock.clone();
        clock.start(game.side(), game.single_forced_capture(), game.ply() < 2, now.at);
        let fen = game.fen();
        let engine_next = self.ai == Some(game.side());
        let clocks = super::clock_view(&clock, game.side(), now.at);
        let mut d = Decision::default();
        d.push(Change::TookBack { game, plies: n, clock, at_ms: now.ms })
            .event(EventBody::Takeback { plies: n, fen, clocks })
            .effect(Effect::StopThinking);
        if engine_next {
            d.effect(Effect::Think);
        }
        d
    }

    fn rematch(&self, seats: &[Color]) -> Decided {
        if self.phase != Phase::Finished {
            return Err(Refusal::RematchTooEarly);
        }
        if let Some(id) = &self.next_game {
            return Err(Refusal::NextGameExists(id.clone()));
        }
        let mut d = Decision::default();
        match self.opts.mode {
            Mode::Ai | Mode::Hotseat => {
                d.effect(Effect::NextGame(None));
            }
            Mode::Friend | Mode::Open => {
                let by = seats[0];
                match self.offers.rematch {
                    Some(c) if c == !by => {
                        d.effect(Effect::NextGame(None));
                    }
                    Some(_) => return Err(Refusal::RematchAsked),
                    None => {
                        let mut o = self.offers;
                        o.rematch = Some(by);
                        d.push(Change::Offers(o)).event(EventBody::RematchOffer { by });
                    }
                }
            }
        }
        Ok(d)
    }

    fn touch(&self, seats: &[Color], square: String) -> Decided {
        let side = self.side();
        if !seats.contains(&side) {
            return Err(Refusal::NotYourTurn(side));
        }
        if !self.opts.touch_move {
            return Ok(Decision::default());
        }
        if let Some(t) = &self.touched {
            return if *t == square { Ok(Decision::default()) } else { Err(Refusal::TouchedAnother(t.clone())) };
        }
        let mut d = Decision::default();
        if self.game.legal().iter().any(|v| v.path.first() == Some(&square)) {
            d.push(Change::Touched(Some(square)));
        }
        Ok(d)
    }

    fn suggest(&self, who: &Who, text: &str) -> Decided {
        if !self.opts.suggestions {
            return Err(Refusal::SuggestionsOff);
        }
        if !who.seats.is_empty() {
            return Err(Refusal::PlayersCannotSuggest);
        }
        let Some(conn) = who.conn else { return Err(Refusal::SuggestOverSocket) };
        if self.phase != Phase::Live {
            return Err(Refusal::NotBeingPlayed);
        }
        let legal = self.game.legal();
        let Some(m) = legal.iter().find(|v| v.notation == text || v.long == text) else {
            return Err(Refusal::NotLegalHere(text.chars().take(40).collect()));
        };
        let voted = self.votes.iter().any(|(c, _)| *c == conn);
        if self.votes.len() >= MAX_VOTERS && !voted {
            return Err(Refusal::TooManySuggestions);
        }
        let mut votes: Vec<(u64, String)> = self.votes.iter().filter(|(c, _)| *c != conn).cloned().collect();
        votes.push((conn, m.notation.clone()));
        let mut d = Decision::default();
        d.push(Change::Voted { conn, mv: m.notation.clone() });
        d.tells.push(EventBody::Suggestions {
            ply: self.game.ply() + 1,
            to: self.side(),
            moves: super::tallies(&votes),
        });
        Ok(d)
    }
}
