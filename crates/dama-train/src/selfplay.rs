//! Self-play games for training data: the engine plays both sides at a fixed number of
//! nodes a move (so a game depends only on its number and seed, never on the machine's
//! load), from a start a few random moves deep; the quiet positions are kept with the
//! search's score, and the game's result is filled in at the end.

use std::sync::atomic::AtomicBool;

use dama_core::game::{DrawRules, Game, Status};
use dama_core::movegen::{has_capture, legal_moves};
use dama_core::{Color, Position, Rules};
use dama_engine::search::{is_mate, Limits, Searcher};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::dataset::{record_of, Record};

/// How games are played.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies from the start: at least and at most.
    pub random_plies: (usize, usize),
    /// A game longer than this is a draw.
    pub max_plies: usize,
    /// A side that its search and its opponent's both see this far behind (hundredths
    /// of a man) for [`RESIGN_PLIES`] plies loses.
    pub resign: i32,
    /// Base seed.
    pub seed: u64,
}

/// Plies of agreement before a game is adjudicated.
pub const RESIGN_PLIES: usize = 6;

impl Default for Config {
    fn default() -> Self {
        Config { nodes: 5_000, random_plies: (6, 10), max_plies: 300, resign: 600, seed: 1 }
    }
}

/// One game: its kept positions (result filled in) and how it ended.
pub struct Played {
    /// The quiet positions after the random opening.
    pub records: Vec<Record>,
    /// The winner, or None for a draw.
    pub winner: Option<Color>,
    /// Plies played.
    pub plies: usize,
}

/// Plays game number `index` with `searcher` (whose table is cleared first, so the
/// game does not depend on earlier ones).
pub fn play<R: Rules>(s: &mut Searcher<R>, cfg: &Config, index: u32) -> Played {
    let mut rng = StdRng::seed_from_u64(cfg.seed ^ (u64::from(index) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    s.clear();
    let stop = AtomicBool::new(false);
    // A random start, a few plies deep, that still has a game in it.
    let mut start;
    loop {
        start = Position::<R>::start();
        let n = rng.gen_range(cfg.random_plies.0..=cfg.random_plies.1);
        for _ in 0..n {
            let l = legal_moves(&start);
            if l.is_empty() {
                break;
            }
            start = start.play(&l.as_slice()[rng.gen_range(0..l.len())]);
        }
        if !legal_moves(&start).is_empty() {
            break;
        }
    }
    let mut game = Game::from_position(start, DrawRules::official(R::VARIANT));
    let mut records = Vec::new();
    let mut streak: (Option<Color>, usize) = (None, 0);
    let winner = loop {
        match game.status() {
            Status::Over(r) => break r.winner,
            Status::NeedsAdjudication => break None,
            Status::Ongoing => {}
        }
        if game.plies().len() >= cfg.max_plies {
            break None;
        }
        let pos = *game.position();
        let history: Vec<u64> = game.plies().iter().map(|p| p.before.hash()).collect();
        s.root_count = game.plies_since_material_change();
        let out = s.think(&pos, &history, Limits { nodes: Some(cfg.nodes), ..Limits::default() }, &stop, &mut |_| {});
        let Some(mv) = out.best else { break Some(!pos.side()) };
        if !has_capture(&pos) && out.depth > 0 && !is_mate(out.score) {
            records.push(record_of(&pos, index, out.score, game.plies().len()));
        }
        // Adjudication: both sides agree one of them is far behind.
        let behind = if out.score <= -cfg.resign {
            Some(pos.side())
        } else if out.score >= cfg.resign {
            Some(!pos.side())
        } else {
            None
        };
        streak = match behind {
            Some(c) if streak.0 == Some(c) => (Some(c), streak.1 + 1),
            Some(c) => (Some(c), 1),
            None => (None, 0),
        };
        if streak.1 >= RESIGN_PLIES {
            break streak.0.map(|c| !c);
        }
        if game.play(&mv).is_err() {
            break None;
        }
    };
    let result = match winner {
        Some(Color::White) => 2,
        Some(Color::Black) => 0,
        None => 1,
    };
    for r in &mut records {
        r.result = result;
    }
    Played { records, winner, plies: game.plies().len() }
}
