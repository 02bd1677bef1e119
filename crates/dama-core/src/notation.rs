//! Square names and move text: `11-15`, `24x15x6`, `c3-d4`, `h6:f8:b4:e1`.

use crate::bits::Bits;
use crate::geometry::{step, Geometry};
use crate::movegen::generate;
use crate::moves::{Move, Routed, RoutedList};
use crate::position::{Position, BB};
use crate::variant::{Notation, Rules};

/// Internal (row, column) of a dense square index.
pub fn coords<R: Rules>(index: usize) -> (usize, usize) {
    let l = R::G::LAYOUT;
    let b = l.bit_of[index] as usize;
    (l.row_of_bit[b] as usize, l.col_of_bit[b] as usize)
}

/// Dense square index of internal (row, column), if that square is playable.
pub fn index_at<R: Rules>(row: usize, col: usize) -> Option<usize> {
    let l = R::G::LAYOUT;
    (0..l.squares).find(|&i| {
        let b = l.bit_of[i] as usize;
        l.row_of_bit[b] as usize == row && l.col_of_bit[b] as usize == col
    })
}

/// The square number of a dense index in a numeric notation.
pub fn square_number<R: Rules>(index: usize) -> usize {
    let l = R::G::LAYOUT;
    let (r, c) = coords::<R>(index);
    let (w, h) = (l.width as usize, l.height as usize);
    let half = w / 2;
    match R::NOTATION {
        Notation::NumericItalian => (h - 1 - r) * half + (w - 1 - c) / 2 + 1,
        Notation::NumericSpanish => r * half + c / 2 + 1,
        Notation::Numeric | Notation::Algebraic => (h - 1 - r) * half + c / 2 + 1,
    }
}

/// The dense index of a square number in a numeric notation.
pub fn index_of_number<R: Rules>(n: usize) -> Option<usize> {
    let l = R::G::LAYOUT;
    if l.full || n == 0 || n > l.squares {
        return None;
    }
    (0..l.squares).find(|&i| square_number::<R>(i) == n)
}

/// Algebraic name (file letter, rank number) of internal (row, column).
pub fn algebraic(row: usize, col: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// The name of a square in the variant's notation.
pub fn square_name<R: Rules>(index: usize) -> String {
    match R::NOTATION {
        Notation::Algebraic => {
            let (r, c) = coords::<R>(index);
            algebraic(r, c)
        }
        _ => square_number::<R>(index).to_string(),
    }
}

/// The name of an internal bit.
pub fn bit_name<R: Rules>(bit: u32) -> String {
    square_name::<R>(R::G::LAYOUT.index_of_bit[bit as usize] as usize)
}

/// Parses a square name (number, or algebraic such as `c3`, any case) to a dense index.
pub fn parse_square<R: Rules>(s: &str) -> Option<usize> {
    let s = s.trim();
    let bytes = s.as_bytes();
    if bytes.is_empty() {
        return None;
    }
    if bytes[0].is_ascii_digit() {
        if R::NOTATION == Notation::Algebraic {
            return None;
        }
        return s.parse::<usize>().ok().and_then(index_of_number::<R>);
    }
    if R::NOTATION != Notation::Algebraic || bytes.len() < 2 {
        return None;
    }
    let file = bytes[0].to_ascii_lowercase();
    if !file.is_ascii_lowercase() {
        return None;
    }
    let rank: usize = s[1..].parse().ok()?;
    let l = R::G::LAYOUT;
    let col = (file - b'a') as usize;
    if rank == 0 || rank > l.height as usize || col >= l.width as usize {
        return None;
    }
    index_at::<R>(rank - 1, col)
}

/// Move text as read: its squares and whether it was written as a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// Dense indices of the squares written, in order.
    pub squares: Vec<usize>,
    /// Written with `x` or `:`.
    pub capture: bool,
}

/// What is wrong with a piece of move text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Nothing to read.
    #[error("empty move")]
    Empty,
    /// A square that is not on the board.
    #[error("'{text}' at character {at} is not a square of this board")]
    BadSquare {
        /// The text read as a square.
        text: String,
        /// Character position (1-based) in the move text.
        at: usize,
    },
    /// Fewer than two squares.
    #[error("a move needs an origin and a destination square")]
    OneSquare,
    /// A character that cannot be part of a move.
    #[error("unexpected '{ch}' at character {at}")]
    Unexpected {
        /// The character.
        ch: char,
        /// Character position (1-based).
        at: usize,
    },
}

/// Why a move text is not a legal move here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text does not read as a move.
    #[error("cannot read move '{text}': {source}")]
    Text {
        /// The text.
        text: String,
        /// What is wrong.
        source: MoveTextError,
    },
    /// No legal move fits.
    #[error("'{text}' is not a legal move here: {why}")]
    Illegal {
        /// The text.
        text: String,
        /// The rule it breaks.
        why: crate::illegal::Illegal,
    },
    /// Several legal moves fit.
    #[error("'{text}' is ambiguous: it could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The text.
        text: String,
        /// The candidate moves in long form.
        candidates: Vec<String>,
    },
}

/// Reads move text such as `11-15`, `24x15x6`, `c3-d4`, `h6:f8:b4:e1`, `E3:G5`, `29x 7`.
pub fn parse_move_text<R: Rules>(text: &str) -> Result<MoveText, MoveTextError> {
    let mut squares = Vec::new();
    let mut capture = false;
    let mut cur = String::new();
    let mut cur_at = 0;
    let flush = |cur: &mut String, at: usize, squares: &mut Vec<usize>| -> Result<(), MoveTextError> {
        if cur.is_empty() {
            return Ok(());
        }
        let sq = parse_square::<R>(cur).ok_or_else(|| MoveTextError::BadSquare { text: cur.clone(), at })?;
        squares.push(sq);
        cur.clear();
        Ok(())
    };
    for (i, ch) in text.trim().chars().enumerate() {
        let at = i + 1;
        match ch {
            'x' | 'X' | ':' | '*' => {
                flush(&mut cur, cur_at, &mut squares)?;
                capture = true;
            }
            '-' => flush(&mut cur, cur_at, &mut squares)?,
            ' ' => {}
            c if c.is_ascii_alphanumeric() => {
                // A letter after digits starts a new algebraic square (e.g. "c3d4").
                if c.is_ascii_alphabetic() && !cur.is_empty() {
                    flush(&mut cur, cur_at, &mut squares)?;
                }
                if cur.is_empty() {
                    cur_at = at;
                }
                cur.push(c);
            }
            c => return Err(MoveTextError::Unexpected { ch: c, at }),
        }
    }
    flush(&mut cur, cur_at, &mut squares)?;
    match squares.len() {
        0 => Err(MoveTextError::Empty),
        1 => Err(MoveTextError::OneSquare),
        _ => Ok(MoveText { squares, capture }),
    }
}

/// Every legal move with every route it can take.
pub fn routed_moves<R: Rules>(pos: &Position<R>) -> Vec<Routed<BB<R>>> {
    let mut list = RoutedList::default();
    generate(pos, &mut list);
    list.moves
}

/// The squares (dense indices) a route stands on, the origin first.
pub fn route_squares<R: Rules>(r: &Routed<BB<R>>) -> Vec<usize> {
    let l = R::G::LAYOUT;
    r.path().iter().map(|&b| l.index_of_bit[b as usize] as usize).collect()
}

/// The route of a legal move (the first one found when several lead to it).
pub fn route_of<R: Rules>(pos: &Position<R>, mv: &Move<BB<R>>) -> Option<Vec<usize>> {
    routed_moves(pos).into_iter().find(|r| r.mv == *mv).map(|r| route_squares::<R>(&r))
}

pub(crate) fn path_matches(written: &[usize], path: &[usize]) -> bool {
    // The written squares must start and end the path and appear in it in order.
    if written.first() != path.first() || written.last() != path.last() {
        return false;
    }
    let mut it = path.iter();
    written.iter().all(|w| it.any(|p| p == w))
}

/// Finds the legal move that `text` names in `pos`.
pub fn parse_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move<BB<R>>, MoveError> {
    let mt = parse_move_text::<R>(text).map_err(|source| MoveError::Text { text: text.to_string(), source })?;
    resolve::<R>(pos, &mt, text)
}

/// Finds the legal move that parsed move text names.
pub fn resolve<R: Rules>(pos: &Position<R>, mt: &MoveText, text: &str) -> Result<Move<BB<R>>, MoveError> {
    let l = R::G::LAYOUT;
    // Fast path: origin and destination only, and exactly one move fits.
    if mt.squares.len() == 2 {
        let (from, to) = (l.bit_of[mt.squares[0]], l.bit_of[mt.squares[1]]);
        let mut list = crate::moves::MoveList::new();
        generate(pos, &mut list);
        let mut fits = list.iter().filter(|m| m.from == from && m.to == to);
        if let (Some(m), None) = (fits.next(), fits.next()) {
            return Ok(*m);
        }
    }
    // Moves whose route the text fits, and those whose whole route it is.
    let mut found: Vec<Move<BB<R>>> = Vec::new();
    let mut exact: Vec<Move<BB<R>>> = Vec::new();
    let all = routed_moves(pos);
    for r in &all {
        let path = route_squares::<R>(r);
        if path_matches(&mt.squares, &path) && !found.contains(&r.mv) {
            found.push(r.mv);
        }
        if path == mt.squares && !exact.contains(&r.mv) {
            exact.push(r.mv);
        }
    }
    // A full route written out names its move even when a longer route passes through
    // the same squares (Thai 32x23x12 beside 32x23x14x21x30x12).
    if found.len() > 1 && exact.len() == 1 {
        return Ok(exact[0]);
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => {
            let why = crate::illegal::explain(pos, &mt.squares).unwrap_or(crate::illegal::Illegal::NotAMove);
            Err(MoveError::Illegal { text: text.to_string(), why })
        }
        _ => Err(MoveError::Ambiguous {
            text: text.to_string(),
            candidates: found.iter().map(|m| move_to_string(pos, m, true)).collect(),
        }),
    }
}

/// Writes a move: short form (origin and destination) unless `long`, or unless the
/// short form would be ambiguous; long form lists every landing square.
pub fn move_to_string<R: Rules>(pos: &Position<R>, mv: &Move<BB<R>>, long: bool) -> String {
    let name = |b: u8| bit_name::<R>(b as u32);
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from), name(mv.to));
    }
    let sep = R::CAPTURE_SEP.to_string();
    let ambiguous = || {
        let mut list = crate::moves::MoveList::new();
        generate(pos, &mut list);
        list.iter().filter(|m| m.from == mv.from && m.to == mv.to && m.captured != mv.captured).count() > 0
    };
    if long || ambiguous() {
        if let Some(route) = route_of(pos, mv) {
            return route.iter().map(|&i| square_name::<R>(i)).collect::<Vec<_>>().join(&sep);
        }
    }
    format!("{}{}{}", name(mv.from), sep, name(mv.to))
}

/// A line of moves from `pos` as text, each written in the position it is played from
/// (long form for captures when `long`).
pub fn line_to_strings<R: Rules>(pos: &Position<R>, moves: &[Move<BB<R>>], long: bool) -> Vec<String> {
    let mut p = *pos;
    moves
        .iter()
        .map(|m| {
            let t = move_to_string(&p, m, long);
            p = p.play(m);
            t
        })
        .collect()
}

/// The captured squares of a route in the order they are jumped (dense indices).
pub fn captured_in_order<R: Rules>(route: &[usize], captured: BB<R>) -> Vec<usize> {
    let l = R::G::LAYOUT;
    let mut out = Vec::new();
    for w in route.windows(2) {
        let a = BB::<R>::bit(l.bit_of[w[0]] as u32);
        let b = BB::<R>::bit(l.bit_of[w[1]] as u32);
        'dirs: for d in 0..8 {
            let mut x = step::<R::G>(a, d);
            let mut seen = BB::<R>::ZERO;
            while x.any() {
                if x == b {
                    for bit in (seen & captured).iter() {
                        out.push(l.index_of_bit[bit as usize] as usize);
                    }
                    break 'dirs;
                }
                seen |= x;
                x = step::<R::G>(x, d);
            }
        }
    }
    out
}

/// A legal move as people see it: squares as dense indices, its full path of landing
/// squares, the captured squares in the order they are jumped, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDetail<B> {
    /// The move itself.
    pub mv: Move<B>,
    /// Every square the piece stands on, the origin first and the destination last
    /// (for a move with several routes, the first route found).
    pub path: Vec<usize>,
    /// Captured squares, in jump order.
    pub captured: Vec<usize>,
    /// True when a man is crowned.
    pub promote: bool,
    /// Short notation (origin and destination; long where short is ambiguous).
    pub short: String,
    /// Long notation (every landing square).
    pub long: String,
}

/// Every legal move with its path, captured squares and notation; duplicate routes
/// are merged.
pub fn detailed_moves<R: Rules>(pos: &Position<R>) -> Vec<MoveDetail<BB<R>>> {
    let mut out: Vec<MoveDetail<BB<R>>> = Vec::new();
    for r in routed_moves(pos) {
        if out.iter().any(|d| d.mv == r.mv) {
            continue;
        }
        let path = route_squares::<R>(&r);
        let captured = captured_in_order::<R>(&path, r.mv.captured);
        out.push(MoveDetail {
            mv: r.mv,
            captured,
            promote: r.mv.promote,
            short: move_to_string(pos, &r.mv, false),
            long: move_to_string(pos, &r.mv, true),
            path,
        });
    }
    out
}

/// A way to write squares, for reading and converting files in other conventions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareStyle {
    /// The variant's own notation.
    Own,
    /// Numbers: the variant's own numbering, or for algebraic variants the standard
    /// one (1 at the top left dark square seen from White; Turkish 1-64 by rows).
    Numeric,
    /// File and rank on the physical board, seen from the side that moves first
    /// (as playstrategy writes English).
    Algebraic,
    /// File and rank with White at the bottom (the PDN documents' English squares).
    AlgebraicWhiteBottom,
}

/// Physical (file, rank) indices of a square in an algebraic style.
fn physical<R: Rules>(index: usize, style: SquareStyle) -> (usize, usize) {
    let l = R::G::LAYOUT;
    let (r, c) = coords::<R>(index);
    let (w, h) = (l.width as usize, l.height as usize);
    let mirrored = matches!(R::NOTATION, Notation::NumericItalian | Notation::NumericSpanish);
    let c = if mirrored { w - 1 - c } else { c };
    if style == SquareStyle::Algebraic && R::FIRST == crate::color::Color::Black {
        (w - 1 - c, h - 1 - r)
    } else {
        (c, r)
    }
}

/// The name of a square in a given style.
pub fn square_name_styled<R: Rules>(index: usize, style: SquareStyle) -> String {
    let l = R::G::LAYOUT;
    match style {
        SquareStyle::Own => square_name::<R>(index),
        SquareStyle::Numeric => {
            if R::NOTATION != Notation::Algebraic {
                return square_number::<R>(index).to_string();
            }
            let (r, c) = coords::<R>(index);
            let (w, h) = (l.width as usize, l.height as usize);
            let n = if l.full { (h - 1 - r) * w + c + 1 } else { (h - 1 - r) * (w / 2) + c / 2 + 1 };
            n.to_string()
        }
        SquareStyle::Algebraic | SquareStyle::AlgebraicWhiteBottom => {
            let (c, r) = physical::<R>(index, style);
            algebraic(r, c)
        }
    }
}

/// Reads a square written in a given style.
pub fn parse_square_styled<R: Rules>(s: &str, style: SquareStyle) -> Option<usize> {
    if style == SquareStyle::Own {
        return parse_square::<R>(s);
    }
    let l = R::G::LAYOUT;
    (0..l.squares).find(|&i| square_name_styled::<R>(i, style).eq_ignore_ascii_case(s.trim()))
}

/// Writes a move with squares in a given style.
pub fn move_to_string_styled<R: Rules>(pos: &Position<R>, mv: &Move<BB<R>>, long: bool, style: SquareStyle) -> String {
    if style == SquareStyle::Own {
        return move_to_string(pos, mv, long);
    }
    let l = R::G::LAYOUT;
    let idx = |b: u8| l.index_of_bit[b as usize] as usize;
    let name = |i: usize| square_name_styled::<R>(i, style);
    if !mv.is_capture() {
        return format!("{}-{}", name(idx(mv.from)), name(idx(mv.to)));
    }
    let sep = if style == SquareStyle::Numeric { "x".to_string() } else { R::CAPTURE_SEP.to_string() };
    let short = move_to_string(pos, mv, false);
    let is_long = long || short.matches(R::CAPTURE_SEP).count() > 1;
    if is_long {
        if let Some(route) = route_of(pos, mv) {
            return route.iter().map(|&i| name(i)).collect::<Vec<_>>().join(&sep);
        }
    }
    format!("{}{}{}", name(idx(mv.from)), sep, name(idx(mv.to)))
}

/// Splits move text into square strings; `None` unless it is squares and separators.
fn split_squares(text: &str) -> Option<(Vec<String>, bool)> {
    let mut out = Vec::new();
    let mut capture = false;
    let mut cur = String::new();
    for ch in text.trim().chars() {
        match ch {
            'x' | 'X' | ':' | '*' | '-' => {
                if ch != '-' {
                    capture = true;
                }
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            ' ' => {}
            c if c.is_ascii_alphabetic() && !cur.is_empty() => {
                out.push(std::mem::take(&mut cur));
                cur.push(c);
            }
            c if c.is_ascii_alphanumeric() => cur.push(c),
            _ => return None,
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    Some((out, capture))
}

/// The squares of move text in a given style, as dense indices.
pub fn parse_squares_styled<R: Rules>(text: &str, style: SquareStyle) -> Option<Vec<usize>> {
    let (parts, _) = split_squares(text)?;
    parts.iter().map(|p| parse_square_styled::<R>(p, style)).collect()
}

/// Finds the legal move that text with squares in `style` names.
pub fn parse_move_styled<R: Rules>(
    pos: &Position<R>,
    text: &str,
    style: SquareStyle,
) -> Result<Move<BB<R>>, MoveError> {
    if style == SquareStyle::Own {
        return parse_move(pos, text);
    }
    let bad = |t: &str| MoveError::Text {
        text: text.to_string(),
        source: MoveTextError::BadSquare { text: t.to_string(), at: text.find(t).map_or(1, |i| i + 1) },
    };
    let (parts, capture) = split_squares(text).ok_or_else(|| bad(text))?;
    if parts.len() < 2 {
        return Err(MoveError::Text { text: text.to_string(), source: MoveTextError::OneSquare });
    }
    let mut squares = Vec::new();
    for p in &parts {
        squares.push(parse_square_styled::<R>(p, style).ok_or_else(|| bad(p))?);
    }
    resolve(pos, &MoveText { squares, capture }, text)
}

/// The file letter and destination square of the Russian short form (`ed4`).
fn file_and_square<R: Rules>(t: &str) -> Option<(char, usize)> {
    let mut chars = t.chars();
    let file = chars.next()?.to_ascii_lowercase();
    if !file.is_ascii_lowercase() || R::NOTATION != Notation::Algebraic {
        return None;
    }
    Some((file, parse_square::<R>(chars.as_str())?))
}

/// Whether `text` is written in the Russian short form, a file of origin and a square.
pub fn is_file_and_square<R: Rules>(text: &str) -> bool {
    file_and_square::<R>(text.trim()).is_some()
}

/// Russian short form: origin file and destination (`ed4`, a king's `fe3`): `None`
/// when the text is not of that form, otherwise the one legal move from that file to
/// that square, or the error naming every candidate (or saying that none fits).
pub fn parse_file_and_square<R: Rules>(pos: &Position<R>, text: &str) -> Option<Result<Move<BB<R>>, MoveError>> {
    let t = text.trim();
    let (file, to) = file_and_square::<R>(t)?;
    let l = R::G::LAYOUT;
    let col = (file as u8 - b'a') as i8;
    let mut list = crate::moves::MoveList::new();
    generate(pos, &mut list);
    let fits: Vec<Move<BB<R>>> = list
        .iter()
        .filter(|m| l.col_of_bit[m.from as usize] == col && l.index_of_bit[m.to as usize] as usize == to)
        .copied()
        .collect();
    Some(match fits.as_slice() {
        [m] => Ok(*m),
        [] => Err(MoveError::Illegal {
            text: t.to_string(),
            why: crate::illegal::Illegal::NoPieceOnFile { file: file.to_string(), square: square_name::<R>(to) },
        }),
        _ => Err(MoveError::Ambiguous {
            text: t.to_string(),
            candidates: fits.iter().map(|m| move_to_string(pos, m, true)).collect(),
        }),
    })
}
