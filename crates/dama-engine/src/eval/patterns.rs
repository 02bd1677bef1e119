//! Where the evaluation looks: overlapping windows of eight squares whose men form a
//! pattern (each square empty, own man or enemy man: 3^8 = 6,561 patterns a window),
//! as Scan's evaluation does. Dark-square boards use 4x4 regions (two squares a row,
//! four rows) at even offsets; the Turkish board 4x2 regions (four squares a row, two
//! rows) at every row and even columns.
//!
//! A window is read from each player's point of view. White reads it as it stands;
//! Black reads the window rotated by 180 degrees with the colours swapped, which is the
//! partner window's squares in reverse order. Both read the same table, so the
//! evaluation is exactly antisymmetric (a position and its colour-reversed mirror score
//! opposite) without any constraint on the weights.

use dama_core::geometry::Geometry;
use dama_core::{Bits, Position, Rules, BB};

/// Squares in a window.
pub const WINDOW_SQUARES: usize = 8;
/// Patterns of a window: 3^8.
pub const PATTERNS: usize = 6561;

/// One run of adjacent bits of a window: its lowest bit and its length.
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    shift: u32,
    len: u32,
}

/// A window: the runs of bits that make its eight squares, in its reading order.
#[derive(Clone, Copy, Debug, Default)]
struct Window {
    runs: [Run; 4],
    nruns: usize,
    /// The window holding these squares rotated by 180 degrees.
    partner: usize,
}

/// The windows of a board, with the tables that turn bits into pattern numbers.
#[derive(Clone, Debug)]
pub struct Patterns {
    windows: Vec<Window>,
    /// Base-3 value of an 8-bit set (bit i counts 3^i).
    tern: [u16; 256],
    /// The same for the bit-reversed set.
    tern_rev: [u16; 256],
}

/// How many windows a board has.
pub fn window_count<R: Rules>() -> usize {
    regions::<R>().len()
}

/// The regions of a board: (first row, first column, rows, columns).
fn regions<R: Rules>() -> Vec<(i32, i32, i32, i32)> {
    let l = R::G::LAYOUT;
    let (w, h) = (l.width as i32, l.height as i32);
    let mut out = Vec::new();
    if l.full {
        for r0 in 0..=h - 2 {
            for c0 in (0..=w - 4).step_by(2) {
                out.push((r0, c0, 2, 4));
            }
        }
    } else {
        for r0 in (0..=h - 4).step_by(2) {
            for c0 in (0..=w - 4).step_by(2) {
                out.push((r0, c0, 4, 4));
            }
        }
    }
    out
}

impl Patterns {
    /// The windows of `R`'s board.
    pub fn new<R: Rules>() -> Patterns {
        let l = R::G::LAYOUT;
        let (w, h) = (l.width as i32, l.height as i32);
        let regions = regions::<R>();
        let bit_at = |r: i32, c: i32| -> Option<u32> {
            (0..128u32).find(|&b| l.row_of_bit[b as usize] as i32 == r && l.col_of_bit[b as usize] as i32 == c)
        };
        let mut windows = Vec::with_capacity(regions.len());
        for &(r0, c0, rows, cols) in &regions {
            let mut win = Window::default();
            for r in r0..r0 + rows {
                let mut bits: Vec<u32> = (c0..c0 + cols).filter_map(|c| bit_at(r, c)).collect();
                bits.sort_unstable();
                debug_assert!(bits.windows(2).all(|p| p[1] == p[0] + 1), "a window row is a run of bits");
                win.runs[win.nruns] = Run { shift: bits[0], len: bits.len() as u32 };
                win.nruns += 1;
            }
            debug_assert_eq!(win.runs[..win.nruns].iter().map(|r| r.len).sum::<u32>() as usize, WINDOW_SQUARES);
            let rotated = (h - rows - r0, w - cols - c0, rows, cols);
            win.partner = regions.iter().position(|x| *x == rotated).expect("the rotated region is a window");
            windows.push(win);
        }
        let mut tern = [0u16; 256];
        let mut tern_rev = [0u16; 256];
        for x in 0..256usize {
            let mut t = 0u16;
            let mut tr = 0u16;
            let mut p = 1u16;
            for i in 0..8 {
                if x >> i & 1 == 1 {
                    t += p;
                }
                if x >> (7 - i) & 1 == 1 {
                    tr += p;
                }
                p *= 3;
            }
            tern[x] = t;
            tern_rev[x] = tr;
        }
        Patterns { windows, tern, tern_rev }
    }

    /// Number of windows.
    pub fn len(&self) -> usize {
        self.windows.len()
    }

    /// True when there are no windows.
    pub fn is_empty(&self) -> bool {
        self.windows.is_empty()
    }

    #[inline(always)]
    fn read(&self, k: usize, bb: u128) -> usize {
        let w = &self.windows[k];
        let mut v = 0u32;
        let mut at = 0;
        for r in &w.runs[..w.nruns] {
            v |= (((bb >> r.shift) as u32) & ((1 << r.len) - 1)) << at;
            at += r.len;
        }
        v as usize
    }

    /// Calls `f(window, white's pattern, black's pattern)` for every window: the
    /// pattern numbers index the window's table from each side's point of view.
    #[inline]
    pub fn each<R: Rules>(&self, pos: &Position<R>, mut f: impl FnMut(usize, usize, usize)) {
        let wm = pos.men(dama_core::Color::White).to_u128();
        let bm = pos.men(dama_core::Color::Black).to_u128();
        let mut white = [(0usize, 0usize); 32];
        for (k, slot) in white.iter_mut().enumerate().take(self.windows.len()) {
            *slot = (self.read(k, wm), self.read(k, bm));
        }
        for (k, win) in self.windows.iter().enumerate() {
            let (w, b) = white[k];
            let own = self.tern[w] as usize + 2 * self.tern[b] as usize;
            let (pw, pb) = white[win.partner];
            let theirs = self.tern_rev[pb] as usize + 2 * self.tern_rev[pw] as usize;
            f(k, own, theirs);
        }
    }
}

/// The square a piece stands on from its owner's point of view: White's squares as
/// they are (dense index), Black's rotated by 180 degrees.
#[inline(always)]
pub fn own_square<R: Rules>(bit: u32, white: bool) -> usize {
    let l = R::G::LAYOUT;
    let s = l.index_of_bit[bit as usize] as usize;
    if white {
        s
    } else {
        l.squares - 1 - s
    }
}

/// Men of `pos` as bits of the board type (for callers that work on raw sets).
pub fn men<R: Rules>(pos: &Position<R>, c: dama_core::Color) -> BB<R> {
    pos.men(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::fen::parse_fen;
    use dama_core::variant::{Canadian, English, International, Turkish};

    fn symmetric<R: Rules>(fen: &str, mirrored: &str) {
        let p = Patterns::new::<R>();
        let a = parse_fen::<R>(fen).unwrap();
        let b = parse_fen::<R>(mirrored).unwrap();
        let mut pa = Vec::new();
        p.each(&a, |_, w, b| pa.push((w, b)));
        let mut pb = Vec::new();
        p.each(&b, |_, w, b| pb.push((w, b)));
        // The colour-reversed, rotated position reads each window the other way round.
        let swapped: Vec<_> = pa.iter().map(|&(w, b)| (b, w)).collect();
        assert_eq!(pb, swapped, "{fen} / {mirrored}");
    }

    #[test]
    fn windows_cover_the_board_and_pair_up() {
        assert_eq!(window_count::<English>(), 9);
        assert_eq!(window_count::<International>(), 16);
        assert_eq!(window_count::<Canadian>(), 25);
        assert_eq!(window_count::<Turkish>(), 21);
        // English: 1 is rotated onto 32; International 1 onto 50.
        symmetric::<English>("W:W21,22,25:B1,5,9", "B:W24,28,32:B8,11,12");
        symmetric::<International>("W:W31,32,46:B1,2,6", "B:W45,49,50:B5,19,20");
        symmetric::<Turkish>("W:Wa2,b2,c3:Bh7,g6", "B:Wb3,a2:Bh7,g7,f6");
    }

    #[test]
    fn the_start_reads_the_same_for_both_sides() {
        let p = Patterns::new::<International>();
        let s = Position::<International>::start();
        p.each(&s, |_, w, b| assert_eq!(w, b));
    }
}
