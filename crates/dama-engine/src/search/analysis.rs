//! Analysis: the best few lines of a position at each depth, and every root move
//! scored at a fixed depth (for the levels that choose among near-best moves).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use dama_core::{Move, Position, Rules, BB};

use super::{is_mate, Analysis, Limits, Line, Searcher, StopEither, INF, MATE, MAX_PLY};

impl<R: Rules> Searcher<R> {
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
        // No limits: the depth bounds it, and `stop` ends it early.
        let root = self.begin(pos, history, Limits::default());
        let mut out = Vec::new();
        for m in root.iter() {
            let child = pos.play(m);
            self.step(pos, m, 0);
            self.path.push(pos.hash());
            let s = -self.negamax(&child, depth as i32 - 1, -INF, INF, 1, &StopEither(stop, stop));
            self.path.pop();
            out.push((*m, s));
        }
        out
    }
}
