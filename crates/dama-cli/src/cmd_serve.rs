//! `dama serve` (the default command): the play server.

use std::net::SocketAddr;

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
}

impl Args {
    /// Defaults, with the environment variables applied (for `dama` without a command).
    pub fn from_env() -> Args {
        Args {
            bind: std::env::var("DAMA_BIND").ok().and_then(|b| b.parse().ok()),
            database_url: std::env::var("DAMA_DATABASE_URL").ok(),
        }
    }
}

/// Runs the server until the process is stopped.
pub fn run(a: Args) -> Result<()> {
    let bind = a.bind.unwrap_or_else(|| "127.0.0.1:8080".parse().expect("address"));
    let url = a.database_url.unwrap_or_else(|| "sqlite:dama.sqlite".into());
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    rt.block_on(async move {
        dama_server::serve(bind, &url, |addr, restored| {
            println!("dama is running at http://{addr}/  (database {url}; {restored} live games restored)");
        })
        .await
        .map_err(anyhow::Error::from)
    })
}
