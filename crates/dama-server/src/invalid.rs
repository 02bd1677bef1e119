//! Why a request's content was refused before anything was done with it: one enum, each
//! with a machine-readable code (clients translate `err_<code>`) and its words in
//! English (the JSON's `error` text, for programs and logs). The game's own refusals
//! are [`crate::round::Refusal`].

use dama_core::fen::FenError;
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
    fn the_code_and_argument_are_the_wire_form() {
        let v = serde_json::to_value(Invalid::NameChars(' ')).unwrap();
        assert_eq!(v, serde_json::json!({"code": "name_chars", "arg": " "}));
        assert_eq!(Invalid::NameLength(60).code(), "name_length");
    }
}
