//! What an event's page shows, computed from its stored games: the standings (an
//! arena's points with streaks and berserk; a Swiss's or round robin's points with
//! Buchholz and Sonneborn-Berger), the pairings with their results, and the
//! crosstable.

use dama_pairing::tiebreak::Standing;
use dama_pairing::Entrant;
use serde_json::{json, Value};

use super::director::Event;
use super::steps::{arena_scores, swiss_entrants};
use super::Format;
use crate::store::PairingRow;

/// A name for an account of the event.
fn name<'a>(ev: &'a Event, account: &str) -> &'a str {
    ev.entries.iter().find(|e| e.account == account).map_or("?", |e| e.name.as_str())
}

/// The standings, best first, and a Swiss's or round robin's crosstable (computed
/// from one reading of the players' histories).
pub fn tables(ev: &Event) -> (Value, Option<Value>) {
    if ev.format == Format::Arena {
        return (arena_table(ev), None);
    }
    let entrants = swiss_entrants(ev, ev.row.round);
    let standings = dama_pairing::tiebreak::standings(&entrants);
    (table(ev, &standings), Some(crosstable(ev, &entrants, &standings)))
}

/// An arena's standings: points (with streaks and berserk), then rating.
fn arena_table(ev: &Event) -> Value {
    let scores = arena_scores(ev);
    let mut rows: Vec<_> = ev
        .entries
        .iter()
        .map(|e| (e, scores.get(e.account.as_str()).cloned().unwrap_or_else(|| dama_pairing::arena::score(&[]))))
        .collect();
    rows.sort_by(|a, b| b.1.points.cmp(&a.1.points).then(b.0.rating.cmp(&a.0.rating)));
    let mut rank = 0;
    let mut last = None;
    let out: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(i, (e, s))| {
            if last != Some(s.points) {
                rank = i + 1;
                last = Some(s.points);
            }
            json!({
                "rank": rank, "name": e.name, "rating": e.rating, "active": e.active,
                "points": s.points, "sheet": s.sheet, "on_fire": s.on_fire,
            })
        })
        .collect();
    json!(out)
}

/// A Swiss's or round robin's standings with their tie-breaks.
fn table(ev: &Event, standings: &[Standing]) -> Value {
    let out: Vec<Value> = standings
        .iter()
        .map(|s| {
            let e = &ev.entries[s.id as usize];
            json!({
                "rank": s.rank, "name": e.name, "rating": e.rating, "active": e.active,
                "points": f64::from(s.points2) / 2.0,
                "buchholz": f64::from(s.buchholz2) / 2.0,
                "sonneborn_berger": f64::from(s.sonneborn_berger4) / 4.0,
                "games": s.games, "wins": s.wins,
            })
        })
        .collect();
    json!(out)
}

/// A game's or bye's result as PDN writes it, White's first (none while played).
fn result(g: &PairingRow) -> Option<String> {
    let p = |x: i64| match x {
        2 => "1",
        1 => "½",
        _ => "0",
    };
    Some(match g.kind.as_str() {
        "game" | "forfeit" => format!("{}-{}", p(g.white_points?), p(g.black_points?)),
        _ => p(g.white_points?).to_string(),
    })
}

/// Every game and bye, by round and board.
pub fn pairings(ev: &Event) -> Value {
    let out: Vec<Value> = ev
        .games
        .iter()
        .map(|g| {
            json!({
                "round": g.round, "board": g.board, "leg": g.leg, "kind": g.kind, "game": g.game_id,
                "white": name(ev, &g.white), "black": g.black.as_deref().map(|b| name(ev, b)),
                "result": result(g), "ballot": g.ballot, "berserk": g.berserk,
            })
        })
        .collect();
    json!(out)
}

/// The crosstable of a Swiss or round robin: each player's row in the standings'
/// order, and per round the opponent's place, the colour and the score
/// (`{"opponent": 3, "color": "white", "score": "1"}`; a bye has no opponent).
fn crosstable(ev: &Event, entrants: &[Entrant], standings: &[Standing]) -> Value {
    let order: Vec<u64> = standings.iter().map(|s| s.id).collect();
    let place = |id: u64| order.iter().position(|x| *x == id).map(|p| p + 1);
    let rows: Vec<Value> = order
        .iter()
        .map(|&id| {
            let x = &entrants[id as usize];
            let rounds: Vec<Value> = x
                .history
                .iter()
                .map(|p| {
                    let colour = p.colour.map(|c| if c == dama_pairing::Colour::White { "white" } else { "black" });
                    let score = match p.points2 {
                        2 => "1",
                        1 => "½",
                        _ => "0",
                    };
                    json!({ "opponent": p.opponent.and_then(place), "color": colour, "score": score, "played": p.played })
                })
                .collect();
            json!({ "name": ev.entries[id as usize].name, "points": f64::from(x.points2()) / 2.0, "rounds": rounds })
        })
        .collect();
    json!(rows)
}
