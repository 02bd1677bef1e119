//! Opening books: positions of the first moves with the moves worth playing there,
//! each scored by a search, chosen with variety so the AI does not repeat one game.
//!
//! A book is text, one line per move: the position's Zobrist key (hex), the move in
//! the variant's long notation, its score for the side to move (hundredths of a man)
//! and how often players chose it in the game collections it was built from. A move
//! is checked against the position before it is played, so a stale or foreign line
//! can never make the AI play an illegal move.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use dama_core::notation::{move_to_string, parse_move};
use dama_core::{Move, Position, Rules, Variant, BB};
use rand::Rng;

use crate::eval::EvalKind;
use crate::search::Searcher;

/// One move of a book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The move, in the variant's long notation.
    pub mv: String,
    /// Its score for the side to move, hundredths of a man.
    pub score: i32,
    /// How often it was played in the games the book was built from.
    pub count: u32,
}

/// An opening book.
#[derive(Clone, Debug, Default)]
pub struct Book {
    positions: HashMap<u64, Vec<Entry>>,
}

/// Why a book does not read.
#[derive(Debug, thiserror::Error)]
#[error("book line {line}: {what}")]
pub struct BookError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

/// How a book is grown.
#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Plies from the start in which the engine adds its own best moves.
    pub engine_plies: usize,
    /// Plies of each game in the collections that are looked at.
    pub game_plies: usize,
    /// At most this many engine moves per position.
    pub width: usize,
    /// Moves more than this far below the best of their position are left out.
    pub margin: i32,
    /// A move from the games needs to be played this often.
    pub min_count: u32,
    /// Depth of the search that scores every move.
    pub depth: u32,
}

/// Moves within this many hundredths of a man of the best may be chosen in play.
pub const PLAY_MARGIN: i32 = 15;

impl Book {
    /// Reads a book.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut positions: HashMap<u64, Vec<Entry>> = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |what: &str| BookError { line: n + 1, what: format!("{what}: \"{line}\"") };
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() != 4 {
                return Err(err("expected key, move, score and count"));
            }
            let key = u64::from_str_radix(f[0], 16).map_err(|_| err("the key is not hexadecimal"))?;
            let score = f[2].parse().map_err(|_| err("the score is not a number"))?;
            let count = f[3].parse().map_err(|_| err("the count is not a number"))?;
            positions.entry(key).or_default().push(Entry { mv: f[1].to_string(), score, count });
        }
        Ok(Book { positions })
    }

    /// The book as text (sorted, so a rebuild diffs cleanly).
    pub fn to_text(&self, header: &str) -> String {
        let mut keys: Vec<_> = self.positions.keys().copied().collect();
        keys.sort_unstable();
        let mut out = String::new();
        for h in header.lines() {
            out.push_str("# ");
            out.push_str(h);
            out.push('\n');
        }
        for k in keys {
            for e in &self.positions[&k] {
                out.push_str(&format!("{k:016x} {} {} {}\n", e.mv, e.score, e.count));
            }
        }
        out
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True for a book without positions.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The book moves of `pos` that are legal there, with their entries.
    pub fn moves<R: Rules>(&self, pos: &Position<R>) -> Vec<(Move<BB<R>>, &Entry)> {
        self.positions
            .get(&pos.hash())
            .map(|v| v.iter().filter_map(|e| parse_move(pos, &e.mv).ok().map(|m| (m, e))).collect())
            .unwrap_or_default()
    }

    /// A move to play in `pos`: one of those within [`PLAY_MARGIN`] of the best, the
    /// better ones (and those players chose more) more often.
    pub fn pick<R: Rules>(&self, pos: &Position<R>, rng: &mut impl Rng) -> Option<(Move<BB<R>>, i32)> {
        let moves = self.moves(pos);
        let best = moves.iter().map(|(_, e)| e.score).max()?;
        let good: Vec<_> = moves.into_iter().filter(|(_, e)| e.score >= best - PLAY_MARGIN).collect();
        let weight = |e: &Entry| (f64::from(e.score - best) / 6.0).exp() * (1.0 + f64::from(e.count).ln_1p());
        let total: f64 = good.iter().map(|(_, e)| weight(e)).sum();
        let mut x = rng.gen::<f64>() * total;
        for (m, e) in &good {
            x -= weight(e);
            if x <= 0.0 {
                return Some((*m, e.score));
            }
        }
        good.last().map(|(m, e)| (*m, e.score))
    }

    /// Grows a book for rules `R` from the start position: the engine's own best
    /// moves for the first plies, and the moves of `games` (each a list of moves from
    /// the start) played at least `min_count` times; every position's moves are
    /// scored by one search and those more than `margin` below the best are dropped
    /// (the blunders of the games too). `report` hears the positions scored so far.
    pub fn build<R: Rules>(games: &[Vec<Move<BB<R>>>], o: BuildOptions, report: &mut dyn FnMut(usize)) -> Book {
        // Moves players chose, by position.
        let mut played: HashMap<u64, (Position<R>, HashMap<String, u32>)> = HashMap::new();
        for g in games {
            let mut pos = Position::<R>::start();
            for m in g.iter().take(o.game_plies) {
                let e = played.entry(pos.hash()).or_insert_with(|| (pos, HashMap::new()));
                *e.1.entry(move_to_string(&pos, m, true)).or_default() += 1;
                pos = pos.play(m);
            }
        }
        let mut s = Searcher::<R>::new(32, EvalKind::default_for::<R>());
        s.egdb = None;
        let stop = AtomicBool::new(false);
        let mut book = Book::default();
        let mut frontier = vec![(Position::<R>::start(), 0usize)];
        let mut todo: Vec<Position<R>> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        // The engine's tree first, then every position of the games with a repeated move.
        while let Some((pos, ply)) = frontier.pop() {
            if !seen.insert(pos.hash()) {
                continue;
            }
            let entries = Self::score(&mut s, &pos, o, played.get(&pos.hash()).map(|p| &p.1), &stop);
            report(book.len() + 1);
            if ply + 1 < o.engine_plies {
                // Entries come best first.
                for e in entries.iter().take(o.width) {
                    if let Ok(m) = parse_move(&pos, &e.mv) {
                        frontier.push((pos.play(&m), ply + 1));
                    }
                }
            }
            book.insert(pos.hash(), entries);
        }
        for (key, (pos, moves)) in &played {
            if !seen.contains(key) && moves.values().any(|&c| c >= o.min_count) {
                todo.push(*pos);
            }
        }
        for pos in todo {
            let entries = Self::score(&mut s, &pos, o, played.get(&pos.hash()).map(|p| &p.1), &stop);
            report(book.len() + 1);
            book.insert(pos.hash(), entries);
        }
        book
    }

    fn insert(&mut self, key: u64, entries: Vec<Entry>) {
        if !entries.is_empty() {
            self.positions.insert(key, entries);
        }
    }

    /// The moves of `pos` worth keeping: the engine's best ones and those players
    /// chose often enough, each with its score.
    fn score<R: Rules>(
        s: &mut Searcher<R>,
        pos: &Position<R>,
        o: BuildOptions,
        played: Option<&HashMap<String, u32>>,
        stop: &AtomicBool,
    ) -> Vec<Entry> {
        let scored = s.score_root_moves(pos, &[], o.depth, stop);
        let Some(best) = scored.iter().map(|(_, sc)| *sc).max() else { return Vec::new() };
        let mut out: Vec<Entry> = scored
            .iter()
            .filter(|(_, sc)| *sc >= best - o.margin)
            .map(|(m, sc)| {
                let mv = move_to_string(pos, m, true);
                let count = played.and_then(|p| p.get(&mv)).copied().unwrap_or(0);
                Entry { mv, score: *sc, count }
            })
            .filter(|e| e.count >= o.min_count || e.score == best || played.is_none())
            .collect();
        out.sort_by_key(|e| (-e.score, e.mv.clone()));
        out.truncate(o.width.max(1) + out.iter().filter(|e| e.count >= o.min_count).count());
        out
    }
}

/// The book built into dama for `variant`, if it has one.
pub fn builtin(variant: Variant) -> Option<&'static Book> {
    static BOOKS: OnceLock<Vec<(Variant, Book)>> = OnceLock::new();
    let all =
        BOOKS.get_or_init(|| BUILT_IN.iter().filter_map(|(v, text)| Book::parse(text).ok().map(|b| (*v, b))).collect());
    all.iter().find(|(v, _)| *v == variant).map(|(_, b)| b)
}

/// The book files embedded in the binary (`scripts/build-books` makes them).
const BUILT_IN: &[(Variant, &str)] = &[
    (Variant::English, include_str!("../books/english.book")),
    (Variant::Russian, include_str!("../books/russian.book")),
    (Variant::Turkish, include_str!("../books/turkish.book")),
    (Variant::Brazilian, include_str!("../books/brazilian.book")),
    (Variant::International, include_str!("../books/international.book")),
    (Variant::Pool, include_str!("../books/pool.book")),
    (Variant::Italian, include_str!("../books/italian.book")),
    (Variant::Spanish, include_str!("../books/spanish.book")),
    (Variant::Portuguese, include_str!("../books/portuguese.book")),
    (Variant::Czech, include_str!("../books/czech.book")),
    (Variant::Thai, include_str!("../books/thai.book")),
    (Variant::Frisian, include_str!("../books/frisian.book")),
    (Variant::Canadian, include_str!("../books/canadian.book")),
];
