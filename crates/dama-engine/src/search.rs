//! Search: iterative deepening, principal variation search with aspiration windows,
//! transposition table, killer and history move ordering, forced captures searched to
//! the end (no capture sequence is cut in half), a look one move further at the
//! horizon when the opponent threatens a capture, exchange offers tried at a quiet
//! horizon without kings, late move reductions, draws by
//! repetition and by the game's material rules inside the search, and more threads
//! sharing the table (Lazy SMP).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use dama_core::game::{lone_king_count, material_end, DrawRules};
use dama_core::movegen::{can_capture, generate, has_capture};
use dama_core::moves::MAX_MOVES;
use dama_core::{Bits, Color, Move, MoveList, Position, Rules, BB};

use crate::egdb::{self, value::Value, Egdb};
use crate::eval::{EvalKind, Evaluator};
use crate::tt::{Bound, Tt};

/// Indices of a move list in search order.
type Order = ArrayVec<u16, MAX_MOVES>;

/// Larger than any score.
pub const INF: i32 = 32_000;

/// At a quiet horizon without kings, exchange offers are tried unless the static
/// evaluation is this far (hundredths of a man) below alpha.
const EXCHANGE_MARGIN: i32 = 50;

/// History of quiet moves: how often a move that was tried made the cut, as a running
/// average (Scan's scheme) in units of 1/`HISTORY_ONE`, so old searches fade instead
/// of every count growing to the cap over a game. Replaced additive depth² counts:
/// International at 0.1 s/move, 200 games, +46 =125 -29, +30 Elo [-19, +78]; again
/// with other changes, +45 =129 -26, +33 [-15, +81].
const HISTORY_ONE: i32 = 4096;
/// Each update moves the average 1/32 of the way.
const HISTORY_SHIFT: i32 = 5;

/// A win now; a win in n plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
const MAX_PLY: usize = 128;

/// True for scores that announce a forced win or loss.
pub fn is_mate(score: i32) -> bool {
    score.abs() > MATE - MAX_PLY as i32 * 2
}

/// A win the endgame tables know, `n` plies from the root, scores `DB_WIN - n`: below
/// a win the search sees to the end, above any evaluation.
pub const DB_WIN: i32 = 20_000;

/// Scores from this far out are distances to a known end (mate or table), not evaluations.
const KNOWN_END: i32 = DB_WIN - 1000;

/// Plies to the end a score announces (found by the search or known from the
/// tables): positive when the side to move wins. `None` for an evaluation.
pub fn plies_to_end(score: i32) -> Option<i32> {
    if is_mate(score) {
        Some(score.signum() * (MATE - score.abs()))
    } else if score.abs() > KNOWN_END {
        Some(score.signum() * (DB_WIN - score.abs()))
    } else {
        None
    }
}

/// A known end in moves of the side to move: `(true, n)` wins in n moves, `(false, n)`
/// loses in n. `None` for an evaluation or a draw.
pub fn moves_to_end(score: i32) -> Option<(bool, i32)> {
    match plies_to_end(score)? {
        p if p > 0 => Some((true, (p + 1) / 2)),
        p if score != 0 => Some((false, -p / 2)),
        _ => None,
    }
}

/// A score in words for players: "win in 7 moves" (moves of the side to move) when the
/// end is known, otherwise men, "+0.35".
pub fn score_text(score: i32) -> String {
    match moves_to_end(score) {
        Some((true, n)) => format!("win in {n} moves"),
        Some((false, n)) => format!("loss in {n} moves"),
        None => format!("{:+.2}", f64::from(score) / 100.0),
    }
}

/// The score of a table's win (or loss, when `loses`) in `d` plies, `ply` plies from
/// the root.
fn table_score(loses: bool, d: usize, ply: usize) -> i32 {
    let s = DB_WIN - (ply + d) as i32;
    if loses {
        -s
    } else {
        s
    }
}

/// A drawn table position for the side to move: a sliver of its material lead (a man
/// 2, a king 5 hundredths of a man), never enough to outweigh an evaluation but enough
/// that among drawn lines the search keeps its material and the opponent's chances to
/// go wrong, instead of giving pieces away because every line is a draw.
fn drawn_score<R: Rules>(pos: &Position<R>) -> i32 {
    let material = |c: Color| 2 * pos.men(c).count() as i32 + 5 * pos.kings_of(c).count() as i32;
    material(pos.side()) - material(!pos.side())
}

/// When to stop searching.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Most nodes.
    pub nodes: Option<u64>,
    /// The time aimed at: after an iteration, stop once past this (stretched while the
    /// best move keeps changing or the score falls, shrunk while it is stable). None:
    /// search until `hard_time` (a fixed move time is spent whole).
    pub soft_time: Option<Duration>,
    /// Abort at this, and play the best move found so far.
    pub hard_time: Option<Duration>,
}

/// What one finished iteration found.
#[derive(Clone, Debug)]
pub struct Info<B> {
    /// Depth of the iteration.
    pub depth: u32,
    /// Score for the side to move, hundredths of a man (or a mate score).
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move<B>>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome<B> {
    /// Best move (`None` when there is no legal move).
    pub best: Option<Move<B>>,
    /// Its score.
    pub score: i32,
    /// Depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move<B>>,
}

/// Two stop flags: the caller's, and (for helper threads) the main search's.
#[derive(Clone, Copy)]
pub struct StopEither<'a>(&'a AtomicBool, &'a AtomicBool);

impl StopEither<'_> {
    #[inline]
    fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed) || self.1.load(Ordering::Relaxed)
    }
}

/// A search engine for rules `R` with its tables.
pub struct Searcher<R: Rules> {
    tt: Arc<Tt>,
    /// Search threads (1: this one only).
    pub threads: usize,
    /// The evaluation.
    pub eval: Evaluator<R>,
    /// Draw rules applied inside the search (material draws).
    pub rules: DrawRules,
    /// Endgame tables probed inside the search (those installed when it was made).
    pub egdb: Option<Arc<Egdb<R>>>,
    /// Plies since the material last changed at the root of the next search (the
    /// game's `plies_since_material_change`): where the count of an ending against a
    /// lone king stands, so that a win the tables know but the count would not let
    /// the strong side finish is scored a draw.
    pub root_count: u32,
    /// Plies since the material last changed, at each ply of the current path.
    counts: [u32; MAX_PLY],
    history: Vec<i32>,
    killers: [[Option<Move<BB<R>>>; 2]; MAX_PLY],
    path: Vec<u64>,
    nodes: u64,
    start: Instant,
    limits: Limits,
    aborted: bool,
    /// The best root move of the iteration under way, once one has been fully searched.
    root_best: Option<(Move<BB<R>>, i32)>,
    /// Root moves left out of the search (the lines an analysis has already found).
    excluded: Vec<Move<BB<R>>>,
}

/// One line of an analysis: a root move's score and its principal variation.
#[derive(Clone, Debug)]
pub struct Line<B> {
    /// Score for the side to move, hundredths of a man (or a mate or table score).
    pub score: i32,
    /// The line, its root move first.
    pub pv: Vec<Move<B>>,
}

/// What an analysis found at one finished depth.
#[derive(Clone, Debug)]
pub struct Analysis<B> {
    /// The depth.
    pub depth: u32,
    /// The best lines, best first.
    pub lines: Vec<Line<B>>,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}

impl<R: Rules> Searcher<R> {
    /// A searcher with a transposition table of `tt_mb` megabytes and an evaluation.
    pub fn new(tt_mb: usize, eval: EvalKind) -> Self {
        Self::with_table(Arc::new(Tt::new(tt_mb)), Evaluator::new(eval))
    }

    /// A searcher over a shared table (helper threads).
    fn with_table(tt: Arc<Tt>, eval: Evaluator<R>) -> Self {
        Searcher {
            tt,
            threads: 1,
            eval,
            rules: DrawRules::official(R::VARIANT),
            egdb: egdb::installed::<R>(),
            root_count: 0,
            counts: [0; MAX_PLY],
            history: vec![HISTORY_ONE / 2; 128 * 128],
            killers: [[None; 2]; MAX_PLY],
            path: Vec::with_capacity(512),
            nodes: 0,
            start: Instant::now(),
            limits: Limits::default(),
            aborted: false,
            root_best: None,
            excluded: Vec::new(),
        }
    }

    /// Forgets what earlier searches learned (for a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = HISTORY_ONE / 2);
        self.killers = [[None; 2]; MAX_PLY];
    }

    fn out_of_time(&mut self, stop: &StopEither<'_>) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes & 1023 == 0 {
            let over_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            let over_time = self.limits.hard_time.is_some_and(|t| self.start.elapsed() >= t);
            if over_nodes || over_time || stop.is_set() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Plies since the material changed after `m` is played at `ply`.
    fn count_after(&self, m: &Move<BB<R>>, ply: usize) -> u32 {
        if m.is_capture() || m.promote {
            0
        } else {
            self.counts[ply] + 1
        }
    }

    /// The score of a table value at `ply`, with the lone-king count applied: a win of
    /// the side playing against a lone king with kings only (no crowning can restart
    /// the count on the way) that takes longer than the count leaves is a draw. A win
    /// of the lone king, or of a side that still has men, keeps the table's value.
    /// Draws are scored by [`drawn_score`].
    fn counted_table_score(&self, pos: &Position<R>, v: Value, ply: usize) -> i32 {
        let Some((loses, d)) = v.plies() else { return drawn_score(pos) };
        if let Some(k) = lone_king_count(&self.rules, pos) {
            let strong_wins = (pos.side() == k.strong) != loses;
            if strong_wins && pos.men(k.strong).is_empty() && self.counts[ply] + d as u32 > k.plies() {
                return drawn_score(pos);
            }
        }
        table_score(loses, d, ply)
    }

    /// Ends the rules decide from material alone, scored for the side to move.
    fn material_result(&self, pos: &Position<R>, ply: usize) -> Option<i32> {
        material_end(&self.rules, pos).map(|r| match r.winner {
            None => 0,
            Some(c) if c == pos.side() => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
        })
    }

    /// Searches `pos`, whose game went through the positions `history` (hashes, oldest
    /// first, for repetitions), within `limits`; `report` hears of each iteration.
    pub fn think(
        &mut self,
        pos: &Position<R>,
        history: &[u64],
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info<BB<R>>),
    ) -> Outcome<BB<R>> {
        if self.threads > 1 {
            return self.think_smp(pos, history, limits, stop, report);
        }
        self.tt.new_search();
        self.iterate(pos, history, limits, stop, report, 0)
    }

    /// Lazy SMP: helpers search the same position over the shared table (half of them
    /// one ply deeper), so the main search finds more of its work already done.
    fn think_smp(
        &mut self,
        pos: &Position<R>,
        history: &[u64],
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info<BB<R>>),
    ) -> Outcome<BB<R>> {
        self.tt.new_search();
        let helpers_stop = AtomicBool::new(false);
        let mut helpers: Vec<Searcher<R>> = (1..self.threads)
            .map(|_| {
                let mut h = Searcher::with_table(self.tt.clone(), self.eval.clone());
                h.rules = self.rules;
                h.egdb = self.egdb.clone();
                h.root_count = self.root_count;
                h
            })
            .collect();
        std::thread::scope(|sc| {
            for (i, h) in helpers.iter_mut().enumerate() {
                let (hs, stop) = (&helpers_stop, stop);
                sc.spawn(move || {
                    let both = StopEither(hs, stop);
                    let lim =
                        Limits { depth: limits.depth.map(|d| d + 1), nodes: None, soft_time: None, hard_time: None };
                    h.iterate_with(pos, history, lim, &both, &mut |_| {}, (i % 2) as u32 + 1);
                });
            }
            let out = self.iterate(pos, history, limits, stop, report, 0);
            helpers_stop.store(true, Ordering::Relaxed);
            out
        })
    }

    /// Starts a search of `pos` reached through `history` within `limits`: the clock,
    /// the counters and the path set; the root moves.
    fn begin(&mut self, pos: &Position<R>, history: &[u64], limits: Limits) -> MoveList<BB<R>> {
        self.start = Instant::now();
        self.limits = limits;
        self.nodes = 0;
        self.aborted = false;
        self.path.clear();
        self.path.extend_from_slice(history);
        self.counts[0] = self.root_count;
        let mut root = MoveList::new();
        generate(pos, &mut root);
        root
    }

    fn iterate(
        &mut self,
        pos: &Position<R>,
        history: &[u64],
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info<BB<R>>),
        skip: u32,
    ) -> Outcome<BB<R>> {
        self.iterate_with(pos, history, limits, &StopEither(stop, stop), report, skip)
    }

    /// Iterative deepening; `skip` starts helpers off the main thread's depths.
    fn iterate_with(
        &mut self,
        pos: &Position<R>,
        history: &[u64],
        limits: Limits,
        stop: &StopEither<'_>,
        report: &mut dyn FnMut(&Info<BB<R>>),
        skip: u32,
    ) -> Outcome<BB<R>> {
        let root = self.begin(pos, history, limits);
        let mut best = Outcome { best: root.as_slice().first().copied(), score: 0, depth: 0, nodes: 0, pv: Vec::new() };
        if root.len() <= 1 {
            // No choice to make: answer at once.
            best.nodes = 1;
            best.pv = best.best.into_iter().collect();
            return best;
        }
        let mut max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 10).min(MAX_PLY as u32 - 10);
        if self.egdb.as_ref().is_some_and(|db| db.probe(pos).is_some()) {
            // Every move leads into the tables: one ply scores them all exactly.
            max_depth = max_depth.min(1 + skip);
        }
        let mut score = 0;
        // How much of the aimed time to allow: shrinks while the best move holds,
        // grows when it changes or the score falls.
        let mut stretch = 1.0f64;
        for depth in (1 + skip).min(max_depth)..=max_depth {
            let mut window = 15;
            let (mut alpha, mut beta) = if depth >= 4 { (score - window, score + window) } else { (-INF, INF) };
            self.root_best = None;
            let s = loop {
                let s = self.negamax(pos, depth as i32, alpha, beta, 0, stop);
                if self.aborted {
                    break s;
                }
                if s <= alpha {
                    alpha = (alpha - window).max(-INF);
                } else if s >= beta {
                    beta = (beta + window).min(INF);
                } else {
                    break s;
                }
                window *= 2;
            };
            if self.aborted {
                // The unfinished iteration still counts when a root move was searched
                // through: it is the deeper opinion.
                if let (Some((m, sc)), true) = (self.root_best, depth > 1) {
                    if best.best != Some(m) || sc > best.score {
                        best = Outcome { best: Some(m), score: sc, depth: depth - 1, nodes: self.nodes, pv: vec![m] };
                    }
                }
                if depth > 1 {
                    break;
                }
            }
            let previous = (best.best, score);
            score = s;
            let pv = self.pv(pos);
            if let Some(first) = pv.first() {
                best = Outcome { best: Some(*first), score, depth, nodes: self.nodes, pv: pv.clone() };
            }
            report(&Info { depth, score, nodes: self.nodes, elapsed: self.start.elapsed(), pv });
            if self.aborted || is_mate(score) && depth as i32 > (MATE - score.abs()) + 2 {
                break;
            }
            if depth > 1 {
                stretch =
                    if best.best == previous.0 { (stretch * 0.9).max(0.6) } else { (stretch.max(1.0) * 1.3).min(2.0) };
                if score < previous.1 - 30 {
                    stretch = (stretch * 1.5).min(2.5);
                }
            }
            // The next iteration takes a few times the last: do not start one that
            // would end far past the aim.
            if limits.soft_time.is_some_and(|t| self.start.elapsed().as_secs_f64() >= 0.6 * stretch * t.as_secs_f64()) {
                break;
            }
        }
        best.nodes = self.nodes;
        best
    }

    /// Analyses `pos` (reached through `history`, as in [`Self::think`]) for the best
    /// `lines` moves: iterative deepening in which each depth searches the position
    /// once per line, every search leaving out the root moves found before it (with a
    /// full window). `report` hears of every finished depth; the last one is returned.
    /// Single-threaded; stops at `limits` or `stop`.
    pub fn analyse(
        &mut self,
        pos: &Position<R>,
        history: &[u64],
        limits: Limits,
        lines: usize,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Analysis<BB<R>>),
    ) -> Analysis<BB<R>> {
        self.tt.new_search();
        let root = self.begin(pos, history, limits);
        let wanted = lines.clamp(1, root.len().max(1));
        let mut done = Analysis { depth: 0, lines: Vec::new(), nodes: 0, elapsed: Duration::ZERO };
        if root.is_empty() {
            return done;
        }
        let both = StopEither(stop, stop);
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 10).min(MAX_PLY as u32 - 10);
        'deepen: for depth in 1..=max_depth {
            let mut found: Vec<Line<BB<R>>> = Vec::with_capacity(wanted);
            self.excluded.clear();
            for _ in 0..wanted {
                self.root_best = None;
                let score = self.negamax(pos, depth as i32, -INF, INF, 0, &both);
                if self.aborted {
                    break 'deepen;
                }
                let Some((m, _)) = self.root_best else { break };
                let mut pv = vec![m];
                let child = pos.play(&m);
                pv.extend(self.pv(&child).into_iter().take(63));
                found.push(Line { score, pv });
                self.excluded.push(m);
            }
            self.excluded.clear();
            found.sort_by_key(|l| -l.score);
            done = Analysis { depth, lines: found, nodes: self.nodes, elapsed: self.start.elapsed() };
            report(&done);
            // Every line ends in a known result: deeper searches cannot change them.
            if done.lines.iter().all(|l| is_mate(l.score) && depth as i32 > (MATE - l.score.abs()) + 2) {
                break;
            }
        }
        self.excluded.clear();
        done.nodes = self.nodes;
        done
    }

    /// Scores every root move at `depth` (for levels that choose among near-best moves).
    pub fn score_root_moves(
        &mut self,
        pos: &Position<R>,
        history: &[u64],
        depth: u32,
        stop: &AtomicBool,
    ) -> Vec<(Move<BB<R>>, i32)> {
        self.limits = Limits::default();
        self.aborted = false;
        self.path.clear();
        self.path.extend_from_slice(history);
        let mut root = MoveList::new();
        generate(pos, &mut root);
        let mut out = Vec::new();
        self.counts[0] = self.root_count;
        for m in root.iter() {
            let child = pos.play(m);
            self.counts[1] = self.count_after(m, 0);
            self.path.push(pos.hash());
            let s = -self.negamax(&child, depth as i32 - 1, -INF, INF, 1, &StopEither(stop, stop));
            self.path.pop();
            out.push((*m, s));
        }
        out
    }

    fn pv(&self, pos: &Position<R>) -> Vec<Move<BB<R>>> {
        let mut pv = Vec::new();
        let mut p = *pos;
        let mut seen = Vec::new();
        while let Some(e) = self.tt.probe(p.hash()) {
            let Some(i) = e.mv else { break };
            if pv.len() >= 64 || seen.contains(&p.hash()) {
                break;
            }
            let mut list = MoveList::new();
            generate(&p, &mut list);
            let Some(m) = list.as_slice().get(usize::from(i)).copied() else { break };
            seen.push(p.hash());
            pv.push(m);
            p = p.play(&m);
        }
        pv
    }

    /// The order to search `list` in, as indices: the table's move, captures by size,
    /// crowning, killers, then by history.
    fn order(&self, list: &MoveList<BB<R>>, tt_move: Option<usize>, ply: usize) -> Order {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let moves = list.as_slice();
        let key = |i: usize| -> i32 {
            if Some(i) == tt_move {
                return i32::MAX;
            }
            let m = &moves[i];
            let mut s = m.captured.count() as i32 * 10_000 + if m.promote { 5_000 } else { 0 };
            if killers[0] == Some(*m) {
                s += 4_000;
            } else if killers[1] == Some(*m) {
                s += 3_000;
            }
            s + self.history[m.from as usize * 128 + m.to as usize] * 2_999 / HISTORY_ONE
        };
        // Stable insertion sort, best first, without touching the heap.
        let mut keys: ArrayVec<i32, MAX_MOVES> = ArrayVec::new();
        let mut order: Order = ArrayVec::new();
        for i in 0..moves.len() {
            order.push(i as u16);
            keys.push(key(i));
        }
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && keys[j - 1] < keys[j] {
                keys.swap(j - 1, j);
                order.swap(j - 1, j);
                j -= 1;
            }
        }
        order
    }

    fn negamax(
        &mut self,
        pos: &Position<R>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stop: &StopEither<'_>,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time(stop) {
            return 0;
        }
        let hash = pos.hash();
        if ply > 0 {
            // A repetition inside the search is scored as a draw.
            let n = self.path.len();
            let mut i = n.saturating_sub(2);
            while i < n && i + 100 >= n {
                if self.path[i] == hash {
                    return 0;
                }
                if i < 2 {
                    break;
                }
                i -= 2;
            }
            if let Some(s) = self.material_result(pos, ply) {
                return s;
            }
            if let Some(v) = self.egdb.as_ref().and_then(|db| db.probe(pos)) {
                return self.counted_table_score(pos, v, ply);
            }
        }
        if ply >= MAX_PLY - 2 {
            return self.eval.evaluate(pos);
        }
        self.eval.enter(ply, pos);
        let captures = has_capture(pos);
        if depth <= 0 && !captures {
            // At the horizon, a capture the opponent threatens is looked at: one more
            // move for the side to move (its replies at depth -1 only resolve captures).
            let horizon = depth == 0 && ply < MAX_PLY - 8;
            let threatened = horizon && can_capture(pos, !pos.side());
            if !threatened {
                let stand = self.eval.evaluate_at(pos, ply);
                if horizon && stand < beta && stand + EXCHANGE_MARGIN > alpha && pos.kings().is_empty() {
                    return self.exchange_offers(pos, stand, alpha, beta, ply, stop);
                }
                return stand;
            }
        }
        let pv_node = beta - alpha > 1;
        let mut tt_move = None;
        // Capture sequences below the horizon are many and cheap: not worth a
        // (cache-missing) table look-up.
        let use_tt = depth > 0;
        if let Some(e) = if use_tt { self.tt.probe(hash) } else { None } {
            tt_move = e.mv.map(usize::from);
            if ply > 0 && !pv_node && e.depth >= depth {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut list = MoveList::new();
        generate(pos, &mut list);
        if list.is_empty() {
            return -(MATE - ply as i32);
        }
        // Forced moves and captures do not use up depth (captures are searched to
        // the end, so no sequence is cut in half). Below the horizon (depth < 0, the
        // one move looked at because of a threat) nothing extends again: the look
        // ahead happens once on a path, never in a chain.
        let depth = if list.len() == 1 && !captures && depth >= 0 && ply < 60 { depth.max(1) } else { depth };
        let order = self.order(&list, tt_move.filter(|&i| i < list.len()), ply);
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move: Option<usize> = None;
        self.path.push(hash);
        // Moves searched so far (root moves an analysis leaves out do not count).
        let mut tried = 0usize;
        for (i, &k) in order.iter().enumerate() {
            let m = list.as_slice()[usize::from(k)];
            if ply == 0 && self.excluded.contains(&m) {
                continue;
            }
            let child = pos.play(&m);
            self.counts[ply + 1] = self.count_after(&m, ply);
            let quiet = !captures && !m.promote;
            let killer = self.killers[ply.min(MAX_PLY - 1)].contains(&Some(m));
            let mut new_depth = depth - 1;
            if captures && depth <= 0 {
                new_depth = depth;
            }
            let first = tried == 0;
            tried += 1;
            let score = if first {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, stop)
            } else {
                // Late quiet moves are searched less deeply first: from the second
                // move at non-PV nodes (two plies from the fifth), from the fourth at
                // PV nodes; never captures, crownings or killers.
                let r = match (quiet && !killer && depth >= 2, pv_node) {
                    (false, _) => 0,
                    (true, true) => i32::from(tried > 3),
                    (true, false) => 1 + i32::from(tried > 4),
                };
                // A reduced move still reaches the horizon (depth 0), where threats and
                // exchange offers are looked at.
                let reduced = if r > 0 { (new_depth - r).max(0) } else { new_depth };
                let mut s = -self.negamax(&child, reduced, -alpha - 1, -alpha, ply + 1, stop);
                if s > alpha && (r > 0 || s < beta) {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, stop);
                }
                s
            };
            if self.aborted {
                self.path.pop();
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(usize::from(k));
                if score > alpha {
                    alpha = score;
                    if ply == 0 {
                        self.root_best = Some((m, score));
                    }
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply.min(MAX_PLY - 1)];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            // The cut move's history moves towards one, the quiet
                            // moves tried before it towards nothing.
                            let h = &mut self.history[m.from as usize * 128 + m.to as usize];
                            *h += (HISTORY_ONE - *h) >> HISTORY_SHIFT;
                            for &j in &order[..i] {
                                let b = list.as_slice()[usize::from(j)];
                                if !b.promote {
                                    let h = &mut self.history[b.from as usize * 128 + b.to as usize];
                                    *h -= *h >> HISTORY_SHIFT;
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if use_tt {
            self.tt.store(hash, best_move.map(|i| i as u16), to_tt(best, ply), depth, bound);
        }
        best
    }

    /// Quiescence at a quiet horizon without kings: besides standing pat, try the moves
    /// that offer an exchange (after them the opponent must capture).
    fn exchange_offers(
        &mut self,
        pos: &Position<R>,
        stand: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stop: &StopEither<'_>,
    ) -> i32 {
        let mut best = stand;
        alpha = alpha.max(stand);
        let mut list = MoveList::new();
        generate(pos, &mut list);
        self.path.push(pos.hash());
        for m in list.as_slice() {
            let child = pos.play(m);
            if !has_capture(&child) {
                continue;
            }
            self.counts[ply + 1] = self.count_after(m, ply);
            let s = -self.negamax(&child, -1, -beta, -alpha, ply + 1, stop);
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.path.pop();
        best
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > KNOWN_END {
        score + ply as i32
    } else if score < -KNOWN_END {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > KNOWN_END {
        score - ply as i32
    } else if score < -KNOWN_END {
        score + ply as i32
    } else {
        score
    }
}

/// Decides a position for an arbiter (seed 003's kings-only rule): the side that a
/// search of `nodes` nodes finds clearly winning (by more than `margin` hundredths of
/// a man), or `None` for a draw.
pub fn adjudicate<R: Rules>(pos: &Position<R>, nodes: u64, margin: i32) -> Option<Color> {
    let mut s = Searcher::<R>::new(16, EvalKind::default_for::<R>());
    let stop = AtomicBool::new(false);
    let out =
        s.think(pos, &[], Limits { nodes: Some(nodes), depth: Some(64), ..Limits::default() }, &stop, &mut |_| {});
    let score = match out.best {
        None => -MATE,
        // A single legal move: look one move further.
        Some(only) if out.depth == 0 => {
            let next = pos.play(&only);
            let limits = Limits { nodes: Some(nodes), depth: Some(64), ..Limits::default() };
            -s.think(&next, &[], limits, &stop, &mut |_| {}).score
        }
        Some(_) => out.score,
    };
    if score > margin {
        Some(pos.side())
    } else if score < -margin {
        Some(!pos.side())
    } else {
        None
    }
}
