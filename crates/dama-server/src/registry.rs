//! The games in memory: a game is loaded from the store on first use
//! ([`Services::game`]); no lock is ever held across I/O, so a flood of requests for
//! unknown games slows no other game.

use std::time::Duration;

use tokio::time::Instant;

use crate::error::ApiError;
use crate::game::{self, GameHandle};
use crate::protocol::{Mode, Phase};
use crate::state::Services;

pub use crate::services::registry::{is_game_id, Registry, Running};

impl Services {
    /// A place for one more game in memory, or 503 when the `games_in_memory` limit is
    /// reached. The place is taken at once (the game's task keeps it while it runs;
    /// dropped before, it is free again).
    pub fn room_for_a_game(&self) -> Result<Running, ApiError> {
        self.games.reserve(self.limits.games_in_memory()).ok_or_else(|| {
            tracing::warn!(limit = self.limits.games_in_memory(), "games in memory at the limit; refusing another");
            ApiError::Unavailable("the server is full; please try again in a few minutes".into())
        })
    }

    /// The handle of a game, restoring it from the store if its task is not running.
    /// In cluster mode, a game another node owns is reached there; one nobody owns is
    /// claimed and restored here.
    pub async fn game(&self, id: &str) -> Result<GameHandle, ApiError> {
        if !is_game_id(id) {
            return Err(ApiError::NotFound(id.chars().take(64).collect()));
        }
        loop {
            let slot = self.games.slot(id);
            let got = slot
                .get_or_try_init(|| async {
                    let _permit = self.loads.acquire().await.map_err(|_| ApiError::Internal)?;
                    let place = self.room_for_a_game()?;
                    let row = self.store.game(id).await?.ok_or_else(|| ApiError::NotFound(id.to_string()))?;
                    if let Some(c) = &self.cluster {
                        if !crate::cluster::claim(self, id).await? {
                            return Ok(GameHandle::remote(crate::cluster::Remote::new(c.clone(), id)));
                        }
                    }
                    let restored = game::restore(self.clone(), row, place).await;
                    if restored.is_err() {
                        if let Some(t) = self.store.leases().and_then(|l| l.token(id)) {
                            let _ = self.store.release(id, t, false).await;
                        }
                    }
                    restored
                })
                .await;
            match got {
                // Not kept: the owner may change, and the next request asks again.
                Ok(h) if h.is_remote() => {
                    let h = h.clone();
                    self.games.forget(id, &slot);
                    return Ok(h);
                }
                Ok(h) if !h.is_closed() => return Ok(h.clone()),
                Ok(_) => self.games.forget(id, &slot),
                Err(e) => {
                    self.games.forget(id, &slot);
                    return Err(e);
                }
            }
        }
    }

    /// Brings the game back at `deadline` (an unloaded game whose flag will fall then):
    /// restored, its task sees the time run out and ends the game.
    pub fn wake_at(&self, id: &str, deadline: Instant) {
        let (ctx, id) = (self.clone(), id.to_string());
        tokio::spawn(async move {
            tokio::time::sleep_until(deadline + Duration::from_millis(5)).await;
            if let Err(e) = ctx.game(&id).await {
                tracing::error!(game = %id, error = %crate::error::Chain(&e), "waking a game for its clock");
            }
        });
    }

    /// Loads the games whose clock runs (so a flag falls even if nobody comes back);
    /// other live games load when someone asks for them, or when they may have been
    /// abandoned (an unclocked game that waited longer than [`game::patience`] ends;
    /// younger ones are woken when they could be). Returns how many were loaded.
    pub async fn restore_timed(&self) -> Result<usize, ApiError> {
        let mut n = 0;
        let now = crate::game::now_ms();
        for status in [Phase::Live, Phase::Waiting] {
            for row in self.store.list(status, 1_000_000).await? {
                // Open games come back at once too: they list themselves in the lobby.
                if game::has_clock(&row) || (status == Phase::Waiting && row.mode == Mode::Open) {
                    self.game(&row.id).await?;
                    n += 1;
                } else if status == Phase::Live {
                    let at = row.created_ms.saturating_add(game::patience(row.mode));
                    if at <= now {
                        self.game(&row.id).await?;
                        n += 1;
                    } else {
                        let wait = Duration::from_millis(u64::try_from(at - now).unwrap_or(0));
                        self.wake_at(&row.id, Instant::now() + wait);
                    }
                }
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod running_tests {
    #[test]
    fn a_task_counts_while_its_guard_lives() {
        let r = super::Registry::default();
        let a = r.reserve(2).unwrap();
        let b = r.reserve(2).unwrap();
        assert_eq!(r.loaded(), 2);
        assert!(r.reserve(2).is_none(), "full");
        drop(a);
        assert_eq!(r.loaded(), 1);
        drop(b);
        assert_eq!(r.loaded(), 0);
    }

    #[test]
    fn reservations_at_once_never_overshoot_the_limit() {
        let r = super::Registry::default();
        let kept = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        if let Some(g) = r.reserve(100) {
                            kept.lock().unwrap().push(g);
                        }
                    }
                });
            }
        });
        assert_eq!((r.loaded(), kept.lock().unwrap().len()), (100, 100));
    }
}
