//! A stored game brought back as a round: its row, its moves replayed (their clocks and
//! versions with them), the suggestions kept, the offers still pending, the result.

use dama_core::any::AnyGame;
use dama_core::Color;

use super::{engine_color, Now, Offers, Outcome, Phase, Record, Round, Seat};
use crate::clock::Clock;
use crate::protocol::{Player, RatingView};
use crate::store::{GameRow, MoveRow};

/// What a stored game brings back beside its row.
#[derive(Clone, Debug, Default)]
pub struct Stored {
    /// Its moves.
    pub moves: Vec<MoveRow>,
    /// The spectators' suggestions kept with them: (ply, move, count).
    pub kept: Vec<(i64, String, i64)>,
    /// The accounts at the seats.
    pub players: [Option<Player>; 2],
    /// What a rated game did to their ratings.
    pub ratings: [Option<RatingView>; 2],
}

/// How a game comes back: when this server started, and whether another node held the
/// game before (it died or handed the game over).
#[derive(Clone, Copy, Debug, Default)]
pub struct Resumed {
    /// When this server started, ms since the epoch.
    pub started_ms: i64,
    /// The game's lease had an owner before this node.
    pub taken_over: bool,
}

/// Why a stored game does not come back (a row the server did not write).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a stored game does not read back: {0}")]
pub struct Unreadable(pub String);

impl Round {
    /// The round of a stored game at `now`. A turn interrupted by a restart (it began
    /// before `since.started_ms`, when this server started) or by a node's death
    /// (`since.taken_over`) gets a small grace on the clock.
    pub fn restore(
        row: &GameRow,
        game: AnyGame,
        stored: Stored,
        now: Now,
        since: Resumed,
    ) -> Result<Round, Unreadable> {
        let (st, opts) = (&row.state, row.options.clone());
        let phase = st.status;
        let tokens = [st.white_token.clone(), st.black_token.clone()];
        let [white, black] = stored.players;
        let mut r = Round {
            id: row.id.clone(),
            ai: engine_color(opts.mode, tokens[0].is_some()),
            clock: Clock::of_game(&opts),
            opts,
            created_ms: row.created_ms,
            game,
            phase,
            seats: [Seat { token: tokens[0].clone(), player: white }, Seat { token: tokens[1].clone(), player: black }],
            invite_hash: row.invite_hash.clone(),
            turn_started_ms: st.turn_started_ms.unwrap_or(row.created_ms),
            held: None,
            offers: Offers::default(),
            next_game: st.next_game.clone(),
            touched: None,
            outcome: None,
            ratings: stored.ratings,
            record: Record::default(),
            votes: Vec::new(),
            version: st.version.max(0) as u64,
            lag: super::lag::Lag::default(),
        };
        // Berserk halved the time before the side's first move; the moves' stored
        // clocks say what is left after.
        for c in Color::ALL.into_iter().filter(|c| st.berserk & (1 << c.index()) != 0) {
            r.clock.go_berserk(c);
        }
        // The moves as stored; the clocks continue from the stored times.
        let mut last_at = None;
        for m in &stored.moves {
            let side = r.game.side();
            let v = r.game.play_recorded(&m.notation).map_err(|e| Unreadable(format!("move {}: {e}", m.ply)))?;
            if let Some(c) = m.clock_ms {
                r.clock.remaining[side.index()] = c.max(0) as u64;
            }
            r.record.clocks_after.push(m.clock_ms.map(|c| c.max(0) as u64));
            r.record.comments.push(Vec::new());
            r.record.history.push(v);
            last_at = Some(m.at_ms);
            r.version = r.version.max(m.v.unwrap_or(0).max(0) as u64);
        }
        for (ply, m, n) in stored.kept {
            if let Some(c) = usize::try_from(ply - 1).ok().and_then(|i| r.record.comments.get_mut(i)) {
                c.push(format!("{m} x{n}"));
            }
        }
        r.offers = Offers::restored(&st.offers, r.game.ply());
        match phase {
            Phase::Finished => {
                if let (Some(c), true) = (st.end_clock_ms, r.clock.enabled()) {
                    r.clock.remaining[r.game.side().index()] = c.max(0) as u64;
                }
                let first: Color = r.game.variant().first_to_move();
                let outcome = Outcome::stored(st.result.as_deref(), st.reason.as_deref(), first);
                // Ends its moves alone do not show (a resignation, a flag, an agreement)
                // end the game here too, so that its PDN and its end agree.
                if !matches!(r.game.status(), dama_core::game::Status::Over(_)) {
                    r.game.end(outcome.result());
                }
                r.outcome = Some(outcome);
            }
            // Stored without a turn start and without a move: the game was held (it
            // waits for its players again; the clock stands as created).
            Phase::Live if st.turn_started_ms.is_none() && stored.moves.is_empty() => {
                r.held = Some(super::Arrivals::default());
            }
            Phase::Live => {
                // The turn began with the last move or the stored turn start (a join or
                // a takeback); the time since is charged.
                let turn = r.turn_started_ms.max(last_at.unwrap_or(0));
                r.clock = r.clock_started(Now { at: now.at, ms: turn });
                r.turn_started_ms = turn;
                let elapsed = (now.ms - turn).max(0) as u64;
                let interrupted = turn < since.started_ms || since.taken_over;
                r.clock.resume(r.game.side(), elapsed, interrupted, now.at);
            }
            Phase::Waiting => {}
        }
        Ok(r)
    }
}
