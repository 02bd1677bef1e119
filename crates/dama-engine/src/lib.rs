//! dama-engine: one search that plays every variant, from beginner to full strength.
//!
//! - [`search`]: iterative deepening PVS with a transposition table ([`tt`]).
//! - [`eval`]: a learned evaluation of sparse pattern features, weights per family
//!   (trained by the `dama-train` crate, which the engine does not depend on).
//! - [`book`]: opening books, chosen from with variety at the top levels.
//! - [`egdb`]: endgame databases built by retrograde analysis.
//! - [`time`]: how long to think under each clock; [`level`]: levels 1-10;
//!   [`persona`]: a random mover and a beginner to measure the lowest levels against.
//! - [`player`]: a run-time-variant engine for adapters; [`hub`]: the Hub protocol.
//!
//! The engine never prints: adapters report what it finds.

pub mod arbiter;
pub mod book;
pub mod egdb;
pub mod eval;
pub mod hub;
pub mod level;
pub mod persona;
pub mod player;
pub mod puzzle;
pub mod review;
pub mod search;
pub mod time;
pub mod tt;
