//! What a client is shown of a move, a piece or a legal move: one type each
//! ([`MoveView`], [`PieceView`], [`LegalView`]) for live games, replays and the
//! analysis board alike.

use serde::{Deserialize, Serialize};

use crate::fen::write_fen;
use crate::notation::{detailed_moves, square_name, MoveDetail};
use crate::{Bits, Color, Position, Rules, BB};

/// A move as clients see it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct MoveView {
    /// Short notation.
    pub notation: String,
    /// Long notation (every landing square).
    pub long: String,
    /// Every square the piece stands on, origin first.
    pub path: Vec<String>,
    /// Captured squares in jump order.
    pub captured: Vec<String>,
    /// A man is crowned.
    pub promote: bool,
}

/// A piece on the board.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PieceView {
    /// Square name.
    pub square: String,
    /// Its colour.
    pub color: Color,
    /// Crowned.
    pub king: bool,
}

/// A legal move with the position after it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct LegalView {
    /// The move.
    #[serde(flatten)]
    pub mv: MoveView,
    /// The position after it.
    pub fen: String,
}

/// The pieces of a position.
pub fn pieces_of<R: Rules>(p: &Position<R>) -> Vec<PieceView> {
    let l = <R::G as crate::geometry::Geometry>::LAYOUT;
    let mut out = Vec::new();
    for c in Color::ALL {
        for b in p.pieces(c).iter() {
            out.push(PieceView {
                square: square_name::<R>(l.index_of_bit[b as usize] as usize),
                color: c,
                king: p.kings().has(b),
            });
        }
    }
    out
}

/// A legal move of `pos` as clients see it (`None` for a move that is not legal there).
pub fn view_of<R: Rules>(pos: &Position<R>, mv: &crate::Move<BB<R>>) -> Option<MoveView> {
    detailed_moves(pos).into_iter().find(|d| d.mv == *mv).map(detail_view::<R>)
}

/// A move of `pos` as clients see it: its details when it is legal there, else only
/// its notation (a move from a record, replayed under older rules).
pub fn view<R: Rules>(pos: &Position<R>, mv: &crate::Move<BB<R>>) -> MoveView {
    view_of(pos, mv).unwrap_or_else(|| MoveView {
        notation: crate::notation::move_to_string(pos, mv, false),
        long: crate::notation::move_to_string(pos, mv, true),
        path: Vec::new(),
        captured: Vec::new(),
        promote: false,
    })
}

/// A detailed move as clients see it.
pub fn detail_view<R: Rules>(d: MoveDetail<BB<R>>) -> MoveView {
    MoveView {
        notation: d.short,
        long: d.long,
        path: d.path.iter().map(|&i| square_name::<R>(i)).collect(),
        captured: d.captured.iter().map(|&i| square_name::<R>(i)).collect(),
        promote: d.promote,
    }
}

/// The legal moves of `pos` as clients see them.
pub fn legal_views<R: Rules>(pos: &Position<R>) -> Vec<MoveView> {
    detailed_moves(pos).into_iter().map(detail_view::<R>).collect()
}

/// The legal moves of `pos`, each with the position after it.
pub fn legal_with_fen<R: Rules>(p: &Position<R>) -> Vec<LegalView> {
    detailed_moves(p)
        .into_iter()
        .map(|d| {
            let fen = write_fen(&p.play(&d.mv));
            LegalView { mv: detail_view::<R>(d), fen }
        })
        .collect()
}

/// A square of a board: its name, its row from the top (White at the bottom) and its
/// column.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SquareView(pub String, pub usize, pub usize);

/// A rulebook's board as pages draw it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct BoardView {
    /// The variant's key.
    pub key: String,
    /// Its name.
    pub name: String,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Every square is playable (Turkish), not only the dark ones.
    pub full: bool,
    /// Who moves first.
    pub first: Color,
    /// Squares are named a1..h8, not numbered.
    pub algebraic: bool,
    /// Every playable square.
    pub squares: Vec<SquareView>,
    /// The start position.
    pub start: String,
}

struct BoardOf;
impl crate::VariantFn for BoardOf {
    type Output = BoardView;
    fn call<R: Rules>(self) -> BoardView {
        use crate::geometry::Geometry;
        let l = R::G::LAYOUT;
        let h = l.height as usize;
        let squares = (0..l.squares)
            .map(|i| {
                let (r, c) = crate::notation::coords::<R>(i);
                SquareView(square_name::<R>(i), h - 1 - r, c)
            })
            .collect();
        BoardView {
            key: R::VARIANT.key().to_string(),
            name: R::VARIANT.name().to_string(),
            rows: l.height as usize,
            cols: l.width as usize,
            full: l.full,
            first: R::FIRST,
            algebraic: matches!(R::NOTATION, crate::variant::Notation::Algebraic),
            squares,
            start: write_fen(&Position::<R>::start()),
        }
    }
}

impl crate::Variant {
    /// The rulebook's board as pages draw it.
    pub fn board(self) -> BoardView {
        self.visit(BoardOf)
    }
}
