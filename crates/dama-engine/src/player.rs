//! A player for adapters (Hub, server, CLI): the engine behind a variant chosen at
//! run time, speaking move text and FEN.

use std::sync::atomic::AtomicBool;

use dama_core::any::AnyGame;
use dama_core::fen::{parse_fen, write_fen};
use dama_core::game::{DrawRules, Game};
use dama_core::notation::{move_to_string, parse_move};
use dama_core::{Position, Rules, Variant, VariantFn};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::eval::EvalKind;
use crate::level::{pick, Level};
use crate::persona::Persona;
use crate::puzzle::Judgement;
use crate::search::{Analysis, Info, Limits, Searcher};

/// The most moves of a best line a review keeps for each position.
pub const REVIEW_LINE: usize = 8;

/// The first [`REVIEW_LINE`] moves of `pv` from `pos`, each in long notation in the
/// position it is played from.
fn line_text<R: Rules>(pos: &Position<R>, pv: &[dama_core::Move<dama_core::BB<R>>]) -> Vec<String> {
    let mut at = *pos;
    pv.iter()
        .take(REVIEW_LINE)
        .map(|m| {
            let text = move_to_string(&at, m, true);
            at = at.play(m);
            text
        })
        .collect()
}

/// What a search reports, in text.
#[derive(Clone, Debug)]
pub struct Report {
    /// Depth of the finished iteration.
    pub depth: u32,
    /// Score for the side to move, hundredths of a man.
    pub score: i32,
    /// Nodes.
    pub nodes: u64,
    /// Milliseconds.
    pub millis: u64,
    /// Principal variation in the variant's notation.
    pub pv: Vec<String>,
}

/// What an analysis reports at each finished depth, in text.
#[derive(Clone, Debug)]
pub struct LinesReport {
    /// Depth of the finished iteration.
    pub depth: u32,
    /// Nodes.
    pub nodes: u64,
    /// Milliseconds.
    pub millis: u64,
    /// The best lines, best first: score for the side to move and the moves in the
    /// variant's notation (long form for captures).
    pub lines: Vec<(i32, Vec<String>)>,
}

/// The result of thinking.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The move chosen, in the variant's notation (long form for captures).
    pub best: Option<String>,
    /// Score for the side to move.
    pub score: i32,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// An engine for one variant, with its game.
pub trait Player: Send {
    /// The variant played.
    fn variant(&self) -> Variant;
    /// Starts a new game from the start position.
    fn new_game(&mut self);
    /// Sets the position: `fen` (or the start) followed by `moves`.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String>;
    /// Sets the position to a game's, its moves taken as they were played (no text is
    /// read); a game of another rulebook is refused.
    fn set_game(&mut self, game: &AnyGame) -> Result<(), String>;
    /// The current position as FEN.
    fn fen(&self) -> String;
    /// Legal moves of the current position, in the variant's notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Thinks within `limits` at `level`; `report` hears of each iteration.
    fn think(&mut self, limits: Limits, level: Level, stop: &AtomicBool, report: &mut dyn FnMut(&Report)) -> Decision;
    /// Analyses the current position for its best `lines` moves within `limits`;
    /// `report` hears of each finished depth. Never plays from the book.
    fn analyse(&mut self, limits: Limits, lines: usize, stop: &AtomicBool, report: &mut dyn FnMut(&LinesReport));
    /// Searches every position of the current game (from its start to the position
    /// after the last move) within `limits` each: the score for the side to move and
    /// the best line, its moves in long notation (at most [`REVIEW_LINE`]; empty where
    /// the game is over). `progress` hears of each position done, with the total. Stops
    /// early at `stop` (the positions done so far).
    fn review(
        &mut self,
        limits: Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Vec<(i32, Vec<String>)>;
    /// Looks for puzzles ([`crate::puzzle`]) in the positions of the current game at
    /// plies `plies` (0 is the start, `n` the position after move `n`), or from the
    /// eighth on when none are given: each found as its FEN and winning line (long
    /// notation). Stops early at `stop`.
    fn find_puzzles(
        &mut self,
        limits: Limits,
        plies: Option<&[usize]>,
        stop: &AtomicBool,
    ) -> Vec<(String, Vec<String>)>;
    /// Judges the last move of the current game as a solver's move in a puzzle
    /// ([`crate::puzzle::judge`]): the puzzle starts at the game's start and `line` is
    /// its stored line (long notation); the game's moves are the solver's and the
    /// replies, the solver's last. The line that follows is in long notation, from
    /// the position after the move.
    fn judge_puzzle(&mut self, line: &[String], limits: Limits) -> Result<Judgement<String>, String>;
    /// Searches with this many threads (1 by default).
    fn set_threads(&mut self, n: usize);
    /// Plays from the built-in opening book at levels 8-10 (off by default).
    fn set_book(&mut self, on: bool);
    /// The move `persona` plays in the current position (no search), or None when
    /// there is no legal move.
    fn persona_move(&mut self, persona: Persona) -> Option<String>;
}

/// The lowest level that plays from the opening book.
pub const BOOK_LEVEL: u8 = 8;

struct Generic<R: Rules> {
    searcher: Searcher<R>,
    book: bool,
    game: Game<R>,
    rng: StdRng,
}

impl<R: Rules> Generic<R> {
    fn history(&self) -> Vec<u64> {
        self.game.plies().iter().map(|p| p.before.hash()).collect()
    }
}

impl<R: Rules> Player for Generic<R> {
    fn variant(&self) -> Variant {
        R::VARIANT
    }
    fn new_game(&mut self) {
        self.searcher.clear();
        self.game = Game::from_position(Position::start(), DrawRules::default());
    }
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
        let start = match fen {
            Some(f) => parse_fen::<R>(f).map_err(|e| e.to_string())?,
            None => Position::start(),
        };
        let mut g = Game::from_position(start, DrawRules::default());
        for m in moves {
            let mv = parse_move(g.position(), m).map_err(|e| e.to_string())?;
            g.play(&mv).map_err(|e| e.to_string())?;
        }
        self.game = g;
        Ok(())
    }
    fn set_game(&mut self, game: &AnyGame) -> Result<(), String> {
        let typed =
            game.typed::<R>().ok_or_else(|| format!("a {} game for a {} engine", game.variant(), R::VARIANT))?;
        // The engine keeps its own draw rules (the default ones), as set_position does.
        let mut g = Game::from_position(*typed.start(), DrawRules::default());
        for p in typed.plies() {
            g.play(&p.mv).map_err(|e| e.to_string())?;
        }
        self.game = g;
        Ok(())
    }
    fn fen(&self) -> String {
        write_fen(self.game.position())
    }
    fn set_threads(&mut self, n: usize) {
        self.searcher.threads = n.max(1);
    }
    fn set_book(&mut self, on: bool) {
        self.book = on;
    }
    fn persona_move(&mut self, persona: Persona) -> Option<String> {
        let pos = *self.game.position();
        crate::persona::choose(&pos, persona, &mut self.rng).map(|m| move_to_string(&pos, &m, true))
    }
    fn legal_moves(&self) -> Vec<String> {
        let p = self.game.position();
        dama_core::movegen::legal_moves(p).iter().map(|m| move_to_string(p, m, true)).collect()
    }
    fn think(
        &mut self,
        mut limits: Limits,
        level: Level,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Report),
    ) -> Decision {
        let pos = *self.game.position();
        if self.book && level.number >= BOOK_LEVEL {
            if let Some((m, score)) = crate::book::builtin(R::VARIANT).and_then(|b| b.pick(&pos, &mut self.rng)) {
                return Decision { best: Some(move_to_string(&pos, &m, true)), score, depth: 0, nodes: 0 };
            }
        }
        let history = self.history();
        limits.depth = tighter(limits.depth, level.depth);
        limits.nodes = tighter(limits.nodes, level.nodes);
        let mut cb = |i: &Info<dama_core::BB<R>>| {
            report(&Report {
                depth: i.depth,
                score: i.score,
                nodes: i.nodes,
                millis: i.elapsed.as_millis() as u64,
                pv: self_text::<R>(&pos, &i.pv),
            })
        };
        // Tables installed since this player was made (the server builds them in the
        // background at its first start) are used from the next search on.
        self.searcher.egdb = crate::egdb::installed::<R>();
        self.searcher.root_count = self.game.plies_since_material_change();
        let out = self.searcher.think(&pos, &history, limits, stop, &mut cb);
        let mut best = out.best;
        if level.noise > 0 && out.depth > 0 && self.rng.gen_range(0..1000) < level.loose {
            let scored = self.searcher.score_root_moves(&pos, &history, out.depth.max(1), stop);
            best = pick(&scored, level.noise, &mut self.rng).or(best);
        }
        Decision {
            best: best.map(|m| move_to_string(&pos, &m, true)),
            score: out.score,
            depth: out.depth,
            nodes: out.nodes,
        }
    }
    fn review(
        &mut self,
        limits: Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Vec<(i32, Vec<String>)> {
        let plies = self.game.plies();
        let mut positions: Vec<Position<R>> = plies.iter().map(|p| p.before).collect();
        positions.push(*self.game.position());
        let moves: Vec<_> = plies.iter().map(|p| p.mv).collect();
        self.searcher.egdb = crate::egdb::installed::<R>();
        let mut out = Vec::with_capacity(positions.len());
        // Plies since the material last changed (for the endings' move counts).
        let mut count = 0;
        for (i, pos) in positions.iter().enumerate() {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let history: Vec<u64> = positions[..i].iter().map(Position::hash).collect();
            self.searcher.root_count = count;
            // One line, searched whole even where one move is forced (a plain search
            // answers those at once, without a score).
            let a = self.searcher.analyse(pos, &history, limits, 1, stop, &mut |_| {});
            let found = match a.lines.first() {
                Some(l) => (l.score, line_text(pos, &l.pv)),
                // No move: the side to move has lost.
                None if dama_core::movegen::legal_moves(pos).is_empty() => (-crate::search::MATE, Vec::new()),
                None => (0, Vec::new()),
            };
            out.push(found);
            if let Some(m) = moves.get(i) {
                count = if m.is_capture() || m.promote { 0 } else { count + 1 };
            }
            progress(i + 1, positions.len());
        }
        out
    }
    fn find_puzzles(
        &mut self,
        limits: Limits,
        plies: Option<&[usize]>,
        stop: &AtomicBool,
    ) -> Vec<(String, Vec<String>)> {
        let mut positions: Vec<Position<R>> = self.game.plies().iter().map(|p| p.before).collect();
        positions.push(*self.game.position());
        self.searcher.egdb = crate::egdb::installed::<R>();
        let all: Vec<usize> = (8..positions.len()).collect();
        let mut out = Vec::new();
        for &i in plies.unwrap_or(&all) {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let Some(pos) = positions.get(i) else { continue };
            let history: Vec<u64> = positions[..i].iter().map(Position::hash).collect();
            self.searcher.root_count = 0;
            if let Some(f) = crate::puzzle::find(&mut self.searcher, pos, &history, limits) {
                out.push((write_fen(pos), self_text::<R>(pos, &f.line)));
            }
        }
        out
    }
    fn judge_puzzle(&mut self, line: &[String], limits: Limits) -> Result<Judgement<String>, String> {
        let start = *self.game.start();
        let goal = crate::puzzle::point(&crate::puzzle::gains(&start, &crate::puzzle::read_line(&start, line)?));
        let played: Vec<_> = self.game.plies().iter().map(|p| p.mv).collect();
        self.searcher.egdb = crate::egdb::installed::<R>();
        let j = crate::puzzle::judge(&mut self.searcher, &start, &played, goal.map(|p| p.gain), limits);
        let after = self.game.position();
        Ok(Judgement {
            line: self_text::<R>(after, &j.line),
            accepted: j.accepted,
            solved: j.solved,
            score: j.score,
            best: j.best,
        })
    }
    fn analyse(&mut self, limits: Limits, lines: usize, stop: &AtomicBool, report: &mut dyn FnMut(&LinesReport)) {
        let pos = *self.game.position();
        let history = self.history();
        self.searcher.egdb = crate::egdb::installed::<R>();
        self.searcher.root_count = self.game.plies_since_material_change();
        self.searcher.analyse(&pos, &history, limits, lines, stop, &mut |a: &Analysis<dama_core::BB<R>>| {
            report(&LinesReport {
                depth: a.depth,
                nodes: a.nodes,
                millis: a.elapsed.as_millis() as u64,
                lines: a.lines.iter().map(|l| (l.score, self_text::<R>(&pos, &l.pv))).collect(),
            })
        });
    }
}

fn self_text<R: Rules>(pos: &Position<R>, pv: &[dama_core::Move<dama_core::BB<R>>]) -> Vec<String> {
    dama_core::notation::line_to_strings(pos, pv, true)
}

struct Make(usize, Option<EvalKind>, u64);
impl VariantFn for Make {
    type Output = Box<dyn Player>;
    fn call<R: Rules>(self) -> Box<dyn Player> {
        let w = self.1.unwrap_or_else(EvalKind::default_for::<R>);
        Box::new(Generic::<R> {
            searcher: Searcher::new(self.0, w),
            book: false,
            game: Game::from_position(Position::start(), DrawRules::default()),
            rng: StdRng::seed_from_u64(self.2),
        })
    }
}

/// An engine for `variant` with a `tt_mb` megabyte table, the built-in evaluation (or
/// `eval`), and a random seed for the lower levels' choices.
pub fn player(variant: Variant, tt_mb: usize, eval: Option<EvalKind>, seed: u64) -> Box<dyn Player> {
    variant.visit(Make(tt_mb, eval, seed))
}

/// The tighter of two optional limits (none when neither is set).
fn tighter<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_set_as_played_is_the_game_set_from_its_text() {
        let mut game = AnyGame::new(Variant::Russian, None, DrawRules::default()).unwrap();
        for m in ["c3-d4", "f6-g5", "b2-c3", "g7-f6"] {
            game.play(m).unwrap();
        }
        let mut typed = player(Variant::Russian, 1, None, 1);
        typed.set_game(&game).unwrap();
        let mut text = player(Variant::Russian, 1, None, 1);
        text.set_position(Some(&game.start_fen()), &game.moves()).unwrap();
        assert_eq!((typed.fen(), typed.legal_moves()), (text.fen(), text.legal_moves()));
        assert_eq!(typed.fen(), game.fen());
        // A game of another rulebook is refused.
        assert!(player(Variant::English, 1, None, 1).set_game(&game).is_err());
    }
}
