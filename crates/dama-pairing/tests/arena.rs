//! Arena scoring (lichess rules, worked by hand) and arena pairing.

use dama_pairing::arena::{pair, score, ArenaGame, Waiting};
use proptest::prelude::*;
use std::collections::HashSet;

/// `W`, `D`, `L`; a `b` after a letter marks a berserk game long enough for the bonus,
/// an `s` a berserk game that was too short.
fn games(sheet: &str) -> Vec<ArenaGame> {
    let mut out: Vec<ArenaGame> = Vec::new();
    for c in sheet.chars() {
        match c {
            'W' | 'D' | 'L' => out.push(ArenaGame {
                points2: match c {
                    'W' => 2,
                    'D' => 1,
                    _ => 0,
                },
                berserk: false,
                long_enough: true,
            }),
            'b' | 's' => {
                let g = out.last_mut().unwrap();
                g.berserk = true;
                g.long_enough = c == 'b';
            }
            _ => {}
        }
    }
    out
}

#[test]
fn sheets_worked_by_hand() {
    // (sheet, points per game, on fire after)
    let cases: &[(&str, &[u32], bool)] = &[
        ("", &[], false),
        ("W", &[2], false),
        // Two wins light the fire; the third win and what follows count double until a
        // game that is not a win; the draw ends the streak (scored double), the next win
        // starts again from 2.
        ("WWWDWL", &[2, 2, 4, 2, 2, 0], false),
        ("WWWW", &[2, 2, 4, 4], true),
        ("WW", &[2, 2], true),
        ("WWL", &[2, 2, 0], false),
        ("WLWWD", &[2, 0, 2, 2, 2], false),
        ("DDD", &[1, 1, 1], false),
        // Berserk: +1 on a win, only if long enough; nothing on a draw or loss.
        ("WbWsWbDbLb", &[3, 2, 5, 2, 0], false),
        ("WbWbWbWb", &[3, 3, 5, 5], true),
    ];
    for (sheet, want, fire) in cases {
        let s = score(&games(sheet));
        assert_eq!(s.sheet, *want, "{sheet}");
        assert_eq!(s.points, want.iter().sum::<u32>(), "{sheet}");
        assert_eq!(s.on_fire, *fire, "{sheet}");
    }
}

fn w(id: u64, score: u32, rating: i32, last: Option<u64>, balance: i32) -> Waiting {
    Waiting { id, score, rating, last_opponent: last, colour_balance: balance }
}

#[test]
fn neighbours_by_score_then_rating() {
    let ps = [w(1, 10, 1500, None, 0), w(2, 0, 1900, None, 0), w(3, 9, 1500, None, 0), w(4, 0, 1800, None, 0)];
    let mut got: Vec<(u64, u64)> = pair(&ps).iter().map(|p| (p.white.min(p.black), p.white.max(p.black))).collect();
    got.sort();
    assert_eq!(got, vec![(1, 3), (2, 4)]);
}

#[test]
fn avoids_the_last_opponent_when_it_can() {
    // Neighbours 1-2 played last; 3-4 too: the pairing crosses over.
    let ps =
        [w(1, 10, 2000, Some(2), 0), w(2, 9, 2000, Some(1), 0), w(3, 8, 2000, Some(4), 0), w(4, 7, 2000, Some(3), 0)];
    for p in pair(&ps) {
        let (a, b) = (p.white.min(p.black), p.white.max(p.black));
        assert!(![(1, 2), (3, 4)].contains(&(a, b)), "{a}-{b} rematch");
    }
    // Two players who just met and nobody else: they meet again rather than wait.
    let two = [w(1, 0, 1500, Some(2), 0), w(2, 0, 1500, Some(1), 0)];
    assert_eq!(pair(&two).len(), 1);
}

#[test]
fn white_to_the_lower_balance_and_odd_player_waits() {
    let ps = [w(1, 5, 2000, None, 1), w(2, 5, 1900, None, -1), w(3, 0, 1000, None, 0)];
    let got = pair(&ps);
    assert_eq!(got.len(), 1);
    assert_eq!((got[0].white, got[0].black), (2, 1));
}

proptest! {
    #[test]
    fn everyone_but_one_paired_and_no_avoidable_rematch(
        specs in proptest::collection::vec((0u32..20, 1000i32..2500, any::<bool>(), -2i32..3), 0..30)
    ) {
        let n = specs.len() as u64;
        // Last opponents: consecutive ids pairwise (1-2, 3-4, ...) when the flag is set.
        let ps: Vec<Waiting> = specs
            .iter()
            .enumerate()
            .map(|(i, &(s, r, rematch, bal))| {
                let id = i as u64 + 1;
                let partner = if id % 2 == 1 { id + 1 } else { id - 1 };
                let last = (rematch && partner <= n).then_some(partner);
                w(id, s, r, last, bal)
            })
            .collect();
        let got = pair(&ps);
        let mut seen = HashSet::new();
        for p in &got {
            prop_assert!(seen.insert(p.white) && seen.insert(p.black));
        }
        prop_assert_eq!(seen.len(), ps.len() - ps.len() % 2);
        // With at least 4 players, someone other than one's last opponent is free, and
        // the maximum-weight matching never needs a rematch: check none is made.
        if ps.len() >= 4 {
            for p in &got {
                let a = &ps[p.white as usize - 1];
                prop_assert!(a.last_opponent != Some(p.black), "{}-{} rematch", p.white, p.black);
            }
        }
    }
}
