//! Accounts, optional: anonymous play needs none. Sign-up with a name and a password
//! (stored as an Argon2id hash), log-in sessions in an HTTP-only, SameSite cookie (the
//! store keeps only the token's SHA-256), and the public player page's data.
//!
//! Cross-site requests: the cookie is `SameSite=Lax`, so other sites' forms and scripts
//! do not carry it on a POST; pages of another origin of the same site are refused by
//! [`crate::csrf`], in front of every route. Passwords are hashed by the server's one
//! bounded [`crate::passwords::Hasher`].

use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::error::ApiError;
use crate::extract::{parse, PeerIp};
use crate::game::now_ms;
use crate::invalid::Invalid;
use crate::passwords::HashError;
use crate::secret;
use crate::state::Services;

pub use crate::services::logins::LoginLimits;
use crate::store::AccountRow;

/// The visitor cookie's name: who an anonymous solver is.
pub const VISITOR: &str = "dama_visitor";
/// The log-in cookie's name.
pub const COOKIE: &str = "dama_session";
/// How long a log-in lasts.
pub const SESSION_DAYS: i64 = 30;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

impl From<HashError> for ApiError {
    fn from(e: HashError) -> Self {
        match e {
            HashError::Busy => ApiError::Unavailable(e.to_string()),
            HashError::Failed => {
                tracing::error!("password hashing failed");
                ApiError::Internal
            }
        }
    }
}

/// Whether the browser reached the site over TLS: the `secure_cookies` setting, an
/// https `public_origin`, or (behind a proxy, with `forwarded_for`) the proxy's
/// `X-Forwarded-Proto: https`. Cookies are then marked `Secure`.
pub fn over_tls(headers: &HeaderMap, limits: &crate::Limits) -> bool {
    let proxied = limits.forwarded_for()
        && headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"));
    limits.secure_cookies() || limits.public_origin().starts_with("https://") || proxied
}

/// A `Set-Cookie` value: HTTP-only, `SameSite=Lax`, `Secure` when `secure`.
pub fn cookie_value(name: &str, value: &str, max_age_s: i64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let v = format!("{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_s}{secure}");
    HeaderValue::from_str(&v).unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn cookie_header(st: &Services, headers: &HeaderMap, token: &str, max_age_s: i64) -> HeaderValue {
    cookie_value(COOKIE, token, max_age_s, over_tls(headers, &st.limits))
}

/// The value of the cookie `name` that the server gave (32 hex digits), if the
/// request carries it.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
        .filter(|t| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The log-in token a request's cookies carry.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    cookie(headers, COOKIE)
}

/// Whether a request carries a cookie that says who its sender is (the log-in
/// cookie, or the visitor cookie of a puzzle solver).
pub fn carries_identity(headers: &HeaderMap) -> bool {
    session_token(headers).is_some() || cookie(headers, VISITOR).is_some()
}

async fn start_session(
    st: &Services,
    headers: &HeaderMap,
    account: &AccountRow,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let token = secret::token();
    let now = now_ms();
    let expires = now + SESSION_DAYS * 24 * 3600 * 1000;
    st.store().add_session(&secret::hash(&token), &account.id, now, expires).await?;
    let body = Json(json!({ "name": account.name }));
    let cookie = cookie_header(st, headers, &token, SESSION_DAYS * 24 * 3600);
    Ok((status, [(header::SET_COOKIE, cookie)], body).into_response())
}

fn too_many() -> ApiError {
    ApiError::TooMany("too many attempts; wait a minute and try again".into())
}

/// `POST /api/accounts {"name", "password"}`: 201 with the session cookie; 409 when the
/// name is taken.
pub async fn sign_up(
    State(st): State<Services>,
    PeerIp(ip): PeerIp,
    headers: HeaderMap,
    body: String,
) -> Result<Response, ApiError> {
    let c: Credentials = parse(&body)?;
    Invalid::check_name(&c.name)?;
    Invalid::check_password(&c.password)?;
    register(&st, ip, &headers, c.name, Some(c.password)).await
}

/// Opens an account (a guest without a password) once the address may, and logs it in:
/// 201 and the cookie, or 409 when the name is taken. The password is hashed only after
/// the rate check, so that hashing cannot be used to load the server.
async fn register(
    st: &Services,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
    name: String,
    password: Option<String>,
) -> Result<Response, ApiError> {
    if !st.logins.by_address.allow(ip) {
        return Err(too_many());
    }
    let password_hash = match password {
        Some(p) => st.hasher.hash(p).await?,
        None => String::new(),
    };
    let account = AccountRow { id: secret::token(), name, password_hash, created_ms: now_ms() };
    if !st.store().create_account(&account).await? {
        return Err(ApiError::Conflict(format!("the name '{}' is taken", account.name)));
    }
    tracing::info!(name = %account.name, guest = account.is_guest(), "account created");
    start_session(st, headers, &account, StatusCode::CREATED).await
}

/// `POST /api/session {"name", "password"}`: logs in (the session cookie); 401 for a
/// wrong name or password, without saying which, and after the same work either way.
/// Failures are counted per name and address: past the limit that address gets 429
/// for that name, while the name's owner logs in from anywhere else.
pub async fn log_in(
    State(st): State<Services>,
    PeerIp(ip): PeerIp,
    headers: HeaderMap,
    body: String,
) -> Result<Response, ApiError> {
    let c: Credentials = parse(&body)?;
    let key = (crate::store::name_key(&c.name), ip);
    if !st.logins.failures.would_allow(&key) || !st.logins.by_address.allow(ip) {
        return Err(too_many());
    }
    let account = st.store().account_named(&c.name).await?;
    let stored = account.as_ref().map(|a| a.password_hash.clone());
    let ok = st.hasher.verify(c.password, stored).await?;
    match account.filter(|_| ok) {
        Some(a) => start_session(&st, &headers, &a, StatusCode::OK).await,
        None => {
            st.logins.failures.allow(key);
            Err(ApiError::Unauthorized("wrong name or password".into()))
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GuestRequest {
    name: String,
}

/// `POST /api/guests {"name"}`: a guest account, a name only (no password), logged in
/// at once → 201 and the cookie. Its games are kept under its name; it plays casual
/// games only, until it sets a password (`POST /api/accounts/password`).
pub async fn guest(
    State(st): State<Services>,
    PeerIp(ip): PeerIp,
    headers: HeaderMap,
    body: String,
) -> Result<Response, ApiError> {
    let g: GuestRequest = parse(&body)?;
    Invalid::check_name(&g.name)?;
    register(&st, ip, &headers, g.name, None).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordRequest {
    password: String,
}

/// `POST /api/accounts/password {"password"}` with a guest's cookie: the guest claims
/// its account (its name and games) by setting a password; 409 for an account that
/// has one.
pub async fn claim(State(st): State<Services>, me: Me, body: String) -> Result<Response, ApiError> {
    let me = me.required()?;
    let p: PasswordRequest = parse(&body)?;
    Invalid::check_password(&p.password)?;
    if !me.is_guest() {
        return Err(ApiError::Conflict("this account has a password already".into()));
    }
    let hash = st.hasher.hash(p.password).await?;
    if !st.store().set_password(&me.id, &hash).await? {
        return Err(ApiError::Conflict("this account has a password already".into()));
    }
    tracing::info!(name = %me.name, "guest account claimed");
    Ok(Json(json!({ "name": me.name, "guest": false })).into_response())
}

/// `DELETE /api/session`: logs out (the session ends on the server too).
pub async fn log_out(State(st): State<Services>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(token) = session_token(&headers) {
        st.store().drop_session(&secret::hash(&token), now_ms()).await?;
    }
    let cookie = cookie_header(&st, &headers, "", 0);
    Ok(([(header::SET_COOKIE, cookie)], Json(json!({ "ok": true }))).into_response())
}

/// `GET /api/session`: who is logged in (`{"name": null}` for nobody), whether as a
/// guest, and the roles the operator gave the account (`"roles": ["moderator"]`; the
/// key is left out when there are none).
pub async fn whoami(State(st): State<Services>, Me(me): Me) -> Result<Json<serde_json::Value>, ApiError> {
    Ok(match me {
        Some(a) => {
            let roles = st.store().roles(&a.id).await?;
            let mut v = json!({ "name": a.name, "guest": a.is_guest() });
            if !roles.is_empty() {
                v["roles"] = json!(roles);
            }
            Json(v)
        }
        None => Json(json!({ "name": null })),
    })
}

/// The scope that lets a program play as its account (the bot API).
pub const BOT_PLAY: &str = "bot:play";

/// An API token's text from an `Authorization: Bearer` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let t = v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer "))?.trim();
    (t.len() <= 100).then_some(t)
}

/// The account and scopes of a request's API token; `Ok(None)` without one, 401 for a
/// token the server does not know.
async fn token_account(headers: &HeaderMap, st: &Services) -> Result<Option<(AccountRow, String)>, ApiError> {
    let Some(t) = bearer(headers) else { return Ok(None) };
    match st.store().api_token_account(&secret::hash(t)).await? {
        Some(a) => Ok(Some(a)),
        None => Err(ApiError::Unauthorized("unknown API token".into())),
    }
}

/// The account a request's log-in cookie logs in, if its session has not expired.
async fn cookie_account(headers: &HeaderMap, st: &Services) -> Result<Option<AccountRow>, ApiError> {
    let Some(token) = session_token(headers) else { return Ok(None) };
    Ok(st.store().session_account(&secret::hash(&token), now_ms()).await?)
}

/// The logged-in account of a request, if any: by the log-in cookie, or by an API
/// token (`Authorization: Bearer`). An unknown or expired session is nobody; an
/// unknown token is refused.
pub struct Me(pub Option<AccountRow>);

impl Me {
    /// The logged-in account, or 401 "log in first".
    pub fn required(self) -> Result<AccountRow, ApiError> {
        self.0.ok_or_else(|| ApiError::Unauthorized("log in first".into()))
    }
}

impl FromRequestParts<Services> for Me {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, st: &Services) -> Result<Self, Self::Rejection> {
        if let Some((account, _)) = token_account(&parts.headers, st).await? {
            return Ok(Me(Some(account)));
        }
        Ok(Me(cookie_account(&parts.headers, st).await?))
    }
}

/// A program playing for its account: an API token with the `bot:play` scope (401
/// without one).
pub struct Bot(pub AccountRow);

impl FromRequestParts<Services> for Bot {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, st: &Services) -> Result<Self, Self::Rejection> {
        match token_account(&parts.headers, st).await? {
            Some((account, scopes)) if scopes.split(' ').any(|s| s == BOT_PLAY) => Ok(Bot(account)),
            Some(_) => Err(ApiError::Forbidden(format!("this token lacks the {BOT_PLAY} scope"))),
            None => Err(ApiError::Unauthorized("send an API token: Authorization: Bearer <token>".into())),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenRequest {
    #[serde(default)]
    scopes: Vec<String>,
}

/// `POST /api/tokens {"scopes": ["bot:play"]}` with the log-in cookie: a new API token
/// for programs to act for the account → `201 {"token", "scopes"}` (shown once; the
/// server keeps only its hash).
pub async fn new_token(State(st): State<Services>, headers: HeaderMap, body: String) -> Result<Response, ApiError> {
    let Some(account) = cookie_account(&headers, &st).await? else {
        return Err(ApiError::Unauthorized("log in to make an API token".into()));
    };
    let req: TokenRequest =
        if body.trim().is_empty() { TokenRequest { scopes: vec![BOT_PLAY.into()] } } else { parse(&body)? };
    if let Some(bad) = req.scopes.iter().find(|s| s.as_str() != BOT_PLAY) {
        return Err(ApiError::BadRequest(format!("unknown scope '{bad}' (there is {BOT_PLAY})")));
    }
    let token = format!("dama_{}", secret::token());
    let scopes = req.scopes.join(" ");
    st.store().add_api_token(&secret::hash(&token), &account.id, &scopes, now_ms()).await?;
    Ok((StatusCode::CREATED, Json(json!({ "token": token, "scopes": req.scopes }))).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let mut h = HeaderMap::new();
        let t = secret::token();
        h.insert(header::COOKIE, HeaderValue::from_str(&format!("a=b; {COOKIE}={t}; c=d")).unwrap());
        assert_eq!(session_token(&h), Some(t));
        h.insert(header::COOKIE, HeaderValue::from_static("dama_session=../../etc"));
        assert_eq!(session_token(&h), None);
    }
}
