//! Evaluation: a learned linear function of sparse features, as in Scan. Each feature
//! has a middlegame and an endgame weight, blended by how many men are left:
//!
//! - patterns of men in overlapping windows of eight squares ([`patterns`]), read by
//!   each side from its own point of view;
//! - the squares of kings, from the owner's point of view;
//! - material (men, a first king, further kings), men with a free path to the crowning
//!   row, left-right balance, kings on the long diagonal or double corners, and the
//!   side to move.
//!
//! Weights come from `dama train` ([`crate::train`]) per family of variants and are
//! built into the binary ([`weights`]). The score is in hundredths of a man for the
//! side to move.

pub mod patterns;
pub mod weights;

use std::sync::Arc;

use dama_core::geometry::{row, Geometry};
use dama_core::variant::{KingRange, Rules};
use dama_core::{Bits, Color, Position, BB};

pub use patterns::Patterns;
pub use weights::Weights;

/// Groups of variants that share one set of weights (one board and kind of king).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Short kings on 8x8 (English, Italian).
    ShortKings,
    /// Flying kings on 8x8 (Russian, Brazilian, Pool, Spanish, Portuguese, Czech, Thai).
    Flying8,
    /// Flying kings on 10x10 (International, Frisian).
    Flying10,
    /// 12x12 (Canadian).
    Canadian,
    /// Orthogonal moves on all 64 squares (Turkish).
    Orthogonal,
}

impl Family {
    /// The family of rules `R`.
    pub fn of<R: Rules>() -> Family {
        if R::ORTHOGONAL {
            Family::Orthogonal
        } else if R::KING == KingRange::Short {
            Family::ShortKings
        } else if R::G::LAYOUT.width >= 12 {
            Family::Canadian
        } else if R::G::LAYOUT.width >= 10 {
            Family::Flying10
        } else {
            Family::Flying8
        }
    }

    /// Its key (file names, command line).
    pub fn key(self) -> &'static str {
        match self {
            Family::ShortKings => "short-kings",
            Family::Flying8 => "flying8",
            Family::Flying10 => "flying10",
            Family::Canadian => "canadian",
            Family::Orthogonal => "orthogonal",
        }
    }

    /// Every family.
    pub const ALL: [Family; 5] =
        [Family::ShortKings, Family::Flying8, Family::Flying10, Family::Canadian, Family::Orthogonal];
}

impl std::str::FromStr for Family {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Family::ALL
            .into_iter()
            .find(|f| f.key() == s)
            .ok_or_else(|| format!("unknown family '{s}' (one of: {})", Family::ALL.map(Family::key).join(", ")))
    }
}

/// The scalar features, after the pattern and king-square blocks.
pub const SCALARS: [&str; 7] = ["men", "first_king", "more_kings", "runaway", "balance", "king_refuge", "tempo"];

/// Where each block of features starts, for a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Windows.
    pub windows: usize,
    /// Playable squares.
    pub squares: usize,
}

impl Shape {
    /// The shape of `R`'s board.
    pub fn of<R: Rules>() -> Shape {
        Shape { windows: patterns::window_count::<R>(), squares: R::G::LAYOUT.squares }
    }
    /// First king-square feature.
    pub fn kings(&self) -> usize {
        self.windows * patterns::PATTERNS
    }
    /// First scalar feature.
    pub fn scalars(&self) -> usize {
        self.kings() + self.squares
    }
    /// Number of features.
    pub fn len(&self) -> usize {
        self.scalars() + SCALARS.len()
    }
    /// Never empty.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// Added per king of surplus when no man is left and kings move one square (English,
/// Italian): such an ending is a win for the side with more kings, which self-play at a
/// few thousand nodes often fails to show (it drew many of them), so the learned weights
/// alone undervalue it.
pub const SHORT_KING_SURPLUS: i32 = 100;

/// Phase: 0 with every man on the board, [`PHASE`] with none.
pub const PHASE: i32 = 256;

/// Masks the evaluation needs, computed once per searcher.
#[derive(Clone, Debug)]
pub struct Tables<R: Rules> {
    rows: [BB<R>; 12],
    left: BB<R>,
    refuge: BB<R>,
    height: usize,
    men_at_start: i32,
    /// The pattern windows.
    pub patterns: Patterns,
    /// The feature layout.
    pub shape: Shape,
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
        let mut refuge = BB::<R>::ZERO;
        let mut left = BB::<R>::ZERO;
        for b in 0..128u32 {
            let (r, c) = (l.row_of_bit[b as usize] as i32, l.col_of_bit[b as usize] as i32);
            if r < 0 {
                continue;
            }
            if c < w / 2 {
                left |= BB::<R>::bit(b);
            }
            let long_diagonal = !l.full && r == c;
            let double_corner =
                !l.full && R::KING == KingRange::Short && (r + c - (w - 1)).abs() <= 1 && (r <= 1 || r >= h - 2);
            if long_diagonal || double_corner {
                refuge |= BB::<R>::bit(b);
            }
        }
        let mut rows = [BB::<R>::ZERO; 12];
        for (r, m) in rows.iter_mut().enumerate().take(h as usize) {
            *m = row::<R::G>(r);
        }
        let start = Position::<R>::start();
        Tables {
            rows,
            left,
            refuge,
            height: h as usize,
            men_at_start: (start.men(Color::White) | start.men(Color::Black)).count() as i32,
            patterns: Patterns::new::<R>(),
            shape: Shape::of::<R>(),
        }
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

    /// The phase of a position: 0 (all men) to [`PHASE`] (none).
    #[inline]
    pub fn phase(&self, pos: &Position<R>) -> i32 {
        let men = (pos.men(Color::White) | pos.men(Color::Black)).count() as i32;
        (PHASE - PHASE * men / self.men_at_start.max(1)).clamp(0, PHASE)
    }

    /// Calls `f(feature, value)` for every feature of `pos` that is not zero, from
    /// White's point of view (White's features count +1, Black's -1).
    #[inline]
    pub fn features(&self, pos: &Position<R>, mut f: impl FnMut(usize, i32)) {
        self.patterns.each(pos, |k, own, theirs| {
            if own != theirs {
                f(k * patterns::PATTERNS + own, 1);
                f(k * patterns::PATTERNS + theirs, -1);
            }
        });
        let kings0 = self.shape.kings();
        for (c, sign) in [(Color::White, 1), (Color::Black, -1)] {
            for b in pos.kings_of(c).iter() {
                f(kings0 + patterns::own_square::<R>(b, c == Color::White), sign);
            }
        }
        let s = self.shape.scalars();
        let side = |c: Color| -> [i32; 6] {
            let men = pos.men(c);
            let kings = pos.kings_of(c).count() as i32;
            let l = (men & self.left).count() as i32;
            let r = men.count() as i32 - l;
            [
                men.count() as i32,
                i32::from(kings > 0),
                (kings - 1).max(0),
                self.runaways(pos, c),
                (l - r).abs(),
                (pos.kings_of(c) & self.refuge).count() as i32,
            ]
        };
        let (w, b) = (side(Color::White), side(Color::Black));
        for i in 0..6 {
            if w[i] != b[i] {
                f(s + i, w[i] - b[i]);
            }
        }
        f(s + 6, if pos.side() == Color::White { 1 } else { -1 });
    }
}

/// What a searcher evaluates with: learned weights, or material only (a baseline).
#[derive(Clone, Debug)]
pub enum EvalKind {
    /// The weights of a family.
    Learned(Arc<Weights>),
    /// Men 100, kings 300.
    Material,
}

impl EvalKind {
    /// The built-in weights of `R`'s family.
    pub fn default_for<R: Rules>() -> EvalKind {
        EvalKind::Learned(weights::builtin(Family::of::<R>()))
    }
}

/// An evaluator for rules `R`.
#[derive(Clone, Debug)]
pub struct Evaluator<R: Rules> {
    /// The board's masks and windows.
    pub tables: Tables<R>,
    kind: EvalKind,
}

impl<R: Rules> Evaluator<R> {
    /// An evaluator with `kind` (weights of another board shape fall back to material).
    pub fn new(kind: EvalKind) -> Self {
        let tables = Tables::<R>::new();
        let kind = match kind {
            EvalKind::Learned(w) if w.shape == tables.shape => EvalKind::Learned(w),
            _ => EvalKind::Material,
        };
        Evaluator { tables, kind }
    }

    /// What it evaluates with.
    pub fn kind(&self) -> &EvalKind {
        &self.kind
    }

    /// The score of `pos` for the side to move, in hundredths of a man.
    #[inline]
    pub fn evaluate(&self, pos: &Position<R>) -> i32 {
        let white = match &self.kind {
            EvalKind::Material => {
                let m = |c: Color| 100 * pos.men(c).count() as i32 + 300 * pos.kings_of(c).count() as i32;
                m(Color::White) - m(Color::Black)
            }
            EvalKind::Learned(w) => {
                let (mut mg, mut eg) = (0i32, 0i32);
                self.tables.features(pos, |i, v| {
                    mg += v * i32::from(w.mg[i]);
                    eg += v * i32::from(w.eg[i]);
                });
                let phase = self.tables.phase(pos);
                let blended =
                    (i64::from(mg) * i64::from(PHASE - phase) + i64::from(eg) * i64::from(phase)) / i64::from(PHASE);
                (blended / i64::from(w.scale)) as i32 + self.king_ending(pos)
            }
        };
        if pos.side() == Color::White {
            white
        } else {
            -white
        }
    }

    /// The rule-based term of king endings, from White's point of view.
    #[inline]
    fn king_ending(&self, pos: &Position<R>) -> i32 {
        if Family::of::<R>() != Family::ShortKings || (pos.men(Color::White) | pos.men(Color::Black)).any() {
            return 0;
        }
        let kings = |c: Color| pos.kings_of(c).count() as i32;
        SHORT_KING_SURPLUS * (kings(Color::White) - kings(Color::Black))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::fen::parse_fen;
    use dama_core::variant::{English, International, Russian, Turkish};

    fn antisymmetric<R: Rules>(fen: &str, mirrored: &str) {
        let e = Evaluator::<R>::new(EvalKind::default_for::<R>());
        let (a, b) = (parse_fen::<R>(fen).unwrap(), parse_fen::<R>(mirrored).unwrap());
        // Each position scored for its side to move: a position and its colour-reversed
        // mirror are the same to the player to move.
        assert_eq!(e.evaluate(&a), e.evaluate(&b), "{fen} / {mirrored}");
    }

    #[test]
    fn mirrored_positions_score_the_same_for_the_side_to_move() {
        antisymmetric::<English>("W:W21,22,25,K30:B1,5,9", "B:W24,28,32:B8,11,12,K3");
        antisymmetric::<International>("W:W31,32,46,K10:B1,2,6", "B:W45,49,50:B5,19,20,K41");
        antisymmetric::<Russian>("W:Wa1,c3,e3:Bh8,f6", "B:Wc3,a1:Bh8,f6,d6");
        antisymmetric::<Turkish>("W:Wa2,b2,c3:Bh7,g6", "B:Wb3,a2:Bh7,g7,f6");
    }

    #[test]
    fn material_counts() {
        let e = Evaluator::<English>::new(EvalKind::Material);
        let p = parse_fen::<English>("W:W21,22,K30:B1").unwrap();
        assert_eq!(e.evaluate(&p), 400);
    }
}
