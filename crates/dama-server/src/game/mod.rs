//! One task per game in memory. It owns the game's [`Round`] (the pure state and its
//! decisions, [`crate::round`]), the game's chat, its event log and the engine's search
//! under way; players and spectators talk to it over channels and hear versioned
//! events. Every input goes the same way ([`step`]): the round decides; the decision is
//! stored (in one transaction); it is applied (which cannot fail); its events are
//! broadcast; its effects run ([`effects`]), and what they answer is decided in turn.
//! A store failure leaves the game exactly as it was.

mod ai;
mod chat;
mod effects;
mod events;
mod export;
mod handle;
mod seek;
mod setup;
mod step;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use dama_core::Color;
use dama_engine::level::Level;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

pub use chat::MAX_CHARS as CHAT_MAX_CHARS;
pub use export::stored_pdn;
use handle::Cmd;
pub use handle::GameHandle;
pub use seek::rating_for;
pub use setup::{create, create_between, create_paired, has_clock, restore, Created};

pub use crate::clock::now_ms;
pub use crate::round::{patience, ALONE_MS, ONLINE_MS};

pub use crate::protocol::{
    Action, ClockView, ColorChoice, Event, EventBody, JoinRequest, Mode, Options, Phase, Player, PlayerView, Published,
    RatingView, ResultView, Room, RulesChoice, Seat, SeriesState, Snapshot,
};

use crate::error::ApiError;
use crate::pool::SearchJob;
use crate::round::{Input, Now, Round, Who};
use crate::state::Services;

/// At most this many recent events are kept for clients that resume with `since`;
/// one further behind gets a snapshot.
pub const LOG_EVENTS: usize = events::LOG_EVENTS;

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

/// What a new websocket (or a program's game stream) asks for.
#[derive(Clone, Debug)]
pub struct Hello {
    /// The seat token, if any.
    pub token: Option<String>,
    /// The account a program follows the game for (the bot API): its seats count as
    /// there, as a seat token's do.
    pub account: Option<String>,
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

/// Numbers websocket connections.
fn next_conn() -> u64 {
    static N: AtomicU64 = AtomicU64::new(1);
    N.fetch_add(1, Ordering::Relaxed)
}

/// The task of a game in memory.
struct Actor {
    round: Round,
    ctx: Services,
    events: events::Events,
    chat: chat::Chat,
    engine: ai::Engine,
    hint_busy: Arc<AtomicBool>,
    viewers: HashMap<IpAddr, u32>,
}

async fn until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        // Games in memory by variant and mode, while this task runs.
        let loaded = metrics::gauge!("dama_games_loaded", "variant" => self.round.game.variant().key(), "mode" => self.round.opts.mode.key());
        loaded.increment(1.0);
        self.run_until_unloaded(&mut rx).await;
        loaded.decrement(1.0);
    }

    async fn run_until_unloaded(&mut self, rx: &mut mpsc::Receiver<Cmd>) {
        if self.round.engine_to_move() {
            self.engine.think(&self.round, &self.ctx);
        }
        Box::pin(self.input(Input::Deadline)).await;
        // The branches' work is boxed: this loop's state lives as long as the game is
        // in memory, a command's only while it is handled (kilobytes per live game).
        loop {
            let deadline = self.round.deadline(Now::current());
            // A game nobody watches gives its memory back; the store has it all and
            // `Services::game` restarts the task when someone asks.
            let idle = self.can_unload().then(|| Instant::now() + self.idle_for());
            tokio::select! {
                _ = until(idle) => {
                    if self.can_unload() && rx.is_empty() {
                        tracing::debug!(game = %self.round.id, "game unloaded (idle)");
                        break;
                    }
                }
                cmd = rx.recv() => match cmd {
                    Some(Cmd::Stop) | None => break,
                    Some(c) => Box::pin(self.handle(c)).await,
                },
                _ = until(deadline) => Box::pin(self.input(Input::Deadline)).await,
                done = self.engine.done() => {
                    if let Some(mv) = done {
                        Box::pin(self.input(Input::EngineMove(mv))).await;
                    }
                }
            }
        }
        // A running clock brings the game back when the flag falls.
        if let Some(d) = self.round.deadline(Now::current()) {
            self.ctx.wake_at(&self.round.id, d);
        }
    }

    /// An input of no one (the clock, the engine): refusals are logged.
    async fn input(&mut self, input: Input) {
        if let Err(e) = self.step(&Who::default(), input).await {
            tracing::error!(game = %self.round.id, error = %crate::error::Chain(&e), "an input of the game failed");
        }
    }

    /// How long the game stays in memory once nobody watches: a game that ended
    /// without a move (a seek withdrawn, a game called off) leaves at once, as nobody
    /// comes back to look at it; others stay `idle_ms`, for their players to see the
    /// end.
    fn idle_for(&self) -> Duration {
        if self.round.phase == Phase::Finished && self.round.record.history.is_empty() {
            Duration::ZERO
        } else {
            self.ctx.limits.idle()
        }
    }

    fn can_unload(&self) -> bool {
        self.events.subscribers() == 0 && !self.engine.thinking()
    }

    /// The seats a caller holds: by its seat token, and by the account it acts for (a
    /// program, or a page of this site with its log-in cookie).
    fn who(&self, caller: &Caller) -> Who {
        let account = caller.account.as_deref().filter(|_| !caller.moderator);
        Who { seats: self.seats_of(caller.token.as_deref(), account), conn: caller.conn }
    }

    /// The seats of a seat token and of an account, together.
    fn seats_of(&self, token: Option<&str>, account: Option<&str>) -> Vec<Color> {
        let mut seats = self.round.seats_of_token(token);
        for c in account.map(|a| self.round.seats_of_account(a)).unwrap_or_default() {
            if !seats.contains(&c) {
                seats.push(c);
            }
        }
        seats.sort_by_key(|c| c.index());
        seats
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Snapshot(tx) => {
                let _ = tx.send(self.round.snapshot(Instant::now()));
            }
            Cmd::Subscribe(hello, tx) => {
                let r = self.subscribe(hello).await;
                let _ = tx.send(r);
            }
            Cmd::Lag(seats, rtt) => self.measured(&seats, rtt),
            Cmd::Leave(ip) => {
                if let Some(n) = self.viewers.get_mut(&ip) {
                    *n -= 1;
                    if *n == 0 {
                        self.viewers.remove(&ip);
                    }
                }
            }
            Cmd::Pdn(tx) => {
                let _ = tx.send(export::pdn(&self.round));
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

    async fn act(&mut self, caller: Caller, action: Action) -> Result<(), ApiError> {
        let who = self.who(&caller);
        // Acting in a game is being there.
        self.arrive(&who.seats).await;
        match action {
            Action::Chat { text } => self.chat(&caller, &who.seats, &text).await,
            Action::HideChat { n } => self.hide_chat(&caller, n).await,
            action => self.step(&who, Input::Act(action)).await.map(|_| ()),
        }
    }

    async fn join(&mut self, req: JoinRequest, player: Option<Player>) -> Result<Seat, ApiError> {
        let t = crate::secret::token();
        let input = Input::Join { token: crate::secret::hash(&t), player, invite: req.invite };
        let seat = self.step(&Who::default(), input).await?.ok_or(ApiError::Internal)?;
        Ok(Seat { token: t, color: seat.to_string() })
    }

    /// A round trip measured for the player of `seats`: kept for their moves' credit;
    /// everyone hears when a connection changes band (good, fair, poor).
    fn measured(&mut self, seats: &[Color], rtt: u32) {
        let band = |l: &crate::round::lag::Lag| l.rtt_ms.map(|r| r.map(crate::round::lag::Lag::quality));
        let before = band(&self.round.lag);
        for c in seats {
            self.round.lag.measured(*c, rtt);
        }
        if band(&self.round.lag) != before {
            let body = EventBody::Connection { rtt_ms: self.round.lag.rtt_ms };
            self.events.tell(Event { v: self.round.version, body });
        }
    }

    /// The players of `seats` are there: a held game starts once all its players are
    /// (a failure is logged; the next arrival tries again).
    async fn arrive(&mut self, seats: &[Color]) {
        if !self.round.is_held() || seats.is_empty() {
            return;
        }
        let who = Who { seats: seats.to_vec(), conn: None };
        if let Err(e) = self.step(&who, Input::Arrived).await {
            tracing::error!(game = %self.round.id, error = %crate::error::Chain(&e), "a player's arrival");
        }
    }

    /// A new subscriber: its seats' players are there (the game starts first if that
    /// was all it waited for), then it gets what it missed and the events to come.
    async fn subscribe(&mut self, hello: Hello) -> Result<Subscription, ApiError> {
        let n = self.viewers.entry(hello.ip).or_default();
        let most = self.ctx.limits.sockets_per_address();
        if *n >= most {
            return Err(crate::round::Refusal::TooManyConnections(most).into());
        }
        *n += 1;
        let seats = self.seats_of(hello.token.as_deref(), hello.account.as_deref());
        self.arrive(&seats).await;
        let first = match hello.since.and_then(|s| self.events.since(s)) {
            Some(mut events) => {
                // A player to move who caught up by events hears their legal moves too.
                if let Some(body) = self.round.legal_event().filter(|b| b.audience().includes(&seats)) {
                    events.push(Event { v: self.round.version, body });
                }
                Catchup::Events(events)
            }
            None => Catchup::Snapshot(Box::new(self.round.snapshot(Instant::now()))),
        };
        Ok(Subscription {
            first,
            rx: self.events.subscribe(),
            chat: self.chat.room(Room::of(&seats)),
            seats,
            conn: next_conn(),
            feed: None,
        })
    }

    fn hint(&self, token: Option<&str>) -> Result<HintJob, ApiError> {
        use crate::round::Refusal;
        let seats = self.round.seats_of_token(token);
        if self.round.ai.is_none() {
            return Err(Refusal::HintsAgainstEngineOnly.into());
        }
        if self.round.phase != Phase::Live {
            return Err(Refusal::NotBeingPlayed.into());
        }
        if !seats.contains(&self.round.side()) {
            return Err(Refusal::HintForPlayerToMove.into());
        }
        if self.hint_busy.swap(true, Ordering::AcqRel) {
            return Err(Refusal::HintBusy.into());
        }
        let job = ai::search_job(&self.round, "hint", Duration::from_millis(500), Level::new(10));
        Ok(HintJob { job, busy: BusyGuard(self.hint_busy.clone()) })
    }
}
