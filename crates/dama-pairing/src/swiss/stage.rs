//! One stage of the Swiss pairing: a bracket (or its MDP pass) paired by a maximum-weight
//! matching, on its own when that is safe, else over every player still unpaired.

use super::colour;
use super::order::Order;
use super::player::{compatible, Float, Player};
use super::weight::{Packer, Values, FIELDS, LIMIT};
use super::{dutch_order, NARROW};
use crate::matching::max_weight_matching;
use crate::weight::Wide;

/// What every stage of one round shares.
pub(super) struct Ctx<'a> {
    pub(super) ps: &'a [Player],
    /// Players plus the bye vertex, if any.
    pub(super) total: usize,
    /// Position in the ranking order.
    pub(super) rank: Vec<usize>,
    pub(super) max_score: i128,
}

impl Ctx<'_> {
    /// Pairs one stage (see [`Ctx::stage_weighted`]); a small homogeneous bracket is then
    /// re-paired in the exact Dutch order of candidates, at the same quality.
    pub(super) fn stage(
        &self,
        mate: &mut [usize],
        bracket: &[usize],
        following: &[usize],
        mdps: usize,
        last: bool,
    ) -> Option<Vec<usize>> {
        let left = self.stage_weighted(mate, bracket, following, mdps, last)?;
        // The last bracket too, unless it holds the bye (the walk knows no bye vertex).
        let no_bye = self.total == self.ps.len();
        if mdps == 0 && (!last || no_bye) && bracket.len() <= dutch_order::MAX_BRACKET {
            if let Some(left) = self.dutch_order(mate, bracket) {
                return Some(left);
            }
        }
        Some(left)
    }

    /// One maximum-weight matching over every unpaired player, favouring the games of
    /// `bracket` (its first `mdps` players floated in). With MDPs, only their games are
    /// kept; otherwise every game inside the bracket is, and with `last` every game at
    /// all. Returns the bracket players left to float down (in the MDP pass: the MDPs not
    /// paired), or `None` when no perfect matching exists.
    fn stage_weighted(
        &self,
        mate: &mut [usize],
        bracket: &[usize],
        following: &[usize],
        mdps: usize,
        last: bool,
    ) -> Option<Vec<usize>> {
        let (ps, total, bye) = (self.ps, self.total, self.ps.len());
        let remaining: Vec<usize> = (0..total).filter(|&v| mate[v] == usize::MAX).collect();
        if remaining.is_empty() {
            return Some(Vec::new());
        }
        let mut local = vec![usize::MAX; total];
        for (i, &v) in remaining.iter().enumerate() {
            local[v] = i;
        }
        let mut pos = vec![usize::MAX; total];
        for (i, &v) in bracket.iter().enumerate() {
            pos[v] = i;
        }
        let all = total as i128 / 2 + 1;
        let inside = bracket.len() as i128 / 2 + 1;
        let n2 = 2 * bracket.len() as i128;
        let sc = 2 * self.max_score + 2;
        let mut caps: Values = [1, 1, sc, 1, 1, 1, 2, 1, 2, 1, 2 * sc, 2 * sc, 1, 0, n2, total as i128];
        let mut reach = [inside; FIELDS];
        reach[0] = all;
        reach[3] = all;
        reach[FIELDS - 1] = 1;
        // Bracket players and the next group's unpaired ones: their games with each other
        // outside the bracket count for C7.
        let mut near = vec![false; total];
        for &v in bracket.iter().chain(following) {
            near[v] = mate[v] == usize::MAX;
        }
        // The order takes the bits left: within 120 bits in all when that leaves it at
        // least 24 (the matching then runs on i128, about twice as fast), else within the
        // wide weight, but at most 100 bits (one criterion value is an i128).
        let wide_room = Packer::room(&caps, &reach).saturating_sub(bits(inside) + 1);
        let narrow_room = wide_room.saturating_sub(LIMIT - NARROW);
        let room = if narrow_room >= 24 { narrow_room } else { wide_room.min(100) };
        let order = Order::new(bracket.len(), mdps, room);
        caps[13] = order.cap();
        let packer = Packer::new(&caps, &reach)?;
        if !last {
            // Most brackets pair well on their own: a matching on the bracket alone, kept
            // when the players left over can still all be paired (C4).
            if let Some(left) = self.bracket_only(mate, bracket, &near, mdps, &pos, &order, &packer, sc) {
                return Some(left);
            }
        }
        let mut edges = Vec::new();
        for (x, &u) in remaining.iter().enumerate() {
            for &v in &remaining[x + 1..] {
                let values = if v == bye {
                    if !ps[u].can_bye {
                        continue;
                    }
                    let mut val = [0; FIELDS];
                    val[0] = 1;
                    val[15] = self.rank[u] as i128;
                    val
                } else {
                    if !compatible(&ps[u], &ps[v]) {
                        continue;
                    }
                    next_values(bracket_values(ps, &pos, &order, mdps, sc, u, v), &near, u, v)
                };
                edges.push((local[u], local[v], packer.pack(&values)));
            }
        }
        let m = solve(remaining.len(), &edges, packer.bits);
        if m.iter().any(|x| x.is_none()) {
            return None;
        }
        let partner = |v: usize| remaining[m[local[v]].expect("perfect")];
        let mut left = Vec::new();
        for (i, &u) in bracket.iter().enumerate() {
            let v = partner(u);
            let keep = if mdps > 0 {
                pos[v] != usize::MAX && (i < mdps || pos[v] < mdps)
            } else {
                last || pos[v] != usize::MAX
            };
            if keep {
                mate[u] = v;
                mate[v] = u;
            } else if mdps == 0 || i < mdps {
                left.push(u);
            }
        }
        if last {
            for &v in &remaining {
                mate[v] = partner(v);
            }
        }
        Some(left)
    }

    /// The stage with a matching over the bracket alone; `None` if what it keeps would
    /// leave the other players unpairable (then the full stage decides).
    #[allow(clippy::too_many_arguments)]
    fn bracket_only(
        &self,
        mate: &mut [usize],
        bracket: &[usize],
        near: &[bool],
        mdps: usize,
        pos: &[usize],
        order: &Order,
        packer: &Packer,
        sc: i128,
    ) -> Option<Vec<usize>> {
        let ps = self.ps;
        // The bracket first, then the next group's unpaired players (for C7).
        let verts: Vec<usize> =
            bracket.iter().copied().chain((0..ps.len()).filter(|&v| near[v] && pos[v] == usize::MAX)).collect();
        let mut edges = Vec::new();
        for (i, &u) in verts.iter().enumerate() {
            for (j, &v) in verts.iter().enumerate().skip(i + 1) {
                if compatible(&ps[u], &ps[v]) {
                    let values = next_values(bracket_values(ps, pos, order, mdps, sc, u, v), near, u, v);
                    edges.push((i, j, packer.pack(&values)));
                }
            }
        }
        let m = solve(verts.len(), &edges, packer.bits);
        let m: Vec<Option<usize>> = (0..bracket.len()).map(|i| m[i].filter(|&j| j < bracket.len())).collect();
        // The bracket's best games are the full stage's too when, with all of them played,
        // everyone else can still be paired (then the completion costs this bracket nothing).
        let mut all = mate.to_vec();
        for (i, &u) in bracket.iter().enumerate() {
            if let Some(j) = m[i] {
                all[u] = bracket[j];
            }
        }
        if !self.completable(&all) {
            return None;
        }
        let mut left = Vec::new();
        for (i, &u) in bracket.iter().enumerate() {
            match m[i] {
                Some(j) if mdps == 0 || i < mdps || j < mdps => {
                    mate[u] = bracket[j];
                    mate[bracket[j]] = u;
                }
                _ if mdps == 0 || i < mdps => left.push(u),
                _ => {}
            }
        }
        Some(left)
    }

    /// Whether the players not yet paired (and the bye, if any) can all be paired.
    pub(super) fn completable(&self, mate: &[usize]) -> bool {
        let (ps, bye) = (self.ps, self.ps.len());
        let mut free: Vec<usize> = (0..self.total).filter(|&v| mate[v] == usize::MAX).collect();
        let can = |u: usize, v: usize| {
            if u == bye || v == bye {
                ps[u.min(v)].can_bye
            } else {
                compatible(&ps[u], &ps[v])
            }
        };
        // Greedy first, from the bottom of the ranking (where the bye goes).
        free.sort_by_key(|&v| std::cmp::Reverse(if v == bye { usize::MAX } else { self.rank[v] }));
        let mut taken = vec![false; free.len()];
        let mut greedy = true;
        for i in 0..free.len() {
            if taken[i] {
                continue;
            }
            match (i + 1..free.len()).find(|&j| !taken[j] && can(free[i], free[j])) {
                Some(j) => {
                    taken[i] = true;
                    taken[j] = true;
                }
                None => {
                    greedy = false;
                    break;
                }
            }
        }
        if greedy {
            return true;
        }
        let mut edges = Vec::new();
        for i in 0..free.len() {
            for j in i + 1..free.len() {
                if can(free[i], free[j]) {
                    edges.push((i, j, 1i128));
                }
            }
        }
        max_weight_matching(free.len(), &edges).iter().all(|m| m.is_some())
    }
}

/// The matching on `i128` weights when they fit, else on the wide ones.
fn solve(n: usize, edges: &[(usize, usize, Wide)], bits: u32) -> Vec<Option<usize>> {
    if bits <= NARROW {
        let narrow: Vec<(usize, usize, i128)> =
            edges.iter().map(|&(u, v, w)| (u, v, w.to_i128().expect("fits"))).collect();
        max_weight_matching(n, &narrow)
    } else {
        max_weight_matching(n, edges)
    }
}

/// Adds C7 to a game's values: a game outside the bracket between bracket players and the
/// next group's (a floater paired there, or two of the next group) counts.
fn next_values(mut val: Values, near: &[bool], u: usize, v: usize) -> Values {
    if val[1] == 0 && near[u] && near[v] {
        val[3] = 1;
    }
    val
}

/// C16 to C19 for one game with score difference `d`: a player floating down again is
/// better paired here with a small difference than floated further (where it would be
/// larger); a player floating up again, better with a small difference.
fn repeated(down: bool, up: bool, d: i128, max_diff: i128) -> i128 {
    (if down { max_diff - d } else { 0 }) + max_diff - if up { d } else { 0 }
}

fn bits(x: i128) -> u32 {
    128 - x.max(0).leading_zeros()
}

/// The criterion values of a game between `u` and `v` (see the module doc).
pub(super) fn bracket_values(
    ps: &[Player],
    pos: &[usize],
    order: &Order,
    mdps: usize,
    max_diff: i128,
    u: usize,
    v: usize,
) -> Values {
    let mut val = [0; FIELDS];
    val[0] = 1;
    let (pu, pv) = (pos[u], pos[v]);
    if pu == usize::MAX || pv == usize::MAX {
        return val;
    }
    let (a, b) = (pu.min(pv), pu.max(pv));
    let (hi, lo) = if pu < pv { (u, v) } else { (v, u) };
    let (p, q) = (&ps[hi], &ps[lo]);
    val[1] = 1;
    val[2] = (p.score + q.score) as i128;
    val[4] = colour::both_satisfied(p, q) as i128;
    val[5] = colour::strong_satisfied(p, q) as i128;
    val[6] = [(a, p), (b, q)].iter().filter(|(i, x)| *i >= mdps && x.float_last == Float::Down).count() as i128;
    val[7] = !(p.score > q.score && q.float_last == Float::Up) as i128;
    val[8] = [(a, p), (b, q)].iter().filter(|(i, x)| *i >= mdps && x.float_before == Float::Down).count() as i128;
    val[9] = !(p.score > q.score && q.float_before == Float::Up) as i128;
    // C16, C17: the score differences of floats repeated from the previous round.
    let d = (p.score - q.score) as i128;
    let repeat_down = d > 0 && p.float_last == Float::Down;
    let repeat_up = d > 0 && q.float_last == Float::Up;
    val[10] = repeated(repeat_down, repeat_up, d, max_diff);
    // C18, C19: the same for floats repeated from two rounds before.
    let repeat_down = d > 0 && p.float_before == Float::Down;
    let repeat_up = d > 0 && q.float_before == Float::Up;
    val[11] = repeated(repeat_down, repeat_up, d, max_diff);
    val[12] = order.regular(a, b) as i128;
    val[13] = order.value(a, b);
    // Ties: the lowest-ranked players float.
    val[14] = (2 * order.len() - a - b) as i128;
    val
}
