//! Where a position sits in an endgame table: its material slice and its rank there.
//!
//! A slice holds every position with one count of men and kings per side. Within it
//! a position's index is, from the outside in: White's men among the squares a White
//! man can stand on, Black's men likewise, White's kings and Black's kings among all
//! squares (each set ranked in the combinatorial number system), then the side to
//! move. Sets are ranked independently, so some indices put two pieces on one
//! square; those are not positions and are skipped.

use core::fmt;
use core::marker::PhantomData;

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
        let c = |b: BB<R>| b.count() as u8;
        Material {
            men: [c(pos.men(Color::White)), c(pos.men(Color::Black))],
            kings: [c(pos.kings_of(Color::White)), c(pos.kings_of(Color::Black))],
        }
    }

    /// All pieces on the board.
    pub fn pieces(&self) -> u32 {
        u32::from(self.men[0] + self.men[1] + self.kings[0] + self.kings[1])
    }

    /// Pieces of one side.
    pub fn side(&self, c: Color) -> u32 {
        u32::from(self.men[c.index()] + self.kings[c.index()])
    }

    /// Every material with `n` pieces and at least one piece per side, in the order
    /// they can be built: fewer men first (a crowning leads to one man fewer).
    pub fn all_with(n: u8) -> Vec<Material> {
        let mut v = Vec::new();
        for wm in 0..=n {
            for wk in 0..=n - wm {
                for bm in 0..=n - wm - wk {
                    let bk = n - wm - wk - bm;
                    let m = Material { men: [wm, bm], kings: [wk, bk] };
                    if m.side(Color::White) > 0 && m.side(Color::Black) > 0 {
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
        Indexer { men, all: Squares::new(squares(), space), _rules: PhantomData }
    }

    /// How many indices the slice of material `m` has.
    pub fn size(&self, m: Material) -> u64 {
        let men = |c: usize| choose(self.men[c].len(), m.men[c] as usize);
        let kings = |c: usize| choose(self.all.len(), m.kings[c] as usize);
        men(0) * men(1) * kings(0) * kings(1) * 2
    }

    /// The index of a position in the slice of its material.
    #[inline]
    pub fn index(&self, m: Material, p: &Pieces<BB<R>>) -> u64 {
        let n = self.all.len();
        let mut i = self.men[0].rank(p.men[0]);
        i = i * choose(self.men[1].len(), m.men[1] as usize) + self.men[1].rank(p.men[1]);
        i = i * choose(n, m.kings[0] as usize) + self.all.rank(p.kings[0]);
        i = i * choose(n, m.kings[1] as usize) + self.all.rank(p.kings[1]);
        i * 2 + p.side.index() as u64
    }

    /// The pieces at `index` of the slice of `m`, or `None` where two share a square.
    #[inline]
    pub fn pieces(&self, m: Material, index: u64) -> Option<Pieces<BB<R>>> {
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
