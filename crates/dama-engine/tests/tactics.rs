//! Tactics: the engine finds the winning shot of each position in "Tricks, traps and
//! shots" (crates/dama-core/tests/data/pdn/pdn3-test-suite/succeed) within a node budget.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use dama_core::pdn::read_all;
use dama_core::record::replay;
use dama_core::variant::{English, Russian};
use dama_core::{fen::parse_fen, notation::parse_move};
use dama_engine::eval::EvalKind;
use dama_engine::search::{Limits, Searcher};

const BUDGET: u64 = 3_000_000;

#[test]
fn finds_the_shots_of_tricks_traps_and_shots() {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../dama-core/tests/data/pdn/pdn3-test-suite/succeed/Tricks_traps_and_shots.pdn");
    let text = std::fs::read_to_string(&p).expect("shared test data");
    let stop = AtomicBool::new(false);
    let (mut tried, mut found, mut misses) = (0, 0, Vec::new());
    for g in read_all(&text).into_iter().flatten() {
        if g.tag("FEN").is_none() {
            continue;
        }
        let Ok(r) = replay::<English>(&g) else { continue };
        let Some(shot) = r.moves.first() else { continue };
        let start = *r.game.start();
        let mut s = Searcher::<English>::new(16, EvalKind::default_for::<English>());
        let out = s.think(&start, &[], Limits { nodes: Some(BUDGET), ..Limits::default() }, &stop, &mut |_| {});
        tried += 1;
        if out.best == Some(*shot) {
            found += 1;
        } else {
            misses.push(g.tag("Event").unwrap_or("?").to_string());
        }
    }
    assert!(tried >= 18, "{tried} positions");
    // Within 3 M nodes the engine finds 16 of the 18 book shots; Example 18's shot is
    // 15 plies deep (found in about 10 M nodes) and in Example 17 it prefers 32-27.
    eprintln!("found {found} of {tried}; missed {misses:?}");
    assert!(found >= 16, "found {found} of {tried}; missed: {misses:?}");
}

#[test]
fn finds_a_russian_shot_through_the_crowning_row() {
    // The man crowned on f8 sweeps on as a king and takes everything.
    let pos = parse_fen::<Russian>("W:Wh6:Bg7,c5,d2").unwrap();
    let mut s = Searcher::<Russian>::new(16, EvalKind::default_for::<Russian>());
    let stop = AtomicBool::new(false);
    let out = s.think(&pos, &[], Limits { depth: Some(6), ..Limits::default() }, &stop, &mut |_| {});
    assert_eq!(out.best, Some(parse_move(&pos, "h6:f8:b4:e1").unwrap()));
    // After it, Black has nothing left.
    let after = pos.play(&out.best.unwrap());
    assert!(dama_core::movegen::legal_moves(&after).is_empty());
}
