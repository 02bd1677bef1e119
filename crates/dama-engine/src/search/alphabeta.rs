//! The alpha-beta core: principal variation search with the transposition table, draws
//! by repetition and by material, endgame table probes, forced captures searched to
//! the end, the look one move further at a threatened horizon, ProbCut, late move
//! reductions, and the quiescence of exchange offers at a quiet horizon without kings.

use dama_core::game::{lone_king_count, material_end};
use dama_core::movegen::{can_capture, generate, has_capture};
use dama_core::{Bits, Move, MoveList, Position, Rules, BB};

use super::ordering::Order;
use super::score::{drawn_score, from_tt, table_score, to_tt, KNOWN_END};
use super::{Searcher, StopEither, INF, MATE, MAX_PLY};
use crate::egdb::value::Value;
use crate::tt::Bound;

/// At a quiet horizon without kings, exchange offers are tried unless the static
/// evaluation is this far (hundredths of a man) below alpha.
const EXCHANGE_MARGIN: i32 = 50;

/// ProbCut (Scan's scheme): off the principal line, a node at least this deep is first
/// searched at [`PROBCUT_DEPTH_PERCENT`] of its depth against beta raised by
/// [`PROBCUT_MARGIN`] a ply; when even that clears the raised bound, the node is cut.
const PROBCUT_MIN_DEPTH: i32 = 3;
/// The shallow search's depth, in percent of the node's.
const PROBCUT_DEPTH_PERCENT: i32 = 40;
/// The bound's margin, in hundredths of a man for each ply of the node's depth.
const PROBCUT_MARGIN: i32 = 5;

impl<R: Rules> Searcher<R> {
    /// Plies since the material changed after `m` is played at `ply`.
    pub(super) fn count_after(&self, m: &Move<BB<R>>, ply: usize) -> u32 {
        if m.is_capture() || m.promote {
            0
        } else {
            self.counts[ply] + 1
        }
    }

    /// Sets the counts of ply `ply + 1`, reached by `m` from `pos`: plies since the
    /// material changed, and plies since the last move no later position can undo
    /// ([`Position::is_irreversible`], the rule the game's own repetition count uses),
    /// which bounds how far back a repetition can be.
    pub(super) fn step(&mut self, pos: &Position<R>, m: &Move<BB<R>>, ply: usize) {
        self.counts[ply + 1] = self.count_after(m, ply);
        self.reversible[ply + 1] = if pos.is_irreversible(m) { 0 } else { self.reversible[ply].saturating_add(1) };
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

    /// The score of `pos` searched `depth` plies deep (captures and forced moves do not
    /// count) within `alpha` and `beta`, `ply` plies from the root.
    pub(super) fn negamax(
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
            // A repetition inside the search is scored as a draw: looked for only as
            // far back as king moves without a capture lead (no earlier position can
            // come again).
            let n = self.path.len();
            let back = (self.reversible[ply] as usize).min(100);
            let mut i = n.saturating_sub(2);
            while i < n && i + back >= n {
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
        if let Some(s) = self.probcut(pos, depth, beta, ply, pv_node, stop) {
            return s;
        }
        // A forced move (the only legal one, a capture or not) does not use up depth:
        // the node is searched a ply deeper, as Scan does (an SPRT measured +22 over
        // keeping the depth, docs/engine.md). Captures below the horizon keep their
        // depth (searched to the end, so no sequence is cut in half). Below the
        // horizon (depth < 0, the one move looked at because of a threat) nothing
        // extends again: the look ahead happens once on a path, never in a chain.
        let depth = if list.len() == 1 && depth >= 0 && ply < 60 { depth + 1 } else { depth };
        // The table's move is searched before the others are scored and sorted: when
        // it makes the cut, the ordering's work is saved.
        let tt_move = tt_move.filter(|&i| i < list.len());
        let mut order = Order::new();
        match tt_move {
            Some(t) => order.push(t as u16),
            None => self.order(&list, None, ply, &mut order),
        }
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move: Option<usize> = None;
        self.path.push(hash);
        // Moves searched so far (root moves an analysis leaves out do not count).
        let mut tried = 0usize;
        let mut i = 0;
        loop {
            if i == order.len() {
                if order.len() == list.len() {
                    break;
                }
                // The table's move alone did not cut: all moves in order, the table's
                // move still first (searched already, so `i` passes it).
                self.order(&list, tt_move, ply, &mut order);
            }
            let k = order[i];
            i += 1;
            let m = list.as_slice()[usize::from(k)];
            if ply == 0 && self.excluded.contains(&m) {
                continue;
            }
            let child = pos.play(&m);
            self.step(pos, &m, ply);
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
                            self.note_cut(m, &order[..i - 1], &list, ply);
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

    /// ProbCut at a node off the principal line: the score to return when a shallow
    /// search clears beta by the margin (the node is cut), `None` to search it fully.
    fn probcut(
        &mut self,
        pos: &Position<R>,
        depth: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        stop: &StopEither<'_>,
    ) -> Option<i32> {
        if pv_node || ply == 0 || depth < PROBCUT_MIN_DEPTH || self.in_probcut || beta.abs() >= KNOWN_END {
            return None;
        }
        let margin = PROBCUT_MARGIN * depth;
        let bound = beta + margin;
        // Set only for the shallow search, and cleared as it returns (aborted or not).
        self.in_probcut = true;
        let s = self.negamax(pos, depth * PROBCUT_DEPTH_PERCENT / 100, bound - 1, bound, ply, stop);
        self.in_probcut = false;
        (s >= bound && !self.aborted).then_some(s - margin)
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
            self.step(pos, m, ply);
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
}

#[cfg(test)]
mod tests {
    use dama_core::fen::parse_fen;
    use dama_core::geometry::Geometry;
    use dama_core::variant::{Russian, Turkish};

    use super::*;
    use crate::eval::EvalKind;

    #[test]
    fn only_king_moves_without_a_capture_keep_a_repetition_possible() {
        // Men never step back on a diagonal board: after a man's move or a capture no
        // earlier position can come again, so the repetition scan stops there.
        let mut s = Searcher::<Russian>::new(1, EvalKind::Material);
        s.reversible[0] = 5;
        let pos = parse_fen::<Russian>("W:WKa1,c3:BKh8,f6").unwrap();
        let mut list = MoveList::new();
        generate(&pos, &mut list);
        let (kings, men): (Vec<_>, Vec<_>) = list.iter().partition(|m| pos.kings().has(u32::from(m.from)));
        assert!(!kings.is_empty() && !men.is_empty());
        for m in kings {
            s.step(&pos, m, 0);
            assert_eq!(s.reversible[1], 6);
        }
        for m in men {
            s.step(&pos, m, 0);
            assert_eq!(s.reversible[1], 0);
        }
        let capture = parse_fen::<Russian>("W:WKa1:BKh8,c3").unwrap();
        list = MoveList::new();
        generate(&capture, &mut list);
        assert!(list.iter().all(|m| m.is_capture()));
        s.step(&capture, &list.as_slice()[0], 0);
        assert_eq!(s.reversible[1], 0);
        // A Turkish man's step to the side can be undone; its step forward cannot.
        let mut t = Searcher::<Turkish>::new(1, EvalKind::Material);
        t.reversible[0] = 5;
        let open = parse_fen::<Turkish>("W:Wd4:BKh8").unwrap();
        list = MoveList::new();
        generate(&open, &mut list);
        assert_eq!(list.len(), 3, "d4 goes to c4, e4 and d5");
        let rows = &<Turkish as Rules>::G::LAYOUT.row_of_bit;
        for m in list.iter() {
            t.step(&open, m, 0);
            let sideways = rows[m.from as usize] == rows[m.to as usize];
            assert_eq!(t.reversible[1], if sideways { 6 } else { 0 });
        }
    }
}
