//! This node's link to the others: how it joins ([`ClusterSetup`]), the NATS connection
//! and the subjects ([`Cluster`]).

use std::sync::Arc;

use axum::body::Bytes;
use dama_core::Color;
use tokio::sync::mpsc;

/// How a node joins a cluster: the NATS server's URL and the node's id.
#[derive(Clone, Debug)]
pub struct ClusterSetup {
    /// `nats://HOST:PORT`.
    pub url: String,
    /// This node's id, unique in the cluster.
    pub node: String,
    /// The cluster's name, the same on all its nodes (its NATS subjects start with it).
    pub name: String,
    /// Whether this node takes engine jobs (a web-only node leaves them to the others
    /// and to `dama worker` processes).
    pub engine_worker: bool,
}

/// Why the cluster could not be joined.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// The NATS server did not answer.
    #[error("cannot connect to NATS at {0}: {1}")]
    Connect(String, String),
    /// Cluster mode needs PostgreSQL.
    #[error("cluster mode needs a PostgreSQL database (--database-url postgres://...), not {0}")]
    NotPostgres(String),
    /// A bad node id or cluster name.
    #[error("a node id or cluster name is 1 to 64 letters, digits, '-' or '_', not '{0}'")]
    NodeId(String),
}

/// This node's link to the others.
pub struct Cluster {
    /// The NATS connection.
    pub nats: async_nats::Client,
    /// This node's id.
    pub node: String,
    /// The cluster's name: the first part of its subjects.
    pub name: String,
    /// Whether this node takes engine jobs.
    pub engine_worker: bool,
    /// Events to publish, in order.
    out: mpsc::UnboundedSender<(String, Bytes)>,
}

pub(crate) fn color_of(name: &str) -> Option<Color> {
    Color::ALL.into_iter().find(|c| c.to_string() == name)
}

/// True for a usable node id.
pub fn valid_node_id(node: &str) -> bool {
    (1..=64).contains(&node.len()) && node.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Cluster {
    /// Connects node `node` to the NATS server at `url` (the database is checked by the
    /// caller).
    pub async fn connect(setup: &ClusterSetup, database_url: &str) -> Result<Arc<Cluster>, ClusterError> {
        let (url, node, name) = (setup.url.as_str(), setup.node.as_str(), setup.name.as_str());
        for id in [node, name] {
            if !valid_node_id(id) {
                return Err(ClusterError::NodeId(id.chars().take(80).collect()));
            }
        }
        if !database_url.starts_with("postgres") {
            return Err(ClusterError::NotPostgres(database_url.split(':').next().unwrap_or("").to_string()));
        }
        let nats = connect_nats(url, &format!("dama {node}")).await?;
        let (out, mut rx) = mpsc::unbounded_channel::<(String, Bytes)>();
        let publisher = nats.clone();
        // One task publishes every event of this node, so each game's stay in order.
        tokio::spawn(async move {
            while let Some((subject, bytes)) = rx.recv().await {
                if let Err(e) = publisher.publish(subject, bytes).await {
                    tracing::warn!(error = %e, "publishing an event");
                }
            }
        });
        let engine_worker = setup.engine_worker;
        Ok(Arc::new(Cluster { nats, node: node.to_string(), name: name.to_string(), engine_worker, out }))
    }

    /// The subject of requests to game `id`'s owner.
    pub fn command_subject(&self, id: &str) -> String {
        format!("{}.game.{id}.cmd", self.name)
    }

    /// The subject of game `id`'s events.
    pub fn event_subject(&self, id: &str) -> String {
        format!("{}.game.{id}.ev", self.name)
    }

    /// Publishes an event of game `id` to every node.
    pub fn publish(&self, id: &str, text: Bytes) {
        self.send(self.event_subject(id), text);
    }

    /// Publishes `bytes` on `subject`, after what this node published before.
    pub(crate) fn send(&self, subject: String, bytes: impl Into<Bytes>) {
        let _ = self.out.send((subject, bytes.into()));
    }
}

/// Connects to the NATS server at `url` as `name`.
pub async fn connect_nats(url: &str, name: &str) -> Result<async_nats::Client, ClusterError> {
    async_nats::ConnectOptions::new()
        .name(name)
        .connect(url)
        .await
        .map_err(|e| ClusterError::Connect(url.to_string(), e.to_string()))
}
