//! Differential test against the `kish` crate (Turkish draughts): on thousands of
//! positions reached by random play, both generators give the same set of moves,
//! compared by the positions they lead to.

use std::collections::BTreeSet;

use dama_core::movegen::legal_moves;
use dama_core::variant::Turkish;
use dama_core::{Color, Position};
use kish::{Board, State, Team};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

type Pieces = (u64, u64, u64);

fn ours(pos: &Position<Turkish>) -> BTreeSet<Pieces> {
    legal_moves(pos)
        .iter()
        .map(|m| {
            let p = pos.play(m);
            (p.pieces(Color::White), p.pieces(Color::Black), p.kings())
        })
        .collect()
}

fn theirs(pos: &Position<Turkish>) -> BTreeSet<Pieces> {
    let team = match pos.side() {
        Color::White => Team::White,
        Color::Black => Team::Black,
    };
    let state = State { pieces: [pos.pieces(Color::White), pos.pieces(Color::Black)], kings: pos.kings() };
    let board = Board::new(team, state);
    board
        .actions()
        .iter()
        .map(|a| {
            let b = board.apply(a);
            (b.state.pieces[0], b.state.pieces[1], b.state.kings)
        })
        .collect()
}

#[test]
fn same_moves_as_kish_on_random_games() {
    let mut rng = StdRng::seed_from_u64(0x6b69_7368);
    let mut positions = 0;
    let mut with_kings = 0;
    let mut captures = 0;
    for _game in 0..400 {
        let mut pos = Position::<Turkish>::start();
        for _ply in 0..150 {
            let a = ours(&pos);
            let b = theirs(&pos);
            assert_eq!(a, b, "move sets differ at {pos:?}");
            positions += 1;
            if pos.kings().count_ones() > 0 {
                with_kings += 1;
            }
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            if moves.as_slice()[0].is_capture() {
                captures += 1;
            }
            let m = moves.as_slice()[rng.gen_range(0..moves.len())];
            pos = pos.play(&m);
        }
    }
    // The sample must reach the interesting parts of the rules.
    assert!(positions > 20_000, "{positions} positions");
    assert!(with_kings > 2_000, "{with_kings} positions with kings");
    assert!(captures > 2_000, "{captures} capture positions");
}
