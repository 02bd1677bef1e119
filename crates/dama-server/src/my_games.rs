//! `GET /api/me/games`: a logged-in player's games not over yet, the ones where it is
//! their move first (least time left first), each with the time its side to move has
//! left as the game's own clock says (correspondence: days).

use axum::extract::State;
use axum::Json;
use dama_core::Color;
use serde_json::json;

use crate::accounts::Me;
use crate::error::ApiError;
use crate::extract::on_game;
use crate::protocol::{Mode, Phase, Snapshot};
use crate::state::Services;

/// At most this many games are listed (oldest first among those stored).
pub const MOST: i64 = 100;

/// One game of the list.
struct Mine {
    snap: Snapshot,
    /// The player's colour ("both" on one device).
    color: Option<Color>,
}

impl Mine {
    fn my_turn(&self) -> bool {
        self.snap.state == Phase::Live
            && !self.snap.held
            && self.color.is_none_or(|c| c == self.snap.side_to_move)
            && self.snap.ai != Some(self.snap.side_to_move)
    }

    /// The time the side to move has left, ms (none without a clock).
    fn time_left(&self) -> Option<u64> {
        let c = self.snap.clocks.as_ref()?;
        Some(if self.snap.side_to_move == Color::White { c.white_ms } else { c.black_ms })
    }

    fn json(&self) -> serde_json::Value {
        let s = &self.snap;
        let opponent = match (s.mode, self.color) {
            (Mode::Ai, _) => json!({"computer": s.options.level}),
            (_, None) => json!({"one_device": true}),
            (_, Some(c)) => {
                let other = if c == Color::White { 1 } else { 0 };
                json!({"name": s.players[other].as_ref().map(|p| p.name.clone())})
            }
        };
        json!({
            "id": s.id,
            "variant": s.variant,
            "rules": s.options.rules,
            "color": self.color.map_or("both", |c| if c == Color::White { "white" } else { "black" }),
            "state": s.state,
            "held": s.held,
            "opponent": opponent,
            "side_to_move": s.side_to_move,
            "my_turn": self.my_turn(),
            "time": s.options.time,
            "time_left_ms": if s.state == Phase::Live { self.time_left() } else { None },
            "moves": s.moves.len(),
            "fen": s.fen,
        })
    }
}

/// `GET /api/me/games` → `{"games": [...]}`: the logged-in player's games waiting or
/// being played; 401 without a log-in.
pub async fn list(State(st): State<Services>, me: Me) -> Result<Json<serde_json::Value>, ApiError> {
    let me = me.required()?;
    let mut games = Vec::new();
    for id in st.store().account_open_games(&me.id, MOST).await? {
        let snap = match on_game!(st, id, |h| h.snapshot()) {
            Ok(s) => s,
            // A game that is gone (or whose node cannot be reached now) is left out.
            Err(_) => continue,
        };
        if snap.state == Phase::Finished {
            continue;
        }
        let names = |i: usize| snap.players[i].as_ref().map(|p| p.name == me.name).unwrap_or(false);
        let color = match (names(0), names(1)) {
            (true, true) => None,
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            (false, false) => continue,
        };
        games.push(Mine { snap, color });
    }
    // The player's move first, least time left first; then the others, as stored.
    games.sort_by_key(|g| (!g.my_turn(), g.time_left().unwrap_or(u64::MAX)));
    Ok(Json(json!({ "games": games.iter().map(Mine::json).collect::<Vec<_>>() })))
}
