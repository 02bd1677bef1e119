//! Pokes: the ids of events to look at now (a game of theirs ended), for the
//! tournament director ([`crate::tournaments::director`]), which takes the receiving
//! end once.

use std::sync::Mutex;

use tokio::sync::mpsc;

/// The director's inbox of event ids.
pub struct Pokes {
    /// Held while an event is brought forward: one step at a time in this process.
    pub steps: tokio::sync::Mutex<()>,
    tx: mpsc::UnboundedSender<String>,
    rx: Mutex<Option<mpsc::UnboundedReceiver<String>>>,
}

impl Default for Pokes {
    fn default() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Pokes { steps: Default::default(), tx, rx: Mutex::new(Some(rx)) }
    }
}

impl Pokes {
    /// Asks for event `id` to be looked at now.
    pub fn poke(&self, id: &str) {
        let _ = self.tx.send(id.to_string());
    }

    /// The receiving end, the first time it is asked for.
    pub fn take_receiver(&self) -> Option<mpsc::UnboundedReceiver<String>> {
        self.rx.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}
