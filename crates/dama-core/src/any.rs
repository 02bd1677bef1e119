//! Games and positions whose variant is chosen at run time: one enum over the 13
//! rulebooks each ([`AnyGame`], [`AnyPosition`]), as shakmaty's `VariantPosition` does
//! for chess, speaking square names and move text, and showing moves and pieces as
//! [`MoveView`] and [`PieceView`] ([`crate::view`]).

use crate::fen::{parse_fen, write_fen, FenError};
use crate::game::{DrawRules, Game, GameError, GameResult, Status};
use crate::illegal::Refused;
use crate::movegen::legal_moves;
use crate::notation::parse_move;
use crate::record::{result_token, write_pdn, MoveRecord, WriteStyle};
use crate::variant::{
    Brazilian, Canadian, Czech, English, Frisian, International, Italian, Pool, Portuguese, Russian, Spanish, Thai,
    Turkish,
};
use crate::{Bits, Color, Position, Rules, Variant, VariantFn};

pub use crate::view::{
    detail_view, legal_views, legal_with_fen, pieces_of, view, view_of, LegalView, MoveView, PieceView,
};

/// Calls `$body` with `$g` bound to the variant's value of an enum over the 13
/// rulebooks (`$ty::English($g)`, ...).
macro_rules! each {
    ($ty:ident, $value:expr, $g:ident => $body:expr) => {
        match $value {
            $ty::English($g) => $body,
            $ty::Russian($g) => $body,
            $ty::Turkish($g) => $body,
            $ty::Brazilian($g) => $body,
            $ty::International($g) => $body,
            $ty::Pool($g) => $body,
            $ty::Italian($g) => $body,
            $ty::Spanish($g) => $body,
            $ty::Portuguese($g) => $body,
            $ty::Czech($g) => $body,
            $ty::Thai($g) => $body,
            $ty::Frisian($g) => $body,
            $ty::Canadian($g) => $body,
        }
    };
}

/// Declares an enum with one variant per rulebook, holding `$inner<Rules>`.
macro_rules! over_rulebooks {
    ($(#[$m:meta])* $name:ident, $inner:ident) => {
        $(#[$m])*
        #[allow(missing_docs)]
        pub enum $name {
            English($inner<English>),
            Russian($inner<Russian>),
            Turkish($inner<Turkish>),
            Brazilian($inner<Brazilian>),
            International($inner<International>),
            Pool($inner<Pool>),
            Italian($inner<Italian>),
            Spanish($inner<Spanish>),
            Portuguese($inner<Portuguese>),
            Czech($inner<Czech>),
            Thai($inner<Thai>),
            Frisian($inner<Frisian>),
            Canadian($inner<Canadian>),
        }
    };
}

/// A function of a position of any rulebook, called with its type ([`AnyPosition::visit`]).
pub trait PositionFn {
    /// What it returns.
    type Output;
    /// Runs it on a position of rules `R`.
    fn call<R: Rules>(self, pos: &Position<R>) -> Self::Output;
}

over_rulebooks!(
    /// A position of any rulebook.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    AnyPosition,
    Position
);

struct StartOf<'a>(Option<&'a str>);
impl VariantFn for StartOf<'_> {
    type Output = Result<AnyPosition, FenError>;
    fn call<R: Rules>(self) -> Self::Output {
        let pos = match self.0 {
            Some(f) => parse_fen::<R>(f)?,
            None => Position::<R>::start(),
        };
        Ok(R::any_position(pos))
    }
}

impl AnyPosition {
    /// The position of `variant` a FEN gives (the start without one), or why the FEN
    /// does not read ("bad FEN: ..." in words).
    pub fn new(variant: Variant, fen: Option<&str>) -> Result<AnyPosition, FenError> {
        variant.visit(StartOf(fen))
    }

    /// Runs `f` on the typed position.
    pub fn visit<F: PositionFn>(&self, f: F) -> F::Output {
        each!(AnyPosition, self, p => f.call(p))
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        each!(AnyPosition, self, p => rules_of(p))
    }

    /// The position as FEN.
    pub fn fen(&self) -> String {
        each!(AnyPosition, self, p => write_fen(p))
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        each!(AnyPosition, self, p => p.side())
    }

    /// Its key (the Zobrist hash the engine and the opening explorer use).
    pub fn hash(&self) -> u64 {
        each!(AnyPosition, self, p => p.hash())
    }

    /// The pieces.
    pub fn pieces(&self) -> Vec<PieceView> {
        each!(AnyPosition, self, p => pieces_of(p))
    }

    /// The legal moves.
    pub fn legal(&self) -> Vec<MoveView> {
        each!(AnyPosition, self, p => legal_views(p))
    }

    /// The legal moves, each with the position after it.
    pub fn legal_with_fen(&self) -> Vec<LegalView> {
        each!(AnyPosition, self, p => legal_with_fen(p))
    }

    /// The move `text` names, as played, and the position after it.
    pub fn play(&self, text: &str) -> Result<(MoveView, AnyPosition), String> {
        each!(AnyPosition, self, p => {
            let mv = parse_move(p, text).map_err(|e| e.to_string())?;
            let view = view_of(p, &mv).ok_or_else(|| "that move is not legal in this position".to_string())?;
            Ok((view, any_position_of(p.play(&mv))))
        })
    }
}

fn rules_of<R: Rules>(_: &Position<R>) -> Variant {
    R::VARIANT
}

/// A typed position as an [`AnyPosition`].
pub fn any_position_of<R: Rules>(p: Position<R>) -> AnyPosition {
    R::any_position(p)
}

over_rulebooks!(
    /// The typed game inside an [`AnyGame`].
    #[derive(Clone, Debug)]
    Games,
    Game
);

/// A game of any rulebook: the moves from its start and the rules that end it, with
/// the moves written in long notation when asked for ([`AnyGame::moves`]). Cloning one
/// copies its positions and moves, no text.
#[derive(Clone, Debug)]
pub struct AnyGame {
    game: Games,
}

struct NewGame<'a>(Option<&'a str>, DrawRules);
impl VariantFn for NewGame<'_> {
    type Output = Result<Games, FenError>;
    fn call<R: Rules>(self) -> Self::Output {
        let start = match self.0 {
            Some(f) => parse_fen::<R>(f)?,
            None => Position::start(),
        };
        Ok(R::any_game(Game::from_position(start, self.1)))
    }
}

/// A function of a game of any rulebook, called with its type ([`AnyGame::visit`]).
pub trait GameFn {
    /// What it returns.
    type Output;
    /// Runs it on a game of rules `R`.
    fn call<R: Rules>(self, game: &Game<R>) -> Self::Output;
}

impl AnyGame {
    /// A new game of `variant` from `fen` (or the start) under `rules`, or why the FEN
    /// does not read.
    pub fn new(variant: Variant, fen: Option<&str>, rules: DrawRules) -> Result<AnyGame, FenError> {
        Ok(AnyGame { game: variant.visit(NewGame(fen, rules))? })
    }

    /// A typed game as a game of any rulebook.
    pub fn of<R: Rules>(game: Game<R>) -> AnyGame {
        AnyGame { game: R::any_game(game) }
    }

    /// The typed game, when it is of rules `R`.
    pub fn typed<R: Rules>(&self) -> Option<&Game<R>> {
        R::game_in(&self.game)
    }

    /// Runs `f` on the typed game.
    pub fn visit<F: GameFn>(&self, f: F) -> F::Output {
        each!(Games, &self.game, g => f.call(g))
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        each!(Games, &self.game, g => variant_of(g))
    }

    /// The rules that end it.
    pub fn rules(&self) -> DrawRules {
        each!(Games, &self.game, g => g.rules())
    }

    /// The start position as FEN.
    pub fn start_fen(&self) -> String {
        each!(Games, &self.game, g => write_fen(g.start()))
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        each!(Games, &self.game, g => write_fen(g.position()))
    }

    /// The start position.
    pub fn start(&self) -> AnyPosition {
        each!(Games, &self.game, g => any_position_of(*g.start()))
    }

    /// The first `most` moves as played, each as clients see it.
    pub fn views(&self, most: usize) -> Vec<MoveView> {
        each!(Games, &self.game, g => g.plies().iter().take(most).map(|p| view(&p.before, &p.mv)).collect())
    }

    /// The first `most` moves: the key ([`AnyPosition::hash`]) of the position each was
    /// played from, and the move in long notation (only those are written).
    pub fn opening(&self, most: usize) -> Vec<(u64, String)> {
        each!(Games, &self.game, g => g
            .plies()
            .iter()
            .take(most)
            .map(|p| (p.before.hash(), crate::notation::move_to_string(&p.before, &p.mv, true)))
            .collect())
    }

    /// The current position.
    pub fn position(&self) -> AnyPosition {
        each!(Games, &self.game, g => any_position_of(*g.position()))
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        each!(Games, &self.game, g => g.position().side())
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        each!(Games, &self.game, g => g.plies().len())
    }

    /// The pieces.
    pub fn pieces(&self) -> Vec<PieceView> {
        each!(Games, &self.game, g => pieces_of(g.position()))
    }

    /// The legal moves (none once the game is over).
    pub fn legal(&self) -> Vec<MoveView> {
        if matches!(self.status(), Status::Over(_)) {
            return Vec::new();
        }
        each!(Games, &self.game, g => legal_views(g.position()))
    }

    /// Plays a move given as text under the rules in force; the move as played, or
    /// the rule that refuses it.
    pub fn play(&mut self, text: &str) -> Result<MoveView, Refused> {
        let v = each!(Games, &mut self.game, g => {
            let pos = *g.position();
            let mv = g.play_text(text).map_err(Refused::from)?;
            view_of(&pos, &mv).ok_or_else(|| Refused::from(GameError::NotLegal))?
        });
        Ok(v)
    }

    /// Plays a stored move when a game is restored: a record kept under older rules
    /// goes on past a count that the rules in force would have ended it by.
    pub fn play_recorded(&mut self, text: &str) -> Result<MoveView, String> {
        let v = each!(Games, &mut self.game, g => {
            let pos = *g.position();
            let mv = parse_move(&pos, text).map_err(|e| e.to_string())?;
            g.play_recorded(&mv).map_err(|e| e.to_string())?;
            view_of(&pos, &mv).ok_or_else(|| "that move is not legal in this position".to_string())?
        });
        Ok(v)
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        each!(Games, &self.game, g => g.status())
    }

    /// Ends the game by an event that is not a move (a game called off included).
    pub fn end(&mut self, result: GameResult) {
        each!(Games, &mut self.game, g => g.end(result))
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        each!(Games, &mut self.game, g => g.undo().is_ok())
    }

    /// The moves played, long notation.
    pub fn moves(&self) -> Vec<String> {
        each!(Games, &self.game, g => g.plies().iter().map(|p| crate::notation::move_to_string(&p.before, &p.mv, true)).collect())
    }

    /// True when the only legal move is a single capture (seed 003's one-minute rule).
    pub fn single_forced_capture(&self) -> bool {
        each!(Games, &self.game, g => {
            let l = legal_moves(g.position());
            l.len() == 1 && l.as_slice()[0].captured.count() == 1
        })
    }

    /// The PDN result token of a result: `*` for a game called off.
    pub fn result_token(&self, result: &GameResult) -> &'static str {
        if result.reason.is_void() {
            return "*";
        }
        each!(Games, &self.game, g => token_of(g, result.winner))
    }

    /// The game as PDN with these tags, the movers' clock times and comments after
    /// each move.
    pub fn pdn(&self, tags: &[(String, String)], clocks: &[Option<u64>], comments: &[Vec<String>]) -> String {
        let result = match self.status() {
            Status::Over(r) => self.result_token(&r),
            _ => "*",
        };
        each!(Games, &self.game, g => {
            let records: Vec<MoveRecord<_>> = g
                .plies()
                .iter()
                .enumerate()
                .map(|(i, p)| MoveRecord {
                    mv: p.mv,
                    clock_ms: clocks.get(i).copied().flatten(),
                    comments: comments.get(i).cloned().unwrap_or_default(),
                })
                .collect();
            write_pdn(tags, g.start(), &records, result, WriteStyle::default())
        })
    }
}

fn variant_of<R: Rules>(_: &Game<R>) -> Variant {
    R::VARIANT
}

fn token_of<R: Rules>(_: &Game<R>, winner: Option<Color>) -> &'static str {
    result_token::<R>(winner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::EndReason;

    #[test]
    fn a_game_of_any_rulebook_plays_views_and_takes_back() {
        let mut g = AnyGame::new(Variant::Russian, Some("W:Wh6:Bg7,c5,d2"), DrawRules::default()).unwrap();
        assert_eq!((g.variant(), g.side(), g.ply()), (Variant::Russian, Color::White, 0));
        let legal = g.legal();
        assert_eq!(legal.len(), 1);
        assert_eq!(legal[0].long, "h6:f8:b4:e1");
        let v = g.play("h6:f8:b4:e1").unwrap();
        assert_eq!((v.captured.len(), v.promote), (3, true));
        assert_eq!(g.moves(), ["h6:f8:b4:e1"]);
        assert!(matches!(g.status(), Status::Over(_)), "Black has no pieces left");
        assert!(g.legal().is_empty());
        assert!(g.undo());
        assert_eq!((g.ply(), g.fen()), (0, g.start_fen()));
        assert!(g.play("a1-b2").is_err());
        assert!(matches!(
            AnyGame::new(Variant::English, Some("W:Wz9"), DrawRules::default()),
            Err(FenError::BadSquare { at: 4, .. })
        ));
        // A game called off has no result token but `*`.
        let aborted = GameResult { winner: None, reason: EndReason::Aborted };
        assert_eq!(g.result_token(&aborted), "*");
        assert_eq!(g.result_token(&GameResult { winner: None, reason: EndReason::Agreement }), "1/2-1/2");
        // Every rulebook: the start's moves match the typed move list, and a typed game
        // wraps back with its moves' notation.
        for v in Variant::ALL {
            let g = AnyGame::new(v, None, DrawRules::default()).unwrap();
            assert_eq!(g.variant(), v);
            let p = AnyPosition::new(v, None).unwrap();
            assert_eq!((p.variant(), p.fen(), p.legal()), (v, g.fen(), g.legal()));
            let first = &p.legal()[0];
            let (played, after) = p.play(&first.long).unwrap();
            assert_eq!((&played, after.side()), (first, !p.side()));
        }
        let mut typed = Game::<English>::new();
        typed.play_text("11-15").unwrap();
        assert_eq!(AnyGame::of(typed).moves(), ["11-15"]);
    }
}
