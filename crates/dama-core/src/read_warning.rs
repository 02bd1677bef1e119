//! What replaying a record's moves reads past, typed: a move the record writes
//! ambiguously, a variation that stops being legal, a tree cut at its size limit. Each
//! kind has a short code and its details, so a client can word it in its reader's
//! language; the English words are its `Display`.

use crate::pdn::Pos;
use crate::record::ReplayErrorKind;

/// A warning about one move of a record, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {}, column {} (\"{text}\"): {what}", at.line, at.col)]
pub struct ReadWarning {
    /// Where the move is.
    pub at: Pos,
    /// The move as written.
    pub text: String,
    /// What.
    pub what: ReadWarningKind,
}

/// The kinds of [`ReadWarning`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadWarningKind {
    /// The move fits several captures (these, in long form) to the end of the record,
    /// and is read as the first.
    #[error("could be {}; the record does not tell which, read as the first", .0.join(" or "))]
    Ambiguous(Vec<String>),
    /// A variation sets up a position inside its moves: it ends there.
    #[error("a position set up inside the moves ends the line there")]
    SetupInMoves,
    /// A variation stops at a move it cannot play: why, as a replay error would say.
    #[error("the variation stops here: {why}")]
    VariationStops {
        /// Which rule the move breaks.
        kind: ReplayErrorKind,
        /// The reason in English.
        why: String,
    },
    /// A tree is cut at this many moves.
    #[error("only the first {0} moves are kept")]
    TooManyMoves(usize),
}

impl ReadWarningKind {
    /// A short name (`ambiguous`, `setup_in_moves`, `variation_<replay error code>`,
    /// `too_many_moves`), the same in every language, for clients to word.
    pub fn code(&self) -> &'static str {
        use ReplayErrorKind as R;
        match self {
            ReadWarningKind::Ambiguous(_) => "ambiguous",
            ReadWarningKind::SetupInMoves => "setup_in_moves",
            ReadWarningKind::VariationStops { kind, .. } => match kind {
                R::Setup => "variation_setup",
                R::IllegalMove => "variation_illegal_move",
                R::AmbiguousMove => "variation_ambiguous_move",
                R::BadMoveText => "variation_bad_move_text",
                R::ResultMismatch => "variation_result_mismatch",
            },
            ReadWarningKind::TooManyMoves(_) => "too_many_moves",
        }
    }

    /// The moves it names (the readings of an ambiguous move), joined by " / ".
    pub fn moves(&self) -> Option<String> {
        match self {
            ReadWarningKind::Ambiguous(c) => Some(c.join(" / ")),
            _ => None,
        }
    }

    /// The number it names (a tree's limit).
    pub fn n(&self) -> Option<usize> {
        match self {
            ReadWarningKind::TooManyMoves(n) => Some(*n),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_words() {
        let w = ReadWarning {
            at: Pos { line: 2, col: 5 },
            text: "9x18".into(),
            what: ReadWarningKind::Ambiguous(vec!["9x18x27".into(), "9x18x25".into()]),
        };
        assert_eq!(
            w.to_string(),
            "line 2, column 5 (\"9x18\"): could be 9x18x27 or 9x18x25; the record does not tell which, read as the first"
        );
        assert_eq!((w.what.code(), w.what.moves().as_deref()), ("ambiguous", Some("9x18x27 / 9x18x25")));
        let v = ReadWarningKind::VariationStops { kind: ReplayErrorKind::IllegalMove, why: "no".into() };
        assert_eq!(v.code(), "variation_illegal_move");
    }
}
