//! What every node keeps in memory for its clients and must hear from the others: the
//! lobby's seeks (a seek lives with its game, on the game's node) and the events of
//! accounts whose programs listen (a game starts on one node, the program listens on
//! another). Each node publishes its own changes on one subject and applies the
//! others'; a node that starts asks the others for their seeks.

use std::sync::Arc;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Cluster;
use crate::lobby::LobbyEvent;
use crate::state::Services;

fn subject(c: &Cluster) -> String {
    format!("{}.shared", c.name)
}

/// A change, and the node it comes from.
#[derive(Serialize, Deserialize)]
struct Told {
    node: String,
    what: What,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum What {
    Lobby {
        event: LobbyEvent,
    },
    Account {
        account: String,
        event: Value,
    },
    /// A node started: the others tell it their seeks.
    Hello,
}

fn tell(c: &Cluster, what: What) {
    if let Ok(bytes) = serde_json::to_vec(&Told { node: c.node.clone(), what }) {
        c.send(subject(c), bytes);
    }
}

/// Links the lobby and the account events of `ctx` to the other nodes.
pub async fn start(ctx: &Services, cluster: &Arc<Cluster>) -> Result<(), async_nats::SubscribeError> {
    let mut sub = cluster.nats.subscribe(subject(cluster)).await?;
    let c = cluster.clone();
    ctx.lobby.tell_others(Box::new(move |e| tell(&c, What::Lobby { event: e.clone() })));
    let c = cluster.clone();
    ctx.bots.tell_others(Box::new(move |account, e| {
        tell(&c, What::Account { account: account.to_string(), event: e.clone() })
    }));
    let hello = cluster.clone();
    let (ctx, cluster) = (ctx.clone(), cluster.clone());
    tokio::spawn(async move {
        while let Some(m) = sub.next().await {
            let Ok(told) = serde_json::from_slice::<Told>(&m.payload) else { continue };
            if told.node == cluster.node {
                continue;
            }
            match told.what {
                What::Lobby { event } => ctx.lobby.apply(event),
                What::Account { account, event } => ctx.bots.deliver(&account, event),
                What::Hello => {
                    // This node's own seeks: those of the games it runs.
                    for seek in ctx.lobby.list() {
                        if ctx.games.running(&seek.id).is_some() {
                            tell(&cluster, What::Lobby { event: LobbyEvent::Seek { seek } });
                        }
                    }
                }
            }
        }
    });
    tell(&hello, What::Hello);
    Ok(())
}
