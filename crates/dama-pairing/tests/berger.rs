//! Berger tables against the FIDE Handbook C.05 Annex 1 tables (`data/berger.txt`).

use dama_pairing::berger::table;
use std::collections::{HashMap, HashSet};

/// `(n, round) -> games` from the data file.
fn published() -> HashMap<(usize, usize), Vec<(usize, usize)>> {
    let mut out = HashMap::new();
    for line in include_str!("data/berger.txt").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (head, games) = line.split_once(':').unwrap();
        let mut h = head.split_whitespace().map(|x| x.parse::<usize>().unwrap());
        let (n, round) = (h.next().unwrap(), h.next().unwrap());
        let games = games
            .split(',')
            .map(|g| {
                let (w, b) = g.trim().split_once('-').unwrap();
                (w.parse().unwrap(), b.parse().unwrap())
            })
            .collect();
        out.insert((n, round), games);
    }
    out
}

#[test]
fn matches_the_handbook() {
    let data = published();
    for n in [4, 6, 8, 10, 12] {
        let t = table(n);
        assert_eq!(t.len(), n - 1);
        for (r, games) in t.iter().enumerate() {
            assert_eq!(games, &data[&(n, r + 1)], "{n} players, round {}", r + 1);
        }
    }
}

#[test]
fn odd_counts_use_the_next_table() {
    for n in [3, 5, 7, 9, 11] {
        assert_eq!(table(n), table(n + 1));
    }
    assert!(table(0).is_empty() && table(1).is_empty());
}

#[test]
fn everyone_meets_once_and_colours_alternate() {
    for n in 2..=24 {
        let even = n + n % 2;
        let t = table(n);
        let mut pairs = HashSet::new();
        let mut colours: Vec<Vec<bool>> = vec![Vec::new(); even + 1];
        for games in &t {
            let mut seen = HashSet::new();
            for &(w, b) in games {
                assert!(pairs.insert((w.min(b), w.max(b))), "{n}: {w}-{b} twice");
                assert!(seen.insert(w) && seen.insert(b));
                colours[w].push(true);
                colours[b].push(false);
            }
            assert_eq!(seen.len(), even);
        }
        assert_eq!(pairs.len(), even * (even - 1) / 2);
        // No player has the same colour three times in a row, and nobody's whites and
        // blacks differ by more than one.
        for (p, c) in colours.iter().enumerate().skip(1) {
            assert!(!c.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]), "{n}: {p}");
            let whites = c.iter().filter(|&&x| x).count() as i64;
            assert!((2 * whites - c.len() as i64).abs() <= 1, "{n}: {p}");
        }
    }
}
