//! dama-core: the exact rules of every major draughts variant.
//!
//! - [`variant`]: the variants, their rules as data, and run-time dispatch.
//! - [`position::Position`]: a checked position; [`position::Setup`] an unchecked one.
//! - [`movegen`]: legal moves, with the precedence rules of each rulebook.
//! - [`fen`], [`notation`]: PDN 3.0 FEN and move text.
//! - [`perft`]: move path counts for testing and benchmarking.
//! - [`ballot`]: ballot openings for tournaments (the three- and two-move lists).
//!
//! Nothing here does I/O.

pub mod any;
pub mod any_record;
pub mod ballot;
pub mod bits;
pub mod color;
pub mod duel;
pub mod end;
pub mod facts;
pub mod fen;
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub mod geometry;
pub mod illegal;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod position;
pub mod read_warning;
pub mod record;
pub mod tree;
pub mod variant;
pub mod view;
pub mod zobrist;

pub use bits::Bits;
pub use color::Color;
pub use moves::{Move, MoveList, Routes};
pub use position::{Position, Setup, SetupError, BB};
pub use variant::{Rules, Variant, VariantFn};
