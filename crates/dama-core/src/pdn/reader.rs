//! The streaming reader: the input cut into the text of one game at a time (a tag
//! line after movetext starts the next), each parsed, and stray text between games
//! set aside with a warning.

use std::io::BufRead;

use super::parser::parse_chunk;
use super::words::looks_like_move;
use super::{PdnGame, PdnIssue, PdnIssueKind, MAX_WARNINGS};

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
fn stray_kind(g: &PdnGame) -> PdnIssueKind {
    let words: Vec<&str> = g.moves.iter().take(8).map(|m| m.text.as_str()).collect();
    let tags: Vec<String> = g.tags.iter().map(|(k, _)| k.clone()).collect();
    match (words.is_empty(), tags.is_empty()) {
        (true, _) => PdnIssueKind::StrayTags(tags),
        (false, true) => PdnIssueKind::StrayText(words.join(" ")),
        (false, false) => PdnIssueKind::StrayTagsAndText(tags, words.join(" ")),
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
                        self.stray.push(PdnIssue::new(g.at, stray_kind(g)));
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
