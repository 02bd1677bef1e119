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
    /// Moves whose score is within this many hundredths of a man of the best may be
    /// chosen, the better ones more often.
    pub noise: i32,
}

impl Level {
    /// Level `n` (clamped to 1-10).
    pub fn new(n: u8) -> Level {
        let n = n.clamp(1, 10);
        let (depth, noise) = match n {
            1 => (Some(1), 250),
            2 => (Some(2), 150),
            3 => (Some(2), 90),
            4 => (Some(3), 60),
            5 => (Some(4), 40),
            6 => (Some(5), 25),
            7 => (Some(6), 15),
            8 => (Some(8), 8),
            9 => (Some(12), 0),
            _ => (None, 0),
        };
        Level { number: n, depth, noise }
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
