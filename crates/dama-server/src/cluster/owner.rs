//! The owning side: a game's task here answers the other nodes' requests on the game's
//! command subject while it runs; when it ends, the game's lease is given up.

use async_nats::Message;
use futures_util::StreamExt;

use super::wire::{Answer, Request, Subscribed};
use crate::error::ApiError;
use crate::game::{GameHandle, Hello};
use crate::state::Services;

/// Answers requests for game `id` (running here as `h`) until its task ends, then
/// releases its lease (handing it over if this node is shutting down). Returns once the
/// subscription is in place at the NATS server, so that a request sent after the game
/// is announced finds it.
pub async fn serve(ctx: &Services, id: &str, h: GameHandle) -> Result<(), ApiError> {
    let Some(cluster) = ctx.cluster.clone() else { return Ok(()) };
    let token = ctx.store.leases().and_then(|l| l.token(id));
    let internal = |e: &dyn std::fmt::Display| {
        tracing::error!(game = %id, error = %e, "serving a game to the cluster");
        ApiError::Internal
    };
    let mut sub = cluster.nats.subscribe(cluster.command_subject(id)).await.map_err(|e| internal(&e))?;
    cluster.nats.flush().await.map_err(|e| internal(&e))?;
    let (ctx, id) = (ctx.clone(), id.to_string());
    tokio::spawn(async move {
        loop {
            tokio::select! {
                m = sub.next() => match m {
                    Some(m) => {
                        tokio::spawn(answer(ctx.clone(), h.clone(), m));
                    }
                    None => break,
                },
                () = h.closed() => break,
            }
        }
        drop(sub);
        if let Some(t) = token {
            let handover = ctx.shutting_down();
            if let Err(e) = ctx.store.release(&id, t, handover).await {
                tracing::warn!(game = %id, error = %crate::error::Chain(&e), "releasing a game's lease");
            }
        }
    });
    Ok(())
}

async fn answer(ctx: Services, h: GameHandle, m: Message) {
    let Some(reply) = m.reply.clone() else { return };
    let answer = match serde_json::from_slice::<Request>(&m.payload) {
        Err(e) => Answer::of::<()>(Err(ApiError::BadRequest(format!("bad request between nodes: {e}")))),
        Ok(req) => match req {
            Request::Snapshot => Answer::of(h.snapshot().await),
            Request::Subscribe { token, account, since, ip } => {
                Answer::of(h.subscribe(Hello { token, account, since, ip }).await.map(|s| {
                    let seats = s.seats.iter().map(|c| c.to_string()).collect();
                    Subscribed { first: s.first, seats, conn: s.conn, chat: s.chat }
                }))
            }
            Request::Lag { seats, rtt_ms } => {
                h.lag(seats, rtt_ms).await;
                Answer::of(Ok(()))
            }
            Request::Leave { ip } => {
                h.leave(ip).await;
                Answer::of(Ok(()))
            }
            Request::Join { req, player } => Answer::of(h.join(req, player).await),
            Request::Act { caller, action } => Answer::of(h.act(caller, action).await),
            Request::Pdn => Answer::of(h.pdn().await),
            Request::Hint { token } => Answer::of(h.hint(&ctx.pool, token).await),
        },
    };
    let Some(cluster) = ctx.cluster.as_ref() else { return };
    match serde_json::to_vec(&answer) {
        Ok(bytes) => {
            if let Err(e) = cluster.nats.publish(reply, bytes.into()).await {
                tracing::warn!(error = %e, "answering a node");
            }
        }
        Err(e) => tracing::error!(error = %e, "an answer does not serialize"),
    }
}
