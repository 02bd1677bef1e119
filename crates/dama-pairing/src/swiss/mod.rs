//! The FIDE Dutch system (Handbook C.04.3, rules of 2017), as weighted matchings.
//!
//! Players are ranked by score, then pairing number (rating, highest first, ties in the
//! given order). Score brackets are paired from the top; a bracket with players floating
//! down into it (MDPs) is paired in two passes, the MDPs first, then the remaining
//! residents as a homogeneous bracket. Each pass is a maximum-weight matching ([`crate::matching`])
//! whose edges exist only where the absolute criteria allow (C1 no second meeting, C2 no
//! second bye and no bye after a forfeit win, C3 no two players with the same absolute
//! colour preference), so those are never broken. Each weight packs, most important first
//! (`weight.rs`, up to 256 bits):
//!
//! 1. one per game: everyone is paired, so the rest can always be completed (C4);
//! 2. one per game inside the bracket: the fewest downfloaters (C5);
//! 3. the scores of the bracket's paired players: the lowest scores float (C6); then as
//!    many games as possible among the floaters and the next score group (C7, first part);
//! 4. games where both colour preferences are met (C10), then no strong preference
//!    denied (C11);
//! 5. no resident floats down as in the previous round (C12), no upfloat as in the
//!    previous round (C13), the same for two rounds before (C14, C15), then the score
//!    differences of floats repeated from the previous round (C16 and C17 as one sum), and
//!    from two rounds before (C18 and C19 as one sum);
//! 6. games that fit the S1/S2 split (MDP with resident, S1 with S2): transpositions
//!    come before exchanges;
//! 7. the Dutch order of S1 and S2 (`order.rs`): exact for small brackets, a steep
//!    approximation of the transposition order for large ones;
//! 8. the higher-ranked players paired, so that the lowest-ranked float;
//! 9. for the bye vertex (odd count): the lowest-ranked player.
//!
//! A pass first matches the bracket (with the next score group, for C7) on its own and
//! keeps that when all of the bracket's best games leave everyone else pairable; otherwise
//! it matches over every player still unpaired, with a bye vertex when the count is odd.
//! Games inside the bracket are kept; the other bracket players float down into the next
//! bracket. A homogeneous bracket of up to 16 players is then re-paired in the exact Dutch
//! order of candidates (`dutch_order.rs`: S2 transpositions, then exchanges) at the
//! quality the matching found. Colours follow C.04.3 E; the initial colour (E.5) is an
//! option, White by default, so in round 1 the top seed has White on odd boards.
//!
//! Where this differs from the full Dutch rules: the topscorer colour criteria (C8, C9) and
//! C7's second part (the next bracket's score differences) are not weighed; C16/C17 and
//! C18/C19 are weighed as sums; the candidate order is exact only for homogeneous brackets
//! of up to 16 players (MDP pairings and larger brackets use the weight of point 7). C3 is
//! applied unless *both* players are topscorers in the last round (stricter than FIDE,
//! which spares a pair with one topscorer), so a non-topscorer never exceeds the colour
//! limits.

mod colour;
mod dutch_order;
mod order;
mod player;
mod weight;

use crate::matching::max_weight_matching;
use crate::weight::Wide;
use crate::{Colour, Entrant, Pairing, PairingError, RoundPairings};
use order::Order;
use player::{compatible, players, Float, Player};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use weight::{Packer, Values, FIELDS, LIMIT};

/// The most bits a weight may take for the matching to run on `i128`.
const NARROW: u32 = 120;

/// Settings of a Swiss event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// The colour drawn by lot before round 1 (C.04.3 E.5): the top seed's colour in
    /// round 1, and the colour of every odd-numbered higher-ranked player without history.
    pub initial_colour: Colour,
}

impl Default for Options {
    /// White: the top seed has White in round 1, as the handbook's examples usually show.
    fn default() -> Options {
        Options { initial_colour: Colour::White }
    }
}

/// Pairs round `round` (1-based) of an event of `total_rounds` rounds, with the default
/// [`Options`] (White drawn as the initial colour). Every entrant is paired, or gets the
/// bye when the count is odd.
pub fn pair(entrants: &[Entrant], round: u32, total_rounds: u32) -> Result<RoundPairings, PairingError> {
    pair_with(entrants, round, total_rounds, Options::default())
}

/// [`pair`] with explicit [`Options`].
pub fn pair_with(
    entrants: &[Entrant],
    round: u32,
    total_rounds: u32,
    options: Options,
) -> Result<RoundPairings, PairingError> {
    if round == 0 || round > total_rounds {
        return Err(PairingError::BadRound { round, total_rounds });
    }
    let mut seen = HashSet::new();
    for e in entrants {
        if !seen.insert(e.id) {
            return Err(PairingError::DuplicatePlayer(e.id));
        }
    }
    let ps = players(entrants, round, total_rounds);
    let mates = match_brackets(&ps).ok_or(PairingError::NoLegalPairing { round })?;
    Ok(finish(&ps, &mates, options.initial_colour))
}

/// The bye vertex's index is `ps.len()`.
fn match_brackets(ps: &[Player]) -> Option<Vec<usize>> {
    let n = ps.len();
    let total = n + n % 2;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| ps[b].score.cmp(&ps[a].score).then(ps[a].tpn.cmp(&ps[b].tpn)));
    let mut rank = vec![0; n];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in &order {
        match groups.last_mut() {
            Some(g) if ps[g[0]].score == ps[i].score => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let ctx = Ctx { ps, total, rank, max_score: ps.iter().map(|p| p.score).max().unwrap_or(0) as i128 };
    let mut mate = vec![usize::MAX; total];
    let mut floaters: Vec<usize> = Vec::new();
    for (gi, group) in groups.iter().enumerate() {
        let last = gi + 1 == groups.len();
        // The next score group: C7 looks at how the floaters pair there.
        let following: &[usize] = groups.get(gi + 1).map_or(&[], |g| g.as_slice());
        let mut residents = group.clone();
        let mut next = Vec::new();
        if !floaters.is_empty() {
            // Heterogeneous bracket: first the MDPs with the residents (S1 = MDPs), then
            // the remainder as a homogeneous bracket.
            let bracket: Vec<usize> = floaters.iter().chain(group.iter()).copied().collect();
            next = ctx.stage(&mut mate, &bracket, following, floaters.len(), false)?;
            residents.retain(|&r| mate[r] == usize::MAX);
        }
        let left = ctx.stage(&mut mate, &residents, following, 0, last)?;
        next.extend(left);
        next.sort_by(|&a, &b| ps[b].score.cmp(&ps[a].score).then(ps[a].tpn.cmp(&ps[b].tpn)));
        floaters = next;
    }
    Some(mate)
}

/// What every stage of one round shares.
struct Ctx<'a> {
    ps: &'a [Player],
    /// Players plus the bye vertex, if any.
    total: usize,
    /// Position in the ranking order.
    rank: Vec<usize>,
    max_score: i128,
}

impl Ctx<'_> {
    /// Pairs one stage (see [`Ctx::stage_weighted`]); a small homogeneous bracket is then
    /// re-paired in the exact Dutch order of candidates, at the same quality.
    fn stage(
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
    fn completable(&self, mate: &[usize]) -> bool {
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
fn bracket_values(
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

/// Colours and board order: by the higher score, then the lower score, then the pairing
/// number of the higher-ranked player.
fn finish(ps: &[Player], mate: &[usize], initial: Colour) -> RoundPairings {
    let n = ps.len();
    let mut games: Vec<(usize, usize)> = Vec::new();
    let mut bye = None;
    for u in 0..n {
        let v = mate[u];
        if v == n {
            bye = Some(ps[u].id);
        } else if u < v {
            let (hi, lo) = if ps[u].ranks_above(&ps[v]) { (u, v) } else { (v, u) };
            games.push((hi, lo));
        }
    }
    games.sort_by(|&(h1, l1), &(h2, l2)| {
        (ps[h2].score, ps[l2].score).cmp(&(ps[h1].score, ps[l1].score)).then(ps[h1].tpn.cmp(&ps[h2].tpn))
    });
    let pairings = games
        .into_iter()
        .map(|(h, l)| match colour::allocate(&ps[h], &ps[l], initial) {
            Colour::White => Pairing { white: ps[h].id, black: ps[l].id },
            Colour::Black => Pairing { white: ps[l].id, black: ps[h].id },
        })
        .collect();
    RoundPairings { pairings, bye }
}
