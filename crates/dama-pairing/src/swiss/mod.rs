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
mod stage;
mod weight;

use crate::{Colour, Entrant, Pairing, PairingError, RoundPairings};
use player::{players, Player};
use serde::{Deserialize, Serialize};
use stage::Ctx;
use std::collections::HashSet;

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
