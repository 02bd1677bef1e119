//! The director of events: every second, and at once when a game of an event ends,
//! each event due is brought forward one step ([`tick`]): started when its time
//! comes, its missed results read, its games made, its next pairings decided and
//! stored (then their games made), and ended. A step decides from what is stored and
//! stores what it decided before it acts, so a step cut short by a restart is taken
//! up by the next. In cluster mode one node directs each event at a time: it holds
//! the event's lease (`tournament:<id>`), as a node holds a game's.

use std::collections::BTreeSet;
use std::time::Duration;

use dama_pairing::berger;

use super::steps::{arena_step, robin_step, swiss_step, Next};
use super::{results, Format, Settings, Status};
use crate::error::ApiError;
use crate::notify::Notice;
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
    pub fn round_open(&self, round: i64) -> bool {
        self.games.iter().any(|g| g.round == round && g.open())
    }
}

/// The lease key of event `id`.
pub fn lease_key(id: &str) -> String {
    format!("{}{id}", crate::store::EVENT_LEASE)
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
        // Its players are told (on their pages, and by Web Push when no tab is open).
        for e in ev.entries.iter().filter(|e| e.active) {
            let notice = Notice::TournamentStarted { tournament: ev.row.id.clone(), name: ev.row.name.clone() };
            crate::notify::notify_or_log(ctx, &e.account, notice).await;
        }
    }
    Ok(())
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
