//! Playing levels 1-10: lower levels search shallower and choose among near-best moves
//! with controlled randomness, so they play like people, not like dice; levels 8 and 9
//! play their best move within a node budget. Each level has an approximate rating
//! ([`RATINGS`]).

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
        // Measured in docs/engine.md ("Levels"): each step is about 150-300 Elo.
        let (depth, nodes, noise, loose) = match n {
            1 => (Some(1), None, 300, 700),
            2 => (Some(2), None, 160, 1000),
            3 => (Some(2), None, 95, 1000),
            4 => (Some(3), None, 75, 1000),
            5 => (Some(4), None, 55, 1000),
            6 => (Some(5), None, 32, 1000),
            7 => (Some(6), None, 25, 300),
            8 => (None, Some(12_000), 0, 0),
            9 => (None, Some(60_000), 0, 0),
            _ => (None, None, 0, 0),
        };
        Level { number: n, depth, nodes, noise, loose }
    }

    /// Full strength.
    pub fn full() -> Level {
        Level::new(10)
    }

    /// The level's approximate rating: [`RATINGS`].
    pub fn rating(&self) -> u32 {
        RATINGS[usize::from(self.number.clamp(1, 10)) - 1]
    }
}

/// Approximate ratings of levels 1-10, measured in International draughts
/// (docs/engine.md, "Levels"): each level against the next one up, 100 games a step or
/// more ([`MEASURED_STEPS`] has each step's games) at 300,000 nodes a move, anchored by
/// level 10's result against Scan 2.0 at 0.1 s a move, Scan placed at 2600. Each
/// rating is the one above less the measured step, rounded to 50. Measured in December
/// 2026 on the levels of [`Level::new`]; measure again (docs/engine.md has the
/// commands) whenever they change.
pub const RATINGS: [u32; 10] = [500, 700, 1000, 1250, 1550, 1750, 2000, 2200, 2400, 2550];

/// The measured steps behind [`RATINGS`]: level n (1-9) against level n + 1, the
/// lower level's wins, draws and losses in 100 games (300 for steps 1-2 to 4-5,
/// measured on two sets of openings) (docs/engine.md).
pub const MEASURED_STEPS: [(u32, u32, u32); 9] = [
    (68, 14, 218),
    (40, 12, 248),
    (39, 44, 217),
    (22, 47, 231),
    (12, 21, 67),
    (7, 26, 67),
    (5, 34, 61),
    (3, 47, 50),
    (0, 56, 44),
];

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Elo of a score `s` (0-1) by the logistic curve.
    fn elo(s: f64) -> f64 {
        -400.0 * (1.0 / s - 1.0).log10()
    }

    #[test]
    fn ratings_rise_with_the_level_by_the_measured_steps() {
        // Level 10 is Scan 2.0 (placed at 2600) less level 10's measured deficit, 42
        // (200 games at 0.1 s a move), rounded to 50.
        assert_eq!(Level::full().rating(), 2550);
        for n in 1..10u8 {
            let (w, d, l) = MEASURED_STEPS[usize::from(n) - 1];
            let games = f64::from(w + d + l);
            let step = -elo((f64::from(w) + f64::from(d) / 2.0) / games);
            let (low, high) = (Level::new(n).rating(), Level::new(n + 1).rating());
            assert!(low < high, "level {n} is rated {low}, level {} {high}", n + 1);
            // Each rating is the next one up less the measured step, rounded to 50.
            assert_eq!(high - low, ((step / 50.0).round() * 50.0) as u32, "step {n}: {step:.0}");
        }
    }

    #[test]
    fn each_level_is_its_number_and_level_10_is_unlimited() {
        for n in 1..=10 {
            assert_eq!(Level::new(n).number, n);
        }
        let full = Level::full();
        assert_eq!((full.depth, full.nodes, full.noise), (None, None, 0));
        assert_eq!(Level::new(0), Level::new(1));
        assert_eq!(Level::new(11), Level::full());
    }
}
