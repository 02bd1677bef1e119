//! Driving the search: iterative deepening with aspiration windows and a time aim that
//! stretches while the best move changes, Lazy SMP helpers over the shared table, and
//! the principal variation read back from the table.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use dama_core::movegen::generate;
use dama_core::{Move, MoveList, Position, Rules, BB};

use super::{is_mate, Info, Limits, Outcome, Searcher, StopEither, INF, MATE, MAX_PLY};

impl<R: Rules> Searcher<R> {
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
    pub(super) fn begin(&mut self, pos: &Position<R>, history: &[u64], limits: Limits) -> MoveList<BB<R>> {
        self.start = Instant::now();
        self.limits = limits;
        self.nodes = 0;
        self.aborted = false;
        self.path.clear();
        self.path.extend_from_slice(history);
        // The game before the root is not known move by move: a repetition may reach
        // back into any of it.
        self.reversible[0] = u32::MAX;
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

    pub(super) fn pv(&self, pos: &Position<R>) -> Vec<Move<BB<R>>> {
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
}
