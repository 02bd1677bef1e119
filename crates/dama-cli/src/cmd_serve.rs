//! `dama serve` (the default command): the play server.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{Context, Result};

/// Arguments of `dama serve`, and the shape of its `--config` file (the settings, each
/// optional). Each setting comes from its flag, else its environment variable, else the
/// file, else its default ([`Args::resolve`]).
#[derive(clap::Args, Default, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// A TOML file of settings (the names of the flags below, with underscores:
    /// `bind = "0.0.0.0:80"`); flags and environment variables take precedence.
    #[arg(long, env = "DAMA_CONFIG")]
    #[serde(skip)]
    pub config: Option<PathBuf>,
    /// Print the settings in force (as TOML) and exit.
    #[arg(long)]
    #[serde(skip)]
    pub print_config: bool,
    /// Address to listen on [default: 127.0.0.1:8080].
    #[arg(long, env = "DAMA_BIND")]
    pub bind: Option<SocketAddr>,
    /// Database: sqlite:FILE (created if missing) or postgres://... [default: sqlite:dama.sqlite]
    #[arg(long, env = "DAMA_DATABASE_URL")]
    pub database_url: Option<String>,
    /// Folder of the endgame tables; the missing small ones are built there in the
    /// background at start (see `--egdb-build`) [default: `egdb` beside a SQLite
    /// database's file; with PostgreSQL `$XDG_DATA_HOME/dama/egdb`, else
    /// `~/.local/share/dama/egdb`].
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
    /// Let International engines play on the site by DamExchange: they connect to ADDR
    /// and their game requests are offered in the lobby (off by default).
    #[arg(long, env = "DAMA_DXP_BIND")]
    pub dxp_bind: Option<SocketAddr>,
    /// Cluster mode: join the other nodes through the NATS server at this URL
    /// (nats://127.0.0.1:4222); needs a PostgreSQL `--database-url` shared by all nodes.
    #[arg(long, env = "DAMA_CLUSTER_URL")]
    pub cluster: Option<String>,
    /// This node's id in the cluster (letters, digits, '-', '_'; unique per node; a
    /// node restarted under its id frees its old games at once) [default: the host name
    /// and the port].
    #[arg(long, env = "DAMA_NODE_ID")]
    pub node_id: Option<String>,
    /// The cluster's name, the same on all its nodes: clusters of different names can
    /// share one NATS server [default: dama].
    #[arg(long, env = "DAMA_CLUSTER_NAME")]
    pub cluster_name: Option<String>,
    /// In a cluster: take engine jobs (engine moves, hints) from any node; `false`
    /// leaves them to the other nodes and `dama worker` processes [default: true].
    #[arg(long, env = "DAMA_ENGINE_WORKER", action = clap::ArgAction::Set)]
    pub engine_worker: Option<bool>,
    /// The limits (the `[limits]` table of the settings file).
    #[command(flatten, next_help_heading = "Limits")]
    #[serde(default)]
    pub limits: dama_server::Limits,
    /// Events the server makes on a schedule (the settings file's `[[tournaments]]`
    /// tables; docs/tournaments.md).
    #[arg(skip)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tournaments: Vec<dama_server::tournaments::schedule::Schedule>,
}

/// How the server writes its log (to standard error).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Lines for people.
    #[default]
    Human,
    /// One JSON object a line, for collectors.
    Json,
}

impl Args {
    /// The settings in force, every one with a value: flags and environment (in
    /// `self`) over the `--config` file over the defaults.
    fn resolve(&self) -> Result<Args> {
        let file: Args = match &self.config {
            Some(p) => {
                let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
                toml::from_str(&text).with_context(|| format!("{}: not a dama settings file", p.display()))?
            }
            None => Args::default(),
        };
        for t in &file.tournaments {
            t.check().map_err(anyhow::Error::msg)?;
        }
        let database_url =
            self.database_url.clone().or(file.database_url).unwrap_or_else(|| "sqlite:dama.sqlite".into());
        Ok(Args {
            config: None,
            print_config: false,
            bind: Some(self.bind.or(file.bind).unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080)))),
            egdb: self.egdb.clone().or(file.egdb).or_else(|| crate::tables::default_dir(&database_url)),
            database_url: Some(database_url),
            egdb_build: Some(self.egdb_build.or(file.egdb_build).unwrap_or(true)),
            log_format: Some(self.log_format.or(file.log_format).unwrap_or_default()),
            metrics_bind: self.metrics_bind.or(file.metrics_bind),
            dxp_bind: self.dxp_bind.or(file.dxp_bind),
            cluster: self.cluster.clone().or(file.cluster),
            node_id: self.node_id.clone().or(file.node_id),
            engine_worker: Some(self.engine_worker.or(file.engine_worker).unwrap_or(true)),
            cluster_name: Some(self.cluster_name.clone().or(file.cluster_name).unwrap_or_else(|| "dama".into())),
            limits: self.limits.or(&file.limits).resolved(),
            tournaments: file.tournaments,
        })
    }
}

/// Installs the log writer: `RUST_LOG` filters (default `info`).
pub(crate) fn init_logs(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    use std::io::IsTerminal;
    // Colours only on a terminal: a log written to a file or a pipe holds no escape codes.
    let ansi = std::io::stderr().is_terminal();
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi);
    let _ = match format {
        LogFormat::Human => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
    };
}

impl Args {
    /// The arguments of `dama` without a command: none on the command line, the
    /// environment variables read (and checked) as for `dama serve`.
    pub fn from_env() -> Result<Args> {
        use clap::{Args as _, FromArgMatches};
        let cmd = Args::augment_args(clap::Command::new("dama"));
        let m = cmd.try_get_matches_from(["dama"]).map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(Args::from_arg_matches(&m)?)
    }
}

/// Runs the server until SIGTERM or SIGINT, then shuts it down gracefully.
pub fn run(a: Args) -> Result<()> {
    let set = a.resolve()?;
    if a.print_config {
        print!("{}", toml::to_string(&set).context("writing the settings")?);
        return Ok(());
    }
    init_logs(set.log_format.unwrap_or_default());
    let (url, build) = (set.database_url.clone().expect("resolved"), set.egdb_build.unwrap_or(true));
    // The tables' folder is among the first lines of the log.
    match set.egdb.clone() {
        Some(dir) => {
            crate::tables::announce(&dir, build);
            std::thread::spawn(move || crate::tables::load(&dir, build));
        }
        None => tracing::warn!(
            "no folder for the endgame tables (no home folder): set --egdb; the engine plays without them"
        ),
    }
    let setup = dama_server::Setup {
        bind: set.bind.expect("resolved"),
        database_url: url.clone(),
        metrics: set.metrics_bind,
        dxp: set.dxp_bind,
        cluster: set.cluster.clone().map(|url| dama_server::ClusterSetup {
            url,
            node: set.node_id.clone().unwrap_or_else(|| default_node_id(set.bind.expect("resolved"))),
            engine_worker: set.engine_worker.unwrap_or(true),
            name: set.cluster_name.clone().unwrap_or_else(|| "dama".into()),
        }),
        limits: set.limits,
        tournaments: set.tournaments.clone(),
    };
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    rt.block_on(async move {
        dama_server::serve(
            setup,
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

/// A node id from the host's name and the port: unique for nodes on one host.
fn default_node_id(bind: SocketAddr) -> String {
    let host = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
    let host: String = host.trim().chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(40).collect();
    format!("{}-{}", if host.is_empty() { "node" } else { &host }, bind.port())
}
