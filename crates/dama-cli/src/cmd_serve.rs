//! `dama serve` (the default command): the play server.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Instant;

use dama_core::{Rules, Variant, VariantFn};
use dama_engine::egdb;

use anyhow::{Context, Result};

/// Arguments of `dama serve`.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, env = "DAMA_BIND", default_value = "127.0.0.1:8080")]
    pub bind: Option<SocketAddr>,
    /// Database: sqlite:FILE (created if missing) or postgres://...
    #[arg(long, env = "DAMA_DATABASE_URL", default_value = "sqlite:dama.sqlite")]
    pub database_url: Option<String>,
    /// Directory of endgame databases; the missing small ones are built there in the
    /// background at start (see `--egdb-build`).
    #[arg(long, env = "DAMA_EGDB")]
    pub egdb: Option<PathBuf>,
    /// Build missing endgame databases at start (4 pieces on 8x8 and 10x10, 3 for
    /// Turkish: about a minute of one core, 50 MB, once); `false` only loads what is there.
    #[arg(long, env = "DAMA_EGDB_BUILD", action = clap::ArgAction::Set)]
    pub egdb_build: Option<bool>,
}

impl Args {
    /// Defaults, with the environment variables applied (for `dama` without a command).
    pub fn from_env() -> Args {
        Args {
            bind: std::env::var("DAMA_BIND").ok().and_then(|b| b.parse().ok()),
            database_url: std::env::var("DAMA_DATABASE_URL").ok(),
            egdb: std::env::var_os("DAMA_EGDB").map(PathBuf::from),
            egdb_build: std::env::var("DAMA_EGDB_BUILD").ok().map(|v| !matches!(v.as_str(), "0" | "false" | "no")),
        }
    }
}

/// Runs the server until the process is stopped.
pub fn run(a: Args) -> Result<()> {
    let bind = a.bind.unwrap_or_else(|| "127.0.0.1:8080".parse().expect("address"));
    let url = a.database_url.unwrap_or_else(|| "sqlite:dama.sqlite".into());
    let dir = a.egdb.unwrap_or_else(|| PathBuf::from(crate::cmd_egdb::DEFAULT_DIR));
    let build = a.egdb_build.unwrap_or(true);
    std::thread::spawn(move || endgame_tables(&dir, build));
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    rt.block_on(async move {
        dama_server::serve(bind, &url, |addr, restored| {
            println!("dama is running at http://{addr}/  (database {url}; {restored} live games restored)");
        })
        .await
        .map_err(anyhow::Error::from)
    })
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

struct BuildQuietly<'a>(&'a std::path::Path, u8);
impl VariantFn for BuildQuietly<'_> {
    type Output = Result<(), egdb::EgdbError>;
    fn call<R: Rules>(self) -> Self::Output {
        egdb::build::<R>(self.0, self.1, 1, &mut |_| {})
    }
}

/// Loads the endgame tables under `dir` for every variant (building the missing
/// small ones first when `build`), and installs them for the engine as each is ready.
fn endgame_tables(dir: &std::path::Path, build: bool) {
    for (v, pieces) in SERVER_TABLES {
        let started = Instant::now();
        if build {
            if let Err(e) = v.visit(BuildQuietly(dir, pieces)) {
                eprintln!("endgame databases for {v}: {e}");
                continue;
            }
        }
        match egdb::open_and_install(dir, v) {
            Ok(Some((n, bytes))) => println!(
                "endgame databases: {v} up to {n} pieces ({} MB in memory, {:.1} s)",
                bytes >> 20,
                started.elapsed().as_secs_f64()
            ),
            Ok(None) => {}
            Err(e) => eprintln!("endgame databases for {v}: {e}"),
        }
    }
}
