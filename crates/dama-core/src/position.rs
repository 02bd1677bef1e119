//! Positions: pieces on a board with the side to move, built only through checks.

use core::fmt;
use core::marker::PhantomData;

use crate::bits::Bits;
use crate::color::Color;
use crate::geometry::{row, valid, BoardKind, Geometry};
use crate::moves::Move;
use crate::notation::square_name;
use crate::variant::Rules;
use crate::zobrist;

/// The bit-set type of rules `R`.
pub type BB<R> = <<R as Rules>::G as Geometry>::B;

/// A position that has not been checked: pieces by dense square index
/// (0-based, internal row-major order; see `notation` for names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Side to move.
    pub side: Color,
    /// Men of each colour, one bit per dense square index.
    pub men: [u128; 2],
    /// Kings of each colour, one bit per dense square index.
    pub kings: [u128; 2],
}

/// Why a setup is not a position of the variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A square index beyond the board.
    #[error("square index {0} is not on the board")]
    SquareOutOfRange(u32),
    /// Two pieces on one square.
    #[error("square {0} holds more than one piece")]
    Overlap(String),
    /// More pieces than one side can have on this board.
    #[error("{color} has {count} pieces, more than the {max} one side can have on this board")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// Pieces found.
        count: u32,
        /// Pieces at the start.
        max: u32,
    },
    /// A man on the row where it would have been crowned.
    #[error("{color} man on {square}, its crowning row (it would be a king)")]
    ManOnCrowningRow {
        /// The side.
        color: Color,
        /// The square's name.
        square: String,
    },
    /// No piece on the board at all: no game can be played or judged from it.
    #[error("the board has no pieces")]
    Empty,
    /// A run of king moves (Frisian) that the position cannot have: the variant has no
    /// limit, the count is over it, or no king of that side stands on the square.
    #[error("{color}: {what}")]
    KingRun {
        /// The side.
        color: Color,
        /// What is wrong.
        what: String,
    },
}

/// The most pieces one side may have: the largest start position on the board
/// (Thai is also played from the 12-man setup in analysis and perft).
pub const fn max_pieces(kind: BoardKind) -> u32 {
    match kind {
        BoardKind::Dark8 => 12,
        BoardKind::Dark10 => 20,
        BoardKind::Dark12 => 30,
        BoardKind::Full8 => 16,
    }
}

/// Frisian: which king of a side has made how many non-capturing moves in a row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KingRun {
    /// Bit of the king that moved last.
    pub bit: u8,
    /// Its consecutive non-capturing moves (0 when the last move was not one).
    pub count: u8,
}

/// A legal position of rules `R`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<R: Rules> {
    pieces: [BB<R>; 2],
    kings: BB<R>,
    side: Color,
    run: [KingRun; 2],
    hash: u64,
    _rules: PhantomData<R>,
}

impl<R: Rules> Position<R> {
    /// The pieces each side has in the start position ([`Position::start`]'s rows, full).
    pub fn pieces_at_start() -> u32 {
        let l = R::G::LAYOUT;
        let per_row = if l.full { l.width } else { l.width / 2 };
        (R::START_ROWS * usize::from(per_row)) as u32
    }

    /// The start position of the variant.
    pub fn start() -> Self {
        let h = R::G::LAYOUT.height as usize;
        let mut white = BB::<R>::ZERO;
        let mut black = BB::<R>::ZERO;
        for r in R::START_GAP..R::START_GAP + R::START_ROWS {
            white |= row::<R::G>(r);
            black |= row::<R::G>(h - 1 - r);
        }
        Self::from_parts([white, black], BB::<R>::ZERO, R::FIRST)
    }

    fn from_parts(pieces: [BB<R>; 2], kings: BB<R>, side: Color) -> Self {
        let mut p = Position { pieces, kings, side, run: [KingRun::default(); 2], hash: 0, _rules: PhantomData };
        p.hash = p.compute_hash();
        p
    }

    /// Checks a setup and makes it a position.
    pub fn from_setup(s: &Setup) -> Result<Self, SetupError> {
        let l = R::G::LAYOUT;
        let n = l.squares as u32;
        let mut pieces = [BB::<R>::ZERO; 2];
        let mut kings = BB::<R>::ZERO;
        let mut seen: u128 = 0;
        for c in Color::ALL {
            let all = s.men[c.index()] | s.kings[c.index()];
            if s.men[c.index()] & s.kings[c.index()] != 0 || all & seen != 0 {
                let i = ((s.men[c.index()] & s.kings[c.index()]) | (all & seen)).trailing_zeros();
                return Err(SetupError::Overlap(square_name::<R>(i as usize)));
            }
            seen |= all;
            if n < 128 && all >> n != 0 {
                return Err(SetupError::SquareOutOfRange(127 - all.leading_zeros()));
            }
            let max = max_pieces(R::G::KIND);
            if all.count_ones() > max {
                return Err(SetupError::TooManyPieces { color: c, count: all.count_ones(), max });
            }
            let crown = Self::crowning_row(c);
            let mut m = all;
            while m != 0 {
                let i = m.trailing_zeros();
                m &= m - 1;
                let b = BB::<R>::bit(l.bit_of[i as usize] as u32);
                pieces[c.index()] |= b;
                if s.kings[c.index()] >> i & 1 != 0 {
                    kings |= b;
                } else if (b & crown).any() {
                    return Err(SetupError::ManOnCrowningRow { color: c, square: square_name::<R>(i as usize) });
                }
            }
        }
        if seen == 0 {
            return Err(SetupError::Empty);
        }
        Ok(Self::from_parts(pieces, kings, s.side))
    }

    /// Checks pieces given as bit sets (internal bit numbers, as [`Position::men`]
    /// returns them) and makes them a position: the fast way in for tools that
    /// enumerate positions, with the same checks as [`Position::from_setup`]. Frisian
    /// king-move counts start at zero, as in a setup.
    pub fn from_bits(men: [BB<R>; 2], kings: [BB<R>; 2], side: Color) -> Result<Self, SetupError> {
        let board = valid::<R::G>();
        let mut seen = BB::<R>::ZERO;
        for c in Color::ALL {
            for set in [men[c.index()], kings[c.index()]] {
                let bad = (set & seen) | (set & !board);
                if bad.any() {
                    let b = bad.lowest();
                    return Err(if (set & !board).has(b) {
                        SetupError::SquareOutOfRange(b)
                    } else {
                        SetupError::Overlap(square_name::<R>(R::G::LAYOUT.index_of_bit[b as usize] as usize))
                    });
                }
                seen |= set;
            }
            let count = (men[c.index()] | kings[c.index()]).count();
            let max = max_pieces(R::G::KIND);
            if count > max {
                return Err(SetupError::TooManyPieces { color: c, count, max });
            }
            let crowned = men[c.index()] & Self::crowning_row(c);
            if crowned.any() {
                let i = R::G::LAYOUT.index_of_bit[crowned.lowest() as usize] as usize;
                return Err(SetupError::ManOnCrowningRow { color: c, square: square_name::<R>(i) });
            }
        }
        Ok(Self::from_parts([men[0] | kings[0], men[1] | kings[1]], kings[0] | kings[1], side))
    }

    /// The unchecked setup of this position.
    pub fn to_setup(&self) -> Setup {
        let l = R::G::LAYOUT;
        let mut s = Setup { side: self.side, ..Setup::default() };
        for c in Color::ALL {
            for b in self.pieces[c.index()].iter() {
                let i = l.index_of_bit[b as usize];
                if self.kings.has(b) {
                    s.kings[c.index()] |= 1 << i;
                } else {
                    s.men[c.index()] |= 1 << i;
                }
            }
        }
        s
    }

    /// The row where men of `c` are crowned.
    #[inline(always)]
    pub fn crowning_row(c: Color) -> BB<R> {
        match c {
            Color::White => row::<R::G>(R::G::LAYOUT.height as usize - 1),
            Color::Black => row::<R::G>(0),
        }
    }

    /// Side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// Pieces of a side (internal bits).
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> BB<R> {
        self.pieces[c.index()]
    }

    /// All kings (internal bits).
    #[inline(always)]
    pub fn kings(&self) -> BB<R> {
        self.kings
    }

    /// Men of a side.
    #[inline(always)]
    pub fn men(&self, c: Color) -> BB<R> {
        self.pieces[c.index()] & !self.kings
    }

    /// Kings of a side.
    #[inline(always)]
    pub fn kings_of(&self, c: Color) -> BB<R> {
        self.pieces[c.index()] & self.kings
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> BB<R> {
        self.pieces[0] | self.pieces[1]
    }

    /// Every empty playable square.
    #[inline(always)]
    pub fn empty(&self) -> BB<R> {
        valid::<R::G>() & !self.occupied()
    }

    /// Frisian king-move runs.
    #[inline(always)]
    pub fn king_runs(&self) -> [KingRun; 2] {
        self.run
    }

    /// The same position with the given king-move runs (White's, Black's), checked:
    /// a run needs the variant's limit ([`Rules::KING_MOVE_LIMIT`]), a count up to it,
    /// and a king of its side on its square.
    pub fn with_king_runs(&self, runs: [KingRun; 2]) -> Result<Self, SetupError> {
        for c in Color::ALL {
            let r = runs[c.index()];
            if r.count == 0 {
                continue;
            }
            let bad = |what: String| Err(SetupError::KingRun { color: c, what });
            if R::KING_MOVE_LIMIT == 0 {
                return bad("this variant has no limit on king moves".into());
            }
            if r.count > R::KING_MOVE_LIMIT {
                return bad(format!("{} king moves in a row, more than the {} allowed", r.count, R::KING_MOVE_LIMIT));
            }
            if u32::from(r.bit) >= 128 || !(self.kings_of(c) & BB::<R>::bit(u32::from(r.bit))).any() {
                return bad("the king that made the moves is not on its square".into());
            }
        }
        let mut p = *self;
        p.run = runs.map(|r| if r.count == 0 { KingRun::default() } else { r });
        p.hash = p.compute_hash();
        Ok(p)
    }

    /// The Zobrist hash, kept up to date by [`Position::play`].
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from scratch (for tests).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for c in Color::ALL {
            for b in self.pieces[c.index()].iter() {
                h ^= zobrist::piece(c.index(), self.kings.has(b), b);
            }
            h ^= zobrist::king_run(c.index(), self.run[c.index()].count, self.run[c.index()].bit);
        }
        if self.side == Color::Black {
            h ^= zobrist::BLACK_TO_MOVE;
        }
        h
    }

    /// The same pieces with the other side to move.
    pub fn with_side(&self, side: Color) -> Self {
        let mut p = *self;
        p.side = side;
        p.hash = p.compute_hash();
        p
    }

    /// True when no position after `mv` can equal one before it: a capture, or a man's
    /// step forward (a Turkish man's step to the side can be undone, a king's move too).
    /// Repetitions are looked for only back to the last such move.
    #[inline]
    pub fn is_irreversible(&self, mv: &Move<BB<R>>) -> bool {
        let rows = &R::G::LAYOUT.row_of_bit;
        let forward = !self.kings.has(u32::from(mv.from)) && rows[mv.from as usize] != rows[mv.to as usize];
        mv.is_capture() || forward
    }

    /// Plays a move generated for this position and returns the new position.
    /// The move must come from this position's move list.
    #[inline(always)]
    pub fn play(&self, mv: &Move<BB<R>>) -> Self {
        let us = self.side.index();
        let them = 1 - us;
        let from = BB::<R>::bit(mv.from as u32);
        let to = BB::<R>::bit(mv.to as u32);
        let was_king = (self.kings & from).any();
        let captured = mv.captured;
        let mut h = self.hash ^ zobrist::BLACK_TO_MOVE;
        if captured.any() {
            for b in captured.iter() {
                h ^= zobrist::piece(them, self.kings.has(b), b);
            }
        }
        let mover = (self.pieces[us] & !from) | to;
        let enemy = self.pieces[them] & !captured;
        let mut kings = self.kings & !captured;
        if was_king {
            kings = (kings & !from) | to;
        } else if mv.promote {
            kings |= to;
        }
        let king_after = was_king || mv.promote;
        h ^= zobrist::piece(us, was_king, mv.from as u32) ^ zobrist::piece(us, king_after, mv.to as u32);
        let mut run = self.run;
        if R::KING_MOVE_LIMIT > 0 {
            let old = self.run[us];
            let new = if was_king && captured.is_empty() {
                let count = if old.count > 0 && old.bit == mv.from { old.count + 1 } else { 1 };
                KingRun { bit: mv.to, count: count.min(R::KING_MOVE_LIMIT) }
            } else {
                KingRun::default()
            };
            h ^= zobrist::king_run(us, old.count, old.bit) ^ zobrist::king_run(us, new.count, new.bit);
            run[us] = new;
            // A run whose king is taken is over: one position, one way to write it.
            let theirs = self.run[them];
            if theirs.count > 0 && captured.has(u32::from(theirs.bit)) {
                h ^= zobrist::king_run(them, theirs.count, theirs.bit) ^ zobrist::king_run(them, 0, 0);
                run[them] = KingRun::default();
            }
        }
        let pieces = if us == 0 { [mover, enemy] } else { [enemy, mover] };
        Position { pieces, kings, side: !self.side, run, hash: h, _rules: PhantomData }
    }
}

impl<R: Rules> Default for Position<R> {
    fn default() -> Self {
        Self::start()
    }
}

impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::fen::write_fen(self))
    }
}

impl<R: Rules> fmt::Display for Position<R> {
    /// A text diagram from White's side: `w`/`b` men, `W`/`B` kings, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = R::G::LAYOUT;
        for r in (0..l.height as i8).rev() {
            for c in 0..l.width as i8 {
                let bit = (0..128).find(|&b| l.row_of_bit[b] == r && l.col_of_bit[b] == c);
                let ch = match bit {
                    None => ' ',
                    Some(b) => {
                        let b = b as u32;
                        let k = self.kings.has(b);
                        if self.pieces[0].has(b) {
                            if k {
                                'W'
                            } else {
                                'w'
                            }
                        } else if self.pieces[1].has(b) {
                            if k {
                                'B'
                            } else {
                                'b'
                            }
                        } else {
                            '.'
                        }
                    }
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        write!(f, "{} to move", self.side)
    }
}
