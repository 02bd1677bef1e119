//! One task per live game: it owns the game, the clock and the seats; players and
//! spectators talk to it over channels and hear versioned events.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use dama_core::game::{DrawRules, EndReason, RulePreset, Status};
use dama_core::{Color, Variant};
use dama_engine::level::Level;
use dama_engine::player::{player, Player};
use dama_engine::search::Limits;
use rand::Rng;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::clock::{Clock, TimeControl};
use crate::error::ApiError;
use crate::session::{ended, new_session, MoveView, PieceView, Session};
use crate::store::{GameRow, MoveRow, Store};

/// How a game is played.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Against the engine.
    #[default]
    Ai,
    /// Two players on one device.
    Hotseat,
    /// Online with a friend through an invite link.
    Friend,
    /// Online, listed in the lobby for anyone to join.
    Open,
}

/// Which rules end the game.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RulesChoice {
    /// The variant's official rules.
    #[default]
    Official,
    /// Seed 001 (English house rules).
    Seed001,
    /// Seed 003 (official English rules with an arbiter).
    Seed003,
}

/// The creator's colour.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Drawn at random.
    #[default]
    Random,
}

/// A new game's settings.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Variant key.
    pub variant: String,
    /// Mode.
    #[serde(default)]
    pub mode: Mode,
    /// Engine level 1-10 (AI mode).
    #[serde(default = "default_level")]
    pub level: u8,
    /// The creator's colour.
    #[serde(default)]
    pub color: ColorChoice,
    /// Time control.
    #[serde(default)]
    pub time: TimeControl,
    /// End and draw rules.
    #[serde(default)]
    pub rules: RulesChoice,
    /// Start position (FEN), if not the standard one.
    #[serde(default)]
    pub fen: Option<String>,
    /// Spectators may suggest moves to the player to move.
    #[serde(default)]
    pub suggestions: bool,
    /// Touch-move (seed 003): a player who selects a piece that can move must move it.
    #[serde(default)]
    pub touch_move: bool,
    /// Games in the series, colours alternating (seed 003); 1 for a single game.
    #[serde(default = "one")]
    pub series: u32,
    /// Where this game stands in its series (set by the server).
    #[serde(default)]
    pub series_state: Option<SeriesState>,
}

fn one() -> u32 {
    1
}

/// A game's place in a series and the running score.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SeriesState {
    /// Game number, from 1.
    pub game: u32,
    /// Points so far of the players now White and Black.
    pub score: [f64; 2],
}

fn default_level() -> u8 {
    5
}

/// The result as clients see it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ResultView {
    /// "white", "black" or null for a draw.
    pub winner: Option<String>,
    /// PDN result token.
    pub token: String,
    /// In words: "Draw: 3 kings could not catch the lone king in 15 moves".
    pub text: String,
}

/// Both clocks.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ClockView {
    /// White's time left, ms.
    pub white_ms: u64,
    /// Black's time left, ms.
    pub black_ms: u64,
    /// Whose clock runs.
    pub running: Option<String>,
}

/// Everything about a game at one version.
#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    /// Game id.
    pub id: String,
    /// Variant key.
    pub variant: String,
    /// Mode.
    pub mode: Mode,
    /// Version: the number of events so far.
    pub version: u64,
    /// Start position.
    pub start_fen: String,
    /// Current position.
    pub fen: String,
    /// Pieces.
    pub pieces: Vec<PieceView>,
    /// "white" or "black".
    pub side_to_move: String,
    /// Legal moves of the side to move.
    pub legal: Vec<MoveView>,
    /// Moves played.
    pub moves: Vec<MoveView>,
    /// "waiting", "live" or "finished".
    pub state: String,
    /// Result, once finished.
    pub result: Option<ResultView>,
    /// Clocks, if the game has them.
    pub clocks: Option<ClockView>,
    /// Which seats are taken.
    pub seats: [bool; 2],
    /// The engine's colour in AI mode.
    pub ai: Option<String>,
    /// Who offers a draw.
    pub draw_offer: Option<String>,
    /// The rematch or next game of the series, once it exists.
    pub next_game: Option<String>,
    /// Who asks to take back a move.
    pub takeback_offer: Option<String>,
    /// Who asks for a rematch.
    pub rematch_offer: Option<String>,
    /// Options chosen at creation (suggestions, touch-move, series length, clock).
    pub options: Options,
}

/// Something that happened, with the version it made.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A move.
    Move {
        /// Version.
        v: u64,
        /// Ply number.
        ply: usize,
        /// The move.
        mv: MoveView,
        /// Position after it.
        fen: String,
        /// Clocks after it.
        clocks: Option<ClockView>,
    },
    /// A player took a seat; the game may have started.
    Joined {
        /// Version.
        v: u64,
        /// The seat.
        color: String,
    },
    /// A draw was offered.
    DrawOffer {
        /// Version.
        v: u64,
        /// By whom.
        by: String,
    },
    /// The draw offer was declined (or lapsed with a move).
    DrawDeclined {
        /// Version.
        v: u64,
    },
    /// The game ended.
    End {
        /// Version.
        v: u64,
        /// The result.
        result: ResultView,
    },
    /// A takeback was asked for.
    TakebackOffer {
        /// Version.
        v: u64,
        /// By whom.
        by: String,
    },
    /// Moves were taken back: clients resync.
    Takeback {
        /// Version.
        v: u64,
        /// Plies taken back.
        plies: usize,
        /// Position now.
        fen: String,
    },
    /// The takeback request was declined.
    TakebackDeclined {
        /// Version.
        v: u64,
    },
    /// A rematch was asked for.
    RematchOffer {
        /// Version.
        v: u64,
        /// By whom.
        by: String,
    },
    /// The next game (rematch or next of the series) is ready; the players keep their
    /// tokens, with colours swapped.
    NextGame {
        /// Version.
        v: u64,
        /// The new game.
        id: String,
        /// Its series state, if in a series.
        series: Option<SeriesState>,
    },
    /// Spectators' suggestions, sent only to the player to move (unversioned).
    Suggestions {
        /// The current version (suggestions do not change it).
        v: u64,
        /// Ply the suggestions are for.
        ply: usize,
        /// The player they are for.
        to: String,
        /// Moves with how many spectators suggested each, most first.
        moves: Vec<(String, usize)>,
    },
}

impl Event {
    /// The version this event made.
    pub fn version(&self) -> u64 {
        match self {
            Event::Move { v, .. }
            | Event::Joined { v, .. }
            | Event::DrawOffer { v, .. }
            | Event::DrawDeclined { v }
            | Event::End { v, .. }
            | Event::TakebackOffer { v, .. }
            | Event::Takeback { v, .. }
            | Event::TakebackDeclined { v }
            | Event::RematchOffer { v, .. }
            | Event::NextGame { v, .. }
            | Event::Suggestions { v, .. } => *v,
        }
    }
}

/// A player's action.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play a move (`11-15`, `c3:e5`, `h6:f8:b4:e1`).
    Move {
        /// Move text.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Resign.
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Accept the opponent's offer.
    AcceptDraw,
    /// Decline it.
    DeclineDraw,
    /// Abort before both sides have moved.
    Abort,
    /// A spectator suggests a move to the player to move.
    Suggest {
        /// Move text.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Touch-move: select the piece on a square.
    Touch {
        /// Square name.
        square: String,
    },
    /// Ask to take back (against the engine or on one device: done at once).
    Takeback,
    /// Accept the opponent's takeback request.
    AcceptTakeback,
    /// Decline it.
    DeclineTakeback,
    /// Ask for a rematch once the game is over (both must ask in online games).
    Rematch,
}

/// A seat given to a player.
#[derive(Clone, Debug, Serialize)]
pub struct Seat {
    /// The seat's secret token.
    pub token: String,
    /// "white", "black", or "both" (hot-seat).
    pub color: String,
}

/// The running games by id.
pub type Registry = Arc<tokio::sync::Mutex<HashMap<String, GameHandle>>>;

/// What a subscriber gets: the game now, the events so far, the events to come, and
/// the seats its token holds.
pub type Subscription = (Snapshot, Vec<Event>, broadcast::Receiver<Event>, Vec<Color>);

enum Cmd {
    Snapshot(oneshot::Sender<Snapshot>),
    Subscribe(Option<String>, oneshot::Sender<Subscription>),
    Join(oneshot::Sender<Result<Seat, ApiError>>),
    Act(Option<String>, Action, oneshot::Sender<Result<(), ApiError>>),
    Pdn(oneshot::Sender<String>),
    Kept(Vec<(i64, String, i64)>, oneshot::Sender<()>),
    Hint(Option<String>, oneshot::Sender<Result<HintSetup, ApiError>>),
}

/// What a hint is searched from: the variant, the start position and the moves since.
pub type HintSetup = (Variant, String, Vec<String>);

/// A handle to a game's task.
#[derive(Clone)]
pub struct GameHandle {
    tx: mpsc::Sender<Cmd>,
}

impl GameHandle {
    /// True when the game's task has ended (an idle finished game).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Cmd) -> Result<T, ApiError> {
        let (tx, rx) = oneshot::channel();
        self.tx.send(make(tx)).await.map_err(|_| ApiError::Gone)?;
        rx.await.map_err(|_| ApiError::Gone)
    }
    /// The game now.
    pub async fn snapshot(&self) -> Result<Snapshot, ApiError> {
        self.ask(Cmd::Snapshot).await
    }
    /// The game now, the events so far, the events to come, and `token`'s seats.
    pub async fn subscribe(&self, token: Option<String>) -> Result<Subscription, ApiError> {
        self.ask(|tx| Cmd::Subscribe(token, tx)).await
    }
    /// Takes the free seat.
    pub async fn join(&self) -> Result<Seat, ApiError> {
        self.ask(Cmd::Join).await?
    }
    /// Acts for the holder of `token`.
    pub async fn act(&self, token: Option<String>, action: Action) -> Result<(), ApiError> {
        self.ask(|tx| Cmd::Act(token, action, tx)).await?
    }
    /// The game as PDN.
    pub async fn pdn(&self) -> Result<String, ApiError> {
        self.ask(Cmd::Pdn).await
    }
    /// A hint for the player of `token` against the engine: the move the engine would play.
    pub async fn hint(&self, token: Option<String>) -> Result<String, ApiError> {
        let (variant, fen, moves) = self.ask(|tx| Cmd::Hint(token, tx)).await??;
        tokio::task::spawn_blocking(move || {
            let mut engine = player(variant, 8, None, 1);
            engine.set_position(Some(&fen), &moves).map_err(|_| ApiError::Internal)?;
            let stop = std::sync::atomic::AtomicBool::new(false);
            let t = std::time::Duration::from_millis(500);
            let limits = Limits { soft_time: Some(t / 2), hard_time: Some(t), ..Limits::default() };
            engine.think(limits, Level::new(10), &stop, &mut |_| {}).best.ok_or(ApiError::Internal)
        })
        .await
        .map_err(|_| ApiError::Internal)?
    }
    async fn restore_suggestions(&self, kept: Vec<(i64, String, i64)>) -> Result<(), ApiError> {
        self.ask(|tx| Cmd::Kept(kept, tx)).await
    }
}

/// Milliseconds since the epoch.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// An unguessable token (128 random bits).
pub fn token() -> String {
    let x: u128 = rand::thread_rng().gen();
    format!("{x:032x}")
}

/// How long a finished game's task stays without watchers: 120 s, or
/// `DAMA_IDLE_FINISHED_MS`.
fn idle_finished() -> std::time::Duration {
    static D: std::sync::OnceLock<std::time::Duration> = std::sync::OnceLock::new();
    *D.get_or_init(|| {
        std::env::var("DAMA_IDLE_FINISHED_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map(std::time::Duration::from_millis)
            .unwrap_or(std::time::Duration::from_secs(120))
    })
}

/// What an engine search gives back: the engine and its move.
type AiResult = (Box<dyn Player>, Option<String>);
/// An engine search running on the blocking pool.
type AiTask = JoinHandle<AiResult>;

fn color_name(c: Color) -> String {
    c.to_string()
}

struct Actor {
    id: String,
    store: Store,
    registry: Registry,
    suggest: HashMap<String, String>,
    comments: Vec<Vec<String>>,
    touched: Option<String>,
    takeback_offer: Option<Color>,
    rematch_offer: Option<Color>,
    next_game: Option<String>,
    opts: Options,
    session: Box<dyn Session>,
    tokens: [Option<String>; 2],
    ai: Option<Color>,
    engine: Option<Box<dyn Player>>,
    ai_task: Option<AiTask>,
    clock: Clock,
    clocks_after: Vec<Option<u64>>,
    history: Vec<MoveView>,
    version: u64,
    log: Vec<Event>,
    events: broadcast::Sender<Event>,
    state: &'static str,
    draw_offer: Option<Color>,
    result: Option<ResultView>,
}

/// A new game: stored, then its task started.
pub async fn create(store: Store, registry: Registry, opts: Options) -> Result<(String, GameHandle, Seat), ApiError> {
    if !(1..=10).contains(&opts.level) {
        return Err(ApiError::BadRequest("level must be 1 to 10".into()));
    }
    if !(1..=100).contains(&opts.series) {
        return Err(ApiError::BadRequest("a series has 1 to 100 games".into()));
    }
    if let TimeControl::Fischer { initial_ms: 0, .. } | TimeControl::PerMove { limit_ms: 0, .. } = opts.time {
        return Err(ApiError::BadRequest("a clock needs some time".into()));
    }
    let mine = match opts.color {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random => {
            if rand::thread_rng().gen_bool(0.5) {
                Color::White
            } else {
                Color::Black
            }
        }
    };
    let t = token();
    let mut tokens = [None, None];
    let seat = match opts.mode {
        Mode::Hotseat => {
            tokens = [Some(t.clone()), Some(t.clone())];
            "both".to_string()
        }
        _ => {
            tokens[mine.index()] = Some(t.clone());
            color_name(mine)
        }
    };
    let opts = Options { series_state: (opts.series > 1).then_some(SeriesState { game: 1, score: [0.0; 2] }), ..opts };
    let (id, handle) = create_with(store, registry, opts, tokens).await?;
    Ok((id, handle, Seat { token: t, color: seat }))
}

/// Stores and starts a game with given seats (rematches and series keep the tokens).
async fn create_with(
    store: Store,
    registry: Registry,
    opts: Options,
    tokens: [Option<String>; 2],
) -> Result<(String, GameHandle), ApiError> {
    let variant: Variant =
        opts.variant.parse().map_err(|e: dama_core::variant::UnknownVariant| ApiError::BadRequest(e.to_string()))?;
    let session =
        new_session(variant, opts.fen.as_deref(), rules_of(variant, opts.rules)).map_err(ApiError::BadRequest)?;
    let status = match opts.mode {
        Mode::Friend | Mode::Open if tokens.iter().any(Option::is_none) => "waiting",
        _ => "live",
    };
    let id = token()[..12].to_string();
    let row = GameRow {
        id: id.clone(),
        variant: variant.key().into(),
        mode: serde_json::to_value(opts.mode).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
        start_fen: session.start_fen(),
        options: serde_json::to_string(&opts).map_err(|_| ApiError::Internal)?,
        white_token: tokens[0].clone(),
        black_token: tokens[1].clone(),
        status: status.into(),
        created_ms: now_ms(),
        ..GameRow::default()
    };
    store.create(&row).await?;
    let handle = spawn(store, registry.clone(), row, session, opts, Vec::new())?;
    registry.lock().await.insert(id.clone(), handle.clone());
    Ok((id, handle))
}

fn rules_of(variant: Variant, r: RulesChoice) -> DrawRules {
    DrawRules::preset(
        variant,
        match r {
            RulesChoice::Official => RulePreset::Official,
            RulesChoice::Seed001 => RulePreset::Seed001,
            RulesChoice::Seed003 => RulePreset::Seed003,
        },
    )
}

/// Restores a stored game (after a restart, or to show a finished one).
pub async fn restore(store: Store, registry: Registry, row: GameRow) -> Result<GameHandle, ApiError> {
    let opts: Options = serde_json::from_str(&row.options).map_err(|_| ApiError::Internal)?;
    let variant: Variant = row.variant.parse().map_err(|_| ApiError::Internal)?;
    let session =
        new_session(variant, Some(&row.start_fen), rules_of(variant, opts.rules)).map_err(|_| ApiError::Internal)?;
    let moves = store.moves(&row.id).await?;
    let kept = store.suggestions(&row.id).await?;
    let handle = spawn(store, registry, row, session, opts, moves)?;
    if !kept.is_empty() {
        handle.restore_suggestions(kept).await?;
    }
    Ok(handle)
}

fn spawn(
    store: Store,
    registry: Registry,
    row: GameRow,
    session: Box<dyn Session>,
    opts: Options,
    moves: Vec<MoveRow>,
) -> Result<GameHandle, ApiError> {
    // A subscriber that falls behind this many events gets a fresh snapshot instead.
    let (events, _) = broadcast::channel(32);
    let tokens = [row.white_token.clone(), row.black_token.clone()];
    let ai = (opts.mode == Mode::Ai).then(|| if tokens[0].is_some() { Color::Black } else { Color::White });
    let engine = ai.map(|_| player(session.variant(), 8, None, rand::thread_rng().gen()));
    let mut a = Actor {
        id: row.id.clone(),
        store,
        registry,
        suggest: HashMap::new(),
        comments: Vec::new(),
        touched: None,
        takeback_offer: None,
        rematch_offer: None,
        next_game: None,
        clock: Clock::new(opts.time),
        opts,
        session,
        tokens,
        ai,
        engine,
        ai_task: None,
        clocks_after: Vec::new(),
        history: Vec::new(),
        version: 0,
        log: Vec::new(),
        events,
        state: match row.status.as_str() {
            "waiting" => "waiting",
            "finished" => "finished",
            _ => "live",
        },
        draw_offer: None,
        result: None,
    };
    // Replay what was stored; the clocks continue from the stored times, and the time
    // the server was down is not charged.
    for m in &moves {
        let side = a.session.side();
        let v = a.session.play(&m.notation).map_err(|_| ApiError::Internal)?;
        if let Some(c) = m.clock_ms {
            a.clock.remaining[side.index()] = c.max(0) as u64;
        }
        a.clocks_after.push(m.clock_ms.map(|c| c as u64));
        a.comments.push(Vec::new());
        a.history.push(v);
    }
    if a.state == "finished" {
        let winner = match row.result.as_deref() {
            Some(t) => dama_core::record::result_winner(t, a.session.variant().first_to_move()).flatten(),
            None => None,
        };
        a.result = Some(ResultView {
            winner: winner.map(color_name),
            token: row.result.clone().unwrap_or_else(|| "*".into()),
            text: row.reason.clone().unwrap_or_default(),
        });
    } else if a.state == "live" {
        a.start_clock(Instant::now());
    }
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(a.run(rx));
    Ok(GameHandle { tx })
}

async fn until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

async fn ai_done(task: &mut Option<AiTask>) -> Option<AiResult> {
    match task {
        Some(t) => {
            let r = t.await.ok();
            *task = None;
            r
        }
        None => std::future::pending().await,
    }
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        self.maybe_start_ai();
        loop {
            let deadline = if self.state == "live" { self.clock.deadline(self.session.side()) } else { None };
            // A finished game nobody watches gives its memory back; the store has it all
            // and `AppState::game` restarts the task when someone asks.
            let idle = (self.state == "finished" && self.events.receiver_count() == 0)
                .then(|| Instant::now() + idle_finished());
            tokio::select! {
                _ = until(idle) => {
                    if self.events.receiver_count() == 0 && rx.is_empty() {
                        break;
                    }
                }
                cmd = rx.recv() => match cmd {
                    Some(c) => self.handle(c).await,
                    None => break,
                },
                _ = until(deadline) => {
                    let loser = self.session.side();
                    self.finish(ended(Some(!loser), EndReason::Time)).await;
                }
                done = ai_done(&mut self.ai_task) => {
                    if let Some((engine, mv)) = done {
                        self.engine = Some(engine);
                        if let (Some(mv), "live") = (mv, self.state) {
                            if let Err(e) = self.play(&mv).await {
                                eprintln!("dama-server: engine move refused in {}: {e}", self.id);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Starts the time of the side to move (with seed 003's shorter limit when its only
    /// legal move is a single capture).
    fn start_clock(&mut self, now: Instant) {
        let side = self.session.side();
        let single = self.session.single_forced_capture();
        self.clock.start(side, single, now);
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
        })
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            id: self.id.clone(),
            variant: self.session.variant().key().into(),
            mode: self.opts.mode,
            version: self.version,
            start_fen: self.session.start_fen(),
            fen: self.session.fen(),
            pieces: self.session.pieces(),
            side_to_move: color_name(self.session.side()),
            legal: if self.state == "live" { self.session.legal() } else { Vec::new() },
            moves: self.history.clone(),
            state: self.state.into(),
            result: self.result.clone(),
            clocks: self.clocks(),
            seats: [
                self.tokens[0].is_some() || self.ai == Some(Color::White),
                self.tokens[1].is_some() || self.ai == Some(Color::Black),
            ],
            ai: self.ai.map(color_name),
            draw_offer: self.draw_offer.map(color_name),
            next_game: self.next_game.clone(),
            takeback_offer: self.takeback_offer.map(color_name),
            rematch_offer: self.rematch_offer.map(color_name),
            options: self.opts.clone(),
        }
    }

    fn emit(&mut self, make: impl FnOnce(u64) -> Event) {
        self.version += 1;
        let e = make(self.version);
        self.log.push(e.clone());
        let _ = self.events.send(e);
    }

    /// The colours the token holds.
    fn seats_of(&self, token: Option<&str>) -> Vec<Color> {
        let Some(t) = token else { return Vec::new() };
        Color::ALL.into_iter().filter(|c| self.tokens[c.index()].as_deref() == Some(t)).collect()
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Snapshot(tx) => {
                let _ = tx.send(self.snapshot());
            }
            Cmd::Subscribe(token, tx) => {
                let seats = self.seats_of(token.as_deref());
                let _ = tx.send((self.snapshot(), self.log.clone(), self.events.subscribe(), seats));
            }
            Cmd::Kept(kept, tx) => {
                for (ply, m, n) in kept {
                    if let Some(c) = self.comments.get_mut(ply as usize - 1) {
                        c.push(format!("{m} x{n}"));
                    }
                }
                let _ = tx.send(());
            }
            Cmd::Pdn(tx) => {
                let tags = vec![
                    ("Event".to_string(), format!("dama {} game", self.session.variant().key())),
                    ("Site".to_string(), "dama".to_string()),
                    ("Round".to_string(), self.id.clone()),
                ];
                let comments: Vec<Vec<String>> = self
                    .comments
                    .iter()
                    .map(|c| if c.is_empty() { Vec::new() } else { vec![format!("suggested: {}", c.join(", "))] })
                    .collect();
                let _ = tx.send(self.session.pdn(&tags, &self.clocks_after, &comments));
            }
            Cmd::Join(tx) => {
                let r = self.join().await;
                let _ = tx.send(r);
            }
            Cmd::Act(token, action, tx) => {
                let r = self.act(token.as_deref(), action).await;
                let _ = tx.send(r);
            }
            Cmd::Hint(token, tx) => {
                let seats = self.seats_of(token.as_deref());
                let r = if self.ai.is_none() {
                    Err(ApiError::Conflict("hints are given in games against the engine only".into()))
                } else if self.state != "live" {
                    Err(ApiError::Conflict("the game is not being played".into()))
                } else if !seats.contains(&self.session.side()) {
                    Err(ApiError::Forbidden("a hint is for the player to move".into()))
                } else {
                    Ok((self.session.variant(), self.session.start_fen(), self.session.moves()))
                };
                let _ = tx.send(r);
            }
        }
    }

    async fn join(&mut self) -> Result<Seat, ApiError> {
        if self.state != "waiting" {
            return Err(ApiError::Conflict("this game has no free seat".into()));
        }
        let free = Color::ALL
            .into_iter()
            .find(|c| self.tokens[c.index()].is_none())
            .ok_or(ApiError::Conflict("this game has no free seat".into()))?;
        let t = token();
        let mut tokens = self.tokens.clone();
        tokens[free.index()] = Some(t.clone());
        self.store.update_seats(&self.id, tokens[0].as_deref(), tokens[1].as_deref(), "live").await?;
        self.tokens = tokens;
        self.state = "live";
        self.start_clock(Instant::now());
        self.emit(|v| Event::Joined { v, color: color_name(free) });
        Ok(Seat { token: t, color: color_name(free) })
    }

    async fn act(&mut self, token: Option<&str>, action: Action) -> Result<(), ApiError> {
        let seats = self.seats_of(token);
        if let Action::Suggest { mv } = &action {
            return self.suggest(token, &seats, mv);
        }
        if seats.is_empty() {
            return Err(ApiError::Forbidden(
                "only the players of this game can do that; spectators cannot move".into(),
            ));
        }
        if let Action::Rematch = action {
            return self.rematch(&seats).await;
        }
        if self.state == "finished" {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        let side = self.session.side();
        match action {
            Action::Suggest { .. } | Action::Rematch => unreachable!("handled above"),
            Action::Touch { square } => self.touch(&seats, &square),
            Action::Takeback => self.takeback(&seats).await,
            Action::AcceptTakeback => match self.takeback_offer {
                Some(by) if !seats.contains(&by) => {
                    let plies = if self.session.side() == by { 2 } else { 1 };
                    self.undo_plies(plies.min(self.session.ply())).await
                }
                _ => Err(ApiError::Conflict("there is no takeback request to accept".into())),
            },
            Action::DeclineTakeback => match self.takeback_offer {
                Some(by) if !seats.contains(&by) => {
                    self.takeback_offer = None;
                    self.emit(|v| Event::TakebackDeclined { v });
                    Ok(())
                }
                _ => Err(ApiError::Conflict("there is no takeback request to decline".into())),
            },
            Action::Move { mv } => {
                if self.state != "live" {
                    return Err(ApiError::Conflict("the game has not started: waiting for an opponent".into()));
                }
                if !seats.contains(&side) {
                    return Err(ApiError::Forbidden(format!("it is {side}'s turn")));
                }
                if mv.len() > 200 {
                    return Err(ApiError::BadRequest("move text too long".into()));
                }
                self.play(&mv).await
            }
            Action::Resign => {
                let loser = if seats.len() == 2 { side } else { seats[0] };
                self.finish(ended(Some(!loser), EndReason::Resignation)).await;
                Ok(())
            }
            Action::Abort => {
                if self.session.ply() >= 2 {
                    return Err(ApiError::Conflict("a game can be aborted only before both sides have moved".into()));
                }
                self.result = Some(ResultView { winner: None, token: "*".into(), text: "Aborted".into() });
                self.state = "finished";
                self.clock.running_since = None;
                self.store.finish(&self.id, "*", "Aborted").await?;
                let r = self.result.clone().expect("result");
                self.emit(|v| Event::End { v, result: r });
                Ok(())
            }
            Action::OfferDraw => {
                let by = if seats.len() == 2 { side } else { seats[0] };
                if self.ai == Some(!by) {
                    return Err(ApiError::Conflict("the engine does not accept draws".into()));
                }
                if seats.len() == 2 {
                    // Hot-seat: both players are at the board; an offer is an agreement.
                    self.finish(ended(None, EndReason::Agreement)).await;
                    return Ok(());
                }
                self.draw_offer = Some(by);
                self.emit(|v| Event::DrawOffer { v, by: color_name(by) });
                Ok(())
            }
            Action::AcceptDraw => match self.draw_offer {
                Some(by) if !seats.contains(&by) => {
                    self.finish(ended(None, EndReason::Agreement)).await;
                    Ok(())
                }
                _ => Err(ApiError::Conflict("there is no draw offer to accept".into())),
            },
            Action::DeclineDraw => match self.draw_offer {
                Some(by) if !seats.contains(&by) => {
                    self.draw_offer = None;
                    self.emit(|v| Event::DrawDeclined { v });
                    Ok(())
                }
                _ => Err(ApiError::Conflict("there is no draw offer to decline".into())),
            },
        }
    }

    /// Plays a move for the side to move: checked, stored, then announced.
    async fn play(&mut self, text: &str) -> Result<(), ApiError> {
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
        let row = MoveRow {
            ply: ply as i64,
            notation: v.long.clone(),
            clock_ms: clock_ms.map(|c| c as i64),
            at_ms: now_ms(),
        };
        if let Err(e) = self.store.add_move(&self.id, &row).await {
            self.session.undo();
            return Err(e.into());
        }
        self.clock = clock;
        self.clocks_after.push(clock_ms);
        self.history.push(v.clone());
        self.touched = None;
        self.takeback_offer = None;
        // The spectators' suggestions for this ply join the game record.
        let tallies = self.tallies();
        if !tallies.is_empty() {
            let rows: Vec<(String, i64)> = tallies.iter().map(|(m, n)| (m.clone(), *n as i64)).collect();
            if let Err(e) = self.store.add_suggestions(&self.id, ply as i64, &rows).await {
                eprintln!("dama-server: {e}");
            }
        }
        self.comments.push(tallies.iter().map(|(m, n)| format!("{m} x{n}")).collect());
        self.suggest.clear();
        if self.draw_offer.take().is_some() {
            self.emit(|v| Event::DrawDeclined { v });
        }
        self.start_clock(now);
        let fen = self.session.fen();
        let clocks = self.clocks();
        self.emit(|ver| Event::Move { v: ver, ply, mv: v, fen, clocks });
        match self.session.status() {
            Status::Over(r) => self.finish(r).await,
            Status::NeedsAdjudication => {
                let winner = self.session.adjudicate();
                self.finish(ended(winner, EndReason::Adjudication)).await;
            }
            Status::Ongoing => self.maybe_start_ai(),
        }
        Ok(())
    }

    /// Suggested moves with their counts, most first.
    fn tallies(&self) -> Vec<(String, usize)> {
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for m in self.suggest.values() {
            *counts.entry(m.as_str()).or_default() += 1;
        }
        let mut v: Vec<(String, usize)> = counts.into_iter().map(|(m, n)| (m.to_string(), n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }

    fn suggest(&mut self, viewer: Option<&str>, seats: &[Color], text: &str) -> Result<(), ApiError> {
        if !self.opts.suggestions {
            return Err(ApiError::Forbidden("the players did not allow suggestions in this game".into()));
        }
        if !seats.is_empty() {
            return Err(ApiError::Forbidden("players cannot suggest moves; spectators can".into()));
        }
        let Some(viewer) = viewer else {
            return Err(ApiError::BadRequest("suggest over the websocket (each spectator counts once)".into()));
        };
        if self.state != "live" {
            return Err(ApiError::Conflict("the game is not being played".into()));
        }
        let legal = self.session.legal();
        let Some(m) = legal.iter().find(|v| v.notation == text || v.long == text) else {
            return Err(ApiError::BadRequest(format!("'{text}' is not a legal move here")));
        };
        if self.suggest.len() >= 10_000 && !self.suggest.contains_key(viewer) {
            return Err(ApiError::Conflict("too many suggestions".into()));
        }
        self.suggest.insert(viewer.to_string(), m.notation.clone());
        let (ply, to, moves) = (self.session.ply() + 1, color_name(self.session.side()), self.tallies());
        // Only the player to move hears of them; the version does not change.
        let _ = self.events.send(Event::Suggestions { v: self.version, ply, to, moves });
        Ok(())
    }

    fn touch(&mut self, seats: &[Color], square: &str) -> Result<(), ApiError> {
        let side = self.session.side();
        if !seats.contains(&side) {
            return Err(ApiError::Forbidden(format!("it is {side}'s turn")));
        }
        if !self.opts.touch_move {
            return Ok(());
        }
        if let Some(t) = &self.touched {
            return if t == square {
                Ok(())
            } else {
                Err(ApiError::Conflict(format!("touch-move: you touched the piece on {t} and must move it")))
            };
        }
        if self.session.legal().iter().any(|v| v.path.first().map(String::as_str) == Some(square)) {
            self.touched = Some(square.to_string());
        }
        Ok(())
    }

    async fn takeback(&mut self, seats: &[Color]) -> Result<(), ApiError> {
        let ply = self.session.ply();
        match self.opts.mode {
            Mode::Hotseat => {
                if ply == 0 {
                    return Err(ApiError::Conflict("no move to take back".into()));
                }
                self.undo_plies(1).await
            }
            Mode::Ai => {
                let human = seats[0];
                if self.session.side() != human || self.ai_task.is_some() {
                    return Err(ApiError::Conflict("wait for the engine's move".into()));
                }
                if ply < 2 {
                    return Err(ApiError::Conflict("no move of yours to take back".into()));
                }
                self.undo_plies(2).await
            }
            Mode::Friend | Mode::Open => {
                if ply == 0 {
                    return Err(ApiError::Conflict("no move to take back".into()));
                }
                let by = seats[0];
                self.takeback_offer = Some(by);
                self.emit(|v| Event::TakebackOffer { v, by: color_name(by) });
                Ok(())
            }
        }
    }

    async fn undo_plies(&mut self, n: usize) -> Result<(), ApiError> {
        let mut done = 0;
        for _ in 0..n {
            let ply = self.session.ply();
            if ply == 0 {
                break;
            }
            self.store.remove_move(&self.id, ply as i64).await?;
            self.session.undo();
            self.history.pop();
            self.clocks_after.pop();
            self.comments.pop();
            done += 1;
        }
        self.suggest.clear();
        self.touched = None;
        self.takeback_offer = None;
        self.draw_offer = None;
        self.start_clock(Instant::now());
        let fen = self.session.fen();
        self.emit(|v| Event::Takeback { v, plies: done, fen });
        self.maybe_start_ai();
        Ok(())
    }

    async fn rematch(&mut self, seats: &[Color]) -> Result<(), ApiError> {
        if self.state != "finished" {
            return Err(ApiError::Conflict("a rematch can be asked for once the game is over".into()));
        }
        if let Some(id) = &self.next_game {
            return Err(ApiError::Conflict(format!("the next game is already there: {id}")));
        }
        match self.opts.mode {
            Mode::Ai | Mode::Hotseat => self.start_next(None).await,
            Mode::Friend | Mode::Open => {
                let by = seats[0];
                if self.rematch_offer == Some(!by) {
                    self.start_next(None).await
                } else {
                    self.rematch_offer = Some(by);
                    self.emit(|v| Event::RematchOffer { v, by: color_name(by) });
                    Ok(())
                }
            }
        }
    }

    /// Creates the next game with colours swapped; the players keep their tokens.
    async fn start_next(&mut self, series: Option<SeriesState>) -> Result<(), ApiError> {
        let tokens = [self.tokens[1].clone(), self.tokens[0].clone()];
        let opts = Options { series_state: series.clone(), ..self.opts.clone() };
        let (id, _) = create_with(self.store.clone(), self.registry.clone(), opts, tokens).await?;
        self.next_game = Some(id.clone());
        self.emit(|v| Event::NextGame { v, id, series });
        Ok(())
    }

    fn maybe_start_ai(&mut self) {
        if self.state != "live" || self.ai != Some(self.session.side()) || self.ai_task.is_some() {
            return;
        }
        let Some(mut engine) = self.engine.take() else { return };
        let (fen, moves) = (self.session.start_fen(), self.session.moves());
        let level = Level::new(self.opts.level);
        let limits = match self.clock.control {
            TimeControl::None | TimeControl::Correspondence { .. } => {
                let t = std::time::Duration::from_millis(if level.number >= 9 { 2000 } else { 1000 });
                Limits { soft_time: Some(t / 2), hard_time: Some(t), ..Limits::default() }
            }
            _ => {
                let left = std::time::Duration::from_millis(self.clock.remaining[self.session.side().index()]);
                let c = match self.clock.control {
                    TimeControl::Fischer { increment_ms, .. } => dama_engine::time::Clock::Game {
                        remaining: left,
                        increment: std::time::Duration::from_millis(increment_ms),
                        moves_to_go: None,
                    },
                    _ => dama_engine::time::Clock::PerMove(left),
                };
                let (soft, hard) = dama_engine::time::budget(c);
                Limits { soft_time: Some(soft), hard_time: Some(hard), ..Limits::default() }
            }
        };
        self.ai_task = Some(tokio::task::spawn_blocking(move || {
            let stop = std::sync::atomic::AtomicBool::new(false);
            if engine.set_position(Some(&fen), &moves).is_err() {
                return (engine, None);
            }
            let d = engine.think(limits, level, &stop, &mut |_| {});
            (engine, d.best)
        }));
    }

    async fn finish(&mut self, r: dama_core::game::GameResult) {
        if self.state == "finished" {
            return;
        }
        self.session.end(r);
        self.state = "finished";
        self.clock.running_since = None;
        self.draw_offer = None;
        let token = self.session.result_token(r.winner).to_string();
        let view = ResultView { winner: r.winner.map(color_name), token: token.clone(), text: r.to_string() };
        if let Err(e) = self.store.finish(&self.id, &token, &view.text).await {
            eprintln!("dama-server: {e}");
        }
        self.result = Some(view.clone());
        self.emit(|v| Event::End { v, result: view });
        // A series goes on with colours swapped and the running score.
        if let Some(st) = self.opts.series_state.clone() {
            if st.game < self.opts.series {
                let mut score = st.score;
                match r.winner {
                    Some(c) => score[c.index()] += 1.0,
                    None => {
                        score[0] += 0.5;
                        score[1] += 0.5;
                    }
                }
                let next = SeriesState { game: st.game + 1, score: [score[1], score[0]] };
                if let Err(e) = self.start_next(Some(next)).await {
                    eprintln!("dama-server: next game of the series: {e}");
                }
            }
        }
    }
}
