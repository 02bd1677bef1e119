//! A handle to a game: its task on this node, or (cluster mode) the node that owns it,
//! reached through NATS ([`crate::cluster`]). Callers use both alike.

use std::net::IpAddr;
use std::sync::Arc;

use crate::protocol::view::{Hint, HintEnd};
use tokio::sync::{mpsc, oneshot};

use super::{Action, Caller, Hello, HintJob, JoinRequest, Player, Seat, Snapshot, Subscription};
use crate::cluster::Remote;
use crate::error::ApiError;
use crate::pool::{EnginePool, StopOnDrop};

pub(super) enum Cmd {
    Snapshot(oneshot::Sender<Snapshot>),
    Subscribe(Hello, oneshot::Sender<Result<Subscription, ApiError>>),
    Leave(IpAddr),
    /// A round trip measured on the connection of these seats' player, ms.
    Lag(Vec<dama_core::Color>, u32),
    Join(JoinRequest, Option<Player>, oneshot::Sender<Result<Seat, ApiError>>),
    Act(Caller, Action, oneshot::Sender<Result<(), ApiError>>),
    Pdn(oneshot::Sender<String>),
    Hint(Option<String>, oneshot::Sender<Result<HintJob, ApiError>>),
    /// Ends the task once the commands before it are done (a lease lost, or handed over).
    Stop,
}

/// A handle to a game.
#[derive(Clone)]
pub struct GameHandle(Inner);

#[derive(Clone)]
enum Inner {
    Local(mpsc::Sender<Cmd>),
    Remote(Remote),
}

impl GameHandle {
    pub(super) fn local(tx: mpsc::Sender<Cmd>) -> GameHandle {
        GameHandle(Inner::Local(tx))
    }

    /// The handle of a game another node owns.
    pub fn remote(r: Remote) -> GameHandle {
        GameHandle(Inner::Remote(r))
    }

    /// True for a game another node owns.
    pub fn is_remote(&self) -> bool {
        matches!(self.0, Inner::Remote(_))
    }

    /// True when the game's task (here) has ended (unloaded).
    pub fn is_closed(&self) -> bool {
        match &self.0 {
            Inner::Local(tx) => tx.is_closed(),
            Inner::Remote(_) => false,
        }
    }

    /// Completes when the game's task (here) ends.
    pub async fn closed(&self) {
        match &self.0 {
            Inner::Local(tx) => tx.closed().await,
            Inner::Remote(_) => std::future::pending().await,
        }
    }

    async fn ask<T>(tx: &mpsc::Sender<Cmd>, make: impl FnOnce(oneshot::Sender<T>) -> Cmd) -> Result<T, ApiError> {
        let (reply, rx) = oneshot::channel();
        tx.send(make(reply)).await.map_err(|_| ApiError::Gone)?;
        rx.await.map_err(|_| ApiError::Gone)
    }

    /// The game now.
    pub async fn snapshot(&self) -> Result<Snapshot, ApiError> {
        match &self.0 {
            Inner::Local(tx) => Self::ask(tx, Cmd::Snapshot).await,
            Inner::Remote(r) => r.snapshot().await,
        }
    }
    /// Subscribes a websocket.
    pub async fn subscribe(&self, hello: Hello) -> Result<Subscription, ApiError> {
        match &self.0 {
            Inner::Local(tx) => Self::ask(tx, |r| Cmd::Subscribe(hello, r)).await?,
            Inner::Remote(r) => r.subscribe(hello).await,
        }
    }
    /// A websocket from `ip` closed.
    pub async fn leave(&self, ip: IpAddr) {
        match &self.0 {
            Inner::Local(tx) => {
                let _ = tx.send(Cmd::Leave(ip)).await;
            }
            Inner::Remote(r) => r.leave(ip).await,
        }
    }
    /// A round trip (ms) measured on a connection holding `seats`: the player's lag,
    /// credited on their moves (a game another node owns hears it over NATS).
    pub async fn lag(&self, seats: Vec<dama_core::Color>, rtt_ms: u32) {
        match &self.0 {
            Inner::Local(tx) => {
                let _ = tx.try_send(Cmd::Lag(seats, rtt_ms));
            }
            Inner::Remote(r) => r.lag(seats, rtt_ms).await,
        }
    }

    /// Takes the free seat, for `player` when logged in.
    pub async fn join(&self, req: JoinRequest, player: Option<Player>) -> Result<Seat, ApiError> {
        match &self.0 {
            Inner::Local(tx) => Self::ask(tx, |r| Cmd::Join(req, player, r)).await?,
            Inner::Remote(r) => r.join(req, player).await,
        }
    }
    /// Acts for `caller`.
    pub async fn act(&self, caller: Caller, action: Action) -> Result<(), ApiError> {
        match &self.0 {
            Inner::Local(tx) => Self::ask(tx, |r| Cmd::Act(caller, action, r)).await?,
            Inner::Remote(r) => r.act(caller, action).await,
        }
    }
    /// The game as PDN.
    pub async fn pdn(&self) -> Result<String, ApiError> {
        match &self.0 {
            Inner::Local(tx) => Self::ask(tx, Cmd::Pdn).await,
            Inner::Remote(r) => r.pdn().await,
        }
    }
    /// A hint for the player of `token` (one at a time per game), computed on `pool`
    /// (the owner's, for a game another node owns): `{"move", "end"}`.
    pub async fn hint(&self, pool: &Arc<EnginePool>, token: Option<String>) -> Result<Hint, ApiError> {
        let tx = match &self.0 {
            Inner::Local(tx) => tx,
            Inner::Remote(r) => return r.hint(token).await,
        };
        let hint = Self::ask(tx, |r| Cmd::Hint(token, r)).await??;
        let stop = StopOnDrop(Default::default());
        let mv = pool.search(hint.job, stop.0.clone(), true).await?;
        drop(hint.busy);
        let (mv, score) = mv.ok_or(ApiError::Internal)?;
        // Where the end is known (endgame tables, or a win the search sees): who wins, in
        // how many moves of the side to move.
        let end = dama_engine::search::moves_to_end(score)
            .map(|(wins, moves)| HintEnd { result: if wins { "win" } else { "loss" }.into(), moves });
        Ok(Hint { mv, end })
    }
    /// Ends the game's task here once the commands before are done.
    pub async fn stop(&self) {
        if let Inner::Local(tx) = &self.0 {
            let _ = tx.send(Cmd::Stop).await;
        }
    }
}
