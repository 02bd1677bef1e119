//! dama-engine: one search that plays every variant, from beginner to full strength.
//!
//! - [`search`]: iterative deepening PVS with a transposition table ([`tt`]).
//! - [`eval`]: features and weights per variant family ([`weights`], tuned by `tune`).
//! - [`time`]: how long to think under each clock; [`level`]: levels 1-10.
//! - [`player`]: a run-time-variant engine for adapters; [`hub`]: the Hub protocol.
//!
//! The engine never prints: adapters report what it finds.

pub mod eval;
pub mod hub;
pub mod level;
pub mod player;
pub mod search;
pub mod time;
pub mod tt;
pub mod weights;
