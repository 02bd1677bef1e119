//! One king against one king: which of these positions a side can still win.
//!
//! Seed 000 calls a game drawn when neither side can win any more. With one king each
//! that is nearly always so, but not always: the side to move may capture at once, and
//! with flying kings a king in a corner of the long diagonal can be made to step into a
//! capture (Russian `W:WKb2:BKa1`: White wins). Ending every such game as a draw also
//! takes away the last step of the classic wins with three kings (Petrov's triangle
//! sacrifices a king and takes the lone king with the next move), so dama solves the
//! few thousand king-against-king positions of a variant exactly, once, with its own
//! move generator, and calls a game drawn only where the solution is a draw.

use crate::color::Color;
use crate::geometry::Geometry;
use crate::movegen::legal_moves;
use crate::position::Position;
use crate::variant::{Rules, Variant};
use crate::{Bits, BB};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The value of a one-king-each position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Duel {
    /// Neither side can force a win.
    Draw,
    /// The side to move wins (by force).
    Win,
    /// The side to move loses (by force).
    Loss,
}

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;

type Solution = Arc<Vec<u8>>;

fn solutions() -> &'static Mutex<HashMap<Variant, Solution>> {
    static CELL: OnceLock<Mutex<HashMap<Variant, Solution>>> = OnceLock::new();
    CELL.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Index of (side to move, white king, black king), squares as dense indices.
fn index(n: usize, side: Color, white: usize, black: usize) -> usize {
    (side.index() * n + white) * n + black
}

fn lone_king<R: Rules>(pos: &Position<R>, c: Color) -> Option<usize> {
    let kings = pos.kings_of(c);
    (pos.men(c).count() == 0 && kings.count() == 1).then(|| R::G::LAYOUT.index_of_bit[kings.lowest() as usize] as usize)
}

/// Solves every one-king-each position of `R` by repeated passes until nothing
/// changes: a side that can capture the other king, or move to a position lost for
/// the opponent, wins; a side with no move, or only moves to positions won by the
/// opponent, loses; what is left is drawn.
fn solve<R: Rules>() -> Vec<u8> {
    let l = R::G::LAYOUT;
    let n = l.squares;
    let mut values = vec![UNKNOWN; 2 * n * n];
    let mut positions: Vec<(usize, Position<R>)> = Vec::new();
    for side in Color::ALL {
        for w in 0..n {
            for b in 0..n {
                if w == b {
                    continue;
                }
                let king = |i: usize| BB::<R>::bit(l.bit_of[i] as u32);
                let kings = [king(w), king(b)];
                if let Ok(pos) = Position::<R>::from_bits([BB::<R>::ZERO; 2], kings, side) {
                    positions.push((index(n, side, w, b), pos));
                }
            }
        }
    }
    loop {
        let mut changed = false;
        for (i, pos) in &positions {
            if values[*i] != UNKNOWN {
                continue;
            }
            let moves = legal_moves(pos);
            let mut all_lost = true;
            let mut won = false;
            for m in moves.iter() {
                if m.is_capture() {
                    won = true;
                    break;
                }
                let next = pos.play(m);
                let (Some(w), Some(b)) = (lone_king(&next, Color::White), lone_king(&next, Color::Black)) else {
                    all_lost = false;
                    continue;
                };
                match values[index(n, next.side(), w, b)] {
                    LOSS => {
                        won = true;
                        break;
                    }
                    WIN => {}
                    _ => all_lost = false,
                }
            }
            let v = if won {
                WIN
            } else if all_lost {
                LOSS
            } else {
                continue;
            };
            values[*i] = v;
            changed = true;
        }
        if !changed {
            return values;
        }
    }
}

/// The value of `pos` for the side to move if each side has exactly one piece and it
/// is a king; `None` otherwise. The variant's positions are solved on first use.
pub fn king_duel<R: Rules>(pos: &Position<R>) -> Option<Duel> {
    let w = lone_king(pos, Color::White)?;
    let b = lone_king(pos, Color::Black)?;
    let solution = {
        let mut cache = solutions().lock().unwrap_or_else(|e| e.into_inner());
        cache.entry(R::VARIANT).or_insert_with(|| Arc::new(solve::<R>())).clone()
    };
    let n = R::G::LAYOUT.squares;
    Some(match solution[index(n, pos.side(), w, b)] {
        WIN => Duel::Win,
        LOSS => Duel::Loss,
        _ => Duel::Draw,
    })
}
