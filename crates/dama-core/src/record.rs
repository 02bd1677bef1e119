//! Games as records: replaying a read PDN game with full legality checks, and
//! writing canonical PDN 3.0.

use std::fmt::Write as _;

use crate::color::Color;
use crate::fen::{parse_fen, write_fen};
use crate::game::{DrawRules, Game, Status};
use crate::geometry::Geometry;
use crate::moves::Move;
use crate::notation::{
    is_file_and_square, move_to_string_styled, parse_file_and_square, parse_move, parse_move_styled,
    parse_squares_styled, route_squares, routed_moves, MoveError, SquareStyle,
};
use crate::pdn::{PdnGame, Pos};
use crate::position::{Position, BB};
use crate::read_warning::{ReadWarning, ReadWarningKind};
use crate::variant::{Rules, Variant};

/// Why a game does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} ({text}) at line {}, column {}: {reason}", at.line, at.col)]
pub struct ReplayError {
    /// 1-based ply of the move that failed (0 for the setup).
    pub ply: usize,
    /// The move as written.
    pub text: String,
    /// Where it was read.
    pub at: Pos,
    /// Why it failed.
    pub reason: String,
    /// What kind of failure it is, for readers that word it in another language.
    pub kind: ReplayErrorKind,
}

/// The kinds of [`ReplayError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplayErrorKind {
    /// The start position (a `FEN` tag or a setup in the moves) cannot be read.
    Setup,
    /// No legal move fits the text.
    IllegalMove,
    /// Several legal moves fit the text, and the moves after it do not tell which.
    AmbiguousMove,
    /// The text is not a move.
    BadMoveText,
    /// The game ends in another way than its recorded result.
    ResultMismatch,
}

impl ReplayErrorKind {
    /// A short name: `setup`, `illegal_move`, `ambiguous_move`, `bad_move_text`,
    /// `result_mismatch`.
    pub fn code(self) -> &'static str {
        match self {
            ReplayErrorKind::Setup => "setup",
            ReplayErrorKind::IllegalMove => "illegal_move",
            ReplayErrorKind::AmbiguousMove => "ambiguous_move",
            ReplayErrorKind::BadMoveText => "bad_move_text",
            ReplayErrorKind::ResultMismatch => "result_mismatch",
        }
    }
}

/// The variant of a game: its `GameType` tag (short `20` or full `20,W,10,10,N1,0`),
/// or Italian when the tags have Italian names, or `default`.
pub fn variant_of(game: &PdnGame, default: Variant) -> Result<Variant, String> {
    match game.tag("GameType") {
        Some(t) => {
            let first = t.split(',').next().unwrap_or("").trim();
            let n: u32 = first.parse().map_err(|_| format!("GameType \"{t}\" is not a number"))?;
            Variant::from_game_type(n).ok_or_else(|| format!("GameType {n} is not a variant dama plays"))
        }
        None if game.italian_tags => Ok(Variant::Italian),
        None => Ok(default),
    }
}

/// The winner a result token names, given who moved first: `1-0` and `2-0` are wins
/// of the side listed first, the side that moves first in the variant.
pub fn result_winner(result: &str, first: Color) -> Option<Option<Color>> {
    match result {
        "1-0" | "2-0" => Some(Some(first)),
        "0-1" | "0-2" => Some(Some(!first)),
        "1/2-1/2" | "1-1" => Some(None),
        _ => None,
    }
}

/// The result token for a winner (1-0 family for 8x8, 2-0 family for 10x10 and 12x12).
pub fn result_token<R: Rules>(winner: Option<Color>) -> &'static str {
    let big = R::G::LAYOUT.width >= 10;
    match (winner.map(|w| w == R::FIRST), big) {
        (Some(true), false) => "1-0",
        (Some(false), false) => "0-1",
        (None, false) => "1/2-1/2",
        (Some(true), true) => "2-0",
        (Some(false), true) => "0-2",
        (None, true) => "1-1",
    }
}

pub(crate) fn start_of<R: Rules>(fen: &str) -> Result<Position<R>, String> {
    let fen = fen.trim();
    // "?" for the side to move: the variant's first mover.
    let fixed = match fen.strip_prefix('?') {
        Some(rest) => format!("{}{}", R::FIRST.letter(), rest),
        None => fen.to_string(),
    };
    parse_fen::<R>(&fixed).map_err(|e| format!("bad FEN \"{fen}\": {e}"))
}

/// Resolves a move in the file's notation, trying the variant's own squares, then
/// other square styles (remembering the one that works), then the Russian short form.
fn resolve<R: Rules>(pos: &Position<R>, text: &str, style: &mut SquareStyle) -> Result<Move<BB<R>>, MoveError> {
    let own = if *style == SquareStyle::Own { parse_move(pos, text) } else { parse_move_styled(pos, text, *style) };
    let err = match own {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    if *style == SquareStyle::Own {
        for s in [SquareStyle::Algebraic, SquareStyle::AlgebraicWhiteBottom, SquareStyle::Numeric] {
            if let Ok(m) = parse_move_styled(pos, text, s) {
                *style = s;
                return Ok(m);
            }
        }
    }
    parse_file_and_square(pos, text).unwrap_or(Err(err))
}

/// A move read from a record: the move, the entries it used, and a warning.
pub(crate) type ReadMove<R> = (Move<BB<R>>, usize, Option<ReadWarningKind>);

/// Reads the move `entries[0]` of a record at `pos`, in the file's square style
/// (`style` learns it): the move, how many entries it used (a capture written jump by
/// jump uses several), and a warning when the text was ambiguous and read as its first
/// reading. The entries after it tell an ambiguous move apart.
pub(crate) fn read_move<R: Rules>(
    pos: &Position<R>,
    entries: &[crate::pdn::PdnMove],
    style: &mut SquareStyle,
) -> Result<ReadMove<R>, (String, ReplayErrorKind)> {
    use ReplayErrorKind as K;
    let text = &entries[0].text;
    match resolve(pos, text, style) {
        Ok(mv) => Ok((mv, 1, None)),
        // Files often write a short capture that two sequences share: the moves that
        // follow tell which one was played.
        Err(MoveError::Ambiguous { candidates, .. }) => {
            // The file-of-origin form names no origin square: only the moves that
            // follow may tell, and a reading they do not single out is refused.
            let strict = is_file_and_square::<R>(text);
            let (mv, warning) =
                disambiguate(pos, &candidates, &entries[1..], *style, strict).map_err(|e| (e, K::AmbiguousMove))?;
            Ok((mv, 1, warning))
        }
        Err(e) => match split_capture(pos, entries, *style) {
            // Some sites write each jump of a capture as its own entry.
            Some((mv, used)) => Ok((mv, used, None)),
            None => {
                let kind = match e {
                    MoveError::Illegal { .. } => K::IllegalMove,
                    MoveError::Ambiguous { .. } => K::AmbiguousMove,
                    _ => K::BadMoveText,
                };
                Err((e.to_string(), kind))
            }
        },
    }
}

/// A capture written as several entries, each one jump or more continuing from the
/// last landing square (`e1xc3` then `c3xe5`): the legal move and how many entries
/// it used.
fn split_capture<R: Rules>(
    pos: &Position<R>,
    entries: &[crate::pdn::PdnMove],
    style: SquareStyle,
) -> Option<(Move<BB<R>>, usize)> {
    let routes: Vec<(Vec<usize>, Move<BB<R>>)> =
        routed_moves(pos).into_iter().filter(|r| r.mv.is_capture()).map(|r| (route_squares::<R>(&r), r.mv)).collect();
    let squares = |t: &str| match style {
        SquareStyle::Own => crate::notation::parse_move_text::<R>(t).ok().map(|m| m.squares),
        _ => parse_squares_styled::<R>(t, style),
    };
    let mut acc = squares(&entries.first()?.text)?;
    for used in 1..=entries.len() {
        let prefix: Vec<_> = routes.iter().filter(|(p, _)| p.starts_with(&acc)).collect();
        if prefix.is_empty() {
            return None;
        }
        if let Some((_, mv)) = prefix.iter().find(|(p, _)| *p == acc) {
            return (used > 1).then_some((*mv, used));
        }
        let next = squares(&entries.get(used)?.text)?;
        if next.first() != acc.last() {
            return None;
        }
        acc.extend_from_slice(&next[1..]);
    }
    None
}

/// How many of `rest` replay after `pos` (following the first reading of any later
/// ambiguity), up to `limit`.
fn replayable<R: Rules>(pos: Position<R>, rest: &[crate::pdn::PdnMove], mut style: SquareStyle, limit: usize) -> usize {
    let mut p = pos;
    for (n, m) in rest.iter().take(limit).enumerate() {
        let mv = match resolve(&p, &m.text, &mut style) {
            Ok(mv) => mv,
            Err(MoveError::Ambiguous { candidates, .. }) => match parse_move(&p, &candidates[0]) {
                Ok(mv) => mv,
                Err(_) => return n,
            },
            Err(_) => return n,
        };
        p = p.play(&mv);
    }
    rest.len().min(limit)
}

/// Chooses among the candidates of an ambiguous move the one after which the rest of
/// the game replays furthest; refuses when that does not single one out.
fn disambiguate<R: Rules>(
    pos: &Position<R>,
    candidates: &[String],
    rest: &[crate::pdn::PdnMove],
    style: SquareStyle,
    strict: bool,
) -> Result<(Move<BB<R>>, Option<ReadWarningKind>), String> {
    let mut best: Vec<(usize, Move<BB<R>>)> = Vec::new();
    for c in candidates {
        let mv = parse_move(pos, c).map_err(|e| e.to_string())?;
        let n = replayable(pos.play(&mv), rest, style, rest.len());
        best.push((n, mv));
    }
    let top = best.iter().map(|b| b.0).max().unwrap_or(0);
    let winners: Vec<_> = best.iter().filter(|b| b.0 == top).collect();
    match winners.len() {
        1 => Ok((winners[0].1, None)),
        // Every reading is legal to the end: the record cannot tell them apart.
        _ if top == rest.len() && !strict => Ok((winners[0].1, Some(ReadWarningKind::Ambiguous(candidates.to_vec())))),
        _ => Err(format!(
            "ambiguous: it could be {} and the moves that follow do not tell which",
            candidates.join(" or ")
        )),
    }
}

/// A replayed game: the game (no draw rules applied, so every recorded move is
/// checked) and the moves.
#[derive(Debug)]
pub struct Replayed<R: Rules> {
    /// The game after the last move.
    pub game: Game<R>,
    /// The moves in order.
    pub moves: Vec<Move<BB<R>>>,
    /// Moves the record writes ambiguously, read as their first reading.
    pub warnings: Vec<ReadWarning>,
}

/// Replays the main line of a game, checking every move, and that a recorded result
/// agrees with a game the rules ended (no piece or no move left).
pub fn replay<R: Rules>(g: &PdnGame) -> Result<Replayed<R>, ReplayError> {
    use ReplayErrorKind as K;
    let err = |ply: usize, text: &str, at: Pos, reason: String, kind: K| ReplayError {
        ply,
        text: text.to_string(),
        at,
        reason,
        kind,
    };
    let start = match g.tag("FEN") {
        Some(f) => start_of::<R>(f).map_err(|e| err(0, f, g.at, e, K::Setup))?,
        None => Position::<R>::start(),
    };
    let mut game = Game::from_position(start, DrawRules::default());
    let mut moves = Vec::with_capacity(g.moves.len());
    let mut style = SquareStyle::Own;
    let mut warnings = Vec::new();
    let mut skip = 0;
    for (i, m) in g.moves.iter().enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        if let Some(f) = &m.setup {
            let p = start_of::<R>(f).map_err(|e| err(i + 1, f, m.at, e, K::Setup))?;
            game = Game::from_position(p, DrawRules::default());
        }
        let pos = *game.position();
        let (mv, used, warning) = read_move(&pos, &g.moves[i..], &mut style)
            .map_err(|(reason, kind)| err(i + 1, &m.text, m.at, reason, kind))?;
        skip = used - 1;
        if let Some(w) = warning {
            warnings.push(ReadWarning { at: m.at, text: m.text.clone(), what: w });
        }
        game.play(&mv).map_err(|e| err(i + 1, &m.text, m.at, e.to_string(), K::IllegalMove))?;
        moves.push(mv);
    }
    let recorded = g.result.as_deref().or(g.tag("Result"));
    if let (Status::Over(r), Some(rec)) = (game.status(), recorded) {
        if let Some(winner) = result_winner(rec, R::FIRST) {
            if winner != r.winner {
                let at = g.moves.last().map_or(g.at, |m| m.at);
                let why = format!("recorded result {rec} but the game ended: {r}");
                return Err(err(g.moves.len(), rec, at, why, K::ResultMismatch));
            }
        }
    }
    Ok(Replayed { game, moves, warnings })
}

/// How to write moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteStyle {
    /// Square names.
    pub squares: SquareStyle,
    /// Every landing square of a capture, not only where the short form is ambiguous.
    pub long: bool,
}

impl Default for WriteStyle {
    fn default() -> Self {
        WriteStyle { squares: SquareStyle::Own, long: false }
    }
}

/// A move to write, with the mover's remaining clock time if known and comments.
#[derive(Clone, Debug, Default)]
pub struct MoveRecord<B> {
    /// The move.
    pub mv: Move<B>,
    /// The mover's remaining time after the move, in milliseconds.
    pub clock_ms: Option<u64>,
    /// Comments after the move.
    pub comments: Vec<String>,
}

fn clock(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The tag section of a PDN game and the blank line after it: the seven standard
/// tags, `GameType`, `FEN` when the game does not start from the start position,
/// then the other tags.
pub(crate) fn write_tags<R: Rules>(tags: &[(String, String)], start: &Position<R>, result: &str) -> String {
    let mut out = String::new();
    let get = |k: &str| tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(k)).map(|(_, v)| v.as_str());
    for k in ["Event", "Site", "Date", "Round", "White", "Black"] {
        let _ = writeln!(out, "[{k} \"{}\"]", escape(get(k).unwrap_or("?")));
    }
    let _ = writeln!(out, "[Result \"{result}\"]");
    let _ = writeln!(out, "[GameType \"{}\"]", R::VARIANT.game_type());
    if *start != Position::<R>::start() {
        let _ = writeln!(out, "[SetUp \"1\"]");
        let _ = writeln!(out, "[FEN \"{}\"]", write_fen(start));
    }
    let skip = ["Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "FEN", "SetUp"];
    for (k, v) in tags {
        if !skip.iter().any(|s| s.eq_ignore_ascii_case(k)) {
            let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
        }
    }
    out.push('\n');
    out
}

/// Writes a game as canonical PDN 3.0: the seven standard tags, `GameType`, `FEN`
/// when the game does not start from the start position, the other tags, numbered
/// movetext wrapped at 80 columns, and the result.
pub fn write_pdn<R: Rules>(
    tags: &[(String, String)],
    start: &Position<R>,
    moves: &[MoveRecord<BB<R>>],
    result: &str,
    style: WriteStyle,
) -> String {
    let mut out = write_tags(tags, start, result);
    let mut words: Vec<String> = Vec::new();
    let mut pos = *start;
    let mut number = 1;
    for (i, rec) in moves.iter().enumerate() {
        if pos.side() == R::FIRST {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(move_to_string_styled(&pos, &rec.mv, style.long, style.squares));
        if let Some(ms) = rec.clock_ms {
            words.push(format!("{{[%clock {}]}}", clock(ms)));
        }
        for c in &rec.comments {
            words.push(format!("{{{}}}", c.replace('}', ")")));
        }
        if pos.side() != R::FIRST {
            number += 1;
        }
        pos = pos.play(&rec.mv);
    }
    words.push(result.to_string());
    wrap(&mut out, words);
    out
}

/// Appends movetext `words` to `out` in lines under 80 columns, and a blank line.
pub(crate) fn wrap(out: &mut String, words: Vec<String>) {
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
}
