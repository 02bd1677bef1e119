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
//! Weights come from `dama train` (the `dama-train` crate) per family of variants and are
//! built into the binary ([`weights`]). The score is in hundredths of a man for the
//! side to move.

pub mod net;
mod nets;
pub mod patterns;
pub mod weights;

use std::sync::Arc;

use dama_core::geometry::{row, step, Geometry, OPPOSITE};
use dama_core::movegen::{king_move_dirs, man_capture_dirs};
use dama_core::variant::{KingRange, Rules};
use dama_core::{Bits, Color, Position, BB};

pub use net::Net;
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

    /// The family of a variant chosen at run time.
    pub fn of_variant(v: dama_core::Variant) -> Family {
        struct Of;
        impl dama_core::VariantFn for Of {
            type Output = Family;
            fn call<R: Rules>(self) -> Family {
                Family::of::<R>()
            }
        }
        v.visit(Of)
    }

    /// Its place in [`Family::ALL`] (a slot of a per-family table): `ALL` lists the
    /// families in the order they are declared, so the discriminant is the place.
    pub(crate) fn index(self) -> usize {
        self as usize
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
pub const SCALARS: [&str; 9] = [
    "men",
    "first_king",
    "more_kings",
    "runaway",
    "balance",
    "king_refuge",
    "tempo",
    "king_safe_squares",
    "king_exposed_squares",
];

/// Scalar features of the first weight files (before king mobility): files with fewer
/// scalars read with zero weights for the rest.
pub const SCALARS_V1: usize = 7;

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
        Tables {
            rows,
            left,
            refuge,
            height: h as usize,
            men_at_start: 2 * Position::<R>::pieces_at_start() as i32,
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

    /// Empty squares the kings of `c` reach in one move, as (safe, exposed): exposed
    /// squares are those where an enemy man could take a piece that stood there.
    #[inline]
    fn king_mobility(&self, pos: &Position<R>, c: Color) -> (i32, i32) {
        let kings = pos.kings_of(c);
        if kings.is_empty() {
            return (0, 0);
        }
        let empty = pos.empty();
        let flying = R::KING != KingRange::Short;
        let mut reach = BB::<R>::ZERO;
        for &d in king_move_dirs::<R>() {
            let mut x = step::<R::G>(kings, d) & empty;
            while x.any() {
                reach |= x;
                if !flying {
                    break;
                }
                x = step::<R::G>(x, d) & empty;
            }
        }
        let enemy_men = pos.men(!c);
        let mut exposed = BB::<R>::ZERO;
        for &d in man_capture_dirs::<R>(!c) {
            // An enemy man one step behind the square (against d), the square beyond empty.
            exposed |= step::<R::G>(enemy_men, d) & step::<R::G>(empty, OPPOSITE[d]);
        }
        let bad = (reach & exposed).count() as i32;
        ((reach.count() as i32) - bad, bad)
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
        let side = |c: Color| -> [i32; 8] {
            let men = pos.men(c);
            let kings = pos.kings_of(c).count() as i32;
            let l = (men & self.left).count() as i32;
            let r = men.count() as i32 - l;
            let (safe, exposed) = self.king_mobility(pos, c);
            [
                men.count() as i32,
                i32::from(kings > 0),
                (kings - 1).max(0),
                self.runaways(pos, c),
                (l - r).abs(),
                (pos.kings_of(c) & self.refuge).count() as i32,
                safe,
                exposed,
            ]
        };
        let (w, b) = (side(Color::White), side(Color::Black));
        for i in 0..6 {
            if w[i] != b[i] {
                f(s + i, w[i] - b[i]);
            }
        }
        f(s + 6, if pos.side() == Color::White { 1 } else { -1 });
        for i in 6..8 {
            if w[i] != b[i] {
                f(s + i + 1, w[i] - b[i]);
            }
        }
    }
}

/// What a searcher evaluates with: learned weights, or material only (a baseline).
#[derive(Clone, Debug)]
pub enum EvalKind {
    /// The weights of a family.
    Learned(Arc<Weights>),
    /// A network.
    Net(Arc<Net>),
    /// Men 100, kings 300.
    Material,
}

/// Why an evaluation file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalFileError {
    /// Pattern weights that do not read.
    #[error(transparent)]
    Weights(#[from] weights::WeightsError),
    /// A network that does not read.
    #[error(transparent)]
    Net(#[from] net::NetError),
}

impl EvalKind {
    /// An evaluation from a file written by `dama train`: pattern weights or a network,
    /// told apart by their first bytes.
    pub fn from_bytes(b: &[u8]) -> Result<EvalKind, EvalFileError> {
        if b.starts_with(b"DAMANNUE") {
            Ok(EvalKind::Net(Arc::new(Net::from_bytes(b)?)))
        } else {
            Ok(EvalKind::Learned(Arc::new(Weights::from_bytes(b)?)))
        }
    }

    /// The built-in evaluation of `R`: its network where one was trained and kept (its
    /// own or its family's, [`net::for_variant`]), otherwise its family's pattern weights.
    pub fn default_for<R: Rules>() -> EvalKind {
        match net::for_variant(R::VARIANT) {
            Some(n) => EvalKind::Net(n),
            None => EvalKind::Learned(weights::builtin(Family::of::<R>())),
        }
    }

    /// The built-in pattern weights of `R`'s family (also where a network is the default).
    pub fn patterns_for<R: Rules>() -> EvalKind {
        EvalKind::Learned(weights::builtin(Family::of::<R>()))
    }
}

/// An evaluator for rules `R`.
#[derive(Clone, Debug)]
pub struct Evaluator<R: Rules> {
    /// The board's masks and windows.
    pub tables: Tables<R>,
    kind: EvalKind,
    /// A network's accumulators along the search path.
    path: NetPath<R>,
    /// Pattern weights with each feature's middlegame and endgame weight side by side
    /// (one memory access a feature).
    paired: Arc<Vec<[i16; 2]>>,
}

/// Plies of a search path whose network accumulators are kept.
const PATH_PLIES: usize = 130;

/// The positions of the search path and their network accumulators (White's view and
/// Black's), each valid while its hash matches the position at its ply.
#[derive(Clone, Debug, Default)]
struct NetPath<R: Rules> {
    positions: Vec<Position<R>>,
    valid: Vec<u64>,
    acc: Vec<i16>,
    width: usize,
}

impl<R: Rules> Evaluator<R> {
    /// An evaluator with `kind` (weights of another board shape fall back to material).
    pub fn new(kind: EvalKind) -> Self {
        let tables = Tables::<R>::new();
        let kind = match kind {
            EvalKind::Learned(w) if w.shape == tables.shape => EvalKind::Learned(w),
            EvalKind::Net(n) if n.inputs == net::inputs_of::<R>() => EvalKind::Net(n),
            _ => EvalKind::Material,
        };
        let path = match &kind {
            EvalKind::Net(n) => NetPath {
                positions: vec![Position::start(); PATH_PLIES],
                valid: vec![0; PATH_PLIES],
                acc: vec![0; PATH_PLIES * 2 * n.h1],
                width: 2 * n.h1,
            },
            _ => NetPath::default(),
        };
        let paired = match &kind {
            EvalKind::Learned(w) => Arc::new(w.mg.iter().zip(&w.eg).map(|(&m, &e)| [m, e]).collect()),
            _ => Arc::new(Vec::new()),
        };
        Evaluator { tables, kind, path, paired }
    }

    /// The search reached `pos` at `ply` (a network keeps its accumulators along the
    /// path and updates them from the nearest known ancestor when asked to evaluate).
    #[inline]
    pub fn enter(&mut self, ply: usize, pos: &Position<R>) {
        if let Some(p) = self.path.positions.get_mut(ply) {
            *p = *pos;
        }
    }

    /// [`Self::evaluate`] of the position entered at `ply`.
    #[inline]
    pub fn evaluate_at(&mut self, pos: &Position<R>, ply: usize) -> i32 {
        let EvalKind::Net(n) = &self.kind else { return self.evaluate(pos) };
        let path = &mut self.path;
        if ply >= PATH_PLIES || path.positions[ply].hash() != pos.hash() {
            return self.evaluate(pos);
        }
        let w = path.width;
        let mut q = ply;
        while path.valid[q] != path.positions[q].hash() {
            if q == 0 {
                break;
            }
            q -= 1;
        }
        if path.valid[q] != path.positions[q].hash() {
            n.refresh(&path.positions[q], &mut path.acc[q * w..(q + 1) * w]);
            path.valid[q] = path.positions[q].hash();
        }
        for r in q + 1..=ply {
            let (done, rest) = path.acc.split_at_mut(r * w);
            n.update(&path.positions[r - 1], &path.positions[r], &done[(r - 1) * w..], &mut rest[..w]);
            path.valid[r] = path.positions[r].hash();
        }
        let own = n.evaluate_acc(pos, &path.acc[ply * w..(ply + 1) * w]);
        self.net_score(pos, own)
    }

    /// A network's score for the side to move (`own`) with the king-ending rule, which
    /// is scored from White's side, added in.
    #[inline]
    fn net_score(&self, pos: &Position<R>, own: i32) -> i32 {
        let ending = self.king_ending(pos);
        if pos.side() == Color::White {
            own + ending
        } else {
            own - ending
        }
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
                let paired = &self.paired[..];
                self.tables.features(pos, |i, v| {
                    let [m, e] = paired[i];
                    mg += v * i32::from(m);
                    eg += v * i32::from(e);
                });
                let phase = self.tables.phase(pos);
                let blended =
                    (i64::from(mg) * i64::from(PHASE - phase) + i64::from(eg) * i64::from(phase)) / i64::from(PHASE);
                (blended / i64::from(w.scale)) as i32 + self.king_ending(pos)
            }
            EvalKind::Net(n) => return self.net_score(pos, n.evaluate(pos)),
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
    fn each_family_indexes_its_place_in_the_list() {
        for (i, f) in Family::ALL.into_iter().enumerate() {
            assert_eq!(f.index(), i, "{f:?}");
        }
    }

    #[test]
    fn frisian_never_plays_the_international_network() {
        use dama_core::variant::Frisian;
        // Frisian plays its own network where one is built in, otherwise its pattern
        // weights; never International's (it measured weaker, docs/training.md).
        match (EvalKind::default_for::<Frisian>(), net::own(dama_core::Variant::Frisian)) {
            (EvalKind::Net(n), Some(own)) => assert!(Arc::ptr_eq(&n, &own)),
            (EvalKind::Learned(_), None) => {}
            _ => panic!("Frisian plays neither its own network nor its pattern weights"),
        }
        if net::builtin(Family::Flying10).is_some() {
            assert!(matches!(EvalKind::default_for::<International>(), EvalKind::Net(_)));
        }
    }

    #[test]
    fn mirrored_positions_score_the_same_for_the_side_to_move() {
        antisymmetric::<English>("W:W21,22,25,K30:B1,5,9", "B:W24,28,32:B8,11,12,K3");
        antisymmetric::<International>("W:W31,32,46,K10:B1,2,6", "B:W45,49,50:B5,19,20,K41");
        antisymmetric::<Russian>("W:Wa1,c3,e3:Bh8,f6", "B:Wc3,a1:Bh8,f6,d6");
        antisymmetric::<Turkish>("W:Wa2,b2,c3:Bh7,g6", "B:Wb3,a2:Bh7,g7,f6");
    }

    /// A network with arbitrary weights for `R`'s board.
    fn scrambled<R: Rules>() -> Net {
        let inputs = net::inputs_of::<R>();
        let (h1, h2) = (32, 8);
        let mut x = 12345u64;
        let mut next = |m: i64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 33) as i64 % (2 * m + 1) - m) as i16
        };
        Net {
            family: Family::of::<R>(),
            inputs,
            h1,
            h2,
            buckets: 1,
            note: String::new(),
            w1: (0..inputs * h1).map(|_| next(60)).collect(),
            b1: (0..h1).map(|_| next(60)).collect(),
            w2: (0..h1 * h2).map(|_| next(100)).collect(),
            b2: (0..h2).map(|_| i32::from(next(100)) * 50).collect(),
            w3: (0..h2).map(|_| next(300)).collect(),
            b3: vec![77],
        }
    }

    /// Along random games, the network's accumulators kept from ply to ply (with some
    /// plies skipped and revisited, as a search does) score as a sum from nothing.
    fn incremental_network_agrees<R: Rules>() {
        let mut e = Evaluator::<R>::new(EvalKind::Net(Arc::new(scrambled::<R>())));
        let mut seed = 99u64;
        for game in 0..20 {
            let mut pos = Position::<R>::start();
            for ply in 0..60usize {
                e.enter(ply, &pos);
                if (ply + game) % 3 != 0 {
                    assert_eq!(e.evaluate_at(&pos, ply), e.evaluate(&pos), "game {game} ply {ply}");
                }
                let moves = dama_core::movegen::legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                // A side branch first, two plies deep, then the game goes on.
                let side = pos.play(&moves.as_slice()[0]);
                e.enter(ply + 1, &side);
                if let Some(m) = dama_core::movegen::legal_moves(&side).as_slice().last() {
                    let deeper = side.play(m);
                    e.enter(ply + 2, &deeper);
                    assert_eq!(e.evaluate_at(&deeper, ply + 2), e.evaluate(&deeper));
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                pos = pos.play(&moves.as_slice()[(seed >> 33) as usize % moves.len()]);
            }
        }
    }

    #[test]
    fn incremental_network_accumulators_match_a_full_sum() {
        use dama_core::variant::{Canadian, Czech, Frisian, Italian, Portuguese, Spanish, Thai};
        incremental_network_agrees::<English>();
        // Italian plays the short-kings network with its own captures (men never take a
        // king, the most pieces and kings first).
        incremental_network_agrees::<Italian>();
        // Spanish plays the flying8 network with its own captures (men never take
        // backwards; the most pieces, then the most kings).
        incremental_network_agrees::<Spanish>();
        // Portuguese: Spanish's captures on a board mirrored only in its notation.
        incremental_network_agrees::<Portuguese>();
        // Czech: men never take backwards, and a king must take where it can.
        incremental_network_agrees::<Czech>();
        // Thai: kings stop behind what they take, and captured pieces come off one by one.
        incremental_network_agrees::<Thai>();
        incremental_network_agrees::<International>();
        // Frisian's own network has International's board but Frisian's moves (the king
        // limit, captures by value).
        incremental_network_agrees::<Frisian>();
        incremental_network_agrees::<Turkish>();
        incremental_network_agrees::<Canadian>();
    }

    #[test]
    fn material_counts() {
        let e = Evaluator::<English>::new(EvalKind::Material);
        let p = parse_fen::<English>("W:W21,22,K30:B1").unwrap();
        assert_eq!(e.evaluate(&p), 400);
    }
}
