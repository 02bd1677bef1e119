//! Evaluation: a weighted sum of features, so that the weights can be tuned from games.

use dama_core::geometry::{row, Geometry};
use dama_core::movegen::quiet_mobility;
use dama_core::variant::{KingRange, Rules};
use dama_core::{Bits, Color, Position, BB};

/// Number of features.
pub const FEATURES: usize = 10;

/// Feature names, for the tuner's report.
pub const NAMES: [&str; FEATURES] =
    ["man", "king", "advance", "back_rank", "centre", "mobility", "runaway", "king_centre", "tempo", "king_diagonal"];

/// Evaluation weights, in hundredths of a man.
pub type Weights = [i32; FEATURES];

/// Groups of variants that share one set of weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Short kings on 8x8 (English, Italian).
    ShortKings,
    /// Flying kings on 8x8 (Russian, Brazilian, Pool, Spanish, Portuguese, Czech, Thai).
    Flying8,
    /// Flying kings on 10x10 and 12x12 (International, Frisian, Canadian).
    Flying10,
    /// Orthogonal (Turkish).
    Orthogonal,
}

impl Family {
    /// The family of rules `R`.
    pub fn of<R: Rules>() -> Family {
        if R::ORTHOGONAL {
            Family::Orthogonal
        } else if R::KING == KingRange::Short {
            Family::ShortKings
        } else if R::G::LAYOUT.width >= 10 {
            Family::Flying10
        } else {
            Family::Flying8
        }
    }

    /// The key used by the tuner.
    pub fn key(self) -> &'static str {
        match self {
            Family::ShortKings => "short-kings",
            Family::Flying8 => "flying8",
            Family::Flying10 => "flying10",
            Family::Orthogonal => "orthogonal",
        }
    }

    /// Every family.
    pub const ALL: [Family; 4] = [Family::ShortKings, Family::Flying8, Family::Flying10, Family::Orthogonal];
}

/// The weights in use for a family (produced by `dama tune`, see `weights.rs`).
pub fn weights(f: Family) -> Weights {
    crate::weights::weights(f)
}

/// Masks the evaluation needs, computed once per searcher.
#[derive(Clone, Copy, Debug)]
pub struct Tables<R: Rules> {
    rows: [BB<R>; 12],
    centre: BB<R>,
    /// The long diagonal (a1 to the far corner) and, for short kings, the double
    /// corners: where a lone king holds out in a kings-only ending.
    refuge: BB<R>,
    height: usize,
}

impl<R: Rules> Default for Tables<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules> Tables<R> {
    /// Computes the masks of `R`'s board.
    pub fn new() -> Self {
        let l = R::G::LAYOUT;
        let (w, h) = (l.width as i32, l.height as i32);
        let mut centre = BB::<R>::ZERO;
        for b in 0..128u32 {
            let (r, c) = (l.row_of_bit[b as usize] as i32, l.col_of_bit[b as usize] as i32);
            if r >= 0 && (c - (w - 1) / 2).abs() <= w / 4 && (r - (h - 1) / 2).abs() <= h / 4 {
                centre |= BB::<R>::bit(b);
            }
        }
        let mut refuge = BB::<R>::ZERO;
        if !l.full {
            for b in 0..128u32 {
                let (r, c) = (l.row_of_bit[b as usize] as i32, l.col_of_bit[b as usize] as i32);
                let long_diagonal = r >= 0 && r == c;
                let double_corner =
                    R::KING == KingRange::Short && r >= 0 && (r + c - (w - 1)).abs() <= 1 && (r <= 1 || r >= h - 2);
                if long_diagonal || double_corner {
                    refuge |= BB::<R>::bit(b);
                }
            }
        }
        let mut rows = [BB::<R>::ZERO; 12];
        for (r, m) in rows.iter_mut().enumerate().take(h as usize) {
            *m = row::<R::G>(r);
        }
        Tables { rows, centre, refuge, height: h as usize }
    }

    /// Sum over men of the rows they have advanced from their own edge.
    #[inline]
    fn advance(&self, c: Color, men: BB<R>) -> i32 {
        let h = self.height;
        (1..h)
            .map(|r| {
                let own = if c == Color::White { self.rows[r] } else { self.rows[h - 1 - r] };
                (men & own).count() as i32 * r as i32
            })
            .sum()
    }

    /// Men two rows or less from crowning with no enemy piece on the rows between.
    #[inline]
    fn runaways(&self, pos: &Position<R>, c: Color) -> i32 {
        let h = self.height;
        let men = pos.men(c);
        let enemy = pos.pieces(!c);
        let (near, far, last) = match c {
            Color::White => (self.rows[h - 2], self.rows[h - 3], self.rows[h - 1]),
            Color::Black => (self.rows[1], self.rows[2], self.rows[0]),
        };
        let mut n = 0;
        if (enemy & last).is_empty() {
            n += (men & near).count() as i32;
            if (enemy & near).is_empty() {
                n += (men & far).count() as i32;
            }
        }
        n
    }
}

/// The features of a position from White's point of view (White minus Black), except
/// `tempo`, which is 1 for the side to move's benefit (signed for White).
pub fn features<R: Rules>(pos: &Position<R>, t: &Tables<R>) -> [i32; FEATURES] {
    let h = t.height;
    let side = |c: Color| -> [i32; FEATURES] {
        let men = pos.men(c);
        let kings = pos.kings_of(c);
        let back = if c == Color::White { t.rows[0] } else { t.rows[h - 1] };
        [
            men.count() as i32,
            kings.count() as i32,
            t.advance(c, men),
            (men & back).count() as i32,
            (men & t.centre).count() as i32,
            quiet_mobility(pos, c).min(40) as i32,
            t.runaways(pos, c),
            (kings & t.centre).count() as i32,
            0,
            (kings & t.refuge).count() as i32,
        ]
    };
    let (w, b) = (side(Color::White), side(Color::Black));
    let mut f = [0; FEATURES];
    for i in 0..FEATURES {
        f[i] = w[i] - b[i];
    }
    f[8] = if pos.side() == Color::White { 1 } else { -1 };
    f
}

/// The score of a position for the side to move, in hundredths of a man.
pub fn evaluate<R: Rules>(pos: &Position<R>, w: &Weights, t: &Tables<R>) -> i32 {
    let f = features(pos, t);
    let s: i32 = f.iter().zip(w).map(|(a, b)| a * b).sum();
    if pos.side() == Color::White {
        s
    } else {
        -s
    }
}

/// Material only (men 100, kings 300): the baseline the full evaluation must beat.
pub const MATERIAL_ONLY: Weights = [100, 300, 0, 0, 0, 0, 0, 0, 0, 0];
