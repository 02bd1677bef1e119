//! Web Push: a player's browser subscribes (`POST /api/me/push` with what its push
//! service gave: the address and the keys), and the notifications that matter when the
//! tab is closed (a correspondence move, a day left, a challenge, a game over) are sent
//! there, encrypted to the browser ([`crypto`]) and signed with the server's VAPID key,
//! made at the first start and kept in the database (`GET /api/push/key`).

pub mod crypto;

use std::sync::OnceLock;
use std::time::Duration;

use axum::extract::State;
use axum::Json;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::SecretKey;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts::Me;
use crate::error::ApiError;
use crate::extract::parse;
use crate::state::Services;

/// Subscriptions one account keeps (its browsers); the oldest goes past it.
pub const PER_ACCOUNT: i64 = 10;
/// How long a push service keeps a message for a browser that is off, s.
const TTL_S: u32 = 86_400;
/// The notifications pushed (the others wait in the inbox).
const PUSHED: &[&str] = &["your_move", "time_running_out", "challenge", "game_over"];

/// The server's VAPID key: read from the store, or made and stored at the first start
/// (of two nodes starting at once, the first stored wins).
pub async fn load_key(ctx: &Services) -> Result<SecretKey, ApiError> {
    if let Some(k) = ctx.push.key.get() {
        return Ok(k.clone());
    }
    let fresh = SecretKey::random(&mut rand::rngs::OsRng);
    let public = crypto::b64(fresh.public_key().to_encoded_point(false).as_bytes());
    let private = crypto::b64(&fresh.to_bytes());
    let stored = ctx.store().server_key("vapid", &private, &public, crate::clock::now_ms()).await?;
    let key = crypto::unb64(&stored).ok().and_then(|b| SecretKey::from_slice(&b).ok()).ok_or(ApiError::Internal)?;
    let _ = ctx.push.key.set(key.clone());
    Ok(key)
}

/// `GET /api/push/key` → `{"key"}`: the server's VAPID public key (base64url), the
/// `applicationServerKey` a page subscribes with.
pub async fn key(State(st): State<Services>) -> Result<Json<Value>, ApiError> {
    let k = load_key(&st).await?;
    Ok(Json(json!({ "key": crypto::b64(k.public_key().to_encoded_point(false).as_bytes()) })))
}

/// What `POST /api/me/push` reads: the browser's subscription, and the language its
/// notifications are worded in.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Subscription {
    endpoint: String,
    keys: SubscriptionKeys,
    #[serde(default)]
    lang: Option<String>,
    #[serde(default, rename = "expirationTime")]
    _expiration: Option<Value>,
}

#[derive(Deserialize)]
struct SubscriptionKeys {
    p256dh: String,
    auth: String,
}

/// Checks a push service's address: https (or, when allowed, http on this machine).
fn endpoint_ok(st: &Services, endpoint: &str) -> Result<(), ApiError> {
    let bad = || ApiError::BadRequest("endpoint: an https address of a push service".into());
    if endpoint.len() > 1000 {
        return Err(bad());
    }
    if endpoint.starts_with("https://") {
        return Ok(());
    }
    let local = ["http://127.0.0.1:", "http://localhost:", "http://[::1]:"].iter().any(|p| endpoint.starts_with(p));
    if local && st.limits.push_local_http() {
        return Ok(());
    }
    Err(bad())
}

/// `POST /api/me/push` `{"endpoint", "keys": {"p256dh", "auth"}, "lang"}`: this browser
/// gets the account's notifications while its tabs are closed.
pub async fn subscribe(State(st): State<Services>, me: Me, body: String) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let s: Subscription = parse(&body)?;
    endpoint_ok(&st, &s.endpoint)?;
    let (p, a) = (crypto::unb64(&s.keys.p256dh), crypto::unb64(&s.keys.auth));
    let keys_ok =
        p.as_ref().is_ok_and(|p| p256::PublicKey::from_sec1_bytes(p).is_ok()) && a.is_ok_and(|a| a.len() == 16);
    if !keys_ok {
        return Err(ApiError::BadRequest("keys: p256dh is a P-256 public key and auth 16 bytes, base64url".into()));
    }
    let lang: String =
        s.lang.unwrap_or_else(|| "en".into()).chars().filter(|c| c.is_ascii_alphabetic()).take(5).collect();
    st.store()
        .add_push(&me.id, &s.endpoint, &s.keys.p256dh, &s.keys.auth, &lang, crate::clock::now_ms(), PER_ACCOUNT)
        .await?;
    Ok(Json(json!({ "subscribed": true })))
}

/// What `DELETE /api/me/push` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Unsubscribe {
    endpoint: String,
}

/// `DELETE /api/me/push` `{"endpoint"}`: this browser no longer.
pub async fn unsubscribe(State(st): State<Services>, me: Me, body: String) -> Result<Json<Value>, ApiError> {
    let me = me.required()?;
    let u: Unsubscribe = parse(&body)?;
    st.store().remove_push(Some(&me.id), &u.endpoint).await?;
    Ok(Json(json!({ "subscribed": false })))
}

/// What the server keeps for Web Push.
#[derive(Default)]
pub struct PushState {
    /// The VAPID key, once read or made.
    key: OnceLock<SecretKey>,
    /// The client for the push services: one per server (a client is bound to the
    /// runtime its connections were made on).
    client: OnceLock<reqwest::Client>,
}

impl PushState {
    fn client(&self) -> &reqwest::Client {
        self.client.get_or_init(|| {
            reqwest::Client::builder()
                .timeout(Duration::from_secs(15))
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap_or_default()
        })
    }
}

/// Pushes a notification (as clients read it) to the account's browsers, if it is of
/// a kind that is pushed; in the background, failures logged. A push service that
/// says the subscription is gone (404, 410) has it removed.
pub fn send(ctx: &Services, account: &str, notification: &Value) {
    if !notification["kind"].as_str().is_some_and(|k| PUSHED.contains(&k)) {
        return;
    }
    let (ctx, account, n) = (ctx.clone(), account.to_string(), notification.clone());
    tokio::spawn(async move {
        if let Err(e) = send_now(&ctx, &account, &n).await {
            tracing::warn!(error = %crate::error::Chain(&e), "web push");
        }
    });
}

async fn send_now(ctx: &Services, account: &str, n: &Value) -> Result<(), ApiError> {
    let subs = ctx.store().pushes(account).await?;
    if subs.is_empty() {
        return Ok(());
    }
    let key = load_key(ctx).await?;
    let contact = match ctx.limits.public_origin() {
        o if o.is_empty() => "mailto:webpush@dama.invalid".to_string(),
        o => o,
    };
    let exp = crate::clock::now_ms() / 1000 + 12 * 3600;
    for (endpoint, p256dh, auth, lang) in subs {
        let mut payload = n.clone();
        payload["lang"] = json!(lang);
        let (Ok(ua), Ok(auth)) = (crypto::unb64(&p256dh), crypto::unb64(&auth)) else { continue };
        let one_time = SecretKey::random(&mut rand::rngs::OsRng);
        let salt: [u8; 16] = rand::random();
        let body = match crypto::encrypt(payload.to_string().as_bytes(), &ua, &auth, &one_time, &salt) {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!(error = %e, "a push subscription's keys");
                continue;
            }
        };
        let audience = origin_of(&endpoint);
        let sent = ctx
            .push
            .client()
            .post(&endpoint)
            .header("TTL", TTL_S.to_string())
            .header("Content-Encoding", "aes128gcm")
            .header("Content-Type", "application/octet-stream")
            .header("Urgency", "high")
            .header("Authorization", crypto::vapid(&key, &audience, exp, &contact))
            .body(body)
            .send()
            .await;
        metrics::counter!("dama_web_push_total", "outcome" => match &sent {
            Ok(r) if r.status().is_success() => "sent",
            Ok(_) => "refused",
            Err(_) => "failed",
        })
        .increment(1);
        match sent {
            Ok(r) if matches!(r.status().as_u16(), 404 | 410) => ctx.store().remove_push(None, &endpoint).await?,
            Ok(r) if !r.status().is_success() => tracing::warn!(status = r.status().as_u16(), "a push service refused"),
            Err(e) => tracing::warn!(error = %e, "reaching a push service"),
            Ok(_) => {}
        }
    }
    Ok(())
}

/// `https://host:port` of an address (the VAPID token's audience).
fn origin_of(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("https", url));
    let host = rest.split('/').next().unwrap_or_default();
    format!("{scheme}://{host}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_audience_is_the_push_services_origin() {
        assert_eq!(super::origin_of("https://fcm.googleapis.com/fcm/send/abc:def"), "https://fcm.googleapis.com");
        assert_eq!(super::origin_of("http://127.0.0.1:9/p/1"), "http://127.0.0.1:9");
    }
}
