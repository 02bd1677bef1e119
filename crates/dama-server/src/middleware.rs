//! The layers every request goes through: its span and metrics, the per-address
//! request limit, and the JSON body of every error answer.

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::error::ApiError;
use crate::extract::PeerIp;
use crate::state::Services;

/// One span per request (method and path; never the query string or headers, where
/// invite and seat tokens travel), and a line at the end with the status and the time.
pub async fn trace_requests(req: Request, next: Next) -> Response {
    use tracing::Instrument;
    let started = std::time::Instant::now();
    let path: String = req.uri().path().chars().take(200).collect();
    let method = req.method().as_str().to_string();
    let span = tracing::info_span!("request", method = %method, path = %path);
    let res = next.run(req).instrument(span.clone()).await;
    let status = res.status().as_u16();
    let elapsed = started.elapsed();
    let micros = elapsed.as_micros() as u64;
    metrics::counter!("dama_http_requests_total", "method" => method.clone(), "status" => status.to_string())
        .increment(1);
    metrics::histogram!("dama_http_request_seconds", "method" => method).record(elapsed.as_secs_f64());
    span.in_scope(|| {
        if res.status().is_server_error() {
            tracing::warn!(status, micros, "answered");
        } else {
            tracing::debug!(status, micros, "answered");
        }
    });
    res
}

/// Requests to /api beyond an address's rate get 429 (pages, assets and health checks
/// are not counted).
pub async fn limit_requests(State(st): State<Services>, PeerIp(ip): PeerIp, req: Request, next: Next) -> Response {
    if req.uri().path().starts_with("/api/") && !st.requests.allow(ip) {
        let per_minute = st.limits.requests_per_minute();
        return ApiError::TooMany(format!("too many requests from your address ({per_minute} a minute at most)"))
            .into_response();
    }
    next.run(req).await
}

/// Error responses that did not come from `ApiError` (axum's own rejections) get the
/// documented JSON body too, with the message in words.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    let status = res.status();
    // JSON errors, and the site's own "nothing here" page, go out as they are.
    let kind = res.headers().get(header::CONTENT_TYPE).map(|v| v.as_bytes().to_vec()).unwrap_or_default();
    let (json, page) = (kind.starts_with(b"application/json"), kind.starts_with(b"text/html"));
    if !(status.is_client_error() || status.is_server_error()) || json || page {
        return res;
    }
    let text = match axum::body::to_bytes(res.into_body(), 4096).await {
        Ok(b) if !b.is_empty() => String::from_utf8_lossy(&b).into_owned(),
        _ => status.canonical_reason().unwrap_or("error").to_string(),
    };
    let (message, code) = match status {
        StatusCode::PAYLOAD_TOO_LARGE => ("request body too large".to_string(), "too_large"),
        StatusCode::METHOD_NOT_ALLOWED => ("method not allowed for this address".to_string(), "method_not_allowed"),
        StatusCode::NOT_FOUND => (text, "no_route"),
        s if s.is_server_error() => ("internal error; please try again".to_string(), "internal"),
        _ => (text, "bad_request"),
    };
    (status, Json(json!({ "error": message, "code": code }))).into_response()
}
