//! What each format does next, decided from the stored event alone (no I/O): an
//! arena pairs its waiting players, a Swiss its next round (the Dutch system), a round
//! robin its next Berger round; each ends when its time or rounds are over. The
//! director ([`super::director`]) stores what is decided, then acts on it.

use std::collections::HashMap;

use dama_pairing::{arena, berger, swiss};

use super::director::Event;
use super::points;
use crate::error::ApiError;
use crate::store::{EntryRow, PairingRow};

/// What an event does next.
pub enum Next {
    /// Nothing now.
    Wait,
    /// Store these pairings (of this round) and make their games.
    Pair(i64, Vec<PairingRow>),
    /// It is over.
    Finish,
}

/// The next legs' rows of a pairing: leg 1 as paired, leg 2 (colours swapped) when
/// the event plays two games a pairing.
fn legs(ev: &Event, round: i64, board: i64, white: &str, black: &str, now: i64) -> Vec<PairingRow> {
    let ballot = ev.settings.ballot().map(|list| {
        let seed = seed_of(&ev.row.id, round, board);
        i64::from(dama_core::ballot::draw(list, seed).number)
    });
    let mut rows = vec![PairingRow::game(round, board, 1, white, black, ballot, now)];
    if ev.settings.legs() == 2 {
        rows.push(PairingRow::game(round, board, 2, black, white, ballot, now));
    }
    rows
}

/// A ballot's seed for one pairing: the same for both legs, different for each
/// pairing and event.
fn seed_of(id: &str, round: i64, board: i64) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
        ^ (round as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (board as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
}

/// The most waiting arena players paired in one matching. The matching takes time
/// cubic in the players (1,000 players waiting at an arena's start held the director
/// for minutes); the waiting are cut, in their ranking order (score, then rating), into
/// groups of this many (even, so that only the last, lowest ranked, group may leave a
/// player waiting), each paired on its own: neighbours in the ranking meet anyway.
const PAIRING_GROUP: usize = 64;

/// An arena: while it runs, the players waiting are paired at once; once its time is
/// up no one is paired, and it ends when its last game does.
pub fn arena_step(ev: &Event, now: i64) -> Next {
    let ends = ev.row.ends_ms.unwrap_or(ev.row.starts_ms);
    if now >= ends {
        return if ev.games.iter().any(PairingRow::open) { Next::Wait } else { Next::Finish };
    }
    let busy = ev.busy();
    let scores = arena_scores(ev);
    let mut waiting: Vec<arena::Waiting> = ev
        .entries
        .iter()
        .filter(|e| e.active && !busy.contains(e.account.as_str()))
        .map(|e| {
            let mine: Vec<&PairingRow> = ev.games.iter().filter(|g| g.kind == "game" && plays(g, &e.account)).collect();
            let last_opponent = mine.last().and_then(|g| opponent(g, &e.account)).map(|o| id_of(ev, o));
            let whites = mine.iter().filter(|g| g.white == e.account).count() as i32;
            arena::Waiting {
                id: id_of(ev, &e.account),
                score: scores.get(e.account.as_str()).map_or(0, |s| s.points),
                rating: e.rating as i32,
                last_opponent,
                colour_balance: 2 * whites - mine.len() as i32,
            }
        })
        .collect();
    if waiting.len() < 2 {
        return Next::Wait;
    }
    waiting.sort_by(|a, b| b.score.cmp(&a.score).then(b.rating.cmp(&a.rating)));
    let pairs: Vec<_> = waiting.chunks(PAIRING_GROUP).flat_map(arena::pair).collect();
    if pairs.is_empty() {
        return Next::Wait;
    }
    let first = ev.row.round + 1;
    let mut rows = Vec::new();
    for (i, p) in pairs.iter().enumerate() {
        let round = first + i as i64;
        let (w, b) = (account_of(ev, p.white), account_of(ev, p.black));
        rows.extend(legs(ev, round, 1, w, b, now));
    }
    Next::Pair(first + pairs.len() as i64 - 1, rows)
}

/// Every arena player's score so far (lichess's rules: [`arena::score`]).
pub fn arena_scores(ev: &Event) -> HashMap<&str, arena::ArenaScore> {
    ev.entries
        .iter()
        .map(|e| {
            let sheet: Vec<arena::ArenaGame> = ev
                .games
                .iter()
                .filter(|g| g.kind == "game" && !g.open() && plays(g, &e.account))
                .map(|g| {
                    let white = g.white == e.account;
                    arena::ArenaGame {
                        points2: if white { g.white_points } else { g.black_points }.unwrap_or(0) as u32,
                        berserk: g.berserk & if white { 1 } else { 2 } != 0,
                        long_enough: g.plies >= 14,
                    }
                })
                .collect();
            (e.account.as_str(), arena::score(&sheet))
        })
        .collect()
}

fn plays(g: &PairingRow, account: &str) -> bool {
    g.white == account || g.black.as_deref() == Some(account)
}

fn opponent<'a>(g: &'a PairingRow, account: &str) -> Option<&'a str> {
    if g.white == account {
        g.black.as_deref()
    } else {
        Some(g.white.as_str())
    }
}

/// A player's number for the pairing rules: their place in the entries.
fn id_of(ev: &Event, account: &str) -> u64 {
    ev.entries.iter().position(|e| e.account == account).map_or(u64::MAX, |i| i as u64)
}

fn account_of(ev: &Event, id: u64) -> &str {
    &ev.entries[id as usize].account
}

/// The Swiss history of every player: a round's legs make one result (the match
/// points of a micro-match: 2 won, 1 level, 0 lost).
pub fn swiss_entrants(ev: &Event, upto: i64) -> Vec<dama_pairing::Entrant> {
    ev.entries
        .iter()
        .map(|e| {
            let mut history = Vec::new();
            for round in 1..=upto {
                let rows: Vec<&PairingRow> =
                    ev.games.iter().filter(|g| g.round == round && plays(g, &e.account)).collect();
                history.push(played(&rows, &e.account, |a| id_of(ev, a)));
            }
            dama_pairing::Entrant {
                id: id_of(ev, &e.account),
                rating: e.rating as i32,
                had_bye: ev.games.iter().any(|g| g.kind == "bye" && g.white == e.account),
                history,
            }
        })
        .collect()
}

/// One round of `account` from its rows (none: absent, no points).
fn played(rows: &[&PairingRow], account: &str, id: impl Fn(&str) -> u64) -> dama_pairing::Played {
    let Some(first) = rows.first() else {
        return dama_pairing::Played { opponent: None, colour: None, points2: 0, played: false };
    };
    let (mine, theirs): (i64, i64) = rows.iter().fold((0, 0), |(m, t), g| {
        let (a, b) = (g.white_points.unwrap_or(0), g.black_points.unwrap_or(0));
        if g.white == account {
            (m + a, t + b)
        } else {
            (m + b, t + a)
        }
    });
    let game = first.kind == "game";
    let points2 = match first.kind.as_str() {
        "game" | "forfeit" => match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => 2,
            std::cmp::Ordering::Equal if mine > 0 => 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Less => 0,
        },
        _ => mine as u32,
    };
    dama_pairing::Played {
        opponent: opponent(first, account).map(id),
        colour: game.then(|| {
            if first.white == account {
                dama_pairing::Colour::White
            } else {
                dama_pairing::Colour::Black
            }
        }),
        points2,
        played: game,
    }
}

/// A Swiss: once a round is over, the next is paired by the Dutch system (absent
/// players score nothing that round); after the last, it ends, or sooner when no
/// pairing without a repeat is left.
pub fn swiss_step(ev: &Event, now: i64) -> Result<Next, ApiError> {
    let round = ev.row.round;
    if round > 0 && ev.round_open(round) {
        return Ok(Next::Wait);
    }
    let present: Vec<&EntryRow> = ev.entries.iter().filter(|e| e.active).collect();
    if round >= ev.row.rounds || present.len() < 2 {
        return Ok(Next::Finish);
    }
    let next = round + 1;
    let all = swiss_entrants(ev, round);
    let entrants: Vec<dama_pairing::Entrant> = all.into_iter().filter(|x| ev.entries[x.id as usize].active).collect();
    let paired = match swiss::pair(&entrants, next as u32, ev.row.rounds as u32) {
        Ok(p) => p,
        // Too few players left for another round without a repeat (two players after
        // their game, say): the event ends here.
        Err(dama_pairing::PairingError::NoLegalPairing { .. }) => {
            tracing::info!(tournament = %ev.row.id, round = next, "no legal pairing left: the Swiss ends");
            return Ok(Next::Finish);
        }
        Err(e) => {
            tracing::error!(tournament = %ev.row.id, round = next, error = %e, "no Swiss pairing");
            return Err(ApiError::Internal);
        }
    };
    let mut rows = Vec::new();
    for (i, p) in paired.pairings.iter().enumerate() {
        rows.extend(legs(ev, next, i as i64 + 1, account_of(ev, p.white), account_of(ev, p.black), now));
    }
    let mut board = paired.pairings.len() as i64;
    if let Some(b) = paired.bye {
        board += 1;
        rows.push(PairingRow::without_game(next, board, "bye", account_of(ev, b), 2, now));
    }
    for e in ev.entries.iter().filter(|e| !e.active) {
        board += 1;
        rows.push(PairingRow::without_game(next, board, "absent", &e.account, 0, now));
    }
    Ok(Next::Pair(next, rows))
}

/// A round robin: the Berger table of its players (in their order at the start,
/// strongest first); a withdrawn player's games are forfeited.
pub fn robin_step(ev: &Event, now: i64) -> Next {
    let round = ev.row.round;
    if round > 0 && ev.round_open(round) {
        return Next::Wait;
    }
    if round >= ev.row.rounds {
        return Next::Finish;
    }
    let mut order: Vec<&EntryRow> = ev.entries.iter().collect();
    order.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.joined_ms.cmp(&b.joined_ms)));
    let table = berger::table(order.len());
    let Some(pairs) = table.get(round as usize) else { return Next::Finish };
    let next = round + 1;
    let mut rows = Vec::new();
    for (i, &(w, b)) in pairs.iter().enumerate() {
        let board = i as i64 + 1;
        match (order.get(w - 1), order.get(b - 1)) {
            (Some(x), None) | (None, Some(x)) => {
                rows.push(PairingRow::without_game(next, board, "bye", &x.account, 0, now));
            }
            (Some(x), Some(y)) if x.active && y.active => {
                rows.extend(legs(ev, next, board, &x.account, &y.account, now))
            }
            (Some(x), Some(y)) => {
                let p = points(
                    if x.active {
                        Some(dama_core::Color::White)
                    } else if y.active {
                        Some(dama_core::Color::Black)
                    } else {
                        None
                    },
                    x.active || y.active,
                );
                let mut r = PairingRow::game(next, board, 1, &x.account, &y.account, None, now);
                r.kind = "forfeit".into();
                (r.white_points, r.black_points, r.ended_ms) = (Some(p[0]), Some(p[1]), Some(now));
                rows.push(r);
            }
            (None, None) => {}
        }
    }
    Next::Pair(next, rows)
}
