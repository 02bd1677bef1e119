//! Password hashing under one global bound. Argon2id at OWASP's minimum (19 MiB, 2
//! passes) costs 19 MiB of memory and ~30 ms of a core per hash: a flood of sign-ups
//! or wrong log-ins must not run them all at once. At most `concurrent` hashes run (on
//! blocking threads, so the game tasks keep running); a request waits for its turn at
//! most `wait`, and only while few others wait, then is refused with "busy, retry
//! after". The 19 MiB work areas are reused while hashes follow each other and freed
//! when the last one ends, so a burst leaves no memory behind.
//!
//! A log-in for a name nobody has (or a guest, which has no password) is checked
//! against a fixed hash of the same cost: the answer takes as long either way, so
//! timing does not tell which names exist.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::Semaphore;

/// A stored hash of the default cost that no password matches in practice: what an
/// unknown name's log-in is checked against.
const DUMMY: &str = "$argon2id$v=19$m=19456,t=2,p=1$ZGFtYS1ub2JvZHktaGVyZQ$u8DNhtmsO0w6dF1wNsbmb0mZUG0RjXf0OMqiBXHZdqU";

/// Why a password was not hashed or checked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    /// Every hashing slot stayed busy for the whole wait (or too many wait already).
    #[error("the server is busy checking passwords; please try again in a moment")]
    Busy,
    /// The hash could not be made (an internal failure, logged).
    #[error("password hashing failed")]
    Failed,
}

/// The server's password hasher: a bounded number of hashes at once.
pub struct Hasher {
    permits: Arc<Semaphore>,
    size: usize,
    wait: Duration,
    max_waiting: usize,
    waiting: Arc<AtomicUsize>,
    /// Hashes running now.
    running: Arc<AtomicUsize>,
    /// The most that ever ran at once (for the tests and the metrics).
    peak: Arc<AtomicUsize>,
    /// Hashes computed since the start.
    done: Arc<AtomicUsize>,
    /// Work areas of finished hashes, kept while others run or wait.
    spare: Arc<Mutex<Vec<Vec<Block>>>>,
}

impl Hasher {
    /// A hasher running at most `concurrent` hashes at once, each request waiting for
    /// its turn at most `wait` (and refused at once when 8 per slot wait already).
    pub fn new(concurrent: usize, wait: Duration) -> Arc<Hasher> {
        let size = concurrent.max(1);
        Arc::new(Hasher {
            permits: Arc::new(Semaphore::new(size)),
            size,
            wait,
            max_waiting: 8 * size,
            waiting: Arc::default(),
            running: Arc::default(),
            peak: Arc::default(),
            done: Arc::default(),
            spare: Arc::default(),
        })
    }

    /// How many hashes may run at once.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The most hashes that ran at once since the start.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// Hashes computed since the start (a log-in for an unknown name counts one too).
    pub fn computed(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// Work areas kept now (0 once a burst is over).
    pub fn spare_areas(&self) -> usize {
        self.spare.lock().map_or(0, |s| s.len())
    }

    /// A new Argon2id hash of `password` with a random salt, as a PHC string.
    pub async fn hash(&self, password: String) -> Result<String, HashError> {
        self.run(move |area| {
            let salt = SaltString::generate(&mut OsRng);
            let params = Params::default();
            let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
            let mut salt_bytes = [0u8; 64];
            let raw = salt.decode_b64(&mut salt_bytes).map_err(|_| HashError::Failed)?;
            let output = Output::init_with(Params::DEFAULT_OUTPUT_LEN, |out| {
                argon
                    .hash_password_into_with_memory(password.as_bytes(), raw, out, fit(area, &params))
                    .map_err(|_| argon2::password_hash::Error::Crypto)
            })
            .map_err(|_| HashError::Failed)?;
            let hash = PasswordHash {
                algorithm: Algorithm::Argon2id.ident(),
                version: Some(Version::V0x13.into()),
                params: ParamsString::try_from(&params).map_err(|_| HashError::Failed)?,
                salt: Some(salt.as_salt()),
                hash: Some(output),
            };
            Ok(hash.to_string())
        })
        .await
    }

    /// Whether `password` matches `stored` (a PHC string). With no stored hash (an
    /// unknown name, a guest without a password) the same work is done against a
    /// fixed hash, and the answer is no.
    pub async fn verify(&self, password: String, stored: Option<String>) -> Result<bool, HashError> {
        let real = stored.as_deref().is_some_and(|s| !s.is_empty());
        let stored = stored.filter(|_| real).unwrap_or_else(|| DUMMY.to_string());
        let matched = self.run(move |area| Ok(matches(&password, &stored, area))).await?;
        Ok(real && matched)
    }

    /// Runs `job` on a blocking thread once a slot is free, with a work area.
    async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce(&mut Vec<Block>) -> Result<T, HashError> + Send + 'static,
    ) -> Result<T, HashError> {
        let permit = self.permit().await?;
        let (running, peak, spare) = (self.running.clone(), self.peak.clone(), self.spare.clone());
        let done = self.done.clone();
        let now = running.fetch_add(1, Ordering::Relaxed) + 1;
        peak.fetch_max(now, Ordering::Relaxed);
        let waiting = self.waiting.clone();
        let finished = tokio::task::spawn_blocking(move || {
            let mut area = spare.lock().ok().and_then(|mut s| s.pop()).unwrap_or_default();
            let r = job(&mut area);
            done.fetch_add(1, Ordering::Relaxed);
            let left = running.fetch_sub(1, Ordering::Relaxed) - 1;
            if let Ok(mut s) = spare.lock() {
                if left == 0 && waiting.load(Ordering::Relaxed) == 0 {
                    // The burst is over: give every work area back.
                    s.clear();
                } else {
                    s.push(area);
                }
            }
            drop(permit);
            r
        })
        .await;
        finished.map_err(|_| HashError::Failed)?
    }

    /// A slot, waited for at most `wait`.
    async fn permit(&self) -> Result<tokio::sync::OwnedSemaphorePermit, HashError> {
        if let Ok(p) = self.permits.clone().try_acquire_owned() {
            return Ok(p);
        }
        if self.waiting.fetch_add(1, Ordering::Relaxed) >= self.max_waiting {
            self.waiting.fetch_sub(1, Ordering::Relaxed);
            return Err(HashError::Busy);
        }
        let got = tokio::time::timeout(self.wait, self.permits.clone().acquire_owned()).await;
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        match got {
            Ok(Ok(p)) => Ok(p),
            _ => Err(HashError::Busy),
        }
    }
}

/// Blocks (1 KiB each) a work area reserves at least: 33 MiB, above the largest size
/// glibc's malloc ever serves from its heaps (its mmap threshold grows up to 32 MiB),
/// so that a work area is its own mapping, returned to the system when freed. Only
/// the blocks used (19 MiB at the default cost) become resident.
const RESERVED_BLOCKS: usize = 33 * 1024;

/// The first `params.block_count()` blocks of `area`, grown to that size if smaller.
fn fit<'a>(area: &'a mut Vec<Block>, params: &Params) -> &'a mut [Block] {
    let n = params.block_count();
    if area.len() < n {
        if area.capacity() < n {
            *area = Vec::with_capacity(n.max(RESERVED_BLOCKS));
        }
        area.resize(n, Block::default());
    }
    &mut area[..n]
}

/// Whether `password` hashes to `stored` under the parameters `stored` names.
fn matches(password: &str, stored: &str, area: &mut Vec<Block>) -> bool {
    let Ok(hash) = PasswordHash::new(stored) else { return false };
    let (Ok(params), Some(expected), Some(salt)) = (Params::try_from(&hash), hash.hash, hash.salt) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(hash.algorithm) else { return false };
    let version = hash.version.and_then(|v| Version::try_from(v).ok()).unwrap_or_default();
    let mut salt_bytes = [0u8; 64];
    let Ok(raw) = salt.decode_b64(&mut salt_bytes) else { return false };
    let argon = Argon2::new(algorithm, version, params.clone());
    let mut out = vec![0u8; expected.len()];
    if argon.hash_password_into_with_memory(password.as_bytes(), raw, &mut out, fit(area, &params)).is_err() {
        return false;
    }
    // `Output`'s equality is constant-time.
    Output::new(&out).is_ok_and(|o| o == expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    #[tokio::test]
    async fn hashes_are_argon2id_and_check_both_ways_with_the_crate() {
        let h = Hasher::new(2, Duration::from_secs(5));
        let ours = h.hash("correct horse".into()).await.unwrap();
        assert!(ours.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{ours}");
        // The crate's own verifier accepts our hash, and we accept the crate's.
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(Argon2::default().verify_password(b"correct horse", &parsed).is_ok());
        let salt = SaltString::generate(&mut OsRng);
        let theirs = Argon2::default().hash_password(b"battery staple", &salt).unwrap().to_string();
        assert!(h.verify("battery staple".into(), Some(theirs.clone())).await.unwrap());
        assert!(!h.verify("battery stapler".into(), Some(theirs)).await.unwrap());
        assert!(h.verify("correct horse".into(), Some(ours.clone())).await.unwrap());
        assert!(!h.verify("wrong".into(), Some(ours)).await.unwrap());
        // Nobody's hash and a guest's empty one never match.
        assert!(!h.verify("anything".into(), None).await.unwrap());
        assert!(!h.verify("".into(), Some(String::new())).await.unwrap());
        assert!(!h.verify("x".into(), Some("not a hash".into())).await.unwrap());
        // The dummy is a well-formed hash of the default cost.
        let d = PasswordHash::new(DUMMY).unwrap();
        assert_eq!(Params::try_from(&d).unwrap().m_cost(), Params::DEFAULT_M_COST);
        assert_eq!(h.spare_areas(), 0, "the work areas are given back after the burst");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn at_most_the_bound_runs_and_the_rest_wait_then_are_refused() {
        let h = Hasher::new(2, Duration::from_millis(150));
        let jobs: Vec<_> = (0..40)
            .map(|i| {
                let h = h.clone();
                tokio::spawn(async move { h.hash(format!("password {i}")).await })
            })
            .collect();
        let mut busy = 0;
        for j in jobs {
            if j.await.unwrap() == Err(HashError::Busy) {
                busy += 1;
            }
        }
        assert_eq!(h.peak(), 2, "never more than the bound at once");
        assert!(busy > 0, "some were refused after the wait");
        assert_eq!(h.spare_areas(), 0);
    }
}
