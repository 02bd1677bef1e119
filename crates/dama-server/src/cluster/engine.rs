//! Engine work as jobs any node can take: in cluster mode a search (an engine move, a
//! hint) is a request on one subject that NATS hands to one of the subscribed workers
//! (a queue group): the nodes themselves, unless started with `--engine-worker false`,
//! and `dama worker` processes. Web nodes thus stay responsive while the engines run
//! where there is room. With no worker listening, the search runs here.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use dama_core::Variant;
use dama_engine::level::Level;
use dama_engine::search::Limits;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use dama_core::any::AnyGame;
use dama_core::game::DrawRules;

use crate::pool::{EnginePool, PoolError, SearchJob};

/// The subject of engine jobs in the cluster named `name`.
pub fn subject(name: &str) -> String {
    format!("{name}.engine.search")
}
/// The queue group of the workers.
const QUEUE: &str = "workers";

/// A search job as it travels.
#[derive(Debug, Serialize, Deserialize)]
struct Job {
    game: String,
    purpose: String,
    variant: String,
    fen: String,
    moves: Vec<String>,
    depth: Option<u32>,
    nodes: Option<u64>,
    soft_ms: Option<u64>,
    hard_ms: Option<u64>,
    level: u8,
    level_depth: Option<u32>,
    noise: i32,
    optional: bool,
    /// An engine move on a clock (the worker takes its wait for a searcher off the
    /// limits); absent in a job from an older node.
    #[serde(default)]
    on_clock: bool,
}

/// A worker's answer: the move and its score, none, or why not.
#[derive(Debug, Serialize, Deserialize)]
enum Done {
    Found(Option<(String, i32)>),
    Busy,
    Failed,
}

fn ms(d: Option<Duration>) -> Option<u64> {
    d.map(|d| d.as_millis() as u64)
}

impl Job {
    fn of(j: &SearchJob, optional: bool) -> Job {
        Job {
            game: j.game.clone(),
            purpose: j.purpose.to_string(),
            variant: j.record.variant().key().to_string(),
            fen: j.record.start_fen(),
            moves: j.record.moves().to_vec(),
            depth: j.limits.depth,
            nodes: j.limits.nodes,
            soft_ms: ms(j.limits.soft_time),
            hard_ms: ms(j.limits.hard_time),
            level: j.level.number,
            level_depth: j.level.depth,
            noise: j.level.noise,
            optional,
            on_clock: j.on_clock,
        }
    }

    fn into_search(self) -> Option<(SearchJob, bool)> {
        let variant: Variant = self.variant.parse().ok()?;
        let purpose = match self.purpose.as_str() {
            "move" => "move",
            "hint" => "hint",
            "draw offer" => "draw offer",
            _ => "job",
        };
        let limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            soft_time: self.soft_ms.map(Duration::from_millis),
            hard_time: self.hard_ms.map(Duration::from_millis),
        };
        // The level is rebuilt from its number, so that a worker plays the levels it
        // knows; `level_depth` and `noise` still go out for workers of older builds.
        let level = Level::new(self.level);
        // A worker reads the game from its text (another node's game: no typed game
        // crosses NATS); a move that does not read ends the job.
        let mut record = AnyGame::new(variant, Some(&self.fen), DrawRules::default()).ok()?;
        for m in &self.moves {
            record.play_recorded(m).ok()?;
        }
        Some((SearchJob { game: self.game, purpose, record, limits, level, on_clock: self.on_clock }, self.optional))
    }
}

/// Runs `job` on whichever worker takes it; None when no worker listens (the caller
/// searches here).
pub async fn search(
    nats: &async_nats::Client,
    subject: &str,
    job: &SearchJob,
    optional: bool,
) -> Option<Result<Option<(String, i32)>, PoolError>> {
    let payload = serde_json::to_vec(&Job::of(job, optional)).ok()?;
    // As long as the search may take, and time to wait for a searcher.
    let most = job.limits.hard_time.unwrap_or(Duration::from_secs(60)) + Duration::from_secs(30);
    let request = async_nats::Request::new().payload(payload.into()).timeout(Some(most));
    match nats.send_request(subject.to_string(), request).await {
        Ok(m) => Some(match serde_json::from_slice::<Done>(&m.payload) {
            Ok(Done::Found(best)) => Ok(best),
            Ok(Done::Busy) => Err(PoolError::Busy),
            Ok(Done::Failed) | Err(_) => Err(PoolError::Failed),
        }),
        Err(e) if e.kind() == async_nats::RequestErrorKind::NoResponders => None,
        Err(e) => {
            tracing::warn!(game = %job.game, error = %e, "an engine job got no answer");
            Some(Err(PoolError::Failed))
        }
    }
}

/// Takes engine jobs from `subject` ([`subject`]) and runs them on `pool` until the
/// connection ends.
pub async fn work(
    nats: async_nats::Client,
    subject: String,
    pool: Arc<EnginePool>,
) -> Result<(), async_nats::SubscribeError> {
    let mut jobs = nats.queue_subscribe(subject, QUEUE.to_string()).await?;
    tokio::spawn(async move {
        while let Some(m) = jobs.next().await {
            let (nats, pool) = (nats.clone(), pool.clone());
            tokio::spawn(async move {
                let Some(reply) = m.reply else { return };
                let done = match serde_json::from_slice::<Job>(&m.payload).ok().and_then(Job::into_search) {
                    None => Done::Failed,
                    Some((job, optional)) => {
                        match pool.search_here(job, Arc::new(AtomicBool::new(false)), optional).await {
                            Ok(best) => Done::Found(best),
                            Err(PoolError::Busy) => Done::Busy,
                            Err(PoolError::Failed) => Done::Failed,
                        }
                    }
                };
                if let Ok(bytes) = serde_json::to_vec(&done) {
                    let _ = nats.publish(reply, bytes.into()).await;
                }
            });
        }
    });
    Ok(())
}
