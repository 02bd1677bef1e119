//! Web Push end to end with a local push service: a player's browser subscription (keys
//! made here, as a browser makes them) gets a correspondence move pushed, signed with
//! the server's VAPID key and encrypted so that only the subscription's private key
//! reads it; a push service that says the subscription is gone has it removed. The
//! decryption here follows RFC 8291 on its own, not the server's code.

use aes_gcm::aead::{Aead, KeyInit};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use p256::ecdsa::signature::Verifier;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::common::*;

on_both!(a_correspondence_move_is_pushed_to_the_players_browser);

/// What the push service received: the headers (lower-case names) and the body.
type Pushed = (Vec<(String, String)>, Vec<u8>);

/// A push service on a free port: each POST is passed on; it answers 201, or 410 once
/// the flag it returns is set.
async fn push_service() -> (std::net::SocketAddr, mpsc::UnboundedReceiver<Pushed>, Arc<AtomicBool>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let gone = Arc::new(AtomicBool::new(false));
    let gone_flag = gone.clone();
    let app = axum::Router::new().route(
        "/push/{id}",
        axum::routing::post(move |headers: axum::http::HeaderMap, body: axum::body::Bytes| {
            let (tx, gone) = (tx.clone(), gone.clone());
            async move {
                let h = headers
                    .iter()
                    .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
                    .collect();
                // The answer is settled before the test hears of the push (it may set
                // the flag for the next one at once).
                let status = if gone.load(Ordering::SeqCst) {
                    axum::http::StatusCode::GONE
                } else {
                    axum::http::StatusCode::CREATED
                };
                let _ = tx.send((h, body.to_vec()));
                status
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (addr, rx, gone_flag)
}

fn b64(b: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(b)
}

fn unb64(s: &str) -> Vec<u8> {
    URL_SAFE_NO_PAD.decode(s.trim_end_matches('=')).unwrap()
}

/// The browser's side of RFC 8291: the payload of an `aes128gcm` body.
fn decrypt(body: &[u8], ua: &p256::SecretKey, ua_public: &[u8], auth: &[u8]) -> Vec<u8> {
    let (salt, rest) = body.split_at(16);
    let id_len = rest[4] as usize;
    let (as_public, sealed) = rest[5..].split_at(id_len);
    let sender = p256::PublicKey::from_sec1_bytes(as_public).unwrap();
    let shared = p256::ecdh::diffie_hellman(ua.to_nonzero_scalar(), sender.as_affine());
    let mut info = b"WebPush: info\0".to_vec();
    info.extend_from_slice(ua_public);
    info.extend_from_slice(as_public);
    let mut ikm = [0u8; 32];
    hkdf::Hkdf::<sha2::Sha256>::new(Some(auth), shared.raw_secret_bytes()).expand(&info, &mut ikm).unwrap();
    let prk = hkdf::Hkdf::<sha2::Sha256>::new(Some(salt), &ikm);
    let (mut key, mut nonce) = ([0u8; 16], [0u8; 12]);
    prk.expand(b"Content-Encoding: aes128gcm\0", &mut key).unwrap();
    prk.expand(b"Content-Encoding: nonce\0", &mut nonce).unwrap();
    let mut plain = aes_gcm::Aes128Gcm::new_from_slice(&key)
        .unwrap()
        .decrypt(aes_gcm::Nonce::from_slice(&nonce), sealed)
        .expect("the tag checks");
    // The padding: the last record ends with 2, then zeros.
    while plain.last() == Some(&0) {
        plain.pop();
    }
    assert_eq!(plain.pop(), Some(2), "the last record's delimiter");
    plain
}

async fn a_correspondence_move_is_pushed_to_the_players_browser(db: String) {
    let limits = dama_server::Limits {
        idle_ms: Some(300),
        explorer_bundled: Some(false),
        puzzles_bundled: Some(false),
        push_local_http: Some(true),
        ..Default::default()
    };
    let srv = start_with(&db, limits).await;
    let a = srv.addr;
    let (service, mut pushed, gone) = push_service().await;
    let (ann, bob) = (account(a, "ann").await, account(a, "bob").await);
    // Ann's browser: its key pair and auth secret, as a browser makes them.
    let ua = p256::SecretKey::random(&mut rand::rngs::OsRng);
    let ua_public = ua.public_key().to_encoded_point(false).as_bytes().to_vec();
    let auth: [u8; 16] = rand::random();
    let endpoint = format!("http://{service}/push/ann");
    let sub = json!({"endpoint": endpoint, "keys": {"p256dh": b64(&ua_public), "auth": b64(&auth)}, "expirationTime": null, "lang": "ru"});
    // Refused: no log-in, another machine over http, keys that do not read.
    assert_eq!(call(a, "POST", "/api/me/push", None, Some(sub.clone())).await.status, 401);
    let mut far = sub.clone();
    far["endpoint"] = json!("http://10.1.2.3/push");
    assert_eq!(call(a, "POST", "/api/me/push", Some(&ann), Some(far)).await.status, 400);
    let mut bad = sub.clone();
    bad["keys"]["p256dh"] = json!("AAAA");
    assert_eq!(call(a, "POST", "/api/me/push", Some(&ann), Some(bad)).await.status, 400);
    let r = call(a, "POST", "/api/me/push", Some(&ann), Some(sub)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let server_key = call(a, "GET", "/api/push/key", None, None).await.body["key"].as_str().unwrap().to_string();
    // A correspondence game: Ann (White) against Bob, who moves first.
    let terms = json!({"variant": "english", "time": {"kind": "correspondence", "days": 3}, "color": "white"});
    let r = call(a, "POST", "/api/players/bob/challenge", Some(&ann), Some(terms)).await;
    let challenge = r.body["challenge"]["id"].as_str().unwrap().to_string();
    let r = call(a, "POST", &format!("/api/challenges/{challenge}/accept"), Some(&bob), None).await;
    let (game, bob_token) =
        (r.body["game"].as_str().unwrap().to_string(), r.body["token"].as_str().unwrap().to_string());
    let mut ann_page = ws_logged_in(a, &game, &ann, &format!("http://{a}")).await;
    next_json(&mut ann_page).await;
    drop(ann_page); // Ann closes her tab.
    let m = snapshot(a, &game).await["legal"][0]["notation"].as_str().unwrap().to_string();
    assert_eq!(mv(a, &game, &bob_token, &m).await.0, 200);
    // The push service gets it: signed by the server, for this service, encrypted to
    // Ann's browser.
    let (headers, body) =
        tokio::time::timeout(std::time::Duration::from_secs(10), pushed.recv()).await.unwrap().unwrap();
    let h = |k: &str| headers.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()).unwrap_or_default();
    assert_eq!((h("content-encoding").as_str(), h("ttl").is_empty()), ("aes128gcm", false));
    let vapid = h("authorization");
    let (t, k) = vapid.strip_prefix("vapid t=").unwrap().split_once(", k=").unwrap();
    assert_eq!(k, server_key);
    let parts: Vec<&str> = t.split('.').collect();
    let claims: Value = serde_json::from_slice(&unb64(parts[1])).unwrap();
    assert_eq!(claims["aud"], format!("http://{service}"));
    assert!(claims["exp"].as_i64().unwrap() > dama_server::clock::now_ms() / 1000);
    let signer = p256::ecdsa::VerifyingKey::from_sec1_bytes(&unb64(k)).unwrap();
    let sig = p256::ecdsa::Signature::from_slice(&unb64(parts[2])).unwrap();
    assert!(signer.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &sig).is_ok(), "the VAPID signature");
    let payload: Value = serde_json::from_slice(&decrypt(&body, &ua, &ua_public, &auth)).unwrap();
    assert_eq!(
        (payload["kind"].as_str(), payload["game"].as_str()),
        (Some("your_move"), Some(game.as_str())),
        "{payload}"
    );
    assert_eq!((payload["opponent"].as_str(), payload["lang"].as_str()), (Some("bob"), Some("ru")));
    // The push service says the subscription is gone: it is forgotten.
    gone.store(true, Ordering::SeqCst);
    let resign = act(a, &game, &bob_token, json!({"type": "resign"})).await;
    assert_eq!(resign.0, 200, "{}", resign.1);
    tokio::time::timeout(std::time::Duration::from_secs(10), pushed.recv()).await.unwrap().unwrap();
    let ann_id = srv.state.store().account_named("ann").await.unwrap().unwrap().id;
    for _ in 0..100 {
        if srv.state.store().pushes(&ann_id).await.unwrap().is_empty() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("a subscription the push service called gone is kept");
}
