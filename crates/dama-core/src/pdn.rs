//! PDN 3.0: reading (streaming, lenient with real files, strict diagnostics) and writing.
//!
//! The reader takes a game at a time from any [`BufRead`], so a large file is never
//! held in memory. It reads what real files contain — no move numbers, `1.33-28`,
//! fixed-width `29x 7`, `E3:G5`, `1/2:1/2`, text glued to moves — and records every
//! departure from strict PDN 3.0 as a [`PdnIssue`] warning. A game that cannot be
//! read at all is reported with its line and column, and reading goes on.

use std::io::BufRead;

/// A place in the input: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pos {
    /// Line, from 1.
    pub line: usize,
    /// Column (character), from 1.
    pub col: usize,
}

/// A problem found while reading, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {}, column {}: {message}", at.line, at.col)]
pub struct PdnIssue {
    /// Where.
    pub at: Pos,
    /// What.
    pub message: String,
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

/// Normalises a result token: `1/2:1/2` → `1/2-1/2`, `0:1` → `0-1`; `None` if not one.
pub fn normalize_result(t: &str) -> Option<&'static str> {
    Some(match t {
        "1-0" | "1:0" => "1-0",
        "0-1" | "0:1" => "0-1",
        "2-0" | "2:0" => "2-0",
        "0-2" | "0:2" => "0-2",
        "1-1" | "1:1" => "1-1",
        "0-0" | "0:0" => "0-0",
        "1/2-1/2" | "1/2:1/2" | "½-½" => "1/2-1/2",
        "*" => "*",
        _ => return None,
    })
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
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

struct Lexer<'a> {
    /// The text; `i` is a byte offset into it, always at a character boundary.
    text: &'a str,
    i: usize,
    line: usize,
    col: usize,
    issues: &'a mut Vec<PdnIssue>,
    /// Warnings beyond [`MAX_WARNINGS`] within one token, counted, not kept.
    dropped: usize,
    /// Bytes the '(' look-aheads may still read (see [`Lexer::parenthesised`]).
    aside_budget: usize,
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
    fn warn(&mut self, at: Pos, message: impl Into<String>) {
        if self.issues.len() < MAX_WARNINGS {
            self.issues.push(PdnIssue { at, message: message.into() });
        } else {
            self.dropped += 1;
        }
    }

    /// Next token, or `Err` for an unreadable construct (the game is abandoned).
    fn next(&mut self) -> Result<Option<(Tok, Pos)>, PdnIssue> {
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
                            None => return Err(PdnIssue { at, message: "comment is never closed with '}'".into() }),
                            Some('}') => break,
                            Some('{') => {
                                let p = self.pos();
                                self.warn(p, "'{' inside a comment: PDN comments do not nest");
                                text.push('{');
                            }
                            Some(c) => text.push(c),
                        }
                    }
                    return Ok(Some((Tok::Comment(text.trim().to_string()), at)));
                }
                '}' => {
                    self.bump();
                    self.warn(at, "'}' without an opening '{'");
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
                            self.warn(at, "text in parentheses that does not read as moves is kept as a comment");
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
                            None | Some('\n') => {
                                return Err(PdnIssue { at, message: "setup '/FEN/' is never closed".into() })
                            }
                            Some('/') => break,
                            Some(c) => s.push(c),
                        }
                    }
                    return Ok(Some((Tok::Setup(s), at)));
                }
                c if c.is_alphanumeric() || c == '½' => return Ok(Some(self.word(at))),
                c => {
                    self.bump();
                    self.warn(at, format!("unexpected '{c}' skipped"));
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
            return Err(PdnIssue { at, message: "tag without a name".into() });
        }
        while self.peek(0).is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        // What is left of the tag's line: where an unquoted or unclosed value ends.
        let line = self.text[self.i..].split('\n').next().unwrap_or("");
        if self.peek(0) != Some('"') {
            // [Round 17]: the value runs to the ']'.
            let Some(end) = line.find(']') else {
                return Err(PdnIssue { at: self.pos(), message: format!("tag {name}: value must be a quoted string") });
            };
            let value = line[..end].trim().to_string();
            self.warn(at, format!("tag {name}: value without quotes"));
            for _ in 0..line[..=end].chars().count() {
                self.bump();
            }
            return Ok(self.named(name, value));
        }
        let unclosed = line[1..].find('"').is_none();
        if let (true, Some(end)) = (unclosed, line.find(']')) {
            // [Round "11.1]: the string is read to the ']'.
            let value = line[1..end].trim_end().to_string();
            self.warn(at, format!("tag {name}: string is never closed; read to ']'"));
            for _ in 0..line[..=end].chars().count() {
                self.bump();
            }
            return Ok(self.named(name, value));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => {
                    return Err(PdnIssue { at, message: format!("tag {name}: string is never closed") })
                }
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
            return Err(PdnIssue { at: self.pos(), message: format!("tag {name}: expected ']'") });
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

/// Whether a word could be a square: a number, or a file letter and a rank.
fn is_square(w: &str) -> bool {
    let mut c = w.chars();
    match c.next() {
        Some(d) if d.is_ascii_digit() => w.len() <= 3 && w.chars().all(|d| d.is_ascii_digit()),
        Some(f) if matches!(f.to_ascii_lowercase(), 'a'..='l') => {
            let r = c.as_str();
            (1..=2).contains(&r.len()) && r.chars().all(|d| d.is_ascii_digit())
        }
        _ => false,
    }
}

/// Whether a word of movetext could be a move: squares joined by '-', 'x' or ':'
/// (`32-28`, `c3:e5:g3`), or the Russian short form, a file then a square (`cd4`).
pub fn looks_like_move(w: &str) -> bool {
    let parts: Vec<&str> = w.split(['-', 'x', 'X', ':']).collect();
    if parts.len() >= 2 {
        return parts.iter().all(|p| is_square(p));
    }
    let b = w.as_bytes();
    b.len() == 3 && matches!(b[0].to_ascii_lowercase(), b'a'..=b'h') && is_square(&w[1..])
}

/// Whether the words of `text` (outside comments and nested parentheses) are all
/// movetext: moves, move numbers, annotations and results. Prose is not.
fn reads_as_moves(text: &str) -> bool {
    let (mut depth, mut comment) = (0usize, false);
    let mut outside = String::new();
    for c in text.chars() {
        match c {
            '{' => comment = true,
            '}' => comment = false,
            '(' if !comment => depth += 1,
            ')' if !comment => depth = depth.saturating_sub(1),
            c if !comment && depth == 0 => outside.push(c),
            _ => {}
        }
    }
    // Fixed-width captures: "29x 7" is one word.
    let words: Vec<&str> = outside.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() {
        let mut w = words[i].to_string();
        if w.ends_with(['x', 'X', '-', ':']) && words.get(i + 1).is_some_and(|n| n.chars().all(|d| d.is_ascii_digit()))
        {
            w.push_str(words[i + 1]);
            i += 1;
        }
        i += 1;
        // A move number, alone or glued to its move ("12.", "12...", "1.32-28").
        let digits = w.chars().take_while(char::is_ascii_digit).count();
        let after = w[digits..].trim_start_matches('.');
        let w = if digits > 0 && after.len() < w.len() - digits { after } else { w.as_str() };
        let w = w.trim_end_matches(['!', '?']);
        let annotation = w.is_empty() || (w.starts_with('$') && w[1..].chars().all(|d| d.is_ascii_digit()));
        if !(annotation || normalize_result(w).is_some() || looks_like_move(w)) {
            return false;
        }
    }
    true
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

/// Keeps at most [`MAX_WARNINGS`] warnings, then one that says how many more there were.
fn cap_warnings(w: &mut Vec<PdnIssue>, suppressed: usize) {
    if suppressed > 0 {
        let at = w.last().map(|i| i.at).unwrap_or_default();
        w.push(PdnIssue { at, message: format!("{suppressed} more warnings not shown") });
    }
}

/// Parses one chunk of text into games (a result token ends a game), pulling tokens
/// from the lexer one at a time: memory is the chunk's text plus the games' moves.
fn parse_chunk(text: &str, first_line: usize) -> Vec<Result<PdnGame, PdnIssue>> {
    let mut lexer_issues = Vec::new();
    let aside_budget = 4 * text.len() + 4 * MAX_ASIDE;
    let mut lx = Lexer { text, i: 0, line: first_line, col: 1, issues: &mut lexer_issues, dropped: 0, aside_budget };
    let mut p = Parser {
        out: Vec::new(),
        game: PdnGame { at: Pos { line: first_line, col: 1 }, ..PdnGame::default() },
        started: false,
        lines: vec![Vec::new()],
        pending_setup: None,
        warnings: Vec::new(),
        suppressed: 0,
        skipping: 0,
        items: 0,
        too_large: None,
    };
    let mut fatal = None;
    loop {
        let next = lx.next();
        for w in lx.issues.drain(..) {
            p.warn(w);
        }
        p.suppressed += std::mem::take(&mut lx.dropped);
        match next {
            Ok(Some((tok, at))) => p.token(tok, at),
            Ok(None) => break,
            Err(e) => {
                fatal = Some(e);
                break;
            }
        }
    }
    let mut out = std::mem::take(&mut p.out);
    if let Some(e) = fatal {
        out.push(Err(e));
    } else if p.started && (!p.game.tags.is_empty() || !p.lines[0].is_empty() || p.too_large.is_some()) {
        let at = p.game.at;
        p.warn(PdnIssue { at, message: "game has no result terminator".into() });
        let g = p.flush();
        out.push(g);
    }
    out
}

/// The state of reading the games of one chunk.
struct Parser {
    out: Vec<Result<PdnGame, PdnIssue>>,
    game: PdnGame,
    started: bool,
    /// Stack of open lines: the main line at the bottom.
    lines: Vec<Vec<PdnMove>>,
    pending_setup: Option<String>,
    warnings: Vec<PdnIssue>,
    suppressed: usize,
    /// Open variations below [`MAX_VARIATION_DEPTH`], skipped.
    skipping: usize,
    /// Moves, comments, annotations and variations of the game so far.
    items: usize,
    /// Where the game went over [`MAX_GAME_ITEMS`].
    too_large: Option<Pos>,
}

impl Parser {
    fn warn(&mut self, w: PdnIssue) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(w);
        } else {
            self.suppressed += 1;
        }
    }

    /// Counts one more item of the game; false once the game is too large to keep.
    fn item(&mut self, at: Pos) -> bool {
        if self.skipping > 0 {
            return false;
        }
        self.items += 1;
        if self.items > MAX_GAME_ITEMS && self.too_large.is_none() {
            self.too_large = Some(at);
            // What was read of it is dropped now, not at the game's end.
            self.lines = vec![Vec::new()];
            self.game.leading_comments.clear();
        }
        self.too_large.is_none()
    }

    /// Ends the current game: every open variation is closed.
    fn flush(&mut self) -> Result<PdnGame, PdnIssue> {
        let mut g = std::mem::take(&mut self.game);
        let mut warnings = std::mem::take(&mut self.warnings);
        if self.lines.len() > 1 || self.skipping > 0 {
            warnings.push(PdnIssue { at: g.at, message: "variation is never closed with ')'".into() });
        }
        while self.lines.len() > 1 {
            let v = self.lines.pop().unwrap_or_default();
            attach_variation(self.lines.last_mut().expect("main line"), v);
        }
        cap_warnings(&mut warnings, std::mem::take(&mut self.suppressed));
        g.moves = std::mem::take(&mut self.lines[0]);
        g.warnings = warnings;
        self.skipping = 0;
        self.items = 0;
        match self.too_large.take() {
            Some(at) => Err(PdnIssue {
                at,
                message: format!(
                    "game too large: more than {MAX_GAME_ITEMS} moves, comments and annotations (the game starting at line {}); not read",
                    g.at.line
                ),
            }),
            None => Ok(g),
        }
    }

    fn token(&mut self, tok: Tok, at: Pos) {
        if !self.started {
            self.game.at = at;
            self.started = true;
        }
        match tok {
            Tok::Tag(k, v, italian) => {
                if !self.lines[0].is_empty() || self.game.result.is_some() || self.too_large.is_some() {
                    self.warn(PdnIssue {
                        at,
                        message: "game has no result terminator before the next game's tags".into(),
                    });
                    let g = self.flush();
                    self.out.push(g);
                    self.game.at = at;
                }
                self.game.italian_tags |= italian;
                if self.item(at) {
                    self.game.tags.push((k, v));
                }
            }
            Tok::Comment(c) => {
                if self.item(at) {
                    let depth = self.lines.len();
                    match self.lines.last_mut().and_then(|l| l.last_mut()) {
                        Some(m) => m.comments.push(c),
                        None if depth == 1 => self.game.leading_comments.push(c),
                        None => {}
                    }
                }
            }
            Tok::Nag(n) => {
                if self.item(at) {
                    if let Some(m) = self.lines.last_mut().and_then(|l| l.last_mut()) {
                        m.nags.push(n);
                    }
                }
            }
            Tok::Number => {}
            Tok::Setup(f) => self.pending_setup = Some(f),
            Tok::Open => {
                if self.skipping > 0 || self.lines.len() > MAX_VARIATION_DEPTH {
                    if self.skipping == 0 {
                        let message = format!("variations nested deeper than {MAX_VARIATION_DEPTH} levels are skipped");
                        self.warn(PdnIssue { at, message });
                    }
                    self.skipping += 1;
                    return;
                }
                if self.lines.last().is_some_and(|l| l.is_empty()) {
                    self.warn(PdnIssue { at, message: "variation before any move".into() });
                }
                if self.item(at) {
                    self.lines.push(Vec::new());
                }
            }
            Tok::Close => {
                if self.skipping > 0 {
                    self.skipping -= 1;
                } else if self.lines.len() == 1 {
                    self.warn(PdnIssue { at, message: "')' without an opening '('".into() });
                } else {
                    let v = self.lines.pop().unwrap_or_default();
                    attach_variation(self.lines.last_mut().expect("line"), v);
                }
            }
            Tok::Move(text) => {
                if self.item(at) {
                    let setup = self.pending_setup.take();
                    self.lines.last_mut().expect("line").push(PdnMove { text, at, setup, ..PdnMove::default() });
                }
            }
            Tok::Result(r) => {
                if self.lines.len() > 1 || self.skipping > 0 {
                    self.warn(PdnIssue { at, message: "result inside a variation".into() });
                }
                self.game.result = Some(r);
                let g = self.flush();
                self.out.push(g);
                self.started = false;
            }
        }
    }
}

fn attach_variation(line: &mut [PdnMove], v: Vec<PdnMove>) {
    if let Some(m) = line.last_mut() {
        m.variations.push(v);
    }
}

/// Reads games one at a time from a buffered reader.
pub struct PdnReader<B> {
    input: B,
    line: usize,
    pending: Vec<Result<PdnGame, PdnIssue>>,
    carry: Option<String>,
    done: bool,
    stray: Vec<PdnIssue>,
}

/// Text that a reader would take for a game but a person would not: no result and no
/// move, with nothing but `[Comment]` tags (a file's header or footer) or words that
/// are not moves (a title line between games). A block of game tags (event, players,
/// result) with its moves missing is still a game.
fn is_stray(g: &PdnGame) -> bool {
    g.result.is_none()
        && g.tags.iter().all(|(k, _)| k.eq_ignore_ascii_case("Comment"))
        && !g.moves.iter().any(|m| looks_like_move(&m.text))
}

/// What a skipped piece of stray text was.
fn stray_message(g: &PdnGame) -> String {
    let words: Vec<&str> = g.moves.iter().take(8).map(|m| m.text.as_str()).collect();
    let tags: Vec<&str> = g.tags.iter().map(|(k, _)| k.as_str()).collect();
    match (words.is_empty(), tags.is_empty()) {
        (true, _) => format!("tags with no game ({}) skipped", tags.join(", ")),
        (false, true) => format!("text that is not a game skipped: \"{}\"", words.join(" ")),
        (false, false) => {
            format!("tags ({}) and text that is not a game skipped: \"{}\"", tags.join(", "), words.join(" "))
        }
    }
}

impl<B: BufRead> PdnReader<B> {
    /// A reader over `input`.
    pub fn new(input: B) -> Self {
        PdnReader { input, line: 1, pending: Vec::new(), carry: None, done: false, stray: Vec::new() }
    }

    /// Pieces of the input read so far that are not games (tags with no moves and no
    /// result, or lines of prose between games), each with where it was: skipped, and
    /// worth a warning. At most [`MAX_WARNINGS`] are kept.
    pub fn stray(&self) -> &[PdnIssue] {
        &self.stray
    }

    /// Collects the text of the next game: lines until a tag line follows movetext
    /// (outside comments). Returns the text and its first line number.
    fn next_chunk(&mut self) -> Option<(String, usize)> {
        let mut text = String::new();
        let first = self.line;
        let mut seen_moves = false;
        let mut depth = 0i32;
        if let Some(c) = self.carry.take() {
            scan_line(&c, &mut depth, &mut seen_moves);
            text.push_str(&c);
            self.line += 1;
        }
        loop {
            let mut buf = Vec::new();
            match self.input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    self.done = true;
                    break;
                }
                Ok(_) => {}
            }
            let l = String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            if depth == 0 && seen_moves && l.trim_start().starts_with('[') {
                self.carry = Some(l);
                break;
            }
            scan_line(&l, &mut depth, &mut seen_moves);
            text.push_str(&l);
            self.line += 1;
        }
        if text.trim().is_empty() && self.carry.is_none() {
            None
        } else {
            Some((text, first))
        }
    }
}

/// Tracks comment depth and whether movetext has started, for splitting games.
fn scan_line(l: &str, depth: &mut i32, seen_moves: &mut bool) {
    let t = l.trim_start();
    if *depth == 0 && (t.starts_with('[') || t.starts_with('%')) {
        return;
    }
    for c in l.chars() {
        match c {
            '{' => *depth += 1,
            '}' => *depth = (*depth - 1).max(0),
            c if *depth == 0 && !c.is_whitespace() => *seen_moves = true,
            _ => {}
        }
    }
}

impl<B: BufRead> Iterator for PdnReader<B> {
    type Item = Result<PdnGame, PdnIssue>;
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if !self.pending.is_empty() {
                return Some(self.pending.remove(0));
            }
            if self.done && self.carry.is_none() {
                return None;
            }
            let (text, first) = self.next_chunk()?;
            let mut games = parse_chunk(&text, first);
            games.retain(|g| match g {
                Ok(g) if g.tags.is_empty() && g.moves.is_empty() && g.result.is_none() => false,
                Ok(g) if is_stray(g) => {
                    if self.stray.len() < MAX_WARNINGS {
                        self.stray.push(PdnIssue { at: g.at, message: stray_message(g) });
                    }
                    false
                }
                _ => true,
            });
            self.pending = games;
        }
    }
}

/// Reads every game of a string.
pub fn read_all(text: &str) -> Vec<Result<PdnGame, PdnIssue>> {
    PdnReader::new(text.as_bytes()).collect()
}
