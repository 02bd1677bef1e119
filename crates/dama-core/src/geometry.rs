//! Board geometry: which squares exist, how they map to bits, and the eight directions.
//!
//! Boards that use only the dark squares (8x8, 10x10, 12x12) are packed with the
//! classic "ghost square" layout: `width / 2` squares a row and one unused bit after
//! every pair of rows, so that each diagonal step is a constant shift. The Turkish
//! board uses all 64 squares of a `u64`, one bit a square. Every direction comes with a
//! mask of the squares that have a neighbour that way, so a step never wraps around.
//!
//! Internal coordinates put White on the low rows and square a1 (row 0, column 0)
//! dark; variants whose physical board is mirrored (Italian, Spanish) differ only in
//! their notation, which is handled in `notation`.

use crate::bits::Bits;

/// A direction on the board, as an index into the direction tables.
pub type Dir = usize;
/// Diagonal up-right (towards Black, higher column).
pub const NE: Dir = 0;
/// Diagonal up-left.
pub const NW: Dir = 1;
/// Diagonal down-right.
pub const SE: Dir = 2;
/// Diagonal down-left.
pub const SW: Dir = 3;
/// Straight up (on dark-square boards: two rows up, the next dark square).
pub const N: Dir = 4;
/// Straight down.
pub const S: Dir = 5;
/// Straight right (on dark-square boards: two columns right).
pub const E: Dir = 6;
/// Straight left.
pub const W: Dir = 7;
/// The opposite of each direction.
pub const OPPOSITE: [Dir; 8] = [SW, SE, NW, NE, S, N, W, E];

/// The four kinds of board dama plays on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// 8x8, dark squares only (32 squares).
    Dark8,
    /// 10x10, dark squares only (50 squares).
    Dark10,
    /// 12x12, dark squares only (72 squares).
    Dark12,
    /// 8x8, all 64 squares (Turkish).
    Full8,
}

/// Everything about a board's shape, computed at compile time.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// True when all squares are used (Turkish), false for dark squares only.
    pub full: bool,
    /// Number of playable squares.
    pub squares: usize,
    /// Bit of each playable square, in internal row-major order (row 0 first).
    pub bit_of: [u8; 72],
    /// Internal row of each bit, or -1 for a ghost bit.
    pub row_of_bit: [i8; 128],
    /// Internal column of each bit, or -1 for a ghost bit.
    pub col_of_bit: [i8; 128],
    /// Dense index (into `bit_of`) of each bit, or 255.
    pub index_of_bit: [u8; 128],
    /// All playable squares.
    pub valid: u128,
    /// Bit offset of one step in each direction.
    pub offset: [i32; 8],
    /// Squares that have a neighbour in each direction.
    pub from_mask: [u128; 8],
    /// Squares of each internal row.
    pub row_mask: [u128; 12],
}

const fn delta(full: bool, d: Dir) -> (i32, i32) {
    let k = if full { 1 } else { 2 };
    match d {
        NE => (1, 1),
        NW => (1, -1),
        SE => (-1, 1),
        SW => (-1, -1),
        N => (k, 0),
        S => (-k, 0),
        E => (0, k),
        _ => (0, -k),
    }
}

const fn is_square(full: bool, w: i32, h: i32, r: i32, c: i32) -> bool {
    r >= 0 && c >= 0 && r < h && c < w && (full || (r + c) % 2 == 0)
}

const fn bit_at(full: bool, w: i32, r: i32, c: i32) -> i32 {
    if full {
        r * w + c
    } else {
        (r / 2) * (w + 1) + (r % 2) * (w / 2) + (w - 1 - c) / 2
    }
}

/// Builds the layout of a board kind.
pub const fn make_layout(kind: BoardKind) -> Layout {
    let (w, h, full) = match kind {
        BoardKind::Dark8 => (8, 8, false),
        BoardKind::Dark10 => (10, 10, false),
        BoardKind::Dark12 => (12, 12, false),
        BoardKind::Full8 => (8, 8, true),
    };
    let mut l = Layout {
        width: w as u8,
        height: h as u8,
        full,
        squares: 0,
        bit_of: [0; 72],
        row_of_bit: [-1; 128],
        col_of_bit: [-1; 128],
        index_of_bit: [255; 128],
        valid: 0,
        offset: [0; 8],
        from_mask: [0; 8],
        row_mask: [0; 12],
    };
    let mut r = 0;
    while r < h {
        let mut c = 0;
        while c < w {
            if is_square(full, w, h, r, c) {
                let b = bit_at(full, w, r, c);
                l.bit_of[l.squares] = b as u8;
                l.index_of_bit[b as usize] = l.squares as u8;
                l.row_of_bit[b as usize] = r as i8;
                l.col_of_bit[b as usize] = c as i8;
                l.valid |= 1u128 << b;
                l.row_mask[r as usize] |= 1u128 << b;
                l.squares += 1;
                let mut d = 0;
                while d < 8 {
                    let (dr, dc) = delta(full, d);
                    if is_square(full, w, h, r + dr, c + dc) {
                        let nb = bit_at(full, w, r + dr, c + dc);
                        let off = nb - b;
                        // Every step in one direction must be the same shift.
                        assert!(l.offset[d] == 0 || l.offset[d] == off);
                        l.offset[d] = off;
                        l.from_mask[d] |= 1u128 << b;
                    }
                    d += 1;
                }
            }
            c += 1;
        }
        r += 1;
    }
    l
}

/// A board shape as a type, so move generation is compiled once per board.
pub trait Geometry: Copy + Default + Send + Sync + 'static {
    /// The bit-set type wide enough for this board.
    type B: Bits;
    /// Which board this is.
    const KIND: BoardKind;
    /// The computed layout.
    const LAYOUT: Layout;
}

/// One step of every piece in `x` in direction `d`; pieces that would leave the board vanish.
#[inline(always)]
pub fn step<G: Geometry>(x: G::B, d: Dir) -> G::B {
    (x & G::B::from_u128(G::LAYOUT.from_mask[d])).shift(G::LAYOUT.offset[d])
}

/// All playable squares of `G`.
#[inline(always)]
pub fn valid<G: Geometry>() -> G::B {
    G::B::from_u128(G::LAYOUT.valid)
}

/// The squares of internal row `r` of `G`.
#[inline(always)]
pub fn row<G: Geometry>(r: usize) -> G::B {
    G::B::from_u128(G::LAYOUT.row_mask[r])
}

macro_rules! geometry {
    ($(#[$m:meta])* $name:ident, $b:ty, $kind:expr) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl Geometry for $name {
            type B = $b;
            const KIND: BoardKind = $kind;
            const LAYOUT: Layout = make_layout($kind);
        }
    };
}

geometry!(
    /// 8x8, dark squares.
    Dark8, u64, BoardKind::Dark8
);
geometry!(
    /// 10x10, dark squares.
    Dark10, u64, BoardKind::Dark10
);
geometry!(
    /// 12x12, dark squares.
    Dark12, u128, BoardKind::Dark12
);
geometry!(
    /// 8x8, all squares.
    Full8, u64, BoardKind::Full8
);

#[cfg(test)]
mod tests {
    use super::*;

    fn check<G: Geometry>(squares: usize, top_bit_limit: u32) {
        let l = G::LAYOUT;
        assert_eq!(l.squares, squares);
        assert_eq!(l.valid.count_ones() as usize, squares);
        assert!(128 - l.valid.leading_zeros() <= top_bit_limit);
        // Every step lands on a playable square one step away.
        for i in 0..l.squares {
            let b = l.bit_of[i] as u32;
            for d in 0..8 {
                let x = step::<G>(G::B::bit(b), d);
                if x.is_empty() {
                    continue;
                }
                let nb = x.lowest();
                assert!(l.valid & (1 << nb) != 0);
                let (dr, dc) = delta(l.full, d);
                assert_eq!(l.row_of_bit[nb as usize] as i32, l.row_of_bit[b as usize] as i32 + dr);
                assert_eq!(l.col_of_bit[nb as usize] as i32, l.col_of_bit[b as usize] as i32 + dc);
            }
        }
    }

    #[test]
    fn layouts_are_consistent() {
        check::<Dark8>(32, 64);
        check::<Dark10>(50, 64);
        check::<Dark12>(72, 128);
        check::<Full8>(64, 64);
    }
}
