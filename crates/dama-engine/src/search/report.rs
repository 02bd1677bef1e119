//! What a search reports: each finished iteration ([`Info`]), its result
//! ([`Outcome`]), and an analysis's lines ([`Line`], [`Analysis`]).

use std::time::Duration;

use dama_core::Move;

/// What one finished iteration found.
#[derive(Clone, Debug)]
pub struct Info<B> {
    /// Depth of the iteration.
    pub depth: u32,
    /// Score for the side to move, hundredths of a man (or a mate score).
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move<B>>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome<B> {
    /// Best move (`None` when there is no legal move).
    pub best: Option<Move<B>>,
    /// Its score.
    pub score: i32,
    /// Depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move<B>>,
}

/// One line of an analysis: a root move's score and its principal variation.
#[derive(Clone, Debug)]
pub struct Line<B> {
    /// Score for the side to move, hundredths of a man (or a mate or table score).
    pub score: i32,
    /// The line, its root move first.
    pub pv: Vec<Move<B>>,
}

/// What an analysis found at one finished depth.
#[derive(Clone, Debug)]
pub struct Analysis<B> {
    /// The depth.
    pub depth: u32,
    /// The best lines, best first.
    pub lines: Vec<Line<B>>,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}
