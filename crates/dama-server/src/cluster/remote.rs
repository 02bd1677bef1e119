//! The asking side: a game another node owns, reached by NATS request/reply on the
//! game's command subject; a websocket here hears the game's events on its event
//! subject.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use futures_util::StreamExt;
use tokio::sync::broadcast;

use super::wire::{Answer, Request, Subscribed};
use super::Cluster;
use crate::error::ApiError;
use crate::game::{
    Action, Caller, Catchup, Event, Hello, JoinRequest, Player, Published, Seat, Snapshot, Subscription,
};

/// How long a request waits for the owner (a move is stored before it is answered).
const ANSWER: Duration = Duration::from_secs(5);
/// How long a hint may take.
const HINT: Duration = Duration::from_secs(60);

/// A game another node owns.
#[derive(Clone)]
pub struct Remote {
    cluster: Arc<Cluster>,
    id: String,
}

/// Ends a websocket's event feed when dropped.
pub struct Feed(tokio::task::AbortHandle);

impl Drop for Feed {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Remote {
    /// Game `id`, owned by another node of `cluster`.
    pub fn new(cluster: Arc<Cluster>, id: &str) -> Remote {
        Remote { cluster, id: id.to_string() }
    }

    async fn ask<T: serde::de::DeserializeOwned>(&self, req: &Request, wait: Duration) -> Result<T, ApiError> {
        let payload = serde_json::to_vec(req).map_err(|_| ApiError::Internal)?;
        let subject = self.cluster.command_subject(&self.id);
        let request = async_nats::Request::new().payload(payload.into()).timeout(Some(wait));
        let m = match self.cluster.nats.send_request(subject, request).await {
            Ok(m) => m,
            Err(e) => {
                use async_nats::RequestErrorKind as K;
                return Err(match e.kind() {
                    // The owner is gone (it died or handed the game over): the caller
                    // retries, and the game is taken over once its lease has run out.
                    K::NoResponders => ApiError::Gone,
                    K::TimedOut => ApiError::Unavailable("the game's node did not answer in time".into()),
                    K::Other => {
                        tracing::error!(game = %self.id, error = %e, "asking a game's node");
                        ApiError::Internal
                    }
                });
            }
        };
        let answer: Answer = serde_json::from_slice(&m.payload).map_err(|_| ApiError::Internal)?;
        answer.into_result()
    }

    pub(crate) async fn snapshot(&self) -> Result<Snapshot, ApiError> {
        self.ask(&Request::Snapshot, ANSWER).await
    }

    pub(crate) async fn lag(&self, seats: Vec<dama_core::Color>, rtt_ms: u32) {
        let _ = self.ask::<()>(&Request::Lag { seats, rtt_ms }, ANSWER).await;
    }

    pub(crate) async fn leave(&self, ip: IpAddr) {
        let _ = self.ask::<()>(&Request::Leave { ip }, ANSWER).await;
    }

    pub(crate) async fn join(&self, req: JoinRequest, player: Option<Player>) -> Result<Seat, ApiError> {
        self.ask(&Request::Join { req, player }, ANSWER).await
    }

    pub(crate) async fn act(&self, caller: Caller, action: Action) -> Result<(), ApiError> {
        self.ask(&Request::Act { caller, action }, ANSWER).await
    }

    pub(crate) async fn pdn(&self) -> Result<String, ApiError> {
        self.ask(&Request::Pdn, ANSWER).await
    }

    pub(crate) async fn hint(&self, token: Option<String>) -> Result<crate::protocol::view::Hint, ApiError> {
        self.ask(&Request::Hint { token }, HINT).await
    }

    /// Subscribes a websocket: listens to the game's events first, then asks the owner
    /// what the client missed, so that nothing falls between the two; events the answer
    /// already holds are dropped.
    pub(crate) async fn subscribe(&self, hello: Hello) -> Result<Subscription, ApiError> {
        let mut events = self.cluster.nats.subscribe(self.cluster.event_subject(&self.id)).await.map_err(|e| {
            tracing::error!(game = %self.id, error = %e, "subscribing to a game's events");
            ApiError::Internal
        })?;
        let since = hello.since;
        let req = Request::Subscribe { token: hello.token, account: hello.account, since, ip: hello.ip };
        let s: Subscribed = self.ask(&req, ANSWER).await?;
        let mut known = match &s.first {
            Catchup::Snapshot(s) => s.version,
            Catchup::Events(e) => e.last().map_or(since.unwrap_or(0), |e| e.v),
        };
        let (tx, rx) = broadcast::channel(32);
        let feed = tokio::spawn(async move {
            while let Some(m) = events.next().await {
                let Ok(event) = serde_json::from_slice::<Event>(&m.payload) else { continue };
                // Chat and suggestions carry the current version without making one.
                if event.body.versioned() {
                    if event.v <= known {
                        continue;
                    }
                    known = event.v;
                }
                // The owner's text is passed on as it came.
                let Ok(text) = Utf8Bytes::try_from(m.payload) else { continue };
                if tx.send(Arc::new(Published { event, text })).is_err() {
                    break;
                }
            }
        });
        let seats = s.seats.iter().filter_map(|c| super::link::color_of(c)).collect();
        Ok(Subscription {
            first: s.first,
            rx,
            seats,
            conn: s.conn,
            chat: s.chat,
            feed: Some(Feed(feed.abort_handle())),
        })
    }
}
