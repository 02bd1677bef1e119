//! Perft: the number of move paths of a given length, with bulk counting at the last ply.

use crate::movegen::{count_moves, generate};
use crate::moves::{MoveList, Routes};
use crate::position::Position;
use crate::variant::Rules;

/// Counts the move paths of length `depth`, capture routes counted by `routes`.
pub fn perft<R: Rules>(pos: &Position<R>, depth: u32, routes: Routes) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(pos, routes),
        _ => {
            let mut list = MoveList::with_routes(routes);
            generate(pos, &mut list);
            let mut n = 0;
            for m in list.iter() {
                n += perft(&pos.play(m), depth - 1, routes);
            }
            n
        }
    }
}

/// Perft split by first move: each legal move with its count, counted as the iterator
/// reaches it (a caller can report each one as it comes).
pub fn divide<R: Rules>(
    pos: &Position<R>,
    depth: u32,
    routes: Routes,
) -> impl ExactSizeIterator<Item = (crate::moves::Move<crate::position::BB<R>>, u64)> + '_ {
    let mut list = MoveList::with_routes(routes);
    generate(pos, &mut list);
    list.into_iter().map(move |m| (m, if depth <= 1 { 1 } else { perft(&pos.play(&m), depth - 1, routes) }))
}
