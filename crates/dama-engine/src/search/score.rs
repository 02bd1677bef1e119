//! Scores and what they mean: evaluations in hundredths of a man, wins the search
//! sees to the end (`MATE - n`), wins the endgame tables know (`DB_WIN - n`), their
//! distances in plies and moves and in words, and how they are stored in the table.

use dama_core::{Bits, Color, Position, Rules};

use super::MAX_PLY;

/// Larger than any score.
pub const INF: i32 = 32_000;

/// A win now; a win in n plies scores `MATE - n`.
pub const MATE: i32 = 31_000;

/// True for scores that announce a forced win or loss.
pub fn is_mate(score: i32) -> bool {
    score.abs() > MATE - MAX_PLY as i32 * 2
}

/// A win the endgame tables know, `n` plies from the root, scores `DB_WIN - n`: below
/// a win the search sees to the end, above any evaluation.
pub const DB_WIN: i32 = 20_000;

/// Scores from this far out are distances to a known end (mate or table), not evaluations.
pub(super) const KNOWN_END: i32 = DB_WIN - 1000;

/// Plies to the end a score announces (found by the search or known from the
/// tables): positive when the side to move wins. `None` for an evaluation.
pub fn plies_to_end(score: i32) -> Option<i32> {
    if is_mate(score) {
        Some(score.signum() * (MATE - score.abs()))
    } else if score.abs() > KNOWN_END {
        Some(score.signum() * (DB_WIN - score.abs()))
    } else {
        None
    }
}

/// A known end in moves of the side to move: `(true, n)` wins in n moves, `(false, n)`
/// loses in n. `None` for an evaluation or a draw.
pub fn moves_to_end(score: i32) -> Option<(bool, i32)> {
    match plies_to_end(score)? {
        p if p > 0 => Some((true, (p + 1) / 2)),
        p if score != 0 => Some((false, -p / 2)),
        _ => None,
    }
}

/// A score in words for players: "win in 7 moves" (moves of the side to move) when the
/// end is known, otherwise men, "+0.35".
pub fn score_text(score: i32) -> String {
    match moves_to_end(score) {
        Some((true, n)) => format!("win in {n} moves"),
        Some((false, n)) => format!("loss in {n} moves"),
        None => format!("{:+.2}", f64::from(score) / 100.0),
    }
}

/// The score of a table's win (or loss, when `loses`) in `d` plies, `ply` plies from
/// the root.
pub(super) fn table_score(loses: bool, d: usize, ply: usize) -> i32 {
    let s = DB_WIN - (ply + d) as i32;
    if loses {
        -s
    } else {
        s
    }
}

/// A drawn table position for the side to move: a sliver of its material lead (a man
/// 2, a king 5 hundredths of a man), never enough to outweigh an evaluation but enough
/// that among drawn lines the search keeps its material and the opponent's chances to
/// go wrong, instead of giving pieces away because every line is a draw.
pub(super) fn drawn_score<R: Rules>(pos: &Position<R>) -> i32 {
    let material = |c: Color| 2 * pos.men(c).count() as i32 + 5 * pos.kings_of(c).count() as i32;
    material(pos.side()) - material(!pos.side())
}

/// A score as the table keeps it: a known end counted from the node, not the root.
pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score > KNOWN_END {
        score + ply as i32
    } else if score < -KNOWN_END {
        score - ply as i32
    } else {
        score
    }
}

/// A score from the table, a known end counted again from the root.
pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score > KNOWN_END {
        score - ply as i32
    } else if score < -KNOWN_END {
        score + ply as i32
    } else {
        score
    }
}
