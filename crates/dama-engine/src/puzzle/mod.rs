//! Puzzles from real games: positions where exactly one move wins material or the
//! game. The engine looks at the two best moves: the best must win (a man and a half
//! or more, or a known win) and every other move must fall short of it by as much.
//! The line ends at its point ([`point`]): the solver's move after which the material
//! won is held. A solver's move off the line is judged by the engine ([`judge`]).

use std::sync::atomic::AtomicBool;

use dama_core::{Move, Position, Rules, BB};

use crate::search::{plies_to_end, Limits, Searcher};

mod judge;
mod point;

pub use judge::{judge, Judgement};
pub use point::{gains, held_from, line_to_point, material, point, read_line, Point};

/// How far every other move must fall behind the winning one, in hundredths of a man.
pub const MARGIN: i32 = 50;
/// What the winning line must gain: half a man (a man 100, a king 150: crowning a man
/// is a gain, as is a man).
pub const GAIN: i32 = 50;
/// The longest solution, in plies (the solver's moves and the replies between them).
pub const MAX_PLIES: usize = 9;

/// A puzzle: its position and the winning line, the solver's move first and last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<R: Rules> {
    /// The position, the solver to move.
    pub pos: Position<R>,
    /// The line: the solver's moves and the opponent's replies, alternating.
    pub line: Vec<Move<BB<R>>>,
    /// The best move's score for the solver.
    pub score: i32,
}

fn wins(score: i32) -> bool {
    plies_to_end(score).is_some_and(|p| p > 0)
}

/// What `line` gains the side to move of `pos` in material, played to its end.
fn gain<R: Rules>(pos: &Position<R>, line: &[Move<BB<R>>]) -> i32 {
    let mut p = *pos;
    for m in line {
        p = p.play(m);
    }
    material(&p, pos.side()) - material(pos, pos.side())
}

/// Whether `pos` (reached through `history`) is a puzzle: two legal moves or more,
/// one that wins, and none other that comes close; searched within `limits`.
pub fn find<R: Rules>(s: &mut Searcher<R>, pos: &Position<R>, history: &[u64], limits: Limits) -> Option<Found<R>> {
    if dama_core::movegen::legal_moves(pos).len() < 2 {
        return None;
    }
    let stop = AtomicBool::new(false);
    let a = s.analyse(pos, history, limits, 2, &stop, &mut |_| {});
    let [best, second] = a.lines.get(..2)? else { return None };
    // The best move wins the game, or its line wins a man or more and every other
    // move falls well behind it; no other move wins the game.
    let winning = wins(best.score) || (gain(pos, &best.pv) >= GAIN && second.score <= best.score - MARGIN);
    if !winning || wins(second.score) {
        return None;
    }
    // The line up to the solver's move that makes its point (the gain held from there
    // on, looking one reply past the longest line), else the longest line that ends
    // with a solver's move.
    let window = &best.pv[..best.pv.len().min(MAX_PLIES + 1)];
    let plies = match point(&gains(pos, window)) {
        Some(p) => p.plies,
        None => {
            let n = window.len().min(MAX_PLIES);
            n - usize::from(n % 2 == 0 && n > 1)
        }
    };
    Some(Found { pos: *pos, line: best.pv[..plies].to_vec(), score: best.score })
}
