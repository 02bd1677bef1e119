//! The arbiter for a game of any rulebook (seed 003's kings-only rule): the engine
//! decides who wins, or that it is a draw ([`crate::search::adjudicate`]).

use dama_core::any::{AnyPosition, PositionFn};
use dama_core::{Color, Position, Rules};

struct Judge {
    nodes: u64,
    margin: i32,
}

impl PositionFn for Judge {
    type Output = Option<Color>;
    fn call<R: Rules>(self, pos: &Position<R>) -> Option<Color> {
        crate::search::adjudicate(pos, self.nodes, self.margin)
    }
}

/// The clearly winning side of `pos` after a search of `nodes`, or `None` for a draw
/// (a margin of `margin` hundredths of a man decides).
pub fn adjudicate_any(pos: &AnyPosition, nodes: u64, margin: i32) -> Option<Color> {
    pos.visit(Judge { nodes, margin })
}
