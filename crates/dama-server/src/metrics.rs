//! Prometheus metrics: what the server counts and measures, recorded with the `metrics`
//! facade (a no-op until a recorder is installed, so tests and tools pay nothing) and
//! rendered by `metrics-exporter-prometheus` on a listener of its own
//! (`dama serve --metrics-bind`), never on the public port.
//!
//! Families (all prefixed `dama_`): `games_created_total{variant,mode}`,
//! `games_finished_total{variant}`, `games_in_memory`, `games_loaded{variant,mode}`,
//! `websockets`, `moves_total{variant}`,
//! `move_seconds` (a move from its arrival to its acknowledgement, stored),
//! `move_store_seconds` (the database write alone), `move_group_size` (moves stored by
//! one statement), `http_requests_total{method,status}`,
//! `http_request_seconds{method}`, `errors_total{kind}`, `engine_waiting`,
//! `engine_search_seconds`, `db_connections{state}`, `process_resident_bytes`.

use std::net::SocketAddr;
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::state::Services;

/// Buckets of the latency histograms, in seconds: 0.1 ms to 5 s.
const BUCKETS: [f64; 14] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0];

/// Why metrics could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum MetricsError {
    /// A recorder is installed already, or the exporter refused its settings.
    #[error("metrics recorder: {0}")]
    Recorder(String),
    /// The metrics address could not be bound.
    #[error("cannot listen on {0} for metrics: {1}")]
    Bind(SocketAddr, std::io::Error),
}

/// Installs the process-wide Prometheus recorder (once; a second call fails).
pub fn install() -> Result<PrometheusHandle, MetricsError> {
    PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &BUCKETS)
        .map_err(|e| MetricsError::Recorder(e.to_string()))?
        .set_buckets_for_metric(Matcher::Full("dama_move_group_size".into()), &[2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0])
        .map_err(|e| MetricsError::Recorder(e.to_string()))?
        .install_recorder()
        .map_err(|e| MetricsError::Recorder(e.to_string()))
}

/// Sets the gauges read at scrape time (games in memory, engine queue, database
/// connections, memory) and renders every family in Prometheus' text format.
pub fn render(handle: &PrometheusHandle, ctx: &Services) -> String {
    metrics::gauge!("dama_games_in_memory").set(ctx.games.loaded() as f64);
    metrics::gauge!("dama_engine_waiting").set(ctx.pool.waiting() as f64);
    let (size, idle) = ctx.store.connections();
    metrics::gauge!("dama_db_connections", "state" => "idle").set(idle as f64);
    metrics::gauge!("dama_db_connections", "state" => "used").set((size as usize).saturating_sub(idle) as f64);
    if let Some(rss) = resident_bytes() {
        metrics::gauge!("dama_process_resident_bytes").set(rss as f64);
    }
    handle.render()
}

/// The process's resident memory (Linux: /proc/self/statm), if it can be read.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Serves `GET /metrics` on `listener` until `stop` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    handle: PrometheusHandle,
    ctx: Services,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = axum::Router::new().route(
        "/metrics",
        axum::routing::get(move || {
            let (handle, ctx) = (handle.clone(), ctx.clone());
            async move { ([(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], render(&handle, &ctx)) }
        }),
    );
    axum::serve(listener, app).with_graceful_shutdown(stop).await
}

/// Records a latency in a histogram.
pub(crate) fn seconds(name: &'static str, d: Duration) {
    metrics::histogram!(name).record(d.as_secs_f64());
}
