//! The tournaments' API: list, make, see, join, leave, and download an event's games.
//!
//! - `GET /api/tournaments` → `{"tournaments": [...]}`: under way, to come, and
//!   finished in the last day.
//! - `POST /api/tournaments` (logged in) → `201 {"tournament"}`.
//! - `GET /api/tournaments/{id}` → the event: settings, players and standings,
//!   pairings and results, crosstable, and the caller's place.
//! - `POST /api/tournaments/{id}/join` `{"password"}`, `POST /api/tournaments/{id}/leave`.
//! - `GET /api/tournaments/{id}/games.pdn`: every finished game of the event.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::director::Event;
use super::{standings, Conditions, Format, Settings, Status, TournamentRefusal};
use crate::accounts::Me;
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::extract::{parse, parse_or_default};
use crate::protocol::RulesChoice;
use crate::rating::Speed;
use crate::rating_pool::Pool;
use crate::state::Services;
use crate::store::{AccountRow, TournamentRow};

/// Events one account may make a day.
pub const MOST_A_DAY: i64 = 10;

/// What `POST /api/tournaments` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTournament {
    name: String,
    format: Format,
    variant: String,
    #[serde(default)]
    rules: RulesChoice,
    time: TimeControl,
    #[serde(default)]
    rated: bool,
    /// Minutes from now to the start (0 to 43 200).
    #[serde(default)]
    starts_in_minutes: u32,
    /// An arena's length (5 to 720).
    #[serde(default)]
    minutes: Option<u32>,
    /// A Swiss's rounds (1 to 20).
    #[serde(default)]
    rounds: Option<u32>,
    #[serde(default)]
    ballot: Option<String>,
    #[serde(default)]
    micro: bool,
    #[serde(default)]
    berserk: bool,
    #[serde(default)]
    conditions: Conditions,
    /// A private event's password.
    #[serde(default)]
    password: Option<String>,
}

/// An event's row from checked settings, with an arena's minutes or a Swiss's rounds
/// (`made_by`: the account, none for the schedule).
pub fn new_row(
    name: &str,
    format: Format,
    settings: &Settings,
    starts_ms: i64,
    (minutes, rounds): (Option<u32>, Option<u32>),
    made_by: Option<&str>,
    now: i64,
) -> Result<TournamentRow, ApiError> {
    let name = name.trim();
    if !(2..=60).contains(&name.chars().count()) {
        return Err(ApiError::BadRequest("name: 2 to 60 characters".into()));
    }
    settings.check(format)?;
    let (ends_ms, rounds) = match format {
        Format::Arena => {
            let m = minutes.unwrap_or(45);
            if !(5..=720).contains(&m) {
                return Err(ApiError::BadRequest("minutes: an arena lasts 5 to 720 minutes".into()));
            }
            (Some(starts_ms + i64::from(m) * 60_000), 0)
        }
        Format::Swiss => {
            let r = rounds.unwrap_or(7);
            if !(1..=20).contains(&r) {
                return Err(ApiError::BadRequest("rounds: a Swiss has 1 to 20 rounds".into()));
            }
            (None, i64::from(r))
        }
        Format::Robin => (None, 0),
    };
    Ok(TournamentRow {
        id: crate::secret::token()[..8].to_string(),
        name: name.to_string(),
        format: format.key().into(),
        settings: serde_json::to_string(settings).map_err(|_| ApiError::Internal)?,
        password_hash: None,
        created_by: made_by.map(str::to_string),
        schedule: None,
        starts_ms,
        ends_ms,
        rounds,
        status: Status::Created.key().into(),
        round: 0,
        created_ms: now,
    })
}

/// The logged-in account, if it may play in events (not a guest).
fn player(me: Me) -> Result<AccountRow, ApiError> {
    let me = me.required()?;
    if me.is_guest() {
        return Err(TournamentRefusal::Guest.into());
    }
    Ok(me)
}

/// `POST /api/tournaments`: a new event, made by the logged-in player.
pub async fn create(State(st): State<Services>, me: Me, body: String) -> Result<Response, ApiError> {
    let me = player(me)?;
    let req: NewTournament = parse(&body)?;
    let now = crate::clock::now_ms();
    if st.store().tournaments_made(&me.id, now - 86_400_000).await? >= MOST_A_DAY {
        return Err(TournamentRefusal::Flood(MOST_A_DAY).into());
    }
    if req.starts_in_minutes > 43_200 {
        return Err(ApiError::BadRequest("starts_in_minutes: at most 30 days (43200)".into()));
    }
    let settings = Settings {
        variant: req.variant,
        rules: req.rules,
        time: req.time,
        rated: req.rated,
        ballot: req.ballot,
        micro: req.micro,
        berserk: req.berserk && req.format == Format::Arena,
        conditions: req.conditions,
    };
    let starts = now + i64::from(req.starts_in_minutes) * 60_000;
    let mut row = new_row(&req.name, req.format, &settings, starts, (req.minutes, req.rounds), Some(&me.id), now)?;
    if let Some(p) = req.password.as_deref().filter(|p| !p.is_empty()) {
        if p.len() > 100 {
            return Err(ApiError::BadRequest("password: at most 100 characters".into()));
        }
        row.password_hash = Some(crate::secret::hash(p));
    }
    st.store().add_tournament(&row).await?;
    tracing::info!(tournament = %row.id, format = %row.format, "tournament created");
    let ev = Event::load(&st, &row.id).await?.ok_or(ApiError::Internal)?;
    Ok((StatusCode::CREATED, Json(json!({ "tournament": view(&ev, Some(&me)) }))).into_response())
}

/// An event in a list.
fn summary(t: &TournamentRow, players: usize) -> Value {
    let settings: Value = serde_json::from_str(&t.settings).unwrap_or_default();
    json!({
        "id": t.id,
        "name": t.name,
        "format": t.format,
        "status": t.status,
        "variant": settings["variant"],
        "rules": settings["rules"],
        "time": settings["time"],
        "rated": settings["rated"],
        "ballot": settings["ballot"],
        "private": t.password_hash.is_some(),
        "scheduled": t.schedule.is_some(),
        "starts_ms": t.starts_ms,
        "ends_ms": t.ends_ms,
        "rounds": t.rounds,
        "round": t.round,
        "players": players,
    })
}

/// `GET /api/tournaments`.
pub async fn list(State(st): State<Services>) -> Result<Json<Value>, ApiError> {
    let since = crate::clock::now_ms() - 86_400_000;
    let listed = st.store().tournaments_listed(since).await?;
    let out: Vec<Value> = listed.iter().map(|(t, players)| summary(t, *players as usize)).collect();
    Ok(Json(json!({ "tournaments": out })))
}

/// An event as its page shows it, for `me`.
pub fn view(ev: &Event, me: Option<&AccountRow>) -> Value {
    let mut v = summary(&ev.row, ev.entries.len());
    let s = &ev.settings;
    v["micro"] = json!(s.legs() == 2);
    v["berserk"] = json!(s.berserk);
    v["conditions"] = json!(s.conditions);
    let (table, crosstable) = standings::tables(ev);
    v["standings"] = table;
    v["pairings"] = standings::pairings(ev);
    if let Some(c) = crosstable {
        v["crosstable"] = c;
    }
    if let Some(me) = me {
        let entry = ev.entries.iter().find(|e| e.account == me.id);
        let game = ev
            .games
            .iter()
            .rev()
            .find(|g| g.open() && g.game_id.is_some() && (g.white == me.id || g.black.as_deref() == Some(&me.id)))
            .and_then(|g| g.game_id.clone());
        v["me"] = json!({ "joined": entry.is_some(), "active": entry.is_some_and(|e| e.active), "game": game });
    }
    v
}

/// `GET /api/tournaments/{id}`.
pub async fn get(State(st): State<Services>, Path(id): Path<String>, me: Me) -> Result<Json<Value>, ApiError> {
    let ev = Event::load(&st, &id).await?.ok_or(TournamentRefusal::NotFound)?;
    Ok(Json(view(&ev, me.0.as_ref())))
}

/// What `POST /api/tournaments/{id}/join` reads.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Join {
    #[serde(default)]
    password: Option<String>,
}

/// The rating `me` enters event `ev` with, once its conditions are checked.
async fn admitted(st: &Services, ev: &Event, me: &AccountRow, now: i64) -> Result<i64, ApiError> {
    let s = &ev.settings;
    let pool = Pool::of_game(s.variant(), s.rules).to_string();
    let speed = Speed::of(&s.time);
    let row = st.store().ratings(&me.id).await?.into_iter().find(|r| r.variant == pool && r.speed == speed.key());
    let rating = row.as_ref().map_or(1500.0, |r| r.rating.rating).round() as i64;
    let c = &s.conditions;
    if c.min_rating.is_some_and(|lo| rating < i64::from(lo)) || c.max_rating.is_some_and(|hi| rating > i64::from(hi)) {
        return Err(TournamentRefusal::Rating(rating).into());
    }
    if let Some(days) = c.min_account_days {
        if now - me.created_ms < i64::from(days) * 86_400_000 {
            return Err(TournamentRefusal::AccountAge(days).into());
        }
    }
    if let Some(games) = c.min_rated_games {
        if row.as_ref().map_or(0, |r| r.games) < i64::from(games) {
            return Err(TournamentRefusal::RatedGames(games).into());
        }
    }
    Ok(rating)
}

/// `POST /api/tournaments/{id}/join`: the player enters (again, after a pause or a
/// withdrawal). A Swiss under way gives a late joiner half a point for each round
/// missed; a round robin takes no one once started.
pub async fn join(
    State(st): State<Services>,
    Path(id): Path<String>,
    me: Me,
    body: String,
) -> Result<Json<Value>, ApiError> {
    let me = player(me)?;
    let req: Join = parse_or_default(&body)?;
    let ev = Event::load(&st, &id).await?.ok_or(TournamentRefusal::NotFound)?;
    let entered = ev.entries.iter().any(|e| e.account == me.id);
    match (ev.status, ev.format) {
        (Status::Finished, _) => return Err(TournamentRefusal::Closed.into()),
        (Status::Started, Format::Robin) if !entered => return Err(TournamentRefusal::Closed.into()),
        (Status::Started, Format::Arena) if ev.row.ends_ms.is_some_and(|e| e <= crate::clock::now_ms()) => {
            return Err(TournamentRefusal::Closed.into())
        }
        _ => {}
    }
    if let Some(h) = &ev.row.password_hash {
        if !entered && !req.password.as_deref().is_some_and(|p| crate::secret::matches(p, h)) {
            return Err(TournamentRefusal::Password.into());
        }
    }
    let now = crate::clock::now_ms();
    let rating = admitted(&st, &ev, &me, now).await?;
    st.store().enter_tournament(&id, &me.id, rating, now).await?;
    if !entered && ev.status == Status::Started && ev.format == Format::Swiss {
        let board = 1000 + ev.entries.len() as i64;
        let late: Vec<_> = (1..=ev.row.round)
            .map(|r| crate::store::PairingRow::without_game(r, board, "late", &me.id, 1, now))
            .collect();
        st.store().add_pairings(&id, ev.row.round, &late).await?;
    }
    st.pokes.poke(&id);
    Ok(Json(json!({ "joined": true })))
}

/// `POST /api/tournaments/{id}/leave`: withdraws (an arena: pauses; joining again
/// resumes). A game under way goes on.
pub async fn leave(State(st): State<Services>, Path(id): Path<String>, me: Me) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    st.store().tournament(&id).await?.ok_or(TournamentRefusal::NotFound)?;
    if !st.store().leave_tournament(&id, &me.id).await? {
        return Err(TournamentRefusal::NotPlaying.into());
    }
    Ok(Json(json!({ "joined": false })))
}

/// `GET /api/tournaments/{id}/games.pdn`: every finished game of the event, with the
/// event's name as each game's `Event` tag.
pub async fn pdn(State(st): State<Services>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let ev = Event::load(&st, &id).await?.ok_or(TournamentRefusal::NotFound)?;
    let event_tag = format!("[Event \"{}\"]", ev.row.name.replace(['"', '\\'], "'"));
    let mut out = String::new();
    for g in ev.games.iter().filter(|g| !g.open()) {
        let Some(gid) = &g.game_id else { continue };
        let Some(row) = st.store().game(gid).await? else { continue };
        let text = crate::game::stored_pdn(&st, &row).await?;
        let text = match text.lines().find(|l| l.starts_with("[Event ")) {
            Some(l) => text.replacen(l, &event_tag, 1),
            None => text,
        };
        out.push_str(&text);
        out.push('\n');
    }
    let disposition = format!("attachment; filename=\"dama-tournament-{}.pdn\"", ev.row.id);
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pdn; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        out,
    )
        .into_response())
}
