//! A solver's move that is not the puzzle's line: the engine judges it. It is accepted
//! when it keeps the outcome of the best move (a win stays a win; otherwise it scores
//! within [`MARGIN`] of the best and keeps the solver at least [`GAIN`] up on the
//! puzzle's start); the puzzle then ends if its point is made, or goes on from there
//! with the engine's reply and line.

use std::sync::atomic::AtomicBool;

use dama_core::movegen::legal_moves;
use dama_core::{Move, Position, Rules, BB};

use super::{gains, held_from, material, wins, GAIN, MARGIN, MAX_PLIES};
use crate::search::{Limits, Searcher, MATE};

/// What the engine found of a solver's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement<M> {
    /// The move keeps the outcome of the best move.
    pub accepted: bool,
    /// The puzzle ends here, solved: its point is made, the game is over, or the
    /// puzzle has reached its longest ([`MAX_PLIES`]).
    pub solved: bool,
    /// The move's score for the solver, hundredths of a man (or a win's score).
    pub score: i32,
    /// The best move's score for the solver, searched within the same limits.
    pub best: i32,
    /// How the puzzle goes on when the move is accepted and the puzzle not solved: the
    /// opponent's reply, then the solver's moves and the replies, up to the move that
    /// makes the point (or the longest puzzle); empty otherwise.
    pub line: Vec<M>,
}

/// Judges the last move of `played`: the moves from `start` (the solver to move
/// there), the solver's and the replies alternating, the solver's last. `goal` is the
/// material gain the puzzle is about ([`super::point`] of its line), `None` for a
/// puzzle about the win of the game. Both searches (the position before the move, and
/// after it) run within `limits` on a cleared searcher, one thread: with a node or
/// depth limit, the same question gets the same answer.
pub fn judge<R: Rules>(
    s: &mut Searcher<R>,
    start: &Position<R>,
    played: &[Move<BB<R>>],
    goal: Option<i32>,
    limits: Limits,
) -> Judgement<Move<BB<R>>> {
    let k = played.len();
    if k % 2 == 0 {
        // No move, or the last one is a reply: nothing of the solver's to judge.
        return Judgement { accepted: false, solved: false, score: 0, best: 0, line: Vec::new() };
    }
    let mut positions = vec![*start];
    for m in played {
        let p = positions[positions.len() - 1].play(m);
        positions.push(p);
    }
    let hashes: Vec<u64> = positions.iter().map(Position::hash).collect();
    let (before, after) = (positions[k - 1], positions[k]);
    s.clear();
    s.root_count = 0;
    let stop = AtomicBool::new(false);
    let a = s.analyse(&before, &hashes[..k - 1], limits, 1, &stop, &mut |_| {});
    let best = a.lines.first().map_or(-MATE, |l| l.score);
    let (score, pv) = if legal_moves(&after).is_empty() {
        // The move wins the game at once.
        (MATE - 1, Vec::new())
    } else {
        let a = s.analyse(&after, &hashes[..k], limits, 1, &stop, &mut |_| {});
        a.lines.first().map_or((-MATE, Vec::new()), |l| (-l.score, l.pv.clone()))
    };
    let accepted = if wins(best) {
        wins(score)
    } else {
        wins(score) || (score > best - MARGIN && score >= material(start, start.side()) + GAIN)
    };
    if !accepted {
        return Judgement { accepted, solved: false, score, best, line: Vec::new() };
    }
    // The point: the material the puzzle is about, held from a solver's move on (the
    // engine's line looked at up to one reply past the longest puzzle).
    let window = &pv[..pv.len().min((MAX_PLIES + 1).saturating_sub(k))];
    let all: Vec<_> = played.iter().chain(window).copied().collect();
    let g = gains(start, &all);
    let made = goal.filter(|&h| h >= GAIN).and_then(|h| held_from(&g, h, k - 1));
    if made == Some(k - 1) || pv.is_empty() || k + 2 > MAX_PLIES {
        return Judgement { accepted, solved: true, score, best, line: Vec::new() };
    }
    let plies = match made {
        Some(i) => i + 1 - k,
        None => {
            let n = pv.len().min(MAX_PLIES - k);
            n - usize::from(n % 2 == 1 && n > 1)
        }
    };
    Judgement { accepted, solved: false, score, best, line: pv[..plies].to_vec() }
}
