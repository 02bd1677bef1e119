//! Reading FIDE TRF-16 player lines (data files under `tests/data`).

#![allow(dead_code)]

use dama_pairing::{Colour, Entrant, Pairing, Played, PlayerId};

/// One round of one player as the file gives it.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Opponent's start rank, 0 for none.
    pub opponent: u64,
    /// 'w', 'b' or '-'.
    pub colour: char,
    /// '1', '0', '=', '+', '-', 'U', 'F', 'H', 'Z', ...
    pub result: char,
}

/// A player line: start rank, rating, rounds.
#[derive(Clone, Debug)]
pub struct Line {
    pub rank: u64,
    pub rating: i32,
    pub rounds: Vec<Cell>,
}

/// Parses the `001` lines (fixed columns: rank 5-8, rating 49-52, rounds from 92 by 10).
pub fn parse(text: &str) -> Vec<Line> {
    text.lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| {
            let field = |a: usize, b: usize| l.get(a..b.min(l.len())).unwrap_or("").trim();
            let mut rounds = Vec::new();
            let mut at = 91;
            while at + 8 <= l.len() {
                let chunk = &l[at..(at + 10).min(l.len())];
                let ch = |i: usize| chunk.chars().nth(i).unwrap_or(' ');
                rounds.push(Cell { opponent: chunk[..4].trim().parse().unwrap_or(0), colour: ch(5), result: ch(7) });
                at += 10;
            }
            Line { rank: field(4, 8).parse().expect("start rank"), rating: field(48, 52).parse().unwrap_or(0), rounds }
        })
        .collect()
}

/// The entrants (ids = start ranks, in file order) before round `round` (1-based).
/// Forfeits are not played games; a 'U' round is a pairing-allocated bye.
pub fn entrants_before(lines: &[Line], round: usize) -> Vec<Entrant> {
    lines
        .iter()
        .map(|l| {
            let mut had_bye = false;
            let history = l.rounds[..round - 1]
                .iter()
                .map(|c| {
                    let played = matches!(c.result, '1' | '0' | '=' | 'W' | 'D' | 'L');
                    let points2 = match c.result {
                        '1' | '+' | 'W' | 'U' | 'F' => 2,
                        '=' | 'D' | 'H' => 1,
                        _ => 0,
                    };
                    had_bye |= c.result == 'U';
                    Played {
                        opponent: (c.opponent != 0).then_some(c.opponent),
                        colour: match (played, c.colour) {
                            (true, 'w') => Some(Colour::White),
                            (true, 'b') => Some(Colour::Black),
                            _ => None,
                        },
                        points2,
                        played,
                    }
                })
                .collect();
            Entrant { id: l.rank, rating: l.rating, history, had_bye }
        })
        .collect()
}

/// The games of round `round` as the file records them (white, black), sorted, and the
/// pairing-allocated bye.
pub fn games_of(lines: &[Line], round: usize) -> (Vec<(PlayerId, PlayerId)>, Option<PlayerId>) {
    let mut games = Vec::new();
    let mut bye = None;
    for l in lines {
        let c = &l.rounds[round - 1];
        if c.opponent != 0 && c.colour == 'w' {
            games.push((l.rank, c.opponent));
        }
        if c.opponent == 0 && c.result == 'U' {
            bye = Some(l.rank);
        }
    }
    games.sort();
    (games, bye)
}

/// Pairings as sorted (white, black) tuples.
pub fn tuples(p: &[Pairing]) -> Vec<(PlayerId, PlayerId)> {
    let mut v: Vec<_> = p.iter().map(|g| (g.white, g.black)).collect();
    v.sort();
    v
}
