//! Why a request's content was refused before anything was done with it: one enum, each
//! with a machine-readable code (clients translate `err_<code>`) and its words in
//! English (the JSON's `error` text, for programs and logs). The game's own refusals
//! are [`crate::round::Refusal`].

use dama_core::fen::FenError;
use dama_core::pdn::{PdnGame, PdnIssue};
use dama_core::record::{ReplayError, ReplayErrorKind};
use dama_core::{Color, SetupError};
use serde::{Deserialize, Serialize};

/// Shortest and longest account name, in characters.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 2..=20;
/// Shortest and longest password, in characters.
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=128;

/// Content a request may not carry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "code", content = "arg", rename_all = "snake_case")]
pub enum Invalid {
    /// A name shorter or longer than [`NAME_CHARS`] (its length).
    #[error("a name has 2 to 20 characters; this one has {0}")]
    NameLength(usize),
    /// A name with a character other than a-z, A-Z, digits, `_` and `-` (the first one).
    #[error("a name has only letters a-z, digits, '_' and '-'; '{0}' is not allowed")]
    NameChars(char),
    /// A name beginning with `_` or `-`.
    #[error("a name begins with a letter or a digit")]
    NameStart,
    /// A password shorter or longer than [`PASSWORD_CHARS`].
    #[error("a password has 8 to 128 characters")]
    PasswordLength,
    /// A FEN that does not read: what is wrong and where.
    #[error("bad FEN: {}", .0.words)]
    Fen(FenProblem),
    /// A PDN text or game that does not read or replay: what is wrong and where.
    #[error("bad PDN: {}", .0.words)]
    Pdn(Box<PdnProblem>),
}

/// What is wrong with a PDN text, as clients put it in their words: which rule it
/// breaks and the details (line and column, the move's ply and text, counts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PdnProblem {
    /// Which rule.
    pub what: PdnWhat,
    /// The line (from 1), if the reader knows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The column (character, from 1), if the reader knows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub col: Option<usize>,
    /// The ply of the move concerned (from 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// The text found (a move, a FEN, a tag's value, a result).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A count found (bytes, a game's number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<usize>,
    /// The most allowed (bytes, games in the text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<usize>,
    /// For a game that cannot be read: what the reader stopped at (`comment_not_closed`,
    /// `tag_not_ended`, ...: a [`PdnIssueKind`](dama_core::pdn::PdnIssueKind)'s code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The reader's own words, in English.
    pub words: String,
}

/// The rule a PDN text breaks (the code clients translate is `pdn_<rule>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PdnWhat {
    /// A game the reader cannot read at all (an unclosed comment or tag, ...).
    Unreadable,
    /// A `GameType` tag that names no variant dama plays.
    GameType,
    /// No game in the text.
    NoGame,
    /// Fewer games in the text than the one asked for.
    NoSuchGame,
    /// A text longer than the server reads.
    TooLarge,
    /// A start position (a `FEN` tag or a setup in the moves) that does not read.
    Setup,
    /// A move no legal move fits.
    IllegalMove,
    /// A move several legal moves fit.
    AmbiguousMove,
    /// A word that is not a move.
    BadMoveText,
    /// A game that ends otherwise than its recorded result.
    ResultMismatch,
}

impl PdnProblem {
    fn new(what: PdnWhat, words: String) -> PdnProblem {
        PdnProblem { what, line: None, col: None, ply: None, text: None, n: None, max: None, why: None, words }
    }
}

impl Invalid {
    /// The error as the API's answers carry it: `{code, arg, error}` (`code` the one
    /// clients translate, `arg` the details, `error` the English words).
    pub fn to_json(&self) -> serde_json::Value {
        let arg = serde_json::to_value(self).ok().and_then(|v| v.get("arg").cloned());
        serde_json::json!({ "code": self.code(), "arg": arg, "error": self.to_string() })
    }

    /// A game the reader could not read, at the place it stopped.
    pub fn pdn_unreadable(issue: &PdnIssue) -> Invalid {
        let mut p = PdnProblem::new(PdnWhat::Unreadable, issue.to_string());
        (p.line, p.col) = (Some(issue.at.line), Some(issue.at.col));
        (p.text, p.n) = (issue.what.text(), issue.what.n());
        p.why = Some(issue.what.code().to_string());
        Invalid::Pdn(Box::new(p))
    }

    /// A game whose `GameType` tag names no variant dama plays (`words`: the reader's).
    pub fn pdn_game_type(game: &PdnGame, words: String) -> Invalid {
        let mut p = PdnProblem::new(PdnWhat::GameType, words);
        p.text = game.tag("GameType").map(str::to_string);
        Invalid::Pdn(Box::new(p))
    }

    /// A text without a game.
    pub fn pdn_no_game() -> Invalid {
        Invalid::Pdn(Box::new(PdnProblem::new(PdnWhat::NoGame, "no game in this text".into())))
    }

    /// Game `n` (from 1) asked of a text of `games` games.
    pub fn pdn_no_such_game(n: usize, games: usize) -> Invalid {
        let mut p = PdnProblem::new(PdnWhat::NoSuchGame, format!("the text has {games} games; there is no game {n}"));
        (p.n, p.max) = (Some(n), Some(games));
        Invalid::Pdn(Box::new(p))
    }

    /// A text of `n` bytes where the most is `max`.
    pub fn pdn_too_large(n: usize, max: usize) -> Invalid {
        let mut p = PdnProblem::new(PdnWhat::TooLarge, format!("PDN text too large ({n} bytes; the limit is {max})"));
        (p.n, p.max) = (Some(n), Some(max));
        Invalid::Pdn(Box::new(p))
    }
}

impl From<&ReplayError> for Invalid {
    fn from(e: &ReplayError) -> Self {
        let what = match e.kind {
            ReplayErrorKind::Setup => PdnWhat::Setup,
            ReplayErrorKind::IllegalMove => PdnWhat::IllegalMove,
            ReplayErrorKind::AmbiguousMove => PdnWhat::AmbiguousMove,
            ReplayErrorKind::BadMoveText => PdnWhat::BadMoveText,
            ReplayErrorKind::ResultMismatch => PdnWhat::ResultMismatch,
        };
        let mut p = PdnProblem::new(what, e.to_string());
        (p.line, p.col, p.text) = (Some(e.at.line), Some(e.at.col), Some(e.text.clone()));
        p.ply = (e.ply > 0).then_some(e.ply);
        Invalid::Pdn(Box::new(p))
    }
}

/// What is wrong with a FEN, as clients put it in their words: which rule it breaks
/// and the details (the character where, the text found, a side, counts, a square).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FenProblem {
    /// Which rule.
    pub what: FenWhat,
    /// Where (1-based character), if the reader knows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<usize>,
    /// The text found there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The side concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Color>,
    /// A count found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
    /// The most allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
    /// The square concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub square: Option<String>,
    /// The reader's own words, in English.
    pub words: String,
}

/// The rule a FEN breaks (the code clients translate is `fen_<rule>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FenWhat {
    /// Nothing to read.
    Empty,
    /// No side to move first.
    Side,
    /// A piece list not starting with W or B.
    List,
    /// Not a square of the board.
    Square,
    /// A range out of order.
    Range,
    /// A side listed twice.
    Repeated,
    /// A king-move field that does not read.
    KingRuns,
    /// A square beyond the board.
    OutOfRange,
    /// Two pieces on one square.
    Overlap,
    /// More pieces than a side may have.
    TooMany,
    /// A man on its crowning row.
    CrowningRow,
    /// No piece at all.
    NoPieces,
    /// A king-move count the position cannot have.
    KingRun,
}

impl From<FenError> for Invalid {
    fn from(e: FenError) -> Self {
        let words = e.to_string();
        let mut p = FenProblem {
            what: FenWhat::Empty,
            at: None,
            text: None,
            side: None,
            n: None,
            max: None,
            square: None,
            words,
        };
        let found = |p: &mut FenProblem, what, text: String, at| {
            p.what = what;
            p.text = Some(text);
            p.at = Some(at);
        };
        match e {
            FenError::Empty => {}
            FenError::BadSide { found: f, at } => found(&mut p, FenWhat::Side, f, at),
            FenError::BadList { found: f, at } => found(&mut p, FenWhat::List, f, at),
            FenError::BadSquare { text, at } => found(&mut p, FenWhat::Square, text, at),
            FenError::BadRange { text, at } => found(&mut p, FenWhat::Range, text, at),
            FenError::BadKingRuns { text, at } => found(&mut p, FenWhat::KingRuns, text, at),
            FenError::Repeated(c) => (p.what, p.side) = (FenWhat::Repeated, Some(c)),
            FenError::Setup(s) => match s {
                SetupError::SquareOutOfRange(_) => p.what = FenWhat::OutOfRange,
                SetupError::Overlap(sq) => (p.what, p.square) = (FenWhat::Overlap, Some(sq)),
                SetupError::TooManyPieces { color, count, max } => {
                    (p.what, p.side, p.n, p.max) = (FenWhat::TooMany, Some(color), Some(count), Some(max))
                }
                SetupError::ManOnCrowningRow { color, square } => {
                    (p.what, p.side, p.square) = (FenWhat::CrowningRow, Some(color), Some(square))
                }
                SetupError::Empty => p.what = FenWhat::NoPieces,
                SetupError::KingRun { color, .. } => (p.what, p.side) = (FenWhat::KingRun, Some(color)),
            },
        }
        Invalid::Fen(p)
    }
}

impl Invalid {
    /// The code clients translate (`err_<code>`).
    pub fn code(&self) -> &'static str {
        match self {
            Invalid::NameLength(_) => "name_length",
            Invalid::NameChars(_) => "name_chars",
            Invalid::NameStart => "name_start",
            Invalid::PasswordLength => "password_length",
            Invalid::Fen(p) => match p.what {
                FenWhat::Empty => "fen_empty",
                FenWhat::Side => "fen_side",
                FenWhat::List => "fen_list",
                FenWhat::Square => "fen_square",
                FenWhat::Range => "fen_range",
                FenWhat::Repeated => "fen_repeated",
                FenWhat::KingRuns => "fen_king_runs",
                FenWhat::OutOfRange => "fen_out_of_range",
                FenWhat::Overlap => "fen_overlap",
                FenWhat::TooMany => "fen_too_many",
                FenWhat::CrowningRow => "fen_crowning_row",
                FenWhat::NoPieces => "fen_no_pieces",
                FenWhat::KingRun => "fen_king_run",
            },
            Invalid::Pdn(p) => match p.what {
                PdnWhat::Unreadable => "pdn_unreadable",
                PdnWhat::GameType => "pdn_game_type",
                PdnWhat::NoGame => "pdn_no_game",
                PdnWhat::NoSuchGame => "pdn_no_such_game",
                PdnWhat::TooLarge => "pdn_too_large",
                PdnWhat::Setup => "pdn_setup",
                PdnWhat::IllegalMove => "pdn_illegal_move",
                PdnWhat::AmbiguousMove => "pdn_ambiguous_move",
                PdnWhat::BadMoveText => "pdn_bad_move_text",
                PdnWhat::ResultMismatch => "pdn_result_mismatch",
            },
        }
    }

    /// Checks a new account's name: [`NAME_CHARS`] letters a-z, digits, `_` or `-`,
    /// beginning with a letter or a digit.
    pub fn check_name(name: &str) -> Result<(), Invalid> {
        let n = name.chars().count();
        if !NAME_CHARS.contains(&n) {
            return Err(Invalid::NameLength(n));
        }
        if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-')) {
            return Err(Invalid::NameChars(c));
        }
        if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
            return Err(Invalid::NameStart);
        }
        Ok(())
    }

    /// Checks a password's length ([`PASSWORD_CHARS`]).
    pub fn check_password(password: &str) -> Result<(), Invalid> {
        if PASSWORD_CHARS.contains(&password.chars().count()) {
            Ok(())
        } else {
            Err(Invalid::PasswordLength)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_stated_rule() {
        let cases: &[(&str, Result<(), Invalid>)] = &[
            ("jo", Ok(())),
            ("Jose_Silva-2", Ok(())),
            ("abcdefghijklmnopqrst", Ok(())),
            ("j", Err(Invalid::NameLength(1))),
            ("abcdefghijklmnopqrstu", Err(Invalid::NameLength(21))),
            ("José Silva", Err(Invalid::NameChars('é'))),
            ("Jose Silva", Err(Invalid::NameChars(' '))),
            ("_jose", Err(Invalid::NameStart)),
            ("-jo", Err(Invalid::NameStart)),
        ];
        for (name, want) in cases {
            assert_eq!(&Invalid::check_name(name), want, "{name}");
        }
        assert_eq!(Invalid::check_password("short"), Err(Invalid::PasswordLength));
        assert_eq!(Invalid::check_password("long enough"), Ok(()));
    }

    #[test]
    fn a_fen_error_keeps_what_and_where() {
        use dama_core::variant::International;
        let e = Invalid::from(dama_core::fen::parse_fen::<International>("W:W99:B1").unwrap_err());
        assert_eq!(e.code(), "fen_square");
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!((v["arg"]["text"].as_str(), v["arg"]["at"].as_u64()), (Some("99"), Some(4)));
        assert_eq!(e.to_string(), "bad FEN: '99' at character 4 is not a square of this board");
        let e = Invalid::from(dama_core::fen::parse_fen::<International>("B:W:B").unwrap_err());
        assert_eq!(e.code(), "fen_no_pieces");
        let e = Invalid::from(dama_core::fen::parse_fen::<International>("W:W1-50:B").unwrap_err());
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(
            (e.code(), &v["arg"]["side"], &v["arg"]["n"], &v["arg"]["max"]),
            ("fen_too_many", &serde_json::json!("white"), &serde_json::json!(50), &serde_json::json!(20))
        );
    }

    #[test]
    fn a_pdn_error_keeps_what_and_where() {
        use dama_core::any::AnyGame;
        use dama_core::pdn::PdnReader;
        let g = PdnReader::new("[GameType \"21\"]\n1. 11-15 23-19 2. 11-16 *\n".as_bytes()).next().unwrap().unwrap();
        let e = Invalid::from(&AnyGame::replay(dama_core::Variant::English, &g).unwrap_err());
        assert_eq!(e.code(), "pdn_illegal_move");
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(
            (v["arg"]["ply"].as_u64(), v["arg"]["text"].as_str(), v["arg"]["line"].as_u64()),
            (Some(3), Some("11-16"), Some(2))
        );
        let bad = PdnReader::new("[Event \"x\"]\n1. 11-15 {never closed\n".as_bytes()).next().unwrap().unwrap_err();
        let e = Invalid::pdn_unreadable(&bad);
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(
            (e.code(), v["arg"]["line"].as_u64(), v["arg"]["why"].as_str()),
            ("pdn_unreadable", Some(2), Some("comment_not_closed"))
        );
        assert_eq!(Invalid::pdn_no_such_game(3, 2).code(), "pdn_no_such_game");
        assert_eq!(Invalid::pdn_no_such_game(3, 2).to_json()["code"], "pdn_no_such_game");
    }

    #[test]
    fn the_code_and_argument_are_the_wire_form() {
        let v = serde_json::to_value(Invalid::NameChars(' ')).unwrap();
        assert_eq!(v, serde_json::json!({"code": "name_chars", "arg": " "}));
        assert_eq!(Invalid::NameLength(60).code(), "name_length");
    }
}
