//! One task per game in memory: it owns the game, the clock and the seats; players and
//! spectators talk to it over channels and hear versioned events. Each concern has its
//! own file: [`setup`] (creating and restoring), [`offers`] (draw, takeback, rematch),
//! [`suggest`] (spectators' suggestions), [`ai`] (the engine's side), [`series`] (the
//! next game). Every event is stored before it is announced, with its version, so
//! versions never go back and a restart loses nothing.

mod abandon;
mod ai;
mod chat;
mod export;
mod handle;
mod offers;
mod rated;
mod reason;
mod seek;
mod series;
mod setup;
mod suggest;
mod types;

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::ws::Utf8Bytes;
use dama_core::game::{EndReason, GameResult, Status};
use dama_core::Color;
use dama_engine::level::Level;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

pub use abandon::patience;
pub use chat::room_of as chat_room;
pub use export::stored_pdn;
use handle::Cmd;
pub use handle::GameHandle;
pub use seek::rating_for;
pub use setup::{create, has_clock, restore, Created};
pub use types::*;

use crate::clock::Clock;
use crate::error::ApiError;
use crate::pool::SearchJob;
use crate::registry::Ctx;
use crate::secret;
use crate::session::{ended, MoveView, Session};
use crate::store::{GameState, MoveRow};

/// At most this many recent events are kept for clients that resume with `since`;
/// one further behind gets a snapshot.
pub const LOG_EVENTS: usize = 128;

/// Who is asking: the seat token they showed, and their websocket connection (which
/// identifies a spectator for suggestions; HTTP requests have none).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Caller {
    /// The seat token, if any.
    pub token: Option<String>,
    /// The websocket connection, if the action came over one.
    pub conn: Option<u64>,
    /// The account a program acts for (the bot API): it holds the seats where that
    /// account sits.
    pub account: Option<String>,
    /// A moderator acts (the server checked the role); never set from a request.
    #[serde(default)]
    pub moderator: bool,
}

/// What a new websocket asks for.
#[derive(Clone, Debug)]
pub struct Hello {
    /// The seat token, if any.
    pub token: Option<String>,
    /// The last version the client has seen.
    pub since: Option<u64>,
    /// The client's address.
    pub ip: IpAddr,
}

/// What a client gets first: the events it missed, or the whole game.
#[derive(Debug, Serialize, Deserialize)]
pub enum Catchup {
    /// The game now.
    Snapshot(Box<Snapshot>),
    /// The events after the client's version (possibly none).
    Events(Vec<Event>),
}

/// A subscriber's start: what it missed, the events to come, its seats and its
/// connection number.
pub struct Subscription {
    /// What the client missed.
    pub first: Catchup,
    /// Events to come.
    pub rx: broadcast::Receiver<Arc<Published>>,
    /// The seats its token holds.
    pub seats: Vec<Color>,
    /// This connection's number.
    pub conn: u64,
    /// The chat of its room so far.
    pub chat: Vec<crate::store::ChatRow>,
    /// For a game another node owns: the feed of its events, ended when dropped.
    pub feed: Option<crate::cluster::Feed>,
}

/// A hint to compute: the search, and the guard that lets the seat ask again once
/// dropped.
pub struct HintJob {
    /// The search.
    pub job: SearchJob,
    /// Held while the hint is computed.
    pub busy: BusyGuard,
}

/// Clears a flag when dropped.
pub struct BusyGuard(Arc<AtomicBool>);
impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// Milliseconds since the epoch.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

fn color_name(c: Color) -> String {
    c.to_string()
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Waiting,
    Live,
    Finished,
}

impl State {
    fn key(self) -> &'static str {
        match self {
            State::Waiting => "waiting",
            State::Live => "live",
            State::Finished => "finished",
        }
    }
}

/// The versioned events: the version, the recent ones, and the channel to subscribers.
struct Events {
    version: u64,
    /// The recent events as their text (one allocation each), with their versions.
    log: VecDeque<(u64, Utf8Bytes)>,
    tx: broadcast::Sender<Arc<Published>>,
    /// In cluster mode: the game's id and the cluster, which every event goes to.
    out: Option<(String, Arc<crate::cluster::Cluster>)>,
}

impl Events {
    fn push(&mut self, mut e: Event) {
        self.version += 1;
        e.set_version(self.version);
        if self.log.len() == LOG_EVENTS {
            self.log.pop_front();
        }
        let p = Published::new(e);
        self.log.push_back((self.version, p.text.clone()));
        self.send(p);
    }

    /// Sends an event to the subscribers (here and, in cluster mode, on every node)
    /// without logging it: chat lines and suggestions make no version.
    fn tell(&self, e: Event) {
        self.send(Published::new(e));
    }

    fn send(&self, p: Arc<Published>) {
        if let Some((id, cluster)) = &self.out {
            cluster.publish(id, p.text.clone().into());
        }
        let _ = self.tx.send(p);
    }

    /// The events after `since`, if the log still has them all.
    fn since(&self, since: u64) -> Option<Vec<Event>> {
        if since > self.version {
            return None;
        }
        let oldest = self.log.front().map_or(self.version + 1, |(v, _)| *v);
        if since + 1 < oldest && since < self.version {
            return None;
        }
        // Read back from their text: a reconnection is rare, a move is not.
        self.log.iter().filter(|(v, _)| *v > since).map(|(_, t)| serde_json::from_str(t).ok()).collect()
    }
}

/// The moves as played, with what goes into the record beside them.
#[derive(Default)]
struct Record {
    history: Vec<MoveView>,
    clocks_after: Vec<Option<u64>>,
    comments: Vec<Vec<String>>,
}

struct Actor {
    id: String,
    ctx: Ctx,
    opts: Options,
    session: Box<dyn Session>,
    /// Hashes of the seat tokens.
    tokens: [Option<String>; 2],
    invite_hash: Option<String>,
    clock: Clock,
    record: Record,
    offers: offers::Offers,
    votes: suggest::Votes,
    ai: ai::Ai,
    next_game: Option<String>,
    state: State,
    result: Option<ResultView>,
    events: Events,
    touched: Option<String>,
    turn_started_ms: i64,
    /// When the game was created (ms since the epoch), for the PDN date.
    created_ms: i64,
    hint_busy: Arc<AtomicBool>,
    viewers: HashMap<IpAddr, u32>,
    /// The logged-in players at the seats (White, Black).
    players: [Option<Player>; 2],
    /// What a rated game did to their ratings, once over.
    ratings: [Option<RatingView>; 2],
    /// The chat.
    chat: chat::Chat,
}

async fn until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

/// Numbers websocket connections.
fn next_conn() -> u64 {
    static N: AtomicU64 = AtomicU64::new(1);
    N.fetch_add(1, Ordering::Relaxed)
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        // Games in memory by variant and mode, while this task runs.
        let loaded = metrics::gauge!("dama_games_loaded", "variant" => self.session.variant().key(), "mode" => self.opts.mode.key());
        loaded.increment(1.0);
        self.run_until_unloaded(&mut rx).await;
        loaded.decrement(1.0);
    }

    async fn run_until_unloaded(&mut self, rx: &mut mpsc::Receiver<Cmd>) {
        self.maybe_start_ai();
        Box::pin(self.end_if_abandoned()).await;
        // The branches' work is boxed: this loop's state lives as long as the game is
        // in memory, a command's only while it is handled (kilobytes per live game).
        loop {
            let deadline = self.deadline();
            // A game nobody watches gives its memory back; the store has it all and
            // `Ctx::game` restarts the task when someone asks.
            let idle = self.can_unload().then(|| Instant::now() + self.idle_for());
            tokio::select! {
                _ = until(idle) => {
                    if self.can_unload() && rx.is_empty() {
                        tracing::debug!(game = %self.id, "game unloaded (idle)");
                        break;
                    }
                }
                cmd = rx.recv() => match cmd {
                    Some(Cmd::Stop) | None => break,
                    Some(c) => Box::pin(self.handle(c)).await,
                },
                _ = until(deadline) => Box::pin(self.deadline_passed()).await,
                done = ai::done(&mut self.ai) => {
                    if let (Some(mv), State::Live) = (done, self.state) {
                        if let Err(e) = Box::pin(self.play(&mv, now_ms())).await {
                            tracing::error!(game = %self.id, error = %crate::error::Chain(&e), "engine move refused");
                        }
                    }
                }
            }
        }
        // A running clock brings the game back when the flag falls.
        if let Some(d) = self.deadline() {
            self.ctx.wake_at(&self.id, d);
        }
    }

    /// The deadline came: the flag fell (the game is lost, or called off before the
    /// first move), or an unclocked game may be abandoned.
    async fn deadline_passed(&mut self) {
        let side = self.session.side();
        if !self.clock.enabled() {
            self.end_if_abandoned().await;
        } else if self.clock.first_move_until.is_some() {
            // No first move in time: the game is called off, nobody loses.
            self.close(reason::no_first_move(side)).await;
        } else {
            self.finish(ended(Some(!side), EndReason::Time)).await;
        }
    }

    /// When the clock runs out, or an unclocked game counts as abandoned.
    fn deadline(&self) -> Option<Instant> {
        if self.state != State::Live {
            None
        } else if self.clock.enabled() {
            self.clock.deadline(self.session.side())
        } else {
            self.abandon_deadline()
        }
    }

    /// How long the game stays in memory once nobody watches: a game that ended
    /// without a move (a seek withdrawn, a game called off) leaves at once, as nobody
    /// comes back to look at it; others stay `idle_ms`, for their players to see the
    /// end.
    fn idle_for(&self) -> std::time::Duration {
        if self.state == State::Finished && self.record.history.is_empty() {
            std::time::Duration::ZERO
        } else {
            self.ctx.limits.idle()
        }
    }

    /// Tells the player to move their legal moves now (no one else hears them).
    fn tell_legal(&self) {
        if self.state != State::Live {
            return;
        }
        let (v, to, moves) = (self.events.version, color_name(self.session.side()), self.session.legal());
        self.events.tell(Event::Legal { v, to, moves });
    }

    fn can_unload(&self) -> bool {
        self.events.tx.receiver_count() == 0 && !self.ai.thinking()
    }

    /// Starts the time of the side to move (with seed 003's shorter limit when its only
    /// legal move is a single capture); before each side's first move only the wait
    /// for that move runs.
    fn start_clock(&mut self, now: Instant, now_ms: i64) {
        let side = self.session.side();
        let single = self.session.single_forced_capture();
        let first = self.session.ply() < 2;
        self.clock.start(side, single, first, now);
        self.turn_started_ms = now_ms;
    }

    fn clocks(&self) -> Option<ClockView> {
        if !self.clock.enabled() {
            return None;
        }
        let now = Instant::now();
        let side = self.session.side();
        Some(ClockView {
            white_ms: self.clock.left(Color::White, side, now),
            black_ms: self.clock.left(Color::Black, side, now),
            running: self.clock.running_since.map(|_| color_name(side)),
            first_move_ms: self.clock.first_move_left(now),
        })
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            id: self.id.clone(),
            variant: self.session.variant().key().into(),
            mode: self.opts.mode,
            version: self.events.version,
            start_fen: self.session.start_fen(),
            fen: self.session.fen(),
            pieces: self.session.pieces(),
            side_to_move: color_name(self.session.side()),
            legal: if self.state == State::Live { self.session.legal() } else { Vec::new() },
            moves: self.record.history.clone(),
            state: self.state.key().into(),
            result: self.result.clone(),
            clocks: self.clocks(),
            seats: [
                self.tokens[0].is_some() || self.ai.color == Some(Color::White),
                self.tokens[1].is_some() || self.ai.color == Some(Color::Black),
            ],
            ai: self.ai.color.map(color_name),
            draw_offer: self.offers.draw().map(color_name),
            next_game: self.next_game.clone(),
            takeback_offer: self.offers.takeback().map(color_name),
            rematch_offer: self.offers.rematch().map(color_name),
            options: self.opts.clone(),
            players: self.player_views(),
        }
    }

    /// The game's row as it stands, at `version`.
    fn row(&self, version: u64) -> GameState {
        GameState {
            status: self.state.key().into(),
            white_token: self.tokens[0].clone(),
            black_token: self.tokens[1].clone(),
            result: self.result.as_ref().map(|r| r.token.clone()),
            reason: self.result.as_ref().map(|r| r.text.clone()),
            version: version as i64,
            next_game: self.next_game.clone(),
            offers: self.offers.to_json(),
            turn_started_ms: Some(self.turn_started_ms),
            end_clock_ms: (self.state == State::Finished && self.clock.enabled())
                .then(|| self.clock.remaining[self.session.side().index()] as i64),
            accounts: self.players.clone().map(|p| p.map(|p| p.id)),
        }
    }

    /// Stores the game with the version it has once `events` are out, then announces
    /// them: a client never sees a version the store does not have.
    async fn announce(&mut self, events: Vec<Event>) -> Result<(), ApiError> {
        let version = self.events.version + events.len() as u64;
        self.ctx.store.save(&self.id, &self.row(version)).await?;
        for e in events {
            self.events.push(e);
        }
        Ok(())
    }

    /// The colours the token holds.
    fn seats_of(&self, token: Option<&str>) -> Vec<Color> {
        let Some(t) = token else { return Vec::new() };
        Color::ALL
            .into_iter()
            .filter(|c| self.tokens[c.index()].as_deref().is_some_and(|h| secret::matches(t, h)))
            .collect()
    }

    /// The seats a caller holds: by its seat token, or by the account a program acts for.
    fn seats_of_caller(&self, caller: &Caller) -> Vec<Color> {
        match &caller.account {
            Some(a) => Color::ALL
                .into_iter()
                .filter(|c| self.players[c.index()].as_ref().is_some_and(|p| &p.id == a))
                .collect(),
            None => self.seats_of(caller.token.as_deref()),
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Snapshot(tx) => {
                let _ = tx.send(self.snapshot());
            }
            Cmd::Subscribe(hello, tx) => {
                let _ = tx.send(self.subscribe(hello));
            }
            Cmd::Leave(ip) => {
                if let Some(n) = self.viewers.get_mut(&ip) {
                    *n -= 1;
                    if *n == 0 {
                        self.viewers.remove(&ip);
                    }
                }
            }
            Cmd::Pdn(tx) => {
                let _ = tx.send(self.pdn());
            }
            Cmd::Join(req, player, tx) => {
                let r = self.join(req, player).await;
                let _ = tx.send(r);
            }
            Cmd::Act(caller, action, tx) => {
                let r = self.act(caller, action).await;
                let _ = tx.send(r);
            }
            Cmd::Hint(token, tx) => {
                let _ = tx.send(self.hint(token.as_deref()));
            }
            // Handled by the loop.
            Cmd::Stop => {}
        }
    }

    fn subscribe(&mut self, hello: Hello) -> Result<Subscription, ApiError> {
        let n = self.viewers.entry(hello.ip).or_default();
        let most = self.ctx.limits.sockets_per_address();
        if *n >= most {
            return Err(ApiError::TooMany(format!(
                "too many connections to this game from your address ({most} at most)"
            )));
        }
        *n += 1;
        let seats = self.seats_of(hello.token.as_deref());
        let first = match hello.since.and_then(|s| self.events.since(s)) {
            Some(mut events) => {
                // A player to move who caught up by events hears their legal moves too.
                if self.state == State::Live && seats.contains(&self.session.side()) {
                    let (v, to, moves) = (self.events.version, color_name(self.session.side()), self.session.legal());
                    events.push(Event::Legal { v, to, moves });
                }
                Catchup::Events(events)
            }
            None => Catchup::Snapshot(Box::new(self.snapshot())),
        };
        Ok(Subscription {
            first,
            rx: self.events.tx.subscribe(),
            chat: self.chat.room(chat::room_of(&seats)),
            seats,
            conn: next_conn(),
            feed: None,
        })
    }

    fn pdn(&self) -> String {
        let tags = export::tags(&export::Header {
            id: &self.id,
            variant: self.session.variant(),
            created_ms: self.created_ms,
            opts: &self.opts,
            ai: self.ai.color,
            players: &self.players,
            termination: self.result.as_ref().map(|r| r.text.as_str()),
        });
        let comments: Vec<Vec<String>> = self
            .record
            .comments
            .iter()
            .map(|c| if c.is_empty() { Vec::new() } else { vec![format!("suggested: {}", c.join(", "))] })
            .collect();
        self.session.pdn(&tags, &self.record.clocks_after, &comments)
    }

    fn hint(&self, token: Option<&str>) -> Result<HintJob, ApiError> {
        let seats = self.seats_of(token);
        if self.ai.color.is_none() {
            return Err(ApiError::Conflict("hints are given in games against the engine only".into()));
        }
        if self.state != State::Live {
            return Err(ApiError::Conflict("the game is not being played".into()));
        }
        if !seats.contains(&self.session.side()) {
            return Err(ApiError::Forbidden("a hint is for the player to move".into()));
        }
        if self.hint_busy.swap(true, Ordering::AcqRel) {
            return Err(ApiError::TooMany("a hint is being computed already; wait for it".into()));
        }
        let job = self.search_job("hint", Duration::from_millis(500));
        Ok(HintJob { job, busy: BusyGuard(self.hint_busy.clone()) })
    }

    /// A search of the game's position at full strength for `time` (hints, and the
    /// engine's answer to a draw offer).
    fn search_job(&self, purpose: &'static str, time: Duration) -> SearchJob {
        SearchJob {
            game: self.id.clone(),
            purpose,
            variant: self.session.variant(),
            fen: self.session.start_fen(),
            moves: self.session.moves(),
            limits: crate::pool::move_time(time),
            level: Level::new(10),
        }
    }

    async fn join(&mut self, req: JoinRequest, player: Option<Player>) -> Result<Seat, ApiError> {
        if self.state != State::Waiting {
            return Err(ApiError::Conflict("this game has no free seat".into()));
        }
        self.may_join(player.as_ref())?;
        if self.opts.mode == Mode::Friend {
            let ok = match (&req.invite, &self.invite_hash) {
                (Some(s), Some(h)) => secret::matches(s, h),
                _ => false,
            };
            if !ok {
                return Err(ApiError::Forbidden(
                    "this game is for a friend: open the invite link its creator shared".into(),
                ));
            }
        }
        let free = Color::ALL
            .into_iter()
            .find(|c| self.tokens[c.index()].is_none())
            .ok_or(ApiError::Conflict("this game has no free seat".into()))?;
        let t = secret::token();
        let before = (self.tokens.clone(), self.state, self.clock.clone(), self.turn_started_ms, self.players.clone());
        self.tokens[free.index()] = Some(secret::hash(&t));
        self.players[free.index()] = player;
        self.state = State::Live;
        self.start_clock(Instant::now(), now_ms());
        if let Err(e) = self.announce(vec![Event::Joined { v: 0, color: color_name(free) }]).await {
            (self.tokens, self.state, self.clock, self.turn_started_ms, self.players) = before;
            return Err(e);
        }
        self.ctx.lobby.remove(&self.id);
        self.tell_legal();
        self.tell_players_it_starts();
        Ok(Seat { token: t, color: color_name(free) })
    }

    async fn act(&mut self, caller: Caller, action: Action) -> Result<(), ApiError> {
        let seats = self.seats_of_caller(&caller);
        if let Action::Suggest { mv } = &action {
            return self.suggest(caller.conn, &seats, mv);
        }
        if let Action::Chat { text } = &action {
            return self.chat(&caller, &seats, text).await;
        }
        if let Action::HideChat { n } = action {
            return self.hide_chat(&caller, n).await;
        }
        if seats.is_empty() {
            return Err(ApiError::Forbidden(
                "only the players of this game can do that; spectators cannot move".into(),
            ));
        }
        if let Action::Rematch = action {
            return self.rematch(&seats).await;
        }
        if self.state == State::Finished {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        let side = self.session.side();
        // In hot-seat one token holds both seats: it acts for the side to move.
        let me = if seats.len() == 2 { side } else { seats[0] };
        match action {
            Action::Suggest { .. } | Action::Rematch | Action::Chat { .. } | Action::HideChat { .. } => {
                unreachable!("handled above")
            }
            Action::Touch { square } => self.touch(&seats, &square),
            Action::Takeback => self.takeback(me, &seats).await,
            Action::AcceptTakeback => self.accept_takeback(&seats).await,
            Action::DeclineTakeback => self.decline_takeback(&seats).await,
            Action::OfferDraw => self.offer_draw(me, seats.len() == 2).await,
            Action::AcceptDraw => self.accept_draw(&seats).await,
            Action::DeclineDraw => self.decline_draw(&seats).await,
            Action::Move { mv } => {
                if self.state != State::Live {
                    return Err(ApiError::Conflict("the game has not started: waiting for an opponent".into()));
                }
                if !seats.contains(&side) {
                    return Err(ApiError::Forbidden(format!("it is {side}'s turn")));
                }
                if mv.len() > 200 {
                    return Err(ApiError::BadRequest("move text too long".into()));
                }
                self.play(&mv, now_ms()).await
            }
            Action::Resign => {
                self.finish(ended(Some(!me), EndReason::Resignation)).await;
                Ok(())
            }
            Action::Abort => {
                if self.session.ply() >= 2 {
                    return Err(ApiError::Conflict("a game can be aborted only before both sides have moved".into()));
                }
                self.close(reason::aborted()).await;
                Ok(())
            }
        }
    }

    /// Plays a move for the side to move: checked, stored, then announced.
    async fn play(&mut self, text: &str, at_ms: i64) -> Result<(), ApiError> {
        let arrived = std::time::Instant::now();
        let side = self.session.side();
        let now = Instant::now();
        let mut clock = self.clock.clone();
        if !clock.stop(side, now) {
            self.finish(ended(Some(!side), EndReason::Time)).await;
            return Err(ApiError::Conflict("time ran out before the move".into()));
        }
        let v = self.session.play(text).map_err(ApiError::BadRequest)?;
        if let Some(t) = self.touched.clone() {
            if v.path.first() != Some(&t) {
                self.session.undo();
                return Err(ApiError::Forbidden(format!("touch-move: you touched the piece on {t} and must move it")));
            }
        }
        let ply = self.session.ply();
        let clock_ms = clock.enabled().then(|| clock.remaining[side.index()]);
        let fen = self.session.fen();
        let mut events = vec![Event::Move { v: 0, ply, mv: v.clone(), fen, clocks: None }];
        if self.offers.draw().is_some() {
            events.push(Event::DrawDeclined { v: 0 });
        }
        let row = MoveRow {
            ply: ply as i64,
            notation: v.long.clone(),
            clock_ms: clock_ms.map(|c| c as i64),
            at_ms,
            v: Some((self.events.version + events.len() as u64) as i64),
        };
        let storing = std::time::Instant::now();
        if let Err(e) = self.ctx.store.add_move(&self.id, &row).await {
            self.session.undo();
            return Err(e.into());
        }
        crate::metrics::seconds("dama_move_store_seconds", storing.elapsed());
        metrics::counter!("dama_moves_total", "variant" => self.session.variant().key()).increment(1);
        self.clock = clock;
        self.record.clocks_after.push(clock_ms);
        self.record.history.push(v);
        self.touched = None;
        self.offers.moved();
        let tallies = self.votes.take();
        self.keep_suggestions(ply, tallies).await;
        self.start_clock(now, at_ms);
        if let Some(Event::Move { clocks, .. }) = events.first_mut() {
            *clocks = self.clocks();
        }
        for e in events {
            self.events.push(e);
        }
        self.tell_legal();
        // Stored and announced: the move's round trip inside the server.
        crate::metrics::seconds("dama_move_seconds", arrived.elapsed());
        match self.session.status() {
            Status::Over(r) => self.finish(r).await,
            Status::NeedsAdjudication => {
                let judge = self.session.adjudicator();
                let winner = self.ctx.pool.run(judge).await.unwrap_or(None);
                self.finish(ended(winner, EndReason::Adjudication)).await;
            }
            Status::Ongoing => self.maybe_start_ai(),
        }
        Ok(())
    }

    /// Ends the game with a result from the rules, a resignation, time or agreement.
    async fn finish(&mut self, r: GameResult) {
        if self.state == State::Finished {
            return;
        }
        self.session.end(r);
        let token = self.session.result_token(r.winner).to_string();
        let view = ResultView { winner: r.winner.map(color_name), token, text: r.to_string() };
        self.close(view).await;
        self.rate(r.winner).await;
        self.count_for_explorer(r.winner);
        self.series_goes_on(r.winner).await;
    }

    /// Marks the game finished with `result`, stores and announces it.
    async fn close(&mut self, result: ResultView) {
        self.state = State::Finished;
        self.ctx.lobby.remove(&self.id);
        for p in self.players.iter().flatten() {
            self.ctx.bots.send(&p.id, serde_json::json!({"type": "gameFinish", "game": {"id": self.id}}));
        }
        self.clock.freeze(self.session.side(), Instant::now());
        self.offers.finished();
        self.ai.stop();
        self.result = Some(result.clone());
        tracing::info!(game = %self.id, result = %result.text, "game finished");
        metrics::counter!("dama_games_finished_total", "variant" => self.session.variant().key()).increment(1);
        // The players must hear of the end even if the store failed (it is logged).
        if let Err(e) = self.ctx.store.save(&self.id, &self.row(self.events.version + 1)).await {
            tracing::error!(game = %self.id, error = %crate::error::Chain(&e), "storing the end of the game");
        }
        self.events.push(Event::End { v: 0, result });
    }
}
