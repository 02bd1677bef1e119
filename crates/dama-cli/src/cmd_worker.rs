//! `dama worker`: an engine worker of a cluster. It takes engine jobs (engine moves,
//! hints) from the nodes through NATS and answers them, so that the web nodes stay
//! responsive; it needs no database. Stop it with SIGTERM or Ctrl-C: jobs running
//! finish first.

use std::path::PathBuf;

use anyhow::{Context, Result};

/// Arguments of `dama worker`.
#[derive(clap::Args)]
pub struct Args {
    /// The cluster's NATS server (nats://127.0.0.1:4222).
    #[arg(long, env = "DAMA_CLUSTER_URL")]
    pub cluster: String,
    /// The cluster's name (as its nodes' `--cluster-name`).
    #[arg(long, env = "DAMA_CLUSTER_NAME", default_value = "dama")]
    pub cluster_name: String,
    /// Searches run at once [default: one per core].
    #[arg(long, env = "DAMA_ENGINE_THREADS")]
    pub engine_threads: Option<usize>,
    /// Directory of endgame databases (loaded if there; see `dama serve --egdb`).
    #[arg(long, env = "DAMA_EGDB", default_value = crate::cmd_egdb::DEFAULT_DIR)]
    pub egdb: PathBuf,
    /// Build the missing small endgame databases at start, as `dama serve` does.
    #[arg(long, env = "DAMA_EGDB_BUILD", action = clap::ArgAction::Set, default_value_t = false)]
    pub egdb_build: bool,
}

/// Runs the worker until SIGTERM or SIGINT.
pub fn run(a: Args) -> Result<()> {
    crate::cmd_serve::init_logs(crate::cmd_serve::LogFormat::Human);
    let threads = a.engine_threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let (dir, build) = (a.egdb.clone(), a.egdb_build);
    std::thread::spawn(move || crate::tables::load(&dir, build));
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    rt.block_on(async move {
        let nats = dama_server::cluster::connect_nats(&a.cluster, "dama worker").await?;
        let pool = dama_server::pool::EnginePool::new(threads, 64);
        let jobs = dama_server::cluster::engine::subject(&a.cluster_name);
        dama_server::cluster::engine::work(nats.clone(), jobs, pool).await.context("subscribing to engine jobs")?;
        println!("dama worker is taking engine jobs from {} ({threads} at once)", a.cluster);
        dama_server::stop_signal().await;
        // No new job is taken; those running answer before the connection closes.
        nats.drain().await.context("closing the NATS connection")?;
        Ok(())
    })
}
