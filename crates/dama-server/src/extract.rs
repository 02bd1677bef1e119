//! What a request is read as, once: the client's address, the seat token, a JSON body
//! (or 400 saying what is wrong and where), and the one way handlers reach a game.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;

use crate::error::ApiError;
use crate::state::Services;

/// Runs `$call` on the game's handle `$h`, once more with a restored task if the task
/// ended meanwhile (a game giving its memory back).
macro_rules! on_game_macro {
    ($st:expr, $id:expr, |$h:ident| $call:expr) => {{
        let $h = $st.game(&$id).await?;
        match $call.await {
            Err($crate::error::ApiError::Gone) => {
                let $h = $st.game(&$id).await?;
                $call.await
            }
            r => r,
        }
    }};
}

pub(crate) use on_game_macro as on_game;

/// A JSON request body, or 400 saying what is wrong with it and in which field.
/// [`parse`], with an empty body read as the default (a request whose fields are all
/// optional may be sent without one).
pub(crate) fn parse_or_default<T: serde::de::DeserializeOwned + Default>(body: &str) -> Result<T, ApiError> {
    if body.trim().is_empty() {
        return Ok(T::default());
    }
    parse(body)
}

pub(crate) fn parse<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_str(body);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." || path.is_empty() {
            bad_body(inner)
        } else {
            ApiError::BadRequest(format!("bad request body: {path}: {inner}"))
        }
    })?;
    // Nothing but white space may follow the value.
    de.end().map_err(bad_body)?;
    Ok(value)
}

/// The answer to a request body that does not read.
pub(crate) fn bad_body(e: serde_json::Error) -> ApiError {
    ApiError::BadRequest(format!("bad request body: {e}"))
}

/// The seat token of a request (header `x-dama-token`).
pub(crate) fn token_of(headers: &HeaderMap) -> Option<String> {
    headers.get("x-dama-token").and_then(|v| v.to_str().ok()).map(str::to_string)
}

/// The client's address: the connection's peer, or with the `forwarded_for` setting the
/// last X-Forwarded-For entry (the one the proxy in front added); unspecified when the
/// server runs without connection info.
pub struct PeerIp(pub IpAddr);

impl FromRequestParts<Services> for PeerIp {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, st: &Services) -> Result<Self, Self::Rejection> {
        let forwarded = || {
            let h = parts.headers.get_all("x-forwarded-for").iter().next_back()?;
            h.to_str().ok()?.rsplit(',').next()?.trim().parse::<IpAddr>().ok()
        };
        let peer = || parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        let ip = if st.limits.forwarded_for() { forwarded().or_else(peer) } else { peer() };
        Ok(PeerIp(ip.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))))
    }
}
