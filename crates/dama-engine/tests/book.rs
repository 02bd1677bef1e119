//! Opening books: reading, building from games, and choosing with variety.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use dama_core::notation::parse_move;
use dama_core::variant::{English, International};
use dama_core::{Position, Rules, Variant};
use dama_engine::book::{self, Book, BuildOptions, PLAY_MARGIN};
use dama_engine::level::Level;
use dama_engine::player::player;
use dama_engine::search::Limits;
use rand::rngs::StdRng;
use rand::SeedableRng;

#[test]
fn a_bad_book_line_is_named() {
    let err = Book::parse("# header\n0123 11-15 12 3\nzz 11-15 1 1\n").expect_err("bad key");
    assert_eq!(err.line, 3);
    assert!(err.to_string().contains("not hexadecimal"), "{err}");
    let err = Book::parse("0123 11-15 twelve 3\n").expect_err("bad score");
    assert!(err.to_string().contains("line 1") && err.to_string().contains("score"), "{err}");
}

#[test]
fn every_variant_has_a_book_whose_moves_are_legal() {
    for v in Variant::ALL {
        let b = book::builtin(v).unwrap_or_else(|| panic!("{v} has no book"));
        assert!(b.len() >= 50, "{v}: {} positions", b.len());
        struct Start;
        impl dama_core::VariantFn for Start {
            type Output = usize;
            fn call<R: Rules>(self) -> usize {
                let b = book::builtin(R::VARIANT).expect("book");
                b.moves(&Position::<R>::start()).len()
            }
        }
        assert!(v.visit(Start) >= 1, "{v}: the start position is not in its book");
    }
}

#[test]
fn the_book_chooses_among_near_best_moves_with_variety() {
    let b = book::builtin(Variant::English).expect("book");
    let start = Position::<English>::start();
    let moves = b.moves(&start);
    let best = moves.iter().map(|(_, e)| e.score).max().expect("moves");
    let mut rng = StdRng::seed_from_u64(7);
    let mut chosen = HashSet::new();
    for _ in 0..200 {
        let (m, score) = b.pick(&start, &mut rng).expect("a book move");
        assert!(score >= best - PLAY_MARGIN);
        assert!(dama_core::movegen::is_legal(&start, &m));
        chosen.insert(m);
    }
    let near = moves.iter().filter(|(_, e)| e.score >= best - PLAY_MARGIN).count();
    assert_eq!(chosen.len(), near, "every near-best move is played sometimes");
}

#[test]
fn games_from_a_collection_enter_the_book_when_played_often_enough() {
    let line = |t: &[&str]| {
        let mut p = Position::<International>::start();
        t.iter()
            .map(|s| {
                let m = parse_move(&p, s).expect(s);
                p = p.play(&m);
                m
            })
            .collect::<Vec<_>>()
    };
    let games = vec![
        line(&["32-28", "19-23"]),
        line(&["32-28", "19-23"]),
        line(&["34-29"]),
        line(&["33-29", "19-24"]),
        line(&["33-29", "19-24"]),
    ];
    let o = BuildOptions { engine_plies: 1, game_plies: 4, width: 1, margin: 20, min_count: 2, depth: 6 };
    let b = Book::build::<International>(&games, o, &mut |_| {});
    let start = Position::<International>::start();
    let at_start = b.moves(&start);
    let best = at_start.iter().map(|(_, e)| e.score).max().expect("moves");
    for (_, e) in &at_start {
        // Played twice or more, or the engine's own best; never far below the best.
        assert!(e.count >= 2 || e.score == best, "{e:?}");
        assert!(e.score >= best - 20, "{e:?}");
    }
    let played: Vec<_> = at_start.iter().filter(|(_, e)| e.count > 0).map(|(_, e)| (e.mv.as_str(), e.count)).collect();
    assert!(played.iter().all(|(m, c)| *c == 2 && (*m == "32-28" || *m == "33-29")), "{played:?}");
    // The replies to 32-28 were looked at (played twice).
    let after = start.play(&parse_move(&start, "32-28").expect("move"));
    assert!(!b.moves(&after).is_empty());
    // The text form reads back the same.
    let again = Book::parse(&b.to_text("test")).expect("reads");
    assert_eq!(again.len(), b.len());
}

#[test]
fn the_top_levels_open_from_the_book_and_the_others_search() {
    let stop = AtomicBool::new(false);
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let mut p = player(Variant::English, 8, None, 3);
    p.set_book(true);
    let d = p.think(limits, Level::new(10), &stop, &mut |_| {});
    assert_eq!((d.depth, d.nodes), (0, 0), "a book move");
    let d = p.think(limits, Level::new(5), &stop, &mut |_| {});
    assert!(d.nodes > 0, "level 5 searches");
    p.set_book(false);
    let d = p.think(limits, Level::new(10), &stop, &mut |_| {});
    assert!(d.nodes > 0, "book off: searches");
}
