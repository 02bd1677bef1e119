//! Why a move is not legal: the rule it breaks, as a type clients translate.
//!
//! [`explain`] compares an attempted move (its squares) with the legal moves and with
//! every capture the pieces could make if no precedence rule chose among them, and
//! names the rule that refuses it.

use crate::bits::Bits;
use crate::geometry::{step, Dir, Geometry};
use crate::movegen::{generate, king_move_dirs, man_move_dirs};
use crate::moves::{Move, Routed, Sink};
use crate::notation::{move_to_string, path_matches, route_squares, routed_moves, square_name};
use crate::position::{Position, BB};
use crate::variant::{KingRange, Precedence, Rules};

/// The rule an attempted move breaks. Its tag (`why`) is what clients translate
/// (`err_illegal_<why>`); the fields are the details the words name.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, thiserror::Error)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Illegal {
    /// The side to move has no legal move at all.
    #[error("the side to move has no legal move")]
    NoLegalMove,
    /// No piece stands on the origin square.
    #[error("there is no piece on {square}")]
    NoPiece {
        /// The origin square.
        square: String,
    },
    /// The piece on the origin square is the opponent's.
    #[error("the piece on {square} is not yours")]
    NotYourPiece {
        /// The origin square.
        square: String,
    },
    /// A capture is possible, so a move that takes nothing is refused.
    #[error("a capture is compulsory: {example}")]
    CaptureCompulsory {
        /// One capture that may be played.
        example: String,
    },
    /// The majority rule: a capture taking more pieces is possible.
    #[error("you must take the most pieces: {n} here")]
    MustTakeMost {
        /// How many pieces the best capture takes.
        n: u32,
    },
    /// Among captures of as many pieces, one taking more kings is possible (Spanish,
    /// Portuguese, Italian).
    #[error("you must take the most kings: {n} here")]
    MustTakeMostKings {
        /// How many kings the best capture takes.
        n: u32,
    },
    /// Frisian: a capture of higher value is possible (a king counts nearly two men).
    #[error("you must take the most value: {example}")]
    MustTakeMostValue {
        /// One capture that may be played.
        example: String,
    },
    /// A king must be the piece that captures (Czech; Italian and Frisian among equal
    /// captures).
    #[error("the king must capture: {example}")]
    MustCaptureWithKing {
        /// One capture that may be played.
        example: String,
    },
    /// Italian: among equal captures, the one meeting a king first.
    #[error("you must take a king as early as possible: {example}")]
    MustTakeKingFirst {
        /// One capture that may be played.
        example: String,
    },
    /// The capture stops while the piece can go on taking.
    #[error("the capture must go on while a piece can be taken")]
    IncompleteCapture,
    /// A man moved (or, where men do not take backwards, captured) backwards.
    #[error("a man cannot move backwards")]
    ManBackwards,
    /// Italian: a man may not take a king.
    #[error("a man cannot take a king")]
    ManCannotTakeKing,
    /// A flying king must land on the square right after the piece it takes (Thai).
    #[error("the king must stop right after the last captured piece")]
    KingMustStopAfterCapture,
    /// A man (or a short king) moves one square at a time.
    #[error("this piece moves one square at a time")]
    OneSquareOnly,
    /// The destination square is taken.
    #[error("the square {square} is not empty")]
    Occupied {
        /// The destination square.
        square: String,
    },
    /// A piece stands in the way.
    #[error("a piece is in the way")]
    Blocked,
    /// Frisian: a king may not make more than this many moves in a row while its side
    /// has men.
    #[error("a king may not make more than {n} moves in a row while you have men")]
    KingMoveLimit {
        /// The most moves in a row.
        n: u32,
    },
    /// No piece of that file can go to that square (the Russian short form `ed4`).
    #[error("no piece on the {file}-file can go to {square}")]
    NoPieceOnFile {
        /// The file letter.
        file: String,
        /// The destination square.
        square: String,
    },
    /// The text is not a move.
    #[error("this is not a move")]
    Unreadable,
    /// Several legal moves fit the text.
    #[error("several moves fit: {}", candidates.join(" or "))]
    Ambiguous {
        /// The moves it could be, in long form.
        candidates: Vec<String>,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The pieces do not move that way.
    #[error("pieces do not move that way")]
    NotAMove,
}

/// A refused move: the rule it breaks and the whole explanation in English. As JSON,
/// the reason's fields and `words` side by side.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, thiserror::Error)]
#[error("{words}")]
pub struct Refused {
    /// The rule.
    #[serde(flatten)]
    pub why: Illegal,
    /// The words, for programs and logs.
    pub words: String,
}

impl From<crate::game::GameError> for Refused {
    fn from(e: crate::game::GameError) -> Self {
        use crate::game::GameError as G;
        use crate::notation::MoveError as M;
        let why = match &e {
            G::Illegal(M::Illegal { why, .. }) => why.clone(),
            G::Illegal(M::Text { .. }) => Illegal::Unreadable,
            G::Illegal(M::Ambiguous { candidates, .. }) => Illegal::Ambiguous { candidates: candidates.clone() },
            G::Over(_) => Illegal::GameOver,
            G::NotLegal | G::NothingToUndo => Illegal::NotAMove,
        };
        Refused { why, words: e.to_string() }
    }
}

/// Every capture route the pieces could make, before a precedence rule chooses.
#[derive(Default)]
struct EveryCapture<B: Bits>(Vec<Routed<B>>);

impl<B: Bits> Sink<B> for EveryCapture<B> {
    fn quiet(&mut self, _from: u32, _to: u32, _promote: bool) {}
    fn capture(&mut self, mv: Move<B>, _key: u64, p: &[u8]) {
        let mut path = [0u8; crate::moves::MAX_PATH];
        let n = p.len().min(path.len());
        path[..n].copy_from_slice(&p[..n]);
        self.0.push(Routed { mv, path, path_len: n as u8 });
    }
}

/// Why no legal move of `pos` fits the written squares (dense indices, the origin
/// first); `None` when one does.
pub fn explain<R: Rules>(pos: &Position<R>, squares: &[usize]) -> Option<Illegal> {
    let legal = routed_moves(pos);
    if legal.iter().any(|r| path_matches(squares, &route_squares::<R>(r))) {
        return None;
    }
    Some(why_not(pos, squares, &legal))
}

fn why_not<R: Rules>(pos: &Position<R>, squares: &[usize], legal: &[Routed<BB<R>>]) -> Illegal {
    let l = R::G::LAYOUT;
    let Some(best) = legal.first() else { return Illegal::NoLegalMove };
    let (&from, &to) = match (squares.first(), squares.get(1)) {
        (Some(f), Some(t)) => (f, t),
        _ => return Illegal::NotAMove,
    };
    let us = pos.side();
    let at = |i: usize| BB::<R>::bit(l.bit_of[i] as u32);
    if (pos.occupied() & at(from)).is_empty() {
        return Illegal::NoPiece { square: square_name::<R>(from) };
    }
    if (pos.pieces(us) & at(from)).is_empty() {
        return Illegal::NotYourPiece { square: square_name::<R>(from) };
    }
    let king = (pos.kings_of(us) & at(from)).any();
    let seg = Segment::<R>::of(pos, from, to);
    if best.mv.is_capture() {
        return why_not_capture(pos, squares, best, king, seg);
    }
    if squares.len() > 2 {
        return Illegal::NotAMove;
    }
    if (pos.occupied() & at(to)).any() {
        return Illegal::Occupied { square: square_name::<R>(to) };
    }
    let run = pos.king_runs()[us.index()];
    if king
        && R::KING_MOVE_LIMIT > 0
        && run.count >= R::KING_MOVE_LIMIT
        && pos.men(us).any()
        && run.bit == l.bit_of[from]
    {
        return Illegal::KingMoveLimit { n: R::KING_MOVE_LIMIT as u32 };
    }
    let Some(seg) = seg else { return Illegal::NotAMove };
    if let Some(why) = man_jump(pos, king, &seg) {
        return why;
    }
    if king {
        if !king_move_dirs::<R>().contains(&seg.dir) {
            Illegal::NotAMove
        } else if seg.between.any() {
            Illegal::Blocked
        } else if R::KING == KingRange::Short {
            Illegal::OneSquareOnly
        } else {
            Illegal::NotAMove
        }
    } else if man_move_dirs::<R>(us).contains(&seg.dir) {
        if seg.steps > 1 {
            Illegal::OneSquareOnly
        } else {
            Illegal::NotAMove
        }
    } else if man_move_dirs::<R>(!us).contains(&seg.dir) {
        Illegal::ManBackwards
    } else {
        Illegal::NotAMove
    }
}

fn why_not_capture<R: Rules>(
    pos: &Position<R>,
    squares: &[usize],
    best: &Routed<BB<R>>,
    king: bool,
    seg: Option<Segment<R>>,
) -> Illegal {
    let us = pos.side();
    let them = !us;
    let example = move_to_string(pos, &best.mv, false);
    let mut every = EveryCapture::<BB<R>>::default();
    generate_unfiltered(pos, &mut every);
    let kings = |m: &Move<BB<R>>| (m.captured & pos.kings_of(them)).count();
    let by_king = |m: &Move<BB<R>>| (pos.kings_of(us) & BB::<R>::bit(m.from as u32)).any();
    if let Some(r) = every.0.iter().find(|r| path_matches(squares, &route_squares::<R>(r))) {
        let (mine, theirs) = (&r.mv, &best.mv);
        let (n, n_best) = (mine.captured.count(), theirs.captured.count());
        let counts = matches!(R::PRECEDENCE, Precedence::Count | Precedence::CountThenKings | Precedence::Italian);
        return match R::PRECEDENCE {
            _ if counts && n_best > n => Illegal::MustTakeMost { n: n_best },
            Precedence::CountThenKings => Illegal::MustTakeMostKings { n: kings(theirs) },
            Precedence::Italian if by_king(theirs) && !by_king(mine) => Illegal::MustCaptureWithKing { example },
            Precedence::Italian if kings(theirs) > kings(mine) => Illegal::MustTakeMostKings { n: kings(theirs) },
            Precedence::Italian => Illegal::MustTakeKingFirst { example },
            Precedence::KingFirst => Illegal::MustCaptureWithKing { example },
            Precedence::FrisianValue if kings(theirs) + kings(mine) == 0 && n_best > n => {
                Illegal::MustTakeMost { n: n_best }
            }
            Precedence::FrisianValue if (n_best, kings(theirs)) != (n, kings(mine)) => {
                Illegal::MustTakeMostValue { example }
            }
            Precedence::FrisianValue => Illegal::MustCaptureWithKing { example },
            _ => Illegal::NotAMove,
        };
    }
    if every.0.iter().any(|r| is_prefix(squares, &route_squares::<R>(r))) {
        return Illegal::IncompleteCapture;
    }
    if let Some(seg) = seg {
        let enemy = pos.pieces(them);
        let one_enemy = seg.between.count() == 1 && (seg.between & enemy).any();
        if let Some(why) = man_jump(pos, king, &seg) {
            return why;
        }
        if one_enemy && king && R::KING == KingRange::FlyingLandBehind {
            let behind = step::<R::G>(seg.between, seg.dir);
            if behind != BB::<R>::bit(R::G::LAYOUT.bit_of[seg.to] as u32) {
                return Illegal::KingMustStopAfterCapture;
            }
        }
    }
    Illegal::CaptureCompulsory { example }
}

/// A man jumping one enemy piece the rules do not let it take: backwards, or a king.
fn man_jump<R: Rules>(pos: &Position<R>, king: bool, seg: &Segment<R>) -> Option<Illegal> {
    let them = !pos.side();
    let one_enemy = seg.between.count() == 1 && (seg.between & pos.pieces(them)).any();
    if king || !one_enemy || seg.steps != 2 {
        return None;
    }
    if !R::MEN_CAPTURE_BACKWARD && man_move_dirs::<R>(them).contains(&seg.dir) {
        return Some(Illegal::ManBackwards);
    }
    if !R::MEN_CAPTURE_KINGS && (seg.between & pos.kings_of(them)).any() {
        return Some(Illegal::ManCannotTakeKing);
    }
    None
}

/// Every capture of the side to move, whatever the precedence rule.
fn generate_unfiltered<R: Rules>(pos: &Position<R>, sink: &mut EveryCapture<BB<R>>) {
    generate(pos, sink);
}

/// The written squares start a capture route and stop on a landing square before its end.
fn is_prefix(written: &[usize], path: &[usize]) -> bool {
    let Some(last) = written.last() else { return false };
    match path.iter().position(|p| p == last) {
        Some(i) if i + 1 < path.len() && i > 0 => path_matches(written, &path[..=i]),
        _ => false,
    }
}

/// The straight line from one square to another: its direction, its length and the
/// pieces on the squares between.
struct Segment<R: Rules> {
    dir: Dir,
    steps: usize,
    between: BB<R>,
    to: usize,
}

impl<R: Rules> Segment<R> {
    fn of(pos: &Position<R>, from: usize, to: usize) -> Option<Self> {
        let l = R::G::LAYOUT;
        let target = BB::<R>::bit(l.bit_of[to] as u32);
        for dir in 0..8 {
            let mut x = step::<R::G>(BB::<R>::bit(l.bit_of[from] as u32), dir);
            let mut seen = BB::<R>::ZERO;
            let mut steps = 1;
            while x.any() {
                if x == target {
                    return Some(Segment { dir, steps, between: seen & pos.occupied(), to });
                }
                seen |= x;
                steps += 1;
                x = step::<R::G>(x, dir);
            }
        }
        None
    }
}
