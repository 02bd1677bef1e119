//! The Swiss pairing against published pairings (see `tests/data/README.md`).

mod common;

use common::{entrants_before, games_of, parse, tuples};
use dama_pairing::swiss;

/// The file's event drew Black for the top seed in round 1.
const BLACK: swiss::Options = swiss::Options { initial_colour: dama_pairing::Colour::Black };

const ISSUE_7: &str = include_str!("data/issue_7.trf");

/// Pairs every round of the file from the rounds before it and prints what differs.
/// Returns the rounds reproduced exactly (same games and colours).
fn rounds_matched(text: &str, total: u32) -> Vec<usize> {
    let lines = parse(text);
    let played = lines[0].rounds.len();
    let mut ok = Vec::new();
    for round in 1..=played {
        let es = entrants_before(&lines, round);
        let got = swiss::pair_with(&es, round as u32, total, BLACK).expect("pairable");
        let (want, want_bye) = games_of(&lines, round);
        let mine = tuples(&got.pairings);
        if mine == want && got.bye == want_bye {
            ok.push(round);
        } else {
            let unordered = |v: &[(u64, u64)]| {
                let mut u: Vec<_> = v.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
                u.sort();
                u
            };
            let same_games = unordered(&mine) == unordered(&want);
            let extra: Vec<_> = mine.iter().filter(|g| !want.contains(g)).collect();
            let missing: Vec<_> = want.iter().filter(|g| !mine.contains(g)).collect();
            println!("round {round}: same games {same_games}; ours not theirs {extra:?}; theirs not ours {missing:?}");
        }
    }
    println!("rounds reproduced: {ok:?}");
    ok
}

#[test]
fn issue_7_rounds() {
    let ok = rounds_matched(ISSUE_7, 15);
    // The rounds reproduced exactly (games and colours); `data/README.md` lists the
    // others and how they differ.
    for round in 1..=14 {
        assert!(ok.contains(&round), "round {round} no longer matches: {ok:?}");
    }
}

#[test]
fn issue_7_round_15_as_bbp_pairings() {
    let lines = parse(ISSUE_7);
    let es = entrants_before(&lines, 15);
    let got = swiss::pair_with(&es, 15, 15, BLACK).expect("pairable");
    let expected = include_str!("data/issue_7.round15.expected");
    let mut want: Vec<(u64, u64)> = expected
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace().map(|x| x.parse::<u64>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    want.sort();
    let mine = tuples(&got.pairings);
    let extra: Vec<_> = mine.iter().filter(|g| !want.contains(g)).collect();
    println!("round 15, ours not bbpPairings': {extra:?}");
    // Not reproduced (see `data/README.md`, which says how many games differ): only that
    // every player is paired is asserted here.
    assert_eq!(mine.len(), 30);
}
