//! What the PDN reader finds, typed: a departure from strict PDN 3.0 it reads past (a
//! warning), or a construct it cannot read (the game is abandoned). Each kind has a
//! short code and its details, so a client can word it in its reader's language; the
//! English words are its `Display`.

use super::{Pos, MAX_GAME_ITEMS, MAX_VARIATION_DEPTH};

/// A problem found while reading, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {}, column {}: {what}", at.line, at.col)]
pub struct PdnIssue {
    /// Where.
    pub at: Pos,
    /// What.
    pub what: PdnIssueKind,
}

impl PdnIssue {
    /// An issue of kind `what` at `at`.
    pub fn new(at: Pos, what: PdnIssueKind) -> PdnIssue {
        PdnIssue { at, what }
    }
}

/// The kinds of [`PdnIssue`]. The first group abandons a game; the rest are read past.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PdnIssueKind {
    /// A `{` comment that the text never closes.
    #[error("comment is never closed with '}}'")]
    CommentNotClosed,
    /// A `/FEN/` setup that its line never closes.
    #[error("setup '/FEN/' is never closed")]
    SetupNotClosed,
    /// `[` with no tag name after it.
    #[error("tag without a name")]
    TagWithoutName,
    /// A tag whose value is neither quoted nor ended by `]` on its line.
    #[error("tag {0}: value must be a quoted string")]
    TagNotQuoted(String),
    /// A tag whose quoted value runs to the end of its line, with no `]` to stop at.
    #[error("tag {0}: string is never closed")]
    TagStringNotClosed(String),
    /// A tag whose value is not followed by `]`.
    #[error("tag {0}: expected ']'")]
    TagNotEnded(String),
    /// A game with more items than [`MAX_GAME_ITEMS`]; the game starts at line `.0`.
    #[error("game too large: more than {} moves, comments and annotations (the game starting at line {}); not read", MAX_GAME_ITEMS, .0)]
    GameTooLarge(usize),

    /// `{` inside a comment (kept as text).
    #[error("'{{' inside a comment: PDN comments do not nest")]
    NestedComment,
    /// `}` with no comment open (skipped).
    #[error("'}}' without an opening '{{'")]
    StrayCloseBrace,
    /// Prose in parentheses, kept as a comment.
    #[error("text in parentheses that does not read as moves is kept as a comment")]
    AsideInParentheses,
    /// A character that has no place in PDN (skipped).
    #[error("unexpected '{0}' skipped")]
    UnexpectedChar(char),
    /// `[Round 17]`: a tag value without quotes, read to the `]`.
    #[error("tag {0}: value without quotes")]
    TagWithoutQuotes(String),
    /// `[Round "17]`: a string never closed, read to the `]`.
    #[error("tag {0}: string is never closed; read to ']'")]
    TagStringReadToBracket(String),
    /// A game that ends with the text, without `1-0`, `*`, ...
    #[error("game has no result terminator")]
    NoResult,
    /// A game that ends where the next game's tags begin, without a result.
    #[error("game has no result terminator before the next game's tags")]
    NoResultBeforeTags,
    /// A `(` never closed before the game ends.
    #[error("variation is never closed with ')'")]
    VariationNotClosed,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`] (skipped).
    #[error("variations nested deeper than {} levels are skipped", MAX_VARIATION_DEPTH)]
    VariationsTooDeep,
    /// A `(` before the line it is in has a move.
    #[error("variation before any move")]
    VariationBeforeMove,
    /// `)` with no variation open.
    #[error("')' without an opening '('")]
    StrayCloseParen,
    /// A result written inside a variation (it ends the game).
    #[error("result inside a variation")]
    ResultInVariation,
    /// More warnings than the reader keeps: how many more.
    #[error("{0} more warnings not shown")]
    MoreWarnings(usize),
    /// Tags with no game after them (their names), skipped.
    #[error("tags with no game ({}) skipped", .0.join(", "))]
    StrayTags(Vec<String>),
    /// Text between games that is not a game (its first words), skipped.
    #[error("text that is not a game skipped: \"{0}\"")]
    StrayText(String),
    /// Tags followed by text that is not a game (their names, its first words), skipped.
    #[error("tags ({}) and text that is not a game skipped: \"{}\"", .0.join(", "), .1)]
    StrayTagsAndText(Vec<String>, String),
}

impl PdnIssueKind {
    /// A short name in snake case (`comment_not_closed`, `nested_comment`, ...), the
    /// same in every language, for clients to word.
    pub fn code(&self) -> &'static str {
        use PdnIssueKind as K;
        match self {
            K::CommentNotClosed => "comment_not_closed",
            K::SetupNotClosed => "setup_not_closed",
            K::TagWithoutName => "tag_without_name",
            K::TagNotQuoted(_) => "tag_not_quoted",
            K::TagStringNotClosed(_) => "tag_string_not_closed",
            K::TagNotEnded(_) => "tag_not_ended",
            K::GameTooLarge(_) => "game_too_large",
            K::NestedComment => "nested_comment",
            K::StrayCloseBrace => "stray_close_brace",
            K::AsideInParentheses => "aside_in_parentheses",
            K::UnexpectedChar(_) => "unexpected_char",
            K::TagWithoutQuotes(_) => "tag_without_quotes",
            K::TagStringReadToBracket(_) => "tag_string_read_to_bracket",
            K::NoResult => "no_result",
            K::NoResultBeforeTags => "no_result_before_tags",
            K::VariationNotClosed => "variation_not_closed",
            K::VariationsTooDeep => "variations_too_deep",
            K::VariationBeforeMove => "variation_before_move",
            K::StrayCloseParen => "stray_close_paren",
            K::ResultInVariation => "result_in_variation",
            K::MoreWarnings(_) => "more_warnings",
            K::StrayTags(_) => "stray_tags",
            K::StrayText(_) => "stray_text",
            K::StrayTagsAndText(..) => "stray_tags_and_text",
        }
    }

    /// The text the issue names, if any: a tag's name (or the names of stray tags), a
    /// character, the first words of stray text.
    pub fn text(&self) -> Option<String> {
        use PdnIssueKind as K;
        match self {
            K::TagNotQuoted(t)
            | K::TagStringNotClosed(t)
            | K::TagNotEnded(t)
            | K::TagWithoutQuotes(t)
            | K::TagStringReadToBracket(t)
            | K::StrayText(t) => Some(t.clone()),
            K::UnexpectedChar(c) => Some(c.to_string()),
            K::StrayTags(tags) => Some(tags.join(", ")),
            K::StrayTagsAndText(_, text) => Some(text.clone()),
            _ => None,
        }
    }

    /// The tags the issue names, joined (only for tags followed by stray text, whose
    /// `text` is the stray words).
    pub fn tags(&self) -> Option<String> {
        match self {
            PdnIssueKind::StrayTagsAndText(tags, _) => Some(tags.join(", ")),
            _ => None,
        }
    }

    /// The number the issue names, if any: a line, a count, a limit.
    pub fn n(&self) -> Option<usize> {
        match self {
            PdnIssueKind::GameTooLarge(line) => Some(*line),
            PdnIssueKind::MoreWarnings(n) => Some(*n),
            PdnIssueKind::VariationsTooDeep => Some(MAX_VARIATION_DEPTH),
            _ => None,
        }
    }

    /// Whether the reader abandons the game (true) or reads past it (false).
    pub fn is_fatal(&self) -> bool {
        use PdnIssueKind as K;
        matches!(
            self,
            K::CommentNotClosed
                | K::SetupNotClosed
                | K::TagWithoutName
                | K::TagNotQuoted(_)
                | K::TagStringNotClosed(_)
                | K::TagNotEnded(_)
                | K::GameTooLarge(_)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_english_words_stay_as_they_were() {
        let at = Pos { line: 3, col: 7 };
        let i = PdnIssue::new(at, PdnIssueKind::TagWithoutQuotes("Round".into()));
        assert_eq!(i.to_string(), "line 3, column 7: tag Round: value without quotes");
        assert_eq!(PdnIssueKind::NestedComment.to_string(), "'{' inside a comment: PDN comments do not nest");
        assert_eq!(PdnIssueKind::CommentNotClosed.to_string(), "comment is never closed with '}'");
        let k = PdnIssueKind::StrayTagsAndText(vec!["Event".into(), "Site".into()], "Notes on".into());
        assert_eq!(k.to_string(), "tags (Event, Site) and text that is not a game skipped: \"Notes on\"");
        assert_eq!(
            (k.code(), k.tags().as_deref(), k.text().as_deref()),
            ("stray_tags_and_text", Some("Event, Site"), Some("Notes on"))
        );
        assert!(PdnIssueKind::GameTooLarge(1).is_fatal() && !PdnIssueKind::NoResult.is_fatal());
    }
}
