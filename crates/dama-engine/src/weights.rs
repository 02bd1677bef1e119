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
/// short-kings: tuned by `dama tune` on 29800 positions (loss 0.05775).
pub const SHORT_KINGS: Weights = [100, 141, 8, 15, -3, 5, 25, -7, -1];
/// flying8: tuned by `dama tune` on 19194 positions (loss 0.09752).
pub const FLYING8: Weights = [100, 291, 13, 70, 24, -13, 29, -24, -4];
/// flying10: tuned by `dama tune` on 24312 positions (loss 0.09995).
pub const FLYING10: Weights = [100, 277, 2, 43, 9, -13, 29, -15, -5];
/// orthogonal: tuned by `dama tune` on 16463 positions (loss 0.10371).
pub const ORTHOGONAL: Weights = [100, 277, -3, 8, 4, 5, 71, -5, 7];
// END TUNED WEIGHTS
