//! Arena tournaments (lichess/lidraughts rules): players pair as they come back to the
//! lobby, and the score rewards streaks.
//!
//! Scoring: win 2, draw 1, loss 0. After two wins in a row the player is "on fire": each
//! following game scores double (win 4, draw 2) until a game that is not a win ends the
//! streak. A berserk win adds 1 point, if the game lasted long enough.

use crate::matching::max_weight_matching;
use crate::{Pairing, PlayerId};
use serde::{Deserialize, Serialize};

/// A player waiting in the arena lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    /// The player.
    pub id: PlayerId,
    /// The arena score so far.
    pub score: u32,
    /// The player's rating.
    pub rating: i32,
    /// The opponent of the player's previous game.
    pub last_opponent: Option<PlayerId>,
    /// Whites minus blacks over the event.
    pub colour_balance: i32,
}

/// Pairs the waiting players: sorted by score, then rating (highest first), neighbours meet,
/// never the immediate last opponent when another pairing of as many players avoids it;
/// White goes to the player with the lower colour balance (the higher ranked on a tie).
/// With an odd count one player (the lowest ranked, when that works) waits for the next wave.
///
/// Computed as a maximum-weight matching: the most games first, then the fewest rematches,
/// then the smallest squared rank distances.
pub fn pair(waiting: &[Waiting]) -> Vec<Pairing> {
    let mut order: Vec<&Waiting> = waiting.iter().collect();
    order.sort_by(|a, b| b.score.cmp(&a.score).then(b.rating.cmp(&a.rating)));
    let n = order.len() as i128;
    // Per game the nearness term is below (n² + 1)(2n + 1), and there are at most n/2 games,
    // so each level outweighs the sum of all the levels below it.
    let near_cap = (n * n + 1) * (2 * n + 1) * (n / 2 + 1);
    let fresh_unit = near_cap;
    let game_unit = fresh_unit * (n / 2 + 2);
    let mut edges = Vec::new();
    for i in 0..order.len() {
        for j in i + 1..order.len() {
            let (a, b) = (order[i], order[j]);
            let rematch = a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id);
            let d = (j - i) as i128;
            // Nearest neighbours first; then, a little, the higher ranked (so that with an
            // odd count the lowest ranked player is the one who waits).
            let near = (n * n - d * d) * (2 * n + 1) + (2 * n - i as i128 - j as i128);
            let w = game_unit + if rematch { 0 } else { fresh_unit } + near;
            edges.push((i, j, w));
        }
    }
    let mate = max_weight_matching(order.len(), &edges);
    let mut out = Vec::with_capacity(order.len() / 2);
    for (i, m) in mate.iter().enumerate() {
        if let Some(j) = *m {
            if i < j {
                out.push(colours(order[i], order[j]));
            }
        }
    }
    out
}

fn colours(a: &Waiting, b: &Waiting) -> Pairing {
    if b.colour_balance < a.colour_balance {
        Pairing { white: b.id, black: a.id }
    } else {
        Pairing { white: a.id, black: b.id }
    }
}

/// One finished arena game of a player, in the order played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGame {
    /// The result as points doubled: 2 win, 1 draw, 0 loss.
    pub points2: u32,
    /// Whether the player berserked (halved their clock).
    pub berserk: bool,
    /// Whether the game had enough moves for the berserk bonus.
    pub long_enough: bool,
}

/// A player's arena score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaScore {
    /// The total.
    pub points: u32,
    /// Whether the player is on fire for the next game (the last two games were wins).
    pub on_fire: bool,
    /// The points of each game, in order.
    pub sheet: Vec<u32>,
}

/// Scores a player's arena games (see the module doc).
pub fn score(games: &[ArenaGame]) -> ArenaScore {
    let mut sheet = Vec::with_capacity(games.len());
    let mut wins_in_row = 0u32;
    for g in games {
        let fire = wins_in_row >= 2;
        let base = g.points2.min(2);
        let mut points = if fire { 2 * base } else { base };
        let win = base == 2;
        if win && g.berserk && g.long_enough {
            points += 1;
        }
        sheet.push(points);
        wins_in_row = if win { wins_in_row + 1 } else { 0 };
    }
    ArenaScore { points: sheet.iter().sum(), on_fire: wins_in_row >= 2, sheet }
}
