//! The tokenizer: tags (Italian names translated), comments, variations and asides in
//! parentheses, annotations, move numbers, moves and results, with their line and
//! column, warning of what strict PDN would not allow.

use super::words::{normalize_result, reads_as_moves};
use super::{PdnIssue, PdnIssueKind as K, Pos, MAX_WARNINGS};

/// Italian tag names and the PDN names they stand for.
const ITALIAN_TAGS: [(&str, &str); 8] = [
    ("Evento", "Event"),
    ("Luogo", "Site"),
    ("Data", "Date"),
    ("Turno", "Round"),
    ("Bianco", "White"),
    ("Nero", "Black"),
    ("Risultato", "Result"),
    ("Apertura", "Opening"),
];

/// A token of PDN text.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Tag(String, String, bool),
    Comment(String),
    Open,
    Close,
    Nag(String),
    Number,
    Move(String),
    Setup(String),
    Result(String),
}

/// Reads tokens from a chunk of text, one at a time.
pub(super) struct Lexer<'a> {
    /// The text; `i` is a byte offset into it, always at a character boundary.
    text: &'a str,
    i: usize,
    line: usize,
    col: usize,
    pub(super) issues: &'a mut Vec<PdnIssue>,
    /// Warnings beyond [`MAX_WARNINGS`] within one token, counted, not kept.
    pub(super) dropped: usize,
    /// Bytes the '(' look-aheads may still read (see [`Lexer::parenthesised`]).
    aside_budget: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer over `text`, whose first line is `first_line` of the input; warnings go
    /// to `issues`.
    pub(super) fn new(text: &'a str, first_line: usize, issues: &'a mut Vec<PdnIssue>) -> Self {
        let aside_budget = 4 * text.len() + 4 * MAX_ASIDE;
        Lexer { text, i: 0, line: first_line, col: 1, issues, dropped: 0, aside_budget }
    }
}

impl Lexer<'_> {
    fn peek(&self, k: usize) -> Option<char> {
        self.text[self.i..].chars().nth(k)
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.text[self.i..].chars().next()?;
        self.i += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }
    fn pos(&self) -> Pos {
        Pos { line: self.line, col: self.col }
    }

    /// At a '(': the text up to its matching ')' (nested parentheses and comments
    /// included), if it closes within [`MAX_ASIDE`] bytes. The looks ahead of a chunk
    /// share a budget of a few times its length, so a text of many '(' stays linear.
    fn parenthesised(&mut self) -> Option<&str> {
        let rest = &self.text[self.i + 1..];
        let look = rest.len().min(MAX_ASIDE).min(self.aside_budget);
        self.aside_budget -= look;
        let (mut depth, mut comment) = (0usize, false);
        for (k, c) in rest.char_indices().take_while(|(k, _)| *k < look) {
            match c {
                '{' => comment = true,
                '}' => comment = false,
                '(' if !comment => depth += 1,
                ')' if !comment && depth == 0 => return Some(&rest[..k]),
                ')' if !comment => depth -= 1,
                _ => {}
            }
        }
        None
    }
    fn warn(&mut self, at: Pos, what: K) {
        if self.issues.len() < MAX_WARNINGS {
            self.issues.push(PdnIssue::new(at, what));
        } else {
            self.dropped += 1;
        }
    }

    /// Next token, or `Err` for an unreadable construct (the game is abandoned).
    pub(super) fn next(&mut self) -> Result<Option<(Tok, Pos)>, PdnIssue> {
        loop {
            let at = self.pos();
            let Some(c) = self.peek(0) else {
                return Ok(None);
            };
            match c {
                c if c.is_whitespace() || c == '\u{feff}' => {
                    self.bump();
                }
                '%' if at.col == 1 => {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                '[' => return self.tag(at).map(|t| Some((t, at))),
                '{' => {
                    self.bump();
                    let mut text = String::new();
                    loop {
                        match self.bump() {
                            None => return Err(PdnIssue::new(at, K::CommentNotClosed)),
                            Some('}') => break,
                            Some('{') => {
                                let p = self.pos();
                                self.warn(p, K::NestedComment);
                                text.push('{');
                            }
                            Some(c) => text.push(c),
                        }
                    }
                    return Ok(Some((Tok::Comment(text.trim().to_string()), at)));
                }
                '}' => {
                    self.bump();
                    self.warn(at, K::StrayCloseBrace);
                }
                '(' => {
                    // "(!?)": a move strength in parentheses.
                    let mut k = 1;
                    while matches!(self.peek(k), Some('!' | '?')) {
                        k += 1;
                    }
                    if k > 1 && self.peek(k) == Some(')') {
                        let s = self.text[self.i + 1..self.i + k].to_string(); // '(' and '!?' are ASCII
                        for _ in 0..=k {
                            self.bump();
                        }
                        return Ok(Some((Tok::Nag(s), at)));
                    }
                    if let Some(inner) = self.parenthesised() {
                        if !reads_as_moves(inner) {
                            // "(The usual reply; 8-11 also holds.)": an aside, not a line.
                            let text = inner.trim().to_string();
                            for _ in 0..inner.chars().count() + 2 {
                                self.bump();
                            }
                            self.warn(at, K::AsideInParentheses);
                            return Ok(Some((Tok::Comment(text), at)));
                        }
                    }
                    self.bump();
                    return Ok(Some((Tok::Open, at)));
                }
                ')' => {
                    self.bump();
                    return Ok(Some((Tok::Close, at)));
                }
                '$' => {
                    self.bump();
                    let mut s = String::from("$");
                    while let Some(d) = self.peek(0).filter(char::is_ascii_digit) {
                        s.push(d);
                        self.bump();
                    }
                    return Ok(Some((Tok::Nag(s), at)));
                }
                '!' | '?' => {
                    let mut s = String::new();
                    while let Some(d) = self.peek(0).filter(|c| matches!(c, '!' | '?')) {
                        s.push(d);
                        self.bump();
                    }
                    return Ok(Some((Tok::Nag(s), at)));
                }
                '*' => {
                    self.bump();
                    return Ok(Some((Tok::Result("*".into()), at)));
                }
                '/' => {
                    self.bump();
                    let mut s = String::new();
                    loop {
                        match self.bump() {
                            None | Some('\n') => return Err(PdnIssue::new(at, K::SetupNotClosed)),
                            Some('/') => break,
                            Some(c) => s.push(c),
                        }
                    }
                    return Ok(Some((Tok::Setup(s), at)));
                }
                c if c.is_alphanumeric() || c == '½' => return Ok(Some(self.word(at))),
                c => {
                    self.bump();
                    self.warn(at, K::UnexpectedChar(c));
                }
            }
        }
    }

    fn tag(&mut self, at: Pos) -> Result<Tok, PdnIssue> {
        self.bump();
        while self.peek(0).is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        let mut name = String::new();
        while let Some(c) = self.peek(0).filter(|c| c.is_alphanumeric() || *c == '_') {
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err(PdnIssue::new(at, K::TagWithoutName));
        }
        while self.peek(0).is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        // What is left of the tag's line: where an unquoted or unclosed value ends.
        let line = self.text[self.i..].split('\n').next().unwrap_or("");
        if self.peek(0) != Some('"') {
            // [Round 17]: the value runs to the ']'.
            let Some(end) = line.find(']') else {
                return Err(PdnIssue::new(self.pos(), K::TagNotQuoted(name)));
            };
            let value = line[..end].trim().to_string();
            self.warn(at, K::TagWithoutQuotes(name.clone()));
            for _ in 0..line[..=end].chars().count() {
                self.bump();
            }
            return Ok(self.named(name, value));
        }
        let unclosed = line[1..].find('"').is_none();
        if let (true, Some(end)) = (unclosed, line.find(']')) {
            // [Round "11.1]: the string is read to the ']'.
            let value = line[1..end].trim_end().to_string();
            self.warn(at, K::TagStringReadToBracket(name.clone()));
            for _ in 0..line[..=end].chars().count() {
                self.bump();
            }
            return Ok(self.named(name, value));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err(PdnIssue::new(at, K::TagStringNotClosed(name))),
                Some('\\') => {
                    if let Some(c) = self.bump() {
                        value.push(c);
                    }
                }
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        while self.peek(0).is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek(0) != Some(']') {
            return Err(PdnIssue::new(self.pos(), K::TagNotEnded(name)));
        }
        self.bump();
        Ok(self.named(name, value))
    }

    /// A tag token, Italian names translated.
    fn named(&self, name: String, value: String) -> Tok {
        match ITALIAN_TAGS.iter().find(|(it, _)| *it == name) {
            Some((_, en)) => Tok::Tag(en.to_string(), value, true),
            None => Tok::Tag(name, value, false),
        }
    }

    /// A move number, a move, or a result, with the untidy forms real files use.
    fn word(&mut self, at: Pos) -> (Tok, Pos) {
        let mut s = String::new();
        while let Some(c) = self.peek(0) {
            if c.is_alphanumeric() || matches!(c, '-' | ':' | '/' | '½') {
                s.push(c);
                self.bump();
            } else if c == '.' {
                // "1." or "1..." is a move number; "1.33-28" a number glued to a move.
                if s.chars().all(|c| c.is_ascii_digit()) && !s.is_empty() {
                    while self.peek(0) == Some('.') {
                        self.bump();
                    }
                    return (Tok::Number, at);
                }
                break;
            } else if c == ' ' && s.ends_with(['x', 'X', '-', ':']) && self.peek(1).is_some_and(|d| d.is_ascii_digit())
            {
                // Fixed-width "29x 7".
                self.bump();
            } else {
                break;
            }
        }
        if let Some(r) = normalize_result(&s) {
            return (Tok::Result(r.to_string()), at);
        }
        (Tok::Move(s), at)
    }
}

/// How far ahead a '(' looks for its ')' to tell a variation from an aside in prose.
const MAX_ASIDE: usize = 4096;
