//! Deterministic random events, shared by the tests and the benchmark: players with
//! random ratings, rounds paired by [`crate::swiss::pair`] and played with random results.

use crate::{Colour, Entrant, PairingError, Played, PlayerId, RoundPairings};

/// A small deterministic generator (SplitMix64); not for anything but simulations.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// `n` players with ids `1..=n`, random ratings (1000..2600, ties possible), no history.
pub fn entrants(n: usize, rng: &mut Rng) -> Vec<Entrant> {
    (1..=n as PlayerId)
        .map(|id| Entrant { id, rating: 1000 + rng.below(1600) as i32, history: Vec::new(), had_bye: false })
        .collect()
}

/// Records a round: each game's result from `result(white, black)` as White's doubled
/// points (2, 1 or 0); the bye scores 2 and is marked.
pub fn record(entrants: &mut [Entrant], round: &RoundPairings, mut result: impl FnMut(PlayerId, PlayerId) -> u32) {
    let index = |entrants: &[Entrant], id: PlayerId| {
        entrants.iter().position(|e| e.id == id).expect("paired player is an entrant")
    };
    for g in &round.pairings {
        let w = result(g.white, g.black).min(2);
        let (wi, bi) = (index(entrants, g.white), index(entrants, g.black));
        entrants[wi].history.push(Played {
            opponent: Some(g.black),
            colour: Some(Colour::White),
            points2: w,
            played: true,
        });
        entrants[bi].history.push(Played {
            opponent: Some(g.white),
            colour: Some(Colour::Black),
            points2: 2 - w,
            played: true,
        });
    }
    if let Some(b) = round.bye {
        let bi = index(entrants, b);
        entrants[bi].history.push(Played { opponent: None, colour: None, points2: 2, played: false });
        entrants[bi].had_bye = true;
    }
}

/// A random result, White's doubled points: about 40% white wins, 20% draws, 40% losses.
pub fn random_result(rng: &mut Rng) -> u32 {
    match rng.below(5) {
        0 | 1 => 2,
        2 => 1,
        _ => 0,
    }
}

/// An event of `n` players whose first `played` rounds (of `total_rounds`) were paired by
/// the Swiss pairing and played with random results.
pub fn event(n: usize, played: u32, total_rounds: u32, seed: u64) -> Result<Vec<Entrant>, PairingError> {
    let mut rng = Rng::new(seed);
    let mut es = entrants(n, &mut rng);
    for round in 1..=played {
        let pairing = crate::swiss::pair(&es, round, total_rounds)?;
        record(&mut es, &pairing, |_, _| random_result(&mut rng));
    }
    Ok(es)
}
