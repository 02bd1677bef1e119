//! The blossom matching against exhaustive search on small random graphs.

use dama_pairing::matching::max_weight_matching;
use dama_pairing::weight::{Weight, Wide};
use proptest::prelude::*;

/// The best total weight over all matchings, by trying every choice for the lowest
/// unmatched vertex (leave it single, or match it to each free neighbour).
fn brute(n: usize, w: &[Vec<Option<i128>>], used: &mut Vec<bool>) -> i128 {
    let Some(v) = (0..n).find(|&v| !used[v]) else {
        return 0;
    };
    used[v] = true;
    let mut best = brute(n, w, used);
    for u in v + 1..n {
        if let (false, Some(x)) = (used[u], w[v][u]) {
            used[u] = true;
            best = best.max(x + brute(n, w, used));
            used[u] = false;
        }
    }
    used[v] = false;
    best
}

fn graph() -> impl Strategy<Value = (usize, Vec<(usize, usize, i128)>)> {
    (1usize..11).prop_flat_map(|n| {
        let pairs: Vec<(usize, usize)> = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect();
        let k = pairs.len();
        (Just(n), Just(pairs), proptest::collection::vec(proptest::option::weighted(0.6, 0i128..40), k)).prop_map(
            |(n, pairs, ws)| {
                let edges = pairs.into_iter().zip(ws).filter_map(|((i, j), w)| w.map(|w| (i, j, w))).collect();
                (n, edges)
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn matches_exhaustive_search((n, edges) in graph()) {
        let mate = max_weight_matching(n, &edges);
        let mut w = vec![vec![None; n]; n];
        for &(i, j, x) in &edges {
            w[i][j] = Some(x);
            w[j][i] = Some(x);
        }
        let mut total = 0;
        for v in 0..n {
            if let Some(u) = mate[v] {
                prop_assert_eq!(mate[u], Some(v));
                prop_assert!(w[v][u].is_some(), "matched along a missing edge");
                if v < u {
                    total += w[v][u].unwrap();
                }
            }
        }
        prop_assert_eq!(total, brute(n, &w, &mut vec![false; n]));
        // The same graph on 256-bit weights, shifted past 128 bits, weighs as much.
        let wide: Vec<(usize, usize, Wide)> = edges
            .iter()
            .map(|&(i, j, x)| (i, j, Wide::from_u128_shl(x as u128, 130)))
            .collect();
        let mate_wide = max_weight_matching(n, &wide);
        let mut total_wide = 0;
        for v in 0..n {
            if let Some(u) = mate_wide[v] {
                if v < u {
                    total_wide += w[v][u].unwrap();
                }
            }
        }
        prop_assert_eq!(total_wide, total);
    }

    #[test]
    fn wide_arithmetic_matches_i128(a in any::<i64>(), b in any::<i64>()) {
        let w = |x: i128| {
            let limbs = if x < 0 { [x as u64, (x >> 64) as u64, u64::MAX, u64::MAX] } else { [x as u64, (x >> 64) as u64, 0, 0] };
            Wide(limbs)
        };
        let (x, y) = (a as i128 * 3, b as i128 * 5);
        prop_assert_eq!((w(x) + w(y)).to_i128(), Some(x + y));
        prop_assert_eq!((w(x) - w(y)).to_i128(), Some(x - y));
        prop_assert_eq!(w(x).cmp(&w(y)), x.cmp(&y));
        prop_assert_eq!(w(2 * x).half().to_i128(), Some(x));
    }
}

#[test]
fn heavy_weights_stay_exact() {
    // Lexicographic weights as the Swiss pairing builds them: 2^100-scale digits.
    let big: i128 = 1 << 100;
    let edges = vec![(0, 1, big + 5), (1, 2, big + 9), (2, 3, big + 1), (0, 3, big)];
    let mate = max_weight_matching(4, &edges);
    // Two games beat one heavier game; of the two perfect matchings 1-2,0-3 (9) beats
    // 0-1,2-3 (6).
    assert_eq!(mate, vec![Some(3), Some(2), Some(1), Some(0)]);
}
