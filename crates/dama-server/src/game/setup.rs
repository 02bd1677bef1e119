//! Creating a game and bringing a stored one back into memory.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dama_core::any::AnyGame;
use dama_core::Color;
use rand::Rng;
use tokio::sync::mpsc;

use super::{chat, events, seek, Actor, ColorChoice, GameHandle, Mode, Options, Phase, Player, RatingView};
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::registry::Running;
use crate::round::{rules_of, Now, Refusal, Resumed, Round, Seat, Stored};
use crate::secret;
use crate::state::Services;
use crate::store::GameRow;

/// A game just created.
pub struct Created {
    /// Its id.
    pub id: String,
    /// Its task.
    pub handle: GameHandle,
    /// The creator's seat.
    pub seat: Option<crate::protocol::Seat>,
    /// The invite secret of a friend game (only its hash is stored).
    pub invite: Option<String>,
}

/// Refuses a player who may not play rated games: nobody logged in, or a guest.
fn may_play_rated(player: Option<&Player>) -> Result<(), Refusal> {
    match player {
        None => Err(Refusal::LogInForRated),
        Some(p) if p.guest => Err(Refusal::GuestRated),
        Some(_) => Ok(()),
    }
}

/// A new game: checked, stored, then its task started; `creator` is the logged-in
/// player creating it, if any.
pub async fn create(ctx: Services, opts: Options, creator: Option<Player>) -> Result<Created, ApiError> {
    opts.validate()?;
    if opts.rated {
        may_play_rated(creator.as_ref())?;
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
    let t = secret::token();
    let hash = secret::hash(&t);
    let mut tokens = [None, None];
    let mut players = [None, None];
    let color = match opts.mode {
        Mode::Hotseat => {
            tokens = [Some(hash.clone()), Some(hash)];
            "both".to_string()
        }
        _ => {
            tokens[mine.index()] = Some(hash);
            players[mine.index()] = creator;
            mine.to_string()
        }
    };
    let invite = (opts.mode == Mode::Friend).then(secret::token);
    let opts = Options {
        series_state: (opts.series > 1).then_some(crate::protocol::SeriesState { game: 1, score: [0.0; 2] }),
        ..opts
    };
    let invite_hash = invite.as_deref().map(secret::hash);
    let mut created = create_with(ctx, opts, tokens, players, invite_hash, false).await?;
    created.seat = Some(crate::protocol::Seat { token: t, color });
    created.invite = invite;
    Ok(created)
}

/// A game between two accounts (White, Black), as an accepted challenge makes: both
/// seats taken, held until both players have opened it. The game and the seats'
/// tokens (White's, Black's); each player holds their seat by their log-in too.
pub async fn create_between(
    ctx: Services,
    opts: Options,
    players: [Player; 2],
) -> Result<(Created, [String; 2]), ApiError> {
    seated(ctx, opts, players, true).await
}

/// A tournament's game between two accounts (White, Black): not held, its first move
/// awaited at once ([`crate::clock::EVENT_FIRST_MOVE_MS`]); each player holds their
/// seat by their log-in.
pub async fn create_paired(ctx: Services, opts: Options, players: [Player; 2]) -> Result<Created, ApiError> {
    Ok(seated(ctx, opts, players, false).await?.0)
}

async fn seated(
    ctx: Services,
    opts: Options,
    players: [Player; 2],
    held: bool,
) -> Result<(Created, [String; 2]), ApiError> {
    opts.validate()?;
    if opts.rated {
        for p in &players {
            may_play_rated(Some(p))?;
        }
    }
    let t = [secret::token(), secret::token()];
    let hashes = [Some(secret::hash(&t[0])), Some(secret::hash(&t[1]))];
    let [w, b] = players;
    let created = create_with(ctx, opts, hashes, [Some(w), Some(b)], None, held).await?;
    Ok((created, t))
}

/// Stores and starts a game with given seats (token hashes and the accounts at them;
/// rematches and series keep the players'). A position that is already decided gives a
/// finished game. A `held` game (a rematch, the next game of a series) starts its clock
/// once its players are there ([`Round::hold`]).
pub(super) async fn create_with(
    ctx: Services,
    opts: Options,
    tokens: [Option<String>; 2],
    players: [Option<Player>; 2],
    invite_hash: Option<String>,
    held: bool,
) -> Result<Created, ApiError> {
    let variant: dama_core::Variant =
        opts.variant.parse().map_err(|e: dama_core::variant::UnknownVariant| ApiError::BadRequest(e.to_string()))?;
    let game = AnyGame::new(variant, opts.fen.as_deref(), rules_of(variant, opts.rules))?;
    let place = ctx.room_for_a_game()?;
    let id = secret::token()[..12].to_string();
    let now = Now::current();
    let [white, black] = players;
    let seats = [Seat { token: tokens[0].clone(), player: white }, Seat { token: tokens[1].clone(), player: black }];
    let mut round = Round::new(id.clone(), opts, game, seats, invite_hash, now);
    // A position already decided: the game is over from the start.
    if let dama_core::game::Status::Over(r) = round.game.status() {
        round.phase = Phase::Finished;
        round.outcome = Some(crate::round::Outcome::of(&round.game, r));
    }
    if held {
        round = round.hold();
    }
    let row = GameRow {
        id: id.clone(),
        variant,
        mode: round.opts.mode,
        start_fen: round.game.start_fen(),
        options: round.opts.clone(),
        created_ms: now.ms,
        invite_hash: round.invite_hash.clone(),
        state: round.state_row(),
    };
    ctx.store.create(&row).await?;
    // A new game is this node's (its lease is new; the claim cannot fail but by the
    // database).
    if !crate::cluster::claim(&ctx, &id).await? {
        return Err(ApiError::Unavailable("the server is restarting; please try again".into()));
    }
    tracing::info!(game = %id, variant = %variant, mode = row.mode.key(), status = row.state.status.key(), "game created");
    metrics::counter!("dama_games_created_total", "variant" => variant.key(), "mode" => row.mode.key()).increment(1);
    let seek = seek::of(&ctx, &round).await?;
    let started = round.phase == Phase::Live;
    let players = round.players();
    let handle = spawn(ctx.clone(), round, Vec::new(), place)?;
    crate::cluster::serve(&ctx, &id, handle.clone()).await?;
    ctx.games.insert(&id, handle.clone());
    // Listed and announced once its task is registered: whoever accepts the seek, or a
    // program told that the game starts, finds the game.
    if let Some(s) = seek {
        ctx.lobby.add(s);
    }
    if started {
        ctx.news.publish(crate::news::GameNews::Started { id: id.clone(), variant, players });
    }
    Ok(Created { id, handle, seat: None, invite: None })
}

/// True when a stored game has a clock (its flag can fall while nobody watches).
pub fn has_clock(row: &GameRow) -> bool {
    row.options.time != TimeControl::None
}

/// The players and rating changes of a stored game.
pub(super) async fn load_players(
    ctx: &Services,
    row: &GameRow,
) -> Result<([Option<Player>; 2], [Option<RatingView>; 2]), ApiError> {
    let mut players = [None, None];
    for (seat, id) in row.state.accounts.iter().enumerate() {
        if let Some(id) = id {
            players[seat] = ctx.store.account_by_id(id).await?.map(Player::from);
        }
    }
    let mut ratings = [None, None];
    if row.state.status == Phase::Finished && players.iter().all(Option::is_some) {
        for (account, before, after) in ctx.store.game_rating_changes(&row.id).await? {
            if let Some(seat) = players.iter().position(|p| p.as_ref().is_some_and(|p| p.id == account)) {
                ratings[seat] = Some(RatingView::of(before, after));
            }
        }
    }
    Ok((players, ratings))
}

/// A stored game's round (a row the server wrote always reads; one that does not is an
/// internal error).
pub(super) fn round_of(ctx: &Services, row: &GameRow, stored: Stored) -> Result<Round, ApiError> {
    let (opts, variant) = (&row.options, row.variant);
    let game =
        AnyGame::new(variant, Some(&row.start_fen), rules_of(variant, opts.rules)).map_err(|_| ApiError::Internal)?;
    // A game taken over from another node (its lease has had an owner before: the token
    // grew) was interrupted as by a restart.
    let taken_over = ctx.store.leases().and_then(|l| l.token(&row.id)).is_some_and(|t| t > 1);
    let since = Resumed { started_ms: ctx.started_ms, taken_over };
    Round::restore(row, game, stored, Now::current(), since).map_err(|e| {
        tracing::error!(game = %row.id, error = %e, "a stored game does not read back");
        ApiError::Internal
    })
}

/// Brings a stored game back into memory (after a restart, an idle unload, or to show a
/// finished one).
pub async fn restore(ctx: Services, row: GameRow, place: Running) -> Result<GameHandle, ApiError> {
    let moves = ctx.store.moves(&row.id).await?;
    let kept = ctx.store.suggestions(&row.id).await?;
    let (players, ratings) = load_players(&ctx, &row).await?;
    let round = round_of(&ctx, &row, Stored { moves, kept, players, ratings })?;
    if let Some(s) = seek::of(&ctx, &round).await? {
        ctx.lobby.add(s);
    }
    tracing::debug!(game = %row.id, status = row.state.status.key(), moves = round.game.ply(), "game restored");
    let chat = ctx.store.chat(&row.id).await?;
    let id = row.id.clone();
    let h = spawn(ctx.clone(), round, chat, place)?;
    crate::cluster::serve(&ctx, &id, h.clone()).await?;
    Ok(h)
}

fn spawn(
    ctx: Services,
    round: Round,
    chat: Vec<crate::store::ChatRow>,
    running: Running,
) -> Result<GameHandle, ApiError> {
    let out = ctx.cluster.clone().map(|c| (round.id.clone(), c));
    let a = Actor {
        events: events::Events::new(round.version, out),
        round,
        ctx,
        chat: chat::Chat::with(chat),
        engine: Default::default(),
        hint_busy: Arc::new(AtomicBool::new(false)),
        viewers: HashMap::new(),
    };
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(async move {
        let _running = running;
        a.run(rx).await;
    });
    Ok(GameHandle::local(tx))
}
