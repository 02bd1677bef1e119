//! The server's endgame tables: the one folder they live in (by default beside the
//! database, never the folder the server was started from), named in the log with its
//! size, and the missing small tables built and every variant's loaded, with a progress
//! line for each.

use std::path::{Path, PathBuf};
use std::time::Instant;

use dama_core::{Rules, Variant, VariantFn};
use dama_engine::egdb;

/// The tables' folder, beside the database's file or in the user's data folder.
pub const FOLDER: &str = "egdb";

/// Where `dama serve` keeps its endgame tables when `--egdb` does not say: `egdb` beside
/// a SQLite database's file; for PostgreSQL (or a database in memory) in the user's data
/// folder, `$XDG_DATA_HOME/dama/egdb` or else `~/.local/share/dama/egdb`. None when
/// there is no such folder (no home).
pub fn default_dir(database_url: &str) -> Option<PathBuf> {
    sqlite_dir(database_url).or_else(user_data_dir).map(|d| d.join(FOLDER))
}

/// The folder of a SQLite database's file, from its URL (`sqlite:FILE`, `sqlite://FILE`,
/// options after `?`): `.` for a bare file name; None for another database or one in
/// memory.
fn sqlite_dir(url: &str) -> Option<PathBuf> {
    let rest = url.strip_prefix("sqlite:")?;
    let file = rest.strip_prefix("//").unwrap_or(rest).split('?').next().unwrap_or_default();
    if file.is_empty() || file == ":memory:" {
        return None;
    }
    let parent = Path::new(file).parent().unwrap_or(Path::new(""));
    Some(if parent.as_os_str().is_empty() { PathBuf::from(".") } else { parent.to_path_buf() })
}

/// The user's data folder for dama: `$XDG_DATA_HOME/dama`, else `$HOME/.local/share/dama`.
fn user_data_dir() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    let xdg = std::env::var_os("XDG_DATA_HOME").and_then(absolute);
    let home = || std::env::var_os("HOME").and_then(absolute).map(|h| h.join(".local").join("share"));
    xdg.or_else(home).map(|d| d.join("dama"))
}

/// Bytes of the files under `dir` (0 when it is not there).
pub fn size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => size(&e.path()),
            Ok(_) => e.metadata().map_or(0, |m| m.len()),
            Err(_) => 0,
        })
        .sum()
}

/// Megabytes, to a tenth.
fn mb(bytes: u64) -> f64 {
    (bytes as f64 / 104_857.6).round() / 10.0
}

/// The folder as the log shows it: absolute.
fn shown(dir: &Path) -> String {
    std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf()).display().to_string()
}

/// Names the tables' folder in the log, with its size now and whether the missing
/// small tables will be built there.
pub fn announce(dir: &Path, build: bool) {
    tracing::info!(dir = %shown(dir), mb = mb(size(dir)), build, "endgame tables folder");
}

/// The tables the server builds when they are missing: (variant, pieces).
const SERVER_TABLES: [(Variant, u8); 11] = [
    (Variant::English, 4),
    (Variant::Russian, 4),
    (Variant::Brazilian, 4),
    (Variant::Pool, 4),
    (Variant::Italian, 4),
    (Variant::Spanish, 4),
    (Variant::Portuguese, 4),
    (Variant::Czech, 4),
    (Variant::Thai, 4),
    (Variant::Turkish, 3),
    (Variant::International, 4),
];

/// Builds a variant's missing tables on one thread, counting the bytes written.
struct Build<'a>(&'a Path, u8, &'a mut u64);
impl VariantFn for Build<'_> {
    type Output = Result<(), egdb::EgdbError>;
    fn call<R: Rules>(self) -> Self::Output {
        let written = self.2;
        egdb::build::<R>(self.0, self.1, 1, &mut |p| {
            if !p.existed {
                *written += p.bytes;
            }
        })
    }
}

/// Loads the endgame tables under `dir` for every variant (building the missing small
/// ones first when `build`), and installs them for the engine as each is ready: a line
/// for each variant loaded (`progress`: how many variants are done), and one when all
/// are (with how many had tables).
pub fn load(dir: &Path, build: bool) {
    let all = Instant::now();
    let mut loaded = 0;
    for (i, (v, pieces)) in SERVER_TABLES.into_iter().enumerate() {
        let started = Instant::now();
        let progress = format!("{}/{}", i + 1, SERVER_TABLES.len());
        let mut written = 0;
        if build {
            if let Err(e) = v.visit(Build(dir, pieces, &mut written)) {
                tracing::error!(variant = %v, progress, error = %dama_server::error::Chain(&e), "building endgame tables");
                continue;
            }
        }
        match egdb::open_and_install(dir, v) {
            Ok(Some((n, bytes))) => {
                loaded += 1;
                tracing::info!(
                    variant = %v,
                    pieces = n,
                    memory_mb = mb(bytes as u64),
                    built_mb = mb(written),
                    seconds = started.elapsed().as_secs_f64(),
                    progress,
                    "endgame tables loaded"
                )
            }
            Ok(None) => tracing::debug!(variant = %v, progress, "no endgame tables"),
            Err(e) => {
                tracing::error!(variant = %v, progress, error = %dama_server::error::Chain(&e), "opening endgame tables")
            }
        }
    }
    let seconds = all.elapsed().as_secs_f64();
    tracing::info!(dir = %shown(dir), mb = mb(size(dir)), variants = loaded, seconds, "endgame tables ready");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sqlite_database_keeps_its_tables_beside_it() {
        let beside = |url: &str| default_dir(url).map(|d| d.display().to_string());
        assert_eq!(beside("sqlite:/var/lib/dama/dama.sqlite").as_deref(), Some("/var/lib/dama/egdb"));
        assert_eq!(beside("sqlite:///var/lib/dama/dama.sqlite?mode=rwc").as_deref(), Some("/var/lib/dama/egdb"));
        assert_eq!(beside("sqlite:data/dama.sqlite").as_deref(), Some("data/egdb"));
        assert_eq!(beside("sqlite:dama.sqlite").as_deref(), Some("./egdb"));
        assert_eq!(sqlite_dir("sqlite::memory:"), None);
        assert_eq!(sqlite_dir("postgres://dama@db/dama"), None);
    }
}
