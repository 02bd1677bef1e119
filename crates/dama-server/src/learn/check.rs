//! Judging the learner's moves: the rules of `dama_core` play them from the lesson's
//! position (an illegal one is refused with the rule it breaks, as a game refuses it),
//! the goal is checked after each move and each reply, and the opponent answers as
//! the lesson says: it passes, plays the lesson's moves, or the engine chooses.

use std::sync::atomic::AtomicBool;

use dama_core::any::{AnyGame, MoveView};
use dama_core::game::{DrawRules, GameResult, Status};
use dama_core::{Color, Variant};
use dama_engine::eval::EvalKind;
use dama_engine::level::Level;
use dama_engine::search::Limits;
use serde::Serialize;

use super::lessons::{Goal, Lesson, Replies};
use crate::error::ApiError;
use crate::round::Refusal;

/// Where the lesson stands after the learner's last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The goal is not reached yet: the learner moves again.
    Going,
    /// The goal is reached.
    Done,
    /// The goal can no longer be reached: try again.
    Failed,
}

/// Why a lesson failed (the page words it: `learn_failed_<why>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// A legal move that does not do what the goal asks.
    Missed,
    /// The learner's moves ran out before the goal was reached.
    OutOfMoves,
    /// Practice: a legal move that is not the winning one.
    NotTheShot,
}

/// A game's end as pages word it (`r_<code>`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ended {
    /// The winner; none for a draw.
    pub winner: Option<Color>,
    /// Why: the end's code, its number and side.
    pub reason: EndView,
}

/// An end reason's code and details.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EndView {
    /// The code.
    pub code: String,
    /// A number it names.
    pub n: Option<u32>,
    /// A side it names.
    pub side: Option<Color>,
}

impl Ended {
    fn of(r: &GameResult) -> Ended {
        Ended {
            winner: r.winner,
            reason: EndView { code: r.reason.code().to_string(), n: r.reason.number(), side: r.reason.side() },
        }
    }
}

/// The answer to the learner's moves.
#[derive(Clone, Debug, Serialize)]
pub struct Judged {
    /// Where the lesson stands.
    pub verdict: Verdict,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<Failure>,
    /// The learner's last move as played.
    pub played: MoveView,
    /// The opponent's reply to it, if it made one.
    pub reply: Option<MoveView>,
    /// The position now (FEN), the learner to move while the lesson goes on.
    pub fen: String,
    /// How the game ended, when a rule ended it (a draw lesson).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Ended>,
}

enum Progress {
    Open,
    Met,
    Missed(Failure),
}

fn over(game: &AnyGame) -> Option<GameResult> {
    match game.status() {
        Status::Over(r) => Some(r),
        _ => None,
    }
}

/// The goal after the learner's move `i` (`played`), with the game as it stands.
fn progress(lesson: &Lesson, game: &AnyGame, played: &MoveView, i: usize, learner: Color) -> Progress {
    match &lesson.goal {
        Goal::Reach { square } if played.path.last() == Some(square) => Progress::Met,
        Goal::Crown if played.promote => Progress::Met,
        Goal::CaptureAll if game.pieces().iter().all(|p| p.color == learner) => Progress::Met,
        Goal::Capture { n } if played.captured.len() as u32 >= *n => Progress::Met,
        Goal::Capture { .. } => Progress::Missed(Failure::Missed),
        Goal::Draw if over(game).is_some_and(|r| r.winner.is_none()) => Progress::Met,
        Goal::Line if lesson.solution.get(i) != Some(&played.long) => Progress::Missed(Failure::NotTheShot),
        Goal::Line if i + 1 == lesson.solution.len() => Progress::Met,
        _ => Progress::Open,
    }
}

/// The position with the other side to move (the opponent passes).
fn pass(variant: Variant, game: &AnyGame) -> Result<AnyGame, ApiError> {
    let fen = game.fen();
    let flipped = match fen.split_at(1) {
        ("W", rest) => format!("B{rest}"),
        (_, rest) => format!("W{rest}"),
    };
    AnyGame::new(variant, Some(&flipped), game.rules()).map_err(|_| ApiError::Internal)
}

/// Nodes the engine searches for a reply: a lesson's opponent plays sensibly, at once.
const ENGINE_NODES: u64 = 20_000;

/// The engine's reply in `game` (none when the side to move has no move).
fn engine_reply(game: &AnyGame) -> Option<String> {
    let mut p = dama_engine::player::player(game.variant(), 1, Some(EvalKind::Material), 0);
    p.set_game(game).ok()?;
    let limits = Limits { nodes: Some(ENGINE_NODES), ..Limits::default() };
    p.think(limits, Level::full(), &AtomicBool::new(false), &mut |_| {}).best
}

/// Plays the learner's `moves` (each as the board sends it) from the lesson's position
/// and judges the last: refused with its reason when the rules refuse it (400
/// `illegal_move`), else where the lesson stands. Moves after the lesson is over, or
/// more than it allows, are a bad request.
pub fn judge(variant: Variant, lesson: &Lesson, moves: &[String]) -> Result<Judged, ApiError> {
    if moves.is_empty() || moves.len() > lesson.moves {
        return Err(ApiError::BadRequest(format!("moves: 1 to {} of the learner's moves", lesson.moves)));
    }
    let mut game =
        AnyGame::new(variant, Some(&lesson.fen), DrawRules::official(variant)).map_err(|_| ApiError::Internal)?;
    let learner = game.side();
    let finished = || ApiError::BadRequest("moves: the lesson ended before the last of them".into());
    for (i, text) in moves.iter().enumerate() {
        let last = i + 1 == moves.len();
        let played = game.play(text).map_err(|r| ApiError::Refused(Refusal::IllegalMove(r)))?;
        let judged = |verdict, why, reply, game: &AnyGame| Judged {
            verdict,
            why,
            played: played.clone(),
            reply,
            fen: game.fen(),
            result: over(game).map(|r| Ended::of(&r)),
        };
        match progress(lesson, &game, &played, i, learner) {
            Progress::Met if last => return Ok(judged(Verdict::Done, None, None, &game)),
            Progress::Missed(why) if last => return Ok(judged(Verdict::Failed, Some(why), None, &game)),
            Progress::Met | Progress::Missed(_) => return Err(finished()),
            Progress::Open => {}
        }
        let reply = match &lesson.replies {
            Replies::Pass => {
                game = pass(variant, &game)?;
                None
            }
            Replies::Engine => match engine_reply(&game) {
                Some(m) => Some(game.play(&m).map_err(|_| ApiError::Internal)?),
                None => None,
            },
            Replies::Moves(list) => {
                // The scripted reply, or (the learner went another way) the first legal one.
                let scripted = list.get(i).and_then(|m| game.clone().play(m).ok().map(|_| m.clone()));
                match scripted.or_else(|| game.legal().first().map(|m| m.long.clone())) {
                    Some(m) => Some(game.play(&m).map_err(|_| ApiError::Internal)?),
                    None => None,
                }
            }
        };
        let drawn = lesson.goal == Goal::Draw && over(&game).is_some_and(|r| r.winner.is_none());
        let out_of_moves =
            i + 1 >= lesson.moves || over(&game).is_some() || reply.is_none() && lesson.replies != Replies::Pass;
        if last {
            let (verdict, why) = match (drawn, out_of_moves) {
                (true, _) => (Verdict::Done, None),
                (false, true) => (Verdict::Failed, Some(Failure::OutOfMoves)),
                (false, false) => (Verdict::Going, None),
            };
            return Ok(judged(verdict, why, reply, &game));
        }
        if drawn || out_of_moves {
            return Err(finished());
        }
    }
    Err(finished())
}
