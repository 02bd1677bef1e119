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
    /// Log format: `human` (default) or `json` (one object a line); the level comes
    /// from `RUST_LOG` (default `info`; `dama_server=debug` shows every request).
    #[arg(long, env = "DAMA_LOG_FORMAT", value_enum)]
    pub log_format: Option<LogFormat>,
    /// Serve Prometheus metrics at http://ADDR/metrics (off by default; keep it off the
    /// public network, e.g. 127.0.0.1:9100).
    #[arg(long, env = "DAMA_METRICS_BIND")]
    pub metrics_bind: Option<SocketAddr>,
}

/// How the server writes its log (to standard error).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// Lines for people.
    #[default]
    Human,
    /// One JSON object a line, for collectors.
    Json,
}

/// Installs the log writer: `RUST_LOG` filters (default `info`).
fn init_logs(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Human => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
    };
}

impl Args {
    /// Defaults, with the environment variables applied (for `dama` without a command).
    pub fn from_env() -> Args {
        Args {
            bind: std::env::var("DAMA_BIND").ok().and_then(|b| b.parse().ok()),
            database_url: std::env::var("DAMA_DATABASE_URL").ok(),
            egdb: std::env::var_os("DAMA_EGDB").map(PathBuf::from),
            egdb_build: std::env::var("DAMA_EGDB_BUILD").ok().map(|v| !matches!(v.as_str(), "0" | "false" | "no")),
            metrics_bind: std::env::var("DAMA_METRICS_BIND").ok().and_then(|b| b.parse().ok()),
            log_format: std::env::var("DAMA_LOG_FORMAT").ok().map(|v| {
                if v.eq_ignore_ascii_case("json") {
                    LogFormat::Json
                } else {
                    LogFormat::Human
                }
            }),
        }
    }
}

/// Runs the server until SIGTERM or SIGINT, then shuts it down gracefully.
pub fn run(a: Args) -> Result<()> {
    init_logs(a.log_format.unwrap_or_default());
    let bind = a.bind.unwrap_or_else(|| "127.0.0.1:8080".parse().expect("address"));
    let url = a.database_url.unwrap_or_else(|| "sqlite:dama.sqlite".into());
    let dir = a.egdb.unwrap_or_else(|| PathBuf::from(crate::cmd_egdb::DEFAULT_DIR));
    let build = a.egdb_build.unwrap_or(true);
    std::thread::spawn(move || endgame_tables(&dir, build));
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    rt.block_on(async move {
        dama_server::serve(
            bind,
            &url,
            a.metrics_bind,
            |addr, restored| {
                println!("dama is running at http://{addr}/  (database {url}; {restored} live games restored)");
                tracing::info!(%addr, restored, "listening");
            },
            dama_server::stop_signal(),
        )
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
                tracing::error!(variant = %v, error = %e, "building endgame databases");
                continue;
            }
        }
        match egdb::open_and_install(dir, v) {
            Ok(Some((n, bytes))) => tracing::info!(
                variant = %v,
                pieces = n,
                mb = bytes >> 20,
                seconds = started.elapsed().as_secs_f64(),
                "endgame databases loaded"
            ),
            Ok(None) => {}
            Err(e) => tracing::error!(variant = %v, error = %e, "opening endgame databases"),
        }
    }
}
