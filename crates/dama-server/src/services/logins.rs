//! The rate limits of signing up and logging in.

use crate::limits::RateLimiter;

/// The rate limits of signing up and logging in.
pub struct LoginLimits {
    /// Sign-ups and log-ins per address.
    pub(crate) by_address: RateLimiter,
    /// Failed log-ins per account name and address: a stranger guessing a name's
    /// password from an address is held back there, never its owner elsewhere.
    pub(crate) failures: RateLimiter<(String, std::net::IpAddr)>,
}

impl LoginLimits {
    /// Limits of `per_minute` (0: none).
    pub fn new(per_minute: u32) -> LoginLimits {
        LoginLimits { by_address: RateLimiter::new(per_minute), failures: RateLimiter::new(per_minute) }
    }
}
