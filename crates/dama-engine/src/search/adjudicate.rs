//! Adjudication for an arbiter: a search decides who is clearly winning.

use std::sync::atomic::AtomicBool;

use dama_core::{Color, Position, Rules};

use super::{Limits, Searcher, MATE};
use crate::eval::EvalKind;

/// Decides a position for an arbiter (seed 003's kings-only rule): the side that a
/// search of `nodes` nodes finds clearly winning (by more than `margin` hundredths of
/// a man), or `None` for a draw.
pub fn adjudicate<R: Rules>(pos: &Position<R>, nodes: u64, margin: i32) -> Option<Color> {
    let mut s = Searcher::<R>::new(16, EvalKind::default_for::<R>());
    let stop = AtomicBool::new(false);
    let out =
        s.think(pos, &[], Limits { nodes: Some(nodes), depth: Some(64), ..Limits::default() }, &stop, &mut |_| {});
    let score = match out.best {
        None => -MATE,
        // A single legal move: look one move further.
        Some(only) if out.depth == 0 => {
            let next = pos.play(&only);
            let limits = Limits { nodes: Some(nodes), depth: Some(64), ..Limits::default() };
            -s.think(&next, &[], limits, &stop, &mut |_| {}).score
        }
        Some(_) => out.score,
    };
    if score > margin {
        Some(pos.side())
    } else if score < -margin {
        Some(!pos.side())
    } else {
        None
    }
}
