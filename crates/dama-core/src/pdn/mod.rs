//! PDN 3.0: reading (streaming, lenient with real files, strict diagnostics) and writing.
//!
//! The reader takes a game at a time from any [`BufRead`](std::io::BufRead), so a
//! large file is never held in memory. It reads what real files contain — no move
//! numbers, `1.33-28`, fixed-width `29x 7`, `E3:G5`, `1/2:1/2`, text glued to moves —
//! and records every departure from strict PDN 3.0 as a [`PdnIssue`] warning. A game
//! that cannot be read at all is reported with its line and column, and reading goes
//! on.
//!
//! The reader in parts: the tokens of the text (`lexer`), what a word of movetext is
//! (`words`), games with their tags and variation trees built from the tokens
//! (`parser`), and the streaming [`PdnReader`] that cuts the input into games
//! (`reader`). The games as read are the types here.

mod issue;
mod lexer;
mod parser;
mod reader;
mod words;

pub use issue::{PdnIssue, PdnIssueKind};
pub use reader::{read_all, PdnReader};
pub use words::{looks_like_move, normalize_result};

/// A place in the input: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pos {
    /// Line, from 1.
    pub line: usize,
    /// Column (character), from 1.
    pub col: usize,
}

/// A move of the movetext with what surrounds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnMove {
    /// The move as written (spaces removed).
    pub text: String,
    /// Where it was read.
    pub at: Pos,
    /// Numeric annotation glyphs and move strengths (`$3`, `!?`).
    pub nags: Vec<String>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Alternative lines starting instead of this move.
    pub variations: Vec<Vec<PdnMove>>,
    /// A position set up (`/FEN/`) before this move.
    pub setup: Option<String>,
}

/// One game as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order (Italian names translated: `Bianco` is `White`, ...).
    pub tags: Vec<(String, String)>,
    /// Comments before the first move.
    pub leading_comments: Vec<String>,
    /// The main line.
    pub moves: Vec<PdnMove>,
    /// The game terminator as written (`1-0`, `2-0`, `*`, ...), if any.
    pub result: Option<String>,
    /// Where the game starts.
    pub at: Pos,
    /// True when the tags were written with Italian names (a hint that the game is
    /// Italian when it has no `GameType`).
    pub italian_tags: bool,
    /// Departures from strict PDN 3.0 that were read past.
    pub warnings: Vec<PdnIssue>,
}

impl PdnGame {
    /// The value of a tag (case-insensitive name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Variations nested deeper than this are skipped (with a warning): real files nest a
/// handful of levels, and a bounded tree can be dropped, cloned and compared without
/// deep recursion whatever the input.
pub const MAX_VARIATION_DEPTH: usize = 32;

/// A game with more moves, comments and annotations than this (in all its lines) is
/// reported unreadable instead of being held in memory: the longest real games and
/// annotated books stay far below it, and it bounds the memory of one game.
pub const MAX_GAME_ITEMS: usize = 100_000;

/// At most this many warnings are kept per game; the rest are counted in one more.
pub const MAX_WARNINGS: usize = 100;
