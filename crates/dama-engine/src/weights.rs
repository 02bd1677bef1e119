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
/// short-kings: tuned by `dama tune` on 31917 positions (loss 0.03375).
pub const SHORT_KINGS: Weights = [100, 137, 8, 22, -11, 8, 10, -10, -4, 9];
/// flying8: tuned by `dama tune` on 24089 positions (loss 0.08804).
pub const FLYING8: Weights = [100, 257, 8, 99, 29, -2, 25, -21, -6, 6];
/// flying10: tuned by `dama tune` on 29507 positions (loss 0.08994).
pub const FLYING10: Weights = [100, 235, 3, 56, -13, -1, 24, -10, -5, -5];
/// orthogonal: tuned by `dama tune` on 17009 positions (loss 0.09679).
pub const ORTHOGONAL: Weights = [100, 292, -3, 8, 0, 3, 91, -9, 6, 20];
// END TUNED WEIGHTS
