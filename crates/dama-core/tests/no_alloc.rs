//! Move generation, counting and playing moves never touch the heap.

use dama_core::movegen::legal_moves;
use dama_core::perft::perft;
use dama_core::variant::{Canadian, English, Frisian, International, Russian, Turkish};
use dama_core::{Position, Routes, Rules};

fn no_alloc<R: Rules>(depth: u32) {
    let pos = Position::<R>::start();
    let info = allocation_counter::measure(|| {
        let n = perft(&pos, depth, Routes::Merged) + perft(&pos, depth, Routes::Every);
        let l = legal_moves(&pos);
        assert!(n > 0 && !l.is_empty());
    });
    assert_eq!(info.count_total, 0, "{:?} allocated", R::VARIANT);
}

#[test]
fn move_generation_does_not_allocate() {
    no_alloc::<English>(7);
    no_alloc::<Russian>(7);
    no_alloc::<Turkish>(6);
    no_alloc::<International>(5);
    no_alloc::<Frisian>(5);
    no_alloc::<Canadian>(4);
}
