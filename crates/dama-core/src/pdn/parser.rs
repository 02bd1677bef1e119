//! Games from tokens: tag pairs, comments, annotations and moves put on the main line
//! or on the variation open at the time (nested up to [`MAX_VARIATION_DEPTH`]), a
//! result ending the game; warnings kept up to [`MAX_WARNINGS`], games too large
//! dropped.

use super::lexer::{Lexer, Tok};
use super::{PdnGame, PdnIssue, PdnIssueKind as K, PdnMove, Pos, MAX_GAME_ITEMS, MAX_VARIATION_DEPTH, MAX_WARNINGS};

/// Keeps at most [`MAX_WARNINGS`] warnings, then one that says how many more there were.
fn cap_warnings(w: &mut Vec<PdnIssue>, suppressed: usize) {
    if suppressed > 0 {
        let at = w.last().map(|i| i.at).unwrap_or_default();
        w.push(PdnIssue::new(at, K::MoreWarnings(suppressed)));
    }
}

/// Parses one chunk of text into games (a result token ends a game), pulling tokens
/// from the lexer one at a time: memory is the chunk's text plus the games' moves.
pub(super) fn parse_chunk(text: &str, first_line: usize) -> Vec<Result<PdnGame, PdnIssue>> {
    let mut lexer_issues = Vec::new();
    let mut lx = Lexer::new(text, first_line, &mut lexer_issues);
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
        p.warn(PdnIssue::new(at, K::NoResult));
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
            warnings.push(PdnIssue::new(g.at, K::VariationNotClosed));
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
            Some(at) => Err(PdnIssue::new(at, K::GameTooLarge(g.at.line))),
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
                    self.warn(PdnIssue::new(at, K::NoResultBeforeTags));
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
                        self.warn(PdnIssue::new(at, K::VariationsTooDeep));
                    }
                    self.skipping += 1;
                    return;
                }
                if self.lines.last().is_some_and(|l| l.is_empty()) {
                    self.warn(PdnIssue::new(at, K::VariationBeforeMove));
                }
                if self.item(at) {
                    self.lines.push(Vec::new());
                }
            }
            Tok::Close => {
                if self.skipping > 0 {
                    self.skipping -= 1;
                } else if self.lines.len() == 1 {
                    self.warn(PdnIssue::new(at, K::StrayCloseParen));
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
                    self.warn(PdnIssue::new(at, K::ResultInVariation));
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
