//! Property tests over positions reached by random play in every variant:
//! FEN and move text round trips, incremental hashing, piece conservation,
//! `is_legal` against the move list, and no panic on arbitrary text.

use dama_core::fen::{parse_fen, write_fen};
use dama_core::geometry::Geometry;
use dama_core::movegen::{is_legal, legal_moves};
use dama_core::notation::{move_to_string, parse_move};
use dama_core::{Bits, Move, Position, Rules, Variant, VariantFn, BB};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

struct Walk {
    seed: u64,
    plies: usize,
}

fn check_position<R: Rules>(pos: &Position<R>, rng: &mut StdRng) -> Result<(), TestCaseError> {
    // Hash kept incrementally equals the hash from scratch.
    prop_assert_eq!(pos.hash(), pos.compute_hash());
    // FEN round trip.
    let fen = write_fen(pos);
    let back = parse_fen::<R>(&fen).map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
    prop_assert_eq!(back.to_setup(), pos.to_setup(), "FEN {}", fen);
    prop_assert_eq!(write_fen(&back), fen.clone());
    // The bit-set constructor agrees with the setup one.
    let men = [pos.men(dama_core::Color::White), pos.men(dama_core::Color::Black)];
    let kings = [pos.kings_of(dama_core::Color::White), pos.kings_of(dama_core::Color::Black)];
    let from_bits = Position::<R>::from_bits(men, kings, pos.side()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    // (Pieces only: a Frisian position's king-move counts are not in its bit sets.)
    if pos.king_runs() == [dama_core::position::KingRun::default(); 2] {
        prop_assert_eq!(from_bits.hash(), pos.hash());
    }
    prop_assert_eq!(from_bits.to_setup(), pos.to_setup());
    let moves = legal_moves(pos);
    for m in moves.iter() {
        // Move text round trip, short (where unambiguous) and long.
        for long in [false, true] {
            let text = move_to_string(pos, m, long);
            let parsed = parse_move(pos, &text).map_err(|e| TestCaseError::fail(format!("{fen} {text}: {e}")))?;
            prop_assert_eq!(parsed, *m, "{} {}", fen, text);
        }
        prop_assert!(is_legal(pos, m));
        // Pieces are conserved: the mover keeps all, the other side loses the captured.
        let next = pos.play(m);
        let us = pos.side();
        prop_assert_eq!(next.pieces(us).count(), pos.pieces(us).count());
        prop_assert_eq!(next.pieces(!us).count(), pos.pieces(!us).count() - m.captured.count());
        prop_assert_eq!(next.hash(), next.compute_hash());
    }
    // Random candidate moves: is_legal agrees with the list.
    let squares = R::G::LAYOUT.squares;
    for _ in 0..20 {
        let bit = |i: usize| R::G::LAYOUT.bit_of[i];
        let from = bit(rng.gen_range(0..squares));
        let to = bit(rng.gen_range(0..squares));
        let mut captured = BB::<R>::ZERO;
        if rng.gen_bool(0.3) {
            captured = BB::<R>::bit(bit(rng.gen_range(0..squares)) as u32);
        }
        let m = Move { from, to, promote: rng.gen_bool(0.1), captured };
        prop_assert_eq!(is_legal(pos, &m), moves.as_slice().contains(&m), "{} {:?}", fen, m);
    }
    Ok(())
}

impl VariantFn for Walk {
    type Output = Result<(), TestCaseError>;
    fn call<R: Rules>(self) -> Result<(), TestCaseError> {
        let mut rng = StdRng::seed_from_u64(self.seed);
        let mut pos = Position::<R>::start();
        for _ in 0..self.plies {
            check_position(&pos, &mut rng)?;
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves.as_slice()[rng.gen_range(0..moves.len())]);
        }
        Ok(())
    }
}

struct NoPanic<'a>(&'a str);
impl VariantFn for NoPanic<'_> {
    type Output = ();
    fn call<R: Rules>(self) {
        let _ = parse_fen::<R>(self.0);
        let pos = Position::<R>::start();
        let _ = parse_move(&pos, self.0);
    }
}

fn variant() -> impl Strategy<Value = Variant> {
    (0..Variant::ALL.len()).prop_map(|i| Variant::ALL[i])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_keep_every_invariant(v in variant(), seed in any::<u64>(), plies in 1usize..160) {
        v.visit(Walk { seed, plies })?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_never_panics(v in variant(), s in ".{0,60}") {
        v.visit(NoPanic(&s));
    }

    #[test]
    fn fen_like_text_never_panics(
        v in variant(),
        s in "[WBwb\"]?(:[WBKwbk]?[0-9a-lK,\\-. ]{0,30}){0,4}[.]?",
    ) {
        v.visit(NoPanic(&s));
    }

    #[test]
    fn move_like_text_never_panics(v in variant(), s in "[a-l0-9xX:\\- ]{0,20}") {
        v.visit(NoPanic(&s));
    }
}
