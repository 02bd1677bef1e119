//! Tie-breaks (after FIDE Handbook C.07) and standings, in scaled integers.
//!
//! - Buchholz: the sum of the opponents' scores, points doubled (`buchholz2`).
//! - Sonneborn-Berger: the sum, over the games, of the opponent's score times the points
//!   scored against them; both factors doubled, so the value is scaled by 4
//!   (`sonneborn_berger4`).
//!
//! Unplayed rounds (a bye, a forfeit either way, an absence) follow the simple rule "the
//! player drew against himself": the round adds the player's own score to Buchholz, and half
//! of it to Sonneborn-Berger (a draw, 1 in doubled points, times the own doubled score).
//! Opponents' scores are their totals, their own unplayed rounds included. This is not the
//! FIDE 2023 "virtual opponent"; it is simpler and keeps a bye neutral.

use crate::{Entrant, PlayerId};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The player.
    pub id: PlayerId,
    /// 1-based; players equal in every tie-break share the rank (1, 2, 2, 4, ...).
    pub rank: u32,
    /// The score, points doubled.
    pub points2: u32,
    /// Buchholz, points doubled.
    pub buchholz2: u32,
    /// Sonneborn-Berger, scaled by 4.
    pub sonneborn_berger4: u32,
    /// Games actually played.
    pub games: u32,
    /// Games actually won (a forfeit win or a bye is not counted).
    pub wins: u32,
}

fn scores(entrants: &[Entrant]) -> HashMap<PlayerId, u32> {
    entrants.iter().map(|e| (e.id, e.points2())).collect()
}

fn buchholz_with(scores: &HashMap<PlayerId, u32>, e: &Entrant) -> u32 {
    let own = e.points2();
    e.history
        .iter()
        .map(|p| match (p.played, p.opponent) {
            (true, Some(o)) => scores.get(&o).copied().unwrap_or(0),
            _ => own,
        })
        .sum()
}

fn sonneborn_berger_with(scores: &HashMap<PlayerId, u32>, e: &Entrant) -> u32 {
    let own = e.points2();
    e.history
        .iter()
        .map(|p| match (p.played, p.opponent) {
            (true, Some(o)) => scores.get(&o).copied().unwrap_or(0) * p.points2,
            _ => own,
        })
        .sum()
}

/// The Buchholz of player `id` (points doubled), or `None` if the player is unknown.
pub fn buchholz(entrants: &[Entrant], id: PlayerId) -> Option<u32> {
    let s = scores(entrants);
    entrants.iter().find(|e| e.id == id).map(|e| buchholz_with(&s, e))
}

/// The Sonneborn-Berger of player `id` (scaled by 4), or `None` if the player is unknown.
pub fn sonneborn_berger(entrants: &[Entrant], id: PlayerId) -> Option<u32> {
    let s = scores(entrants);
    entrants.iter().find(|e| e.id == id).map(|e| sonneborn_berger_with(&s, e))
}

/// The standings: by score, then Buchholz, then Sonneborn-Berger, then wins (all highest
/// first); players equal in all of them share a rank and keep the given order.
pub fn standings(entrants: &[Entrant]) -> Vec<Standing> {
    let s = scores(entrants);
    let mut rows: Vec<Standing> = entrants
        .iter()
        .map(|e| Standing {
            id: e.id,
            rank: 0,
            points2: e.points2(),
            buchholz2: buchholz_with(&s, e),
            sonneborn_berger4: sonneborn_berger_with(&s, e),
            games: e.history.iter().filter(|p| p.played).count() as u32,
            wins: e.history.iter().filter(|p| p.played && p.points2 == 2).count() as u32,
        })
        .collect();
    let key = |r: &Standing| (r.points2, r.buchholz2, r.sonneborn_berger4, r.wins);
    rows.sort_by_key(|r| std::cmp::Reverse(key(r)));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) { rows[i - 1].rank } else { i as u32 + 1 };
    }
    rows
}
