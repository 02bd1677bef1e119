//! The exact Dutch order of candidates for small homogeneous brackets (C.04.3 D): once
//! the matching has found the best quality a bracket can reach (every criterion down to
//! C19), the candidates are walked in the rules' order (S2 transpositions, then exchanges
//! between S1 and S2 from the smallest) and the first one of that quality is taken.

use super::order::Order;
use super::player::compatible;
use super::stage::{bracket_values, Ctx};

/// The quality criteria compared (the packed fields 1 to 11: games, scores, colours,
/// floats); the order fields below them are what this walk replaces.
const QUALITY: std::ops::RangeInclusive<usize> = 1..=11;

/// Brackets up to this size are walked.
pub(crate) const MAX_BRACKET: usize = 16;

/// How many S1-S2 assignments are tried before the weighted result is kept.
const BUDGET: usize = 200_000;

type Quality = [i128; 11];

/// One exchange: S1 positions moved down, S2 positions moved up.
struct Exchange {
    down: Vec<usize>,
    up: Vec<usize>,
}

impl Ctx<'_> {
    /// Re-pairs the homogeneous `bracket` in the Dutch order, keeping the quality of the
    /// games `mate` now gives it. Returns the players left to float, or `None` (and leaves
    /// `mate` alone) when the walk is too long or finds nothing better placed.
    pub(crate) fn dutch_order(&self, mate: &mut [usize], bracket: &[usize]) -> Option<Vec<usize>> {
        let ps = self.ps;
        let n = bracket.len();
        let mut pos = vec![usize::MAX; self.total];
        for (i, &v) in bracket.iter().enumerate() {
            pos[v] = i;
        }
        let order = Order::new(n, 0, 0);
        let sc = 2 * self.max_score + 2;
        let quality = |i: usize, j: usize| -> Quality {
            let v = bracket_values(ps, &pos, &order, 0, sc, bracket[i], bracket[j]);
            let mut q = [0; 11];
            q.copy_from_slice(&v[QUALITY]);
            q
        };
        // Only brackets whose players are paired among themselves or not at all.
        if bracket.iter().any(|&u| mate[u] != usize::MAX && pos[mate[u]] == usize::MAX) {
            return None;
        }
        let current: Vec<(usize, usize)> = (0..n)
            .filter_map(|i| {
                let v = mate[bracket[i]];
                (v != usize::MAX && pos.get(v).is_some_and(|&j| j != usize::MAX && i < j)).then(|| (i, pos[v]))
            })
            .collect();
        let p = current.len();
        if p == 0 {
            return None;
        }
        let target = current.iter().fold([0; 11], |acc, &(i, j)| add(acc, quality(i, j)));
        let compat: Vec<Vec<bool>> =
            (0..n).map(|i| (0..n).map(|j| i != j && compatible(&ps[bracket[i]], &ps[bracket[j]])).collect()).collect();
        let mut budget = BUDGET;
        for ex in exchanges(p, n) {
            let mut s1: Vec<usize> = (0..p).filter(|i| !ex.down.contains(i)).chain(ex.up.iter().copied()).collect();
            let mut s2: Vec<usize> = (p..n).filter(|i| !ex.up.contains(i)).chain(ex.down.iter().copied()).collect();
            s1.sort_unstable();
            s2.sort_unstable();
            let mut walk = Walk {
                s1: &s1,
                s2: &s2,
                compat: &compat,
                quality: &quality,
                target,
                used: vec![false; s2.len()],
                chosen: Vec::with_capacity(p),
                budget: &mut budget,
            };
            let found = walk.next(0, [0; 11], &mut |pairs: &[(usize, usize)]| {
                let mut trial = mate.to_vec();
                for &(i, j) in &current {
                    trial[bracket[i]] = usize::MAX;
                    trial[bracket[j]] = usize::MAX;
                }
                for &(i, j) in pairs {
                    trial[bracket[i]] = bracket[j];
                    trial[bracket[j]] = bracket[i];
                }
                self.completable(&trial).then_some(trial)
            });
            if let Some(trial) = found {
                mate.copy_from_slice(&trial);
                return Some(bracket.iter().copied().filter(|&u| mate[u] == usize::MAX).collect());
            }
            if budget == 0 {
                return None;
            }
        }
        None
    }
}

fn add(a: Quality, b: Quality) -> Quality {
    let mut out = a;
    for (o, x) in out.iter_mut().zip(b) {
        *o += x;
    }
    out
}

/// Exchanges for S1 = `0..p`, S2 = `p..n`, in the rules' order: fewer players exchanged
/// first; then the smallest difference between the sums of the pairing numbers moved up
/// and moved down; then the highest pairing numbers moved down; then the lowest moved up.
fn exchanges(p: usize, n: usize) -> Vec<Exchange> {
    let mut out = vec![Exchange { down: Vec::new(), up: Vec::new() }];
    let s1: Vec<usize> = (0..p).collect();
    let s2: Vec<usize> = (p..n).collect();
    for size in 1..=p.min(n - p) {
        let mut level = Vec::new();
        for down in subsets(&s1, size) {
            for up in subsets(&s2, size) {
                level.push(Exchange { down: down.clone(), up });
            }
        }
        level.sort_by(|a, b| {
            let diff = |e: &Exchange| e.up.iter().sum::<usize>() - e.down.iter().sum::<usize>();
            let desc = |e: &Exchange| {
                let mut d = e.down.clone();
                d.sort_unstable_by(|x, y| y.cmp(x));
                d
            };
            diff(a).cmp(&diff(b)).then(desc(b).cmp(&desc(a))).then(a.up.cmp(&b.up))
        });
        out.extend(level);
        if out.len() > 50_000 {
            break;
        }
    }
    out
}

fn subsets(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &x) in items.iter().enumerate() {
        for mut rest in subsets(&items[i + 1..], k - 1) {
            rest.insert(0, x);
            out.push(rest);
        }
    }
    out
}

/// A depth-first walk over the S2 orders for one S1/S2 split, S2 transpositions in
/// lexicographic order.
struct Walk<'a, Q: Fn(usize, usize) -> Quality> {
    s1: &'a [usize],
    s2: &'a [usize],
    compat: &'a [Vec<bool>],
    quality: &'a Q,
    target: Quality,
    used: Vec<bool>,
    chosen: Vec<(usize, usize)>,
    budget: &'a mut usize,
}

impl<Q: Fn(usize, usize) -> Quality> Walk<'_, Q> {
    fn next<T>(
        &mut self,
        k: usize,
        sum: Quality,
        accept: &mut impl FnMut(&[(usize, usize)]) -> Option<T>,
    ) -> Option<T> {
        if *self.budget == 0 {
            return None;
        }
        *self.budget -= 1;
        if k == self.s1.len() {
            return if sum == self.target { accept(&self.chosen) } else { None };
        }
        let a = self.s1[k];
        for (slot, &b) in self.s2.iter().enumerate() {
            if self.used[slot] || !self.compat[a][b] {
                continue;
            }
            self.used[slot] = true;
            self.chosen.push((a.min(b), a.max(b)));
            let found = self.next(k + 1, add(sum, (self.quality)(a.min(b), a.max(b))), accept);
            self.chosen.pop();
            self.used[slot] = false;
            if found.is_some() {
                return found;
            }
        }
        None
    }
}
