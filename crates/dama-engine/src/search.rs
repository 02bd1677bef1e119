//! Search: iterative deepening, principal variation search with aspiration windows,
//! transposition table, killer and history move ordering, forced captures searched to
//! the end (no capture sequence is cut in half), late move reductions, and draws by
//! repetition and by the game's material rules inside the search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use dama_core::game::{material_end, DrawRules};
use dama_core::movegen::{generate, has_capture};
use dama_core::{Bits, Color, Move, MoveList, Position, Rules, BB};

use crate::eval::{evaluate, Tables, Weights};
use crate::tt::{Bound, Tt};

/// Larger than any score.
pub const INF: i32 = 32_000;
/// A win now; a win in n plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
const MAX_PLY: usize = 128;

/// True for scores that announce a forced win or loss.
pub fn is_mate(score: i32) -> bool {
    score.abs() > MATE - MAX_PLY as i32 * 2
}

/// When to stop searching.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Most nodes.
    pub nodes: Option<u64>,
    /// Stop starting iterations after this.
    pub soft_time: Option<Duration>,
    /// Abort at this.
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

/// A search engine for rules `R` with its tables.
pub struct Searcher<R: Rules> {
    tt: Tt<BB<R>>,
    /// Evaluation weights.
    pub weights: Weights,
    tables: Tables<R>,
    /// Draw rules applied inside the search (material draws).
    pub rules: DrawRules,
    history: Vec<i32>,
    killers: [[Option<Move<BB<R>>>; 2]; MAX_PLY],
    path: Vec<u64>,
    nodes: u64,
    start: Instant,
    limits: Limits,
    aborted: bool,
}

impl<R: Rules> Searcher<R> {
    /// A searcher with a transposition table of `tt_mb` megabytes and given weights.
    pub fn new(tt_mb: usize, weights: Weights) -> Self {
        Searcher {
            tt: Tt::new(tt_mb),
            weights,
            tables: Tables::new(),
            rules: DrawRules::official(R::VARIANT),
            history: vec![0; 128 * 128],
            killers: [[None; 2]; MAX_PLY],
            path: Vec::with_capacity(512),
            nodes: 0,
            start: Instant::now(),
            limits: Limits::default(),
            aborted: false,
        }
    }

    /// Forgets what earlier searches learned (for a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers = [[None; 2]; MAX_PLY];
    }

    fn out_of_time(&mut self, stop: &AtomicBool) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes & 1023 == 0 {
            let over_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            let over_time = self.limits.hard_time.is_some_and(|t| self.start.elapsed() >= t);
            if over_nodes || over_time || stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
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
        self.start = Instant::now();
        self.limits = limits;
        self.nodes = 0;
        self.aborted = false;
        self.path.clear();
        self.path.extend_from_slice(history);
        let mut root = MoveList::new();
        generate(pos, &mut root);
        let mut best = Outcome { best: root.as_slice().first().copied(), score: 0, depth: 0, nodes: 0, pv: Vec::new() };
        if root.len() <= 1 {
            // No choice to make: answer at once.
            best.nodes = 1;
            best.pv = best.best.into_iter().collect();
            return best;
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 10).min(MAX_PLY as u32 - 10);
        let mut score = 0;
        for depth in 1..=max_depth {
            let mut window = 40;
            let (mut alpha, mut beta) = if depth >= 4 { (score - window, score + window) } else { (-INF, INF) };
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
                window *= 3;
            };
            if self.aborted && depth > 1 {
                break;
            }
            score = s;
            let pv = self.pv(pos);
            if let Some(first) = pv.first() {
                best = Outcome { best: Some(*first), score, depth, nodes: self.nodes, pv: pv.clone() };
            }
            report(&Info { depth, score, nodes: self.nodes, elapsed: self.start.elapsed(), pv });
            if self.aborted || is_mate(score) && depth as i32 > (MATE - score.abs()) + 2 {
                break;
            }
            if limits.soft_time.is_some_and(|t| self.start.elapsed() >= t) {
                break;
            }
        }
        best.nodes = self.nodes;
        best
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
        for m in root.iter() {
            let child = pos.play(m);
            self.path.push(pos.hash());
            let s = -self.negamax(&child, depth as i32 - 1, -INF, INF, 1, stop);
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
            if !e.has_move || pv.len() >= 64 || seen.contains(&p.hash()) {
                break;
            }
            let mut list = MoveList::new();
            generate(&p, &mut list);
            if !list.as_slice().contains(&e.mv) {
                break;
            }
            seen.push(p.hash());
            pv.push(e.mv);
            p = p.play(&e.mv);
        }
        pv
    }

    fn order(&self, list: &mut MoveList<BB<R>>, tt_move: Option<Move<BB<R>>>, ply: usize) {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let key = |m: &Move<BB<R>>| -> i32 {
            if Some(*m) == tt_move {
                return i32::MAX;
            }
            let mut s = m.captured.count() as i32 * 10_000 + if m.promote { 5_000 } else { 0 };
            if killers[0] == Some(*m) {
                s += 4_000;
            } else if killers[1] == Some(*m) {
                s += 3_000;
            }
            s + self.history[m.from as usize * 128 + m.to as usize].min(2_999)
        };
        // Stable insertion sort, best first, without touching the heap.
        let moves = list.as_mut_slice();
        let mut small = [0i32; 64];
        let mut large = Vec::new();
        let keys: &mut [i32] = if moves.len() <= small.len() {
            &mut small[..moves.len()]
        } else {
            large.resize(moves.len(), 0);
            &mut large
        };
        for (k, m) in keys.iter_mut().zip(moves.iter()) {
            *k = key(m);
        }
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && keys[j - 1] < keys[j] {
                keys.swap(j - 1, j);
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    fn negamax(
        &mut self,
        pos: &Position<R>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stop: &AtomicBool,
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
        }
        if ply >= MAX_PLY - 2 {
            return evaluate(pos, &self.weights, &self.tables);
        }
        let captures = has_capture(pos);
        if depth <= 0 && !captures {
            return evaluate(pos, &self.weights, &self.tables);
        }
        let pv_node = beta - alpha > 1;
        let mut tt_move = None;
        // Capture sequences below the horizon are many and cheap: not worth a
        // (cache-missing) table look-up.
        let use_tt = depth > 0;
        if let Some(e) = if use_tt { self.tt.probe(hash) } else { None } {
            if e.has_move {
                tt_move = Some(e.mv);
            }
            if ply > 0 && !pv_node && e.depth as i32 >= depth {
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
        // the end, so no sequence is cut in half).
        let depth = if list.len() == 1 && ply < 60 { depth.max(1) } else { depth };
        self.order(&mut list, tt_move, ply);
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        self.path.push(hash);
        for (i, m) in list.iter().enumerate() {
            let child = pos.play(m);
            let quiet = !captures && !m.promote;
            let killer = self.killers[ply.min(MAX_PLY - 1)].contains(&Some(*m));
            let mut new_depth = depth - 1;
            if captures && depth <= 0 {
                new_depth = 0;
            }
            let score = if i == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, stop)
            } else {
                // Late quiet moves are searched less deeply first.
                let r = if quiet && !killer && depth >= 3 && i >= 3 { 1 + (i >= 8 && depth >= 6) as i32 } else { 0 };
                let mut s = -self.negamax(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, stop);
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
                best_move = Some(*m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply.min(MAX_PLY - 1)];
                            if k[0] != Some(*m) {
                                k[1] = k[0];
                                k[0] = Some(*m);
                            }
                            let h = &mut self.history[m.from as usize * 128 + m.to as usize];
                            *h += depth * depth;
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
            self.tt.store(hash, best_move, to_tt(best, ply), depth, bound);
        }
        best
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE - 1000 {
        score + ply as i32
    } else if score < -(MATE - 1000) {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE - 1000 {
        score - ply as i32
    } else if score < -(MATE - 1000) {
        score + ply as i32
    } else {
        score
    }
}

/// Decides a position for an arbiter (seed 003's kings-only rule): the side that a
/// search of `nodes` nodes finds clearly winning (by more than `margin` hundredths of
/// a man), or `None` for a draw.
pub fn adjudicate<R: Rules>(pos: &Position<R>, nodes: u64, margin: i32) -> Option<Color> {
    let mut s = Searcher::<R>::new(16, crate::eval::weights(crate::eval::Family::of::<R>()));
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
