//! Secrets: seat tokens and friend invites are 128 random bits; the store keeps only
//! their SHA-256, so a copy of the database (or a log line) cannot act for a player.

use rand::Rng;
use sha2::{Digest, Sha256};

/// An unguessable secret: 128 random bits as 32 hex digits.
pub fn token() -> String {
    let x: u128 = rand::thread_rng().gen();
    format!("{x:032x}")
}

/// The stored form of a secret: SHA-256 as 64 hex digits.
pub fn hash(secret: &str) -> String {
    let d = Sha256::digest(secret.as_bytes());
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// True when `secret` is the one whose hash is `stored` (in constant time).
pub fn matches(secret: &str, stored: &str) -> bool {
    let h = hash(secret);
    h.len() == stored.len() && h.bytes().zip(stored.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    #[test]
    fn hashes_are_sha256() {
        // The SHA-256 of "abc" (FIPS 180-2, appendix B.1).
        assert_eq!(super::hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        let t = super::token();
        assert_eq!(t.len(), 32);
        assert!(super::matches(&t, &super::hash(&t)));
        assert!(!super::matches("x", &super::hash(&t)));
    }
}
