//! Challenges to a named player: `POST /api/players/{name}/challenge` with the game's
//! settings; the player challenged hears at once (their pages' bell, their program's
//! event stream) and accepts (`POST /api/challenges/{id}/accept`: the game starts for
//! both), declines with a reason, or lets it expire; the challenger may cancel. Who
//! may challenge whom: not oneself, not across a block, as the player challenged
//! allows (everyone, the players they follow, nobody), and at a pace
//! ([`MOST_AN_HOUR`], [`MOST_OPEN`]).

mod refusal;
pub mod settings;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

pub use refusal::ChallengeRefusal;

use crate::accounts::Me;
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::extract::{parse, parse_or_default};
use crate::notify::{notify, DeclineReason, Notice};
use crate::protocol::{ColorChoice, Mode, Options, Player, RulesChoice};
use crate::state::Services;
use crate::store::{AccountRow, ChallengeRow};
use settings::ChallengesFrom;

/// Challenges one account may make an hour.
pub const MOST_AN_HOUR: i64 = 30;
/// Challenges of one account waiting for an answer at once.
pub const MOST_OPEN: i64 = 10;
/// How long a challenge waits for an answer: 10 minutes, and 2 days for a
/// correspondence game.
fn lifetime_ms(time: &TimeControl) -> i64 {
    match time {
        TimeControl::Correspondence { .. } => 2 * 86_400_000,
        _ => 600_000,
    }
}

/// What `POST /api/players/{name}/challenge` reads: the game's settings (`color` is
/// the challenger's).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Terms {
    variant: String,
    #[serde(default)]
    rules: RulesChoice,
    #[serde(default)]
    time: TimeControl,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    color: ColorChoice,
}

impl Terms {
    /// The game's options (checked).
    fn options(&self) -> Result<Options, ApiError> {
        let o = Options {
            variant: self.variant.clone(),
            mode: Mode::Friend,
            rules: self.rules,
            time: self.time,
            rated: self.rated,
            color: self.color,
            ..Options::default()
        };
        o.variant.parse::<dama_core::Variant>().map_err(|e| ApiError::BadRequest(e.to_string()))?;
        o.validate()?;
        Ok(o)
    }
}

/// A challenge as clients see it.
fn view(c: &ChallengeRow) -> Value {
    let [from, to] = &c.names;
    let terms: Value = serde_json::from_str(&c.options).unwrap_or_default();
    json!({
        "id": c.id,
        "from": from,
        "to": to,
        "variant": terms["variant"],
        "rules": terms["rules"],
        "time": terms["time"],
        "rated": terms["rated"],
        "color": terms["color"],
        "status": c.status,
        "reason": c.reason,
        "game": c.game_id,
        "created_ms": c.created_ms,
        "expires_ms": c.expires_ms,
    })
}

/// Tells both players' pages that a challenge changed (the lists redraw).
fn changed(st: &Services, c: &ChallengeRow, status: &str) {
    let e = json!({ "type": "challenge_update", "id": c.id, "status": status, "game": c.game_id });
    st.bots.send(&c.challenger, e.clone());
    st.bots.send(&c.challenged, e);
}

/// Whether `me` may challenge `them`.
async fn may_challenge(st: &Services, me: &AccountRow, them: &AccountRow, now: i64) -> Result<(), ApiError> {
    if me.is_guest() || them.is_guest() {
        return Err(ChallengeRefusal::Guest.into());
    }
    if me.id == them.id {
        return Err(ChallengeRefusal::Yourself.into());
    }
    if st.store().blocked_between(&me.id, &them.id).await? {
        return Err(ChallengeRefusal::Blocked.into());
    }
    match ChallengesFrom::of(&st.store().challenge_setting(&them.id).await?) {
        ChallengesFrom::None => return Err(ChallengeRefusal::Closed.into()),
        ChallengesFrom::Friends if !st.store().follows(&them.id, &me.id).await? => {
            return Err(ChallengeRefusal::FriendsOnly.into())
        }
        _ => {}
    }
    let (made, open) = st.store().challenges_made(&me.id, now - 3_600_000, now).await?;
    if made >= MOST_AN_HOUR {
        return Err(ChallengeRefusal::Flood(MOST_AN_HOUR).into());
    }
    if open >= MOST_OPEN {
        return Err(ChallengeRefusal::TooManyOpen(MOST_OPEN).into());
    }
    Ok(())
}

/// `POST /api/players/{name}/challenge` `{"variant", "rules", "time", "rated", "color"}`
/// → `201 {"challenge"}`; the player hears at once.
pub async fn create(
    State(st): State<Services>,
    Path(name): Path<String>,
    me: Me,
    body: String,
) -> Result<Response, ApiError> {
    let me = me.required()?;
    let terms: Terms = parse(&body)?;
    let opts = terms.options()?;
    let them = crate::players::named(&st, &name).await?;
    let now = crate::clock::now_ms();
    may_challenge(&st, &me, &them, now).await?;
    let row = ChallengeRow {
        id: crate::secret::token()[..12].to_string(),
        challenger: me.id.clone(),
        challenged: them.id.clone(),
        options: serde_json::to_string(&terms).map_err(|_| ApiError::Internal)?,
        status: "pending".into(),
        reason: None,
        game_id: None,
        created_ms: now,
        expires_ms: now + lifetime_ms(&opts.time),
        names: [me.name.clone(), them.name.clone()],
    };
    st.store().add_challenge(&row).await?;
    let v = view(&row);
    notify(&st, &them.id, Notice::Challenge { challenge: row.id.clone(), from: me.name.clone(), game: v.clone() })
        .await?;
    // A program of the account hears it as lichess's bots do.
    st.bots.send(&them.id, json!({ "type": "challenge", "challenge": v }));
    changed(&st, &row, "pending");
    tracing::info!(challenge = %row.id, "challenge made");
    Ok((StatusCode::CREATED, Json(json!({ "challenge": v }))).into_response())
}

/// `GET /api/challenges` → `{"in": [...], "out": [...]}`: the challenges waiting for an
/// answer, to the account and from it.
pub async fn list(State(st): State<Services>, me: Me) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let (mut to_me, mut from_me) = (Vec::new(), Vec::new());
    for c in st.store().open_challenges(&me.id, crate::clock::now_ms()).await? {
        if c.challenged == me.id {
            to_me.push(view(&c));
        } else {
            from_me.push(view(&c));
        }
    }
    Ok(Json(json!({ "in": to_me, "out": from_me })))
}

/// The challenge `id` if `me` is its challenged player (`challenged`) or challenger.
async fn mine(st: &Services, id: &str, me: &AccountRow, challenged: bool) -> Result<ChallengeRow, ApiError> {
    let c = st.store().challenge(id).await?.ok_or(ChallengeRefusal::Gone)?;
    let who = if challenged { &c.challenged } else { &c.challenger };
    if *who != me.id {
        return Err(ChallengeRefusal::NotYours.into());
    }
    Ok(c)
}

/// `POST /api/challenges/{id}/accept` → `{"game", "token", "color"}`: the game starts for
/// both (of two answers at once, one wins; the other hears `challenge_gone`).
pub async fn accept(State(st): State<Services>, Path(id): Path<String>, me: Me) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let mut c = mine(&st, &id, &me, true).await?;
    if c.status != "pending" {
        return Err(ChallengeRefusal::Gone.into());
    }
    if st.store().blocked_between(&c.challenger, &me.id).await? {
        return Err(ChallengeRefusal::Blocked.into());
    }
    let challenger = st.store().account_by_id(&c.challenger).await?.ok_or(ChallengeRefusal::Gone)?;
    let terms: Terms = serde_json::from_str(&c.options).map_err(|_| ApiError::Internal)?;
    let opts = terms.options()?;
    if !st.store().close_challenge(&c.id, "accepted", None, crate::clock::now_ms()).await? {
        return Err(ChallengeRefusal::Gone.into());
    }
    let challenger_white = match terms.color {
        ColorChoice::White => true,
        ColorChoice::Black => false,
        ColorChoice::Random => rand::random::<bool>(),
    };
    let (challenger, accepter) = (Player::from(challenger), Player::from(me.clone()));
    let players = if challenger_white { [challenger, accepter] } else { [accepter, challenger] };
    let (created, tokens) = match crate::game::create_between(st.clone(), opts, players).await {
        Ok(x) => x,
        Err(e) => {
            // The game could not be made: the challenge waits again.
            st.store().reopen_challenge(&c.id).await?;
            return Err(e);
        }
    };
    st.store().challenge_game(&c.id, &created.id).await?;
    c.game_id = Some(created.id.clone());
    let notice = Notice::ChallengeAccepted { challenge: c.id.clone(), by: me.name.clone(), game: created.id.clone() };
    notify(&st, &c.challenger, notice).await?;
    changed(&st, &c, "accepted");
    let (color, token) = if challenger_white { ("black", &tokens[1]) } else { ("white", &tokens[0]) };
    Ok(Json(json!({ "game": created.id, "token": token, "color": color })))
}

/// What `POST /api/challenges/{id}/decline` reads.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Decline {
    #[serde(default)]
    reason: DeclineReason,
}

/// `POST /api/challenges/{id}/decline` `{"reason"}` (optional: `generic`, `later`,
/// `too_fast`, `too_slow`, `casual`, `rated`, `variant`).
pub async fn decline(
    State(st): State<Services>,
    Path(id): Path<String>,
    me: Me,
    body: String,
) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let d: Decline = parse_or_default(&body)?;
    let c = mine(&st, &id, &me, true).await?;
    if !st.store().close_challenge(&c.id, "declined", Some(d.reason.key()), crate::clock::now_ms()).await? {
        return Err(ChallengeRefusal::Gone.into());
    }
    let notice = Notice::ChallengeDeclined { challenge: c.id.clone(), by: me.name.clone(), reason: d.reason };
    notify(&st, &c.challenger, notice).await?;
    st.bots
        .send(&c.challenger, json!({ "type": "challengeDeclined", "challenge": { "id": c.id, "reason": d.reason } }));
    changed(&st, &c, "declined");
    Ok(Json(json!({ "ok": true })))
}

/// `POST /api/challenges/{id}/cancel`: the challenger withdraws it.
pub async fn cancel(State(st): State<Services>, Path(id): Path<String>, me: Me) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let c = mine(&st, &id, &me, false).await?;
    if !st.store().close_challenge(&c.id, "cancelled", None, crate::clock::now_ms()).await? {
        return Err(ChallengeRefusal::Gone.into());
    }
    gone(&st, &c, "cancelled").await;
    Ok(Json(json!({ "ok": true })))
}

/// Tells the player challenged that a challenge left (`why`: cancelled, expired,
/// blocked).
async fn gone(st: &Services, c: &ChallengeRow, why: &str) {
    let notice = Notice::ChallengeGone { challenge: c.id.clone(), from: c.names[0].clone(), why: why.into() };
    crate::notify::notify_or_log(st, &c.challenged, notice).await;
    st.bots.send(&c.challenged, json!({ "type": "challengeCanceled", "challenge": { "id": c.id } }));
    changed(st, c, if why == "expired" { "expired" } else { "cancelled" });
}

/// Expires the challenges whose time is up at `now_ms` (the players are told).
pub async fn expire(st: &Services, now_ms: i64) -> Result<(), ApiError> {
    for c in st.store().expire_challenges(now_ms).await? {
        gone(st, &c, "expired").await;
    }
    Ok(())
}

/// `POST /api/players/{name}/block`: no challenges, chat or pairing between the two
/// from now on; pending challenges between them are cancelled, and neither follows
/// the other any more.
pub async fn block(State(st): State<Services>, Path(name): Path<String>, me: Me) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let them = crate::players::named(&st, &name).await?;
    if them.id == me.id {
        return Err(ApiError::BadRequest("you cannot block yourself".into()));
    }
    st.store().block(&me.id, &them.id, crate::clock::now_ms()).await?;
    st.store().unfollow(&me.id, &them.id).await?;
    st.store().unfollow(&them.id, &me.id).await?;
    for c in st.store().cancel_challenges_between(&me.id, &them.id).await? {
        gone(&st, &c, "blocked").await;
    }
    Ok(Json(json!({ "blocked": true })))
}

/// `DELETE /api/players/{name}/block`.
pub async fn unblock(State(st): State<Services>, Path(name): Path<String>, me: Me) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let them = crate::players::named(&st, &name).await?;
    st.store().unblock(&me.id, &them.id).await?;
    Ok(Json(json!({ "blocked": false })))
}
