//! Stand-in opponents for measuring the lowest levels: a random mover, and a beginner
//! who plays legal moves, looks one move ahead for material only and otherwise plays
//! at random.

use dama_core::movegen::legal_moves;
use dama_core::{Bits, Color, Move, Position, Rules, BB};
use rand::seq::SliceRandom;
use rand::Rng;

/// Who plays instead of the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persona {
    /// Any legal move, each as likely.
    Random,
    /// Takes the capture that wins most; does not leave a piece to be taken when some
    /// move avoids it; otherwise any move. Sees one move of each side, material only.
    Beginner,
}

/// Material of `c` less the opponent's: a man is 1, a king 3 (in hundredths).
fn material<R: Rules>(pos: &Position<R>, c: Color) -> i32 {
    let side = |c: Color| 100 * pos.men(c).count() as i32 + 300 * pos.kings_of(c).count() as i32;
    side(c) - side(!c)
}

/// What `mv` leaves the mover after the opponent's best reply, counting material only
/// (a win when the opponent has no move).
pub fn beginner_score<R: Rules>(pos: &Position<R>, mv: &Move<BB<R>>) -> i32 {
    let me = pos.side();
    let after = pos.play(mv);
    let replies = legal_moves(&after);
    replies.iter().map(|r| material(&after.play(r), me)).min().unwrap_or(i32::MAX)
}

/// The persona's move in `pos`, or None when there is no legal move.
pub fn choose<R: Rules>(pos: &Position<R>, persona: Persona, rng: &mut impl Rng) -> Option<Move<BB<R>>> {
    let moves: Vec<Move<BB<R>>> = legal_moves(pos).iter().copied().collect();
    match persona {
        Persona::Random => moves.choose(rng).copied(),
        Persona::Beginner => {
            let scored: Vec<(Move<BB<R>>, i32)> = moves.iter().map(|m| (*m, beginner_score(pos, m))).collect();
            let best = scored.iter().map(|s| s.1).max()?;
            let top: Vec<Move<BB<R>>> = scored.iter().filter(|s| s.1 == best).map(|s| s.0).collect();
            top.choose(rng).copied()
        }
    }
}

#[cfg(test)]
mod tests {
    use dama_core::fen::parse_fen;
    use dama_core::variant::International;
    use dama_core::Variant;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::*;
    use crate::player::player;

    #[test]
    fn the_personas_play_only_legal_moves_to_the_end_of_a_game() {
        for seed in 0..4 {
            let mut p = player(Variant::International, 1, None, seed);
            let mut moves: Vec<String> = Vec::new();
            for ply in 0..300 {
                p.set_position(None, &moves).unwrap();
                let legal = p.legal_moves();
                let persona = if ply % 2 == 0 { Persona::Random } else { Persona::Beginner };
                match p.persona_move(persona) {
                    Some(m) => {
                        assert!(legal.contains(&m), "{m} is not among {legal:?}");
                        moves.push(m);
                    }
                    None => {
                        assert!(legal.is_empty(), "no move chosen among {legal:?}");
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn the_beginner_does_not_leave_a_man_to_be_taken_when_it_can_avoid_it() {
        // White men on 32 and 48, a black man on 22: 32-27 and 32-28 each let Black
        // take the man; 48-42 and 48-43 leave nothing to take.
        let pos = parse_fen::<International>("W:W32,48:B22").unwrap();
        let hanging =
            legal_moves(&pos).iter().filter(|m| legal_moves(&pos.play(m)).iter().any(|r| r.is_capture())).count();
        assert_eq!(hanging, 2);
        for seed in 0..50 {
            let mut rng = StdRng::seed_from_u64(seed);
            let m = choose(&pos, Persona::Beginner, &mut rng).unwrap();
            let after = pos.play(&m);
            assert!(!legal_moves(&after).iter().any(|r| r.is_capture()), "seed {seed}: a man left to be taken");
        }
        // The random mover does leave it, sometimes.
        let mut rng = StdRng::seed_from_u64(1);
        let hangs = (0..200)
            .filter(|_| {
                let m = choose(&pos, Persona::Random, &mut rng).unwrap();
                legal_moves(&pos.play(&m)).iter().any(|r| r.is_capture())
            })
            .count();
        assert!(hangs > 0);
    }

    #[test]
    fn the_beginner_takes_the_capture_that_wins_most() {
        // Black's man on 23 takes one man either way: 23x32 (over 28) lets 37x28 take
        // it back, 23x34 (over 29) leaves it safe.
        let pos = parse_fen::<International>("B:W28,29,37:B23").unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..20 {
            let m = choose(&pos, Persona::Beginner, &mut rng).unwrap();
            assert!(m.is_capture());
            assert!(
                !legal_moves(&pos.play(&m)).iter().any(|r| r.is_capture()),
                "the capture left its man to be taken back"
            );
        }
    }
}
