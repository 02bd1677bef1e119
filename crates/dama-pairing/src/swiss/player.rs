//! What the Dutch rules need to know about each player before a round: pairing number,
//! score, colours, floats, and whether a bye is allowed.

use super::colour::{preference, Preference};
use crate::{Colour, Entrant, PlayerId};
use std::collections::{HashMap, HashSet};

/// A float received in a round (C.04.3 A.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Float {
    /// Paired against a lower score, or did not play at all.
    Down,
    /// Paired against a higher score.
    Up,
    /// Paired within the own score.
    None,
}

/// One player as the pairing engine sees them.
#[derive(Clone, Debug)]
pub(crate) struct Player {
    /// The caller's id.
    pub id: PlayerId,
    /// The pairing number: 1 for the highest rating (ties keep the given order).
    pub tpn: usize,
    /// Score, points doubled.
    pub score: u32,
    /// Colour of each round, `None` where no game was played.
    pub colours: Vec<Option<Colour>>,
    /// Whites minus blacks over played games.
    pub colour_diff: i32,
    /// The colour preference (C.04.3 A.6).
    pub pref: Preference,
    /// Opponents of played games.
    pub met: HashSet<PlayerId>,
    /// May receive the pairing-allocated bye (C2).
    pub can_bye: bool,
    /// The float of the previous round.
    pub float_last: Float,
    /// The float of the round before that.
    pub float_before: Float,
    /// Over half of the maximum possible score when pairing the final round (A.7).
    pub topscorer: bool,
}

impl Player {
    /// Ranking order (A.2): higher score first, then lower pairing number.
    pub fn ranks_above(&self, other: &Player) -> bool {
        (self.score, std::cmp::Reverse(self.tpn)) > (other.score, std::cmp::Reverse(other.tpn))
    }
}

/// The players sorted by pairing number (rating, highest first; stable).
pub(crate) fn players(entrants: &[Entrant], round: u32, total_rounds: u32) -> Vec<Player> {
    let mut order: Vec<&Entrant> = entrants.iter().collect();
    order.sort_by_key(|e| std::cmp::Reverse(e.rating));
    let by_id: HashMap<PlayerId, &Entrant> = entrants.iter().map(|e| (e.id, e)).collect();
    let score_before = |e: &Entrant, r: usize| -> u32 { e.history.iter().take(r).map(|p| p.points2).sum() };
    let last_round = round as usize - 1; // rounds already played
    order
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let colours: Vec<Option<Colour>> =
                e.history.iter().map(|p| if p.played { p.colour } else { None }).collect();
            let colour_diff = colours
                .iter()
                .map(|c| match c {
                    Some(Colour::White) => 1,
                    Some(Colour::Black) => -1,
                    None => 0,
                })
                .sum();
            // The float received in round `r` (0-based).
            let float_in = |r: Option<usize>| match r.and_then(|r| e.history.get(r).map(|p| (r, p))) {
                None => Float::None,
                Some((r, p)) => match (p.played, p.opponent.and_then(|o| by_id.get(&o))) {
                    (true, Some(o)) => {
                        let (mine, theirs) = (score_before(e, r), score_before(o, r));
                        if mine > theirs {
                            Float::Down
                        } else if mine < theirs {
                            Float::Up
                        } else {
                            Float::None
                        }
                    }
                    _ => Float::Down,
                },
            };
            let float_last = float_in(last_round.checked_sub(1));
            let float_before = float_in(last_round.checked_sub(2));
            let score = e.points2();
            Player {
                id: e.id,
                tpn: i + 1,
                score,
                pref: preference(&colours),
                colours,
                colour_diff,
                met: e.history.iter().filter(|p| p.played).filter_map(|p| p.opponent).collect(),
                can_bye: !e.had_bye && !e.won_by_forfeit(),
                float_last,
                float_before,
                topscorer: round == total_rounds && score > round - 1,
            }
        })
        .collect()
}

/// Whether two players may meet (C1 and C3).
pub(crate) fn compatible(a: &Player, b: &Player) -> bool {
    if a.met.contains(&b.id) || b.met.contains(&a.id) {
        return false;
    }
    match (a.pref, b.pref) {
        (Preference::Absolute(x), Preference::Absolute(y)) if x == y => {
            // C3 spares topscorers in the last round; this crate asks it of both players,
            // so that a non-topscorer never ends beyond the colour limits.
            a.topscorer && b.topscorer
        }
        _ => true,
    }
}
