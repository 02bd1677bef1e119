//! Progress of long jobs (deep perft, PDN checks, matches, self-play, training, endgame
//! databases, books): a bar on standard error when it is a terminal; plain lines there
//! instead, at most one every ten seconds (`DAMA_PROGRESS_MS`) and one at the end, when
//! it is piped or with `--quiet`. Results go to standard output either way, so a pipe gets only them.

use std::io::{IsTerminal, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

static QUIET: AtomicBool = AtomicBool::new(false);

/// Plain lines instead of bars (the global `--quiet`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// How often a plain progress line is written at most: 10 s, or `DAMA_PROGRESS_MS`.
fn plain_every() -> Duration {
    static EVERY: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *EVERY.get_or_init(|| {
        let ms = std::env::var("DAMA_PROGRESS_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
        Duration::from_millis(ms)
    })
}

/// The progress of one job: `done` of `total` units (games, moves, bytes, epochs), with
/// a message (a score, a loss) after the count.
pub struct Progress {
    bar: Option<ProgressBar>,
    what: String,
    total: Option<u64>,
    bytes: bool,
    plain: Mutex<Plain>,
}

struct Plain {
    done: u64,
    message: String,
    started: Instant,
    printed: Instant,
}

impl Progress {
    /// A job of `total` units (unknown: `None`) named `what` ("games", "moves").
    pub fn new(what: &str, total: Option<u64>) -> Progress {
        Progress::make(what, total, false)
    }

    /// A job over `total` bytes (a file being read).
    pub fn bytes(what: &str, total: u64) -> Progress {
        Progress::make(what, Some(total), true)
    }

    fn make(what: &str, total: Option<u64>, bytes: bool) -> Progress {
        let bar = (std::io::stderr().is_terminal() && !QUIET.load(Ordering::Relaxed)).then(|| {
            let count = if bytes { "{bytes}/{total_bytes}" } else { "{human_pos}/{human_len}" };
            let template = match total {
                Some(_) => format!("{{prefix}} [{{bar:30}}] {count} {{elapsed}} (eta {{eta}}) {{msg}}"),
                None => "{prefix} {spinner} {human_pos} {elapsed} {msg}".to_string(),
            };
            let style = ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar());
            let bar = match total {
                Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()),
                None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            };
            bar.set_style(style.progress_chars("=> "));
            bar.set_prefix(what.to_string());
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        let now = Instant::now();
        Progress {
            bar,
            what: what.to_string(),
            total,
            bytes,
            plain: Mutex::new(Plain { done: 0, message: String::new(), started: now, printed: now }),
        }
    }

    /// `n` more units done.
    pub fn inc(&self, n: u64) {
        self.update(|done| done + n);
    }

    /// `done` units done in all.
    pub fn set(&self, done: u64) {
        self.update(|_| done);
    }

    /// Moves the count (under one lock, so that counts from several threads add up).
    fn update(&self, to: impl FnOnce(u64) -> u64) {
        let mut p = self.lock();
        p.done = to(p.done);
        if let Some(b) = &self.bar {
            b.set_position(p.done);
        } else if p.printed.elapsed() >= plain_every() {
            p.printed = Instant::now();
            eprintln!("{}", self.line(&p));
        }
    }

    /// The message after the count (a running score, a loss).
    pub fn message(&self, m: impl Into<String>) {
        let m = m.into();
        if let Some(b) = &self.bar {
            b.set_message(m.clone());
        }
        self.lock().message = m;
    }

    /// Writes a line of output to standard error above the bar.
    pub fn println(&self, line: impl AsRef<str>) {
        match &self.bar {
            Some(b) => b.suspend(|| eprintln!("{}", line.as_ref())),
            None => eprintln!("{}", line.as_ref()),
        }
    }

    /// Writes a line of results to standard output (above the bar when both go to the
    /// terminal).
    pub fn out(&self, line: impl AsRef<str>) {
        match &self.bar {
            Some(b) => b.suspend(|| println!("{}", line.as_ref())),
            None => println!("{}", line.as_ref()),
        }
    }

    /// Ends the bar (the plain form writes its last line).
    pub fn finish(&self) {
        match &self.bar {
            Some(b) => b.finish_and_clear(),
            None => {
                let p = self.lock();
                if p.started.elapsed() >= plain_every() {
                    eprintln!("{}", self.line(&p));
                }
            }
        }
    }

    /// Counts the bytes read through `r` as progress.
    pub fn reader<T: Read>(&self, r: T) -> Counted<'_, T> {
        Counted { inner: r, progress: self, read: 0 }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Plain> {
        self.plain.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The plain line: "games 40/200 (20%), 1m 20s, eta 5m 20s: +3 =30 -7".
    fn line(&self, p: &Plain) -> String {
        let secs = p.started.elapsed().as_secs_f64();
        let unit = |n: u64| if self.bytes { format!("{:.1} MB", n as f64 / 1e6) } else { n.to_string() };
        let mut s = format!("{} {}", self.what, unit(p.done));
        if let Some(t) = self.total.filter(|t| *t > 0) {
            let f = p.done as f64 / t as f64;
            s += &format!("/{} ({:.0}%), {}", unit(t), f * 100.0, clock(secs));
            if f > 0.0 && f < 1.0 {
                s += &format!(", eta {}", clock(secs / f - secs));
            }
        } else {
            s += &format!(", {}", clock(secs));
        }
        if !p.message.is_empty() {
            s += ": ";
            s += &p.message;
        }
        s
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

fn clock(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s / 60 % 60),
    }
}

/// A reader that reports the bytes read through it ([`Progress::reader`]).
pub struct Counted<'a, T> {
    inner: T,
    progress: &'a Progress,
    read: u64,
}

impl<T: Read> Read for Counted<'_, T> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        self.progress.set(self.read);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_line_says_how_far_how_long_and_what() {
        set_quiet(true);
        let p = Progress::new("games", Some(200));
        p.set(50);
        p.message("+3 =40 -7");
        let line = p.line(&p.lock());
        assert!(line.starts_with("games 50/200 (25%), 0s"), "{line}");
        assert!(line.ends_with(": +3 =40 -7"), "{line}");
        let b = Progress::bytes("pdn", 4_000_000);
        let mut r = b.reader(&[0u8; 1000][..]);
        std::io::copy(&mut r, &mut std::io::sink()).unwrap();
        assert!(b.line(&b.lock()).starts_with("pdn 0.0 MB/4.0 MB (0%)"), "{}", b.line(&b.lock()));
        assert_eq!((clock(59.4), clock(61.0), clock(3725.0)), ("59s".into(), "1m 01s".into(), "1h 02m".into()));
    }
}
