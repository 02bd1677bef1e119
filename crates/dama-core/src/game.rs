//! Whole games: history, repetition, every end and draw rule of each rulebook.
//!
//! Which rules apply is a [`DrawRules`] value: each variant has an official default,
//! and the seeds' house rules are presets ([`RulePreset`]), so a server can offer
//! "seed 001 rules" beside "official rules".

use core::fmt;

use crate::bits::Bits;
use crate::color::Color;
use crate::movegen::{has_moves, is_legal};
use crate::moves::Move;
use crate::notation::{parse_move, MoveError};
use crate::position::{Position, BB};
use crate::variant::{Rules, Variant};

/// The end and draw rules that apply to a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DrawRules {
    /// The same position with the same side to move for the n-th time is a draw.
    pub repetition: Option<u8>,
    /// Draw after this many plies with no capture and no crowning (seed 001: 40 move
    /// pairs = 80 plies).
    pub no_progress_plies: Option<u32>,
    /// Draw when this many plies have been played without a winner (seed 001: 200).
    pub move_cap_plies: Option<u32>,
    /// FMJD: draw after this many plies in which only kings moved and nothing was
    /// captured (25 moves each = 50 plies; Italian, FID: 40 moves each = 80 plies).
    pub kings_only_plies: Option<u32>,
    /// FMJD endgames against a lone king: three pieces with a king, 16 moves each;
    /// two pieces or fewer with a king, 5 moves each.
    pub fmjd_endgames: bool,
    /// Russian (seed 000; FMJD rules for draughts-64): three kings or more against a
    /// lone king must capture it by their side's n-th move counted from when that
    /// balance arose (15). Pool (APCA): 13.
    pub many_kings_vs_king_moves: Option<u32>,
    /// Russian (FMJD rules for draughts-64, 7.2.6): with kings on both sides, no capture
    /// and no crowning in 30 moves each with 4 or 5 pieces on the board, in 60 moves
    /// each with 6 or 7.
    pub russian_balance: bool,
    /// Frisian: two kings against a lone king, 7 moves each; a king against a king, 2
    /// moves each.
    pub frisian_endings: bool,
    /// Russian (seed 000): one king against one king is a draw where neither can win
    /// (solved exactly; the side to move may capture at once, or a king cornered on
    /// the long diagonal may be lost).
    pub king_vs_king: bool,
    /// Turkish (seed 002): several pieces against a lone man win; one piece each draws.
    pub turkish_endings: bool,
    /// Seed 003: after this many plies in which only kings moved, with a position
    /// repeated among them, an arbiter decides (dama: the engine adjudicates).
    pub kings_only_adjudication_plies: Option<u32>,
}

/// Named sets of rules a game can be played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RulePreset {
    /// The variant's federation rules (for Russian, FMJD's rules for draughts-64, which
    /// hold all of seed 000's; for Turkish, seed 002's).
    Official,
    /// Seed 000 (Russian) exactly: its draws only (repetition, a king against a king,
    /// three kings against a lone king in 15 moves), without FMJD's counts.
    Seed000,
    /// Seed 001 (English/American): whole-game clocks, 40 move pairs without capture
    /// or crowning, 200-move cap.
    Seed001,
    /// Seed 003 (official English): 20-move kings-only adjudication, per-move limits.
    Seed003,
}

impl RulePreset {
    /// Whether the preset is a set of rules for `variant` (seeds 001 and 003 are
    /// English's, seed 000 Russian's); asked for another variant, a preset gives that
    /// variant's official rules.
    pub fn concerns(self, variant: Variant) -> bool {
        match self {
            RulePreset::Official => true,
            RulePreset::Seed000 => variant == Variant::Russian,
            RulePreset::Seed001 | RulePreset::Seed003 => variant == Variant::English,
        }
    }
}

impl DrawRules {
    /// The rules of `variant` under `preset` (presets that do not concern the variant
    /// give its official rules: [`RulePreset::concerns`]).
    pub fn preset(variant: Variant, preset: RulePreset) -> DrawRules {
        let preset = if preset.concerns(variant) { preset } else { RulePreset::Official };
        let base = DrawRules { repetition: Some(3), ..DrawRules::default() };
        match (variant, preset) {
            (Variant::English, RulePreset::Seed001) => {
                DrawRules { no_progress_plies: Some(80), move_cap_plies: Some(200), ..base }
            }
            // Seed 003 settles repeated king moves by its arbiter, not by an automatic
            // threefold-repetition draw (which would come first and pre-empt it).
            (Variant::English, RulePreset::Seed003) => {
                DrawRules { kings_only_adjudication_plies: Some(20), repetition: None, ..base }
            }
            (Variant::English, _) => DrawRules { no_progress_plies: Some(80), ..base },
            // Seed 000's list of draws and nothing more: where it and FMJD differ, a
            // player who asks for the seed's rules gets them.
            (Variant::Russian, RulePreset::Seed000) => {
                DrawRules { many_kings_vs_king_moves: Some(15), king_vs_king: true, ..base }
            }
            // FMJD's rules for draughts-64 (the Russian federation's): seed 000's rules
            // and 15 moves each of kings only, and the balance rule for 4-7 pieces.
            (Variant::Russian, _) => DrawRules {
                many_kings_vs_king_moves: Some(15),
                king_vs_king: true,
                kings_only_plies: Some(30),
                russian_balance: true,
                ..base
            },
            (Variant::Pool, _) => DrawRules { many_kings_vs_king_moves: Some(13), ..base },
            // FID's Regolamento Tecnico (art. 10.4): 40 moves each with no capture and no
            // man moved draw.
            (Variant::Italian, _) => DrawRules { kings_only_plies: Some(80), ..base },
            (Variant::Frisian, _) => DrawRules { frisian_endings: true, ..base },
            (Variant::Turkish, _) => DrawRules { turkish_endings: true, ..base },
            (Variant::International | Variant::Brazilian | Variant::Canadian, _) => {
                DrawRules { kings_only_plies: Some(50), fmjd_endgames: true, ..base }
            }
            _ => base,
        }
    }

    /// The official rules of a variant.
    pub fn official(variant: Variant) -> DrawRules {
        Self::preset(variant, RulePreset::Official)
    }
}

pub use crate::end::EndReason;

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// "White wins: time", "Draw: agreement"; a game called off says so alone ("Aborted",
/// "Abandoned", "Aborted: white made no first move").
impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.reason, self.winner) {
            (EndReason::Aborted, _) => write!(f, "Aborted"),
            (EndReason::Abandoned, _) => write!(f, "Abandoned"),
            (EndReason::NoFirstMove(_), _) => write!(f, "Aborted: {}", self.reason),
            (_, None) => write!(f, "Draw: {}", self.reason),
            (_, Some(c)) => write!(f, "{} wins: {}", if c == Color::White { "White" } else { "Black" }, self.reason),
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Moves may be played.
    Ongoing,
    /// An arbiter must decide (seed 003's kings-only rule); moves may still be played
    /// until [`Game::adjudicate`] is called.
    NeedsAdjudication,
    /// The game is over.
    Over(GameResult),
}

/// Why a game action was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has ended.
    #[error("the game is over ({0})")]
    Over(GameResult),
    /// The move is not legal.
    #[error("{0}")]
    Illegal(#[from] MoveError),
    /// The move value does not belong to the position.
    #[error("that move is not legal in this position")]
    NotLegal,
    /// There is nothing to take back.
    #[error("no move to take back")]
    NothingToUndo,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Counters {
    /// Plies since the last capture or crowning.
    no_progress: u32,
    /// Plies since the last irreversible move, a capture or a man's step forward (the
    /// window in which positions can repeat).
    reversible: u32,
    /// Plies of king-only non-capturing moves.
    kings_only: u32,
    /// Plies since the move that last changed the material (that move not counted).
    same_material: u32,
}

/// One played move with what is needed to take it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply<R: Rules> {
    /// The position before the move.
    pub before: Position<R>,
    /// The move.
    pub mv: Move<BB<R>>,
    counters: Counters,
}

/// A game of rules `R`: the moves from a start position and the rules that end it.
#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    start: Position<R>,
    pos: Position<R>,
    rules: DrawRules,
    plies: Vec<Ply<R>>,
    counters: Counters,
    status: Status,
}

fn material<R: Rules>(p: &Position<R>) -> [(u32, u32); 2] {
    [Color::White, Color::Black].map(|c| (p.men(c).count(), p.kings_of(c).count()))
}

/// The end that material alone decides under `rules`: Turkish (seed 002) several
/// pieces against a lone man, one piece each; Russian (seed 000) king against king
/// where neither can win ([`crate::duel`]).
/// The search applies the same rules inside its tree.
pub fn material_end<R: Rules>(rules: &DrawRules, pos: &Position<R>) -> Option<GameResult> {
    let [(wm, wk), (bm, bk)] = material(pos);
    let (wn, bn) = (wm + wk, bm + bk);
    let end = |winner, reason| Some(GameResult { winner, reason });
    if rules.turkish_endings {
        if wn == 1 && bn == 1 {
            return end(None, EndReason::OnePieceEach);
        }
        if wn >= 2 && bn == 1 && bm == 1 {
            return end(Some(Color::White), EndReason::LoneMan);
        }
        if bn >= 2 && wn == 1 && wm == 1 {
            return end(Some(Color::Black), EndReason::LoneMan);
        }
    }
    if rules.king_vs_king
        && wn == 1
        && bn == 1
        && wk == 1
        && bk == 1
        && crate::duel::king_duel(pos) == Some(crate::duel::Duel::Draw)
    {
        return end(None, EndReason::KingVsKing);
    }
    None
}

/// The count that runs in an ending against a lone king: the side with the lone king
/// draws when the strong side has not won within `moves` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoneKingCount {
    /// The side playing against the lone king.
    pub strong: Color,
    /// Moves allowed, counted from the move that made the balance (not counted).
    pub moves: u32,
    /// True when only the strong side's moves count (Russian, Pool); otherwise each
    /// side's moves count (`moves` each).
    pub strong_moves_only: bool,
    /// Why the game ends when the count runs out.
    pub reason: EndReason,
}

impl LoneKingCount {
    /// Plies after the balance arose by which a win must be complete: a side that
    /// wins `d` plies from a position `c` plies after the balance wins under the count
    /// when `c + d` is at most this (for either way of counting), provided the
    /// material does not change on the way.
    pub fn plies(&self) -> u32 {
        2 * self.moves
    }
}

/// The lone-king count of `pos`'s material under `rules`: Frisian (two kings 7 moves,
/// a king 2), FMJD (three pieces with a king 16 moves, two or fewer 5), Russian and
/// Pool (three kings or more, counted in the strong side's moves). `None` when no
/// such count runs. The game ([`Game::play`]) and the search apply the same counts.
pub fn lone_king_count<R: Rules>(rules: &DrawRules, pos: &Position<R>) -> Option<LoneKingCount> {
    let [(wm, wk), (bm, bk)] = material(pos);
    // (strong side, its men and kings) where the other side has a lone king and the
    // strong side a king.
    let sides = [(Color::White, (wm, wk), (bm, bk)), (Color::Black, (bm, bk), (wm, wk))];
    for (strong_side, strong, weak) in sides {
        if weak != (0, 1) || strong.1 == 0 {
            continue;
        }
        let count = |moves, strong_moves_only, reason| {
            Some(LoneKingCount { strong: strong_side, moves, strong_moves_only, reason })
        };
        if rules.frisian_endings {
            let m = match strong {
                (0, 2) => 7,
                (0, 1) => 2,
                _ => continue,
            };
            return count(m, false, EndReason::LoneKingEndgame(m));
        }
        if rules.fmjd_endgames {
            let m = match strong.0 + strong.1 {
                3 => 16,
                0..=2 => 5,
                _ => continue,
            };
            return count(m, false, EndReason::LoneKingEndgame(m));
        }
        if let Some(m) = rules.many_kings_vs_king_moves.filter(|_| strong.1 >= 3) {
            return count(m, true, EndReason::ManyKingsVsKing(m));
        }
    }
    None
}

impl<R: Rules> Game<R> {
    /// A game from the start position under the variant's official rules.
    pub fn new() -> Self {
        Self::from_position(Position::start(), DrawRules::official(R::VARIANT))
    }

    /// A game from any position under the given rules.
    pub fn from_position(start: Position<R>, rules: DrawRules) -> Self {
        let mut g = Game {
            start,
            pos: start,
            rules,
            plies: Vec::new(),
            counters: Counters::default(),
            status: Status::Ongoing,
        };
        g.status = g.evaluate();
        g
    }

    /// The current position.
    pub fn position(&self) -> &Position<R> {
        &self.pos
    }

    /// The start position.
    pub fn start(&self) -> &Position<R> {
        &self.start
    }

    /// The rules in force.
    pub fn rules(&self) -> DrawRules {
        self.rules
    }

    /// Plies since the material last changed (a capture or a crowning; that move not
    /// counted): where the count of an ending against a lone king stands.
    pub fn plies_since_material_change(&self) -> u32 {
        self.counters.same_material
    }

    /// The moves played so far.
    pub fn plies(&self) -> &[Ply<R>] {
        &self.plies
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        match self.status {
            Status::Over(r) => Some(r),
            _ => None,
        }
    }

    /// How many times the current position has occurred (1 = first time).
    pub fn repetitions(&self) -> u8 {
        let h = self.pos.hash();
        let window = self.counters.reversible as usize;
        let n = self.plies.len();
        let mut count = 1u8;
        // Only positions since the last irreversible move can repeat; same side to move
        // means every second ply.
        let mut back = 2;
        while back <= window && back <= n {
            if self.plies[n - back].before.hash() == h {
                count = count.saturating_add(1);
            }
            back += 2;
        }
        count
    }

    /// Plays a legal move from this position's move list.
    pub fn play(&mut self, mv: &Move<BB<R>>) -> Result<Status, GameError> {
        if let Status::Over(r) = self.status {
            return Err(GameError::Over(r));
        }
        if !is_legal(&self.pos, mv) {
            return Err(GameError::NotLegal);
        }
        let before = self.pos;
        let was_king = (before.kings() & BB::<R>::bit(mv.from as u32)).any();
        let saved = self.counters;
        let mut c = self.counters;
        let capture = mv.is_capture();
        c.no_progress = if capture || mv.promote { 0 } else { c.no_progress + 1 };
        c.reversible = if before.is_irreversible(mv) { 0 } else { c.reversible + 1 };
        c.kings_only = if was_king && !capture { c.kings_only + 1 } else { 0 };
        let after = before.play(mv);
        c.same_material = if material(&before) == material(&after) { c.same_material + 1 } else { 0 };
        self.plies.push(Ply { before, mv: *mv, counters: saved });
        self.pos = after;
        self.counters = c;
        self.status = self.evaluate();
        Ok(self.status)
    }

    /// Plays a move of a record kept from before the rules in force were adopted (a
    /// stored game of an older release): where a counting rule (repetition, moves
    /// without progress, the endings' move counts) would have ended the game earlier,
    /// the record goes on as it was played; no legal move or no piece still ends it.
    pub fn play_recorded(&mut self, mv: &Move<BB<R>>) -> Result<Status, GameError> {
        if let Status::Over(r) = self.status {
            if !r.reason.is_count() {
                return Err(GameError::Over(r));
            }
            self.status = Status::Ongoing;
        }
        self.play(mv)
    }

    /// Plays a move given as text (`11-15`, `c3:e5`, ...).
    pub fn play_text(&mut self, text: &str) -> Result<Move<BB<R>>, GameError> {
        if let Status::Over(r) = self.status {
            return Err(GameError::Over(r));
        }
        let mv = parse_move(&self.pos, text)?;
        self.play(&mv)?;
        Ok(mv)
    }

    /// Takes back the last move (also reopens a game that the move ended).
    pub fn undo(&mut self) -> Result<Move<BB<R>>, GameError> {
        let ply = self.plies.pop().ok_or(GameError::NothingToUndo)?;
        self.pos = ply.before;
        self.counters = ply.counters;
        self.status = self.evaluate();
        Ok(ply.mv)
    }

    /// Ends the game by an event that is not a move: resignation, agreement, time,
    /// adjudication.
    pub fn end(&mut self, result: GameResult) {
        self.status = Status::Over(result);
    }

    /// `loser` resigns.
    pub fn resign(&mut self, loser: Color) {
        self.end(GameResult { winner: Some(!loser), reason: EndReason::Resignation });
    }

    /// Both players agreed to a draw.
    pub fn agree_draw(&mut self) {
        self.end(GameResult { winner: None, reason: EndReason::Agreement });
    }

    /// `loser`'s flag fell.
    pub fn time_out(&mut self, loser: Color) {
        self.end(GameResult { winner: Some(!loser), reason: EndReason::Time });
    }

    /// The arbiter's decision: `winner`, or a draw.
    pub fn adjudicate(&mut self, winner: Option<Color>) {
        self.end(GameResult { winner, reason: EndReason::Adjudication });
    }

    fn evaluate(&self) -> Status {
        let p = &self.pos;
        let us = p.side();
        let r = &self.rules;
        let over = |winner, reason| Status::Over(GameResult { winner, reason });
        if p.pieces(us).is_empty() {
            return over(Some(!us), EndReason::NoPieces);
        }
        if !has_moves(p) {
            return over(Some(!us), EndReason::NoMoves);
        }
        if let Some(result) = material_end(r, p) {
            return Status::Over(result);
        }
        let [(wm, wk), (bm, bk)] = material(p);
        if let Some(n) = r.repetition {
            if self.repetitions() >= n {
                return over(None, EndReason::Repetition(n));
            }
        }
        let c = self.counters;
        if let Some(n) = r.no_progress_plies {
            if c.no_progress >= n {
                return over(None, EndReason::NoProgress(n));
            }
        }
        if let Some(k) = lone_king_count(r, p) {
            // Moves the strong side has made since the balance arose: half the plies
            // since, rounded up when the strong side moved last.
            let last_mover_strong = !us == k.strong;
            let drawn = if k.strong_moves_only {
                (c.same_material + last_mover_strong as u32) / 2 >= k.moves
            } else {
                c.same_material >= 2 * k.moves
            };
            if drawn {
                return over(None, k.reason);
            }
        }
        // The general counts come after the endings' own (which are shorter, or the
        // seed's wording for the same draw).
        if let Some(n) = r.kings_only_plies {
            if c.kings_only >= n {
                return over(None, EndReason::KingsOnly(n));
            }
        }
        if r.russian_balance && wk >= 1 && bk >= 1 {
            let plies = match wm + wk + bm + bk {
                4 | 5 => Some(60),
                6 | 7 => Some(120),
                _ => None,
            };
            if let Some(n) = plies.filter(|&n| c.no_progress >= n) {
                return over(None, EndReason::NoProgress(n));
            }
        }
        if let Some(n) = r.move_cap_plies {
            if self.plies.len() as u32 >= n {
                return over(None, EndReason::MoveCap(n));
            }
        }
        if let Some(n) = r.kings_only_adjudication_plies {
            if c.kings_only >= n && self.repeated_within(n) {
                return Status::NeedsAdjudication;
            }
        }
        Status::Ongoing
    }

    /// True when some position occurred twice within the last `plies` plies.
    fn repeated_within(&self, plies: u32) -> bool {
        let n = self.plies.len();
        let from = n.saturating_sub(plies as usize);
        let mut seen: Vec<u64> = self.plies[from..].iter().map(|p| p.before.hash()).collect();
        seen.push(self.pos.hash());
        seen.sort_unstable();
        seen.windows(2).any(|w| w[0] == w[1])
    }
}

impl<R: Rules> Default for Game<R> {
    fn default() -> Self {
        Self::new()
    }
}
