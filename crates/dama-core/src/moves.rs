//! Moves as the generator makes them, and a fixed-capacity list without heap use.

use arrayvec::ArrayVec;

use crate::bits::Bits;

/// The most landing squares a capture path can hold (start square included).
pub const MAX_PATH: usize = 32;

/// A move in internal bit indices: origin, destination, the pieces it captures and
/// whether the moving man is crowned. Two routes that take the same pieces from the
/// same origin to the same destination are the same `Move`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move<B> {
    /// Bit of the origin square.
    pub from: u8,
    /// Bit of the destination square (may equal `from` for a king's round trip).
    pub to: u8,
    /// True when a man becomes a king with this move.
    pub promote: bool,
    /// Captured pieces.
    pub captured: B,
}

impl<B: Bits> Move<B> {
    /// True for a capture.
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }
}

/// Capacity of a [`MoveList`]. No position reachable under the piece-count limits
/// comes near it: quiet moves are at most four per empty square.
pub const MAX_MOVES: usize = 512;

/// How capture routes that take the same pieces from one square to one square are
/// counted: the perft conventions, and what players see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Routes {
    /// Routes with the same origin, destination and captured pieces are one move (what
    /// players see and PDN writes; published "drop" counts).
    Merged,
    /// Every route is its own move, a route being the sequence of captured pieces with
    /// the square the piece lands on after each: a flying king that goes on along the
    /// same line over a second piece is one route per square it can land on before it
    /// (published "keep" counts where landing squares are kept: kish's Turkish counts).
    Every,
    /// Every route, except that a flying king sweeping on along one line over a second
    /// piece is one route whatever square it passes between them (dctl's published
    /// "keep" counts).
    Sweeps,
}

/// Receives moves from the generator.
pub trait Sink<B: Bits> {
    /// A non-capturing move.
    fn quiet(&mut self, from: u32, to: u32, promote: bool);
    /// A complete capture sequence with its precedence key (higher must be preferred)
    /// and its path of landing squares, the origin first.
    fn capture(&mut self, mv: Move<B>, key: u64, path: &[u8]);
    /// Whether a flying king going on along a line is offered from every square it can
    /// land on before the next piece (true) or from the last one only (false); `None`
    /// for the variant's own choice ([`crate::variant::Rules::COLLINEAR_ROUTES_DISTINCT`]).
    fn every_landing(&self) -> Option<bool> {
        None
    }
}

/// Decision for a capture offered with a precedence key.
#[derive(PartialEq, Eq)]
pub(crate) enum Admit {
    /// Better than all kept so far: drop them, keep this.
    Replace,
    /// As good: keep.
    Keep,
    /// Worse: ignore.
    Skip,
}

#[inline(always)]
pub(crate) fn admit(best: &mut u64, have_any: bool, key: u64) -> Admit {
    if !have_any || key > *best {
        *best = key;
        Admit::Replace
    } else if key == *best {
        Admit::Keep
    } else {
        Admit::Skip
    }
}

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList<B: Bits> {
    moves: ArrayVec<Move<B>, MAX_MOVES>,
    best: u64,
    /// How routes that end alike are counted.
    pub routes: Routes,
}

impl<B: Bits> MoveList<B> {
    /// An empty list that merges duplicate routes (what players see).
    #[inline]
    pub fn new() -> Self {
        Self::with_routes(Routes::Merged)
    }

    /// An empty list counting capture routes by `routes`.
    #[inline]
    pub fn with_routes(routes: Routes) -> Self {
        MoveList { moves: ArrayVec::new(), best: 0, routes }
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.moves.clear();
        self.best = 0;
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when there are no moves.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move<B>] {
        &self.moves
    }

    /// The moves, mutable (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move<B>] {
        &mut self.moves
    }

    /// Iterates the moves.
    pub fn iter(&self) -> core::slice::Iter<'_, Move<B>> {
        self.as_slice().iter()
    }

    #[inline(always)]
    fn push(&mut self, m: Move<B>) {
        // A full list means a position far outside real play; keeping the first
        // MAX_MOVES moves is still a list of legal moves.
        let _ = self.moves.try_push(m);
    }
}

impl<B: Bits> IntoIterator for MoveList<B> {
    type Item = Move<B>;
    type IntoIter = arrayvec::IntoIter<Move<B>, MAX_MOVES>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.into_iter()
    }
}

impl<B: Bits> Default for MoveList<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: Bits> Sink<B> for MoveList<B> {
    #[inline(always)]
    fn quiet(&mut self, from: u32, to: u32, promote: bool) {
        self.push(Move { from: from as u8, to: to as u8, promote, captured: B::ZERO });
    }

    #[inline(always)]
    fn capture(&mut self, mv: Move<B>, key: u64, _path: &[u8]) {
        match admit(&mut self.best, !self.moves.is_empty(), key) {
            Admit::Replace => self.moves.clear(),
            Admit::Keep => {
                if self.routes == Routes::Merged && self.as_slice().contains(&mv) {
                    return;
                }
            }
            Admit::Skip => return,
        }
        self.push(mv);
    }

    #[inline(always)]
    fn every_landing(&self) -> Option<bool> {
        // Merged lists end the same either way: the fewer routes, the sooner.
        Some(self.routes == Routes::Every)
    }
}

/// A capture or move with its full path, for people and notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Routed<B> {
    /// The move.
    pub mv: Move<B>,
    /// Landing squares as bits, the origin first.
    pub path: [u8; MAX_PATH],
    /// Entries used in `path`.
    pub path_len: u8,
}

impl<B: Bits> Routed<B> {
    /// The path of landing squares (bits), the origin first.
    pub fn path(&self) -> &[u8] {
        &self.path[..self.path_len as usize]
    }
}

/// Collects moves with their paths; keeps every route (callers group them).
#[derive(Default)]
pub struct RoutedList<B: Bits> {
    /// The moves with their routes.
    pub moves: Vec<Routed<B>>,
    best: u64,
}

impl<B: Bits> Sink<B> for RoutedList<B> {
    fn quiet(&mut self, from: u32, to: u32, promote: bool) {
        let mut path = [0u8; MAX_PATH];
        path[0] = from as u8;
        path[1] = to as u8;
        let mv = Move { from: from as u8, to: to as u8, promote, captured: B::ZERO };
        self.moves.push(Routed { mv, path, path_len: 2 });
    }

    fn capture(&mut self, mv: Move<B>, key: u64, p: &[u8]) {
        match admit(&mut self.best, !self.moves.is_empty(), key) {
            Admit::Replace => self.moves.clear(),
            Admit::Keep => {}
            Admit::Skip => return,
        }
        let mut path = [0u8; MAX_PATH];
        let n = p.len().min(MAX_PATH);
        path[..n].copy_from_slice(&p[..n]);
        self.moves.push(Routed { mv, path, path_len: n as u8 });
    }
}
