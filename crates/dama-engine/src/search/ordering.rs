//! Move ordering: the table's move, captures by size, crowning, killers, then the
//! history of quiet moves; and what a cut teaches the killers and the history.

use arrayvec::ArrayVec;
use dama_core::moves::MAX_MOVES;
use dama_core::{Bits, Move, MoveList, Rules, BB};

use super::{Searcher, MAX_PLY};

/// Indices of a move list in search order.
pub(super) type Order = ArrayVec<u16, MAX_MOVES>;

/// History of quiet moves: how often a move that was tried made the cut, as a running
/// average (Scan's scheme) in units of 1/`HISTORY_ONE`, so old searches fade instead
/// of every count growing to the cap over a game. Replaced additive depth² counts:
/// International at 0.1 s/move, 200 games, +46 =125 -29, +30 Elo [-19, +78]; again
/// with other changes, +45 =129 -26, +33 [-15, +81].
pub(super) const HISTORY_ONE: i32 = 4096;
/// Each update moves the average 1/32 of the way.
const HISTORY_SHIFT: i32 = 5;

impl<R: Rules> Searcher<R> {
    /// The order to search `list` in, as indices written to `order` (a buffer of the
    /// caller's: returning a list of [`MAX_MOVES`] by value copied a kilobyte a node):
    /// the table's move, captures by size, crowning, killers, then by history.
    pub(super) fn order(&self, list: &MoveList<BB<R>>, tt_move: Option<usize>, ply: usize, order: &mut Order) {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let moves = list.as_slice();
        let key = |i: usize| -> i32 {
            if Some(i) == tt_move {
                return i32::MAX;
            }
            let m = &moves[i];
            let mut s = m.captured.count() as i32 * 10_000 + if m.promote { 5_000 } else { 0 };
            if killers[0] == Some(*m) {
                s += 4_000;
            } else if killers[1] == Some(*m) {
                s += 3_000;
            }
            s + self.history[m.from as usize * 128 + m.to as usize] * 2_999 / HISTORY_ONE
        };
        // Stable insertion sort, best first, without touching the heap: each key with
        // its index below it (a lower index ranks higher among equal keys), so one
        // array is sorted.
        let mut keyed: ArrayVec<i64, MAX_MOVES> = ArrayVec::new();
        for i in 0..moves.len() {
            let k = (i64::from(key(i)) << 16) | (0xffff - i as i64);
            let mut j = keyed.len();
            keyed.push(k);
            while j > 0 && keyed[j - 1] < k {
                keyed[j] = keyed[j - 1];
                j -= 1;
            }
            keyed[j] = k;
        }
        order.clear();
        order.extend(keyed.iter().map(|k| (0xffff - (k & 0xffff)) as u16));
    }

    /// After quiet move `m` made the cut at `ply`: it becomes the first killer, its
    /// history moves towards one, and the history of the quiet moves `tried` before it
    /// (indices into `list`) towards nothing.
    pub(super) fn note_cut(&mut self, m: Move<BB<R>>, tried: &[u16], list: &MoveList<BB<R>>, ply: usize) {
        let k = &mut self.killers[ply.min(MAX_PLY - 1)];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let h = &mut self.history[m.from as usize * 128 + m.to as usize];
        *h += (HISTORY_ONE - *h) >> HISTORY_SHIFT;
        for &j in tried {
            let b = list.as_slice()[usize::from(j)];
            if !b.promote {
                let h = &mut self.history[b.from as usize * 128 + b.to as usize];
                *h -= *h >> HISTORY_SHIFT;
            }
        }
    }
}
