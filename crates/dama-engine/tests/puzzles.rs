//! Puzzles: a line ends at its point, and a move off the line is judged as the
//! endgame tables (built here from nothing) say: every move that wins is accepted,
//! every move that does not is refused.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use dama_core::fen::parse_fen;
use dama_core::movegen::legal_moves;
use dama_core::notation::{line_to_strings, parse_move};
use dama_core::variant::Russian;
use dama_core::{Move, Position, BB};
use dama_engine::egdb::index::{Indexer, Material};
use dama_engine::egdb::{self, Egdb};
use dama_engine::eval::EvalKind;
use dama_engine::puzzle::{find, judge};
use dama_engine::search::{Limits, Searcher};

/// The budget the server finds and judges puzzles with by default.
const NODES: u64 = 200_000;

fn limits() -> Limits {
    Limits { nodes: Some(NODES), ..Limits::default() }
}

/// Russian tables up to three pieces, built once for all tests.
fn tables() -> &'static Arc<Egdb<Russian>> {
    static DB: OnceLock<Arc<Egdb<Russian>>> = OnceLock::new();
    DB.get_or_init(|| {
        let dir: PathBuf = std::env::temp_dir().join(format!("dama-puzzle-egdb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        egdb::build::<Russian>(&dir, 3, 2, &mut |_| {}).expect("build");
        Arc::new(Egdb::open(&dir).expect("readable").expect("built"))
    })
}

/// Whether the side to move of `pos`, having just been moved to, has lost by the
/// tables (or has no move): the move that led here wins.
fn wins_by_tables(after: &Position<Russian>) -> bool {
    if legal_moves(after).is_empty() {
        return true;
    }
    tables().probe(after).and_then(|v| v.plies()).is_some_and(|(loses, _)| loses)
}

/// A searcher with no tables (the search decides), or with the tables.
fn searcher(with_tables: bool) -> Searcher<Russian> {
    let mut s = Searcher::<Russian>::new(16, EvalKind::default_for::<Russian>());
    s.egdb = with_tables.then(|| tables().clone());
    s
}

/// The positions of three pieces (every seventh of each material) where the side to
/// move wins, has two winning moves or more and one that does not win: (position,
/// winning moves, the others).
type Split = (Position<Russian>, Vec<Move<BB<Russian>>>, Vec<Move<BB<Russian>>>);
fn two_winning_moves() -> Vec<Split> {
    let ix = Indexer::<Russian>::new();
    let mut out = Vec::new();
    for m in Material::all_with(3).into_iter().filter(|m| m.pieces() == 3) {
        for pos in ix.every(m).step_by(7) {
            let wins = tables().probe(&pos).and_then(|v| v.plies()).is_some_and(|(loses, d)| !loses && d >= 5);
            if !wins {
                continue;
            }
            let (win, other): (Vec<_>, Vec<_>) = legal_moves(&pos).iter().partition(|m| wins_by_tables(&pos.play(m)));
            if win.len() >= 2 && !other.is_empty() {
                out.push((pos, win, other));
            }
        }
    }
    out
}

#[test]
fn the_reported_line_ends_once_the_man_is_won() {
    // USSR 1947: Black gives a man on f4 and takes two back with h4:f6:h8. The
    // engine's line goes on with quiet moves; the puzzle ends with the capture.
    let pos = parse_fen::<Russian>("B:Wg7,a3,c3,e3,b2,f2,h2,c1,e1,g1:Bb8,d8,f8,c7,e7,b6,h6,g5,h4").unwrap();
    let f = find(&mut searcher(false), &pos, &[], limits()).expect("a puzzle");
    assert_eq!(line_to_strings(&pos, &f.line, true), ["g5-f4", "e3:g5", "h4:f6:h8"]);
}

#[test]
fn with_the_tables_every_winning_move_is_accepted_and_every_other_refused() {
    let cases = two_winning_moves();
    assert!(cases.len() >= 100, "{} positions", cases.len());
    let mut s = searcher(true);
    for (pos, win, other) in &cases {
        for m in win {
            let j = judge(&mut s, pos, &[*m], None, limits());
            assert!(j.accepted, "{} {m:?} wins by the tables: {j:?}", dama_core::fen::write_fen(pos));
        }
        for m in other {
            let j = judge(&mut s, pos, &[*m], None, limits());
            assert!(!j.accepted, "{} {m:?} does not win by the tables: {j:?}", dama_core::fen::write_fen(pos));
        }
    }
}

/// Positions where two moves win and another draws or loses (by the tables), judged
/// by the search alone: (position, winning moves, a move that does not win).
const BY_SEARCH: &[(&str, &[&str], &str)] = &[
    ("W:Wa3,e1:Bg5", &["a3-b4", "e1-f2"], "e1-d2"),
    ("W:We5,e1:Bg7", &["e1-f2", "e1-d2", "e5-d6"], "e5-f6"),
    ("W:Wd4,h2:Bh6", &["h2-g3", "d4-c5"], "d4-e5"),
];

#[test]
fn without_tables_the_search_judges_the_same() {
    let mut s = searcher(false);
    for (fen, win, other) in BY_SEARCH {
        let pos = parse_fen::<Russian>(fen).unwrap();
        for m in win.iter().chain([other]) {
            let mv = parse_move(&pos, m).unwrap();
            let truth = wins_by_tables(&pos.play(&mv));
            assert_eq!(truth, m != other, "{fen} {m}: the tables");
            let j = judge(&mut s, &pos, &[mv], None, limits());
            assert_eq!(j.accepted, truth, "{fen} {m}: {j:?}");
            // Accepted and not over yet: the engine's line goes on from the reply
            // and ends with a solver's move; the same question, the same answer.
            if j.accepted && !j.solved {
                assert_eq!(j.line.len() % 2, 0, "{fen} {m}: {j:?}");
            }
            assert_eq!(judge(&mut searcher(false), &pos, &[mv], None, limits()), j, "{fen} {m}");
        }
    }
}
