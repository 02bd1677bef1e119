//! Evaluation weights per family, as written by `dama tune` (see `tune.rs`).
//! Regenerate with `cargo run --release -- tune --family <key> --write`.

use crate::eval::{Family, Weights};

/// The tuned weights of a family.
pub fn weights(f: Family) -> Weights {
    match f {
        Family::ShortKings => SHORT_KINGS,
        Family::Flying8 => FLYING8,
        Family::Flying10 => FLYING10,
        Family::Orthogonal => ORTHOGONAL,
    }
}

// BEGIN TUNED WEIGHTS
/// short-kings: starting values, not yet tuned.
pub const SHORT_KINGS: Weights = [100, 150, 3, 8, 5, 2, 30, 5, 5];
/// flying8: starting values, not yet tuned.
pub const FLYING8: Weights = [100, 300, 3, 8, 5, 2, 30, 5, 5];
/// flying10: starting values, not yet tuned.
pub const FLYING10: Weights = [100, 300, 3, 8, 5, 2, 30, 5, 5];
/// orthogonal: starting values, not yet tuned.
pub const ORTHOGONAL: Weights = [100, 250, 3, 8, 5, 2, 30, 5, 5];
// END TUNED WEIGHTS
