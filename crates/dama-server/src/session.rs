//! A game whose variant is chosen at run time, speaking square names and move text.

use dama_core::fen::{parse_fen, write_fen};
use dama_core::game::{DrawRules, EndReason, Game, GameResult, Status};
use dama_core::movegen::legal_moves;
use dama_core::notation::{detailed_moves, square_name, MoveDetail};
use dama_core::record::{result_token, write_pdn, MoveRecord, WriteStyle};
use dama_core::{Bits, Color, Position, Rules, Variant, VariantFn, BB};
use serde::{Deserialize, Serialize};

/// A move as clients see it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct MoveView {
    /// Short notation.
    pub notation: String,
    /// Long notation (every landing square).
    pub long: String,
    /// Every square the piece stands on, origin first.
    pub path: Vec<String>,
    /// Captured squares in jump order.
    pub captured: Vec<String>,
    /// A man is crowned.
    pub promote: bool,
}

/// A piece on the board.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PieceView {
    /// Square name.
    pub square: String,
    /// "white" or "black".
    pub color: String,
    /// Crowned.
    pub king: bool,
}

/// A live game of any variant.
pub trait Session: Send + Sync {
    /// The variant.
    fn variant(&self) -> Variant;
    /// The start position.
    fn start_fen(&self) -> String;
    /// The current position.
    fn fen(&self) -> String;
    /// The side to move.
    fn side(&self) -> Color;
    /// Plies played.
    fn ply(&self) -> usize;
    /// The pieces.
    fn pieces(&self) -> Vec<PieceView>;
    /// The legal moves.
    fn legal(&self) -> Vec<MoveView>;
    /// Plays a move given as text; returns it as played.
    fn play(&mut self, text: &str) -> Result<MoveView, String>;
    /// Plays a stored move when a game is restored: a record kept under older rules goes
    /// on past a count that the rules in force would have ended it by.
    fn play_recorded(&mut self, text: &str) -> Result<MoveView, String>;
    /// Where the game stands.
    fn status(&self) -> Status;
    /// Ends the game by an event that is not a move.
    fn end(&mut self, result: GameResult);
    /// Takes back the last move.
    fn undo(&mut self) -> bool;
    /// Moves played, long notation.
    fn moves(&self) -> Vec<String>;
    /// True when the only legal move is a single capture (seed 003's one-minute rule).
    fn single_forced_capture(&self) -> bool;
    /// The game as PDN with the given tags and the movers' clock times.
    fn pdn(&self, tags: &[(String, String)], clocks: &[Option<u64>], comments: &[Vec<String>]) -> String;
    /// The result token of a result.
    fn result_token(&self, winner: Option<Color>) -> &'static str;
    /// The arbiter's decision (seed 003) to run on the engine pool: the clearly winning
    /// side, or a draw.
    fn adjudicator(&self) -> Box<dyn FnOnce() -> Option<Color> + Send>;
}

struct Live<R: Rules> {
    game: Game<R>,
    long: Vec<String>,
}

impl<R: Rules> Live<R> {
    /// `mv`, just played from `pos`, as clients see it; its long form is kept.
    fn played(&mut self, pos: &Position<R>, mv: &dama_core::Move<BB<R>>) -> MoveView {
        let v = view(pos, mv);
        self.long.push(v.long.clone());
        v
    }
}

/// The pieces of a position.
pub fn pieces_of<R: Rules>(p: &Position<R>) -> Vec<PieceView> {
    let l = <R::G as dama_core::geometry::Geometry>::LAYOUT;
    let mut out = Vec::new();
    for c in Color::ALL {
        for b in p.pieces(c).iter() {
            out.push(PieceView {
                square: square_name::<R>(l.index_of_bit[b as usize] as usize),
                color: c.to_string(),
                king: p.kings().has(b),
            });
        }
    }
    out
}

/// A legal move of `pos` as clients see it.
pub fn view<R: Rules>(pos: &Position<R>, mv: &dama_core::Move<BB<R>>) -> MoveView {
    to_view::<R>(detailed_moves(pos).into_iter().find(|d| d.mv == *mv).expect("a legal move"))
}

fn to_view<R: Rules>(d: MoveDetail<BB<R>>) -> MoveView {
    MoveView {
        notation: d.short,
        long: d.long,
        path: d.path.iter().map(|&i| square_name::<R>(i)).collect(),
        captured: d.captured.iter().map(|&i| square_name::<R>(i)).collect(),
        promote: d.promote,
    }
}

impl<R: Rules> Session for Live<R> {
    fn variant(&self) -> Variant {
        R::VARIANT
    }
    fn start_fen(&self) -> String {
        write_fen(self.game.start())
    }
    fn fen(&self) -> String {
        write_fen(self.game.position())
    }
    fn side(&self) -> Color {
        self.game.position().side()
    }
    fn ply(&self) -> usize {
        self.game.plies().len()
    }
    fn pieces(&self) -> Vec<PieceView> {
        pieces_of(self.game.position())
    }
    fn legal(&self) -> Vec<MoveView> {
        if matches!(self.game.status(), Status::Over(_)) {
            return Vec::new();
        }
        detailed_moves(self.game.position()).into_iter().map(to_view::<R>).collect()
    }
    fn play(&mut self, text: &str) -> Result<MoveView, String> {
        let pos = *self.game.position();
        let mv = self.game.play_text(text).map_err(|e| e.to_string())?;
        Ok(self.played(&pos, &mv))
    }
    fn play_recorded(&mut self, text: &str) -> Result<MoveView, String> {
        let pos = *self.game.position();
        let mv = dama_core::notation::parse_move(&pos, text).map_err(|e| e.to_string())?;
        self.game.play_recorded(&mv).map_err(|e| e.to_string())?;
        Ok(self.played(&pos, &mv))
    }
    fn status(&self) -> Status {
        self.game.status()
    }
    fn end(&mut self, result: GameResult) {
        self.game.end(result);
    }
    fn undo(&mut self) -> bool {
        let ok = self.game.undo().is_ok();
        if ok {
            self.long.pop();
        }
        ok
    }
    fn moves(&self) -> Vec<String> {
        self.long.clone()
    }
    fn single_forced_capture(&self) -> bool {
        let l = legal_moves(self.game.position());
        l.len() == 1 && l.as_slice()[0].captured.count() == 1
    }
    fn pdn(&self, tags: &[(String, String)], clocks: &[Option<u64>], comments: &[Vec<String>]) -> String {
        let records: Vec<MoveRecord<BB<R>>> = self
            .game
            .plies()
            .iter()
            .enumerate()
            .map(|(i, p)| MoveRecord {
                mv: p.mv,
                clock_ms: clocks.get(i).copied().flatten(),
                comments: comments.get(i).cloned().unwrap_or_default(),
            })
            .collect();
        let result = match self.game.status() {
            Status::Over(r) => result_token::<R>(r.winner),
            _ => "*",
        };
        write_pdn(tags, self.game.start(), &records, result, WriteStyle::default())
    }
    fn result_token(&self, winner: Option<Color>) -> &'static str {
        result_token::<R>(winner)
    }
    fn adjudicator(&self) -> Box<dyn FnOnce() -> Option<Color> + Send> {
        let pos = *self.game.position();
        Box::new(move || dama_engine::search::adjudicate(&pos, 300_000, 150))
    }
}

struct Make<'a>(Option<&'a str>, DrawRules);
impl VariantFn for Make<'_> {
    type Output = Result<Box<dyn Session>, String>;
    fn call<R: Rules>(self) -> Self::Output {
        let start = match self.0 {
            Some(f) => parse_fen::<R>(f).map_err(|e| format!("bad FEN: {e}"))?,
            None => Position::start(),
        };
        Ok(Box::new(Live::<R> { game: Game::from_position(start, self.1), long: Vec::new() }))
    }
}

/// A new session of `variant` from `fen` (or the start) under `rules`.
pub fn new_session(variant: Variant, fen: Option<&str>, rules: DrawRules) -> Result<Box<dyn Session>, String> {
    variant.visit(Make(fen, rules))
}

/// The result of a resignation, agreement, time or adjudication.
pub fn ended(winner: Option<Color>, reason: EndReason) -> GameResult {
    GameResult { winner, reason }
}
