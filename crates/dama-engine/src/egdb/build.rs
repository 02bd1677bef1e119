//! Building a table by retrograde analysis, and checking one against its successors.
//!
//! Every position of a slice is classified once with the real move generator (so
//! every rule of the variant holds: capture precedence, promotion mid-capture,
//! Turkish removal, the rulebook's material ends). Moves that leave the slice (captures
//! and crownings) look up finished tables; the quiet moves that stay inside are
//! walked backwards from each resolved position, in order of distance, so the table
//! holds the exact number of plies to the end with best play on both sides.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use dama_core::game::{material_end, DrawRules};
use dama_core::geometry::{step, OPPOSITE};
use dama_core::movegen::{generate, has_capture, king_move_dirs, man_move_dirs};
use dama_core::variant::KingRange;
use dama_core::{Bits, MoveList, Position, Rules, BB};

use super::index::{Indexer, Material, Pieces};
use super::value::{Value, DRAW};

/// Distances are counted exactly below this many plies (longer ones keep their parity).
const MAX_DIST: usize = 2046;

/// A distance within the buckets, keeping whose win it is (its parity).
fn clamp(d: usize) -> usize {
    if d < MAX_DIST {
        d
    } else {
        MAX_DIST + d % 2
    }
}

/// What a slice's positions lead to outside it, found in the first pass.
struct Classified {
    /// Quiet moves that stay in the slice (0 for fixed positions).
    inside: Vec<u8>,
    /// 1 + the longest outside win of the opponent; `u16::MAX` when the position cannot be
    /// lost (an outside move draws or wins, or a rule fixes the result).
    lose_after: Vec<u16>,
    /// Positions whose value is known from outside: (index, value).
    known: Vec<(u32, Value)>,
}

/// Finished tables of smaller material, decompressed, by material key.
pub type Finished = HashMap<u32, Vec<u8>>;

/// Builds tables for rules `R` under the variant's official ending rules.
pub struct Builder<'a, R: Rules> {
    ix: Indexer<R>,
    rules: DrawRules,
    done: &'a Finished,
}

impl<'a, R: Rules> Builder<'a, R> {
    /// A builder that looks up smaller material in `done`.
    pub fn new(done: &'a Finished) -> Self {
        Builder { ix: Indexer::new(), rules: DrawRules::official(R::VARIANT), done }
    }

    /// The value of a position of another slice (already finished).
    fn outside(&self, pos: &Position<R>) -> Value {
        let m = Material::of(pos);
        if m.side(pos.side()) == 0 {
            return Value::loss(0);
        }
        let (stored, i) = self.ix.locate(&Indexer::of(pos));
        Value(self.done[&stored.key()][i as usize])
    }

    /// The value fixed by a material rule of the rulebook, if any.
    fn ruled(&self, pos: &Position<R>) -> Option<Value> {
        material_end(&self.rules, pos).map(|r| match r.winner {
            None => DRAW,
            Some(c) if c == pos.side() => Value::win(1),
            Some(_) => Value::loss(0),
        })
    }

    /// First pass over indices `from..to`.
    fn classify(&self, m: Material, from: u64, inside: &mut [u8], lose_after: &mut [u16]) -> Vec<(u32, Value)> {
        let mut known = Vec::new();
        let mut list = MoveList::new();
        for (k, i) in (from..from + inside.len() as u64).enumerate() {
            inside[k] = 0;
            lose_after[k] = u16::MAX;
            let Some(pos) = self.ix.position(m, i) else { continue };
            if let Some(v) = self.ruled(&pos) {
                if v != DRAW {
                    known.push((i as u32, v));
                }
                continue;
            }
            list.clear();
            generate(&pos, &mut list);
            if list.is_empty() {
                known.push((i as u32, Value::loss(0)));
                continue;
            }
            let (mut n, mut best_win, mut longest, mut can_lose) = (0u8, usize::MAX, 0usize, true);
            for mv in list.iter() {
                let child = pos.play(mv);
                if !mv.is_capture() && !mv.promote {
                    n += 1;
                    continue;
                }
                match self.outside(&child).plies() {
                    None => can_lose = false,
                    // The opponent loses after this move.
                    Some((true, d)) => {
                        best_win = best_win.min(d + 1);
                        can_lose = false;
                    }
                    Some((false, d)) => longest = longest.max(d + 1),
                }
            }
            inside[k] = n;
            if best_win != usize::MAX {
                known.push((i as u32, Value::win(best_win)));
            } else if can_lose {
                lose_after[k] = clamp(longest) as u16;
                if n == 0 {
                    known.push((i as u32, Value::loss(longest)));
                }
            }
        }
        known
    }

    fn classify_all(&self, m: Material, threads: usize) -> Classified {
        let size = self.ix.size(m) as usize;
        let mut inside = vec![0u8; size];
        let mut lose_after = vec![u16::MAX; size];
        let chunk = size.div_ceil(threads.max(1) * 8).max(1);
        let mut known = Vec::new();
        std::thread::scope(|sc| {
            let mut jobs: Vec<_> = inside.chunks_mut(chunk).zip(lose_after.chunks_mut(chunk)).enumerate().collect();
            let per = jobs.len().div_ceil(threads.max(1));
            let mut handles = Vec::new();
            while !jobs.is_empty() {
                let mine: Vec<_> = jobs.drain(..per.min(jobs.len())).collect();
                handles.push(sc.spawn(move || {
                    let mut k = Vec::new();
                    for (j, (a, b)) in mine {
                        k.extend(self.classify(m, (j * chunk) as u64, a, b));
                    }
                    k
                }));
            }
            for h in handles {
                known.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            }
        });
        Classified { inside, lose_after, known }
    }

    /// Positions of the slice from which the side that moved last reached `p` by a
    /// legal quiet move.
    fn predecessors(&self, p: &Pieces<BB<R>>, out: &mut Vec<Pieces<BB<R>>>) {
        out.clear();
        let o = !p.side;
        let occupied = p.men[0] | p.men[1] | p.kings[0] | p.kings[1];
        let crown = Position::<R>::crowning_row(o);
        let mut push = |q: Pieces<BB<R>>| {
            if let Ok(pos) = Position::<R>::from_bits(q.men, q.kings, q.side) {
                if !has_capture(&pos) {
                    out.push(q);
                }
            }
        };
        for t in p.kings[o.index()].iter() {
            let tb = BB::<R>::bit(t);
            for &d in king_move_dirs::<R>() {
                let mut f = step::<R::G>(tb, d);
                while f.any() && (f & occupied).is_empty() {
                    let mut q = Pieces { side: o, ..*p };
                    q.kings[o.index()] = (q.kings[o.index()] & !tb) | f;
                    push(q);
                    if R::KING == KingRange::Short {
                        break;
                    }
                    f = step::<R::G>(f, d);
                }
            }
        }
        for t in p.men[o.index()].iter() {
            let tb = BB::<R>::bit(t);
            for &d in man_move_dirs::<R>(o) {
                let f = step::<R::G>(tb, OPPOSITE[d]);
                if f.any() && (f & (occupied | crown)).is_empty() {
                    let mut q = Pieces { side: o, ..*p };
                    q.men[o.index()] = (q.men[o.index()] & !tb) | f;
                    push(q);
                }
            }
        }
    }

    /// The indices of the predecessors (see [`Builder::predecessors`]) of each
    /// position of `block`, with `threads` threads, one entry per backward move.
    fn predecessor_indices(&self, m: Material, block: &[u32], threads: usize) -> Vec<u32> {
        let part = |part: &[u32]| {
            let (mut preds, mut out) = (Vec::new(), Vec::with_capacity(part.len() * 8));
            for &i in part {
                let Some(p) = self.ix.pieces(m, u64::from(i)) else { continue };
                self.predecessors(&p, &mut preds);
                out.extend(preds.iter().map(|q| self.ix.index(m, q) as u32));
            }
            out
        };
        if threads <= 1 || block.len() < 4096 {
            return part(block);
        }
        std::thread::scope(|sc| {
            let handles: Vec<_> =
                block.chunks(block.len().div_ceil(threads)).map(|c| sc.spawn(move || part(c))).collect();
            handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
        })
    }

    /// Builds the table of material `m` (all smaller material and every material
    /// its crownings lead to must be finished), with `threads` threads.
    pub fn build(&self, m: Material, threads: usize) -> Vec<u8> {
        let Classified { mut inside, lose_after, known } = self.classify_all(m, threads);
        let size = inside.len();
        // Plies + 1 per resolved position (0: not resolved).
        let mut dist = vec![0u16; size];
        let mut win = vec![false; size];
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); MAX_DIST + 2];
        for (i, v) in known {
            if let Some((_, d)) = v.plies() {
                buckets[clamp(d)].push(i);
            }
        }
        for d in 0..buckets.len() {
            // Every position of a bucket is resolved at this distance (whose win it
            // is follows from the parity), then its predecessors are found in
            // parallel, block by block, and applied in turn.
            let mut fresh = std::mem::take(&mut buckets[d]);
            fresh.retain(|&i| {
                let i = i as usize;
                let new = dist[i] == 0;
                if new {
                    dist[i] = d as u16 + 1;
                    win[i] = d % 2 == 1;
                }
                new
            });
            for block in fresh.chunks(1 << 20) {
                for qi in self.predecessor_indices(m, block, threads) {
                    let qi = qi as usize;
                    if dist[qi] != 0 || inside[qi] == 0 {
                        continue;
                    }
                    if d % 2 == 0 {
                        // A loss at d: its predecessors win at d + 1.
                        buckets[clamp(d + 1)].push(qi as u32);
                    } else {
                        inside[qi] -= 1;
                        if inside[qi] == 0 && lose_after[qi] != u16::MAX {
                            let at = (d + 1).max(lose_after[qi] as usize);
                            buckets[clamp(at)].push(qi as u32);
                        }
                    }
                }
            }
        }
        let mut out = vec![0u8; size];
        let mut last = 0u8;
        for i in 0..size {
            out[i] = match dist[i] {
                0 if self.ix.pieces(m, i as u64).is_none() => last,
                0 => DRAW.0,
                n => Value::from_plies(win[i], n as usize - 1).0,
            };
            last = out[i];
        }
        out
    }

    /// Checks every position of table `t` of material `m` against its successors
    /// (`t` itself for moves inside the slice), with `threads` threads: the number of
    /// positions checked, or the first wrong index.
    pub fn verify(&self, m: Material, t: &[u8], threads: usize) -> Result<u64, (u64, String)> {
        let len = t.len() as u64;
        let chunk = len.div_ceil(threads.max(1) as u64 * 8).max(1);
        // Chunks are handed out in order and a thread stops at its first wrong value,
        // so the lowest wrong index found is the first of the table.
        let next = AtomicU64::new(0);
        let wrong = AtomicBool::new(false);
        let results: Vec<Result<u64, (u64, String)>> = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..threads.max(1))
                .map(|_| {
                    sc.spawn(|| {
                        let mut checked = 0;
                        loop {
                            let from = next.fetch_add(chunk, Ordering::Relaxed);
                            if from >= len || wrong.load(Ordering::Relaxed) {
                                return Ok(checked);
                            }
                            let r = self.verify_range(m, t, from..(from + chunk).min(len));
                            wrong.fetch_or(r.is_err(), Ordering::Relaxed);
                            checked += r?;
                        }
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
        });
        let mut checked = 0;
        let mut first_wrong: Option<(u64, String)> = None;
        for r in results {
            match r {
                Ok(n) => checked += n,
                Err(e) => {
                    if first_wrong.as_ref().is_none_or(|(i, _)| e.0 < *i) {
                        first_wrong = Some(e);
                    }
                }
            }
        }
        first_wrong.map_or(Ok(checked), Err)
    }

    /// [`Builder::verify`] over the indices `range`.
    fn verify_range(&self, m: Material, t: &[u8], range: std::ops::Range<u64>) -> Result<u64, (u64, String)> {
        let mut list = MoveList::new();
        let mut checked = 0;
        for i in range {
            let Some(pos) = self.ix.position(m, i) else { continue };
            checked += 1;
            let v = Value(t[i as usize]);
            let expect = if let Some(r) = self.ruled(&pos) {
                r
            } else {
                list.clear();
                generate(&pos, &mut list);
                let children = list.iter().map(|mv| {
                    let c = pos.play(mv);
                    if Material::of(&c) == m {
                        Value(t[self.ix.index(m, &Indexer::of(&c)) as usize])
                    } else {
                        self.outside(&c)
                    }
                });
                Value::best_of(children)
            };
            if !v.agrees(expect) {
                return Err((i, format!("stored {v}, its successors give {expect}")));
            }
        }
        Ok(checked)
    }
}
