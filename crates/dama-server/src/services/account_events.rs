//! The event channels of the accounts whose programs listen (the bot API's stream).

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::Value;
use tokio::sync::broadcast;

/// Where this node's account events go besides its own listeners (the other nodes,
/// in cluster mode): the account and the event.
pub type Out = Box<dyn Fn(&str, &Value) + Send + Sync>;

/// The event channels of accounts whose programs listen.
#[derive(Default)]
pub struct AccountEvents {
    by_account: Mutex<HashMap<String, broadcast::Sender<Value>>>,
    out: std::sync::OnceLock<Out>,
}

impl AccountEvents {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<Value>>> {
        self.by_account.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends this node's events to `out` too (once; later calls do nothing).
    pub fn tell_others(&self, out: Out) {
        let _ = self.out.set(out);
    }

    /// Tells an account's listening programs, here and on the other nodes (nobody
    /// listening: nothing happens).
    pub fn send(&self, account: &str, event: Value) {
        if let Some(out) = self.out.get() {
            out(account, &event);
        }
        self.deliver(account, event);
    }

    /// Tells the account's programs listening on this node.
    pub fn deliver(&self, account: &str, event: Value) {
        let mut map = self.map();
        if let Some(tx) = map.get(account) {
            if tx.send(event).is_err() {
                map.remove(account);
            }
        }
    }

    /// Listens to an account's events.
    pub fn subscribe(&self, account: &str) -> broadcast::Receiver<Value> {
        self.map().entry(account.to_string()).or_insert_with(|| broadcast::channel(64).0).subscribe()
    }
}
