//! Games without a clock that nobody plays any more end by themselves, so they do not
//! stay "live" forever: a day after the last move against the engine or on one device,
//! a week after it online. The side to move, who left, loses; a game in which a side has
//! not moved yet, or a game on one device, ends without a result ("Abandoned").

use tokio::time::Instant;

use super::{now_ms, reason, Actor, Mode, State};

/// How long an unclocked game against the engine or on one device may wait for a move.
pub const ALONE_MS: i64 = 86_400_000;
/// How long an unclocked game between two players online may wait for a move.
pub const ONLINE_MS: i64 = 7 * 86_400_000;

/// How long a game of `mode` without a clock may wait for a move (`DAMA_ABANDON_MS`
/// sets one wait for every mode, for tests and for sites that want another).
pub fn patience(mode: Mode) -> i64 {
    static SET: std::sync::OnceLock<Option<i64>> = std::sync::OnceLock::new();
    let set = *SET.get_or_init(|| std::env::var("DAMA_ABANDON_MS").ok().and_then(|v| v.parse().ok()));
    set.unwrap_or(match mode {
        Mode::Ai | Mode::Hotseat => ALONE_MS,
        Mode::Friend | Mode::Open => ONLINE_MS,
    })
}

impl Actor {
    /// When this game counts as abandoned if nobody moves before (epoch ms): unclocked
    /// live games waiting for a player (not for the engine).
    fn abandoned_at_ms(&self) -> Option<i64> {
        let waits_for_player = self.ai.color != Some(self.session.side());
        (self.state == State::Live && !self.clock.enabled() && waits_for_player)
            .then(|| self.turn_started_ms.saturating_add(patience(self.opts.mode)))
    }

    /// [`Self::abandoned_at_ms`] as an instant of the runtime's clock.
    pub(super) fn abandon_deadline(&self) -> Option<Instant> {
        let at = self.abandoned_at_ms()?;
        let wait = u64::try_from(at - now_ms()).unwrap_or(0);
        Instant::now().checked_add(std::time::Duration::from_millis(wait))
    }

    /// Ends the game if it has waited for its player longer than it may.
    pub(super) async fn end_if_abandoned(&mut self) {
        match self.abandoned_at_ms() {
            Some(at) if now_ms() >= at => {}
            _ => return,
        }
        let result = if self.session.ply() < 2 || self.opts.mode == Mode::Hotseat {
            reason::abandoned()
        } else {
            let winner = !self.session.side();
            reason::abandonment(winner, self.session.result_token(Some(winner)))
        };
        self.close(result).await;
    }
}
