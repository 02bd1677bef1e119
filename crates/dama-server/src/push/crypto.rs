//! The cryptography of Web Push, in our words from the RFCs: a payload encrypted to a
//! browser's subscription (RFC 8291, the `aes128gcm` content coding of RFC 8188, one
//! record), and the VAPID token that says who sends it (RFC 8292, an ES256 JWT).

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hkdf::Hkdf;
use p256::ecdsa::signature::Signer;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use sha2::Sha256;

/// Why a payload could not be encrypted (a subscription's keys that do not read).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PushCryptoError {
    /// The browser's public key is not a P-256 point.
    #[error("the subscription's p256dh key is not a P-256 public key")]
    BadPublicKey,
    /// The browser's auth secret is not 16 bytes.
    #[error("the subscription's auth secret is not 16 bytes")]
    BadAuth,
    /// Base64url that does not decode.
    #[error("not base64url")]
    BadBase64,
    /// A payload too large for one record.
    #[error("the payload is too large")]
    TooLarge,
}

/// Base64url without padding (as Web Push writes keys).
pub fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Reads base64url, with or without padding.
pub fn unb64(s: &str) -> Result<Vec<u8>, PushCryptoError> {
    URL_SAFE_NO_PAD.decode(s.trim_end_matches('=')).map_err(|_| PushCryptoError::BadBase64)
}

/// The record size written in the header.
const RECORD_SIZE: u32 = 4096;

/// Encrypts `plaintext` for the browser whose keys are `ua_public` (65 bytes,
/// uncompressed) and `auth` (16 bytes), with the sender's one-time key `as_secret` and
/// `salt` (random for each message): the body to post.
pub fn encrypt(
    plaintext: &[u8],
    ua_public: &[u8],
    auth: &[u8],
    as_secret: &SecretKey,
    salt: &[u8; 16],
) -> Result<Vec<u8>, PushCryptoError> {
    if auth.len() != 16 {
        return Err(PushCryptoError::BadAuth);
    }
    // One record: the payload, its delimiter, the 16-byte tag, within the record size.
    if plaintext.len() + 17 > RECORD_SIZE as usize {
        return Err(PushCryptoError::TooLarge);
    }
    let ua = PublicKey::from_sec1_bytes(ua_public).map_err(|_| PushCryptoError::BadPublicKey)?;
    let as_public = as_secret.public_key().to_encoded_point(false);
    let shared = p256::ecdh::diffie_hellman(as_secret.to_nonzero_scalar(), ua.as_affine());
    // The input keying material: the shared secret mixed with the auth secret and both
    // public keys (RFC 8291 section 3.3).
    let mut key_info = b"WebPush: info\0".to_vec();
    key_info.extend_from_slice(ua_public);
    key_info.extend_from_slice(as_public.as_bytes());
    let mut ikm = [0u8; 32];
    Hkdf::<Sha256>::new(Some(auth), shared.raw_secret_bytes())
        .expand(&key_info, &mut ikm)
        .map_err(|_| PushCryptoError::BadAuth)?;
    // The content encryption key and nonce (RFC 8188 section 2.2).
    let prk = Hkdf::<Sha256>::new(Some(salt), &ikm);
    let (mut cek, mut nonce) = ([0u8; 16], [0u8; 12]);
    prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek).map_err(|_| PushCryptoError::BadAuth)?;
    prk.expand(b"Content-Encoding: nonce\0", &mut nonce).map_err(|_| PushCryptoError::BadAuth)?;
    let mut record = plaintext.to_vec();
    record.push(2); // the last record's delimiter, no padding
    let sealed = Aes128Gcm::new_from_slice(&cek)
        .map_err(|_| PushCryptoError::BadAuth)?
        .encrypt(Nonce::from_slice(&nonce), record.as_slice())
        .map_err(|_| PushCryptoError::TooLarge)?;
    // The header: salt, record size, the sender's key as the key id.
    let mut body = salt.to_vec();
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(as_public.as_bytes().len() as u8);
    body.extend_from_slice(as_public.as_bytes());
    body.extend_from_slice(&sealed);
    Ok(body)
}

/// The VAPID `Authorization` header's value for a push service at `audience` (its
/// origin), valid until `expires_s` (Unix seconds), from the server's key.
pub fn vapid(key: &SecretKey, audience: &str, expires_s: i64, contact: &str) -> String {
    let header = b64(br#"{"typ":"JWT","alg":"ES256"}"#);
    let claims = serde_json::json!({ "aud": audience, "exp": expires_s, "sub": contact });
    let claims = b64(claims.to_string().as_bytes());
    let signing = p256::ecdsa::SigningKey::from(key);
    let signature: p256::ecdsa::Signature = signing.sign(format!("{header}.{claims}").as_bytes());
    let token = format!("{header}.{claims}.{}", b64(&signature.to_bytes()));
    format!("vapid t={token}, k={}", b64(key.public_key().to_encoded_point(false).as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8291 Appendix A: the same keys and salt give the published message.
    #[test]
    fn the_rfc_8291_example_encrypts_to_its_published_bytes() {
        let d = |s: &str| unb64(s).unwrap();
        let as_secret = SecretKey::from_slice(&d("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")).unwrap();
        let ua_public = d("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4");
        let auth = d("BTBZMqHH6r4Tts7J_aSIgg");
        let salt: [u8; 16] = d("DGv6ra1nlYgDCS1FRnbzlw").try_into().unwrap();
        let body = encrypt(b"When I grow up, I want to be a watermelon", &ua_public, &auth, &as_secret, &salt).unwrap();
        assert_eq!(
            b64(&body),
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        );
        assert_eq!(encrypt(b"x", &ua_public, &auth[..8], &as_secret, &salt), Err(PushCryptoError::BadAuth));
        assert_eq!(encrypt(b"x", &[4; 65], &auth, &as_secret, &salt), Err(PushCryptoError::BadPublicKey));
    }

    #[test]
    fn a_vapid_token_verifies_with_the_servers_public_key() {
        use p256::ecdsa::signature::Verifier;
        let key = SecretKey::random(&mut rand::rngs::OsRng);
        let h = vapid(&key, "https://push.example.net", 1_900_000_000, "mailto:ops@example.net");
        let (t, k) = h.strip_prefix("vapid t=").unwrap().split_once(", k=").unwrap();
        let parts: Vec<&str> = t.split('.').collect();
        let claims: serde_json::Value = serde_json::from_slice(&unb64(parts[1]).unwrap()).unwrap();
        assert_eq!(claims["aud"], "https://push.example.net");
        let public = p256::ecdsa::VerifyingKey::from_sec1_bytes(&unb64(k).unwrap()).unwrap();
        let sig = p256::ecdsa::Signature::from_slice(&unb64(parts[2]).unwrap()).unwrap();
        assert!(public.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &sig).is_ok());
    }
}
