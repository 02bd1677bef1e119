//! The limits that bound what one server does for its clients: sizes of requests and
//! frames, games in memory, connections and requests per address, the engine pool.
//! Each is a setting (a `dama serve` flag, an environment variable, or the `[limits]`
//! table of the settings file) with a safe default; `docs/operations.md` lists them in
//! one table.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Declares [`Limits`]: every field optional (unset means its default), with its flag,
/// its environment variable and its default in one line.
macro_rules! limits {
    ($( $(#[doc = $doc:literal])* $name:ident : $ty:ty = $default:expr, $env:literal; )*) => {
        /// The server's limits. A field left unset takes its default ([`Limits::resolved`]
        /// fills them all in); read them through the methods of the same names.
        #[derive(Clone, Debug, Default, PartialEq, clap::Args, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct Limits {
            $( $(#[doc = $doc])* #[arg(long, env = $env)] pub $name: Option<$ty>, )*
        }

        impl Limits {
            $(
                $(#[doc = $doc])*
                pub fn $name(&self) -> $ty {
                    self.$name.clone().unwrap_or_else(|| $default)
                }
            )*

            /// These limits, with the unset ones taken from `other`.
            pub fn or(&self, other: &Limits) -> Limits {
                Limits { $( $name: self.$name.clone().or(other.$name.clone()), )* }
            }

            /// Every limit with its value (the defaults filled in).
            pub fn resolved(&self) -> Limits {
                Limits { $( $name: Some(self.$name()), )* }
            }
        }
    };
}

limits! {
    /// Largest websocket frame read, in bytes [default: 4096].
    ws_frame: usize = 4096, "DAMA_WS_FRAME";
    /// Largest websocket message buffered before the connection is closed (1009), in
    /// bytes [default: 65536].
    ws_message: usize = 64 * 1024, "DAMA_WS_MESSAGE";
    /// Largest JSON request body, in bytes [default: 65536].
    body: usize = 64 * 1024, "DAMA_BODY";
    /// Largest PDN text sent to /api/replay, in bytes [default: 4 MiB].
    pdn: usize = 4 << 20, "DAMA_PDN";
    /// Games in memory at once; past it new and unloaded games are refused with 503
    /// [default: 10000, about 0.5 GB of live games].
    games_in_memory: usize = 10_000, "DAMA_GAMES_IN_MEMORY";
    /// Websockets from one address to one game [default: 16].
    sockets_per_address: u32 = 16, "DAMA_SOCKETS_PER_ADDRESS";
    /// New games one address may create per minute; 0 for no limit [default: 60].
    games_per_minute: u32 = 60, "DAMA_GAMES_PER_MINUTE";
    /// HTTP requests to /api from one address per minute; 0 for no limit [default: 1200].
    requests_per_minute: u32 = 1200, "DAMA_REQUESTS_PER_MINUTE";
    /// Sign-ups and log-ins from one address per minute, and failed log-ins to one
    /// account from one address per minute (other addresses, its owner's among them,
    /// are not held back); 0 for no limit [default: 10].
    logins_per_minute: u32 = 10, "DAMA_LOGINS_PER_MINUTE";
    /// Password hashes (Argon2id, 19 MiB and ~30 ms of a core each) running at once,
    /// for sign-ups, log-ins and new passwords [default: twice the cores].
    password_hashes: usize = 2 * cores(), "DAMA_PASSWORD_HASHES";
    /// How long a sign-up or log-in waits for a hashing slot before it is refused with
    /// 503 and Retry-After, in ms [default: 2000].
    password_wait_ms: u64 = 2000, "DAMA_PASSWORD_WAIT_MS";
    /// Take the client's address from the last X-Forwarded-For entry (only behind a
    /// reverse proxy you run, which sets it), and know a TLS connection by its
    /// X-Forwarded-Proto [default: false].
    forwarded_for: bool = false, "DAMA_FORWARDED_FOR";
    /// The site's address as browsers see it (`https://dama.example`): requests that
    /// act for a logged-in player must come from a page of this origin. Unset: the
    /// origin must name the request's Host (and X-Forwarded-Host with
    /// `forwarded_for`) [default: unset].
    public_origin: String = String::new(), "DAMA_PUBLIC_ORIGIN";
    /// Mark the log-in cookie `Secure` (sent over TLS only). Also set for a request that
    /// came over TLS through the proxy (X-Forwarded-Proto: https, with
    /// `forwarded_for`), and when `public_origin` is https [default: false].
    secure_cookies: bool = false, "DAMA_SECURE_COOKIES";
    /// DamExchange connections from one address at once [default: 4].
    dxp_per_address: u32 = 4, "DAMA_DXP_PER_ADDRESS";
    /// Analysis-board websockets from one address, and from one account, at once (each
    /// runs at most one search) [default: 2].
    analysis_per_client: u32 = 2, "DAMA_ANALYSIS_PER_CLIENT";
    /// Game reports one address may have queued or running at once [default: 2].
    reports_per_address: u32 = 2, "DAMA_REPORTS_PER_ADDRESS";
    /// Puzzle attempts from one address a minute that move puzzles' ratings (more are
    /// answered but leave the puzzle's rating alone) [default: 30].
    puzzle_attempts_per_minute: u32 = 30, "DAMA_PUZZLE_ATTEMPTS_PER_MINUTE";
    /// Searchers in the engine pool (engine moves, hints, the arbiter) [default: the
    /// number of cores].
    engine_threads: usize = cores(), "DAMA_ENGINE_THREADS";
    /// Optional engine jobs (hints) waiting for a searcher before more are refused
    /// [default: 64].
    engine_queue: usize = 64, "DAMA_ENGINE_QUEUE";
    /// Searchers for the analysis board, apart from the games' [default: twice the
    /// cores]. More than the cores: a page's lines start at once and the searches
    /// share the processor, rather than one page waiting for another's to end.
    analysis_threads: usize = 2 * cores(), "DAMA_ANALYSIS_THREADS";
    /// Analyses waiting for a searcher before more are refused [default: 32].
    analysis_queue: usize = 32, "DAMA_ANALYSIS_QUEUE";
    /// How long the analysis board's engine thinks about one position, in seconds
    /// [default: 30].
    analysis_seconds: u64 = 30, "DAMA_ANALYSIS_SECONDS";
    /// Nodes the engine searches in each position of a game report [default: 300000].
    report_nodes: u64 = 300_000, "DAMA_REPORT_NODES";
    /// Count the bundled master collections into the opening explorer at the first start
    /// on a database (in the background) [default: true].
    explorer_bundled: bool = true, "DAMA_EXPLORER_BUNDLED";
    /// Accept Web Push subscriptions whose push service is plain http on this machine
    /// (127.0.0.1 or localhost): for tests and a local push service only; browsers give
    /// https addresses [default: false].
    push_local_http: bool = false, "DAMA_PUSH_LOCAL_HTTP";
    /// Look for puzzles in the bundled collections in the background, game by game,
    /// once per database [default: true].
    puzzles_bundled: bool = true, "DAMA_PUZZLES_BUNDLED";
    /// Nodes searched in each position looked at for a puzzle [default: 200000].
    puzzle_nodes: u64 = 200_000, "DAMA_PUZZLE_NODES";
    /// A game nobody plays or watches leaves memory after this many ms [default: 120000].
    idle_ms: u64 = 120_000, "DAMA_IDLE_MS";
}

fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

impl Limits {
    /// The idle time as a duration.
    pub fn idle(&self) -> Duration {
        Duration::from_millis(self.idle_ms())
    }
}

/// What each key (an address, an account) holds open now — connections, sockets,
/// jobs — with a cap per key. A place is given back when its [`Held`] is dropped.
pub struct Holds<K: Eq + Hash> {
    open: Arc<Mutex<HashMap<K, u32>>>,
}

impl<K: Eq + Hash> Default for Holds<K> {
    fn default() -> Self {
        Holds { open: Arc::default() }
    }
}

/// One place held by a key; given back when dropped.
pub struct Held<K: Eq + Hash> {
    open: Arc<Mutex<HashMap<K, u32>>>,
    key: K,
}

impl<K: Eq + Hash + Clone> Holds<K> {
    /// A place for `key` if it holds fewer than `cap` (0: no cap).
    pub fn take(&self, key: K, cap: u32) -> Option<Held<K>> {
        let mut m = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = m.entry(key.clone()).or_default();
        if cap > 0 && *n >= cap {
            if *n == 0 {
                m.remove(&key);
            }
            return None;
        }
        *n += 1;
        Some(Held { open: self.open.clone(), key })
    }

    /// How many places `key` holds now.
    pub fn count(&self, key: &K) -> u32 {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).get(key).copied().unwrap_or(0)
    }
}

impl<K: Eq + Hash> Drop for Held<K> {
    fn drop(&mut self) {
        let mut m = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = m.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.key);
            }
        }
    }
}

/// A token bucket per address (or per other key, such as an account name):
/// `per_minute` tokens, refilled evenly over the minute.
pub struct RateLimiter<K = IpAddr> {
    per_minute: u32,
    buckets: Mutex<Buckets<K>>,
}

struct Buckets<K> {
    by_address: HashMap<K, (f64, Instant)>,
    pruned: Option<Instant>,
}

impl<K: Eq + Hash> RateLimiter<K> {
    /// A limiter allowing `per_minute` a minute to each key (0: no limit).
    pub fn new(per_minute: u32) -> RateLimiter<K> {
        RateLimiter { per_minute, buckets: Mutex::new(Buckets { by_address: HashMap::new(), pruned: None }) }
    }

    /// Takes a token for `ip`; false when its bucket is empty.
    pub fn allow(&self, ip: K) -> bool {
        self.allow_at(ip, Instant::now())
    }

    /// Whether `key` has a token left, without taking it.
    pub fn would_allow(&self, key: &K) -> bool {
        if self.per_minute == 0 {
            return true;
        }
        let b = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let rate = f64::from(self.per_minute) / 60.0;
        b.by_address.get(key).is_none_or(|(tokens, at)| *tokens + at.elapsed().as_secs_f64() * rate >= 1.0)
    }

    fn allow_at(&self, ip: K, now: Instant) -> bool {
        if self.per_minute == 0 {
            return true;
        }
        let cap = f64::from(self.per_minute);
        let rate = cap / 60.0;
        let mut b = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        // Full buckets carry no information: once there are many, drop those (at most
        // once a second), so the map holds only addresses seen in the last minute.
        if b.by_address.len() > 4096 && b.pruned.is_none_or(|t| now.duration_since(t) >= Duration::from_secs(1)) {
            b.by_address.retain(|_, (tokens, at)| *tokens + now.duration_since(*at).as_secs_f64() * rate < cap);
            b.pruned = Some(now);
        }
        let (tokens, at) = b.by_address.entry(ip).or_insert((cap, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * rate).min(cap);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_limits_take_their_defaults_and_set_ones_win() {
        let l = Limits { ws_frame: Some(100), ..Limits::default() };
        assert_eq!((l.ws_frame(), l.body(), l.idle_ms()), (100, 65536, 120_000));
        let file = Limits { ws_frame: Some(5), body: Some(7), ..Limits::default() };
        let both = l.or(&file);
        assert_eq!((both.ws_frame, both.body), (Some(100), Some(7)));
        assert!(both.resolved().games_in_memory.is_some());
    }

    #[test]
    fn a_bucket_empties_and_refills_over_the_minute() {
        let r = RateLimiter::<IpAddr>::new(3);
        let (a, b) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t = Instant::now();
        assert!((0..3).all(|_| r.allow_at(a, t)));
        assert!(!r.allow_at(a, t));
        assert!(r.allow_at(b, t), "another address has its own bucket");
        assert!(r.allow_at(a, t + Duration::from_secs(20)), "one token back after 20 s");
        assert!(!r.allow_at(a, t + Duration::from_secs(21)));
        assert!((0..100).all(|_| RateLimiter::new(0).allow(a)));
        let names = RateLimiter::new(1);
        assert!(names.would_allow(&"ann") && names.allow("ann") && !names.would_allow(&"ann"));
    }

    #[test]
    fn holds_are_capped_per_key_and_given_back() {
        let h = Holds::default();
        let a = h.take("a", 2).unwrap();
        let _b = h.take("a", 2).unwrap();
        assert!(h.take("a", 2).is_none());
        assert!(h.take("b", 2).is_some(), "another key");
        drop(a);
        assert_eq!(h.count(&"a"), 1);
        assert!(h.take("a", 2).is_some());
        assert_eq!(h.open.lock().unwrap().get("b"), None, "a key holding nothing is forgotten");
    }

    #[test]
    fn many_addresses_are_forgotten_once_their_buckets_are_full_again() {
        let r = RateLimiter::<IpAddr>::new(60);
        let t = Instant::now();
        for i in 0..5000u32 {
            assert!(r.allow_at(IpAddr::from(i.to_be_bytes()), t));
        }
        // A minute later every bucket is full: the next call prunes them all.
        assert!(r.allow_at("10.9.9.9".parse().unwrap(), t + Duration::from_secs(61)));
        assert!(r.allow_at("10.9.9.10".parse().unwrap(), t + Duration::from_secs(61)));
        assert_eq!(r.buckets.lock().unwrap().by_address.len(), 2);
    }
}
