//! FEN per PDN 3.0: `W:W31-50:B1-20`, `B:WK4,c3:Bb8.`, lidraughts' `:H0:F1` suffix,
//! and for Frisian lidraughts' king-move field `:+<n><square>+<n><square>` (Black's
//! run first, then White's: how many non-capturing moves in a row the king on that
//! square has made; the square is left out with a count of 0).

use crate::color::Color;
use crate::geometry::Geometry;
use crate::notation::{parse_square, parse_square_styled, square_name, square_number, SquareStyle};
use crate::position::{KingRun, Position, Setup, SetupError};
use crate::variant::{Notation, Rules};

/// What is wrong with a FEN string; `at` is a 1-based character position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing to read.
    #[error("empty FEN")]
    Empty,
    /// The side to move is not `W` or `B`.
    #[error("FEN must start with the side to move, W or B, found '{found}' at character {at}")]
    BadSide {
        /// What was found.
        found: String,
        /// Where.
        at: usize,
    },
    /// A piece list does not start with `W` or `B`.
    #[error("piece list at character {at} must start with W or B, found '{found}'")]
    BadList {
        /// What was found.
        found: String,
        /// Where.
        at: usize,
    },
    /// A square that is not on the board.
    #[error("'{text}' at character {at} is not a square of this board")]
    BadSquare {
        /// The text.
        text: String,
        /// Where.
        at: usize,
    },
    /// A range whose ends are not numbers in order.
    #[error("bad range '{text}' at character {at}")]
    BadRange {
        /// The text.
        text: String,
        /// Where.
        at: usize,
    },
    /// One colour's list given twice.
    #[error("the {0} pieces are listed twice")]
    Repeated(Color),
    /// A king-move field (`+<n><square>+<n><square>`) that does not read.
    #[error("king-move field '{text}' at character {at}: expected +<count><square>+<count><square>")]
    BadKingRuns {
        /// The text.
        text: String,
        /// Where.
        at: usize,
    },
    /// The pieces do not make a position of the variant.
    #[error("{0}")]
    Setup(#[from] SetupError),
}

/// Reads a FEN into an unchecked setup.
pub fn parse_setup<R: Rules>(fen: &str) -> Result<Setup, FenError> {
    let base = fen.len() - fen.trim_start().len();
    let mut s = fen.trim();
    let mut offset = base;
    if let Some(stripped) = s.strip_prefix('"') {
        s = stripped;
        offset += 1;
    }
    let s = s.trim_end_matches('"').trim_end();
    let s = s.strip_suffix('.').unwrap_or(s);
    if s.is_empty() {
        return Err(FenError::Empty);
    }
    let mut setup = Setup::default();
    let mut seen = [false; 2];
    let mut pos = offset;
    for (n, field) in s.split(':').enumerate() {
        let at = pos + 1;
        pos += field.chars().count() + 1;
        let f = field.trim();
        if n == 0 {
            setup.side = match f {
                "W" | "w" => Color::White,
                "B" | "b" => Color::Black,
                _ => return Err(FenError::BadSide { found: f.to_string(), at }),
            };
            continue;
        }
        let mut chars = f.chars();
        let first = chars.next();
        let color = match first {
            Some('W') | Some('w') => Color::White,
            Some('B') | Some('b') => Color::Black,
            // lidraughts adds `:H<n>` (half-move clock) and `:F<n>` (move number), and
            // for Frisian the king-move field, read by `parse_fen`.
            Some('H') | Some('F') | Some('+') if n > 2 => continue,
            _ => return Err(FenError::BadList { found: f.chars().take(8).collect(), at }),
        };
        if seen[color.index()] {
            return Err(FenError::Repeated(color));
        }
        seen[color.index()] = true;
        let body = &field[field.find(first.unwrap_or('W')).map_or(0, |i| i + 1)..];
        let mut item_at = at + (field.len() - body.len());
        for item in body.split(',') {
            let here = item_at;
            item_at += item.chars().count() + 1;
            let t = item.trim();
            if t.is_empty() {
                continue;
            }
            let (king, sq) = match t.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest.trim()),
                None => (false, t),
            };
            let mut add = |i: usize| {
                if king {
                    setup.kings[color.index()] |= 1 << i;
                } else {
                    setup.men[color.index()] |= 1 << i;
                }
            };
            let parts: Vec<&str> = sq.split('-').collect();
            if parts.len() == 2 && R::NOTATION != Notation::Algebraic {
                let bad = || FenError::BadRange { text: t.to_string(), at: here };
                let a: usize = parts[0].trim().parse().map_err(|_| bad())?;
                let b: usize = parts[1].trim().parse().map_err(|_| bad())?;
                if a > b {
                    return Err(bad());
                }
                for num in a..=b {
                    let i = crate::notation::index_of_number::<R>(num)
                        .ok_or_else(|| FenError::BadSquare { text: num.to_string(), at: here })?;
                    add(i);
                }
            } else {
                // Algebraic variants also read numbered squares (many Russian files do).
                let i = parse_square::<R>(sq)
                    .or_else(|| {
                        let numeric = R::NOTATION == Notation::Algebraic && sq.bytes().all(|b| b.is_ascii_digit());
                        numeric.then(|| parse_square_styled::<R>(sq, SquareStyle::Numeric)).flatten()
                    })
                    .ok_or_else(|| FenError::BadSquare { text: sq.to_string(), at: here })?;
                add(i);
            }
        }
    }
    Ok(setup)
}

/// Reads a FEN into a checked position (with the Frisian king-move field, if any).
pub fn parse_fen<R: Rules>(fen: &str) -> Result<Position<R>, FenError> {
    let pos = Position::from_setup(&parse_setup::<R>(fen)?)?;
    match king_runs_field::<R>(fen)? {
        Some(runs) => Ok(pos.with_king_runs(runs)?),
        None => Ok(pos),
    }
}

/// The king-move field of a FEN (`+<count><square>+<count><square>`, Black's first),
/// as (White's, Black's) runs.
fn king_runs_field<R: Rules>(fen: &str) -> Result<Option<[KingRun; 2]>, FenError> {
    let mut at = 1;
    for field in fen.trim().trim_matches('"').split(':') {
        let here = at + (field.len() - field.trim_start().len());
        at += field.chars().count() + 1;
        let f = field.trim().trim_end_matches('.');
        let Some(body) = f.strip_prefix('+') else { continue };
        let bad = || FenError::BadKingRuns { text: f.to_string(), at: here };
        let mut runs = [KingRun::default(); 2];
        let parts: Vec<&str> = body.split('+').collect();
        if parts.len() != 2 {
            return Err(bad());
        }
        // Black's run, then White's.
        for (c, part) in [Color::Black, Color::White].into_iter().zip(parts) {
            let mut chars = part.chars();
            let count = chars.next().and_then(|d| d.to_digit(10)).ok_or_else(bad)? as u8;
            let square = chars.as_str();
            runs[c.index()] = match (count, square.is_empty()) {
                (0, true) => KingRun::default(),
                (0, false) | (_, true) => return Err(bad()),
                _ => {
                    let index = parse_square::<R>(square).ok_or_else(bad)?;
                    KingRun { bit: R::G::LAYOUT.bit_of[index], count }
                }
            };
        }
        return Ok(Some(runs));
    }
    Ok(None)
}

/// Writes the canonical FEN: side, White's list, Black's list, squares in reading
/// order (ascending numbers), `K` before kings, no ranges.
pub fn write_fen<R: Rules>(pos: &Position<R>) -> String {
    let s = pos.to_setup();
    let mut out = String::new();
    out.push(s.side.letter());
    for c in Color::ALL {
        out.push(':');
        out.push(c.letter());
        let mut items: Vec<(usize, String)> = Vec::new();
        let all = s.men[c.index()] | s.kings[c.index()];
        for i in 0..128 {
            if all >> i & 1 != 0 {
                let king = s.kings[c.index()] >> i & 1 != 0;
                let name = square_name::<R>(i);
                items.push((square_number::<R>(i), if king { format!("K{name}") } else { name }));
            }
        }
        items.sort();
        out.push_str(&items.into_iter().map(|(_, n)| n).collect::<Vec<_>>().join(","));
    }
    let runs = pos.king_runs();
    if runs.iter().any(|r| r.count > 0) {
        // Frisian: the king-move field, Black's run first, as lidraughts writes it.
        let l = R::G::LAYOUT;
        out.push(':');
        for c in [Color::Black, Color::White] {
            let r = runs[c.index()];
            out.push('+');
            out.push_str(&r.count.to_string());
            if r.count > 0 {
                out.push_str(&square_name::<R>(l.index_of_bit[r.bit as usize] as usize));
            }
        }
    }
    out
}
