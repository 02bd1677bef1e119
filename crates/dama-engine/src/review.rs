//! A game reviewed by the engine: how much each move gave away against the best move,
//! the mistakes that stand out, and an accuracy per player.
//!
//! Scores become winning chances, from -1 (lost) to 1 (won) for the side to move, so
//! that a man thrown away in a won ending counts for less than in a balanced position.
//! A move is an inaccuracy when it costs 0.1 of those chances, a mistake at 0.2, a
//! blunder at 0.3 (the thresholds lichess uses for chess). A move's accuracy follows
//! the win percentage it gave away, by the curve lichess publishes for chess
//! (`103.1668 * exp(-0.04354 * drop) - 3.1669`, clamped to 0-100); a player's
//! accuracy is the mean over their moves.

use crate::search::plies_to_end;

/// Hundredths of a man at which the chances are about 0.76 (e.g. a man and a half up).
const SCALE: f64 = 150.0;

/// The winning chances of a score for the side to move, -1 to 1; a known end is ±1.
pub fn chances(score: i32) -> f64 {
    if let Some(p) = plies_to_end(score) {
        return if p > 0 { 1.0 } else { -1.0 };
    }
    let s = f64::from(score.clamp(-2000, 2000));
    2.0 / (1.0 + (-s / SCALE).exp()) - 1.0
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgment {
    /// Gave away 0.1 of the winning chances or more.
    Inaccuracy,
    /// 0.2 or more.
    Mistake,
    /// 0.3 or more.
    Blunder,
}

impl Judgment {
    /// `inaccuracy`, `mistake` or `blunder`.
    pub fn key(self) -> &'static str {
        match self {
            Judgment::Inaccuracy => "inaccuracy",
            Judgment::Mistake => "mistake",
            Judgment::Blunder => "blunder",
        }
    }

    /// The annotation glyph: `?!`, `?` or `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Judgment::Inaccuracy => "?!",
            Judgment::Mistake => "?",
            Judgment::Blunder => "??",
        }
    }
}

/// One move reviewed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveReview {
    /// Winning chances given away (0 to 2).
    pub loss: f64,
    /// The judgment, when the loss is large enough.
    pub judgment: Option<Judgment>,
    /// Accuracy, 0 to 100.
    pub accuracy: f64,
}

/// Reviews a move: `before` is the score of the position for the mover, `after` the
/// score of the position after the move for the opponent; `best` says the move was
/// the engine's own choice (then it gave nothing away, whatever the two searches say).
pub fn judge(before: i32, after: i32, best: bool) -> MoveReview {
    let (was, is) = (chances(before), -chances(after));
    let loss = if best { 0.0 } else { (was - is).max(0.0) };
    let judgment = match loss {
        l if l >= 0.3 => Some(Judgment::Blunder),
        l if l >= 0.2 => Some(Judgment::Mistake),
        l if l >= 0.1 => Some(Judgment::Inaccuracy),
        _ => None,
    };
    // Win percentages 0-100: chances -1..1 mapped onto them.
    let drop = 50.0 * loss;
    let accuracy = (103.1668 * (-0.04354 * drop).exp() - 3.1669).clamp(0.0, 100.0);
    MoveReview { loss, judgment, accuracy }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{DB_WIN, MATE};

    #[test]
    fn chances_grow_with_the_score_and_a_known_end_is_certain() {
        assert_eq!(chances(0), 0.0);
        assert!(chances(100) > 0.3 && chances(100) < 0.4, "{}", chances(100));
        assert!((chances(-100) + chances(100)).abs() < 1e-12);
        assert_eq!(chances(MATE - 7), 1.0);
        assert_eq!(chances(-(DB_WIN - 30)), -1.0);
    }

    #[test]
    fn a_man_thrown_away_from_level_is_a_blunder_and_the_best_move_costs_nothing() {
        // Level before; after the move the opponent is a man and a half up.
        let r = judge(0, 150, false);
        assert_eq!(r.judgment, Some(Judgment::Blunder));
        assert!(r.accuracy < 50.0, "{}", r.accuracy);
        // The engine's own move: nothing lost even if the deeper search disagrees.
        let r = judge(20, 60, true);
        assert_eq!((r.loss, r.judgment), (0.0, None));
        assert!(r.accuracy > 99.9);
        // In a won ending, a few hundredths lost are nothing.
        assert_eq!(judge(1500, -1400, false).judgment, None);
        // Throwing away a known win is a blunder.
        assert_eq!(judge(MATE - 9, 0, false).judgment, Some(Judgment::Blunder));
        // A small slip.
        assert_eq!(judge(0, 32, false).judgment, Some(Judgment::Inaccuracy));
        assert_eq!(judge(0, 65, false).judgment, Some(Judgment::Mistake));
    }
}
