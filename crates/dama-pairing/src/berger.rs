//! Round-robin schedules by the Berger tables (FIDE Handbook C.05 Annex 1).
//!
//! With `m = n - 1` (n even), the players other than `n` are paired in round `r` so that
//! their numbers sum to `r + 1` modulo `m` (counting `m` as 0); the one player left, whose
//! double is `r + 1` modulo `m`, meets `n`. Board 1 is the game with `n`, who has Black in
//! odd rounds and White in even rounds; on board `k` the player `k - 1` places after `n`'s
//! opponent has White against the player `k - 1` places before.

/// The rounds of a round robin for `n` players, with 1-based pairing numbers, each game
/// `(white, black)`, boards in order. For odd `n` the table for `n + 1` is returned: the
/// player paired with `n + 1` has the bye that round. Fewer than 2 players: no rounds.
pub fn table(n: usize) -> Vec<Vec<(usize, usize)>> {
    if n < 2 {
        return Vec::new();
    }
    let even = n + n % 2;
    let m = even - 1;
    // Maps any integer onto 1..=m.
    let wrap = |x: isize| -> usize { (x - 1).rem_euclid(m as isize) as usize + 1 };
    (1..=m)
        .map(|round| {
            // The player whose double is round + 1 (mod m) meets `even`.
            let opponent = (1..=m).find(|&i| (2 * i) % m == (round + 1) % m).expect("m is odd, so 2 is invertible");
            let mut games = Vec::with_capacity(even / 2);
            games.push(if round % 2 == 1 { (opponent, even) } else { (even, opponent) });
            for k in 1..even / 2 {
                let white = wrap(opponent as isize + k as isize);
                let black = wrap(opponent as isize - k as isize);
                games.push((white, black));
            }
            games
        })
        .collect()
}
