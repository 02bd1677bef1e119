//! Creating a game and bringing a stored one back into memory.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dama_core::game::{DrawRules, RulePreset, Status};
use dama_core::{Color, Variant};
use rand::Rng;
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

use super::offers::Offers;
use super::{
    ai, color_name, now_ms, rated, seek, suggest, Actor, ColorChoice, Events, GameHandle, Mode, Options, Player,
    RatingView, Record, ResultView, RulesChoice, Seat, SeriesState, State,
};
use crate::clock::{Clock, TimeControl};
use crate::error::ApiError;
use crate::registry::{Ctx, Running};
use crate::secret;
use crate::session::{new_session, Session};
use crate::store::{GameRow, MoveRow};

/// A game just created.
pub struct Created {
    /// Its id.
    pub id: String,
    /// Its task.
    pub handle: GameHandle,
    /// The creator's seat.
    pub seat: Option<Seat>,
    /// The invite secret of a friend game (only its hash is stored).
    pub invite: Option<String>,
}

/// A new game: checked, stored, then its task started; `creator` is the logged-in
/// player creating it, if any.
pub async fn create(ctx: Ctx, opts: Options, creator: Option<Player>) -> Result<Created, ApiError> {
    opts.validate()?;
    if opts.rated {
        rated::may_play_rated(creator.as_ref())?;
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
            color_name(mine)
        }
    };
    let invite = (opts.mode == Mode::Friend).then(secret::token);
    let opts = Options { series_state: (opts.series > 1).then_some(SeriesState { game: 1, score: [0.0; 2] }), ..opts };
    let mut created = create_with(ctx, opts, tokens, players, invite.as_deref().map(secret::hash)).await?;
    created.seat = Some(Seat { token: t, color });
    created.invite = invite;
    Ok(created)
}

/// Stores and starts a game with given seats (token hashes and the accounts at them;
/// rematches and series keep the players'). A position that is already decided gives a
/// finished game.
pub(super) async fn create_with(
    ctx: Ctx,
    opts: Options,
    tokens: [Option<String>; 2],
    players: [Option<Player>; 2],
    invite_hash: Option<String>,
) -> Result<Created, ApiError> {
    let variant: Variant =
        opts.variant.parse().map_err(|e: dama_core::variant::UnknownVariant| ApiError::BadRequest(e.to_string()))?;
    let session =
        new_session(variant, opts.fen.as_deref(), rules_of(variant, opts.rules)).map_err(ApiError::BadRequest)?;
    let place = ctx.room_for_a_game()?;
    if session.pieces().is_empty() {
        return Err(ApiError::BadRequest("fen: the position has no pieces".into()));
    }
    let over = match session.status() {
        Status::Over(r) => Some(r),
        _ => None,
    };
    let status = match opts.mode {
        _ if over.is_some() => "finished",
        Mode::Friend | Mode::Open if tokens.iter().any(Option::is_none) => "waiting",
        _ => "live",
    };
    let id = secret::token()[..12].to_string();
    let now = now_ms();
    let row = GameRow {
        id: id.clone(),
        variant: variant.key().into(),
        mode: opts.mode.key().to_string(),
        start_fen: session.start_fen(),
        options: serde_json::to_string(&opts).map_err(|_| ApiError::Internal)?,
        white_token: tokens[0].clone(),
        black_token: tokens[1].clone(),
        status: status.into(),
        result: over.map(|r| session.result_token(r.winner).to_string()),
        reason: over.map(|r| r.to_string()),
        created_ms: now,
        turn_started_ms: Some(now),
        invite_hash,
        accounts: players.clone().map(|p| p.map(|p| p.id)),
        ..GameRow::default()
    };
    ctx.store.create(&row).await?;
    // A new game is this node's (its lease is new; the claim cannot fail but by the
    // database).
    if !crate::cluster::claim(&ctx, &id).await? {
        return Err(ApiError::Unavailable("the server is restarting; please try again".into()));
    }
    tracing::info!(game = %id, variant = %row.variant, mode = %row.mode, status = %row.status, "game created");
    metrics::counter!("dama_games_created_total", "variant" => variant.key(), "mode" => row.mode.clone()).increment(1);
    let seek = seek::of(&ctx, &row, &opts, &players).await?;
    let started = (row.status == "live").then(|| players.clone());
    let handle = spawn(ctx.clone(), row, session, opts, Stored::default(), (players, [None, None]), place)?;
    crate::cluster::serve(&ctx, &id, handle.clone()).await?;
    ctx.games.insert(&id, handle.clone());
    // Listed and announced once its task is registered: whoever accepts the seek, or a
    // program told that the game starts, finds the game.
    if let Some(s) = seek {
        ctx.lobby.add(s);
    }
    if let Some(players) = started {
        rated::tell_start(&ctx, &id, variant.key(), &players);
    }
    Ok(Created { id, handle, seat: None, invite: None })
}

fn preset_of(r: RulesChoice) -> RulePreset {
    match r {
        RulesChoice::Official => RulePreset::Official,
        RulesChoice::Seed000 => RulePreset::Seed000,
        RulesChoice::Seed001 => RulePreset::Seed001,
        RulesChoice::Seed003 => RulePreset::Seed003,
    }
}

fn rules_of(variant: Variant, r: RulesChoice) -> DrawRules {
    DrawRules::preset(variant, preset_of(r))
}

/// True when a stored game has a clock (its flag can fall while nobody watches).
pub fn has_clock(row: &GameRow) -> bool {
    serde_json::from_str::<Options>(&row.options).is_ok_and(|o| o.time != TimeControl::None)
}

/// Brings a stored game back into memory (after a restart, an idle unload, or to show a
/// finished one).
pub async fn restore(ctx: Ctx, row: GameRow, place: Running) -> Result<GameHandle, ApiError> {
    let (opts, session) = stored_session(&row)?;
    let moves = ctx.store.moves(&row.id).await?;
    let kept = ctx.store.suggestions(&row.id).await?;
    let players = rated::load_players(&ctx, &row).await?;
    if let Some(s) = seek::of(&ctx, &row, &opts, &players.0).await? {
        ctx.lobby.add(s);
    }
    tracing::debug!(game = %row.id, status = %row.status, moves = moves.len(), "game restored");
    let chat = ctx.store.chat(&row.id).await?;
    let id = row.id.clone();
    let h = spawn(ctx.clone(), row, session, opts, Stored { moves, kept, chat }, players, place)?;
    crate::cluster::serve(&ctx, &id, h.clone()).await?;
    Ok(h)
}

/// A stored game's options and a session at its start position under its rules (a
/// row the server wrote always reads; one that does not is an internal error).
pub(super) fn stored_session(row: &GameRow) -> Result<(Options, Box<dyn Session>), ApiError> {
    let opts: Options = serde_json::from_str(&row.options).map_err(|_| ApiError::Internal)?;
    let variant: Variant = row.variant.parse().map_err(|_| ApiError::Internal)?;
    let session =
        new_session(variant, Some(&row.start_fen), rules_of(variant, opts.rules)).map_err(|_| ApiError::Internal)?;
    Ok((opts, session))
}

/// The engine's colour in a game of `mode`: the seat left without a token in a game
/// against it (the player's seat has one).
pub(super) fn engine_color(mode: Mode, white_seat_taken: bool) -> Option<Color> {
    (mode == Mode::Ai).then_some(if white_seat_taken { Color::Black } else { Color::White })
}

/// What a stored game brings back beside its row: its moves, the spectators'
/// suggestions kept with them, and its chat.
#[derive(Default)]
struct Stored {
    moves: Vec<MoveRow>,
    kept: Vec<(i64, String, i64)>,
    chat: Vec<crate::store::ChatRow>,
}

fn spawn(
    ctx: Ctx,
    row: GameRow,
    session: Box<dyn Session>,
    opts: Options,
    Stored { moves, kept, chat }: Stored,
    (players, ratings): ([Option<Player>; 2], [Option<RatingView>; 2]),
    running: Running,
) -> Result<GameHandle, ApiError> {
    // A subscriber that falls behind this many events gets a fresh snapshot instead.
    let (tx, _) = broadcast::channel(32);
    let tokens = [row.white_token.clone(), row.black_token.clone()];
    let ai_color = engine_color(opts.mode, tokens[0].is_some());
    let out = ctx.cluster.clone().map(|c| (row.id.clone(), c));
    let mut a = Actor {
        id: row.id.clone(),
        ctx,
        clock: Clock::new(opts.time),
        opts,
        session,
        tokens,
        invite_hash: row.invite_hash.clone(),
        record: Record::default(),
        offers: Offers::default(),
        votes: suggest::Votes::default(),
        ai: ai::Ai::playing(ai_color),
        next_game: row.next_game.clone(),
        state: match row.status.as_str() {
            "waiting" => State::Waiting,
            "finished" => State::Finished,
            _ => State::Live,
        },
        result: None,
        events: Events { version: row.version.max(0) as u64, log: Default::default(), tx, out },
        touched: None,
        turn_started_ms: row.turn_started_ms.unwrap_or(row.created_ms),
        created_ms: row.created_ms,
        hint_busy: Arc::new(AtomicBool::new(false)),
        viewers: HashMap::new(),
        players,
        ratings,
        chat: super::chat::Chat::with(chat),
    };
    // Replay what was stored; the clocks continue from the stored times.
    let mut last_at = None;
    for m in &moves {
        let side = a.session.side();
        let v = a.session.play_recorded(&m.notation).map_err(|_| ApiError::Internal)?;
        if let Some(c) = m.clock_ms {
            a.clock.remaining[side.index()] = c.max(0) as u64;
        }
        a.record.clocks_after.push(m.clock_ms.map(|c| c.max(0) as u64));
        a.record.comments.push(Vec::new());
        a.record.history.push(v);
        last_at = Some(m.at_ms);
        a.events.version = a.events.version.max(m.v.unwrap_or(0).max(0) as u64);
    }
    for (ply, m, n) in kept {
        if let Some(c) = usize::try_from(ply - 1).ok().and_then(|i| a.record.comments.get_mut(i)) {
            c.push(format!("{m} x{n}"));
        }
    }
    a.offers = Offers::from_json(row.offers.as_deref(), a.session.ply());
    match a.state {
        State::Finished => {
            if let (Some(c), true) = (row.end_clock_ms, a.clock.enabled()) {
                a.clock.remaining[a.session.side().index()] = c.max(0) as u64;
            }
            let winner = end_as_stored(a.session.as_mut(), row.result.as_deref());
            a.result = Some(ResultView {
                winner: winner.map(color_name),
                token: row.result.clone().unwrap_or_else(|| "*".into()),
                text: row.reason.clone().unwrap_or_default(),
            });
        }
        State::Live => {
            // The turn began with the last move or the stored turn start (a join or a
            // takeback); the time since is charged, with a small grace if the server
            // was down meanwhile.
            let turn = a.turn_started_ms.max(last_at.unwrap_or(0));
            a.start_clock(Instant::now(), turn);
            let elapsed = (now_ms() - turn).max(0) as u64;
            // A game taken over from another node (its lease has had an owner before:
            // the token grew) was interrupted as by a restart.
            let taken_over = a.ctx.store.leases().and_then(|l| l.token(&a.id)).is_some_and(|t| t > 1);
            a.clock.resume(a.session.side(), elapsed, turn < a.ctx.started_ms || taken_over, Instant::now());
        }
        State::Waiting => {}
    }
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(async move {
        let _running = running;
        a.run(rx).await;
    });
    Ok(GameHandle::local(tx))
}

/// Ends a restored session with a finished game's stored result (a resignation, a
/// flag, an agreement: ends its moves alone do not show), so that its PDN and its end
/// agree with what was played; the winner. The end's reason is not kept here: the
/// stored text says it (the PDN's Termination tag, the result's text).
pub(super) fn end_as_stored(session: &mut dyn Session, token: Option<&str>) -> Option<Color> {
    let decided = token.and_then(|t| dama_core::record::result_winner(t, session.variant().first_to_move()));
    if let Some(winner) = decided {
        session.end(dama_core::game::GameResult { winner, reason: dama_core::game::EndReason::Agreement });
    }
    decided.flatten()
}

/// The PDN tags that say which house rules a game was played under. Seed 001 calls the
/// sides Red (moving first) and Black; PDN's seats stay as every reader expects them
/// (Black moves first in English) and a tag says which is which. A preset that does not
/// concern the variant is not applied (the game plays its official rules) and not tagged.
pub(super) fn rules_tags(rules: RulesChoice, variant: Variant) -> Vec<(String, String)> {
    let preset = preset_of(rules);
    if !preset.concerns(variant) {
        return Vec::new();
    }
    let rule = |s: &str| ("Rules".to_string(), s.to_string());
    match preset {
        RulePreset::Official => Vec::new(),
        RulePreset::Seed000 => vec![rule("seed 000")],
        RulePreset::Seed001 => vec![
            rule("seed 001"),
            ("Sides".to_string(), "Red (the Black seat) moves first, Black (the White seat) second".to_string()),
        ],
        RulePreset::Seed003 => vec![rule("seed 003")],
    }
}
