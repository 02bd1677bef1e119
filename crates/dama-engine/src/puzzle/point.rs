//! The point of a puzzle: the material its line wins, and the solver's move after
//! which that gain is held (the puzzle ends there, rather than asking for quiet moves
//! once the material is in hand).

use dama_core::fen::parse_fen;
use dama_core::movegen::has_capture;
use dama_core::notation::parse_move;
use dama_core::{Bits, Color, Move, Position, Rules, Variant, VariantFn, BB};

use super::GAIN;

/// The material of `side` less its opponent's: a man 100, a king 150.
pub fn material<R: Rules>(pos: &Position<R>, side: Color) -> i32 {
    let of = |c| 100 * pos.men(c).count() as i32 + 150 * pos.kings_of(c).count() as i32;
    of(side) - of(!side)
}

/// What the side to move of `start` has gained in material after each ply of `line`
/// (the first entry is after the first move), where it is settled: `None` where the
/// side to move must capture (an exchange under way: a man given is about to be taken
/// back, or a man taken about to be paid for).
pub fn gains<R: Rules>(start: &Position<R>, line: &[Move<BB<R>>]) -> Vec<Option<i32>> {
    let (side, before) = (start.side(), material(start, start.side()));
    let mut p = *start;
    line.iter()
        .map(|m| {
            p = p.play(m);
            (!has_capture(&p)).then(|| material(&p, side) - before)
        })
        .collect()
}

/// Where a line makes its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// The plies up to the solver's move that makes it (odd: that move is the last).
    pub plies: usize,
    /// The gain held from there on, in hundredths of a man.
    pub gain: i32,
}

/// The point of a line whose settled gains after each ply are `gains` ([`gains`]):
/// the last settled gain, when it is [`GAIN`] or more, and the first of the solver's
/// moves (plies 0, 2, 4...) after which the gain is settled (at once, or after the
/// opponent's forced capture) and never falls below it again. `None` for a line that wins no material (a puzzle whose point is the win of
/// the game).
pub fn point(gains: &[Option<i32>]) -> Option<Point> {
    let held = gains.iter().rev().find_map(|g| *g)?;
    if held < GAIN {
        return None;
    }
    held_from(gains, held, 0).map(|i| Point { plies: i + 1, gain: held })
}

/// The first of the solver's plies at `from` or after (even indices) whose gain is
/// settled there or after the reply, and from which every settled gain of `gains` is
/// `held` or more; `None` when there is none.
pub fn held_from(gains: &[Option<i32>], held: i32, from: usize) -> Option<usize> {
    let mut first = None;
    for (i, g) in gains.iter().enumerate().skip(from).rev() {
        if g.is_some_and(|g| g < held) {
            break;
        }
        let settled = g.is_some() || gains.get(i + 1).is_some_and(Option::is_some);
        if i % 2 == 0 && settled {
            first = Some(i);
        }
    }
    first
}

/// A line in long notation from `start`, its moves read.
pub fn read_line<R: Rules>(start: &Position<R>, line: &[String]) -> Result<Vec<Move<BB<R>>>, String> {
    let mut p = *start;
    line.iter()
        .map(|t| {
            let m = parse_move(&p, t).map_err(|e| format!("{t}: {e}"))?;
            p = p.play(&m);
            Ok(m)
        })
        .collect()
}

/// A stored puzzle's line (long notation, from `fen`) up to its point: lines kept
/// before they were cut there, or found with another budget, end where the puzzle's
/// point is made. A line with no point in material is left whole.
pub fn line_to_point(variant: Variant, fen: &str, line: &[String]) -> Result<Vec<String>, String> {
    struct Cut<'a>(&'a str, &'a [String]);
    impl VariantFn for Cut<'_> {
        type Output = Result<Vec<String>, String>;
        fn call<R: Rules>(self) -> Self::Output {
            let start = parse_fen::<R>(self.0).map_err(|e| e.to_string())?;
            let moves = read_line(&start, self.1)?;
            let plies = point(&gains(&start, &moves)).map_or(moves.len(), |p| p.plies);
            Ok(self.1[..plies].to_vec())
        }
    }
    variant.visit(Cut(fen, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::variant::Russian;

    fn line(fen: &str, moves: &[&str]) -> (Position<Russian>, Vec<Move<BB<Russian>>>) {
        let start = parse_fen::<Russian>(fen).unwrap();
        let mut p = start;
        let mut out = Vec::new();
        for m in moves {
            let mv = parse_move(&p, m).unwrap();
            p = p.play(&mv);
            out.push(mv);
        }
        (start, out)
    }

    #[test]
    fn the_point_is_the_move_after_which_the_gain_is_held() {
        // USSR 1947: Black gives a man on f4 and takes two back with h4:f6:h8. The
        // engine's line goes on with quiet moves; the man won is held from the
        // capture on, so the puzzle is three plies long.
        let fen = "B:Wg7,a3,c3,e3,b2,f2,h2,c1,e1,g1:Bb8,d8,f8,c7,e7,b6,h6,g5,h4";
        let moves = ["g5-f4", "e3:g5", "h4:f6:h8", "c3-d4", "h8-g7", "b2-c3", "e7-d6", "h2-g3", "g7-f6"];
        let (start, l) = line(fen, &moves);
        let g = gains(&start, &l);
        // Mid-exchange after the first two plies: White must take, then Black.
        assert_eq!(g, [None, None, Some(100), Some(100), Some(100), Some(100), Some(100), Some(100), Some(100)]);
        assert_eq!(point(&g), Some(Point { plies: 3, gain: 100 }));
        let text: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(line_to_point(Variant::Russian, fen, &text).unwrap(), &text[..3]);
        // An illegal line is an error, not a puzzle.
        assert!(line_to_point(Variant::Russian, fen, &["g5-f4".into(), "e3-d4".into()]).is_err());
    }

    #[test]
    fn gains_given_back_later_move_the_point() {
        let (n, o) = (None, Some);
        // Two men up after the second solver move, one given back for good after the
        // fourth: the man held is secured from the second solver move on.
        assert_eq!(point(&[o(0), n, o(200), o(200), o(200), o(100), o(100)]), Some(Point { plies: 3, gain: 100 }));
        // Won only at the last move: the whole line.
        assert_eq!(point(&[o(0), o(0), o(0), o(0), o(100)]), Some(Point { plies: 5, gain: 100 }));
        // An exchange under way (the solver offers, the opponent takes, the solver
        // takes back) does not give the man back.
        assert_eq!(point(&[o(100), o(100), n, n, o(100)]), Some(Point { plies: 1, gain: 100 }));
        // Two men taken and one taken back at once: the man is held from the capture
        // on. A last capture the opponent would answer is not a gain held: the last
        // settled gain is what counts.
        assert_eq!(point(&[o(0), o(0), n, o(100), n]), Some(Point { plies: 3, gain: 100 }));
        assert_eq!(point(&[o(0), o(0), o(100), o(100), n]), Some(Point { plies: 3, gain: 100 }));
        // A man given (taken at once) and two taken back: the point is the capture.
        assert_eq!(point(&[n, n, o(100), o(100)]), Some(Point { plies: 3, gain: 100 }));
        // A crowning is half a man: enough. Nothing won: no point in material.
        assert_eq!(point(&[o(0), o(0), o(50)]), Some(Point { plies: 3, gain: 50 }));
        assert_eq!(point(&[o(0), o(-100), o(0)]), None);
        assert_eq!(point(&[n, n]), None);
        assert_eq!(point(&[]), None);
        // Held from an opponent's ply on: the solver's next move makes the point.
        assert_eq!(held_from(&[o(0), o(100), o(100)], 100, 0), Some(2));
    }
}
