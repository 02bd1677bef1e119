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

/// The positions of "Tricks, traps and shots" with the book's shot: (name, position, shot).
fn book_shots() -> Vec<(String, dama_core::Position<English>, dama_core::Move<dama_core::BB<English>>)> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../dama-core/tests/data/pdn/pdn3-test-suite/succeed/Tricks_traps_and_shots.pdn");
    let text = std::fs::read_to_string(&p).expect("shared test data");
    let mut out = Vec::new();
    for g in read_all(&text).into_iter().flatten() {
        if g.tag("FEN").is_none() {
            continue;
        }
        let Ok(r) = replay::<English>(&g) else { continue };
        let Some(shot) = r.moves.first() else { continue };
        out.push((g.tag("Event").unwrap_or("?").to_string(), *r.game.start(), *shot));
    }
    out
}

#[test]
fn finds_the_shots_of_tricks_traps_and_shots() {
    let stop = AtomicBool::new(false);
    let (mut tried, mut found, mut misses) = (0, 0, Vec::new());
    for (name, start, shot) in book_shots() {
        let mut s = Searcher::<English>::new(16, EvalKind::default_for::<English>());
        let out = s.think(&start, &[], Limits { nodes: Some(BUDGET), ..Limits::default() }, &stop, &mut |_| {});
        tried += 1;
        if out.best == Some(shot) {
            found += 1;
        } else {
            misses.push(name);
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

#[test]
fn analysis_lines_are_distinct_moves_best_first_and_the_shot_leads() {
    let stop = AtomicBool::new(false);
    let (mut tried, mut led) = (0, 0);
    for (name, start, shot) in book_shots() {
        let legal = dama_core::movegen::legal_moves(&start);
        let mut s = Searcher::<English>::new(16, EvalKind::default_for::<English>());
        let mut depths = 0;
        let a =
            s.analyse(&start, &[], Limits { nodes: Some(BUDGET), ..Limits::default() }, 3, &stop, &mut |_| depths += 1);
        tried += 1;
        assert!(depths > 0 && a.depth > 0, "no depth finished");
        assert_eq!(a.lines.len(), legal.len().min(3), "{name}");
        let firsts: Vec<_> = a.lines.iter().map(|l| l.pv[0]).collect();
        for (i, m) in firsts.iter().enumerate() {
            assert!(legal.as_slice().contains(m), "line {i} starts with an illegal move");
            assert!(!firsts[..i].contains(m), "line {i} repeats a root move");
        }
        assert!(a.lines.windows(2).all(|w| w[0].score >= w[1].score), "lines not best first");
        // Each line is a playable sequence.
        for l in &a.lines {
            let mut pos = start;
            for m in &l.pv {
                assert!(dama_core::movegen::legal_moves(&pos).as_slice().contains(m), "a line leaves the rules");
                pos = pos.play(m);
            }
        }
        led += usize::from(firsts[0] == shot);
    }
    // The single-line search finds 16 of the 18 shots on this budget; three lines share it.
    eprintln!("the shot leads in {led} of {tried}");
    assert!(tried >= 18 && led >= 14, "the shot leads in {led} of {tried}");
}

#[test]
fn analysis_with_as_many_lines_as_moves_scores_every_move() {
    let pos = parse_fen::<Russian>("W:Wc3,e3,g3,a1:Bf6,d6,b6,h8").unwrap();
    let legal = dama_core::movegen::legal_moves(&pos);
    let mut s = Searcher::<Russian>::new(16, EvalKind::default_for::<Russian>());
    let stop = AtomicBool::new(false);
    let a = s.analyse(&pos, &[], Limits { depth: Some(5), ..Limits::default() }, 99, &stop, &mut |_| {});
    assert_eq!(a.depth, 5);
    let mut firsts: Vec<_> = a.lines.iter().map(|l| l.pv[0]).collect();
    firsts.sort_by_key(|m| (m.from, m.to));
    let mut all = legal.as_slice().to_vec();
    all.sort_by_key(|m| (m.from, m.to));
    assert_eq!(firsts, all);
}

#[test]
fn the_book_shots_are_found_as_puzzles_and_the_start_is_not_one() {
    use dama_engine::puzzle::find;
    let (mut tried, mut found) = (0, 0);
    for (_, start, shot) in book_shots() {
        let mut s = Searcher::<English>::new(16, EvalKind::default_for::<English>());
        tried += 1;
        if let Some(f) = find(&mut s, &start, &[], Limits { nodes: Some(BUDGET), ..Limits::default() }) {
            // The solution is the book's shot, played by the side to move, and a line
            // that ends with the solver's move.
            assert_eq!(f.line.len() % 2, 1);
            found += usize::from(f.line[0] == shot);
        }
    }
    eprintln!("{found} of {tried} shots found as puzzles");
    // 11 of the 18 pass (the others gain less than that, or another move comes close:
    // in the book they win in the long run, or save a lost game).
    assert!(found >= 10, "{found} of {tried}");
    let mut s = Searcher::<English>::new(16, EvalKind::default_for::<English>());
    let start = dama_core::Position::<English>::start();
    assert!(find(&mut s, &start, &[], Limits { nodes: Some(BUDGET), ..Limits::default() }).is_none());
}
