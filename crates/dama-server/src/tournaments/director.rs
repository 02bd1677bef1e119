//! The director of events: every second, and at once when a game of an event ends,
//! each event due is brought forward one step ([`tick`]): started when its time
//! comes, its missed results read, its games made, its next pairings decided and
//! stored (then their games made), and ended. A step decides from what is stored and
//! stores what it decided before it acts, so a step cut short by a restart is taken
//! up by the next. In cluster mode one node directs each event at a time: it holds
//! the event's lease (`tournament:<id>`), as a node holds a game's.

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use dama_pairing::{arena, berger, swiss};

use super::{points, results, Format, Settings, Status};
use crate::error::ApiError;
use crate::protocol::Player;
use crate::state::Services;
use crate::store::{EntryRow, PairingRow, TournamentRow};

/// How often every event due is looked at.
const EVERY: Duration = Duration::from_secs(1);

/// An event as the director reads it: the row, its settings and everything played.
pub struct Event {
    /// The stored row.
    pub row: TournamentRow,
    /// Its format.
    pub format: Format,
    /// Where it stands.
    pub status: Status,
    /// Its settings.
    pub settings: Settings,
    /// Its players.
    pub entries: Vec<EntryRow>,
    /// Its games and byes.
    pub games: Vec<PairingRow>,
}

impl Event {
    /// Reads event `id` (none if there is no such event).
    pub async fn load(ctx: &Services, id: &str) -> Result<Option<Event>, ApiError> {
        let Some(row) = ctx.store.tournament(id).await? else { return Ok(None) };
        let bad = || {
            tracing::error!(tournament = %id, "a stored tournament does not read back");
            ApiError::Internal
        };
        let format = Format::from_key(&row.format).ok_or_else(bad)?;
        let status = Status::from_key(&row.status).ok_or_else(bad)?;
        let settings: Settings = serde_json::from_str(&row.settings).map_err(|_| bad())?;
        let entries = ctx.store.entries(id).await?;
        let games = ctx.store.pairings(id).await?;
        Ok(Some(Event { row, format, status, settings, entries, games }))
    }

    /// The players with a game under way (or waiting to be made).
    pub fn busy(&self) -> BTreeSet<&str> {
        let mut b = BTreeSet::new();
        for g in self.games.iter().filter(|g| g.open()) {
            b.insert(g.white.as_str());
            if let Some(x) = &g.black {
                b.insert(x.as_str());
            }
        }
        b
    }

    /// True while a game of round `round` is under way.
    fn round_open(&self, round: i64) -> bool {
        self.games.iter().any(|g| g.round == round && g.open())
    }
}

/// The lease key of event `id`.
pub fn lease_key(id: &str) -> String {
    format!("tournament:{id}")
}

/// Whether this node directs event `id` (it holds the lease, or takes it now).
async fn directs(ctx: &Services, id: &str) -> Result<bool, ApiError> {
    let key = lease_key(id);
    if ctx.store.leases().is_some_and(|l| l.token(&key).is_some()) {
        return Ok(true);
    }
    crate::cluster::claim(ctx, &key).await
}

/// Gives up the lease of a finished event.
async fn release(ctx: &Services, id: &str) {
    let key = lease_key(id);
    if let Some(t) = ctx.store.leases().and_then(|l| l.token(&key)) {
        if let Err(e) = ctx.store.release(&key, t, false).await {
            tracing::warn!(tournament = %id, error = %crate::error::Chain(&e), "releasing a tournament's lease");
        }
    }
}

/// Runs the director until the server stops: every [`EVERY`], and at once for an
/// event whose game ended ([`crate::services::pokes::Pokes`]). Steps run one at a
/// time, so an event is never paired twice at once.
pub fn start(ctx: &Services) {
    let ctx = ctx.clone();
    let Some(mut pokes) = ctx.pokes.take_receiver() else { return };
    tokio::spawn(async move {
        let stopping = ctx.until_shutdown();
        tokio::pin!(stopping);
        let mut every = tokio::time::interval(EVERY);
        loop {
            let mut ids = BTreeSet::new();
            tokio::select! {
                _ = every.tick() => match ctx.store.tournaments_due(crate::clock::now_ms()).await {
                    Ok(due) => ids.extend(due),
                    Err(e) => tracing::warn!(error = %crate::error::Chain(&e), "listing the tournaments due"),
                },
                Some(id) = pokes.recv() => {
                    ids.insert(id);
                }
                _ = &mut stopping => return,
            }
            while let Ok(id) = pokes.try_recv() {
                ids.insert(id);
            }
            for id in ids {
                if let Err(e) = step(&ctx, &id, crate::clock::now_ms()).await {
                    tracing::warn!(tournament = %id, error = %e, "directing a tournament");
                }
            }
        }
    });
}

/// One step of event `id` at `now_ms`, if this node directs it.
pub async fn step(ctx: &Services, id: &str, now_ms: i64) -> Result<(), ApiError> {
    if !directs(ctx, id).await? {
        return Ok(());
    }
    tick(ctx, id, now_ms).await
}

/// Brings event `id` forward at `now_ms` (tests call it with their own time).
pub async fn tick(ctx: &Services, id: &str, now_ms: i64) -> Result<(), ApiError> {
    let _one = ctx.pokes.steps.lock().await;
    let Some(mut ev) = Event::load(ctx, id).await? else { return Ok(()) };
    match ev.status {
        Status::Finished => return Ok(()),
        Status::Created if now_ms < ev.row.starts_ms => return Ok(()),
        Status::Created => {
            begin(ctx, &ev).await?;
            let Some(again) = Event::load(ctx, id).await? else { return Ok(()) };
            ev = again;
        }
        Status::Started => {}
    }
    if results::reconcile(ctx, &ev).await? > 0 {
        ev.games = ctx.store.pairings(id).await?;
    }
    let next = match ev.format {
        Format::Arena => arena_step(&ev, now_ms),
        Format::Swiss => swiss_step(&ev, now_ms)?,
        Format::Robin => robin_step(&ev, now_ms),
    };
    match next {
        Next::Wait => {}
        Next::Finish => {
            if ctx.store.set_tournament_status(id, "started", "finished", ev.row.round).await? {
                tracing::info!(tournament = %id, "tournament finished");
                release(ctx, id).await;
            }
            return Ok(());
        }
        Next::Pair(round, rows) => {
            ctx.store.add_pairings(id, round, &rows).await?;
            ev.games.extend(rows);
        }
    }
    make_games(ctx, &ev).await
}

/// What an event does next.
enum Next {
    /// Nothing now.
    Wait,
    /// Store these pairings (of this round) and make their games.
    Pair(i64, Vec<PairingRow>),
    /// It is over.
    Finish,
}

/// Starts event `ev`: a round robin fixes its players (those present) and its rounds.
async fn begin(ctx: &Services, ev: &Event) -> Result<(), ApiError> {
    let present = ev.entries.iter().filter(|e| e.active).count() as i64;
    if ev.format == Format::Robin {
        ctx.store.drop_inactive_entries(&ev.row.id).await?;
        let rounds = berger::table(present.max(0) as usize).len() as i64;
        ctx.store.set_tournament_rounds(&ev.row.id, rounds).await?;
    }
    if ctx.store.set_tournament_status(&ev.row.id, "created", "started", 0).await? {
        tracing::info!(tournament = %ev.row.id, players = present, "tournament started");
    }
    Ok(())
}

/// The next legs' rows of a pairing: leg 1 as paired, leg 2 (colours swapped) when
/// the event plays two games a pairing.
fn legs(ev: &Event, round: i64, board: i64, white: &str, black: &str, now: i64) -> Vec<PairingRow> {
    let ballot = ev.settings.ballot().map(|list| {
        let seed = seed_of(&ev.row.id, round, board);
        i64::from(dama_core::ballot::draw(list, seed).number)
    });
    let mut rows = vec![PairingRow::game(round, board, 1, white, black, ballot, now)];
    if ev.settings.legs() == 2 {
        rows.push(PairingRow::game(round, board, 2, black, white, ballot, now));
    }
    rows
}

/// A ballot's seed for one pairing: the same for both legs, different for each
/// pairing and event.
fn seed_of(id: &str, round: i64, board: i64) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
        ^ (round as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (board as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
}

/// The most waiting arena players paired in one matching. The matching takes time
/// cubic in the players (1,000 players waiting at an arena's start held the director
/// for minutes); the waiting are cut, in their ranking order (score, then rating), into
/// groups of this many (even, so that only the last, lowest ranked, group may leave a
/// player waiting), each paired on its own: neighbours in the ranking meet anyway.
const PAIRING_GROUP: usize = 64;

/// An arena: while it runs, the players waiting are paired at once; once its time is
/// up no one is paired, and it ends when its last game does.
fn arena_step(ev: &Event, now: i64) -> Next {
    let ends = ev.row.ends_ms.unwrap_or(ev.row.starts_ms);
    if now >= ends {
        return if ev.games.iter().any(PairingRow::open) { Next::Wait } else { Next::Finish };
    }
    let busy = ev.busy();
    let scores = arena_scores(ev);
    let mut waiting: Vec<arena::Waiting> = ev
        .entries
        .iter()
        .filter(|e| e.active && !busy.contains(e.account.as_str()))
        .map(|e| {
            let mine: Vec<&PairingRow> = ev.games.iter().filter(|g| g.kind == "game" && plays(g, &e.account)).collect();
            let last_opponent = mine.last().and_then(|g| opponent(g, &e.account)).map(|o| id_of(ev, o));
            let whites = mine.iter().filter(|g| g.white == e.account).count() as i32;
            arena::Waiting {
                id: id_of(ev, &e.account),
                score: scores.get(e.account.as_str()).map_or(0, |s| s.points),
                rating: e.rating as i32,
                last_opponent,
                colour_balance: 2 * whites - mine.len() as i32,
            }
        })
        .collect();
    if waiting.len() < 2 {
        return Next::Wait;
    }
    waiting.sort_by(|a, b| b.score.cmp(&a.score).then(b.rating.cmp(&a.rating)));
    let pairs: Vec<_> = waiting.chunks(PAIRING_GROUP).flat_map(arena::pair).collect();
    if pairs.is_empty() {
        return Next::Wait;
    }
    let first = ev.row.round + 1;
    let mut rows = Vec::new();
    for (i, p) in pairs.iter().enumerate() {
        let round = first + i as i64;
        let (w, b) = (account_of(ev, p.white), account_of(ev, p.black));
        rows.extend(legs(ev, round, 1, w, b, now));
    }
    Next::Pair(first + pairs.len() as i64 - 1, rows)
}

/// Every arena player's score so far (lichess's rules: [`arena::score`]).
pub fn arena_scores(ev: &Event) -> HashMap<&str, arena::ArenaScore> {
    ev.entries
        .iter()
        .map(|e| {
            let sheet: Vec<arena::ArenaGame> = ev
                .games
                .iter()
                .filter(|g| g.kind == "game" && !g.open() && plays(g, &e.account))
                .map(|g| {
                    let white = g.white == e.account;
                    arena::ArenaGame {
                        points2: if white { g.white_points } else { g.black_points }.unwrap_or(0) as u32,
                        berserk: g.berserk & if white { 1 } else { 2 } != 0,
                        long_enough: g.plies >= 14,
                    }
                })
                .collect();
            (e.account.as_str(), arena::score(&sheet))
        })
        .collect()
}

fn plays(g: &PairingRow, account: &str) -> bool {
    g.white == account || g.black.as_deref() == Some(account)
}

fn opponent<'a>(g: &'a PairingRow, account: &str) -> Option<&'a str> {
    if g.white == account {
        g.black.as_deref()
    } else {
        Some(g.white.as_str())
    }
}

/// A player's number for the pairing rules: their place in the entries.
fn id_of(ev: &Event, account: &str) -> u64 {
    ev.entries.iter().position(|e| e.account == account).map_or(u64::MAX, |i| i as u64)
}

fn account_of(ev: &Event, id: u64) -> &str {
    &ev.entries[id as usize].account
}

/// The Swiss history of every player: a round's legs make one result (the match
/// points of a micro-match: 2 won, 1 level, 0 lost).
pub fn swiss_entrants(ev: &Event, upto: i64) -> Vec<dama_pairing::Entrant> {
    ev.entries
        .iter()
        .map(|e| {
            let mut history = Vec::new();
            for round in 1..=upto {
                let rows: Vec<&PairingRow> =
                    ev.games.iter().filter(|g| g.round == round && plays(g, &e.account)).collect();
                history.push(played(&rows, &e.account, |a| id_of(ev, a)));
            }
            dama_pairing::Entrant {
                id: id_of(ev, &e.account),
                rating: e.rating as i32,
                had_bye: ev.games.iter().any(|g| g.kind == "bye" && g.white == e.account),
                history,
            }
        })
        .collect()
}

/// One round of `account` from its rows (none: absent, no points).
fn played(rows: &[&PairingRow], account: &str, id: impl Fn(&str) -> u64) -> dama_pairing::Played {
    let Some(first) = rows.first() else {
        return dama_pairing::Played { opponent: None, colour: None, points2: 0, played: false };
    };
    let (mine, theirs): (i64, i64) = rows.iter().fold((0, 0), |(m, t), g| {
        let (a, b) = (g.white_points.unwrap_or(0), g.black_points.unwrap_or(0));
        if g.white == account {
            (m + a, t + b)
        } else {
            (m + b, t + a)
        }
    });
    let game = first.kind == "game";
    let points2 = match first.kind.as_str() {
        "game" | "forfeit" => match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => 2,
            std::cmp::Ordering::Equal if mine > 0 => 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Less => 0,
        },
        _ => mine as u32,
    };
    dama_pairing::Played {
        opponent: opponent(first, account).map(id),
        colour: game.then(|| {
            if first.white == account {
                dama_pairing::Colour::White
            } else {
                dama_pairing::Colour::Black
            }
        }),
        points2,
        played: game,
    }
}

/// A Swiss: once a round is over, the next is paired by the Dutch system (absent
/// players score nothing that round); after the last, it ends.
fn swiss_step(ev: &Event, now: i64) -> Result<Next, ApiError> {
    let round = ev.row.round;
    if round > 0 && ev.round_open(round) {
        return Ok(Next::Wait);
    }
    let present: Vec<&EntryRow> = ev.entries.iter().filter(|e| e.active).collect();
    if round >= ev.row.rounds || present.len() < 2 {
        return Ok(Next::Finish);
    }
    let next = round + 1;
    let all = swiss_entrants(ev, round);
    let entrants: Vec<dama_pairing::Entrant> = all.into_iter().filter(|x| ev.entries[x.id as usize].active).collect();
    let paired = swiss::pair(&entrants, next as u32, ev.row.rounds as u32).map_err(|e| {
        tracing::error!(tournament = %ev.row.id, round = next, error = %e, "no Swiss pairing");
        ApiError::Internal
    })?;
    let mut rows = Vec::new();
    for (i, p) in paired.pairings.iter().enumerate() {
        rows.extend(legs(ev, next, i as i64 + 1, account_of(ev, p.white), account_of(ev, p.black), now));
    }
    let mut board = paired.pairings.len() as i64;
    if let Some(b) = paired.bye {
        board += 1;
        rows.push(PairingRow::without_game(next, board, "bye", account_of(ev, b), 2, now));
    }
    for e in ev.entries.iter().filter(|e| !e.active) {
        board += 1;
        rows.push(PairingRow::without_game(next, board, "absent", &e.account, 0, now));
    }
    Ok(Next::Pair(next, rows))
}

/// A round robin: the Berger table of its players (in their order at the start,
/// strongest first); a withdrawn player's games are forfeited.
fn robin_step(ev: &Event, now: i64) -> Next {
    let round = ev.row.round;
    if round > 0 && ev.round_open(round) {
        return Next::Wait;
    }
    if round >= ev.row.rounds {
        return Next::Finish;
    }
    let mut order: Vec<&EntryRow> = ev.entries.iter().collect();
    order.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.joined_ms.cmp(&b.joined_ms)));
    let table = berger::table(order.len());
    let Some(pairs) = table.get(round as usize) else { return Next::Finish };
    let next = round + 1;
    let mut rows = Vec::new();
    for (i, &(w, b)) in pairs.iter().enumerate() {
        let board = i as i64 + 1;
        match (order.get(w - 1), order.get(b - 1)) {
            (Some(x), None) | (None, Some(x)) => {
                rows.push(PairingRow::without_game(next, board, "bye", &x.account, 0, now));
            }
            (Some(x), Some(y)) if x.active && y.active => {
                rows.extend(legs(ev, next, board, &x.account, &y.account, now))
            }
            (Some(x), Some(y)) => {
                let p = points(
                    if x.active {
                        Some(dama_core::Color::White)
                    } else if y.active {
                        Some(dama_core::Color::Black)
                    } else {
                        None
                    },
                    x.active || y.active,
                );
                let mut r = PairingRow::game(next, board, 1, &x.account, &y.account, None, now);
                r.kind = "forfeit".into();
                (r.white_points, r.black_points, r.ended_ms) = (Some(p[0]), Some(p[1]), Some(now));
                rows.push(r);
            }
            (None, None) => {}
        }
    }
    Next::Pair(next, rows)
}

/// Makes the games of the pairings that have none yet: a first leg at once, a second
/// once the first is over.
async fn make_games(ctx: &Services, ev: &Event) -> Result<(), ApiError> {
    for g in ev.games.iter().filter(|g| g.kind == "game" && g.game_id.is_none() && g.open()) {
        if g.leg == 2 {
            let first_done =
                ev.games.iter().any(|f| f.round == g.round && f.board == g.board && f.leg == 1 && !f.open());
            if !first_done {
                continue;
            }
        }
        let Some(black) = g.black.as_deref() else { continue };
        let (Some(w), Some(b)) = (ctx.store.account_by_id(&g.white).await?, ctx.store.account_by_id(black).await?)
        else {
            continue;
        };
        let fen = g.ballot.and_then(|n| {
            let o = ev.settings.ballot()?.opening(u16::try_from(n).ok()?)?;
            Some(o.fen(ev.settings.variant()))
        });
        let opts = ev.settings.options(&ev.row.id, fen);
        let created = crate::game::create_paired(ctx.clone(), opts, [Player::from(w), Player::from(b)]).await?;
        if ctx.store.pairing_game(&ev.row.id, g, &created.id).await? {
            let e = serde_json::json!({ "type": "tournament_game", "tournament": ev.row.id, "game": created.id });
            ctx.bots.send(&g.white, e.clone());
            ctx.bots.send(black, e);
        }
    }
    Ok(())
}
