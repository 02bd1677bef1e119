//! Requests that act for a logged-in player must come from the site's own pages. The
//! log-in cookie is `SameSite=Lax`, which keeps other *sites* from sending it, but not
//! pages of another origin of the same site (another port, a sibling host name): those
//! may post forms and `no-cors` fetches that carry it. So one layer, in front of every
//! route, refuses (403) a state-changing request (any method but GET, HEAD and OPTIONS)
//! that carries the log-in cookie (or a puzzle solver's visitor cookie), or that
//! signs up or logs in, unless
//!
//! - its `Origin`, when it has one, is the site's own (the `public_origin` setting, or
//!   else the request's Host; a browser sends `Origin` with every such request), and
//!   without an `Origin` its `Sec-Fetch-Site` (when sent) says `same-origin`; and
//! - its body is declared `application/json`, which a page of another origin can only
//!   send after a CORS preflight this server never grants.
//!
//! Programs that authenticate with an API token (`Authorization: Bearer`) carry no
//! cookie and are not concerned; neither are players acting with a game's seat token
//! (a header no other origin can send without a preflight).

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::limits::Limits;
use crate::state::Services;

/// Routes that log a browser in: refused from other origins even without a cookie
/// (a page of another origin must not log a visitor into an account of its choice).
const LOG_IN_ROUTES: &[&str] = &["/api/accounts", "/api/session", "/api/guests"];

/// The layer: checks every state-changing request that the cookie authenticates.
pub async fn guard(State(st): State<Services>, req: Request, next: Next) -> Response {
    if let Err(e) = check(req.method(), req.uri().path(), req.headers(), &st.limits) {
        tracing::warn!(path = %req.uri().path().chars().take(100).collect::<String>(), "refused a cross-origin request");
        return e.into_response();
    }
    next.run(req).await
}

/// Whether a request may go on (see the module's text).
pub fn check(method: &Method, path: &str, headers: &HeaderMap, limits: &Limits) -> Result<(), ApiError> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    let cookie = crate::accounts::carries_identity(headers) && !headers.contains_key(header::AUTHORIZATION);
    if !cookie && !LOG_IN_ROUTES.contains(&path) {
        return Ok(());
    }
    same_origin(headers, limits)?;
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(ApiError::Forbidden("send the request as JSON (Content-Type: application/json)".into()));
    }
    Ok(())
}

/// The request comes from a page of this site's own origin, or not from a browser page
/// (also asked of a game's websocket before the log-in cookie may hold its seats).
pub(crate) fn same_origin(headers: &HeaderMap, limits: &Limits) -> Result<(), ApiError> {
    let refused = || ApiError::Forbidden("requests from another site may not act for your account".into());
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let Some(origin) = text("origin") else {
        // Browsers send Sec-Fetch-Site with every request: without an Origin, only a
        // same-origin (or user-initiated) one goes on. Other clients send neither.
        return match text("sec-fetch-site") {
            None | Some("same-origin" | "none") => Ok(()),
            Some(_) => Err(refused()),
        };
    };
    let public = limits.public_origin();
    if !public.is_empty() {
        return if origin.eq_ignore_ascii_case(public.trim_end_matches('/')) { Ok(()) } else { Err(refused()) };
    }
    let host = if limits.forwarded_for() { text("x-forwarded-host").or_else(|| text("host")) } else { text("host") };
    let origin_host = origin.split_once("://").map_or("", |(_, rest)| rest);
    match host {
        Some(h) if !origin_host.is_empty() && origin_host.eq_ignore_ascii_case(h.trim()) => Ok(()),
        _ => Err(refused()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    const COOKIE: &str = "dama_session=0123456789abcdef0123456789abcdef";

    #[test]
    fn cookie_writes_need_the_sites_origin_and_json() {
        let l = Limits::default();
        let post = Method::POST;
        let ok = headers(&[
            ("host", "dama.example:8080"),
            ("cookie", COOKIE),
            ("origin", "http://dama.example:8080"),
            ("content-type", "application/json; charset=utf-8"),
        ]);
        assert!(check(&post, "/api/seeks", &ok, &l).is_ok());
        // Another port of the same host: a sibling origin of the same site.
        let mut other_port = ok.clone();
        other_port.insert("origin", HeaderValue::from_static("http://dama.example:9090"));
        assert!(check(&post, "/api/seeks", &other_port, &l).is_err());
        let mut null = ok.clone();
        null.insert("origin", HeaderValue::from_static("null"));
        assert!(check(&post, "/api/seeks", &null, &l).is_err());
        let mut plain = ok.clone();
        plain.insert("content-type", HeaderValue::from_static("text/plain"));
        assert!(check(&post, "/api/games", &plain, &l).is_err());
        let mut form = ok.clone();
        form.remove("content-type");
        assert!(check(&Method::DELETE, "/api/session", &form, &l).is_err(), "a body-less write needs JSON too");
        // A same-site page without Origin (an old browser) is known by Sec-Fetch-Site.
        let mut no_origin = ok.clone();
        no_origin.remove("origin");
        assert!(check(&post, "/api/seeks", &no_origin, &l).is_ok(), "not a browser");
        no_origin.insert("sec-fetch-site", HeaderValue::from_static("same-site"));
        assert!(check(&post, "/api/seeks", &no_origin, &l).is_err());
        // Reading is never refused; nor is a write without the cookie (anonymous play),
        // nor a program with its token.
        assert!(check(&Method::GET, "/api/session", &other_port, &l).is_ok());
        let anonymous = headers(&[("host", "h"), ("origin", "http://evil"), ("content-type", "text/plain")]);
        assert!(check(&post, "/api/games", &anonymous, &l).is_ok());
        let mut bot = plain.clone();
        bot.insert("authorization", HeaderValue::from_static("Bearer dama_x"));
        assert!(check(&post, "/api/bot/game/x/resign", &bot, &l).is_ok());
        // Logging in from another origin is refused even without a cookie.
        assert!(check(&post, "/api/session", &anonymous, &l).is_err());
    }

    #[test]
    fn a_public_origin_is_the_only_one_accepted() {
        let l = Limits { public_origin: Some("https://dama.example/".into()), ..Limits::default() };
        let mut h = headers(&[
            ("host", "127.0.0.1:8080"),
            ("cookie", COOKIE),
            ("origin", "https://dama.example"),
            ("content-type", "application/json"),
        ]);
        assert!(check(&Method::POST, "/api/games", &h, &l).is_ok(), "behind a proxy that rewrites Host");
        h.insert("origin", HeaderValue::from_static("http://127.0.0.1:8080"));
        assert!(check(&Method::POST, "/api/games", &h, &l).is_err());
    }
}
