//! Where a position sits in an endgame table: its material slice and its rank there.
//!
//! A slice holds every position with one count of men and kings per side. Within it
//! a position's index is, from the outside in: White's men among the squares a White
//! man can stand on, Black's men likewise, White's kings and Black's kings among all
//! squares (each set ranked in the combinatorial number system), then the side to
//! move. Sets are ranked independently, so some indices put two pieces on one
//! square; those are not positions and are skipped.
//!
//! Colours are symmetric: a position and its mirror (the board turned half round, the
//! colours swapped, the other side to move) have the same value. So only one slice
//! of each mirrored pair is stored (the one whose White has more, see
//! [`Material::is_stored`]), and a slice that is its own mirror stores only the
//! positions with White to move. [`Indexer::locate`] finds any position's entry.

use core::fmt;
use core::marker::PhantomData;

use dama_core::notation::{coords, index_at};
use dama_core::{Bits, Color, Position, Rules, BB};

/// The men and kings of each side, indexed by colour (White first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Men per colour.
    pub men: [u8; 2],
    /// Kings per colour.
    pub kings: [u8; 2],
}

impl Material {
    /// The material of a position.
    pub fn of<R: Rules>(pos: &Position<R>) -> Self {
        Self::of_pieces(&Indexer::of(pos))
    }

    /// All pieces on the board.
    pub fn pieces(&self) -> u32 {
        u32::from(self.men[0] + self.men[1] + self.kings[0] + self.kings[1])
    }

    /// Pieces of one side.
    pub fn side(&self, c: Color) -> u32 {
        u32::from(self.men[c.index()] + self.kings[c.index()])
    }

    /// The material with the colours swapped.
    pub fn mirror(&self) -> Material {
        Material { men: [self.men[1], self.men[0]], kings: [self.kings[1], self.kings[0]] }
    }

    /// True when the slice is its own mirror (the same men and kings on both sides).
    pub fn is_symmetric(&self) -> bool {
        *self == self.mirror()
    }

    /// True when this slice has a table of its own; otherwise its positions are
    /// found, mirrored, in the table of [`Material::mirror`]. Of a mirrored pair the
    /// one stored is the one whose White has more men, or as many men and more kings.
    pub fn is_stored(&self) -> bool {
        (self.men[0], self.kings[0]) >= (self.men[1], self.kings[1])
    }

    /// The material of a set of pieces.
    pub fn of_pieces<B: Bits>(p: &Pieces<B>) -> Self {
        let c = |b: B| b.count() as u8;
        Material { men: [c(p.men[0]), c(p.men[1])], kings: [c(p.kings[0]), c(p.kings[1])] }
    }

    /// Every stored material (see [`Material::is_stored`]) with `n` pieces and at
    /// least one piece per side, in the order they can be built: fewer men first (a
    /// crowning leads to one man fewer).
    pub fn all_with(n: u8) -> Vec<Material> {
        let mut v = Vec::new();
        for wm in 0..=n {
            for wk in 0..=n - wm {
                for bm in 0..=n - wm - wk {
                    let bk = n - wm - wk - bm;
                    let m = Material { men: [wm, bm], kings: [wk, bk] };
                    if m.side(Color::White) > 0 && m.side(Color::Black) > 0 && m.is_stored() {
                        v.push(m);
                    }
                }
            }
        }
        v.sort_by_key(|m| (m.men[0] + m.men[1], *m));
        v
    }

    /// A packed key (one byte per count).
    pub fn key(&self) -> u32 {
        u32::from_le_bytes([self.men[0], self.kings[0], self.men[1], self.kings[1]])
    }
}

impl fmt::Display for Material {
    /// `wm-wk-bm-bk`, as in file names.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}-{}", self.men[0], self.kings[0], self.men[1], self.kings[1])
    }
}

/// Binomial coefficients C(n, k) for n < 129, k < 8.
struct Binomial([[u64; 8]; 129]);

impl Binomial {
    const fn new() -> Self {
        let mut t = [[0u64; 8]; 129];
        let mut n = 0;
        while n < 129 {
            t[n][0] = 1;
            let mut k = 1;
            while k < 8 {
                t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
                k += 1;
            }
            n += 1;
        }
        Binomial(t)
    }
}

static BINOMIAL: Binomial = Binomial::new();

/// C(n, k); zero when k > n.
#[inline]
pub fn choose(n: usize, k: usize) -> u64 {
    BINOMIAL.0[n][k]
}

/// The squares of one kind of piece: which bits they may use, in order.
#[derive(Clone, Debug)]
struct Squares {
    /// Bit numbers, in rank order.
    bits: Vec<u8>,
    /// Rank order of each bit (255: not allowed).
    order: Vec<u8>,
}

impl Squares {
    fn new(allowed: impl Iterator<Item = u32>, bit_space: usize) -> Self {
        let bits: Vec<u8> = allowed.map(|b| b as u8).collect();
        let mut order = vec![255u8; bit_space];
        for (i, &b) in bits.iter().enumerate() {
            order[b as usize] = i as u8;
        }
        Squares { bits, order }
    }

    /// Colex rank of a set of bits (all allowed).
    #[inline]
    fn rank<B: Bits>(&self, set: B) -> u64 {
        let mut ord: [u8; 8] = [0; 8];
        let mut k = 0;
        for b in set.iter() {
            ord[k] = self.order[b as usize];
            k += 1;
        }
        let ord = &mut ord[..k];
        ord.sort_unstable();
        ord.iter().enumerate().map(|(j, &p)| choose(p as usize, j + 1)).sum()
    }

    /// The set of `k` bits with colex rank `r`.
    #[inline]
    fn unrank<B: Bits>(&self, mut r: u64, k: usize) -> B {
        let mut set = B::ZERO;
        let mut hi = self.bits.len();
        for j in (1..=k).rev() {
            // The largest p < hi with C(p, j) <= r.
            let mut p = hi - 1;
            while choose(p, j) > r {
                p -= 1;
            }
            r -= choose(p, j);
            set |= B::bit(u32::from(self.bits[p]));
            hi = p;
        }
        set
    }

    fn len(&self) -> usize {
        self.bits.len()
    }
}

/// The indexing of one variant's board.
#[derive(Clone, Debug)]
pub struct Indexer<R: Rules> {
    men: [Squares; 2],
    all: Squares,
    /// The bit each bit lands on when the board is turned half round.
    turn: Vec<u8>,
    _rules: PhantomData<R>,
}

/// A position spelled out by its pieces (before the checks of a `Position`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pieces<B> {
    /// Men per colour.
    pub men: [B; 2],
    /// Kings per colour.
    pub kings: [B; 2],
    /// Side to move.
    pub side: Color,
}

impl<R: Rules> Default for Indexer<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules> Indexer<R> {
    /// The indexer of rules `R`.
    pub fn new() -> Self {
        let l = <R::G as dama_core::geometry::Geometry>::LAYOUT;
        let space = 128;
        let squares = || (0..l.squares).map(|i| u32::from(l.bit_of[i]));
        let men = Color::ALL.map(|c| {
            let crown = Position::<R>::crowning_row(c);
            Squares::new(squares().filter(|&b| !crown.has(b)), space)
        });
        let mut turn = vec![0u8; space];
        for i in 0..l.squares {
            let (r, c) = coords::<R>(i);
            let to = index_at::<R>(l.height as usize - 1 - r, l.width as usize - 1 - c);
            let to = to.expect("a board turned half round maps playable squares to playable squares");
            turn[l.bit_of[i] as usize] = l.bit_of[to];
        }
        Indexer { men, all: Squares::new(squares(), space), turn, _rules: PhantomData }
    }

    /// The mirror of a position: the board turned half round, the colours swapped,
    /// the other side to move. It has the same value for the side to move.
    pub fn mirror(&self, p: &Pieces<BB<R>>) -> Pieces<BB<R>> {
        let turn =
            |set: BB<R>| set.iter().fold(BB::<R>::ZERO, |acc, b| acc | BB::<R>::bit(u32::from(self.turn[b as usize])));
        Pieces { men: [turn(p.men[1]), turn(p.men[0])], kings: [turn(p.kings[1]), turn(p.kings[0])], side: !p.side }
    }

    /// Indices of every arrangement of material `m` with either side to move,
    /// before symmetry: see [`Indexer::every`].
    fn full_size(&self, m: Material) -> u64 {
        let men = |c: usize| choose(self.men[c].len(), m.men[c] as usize);
        let kings = |c: usize| choose(self.all.len(), m.kings[c] as usize);
        men(0) * men(1) * kings(0) * kings(1) * 2
    }

    /// How many indices the table of the stored material `m` has.
    pub fn size(&self, m: Material) -> u64 {
        debug_assert!(m.is_stored());
        self.full_size(m) / if m.is_symmetric() { 2 } else { 1 }
    }

    /// The table and index of any position of at most 8 pieces (a mirrored one's
    /// when its material is stored as its mirror).
    #[inline]
    pub fn locate(&self, p: &Pieces<BB<R>>) -> (Material, u64) {
        let m = Material::of_pieces(p);
        if m.is_stored() {
            (m, self.index(m, p))
        } else {
            (m.mirror(), self.index(m.mirror(), &self.mirror(p)))
        }
    }

    /// The index of a position in the table of its material `m`, which must be
    /// stored (see [`Indexer::locate`] for any position).
    #[inline]
    pub fn index(&self, m: Material, p: &Pieces<BB<R>>) -> u64 {
        debug_assert!(m.is_stored());
        if m.is_symmetric() {
            // Only White to move is stored; the side bit of a White position is 0.
            match p.side {
                Color::White => self.full_index(m, p) / 2,
                Color::Black => self.full_index(m, &self.mirror(p)) / 2,
            }
        } else {
            self.full_index(m, p)
        }
    }

    /// The index of a position among all arrangements of its material.
    #[inline]
    fn full_index(&self, m: Material, p: &Pieces<BB<R>>) -> u64 {
        let n = self.all.len();
        let mut i = self.men[0].rank(p.men[0]);
        i = i * choose(self.men[1].len(), m.men[1] as usize) + self.men[1].rank(p.men[1]);
        i = i * choose(n, m.kings[0] as usize) + self.all.rank(p.kings[0]);
        i = i * choose(n, m.kings[1] as usize) + self.all.rank(p.kings[1]);
        i * 2 + p.side.index() as u64
    }

    /// The pieces at `index` of the table of the stored material `m`, or `None`
    /// where two share a square.
    #[inline]
    pub fn pieces(&self, m: Material, index: u64) -> Option<Pieces<BB<R>>> {
        self.full_pieces(m, if m.is_symmetric() { index * 2 } else { index })
    }

    /// The pieces at an index among all arrangements of `m`.
    #[inline]
    fn full_pieces(&self, m: Material, index: u64) -> Option<Pieces<BB<R>>> {
        let n = self.all.len();
        let side = if index & 1 == 0 { Color::White } else { Color::Black };
        let mut i = index / 2;
        let split = |i: &mut u64, base: u64| {
            let r = *i % base;
            *i /= base;
            r
        };
        let bk = split(&mut i, choose(n, m.kings[1] as usize));
        let wk = split(&mut i, choose(n, m.kings[0] as usize));
        let bm = split(&mut i, choose(self.men[1].len(), m.men[1] as usize));
        let wm = i;
        let p: Pieces<BB<R>> = Pieces {
            men: [self.men[0].unrank(wm, m.men[0] as usize), self.men[1].unrank(bm, m.men[1] as usize)],
            kings: [self.all.unrank(wk, m.kings[0] as usize), self.all.unrank(bk, m.kings[1] as usize)],
            side,
        };
        let total = (p.men[0] | p.men[1] | p.kings[0] | p.kings[1]).count();
        (total == m.pieces()).then_some(p)
    }

    /// The position at `index` of the slice of `m`, when it is one (no shared
    /// square, no man on its crowning row).
    #[inline]
    pub fn position(&self, m: Material, index: u64) -> Option<Position<R>> {
        let p = self.pieces(m, index)?;
        Position::from_bits(p.men, p.kings, p.side).ok()
    }

    /// Every position of material `m`, stored or not, with either side to move.
    pub fn every(&self, m: Material) -> impl Iterator<Item = Position<R>> + '_ {
        (0..self.full_size(m)).filter_map(move |i| {
            let p = self.full_pieces(m, i)?;
            Position::from_bits(p.men, p.kings, p.side).ok()
        })
    }

    /// The pieces of a position.
    #[inline]
    pub fn of(pos: &Position<R>) -> Pieces<BB<R>> {
        Pieces {
            men: [pos.men(Color::White), pos.men(Color::Black)],
            kings: [pos.kings_of(Color::White), pos.kings_of(Color::Black)],
            side: pos.side(),
        }
    }
}

#[cfg(test)]
mod tests {
    use dama_core::movegen::legal_moves;
    use dama_core::variant::{English, International, Italian, Russian, Turkish};

    use super::*;

    /// Over every stored slice up to four pieces: an index gives back its pieces; the
    /// mirror of a mirror is the position itself; a position and its mirror share one
    /// entry; and the mirror has as many legal moves (the half turn with the colours
    /// swapped is a symmetry of the rules, which is why one table serves both).
    fn check<R: Rules>() {
        let ix = Indexer::<R>::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let (mut checked, mut symmetric) = (0, 0);
        for m in (2..=4).flat_map(Material::all_with) {
            assert!(m.is_stored() && (m.is_symmetric() || !m.mirror().is_stored()), "{m}");
            let size = ix.size(m);
            for _ in 0..300 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let i = (seed >> 11) % size;
                let Some(pos) = ix.position(m, i) else { continue };
                let p = Indexer::of(&pos);
                assert_eq!(ix.index(m, &p), i, "{m} {pos:?}");
                let q = ix.mirror(&p);
                assert_eq!(ix.mirror(&q), p);
                assert_eq!(ix.locate(&p), (m, i));
                assert_eq!(ix.locate(&q), (m, i), "{m} {pos:?}");
                let mirrored = Position::<R>::from_bits(q.men, q.kings, q.side).expect("a mirror is a position");
                assert_eq!(legal_moves(&mirrored).len(), legal_moves(&pos).len(), "{pos:?}");
                checked += 1;
                symmetric += usize::from(m.is_symmetric());
            }
        }
        assert!(checked > 1000 && symmetric > 100, "{checked} {symmetric}");
    }

    #[test]
    fn a_position_and_its_mirror_share_one_entry() {
        check::<English>();
        check::<Russian>();
        check::<Italian>();
        check::<Turkish>();
        check::<International>();
    }

    #[test]
    fn a_mirrored_pair_is_stored_once() {
        let ix = Indexer::<English>::new();
        // 2 kings against 1 is stored; 1 king against 2 is its mirror.
        let two_one = Material { men: [0, 0], kings: [2, 1] };
        assert!(two_one.is_stored() && !two_one.mirror().is_stored());
        // A slice that is its own mirror keeps White to move only.
        let one_one = Material { men: [0, 0], kings: [1, 1] };
        assert_eq!(ix.size(one_one), 32 * 32);
        // Two pieces: man-man, king-king, and man against king (king against man is its mirror).
        assert_eq!(Material::all_with(2).len(), 3);
    }
}
