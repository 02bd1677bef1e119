//! Stand-in opponents for measuring the lowest levels: a random mover, and a beginner
//! who plays legal moves, looks one move ahead for material only and otherwise plays
//! at random.

use dama_core::movegen::legal_moves;
use dama_core::{Bits, Color, Move, Position, Rules, BB};
use rand::seq::SliceRandom;
use rand::Rng;

/// Who plays instead of the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persona {
    /// Any legal move, each as likely.
    Random,
    /// Takes the capture that wins most; does not leave a piece to be taken when some
    /// move avoids it; otherwise any move. Sees one move of each side, material only.
    Beginner,
}

/// Material of `c` less the opponent's: a man is 1, a king 3 (in hundredths).
fn material<R: Rules>(pos: &Position<R>, c: Color) -> i32 {
    let side = |c: Color| 100 * pos.men(c).count() as i32 + 300 * pos.kings_of(c).count() as i32;
    side(c) - side(!c)
}

/// What `mv` leaves the mover after the opponent's best reply, counting material only
/// (a win when the opponent has no move).
pub fn beginner_score<R: Rules>(pos: &Position<R>, mv: &Move<BB<R>>) -> i32 {
    let me = pos.side();
    let after = pos.play(mv);
    let replies = legal_moves(&after);
    replies.iter().map(|r| material(&after.play(r), me)).min().unwrap_or(i32::MAX)
}

/// The persona's move in `pos`, or None when there is no legal move.
pub fn choose<R: Rules>(pos: &Position<R>, persona: Persona, rng: &mut impl Rng) -> Option<Move<BB<R>>> {
    let moves: Vec<Move<BB<R>>> = legal_moves(pos).iter().copied().collect();
    match persona {
        Persona::Random => moves.choose(rng).copied(),
        Persona::Beginner => {
            let scored: Vec<(Move<BB<R>>, i32)> = moves.iter().map(|m| (*m, beginner_score(pos, m))).collect();
            let best = scored.iter().map(|s| s.1).max()?;
            let top: Vec<Move<BB<R>>> = scored.iter().filter(|s| s.1 == best).map(|s| s.0).collect();
            top.choose(rng).copied()
        }
    }
}
