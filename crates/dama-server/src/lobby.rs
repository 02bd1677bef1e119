//! The lobby: the open games waiting for an opponent, as seeks (variant, clock, rated,
//! colour, rating range, and who seeks with their rating), kept in memory by the games'
//! tasks and streamed to every lobby websocket as they come and go.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use crate::clock::TimeControl;
use crate::protocol::{ColorChoice, RulesChoice};
use crate::rating::Speed;

/// An open game as the lobby shows it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Seek {
    /// The game's id (accepting the seek joins this game).
    pub id: String,
    /// Variant key.
    pub variant: String,
    /// The rulebook (official, or a seed rulebook of the variant).
    #[serde(default)]
    pub rules: RulesChoice,
    /// The clock.
    pub time: TimeControl,
    /// Its speed class.
    pub speed: Speed,
    /// Rated or casual.
    pub rated: bool,
    /// The colour the seeker chose: "white", "black", or "random" (drawn at creation).
    pub color: ColorChoice,
    /// Only opponents rated within this range may accept.
    pub rating_range: Option<[u32; 2]>,
    /// The seeker's name (none for an anonymous player).
    pub name: Option<String>,
    /// The seeker's rating in this variant and class (none for an anonymous player).
    pub rating: Option<i64>,
    /// When it was made, ms since the epoch.
    pub created_ms: i64,
}

impl Seek {
    /// The rating pool of its game: its variant under its rulebook.
    pub fn pool(&self) -> Option<crate::rating_pool::Pool> {
        let v = self.variant.parse().ok()?;
        crate::rating_pool::Pool::of(v, self.rules).ok()
    }
}

/// What lobby websockets hear.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LobbyEvent {
    /// A new seek.
    Seek {
        /// The seek.
        seek: Seek,
    },
    /// A seek left: accepted, cancelled or expired.
    Unseek {
        /// Its id.
        id: String,
    },
}

/// Where this node's own lobby changes go besides its subscribers (the other nodes,
/// in cluster mode).
pub type Out = Box<dyn Fn(&LobbyEvent) + Send + Sync>;

/// The open seeks and their subscribers.
pub struct Lobby {
    seeks: Mutex<HashMap<String, Seek>>,
    tx: broadcast::Sender<LobbyEvent>,
    out: OnceLock<Out>,
}

impl Default for Lobby {
    fn default() -> Self {
        Lobby { seeks: Mutex::default(), tx: broadcast::channel(256).0, out: OnceLock::new() }
    }
}

impl Lobby {
    fn seeks(&self) -> std::sync::MutexGuard<'_, HashMap<String, Seek>> {
        self.seeks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends this node's own changes to `out` too (once; later calls do nothing).
    pub fn tell_others(&self, out: Out) {
        let _ = self.out.set(out);
    }

    /// Lists a seek (again, when its game comes back into memory).
    pub fn add(&self, seek: Seek) {
        if let Some(out) = self.out.get() {
            out(&LobbyEvent::Seek { seek: seek.clone() });
        }
        self.apply(LobbyEvent::Seek { seek });
    }

    /// Takes a seek off the list.
    pub fn remove(&self, id: &str) {
        if let Some(out) = self.out.get() {
            out(&LobbyEvent::Unseek { id: id.to_string() });
        }
        self.apply(LobbyEvent::Unseek { id: id.to_string() });
    }

    /// Applies a change (this node's, or another node's) and tells the subscribers if
    /// it changed anything.
    pub fn apply(&self, e: LobbyEvent) {
        let changed = match &e {
            LobbyEvent::Seek { seek } => self.seeks().insert(seek.id.clone(), seek.clone()).as_ref() != Some(seek),
            LobbyEvent::Unseek { id } => self.seeks().remove(id).is_some(),
        };
        if changed {
            let _ = self.tx.send(e);
        }
    }

    /// One seek.
    pub fn get(&self, id: &str) -> Option<Seek> {
        self.seeks().get(id).cloned()
    }

    /// Every open seek, oldest first.
    pub fn list(&self) -> Vec<Seek> {
        let mut all: Vec<Seek> = self.seeks().values().cloned().collect();
        all.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        all
    }

    /// How many seeks are open.
    pub fn len(&self) -> usize {
        self.seeks().len()
    }

    /// True when no seek is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The stream of changes; take the list after subscribing, so no change is missed.
    pub fn subscribe(&self) -> broadcast::Receiver<LobbyEvent> {
        self.tx.subscribe()
    }
}

/// True when a player rated `rating` may accept `seek` (its range includes them).
pub fn in_range(seek: &Seek, rating: f64) -> bool {
    seek.rating_range.is_none_or(|[lo, hi]| (f64::from(lo)..=f64::from(hi)).contains(&rating.round()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(id: &str, at: i64) -> Seek {
        Seek {
            rules: RulesChoice::Official,
            id: id.into(),
            variant: "english".into(),
            time: TimeControl::Fischer { initial_ms: 180_000, increment_ms: 2000 },
            speed: Speed::Blitz,
            rated: false,
            color: ColorChoice::Random,
            rating_range: Some([1400, 1600]),
            name: None,
            rating: None,
            created_ms: at,
        }
    }

    #[test]
    fn seeks_come_and_go_and_subscribers_hear_it() {
        let l = Lobby::default();
        let mut rx = l.subscribe();
        l.add(seek("b", 2));
        l.add(seek("a", 1));
        l.add(seek("a", 1));
        assert_eq!(l.list().iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        l.remove("a");
        l.remove("a");
        let heard: Vec<LobbyEvent> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
        assert_eq!(heard.len(), 3, "an unchanged seek and a second removal say nothing: {heard:?}");
        assert_eq!(heard[2], LobbyEvent::Unseek { id: "a".into() });
        assert!(in_range(&seek("x", 0), 1500.4) && !in_range(&seek("x", 0), 1399.0));
    }
}
