//! Playing levels 1-10: lower levels search shallower and choose among near-best moves
//! with controlled randomness, so they play like people, not like dice.

use rand::Rng;

/// How a level searches and chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level, 1 (beginner) to 10 (full strength).
    pub number: u8,
    /// Deepest search, if limited.
    pub depth: Option<u32>,
    /// Most nodes searched for a move, if limited.
    pub nodes: Option<u64>,
    /// Moves whose score is within this many hundredths of a man of the best may be
    /// chosen, the better ones more often.
    pub noise: i32,
    /// How many moves in a thousand are chosen within `noise` (the others are the best
    /// found).
    pub loose: u16,
}

impl Level {
    /// Level `n` (clamped to 1-10).
    pub fn new(n: u8) -> Level {
        let n = n.clamp(1, 10);
        let (depth, nodes, noise, loose) = match n {
            1 => (Some(1), None, 300, 1000),
            2 => (Some(1), None, 200, 1000),
            3 => (Some(2), None, 150, 1000),
            4 => (Some(2), None, 100, 1000),
            5 => (Some(3), None, 70, 1000),
            6 => (Some(4), None, 50, 1000),
            7 => (Some(5), None, 30, 1000),
            8 => (Some(6), None, 20, 500),
            9 => (Some(10), None, 10, 300),
            _ => (None, None, 0, 0),
        };
        Level { number: n, depth, nodes, noise, loose }
    }

    /// Full strength.
    pub fn full() -> Level {
        Level::new(10)
    }
}

/// Picks a move among scored moves: within `noise` of the best, weighted so that a
/// move `noise` behind is chosen a quarter as often as the best.
pub fn pick<T: Copy>(scored: &[(T, i32)], noise: i32, rng: &mut impl Rng) -> Option<T> {
    let best = scored.iter().map(|s| s.1).max()?;
    if noise <= 0 {
        return scored.iter().find(|s| s.1 == best).map(|s| s.0);
    }
    let near: Vec<(T, f64)> = scored
        .iter()
        .filter(|s| best - s.1 <= noise)
        .map(|s| (s.0, 4f64.powf(-((best - s.1) as f64) / noise as f64)))
        .collect();
    let total: f64 = near.iter().map(|n| n.1).sum();
    let mut x = rng.gen_range(0.0..total);
    for (m, w) in &near {
        if x < *w {
            return Some(*m);
        }
        x -= w;
    }
    near.last().map(|n| n.0)
}
