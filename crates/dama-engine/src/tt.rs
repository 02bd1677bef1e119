//! Transposition table: positions already searched, keyed by their Zobrist hash.

use dama_core::{Bits, Move};

/// The stored score is exact, a lower bound or an upper bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// No entry.
    #[default]
    None,
    /// The score is exact.
    Exact,
    /// The score is at least this (a beta cut-off).
    Lower,
    /// The score is at most this (no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry<B> {
    /// Full hash of the position.
    pub key: u64,
    /// Best move found (valid when `has_move`).
    pub mv: Move<B>,
    /// Whether `mv` is set.
    pub has_move: bool,
    /// Score (mate scores relative to this node).
    pub score: i32,
    /// Remaining depth searched.
    pub depth: i16,
    /// Kind of score.
    pub bound: Bound,
}

/// A fixed-size, always-replace-if-deeper-or-older table.
pub struct Tt<B> {
    entries: Vec<Entry<B>>,
    mask: usize,
}

impl<B: Bits> Tt<B> {
    /// A table of about `mb` megabytes (a power of two of entries).
    pub fn new(mb: usize) -> Self {
        let size = core::mem::size_of::<Entry<B>>().max(1);
        let want = (mb.max(1) << 20) / size;
        let n = want.next_power_of_two() / 2;
        Tt { entries: vec![Entry::default(); n.max(1024)], mask: n.max(1024) - 1 }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<B>> {
        let e = self.entries[key as usize & self.mask];
        (e.bound != Bound::None && e.key == key).then_some(e)
    }

    /// Stores a result (keeps a deeper result of the same position).
    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<Move<B>>, score: i32, depth: i32, bound: Bound) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key == key && slot.depth as i32 > depth && bound != Bound::Exact {
            return;
        }
        *slot = Entry {
            key,
            mv: mv.unwrap_or_default(),
            has_move: mv.is_some(),
            score,
            depth: depth.clamp(-100, 1000) as i16,
            bound,
        };
    }
}
