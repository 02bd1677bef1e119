//! Search: iterative deepening, principal variation search with aspiration windows,
//! transposition table, killer and history move ordering, forced captures searched to
//! the end (no capture sequence is cut in half), a look one move further at the
//! horizon when the opponent threatens a capture, exchange offers tried at a quiet
//! horizon without kings, ProbCut, late move reductions, draws by
//! repetition and by the game's material rules inside the search, and more threads
//! sharing the table (Lazy SMP).
//!
//! The searcher is split by what each part does: [`Searcher`]'s state here, the
//! iterative deepening that drives it (`deepen`), the alpha-beta core with its
//! quiescence (`alphabeta`), move ordering (`ordering`), the multi-line analysis
//! (`analysis`), when to stop and what is reported (`limits`, `report`), scores and
//! their meaning (`score`), and the arbiter's adjudication (`adjudicate`).

use std::sync::Arc;
use std::time::Instant;

use dama_core::game::DrawRules;
use dama_core::{Move, Rules, BB};

use crate::egdb::{self, Egdb};
use crate::eval::{EvalKind, Evaluator};
use crate::tt::Tt;

mod adjudicate;
mod alphabeta;
mod analysis;
mod deepen;
mod limits;
mod ordering;
mod report;
mod score;

pub use adjudicate::adjudicate;
pub use limits::{Limits, StopEither};
pub use report::{Analysis, Info, Line, Outcome};
pub use score::{is_mate, moves_to_end, plies_to_end, score_text, DB_WIN, INF, MATE};

use ordering::HISTORY_ONE;

/// Deepest ply of a search path.
const MAX_PLY: usize = 128;

/// A search engine for rules `R` with its tables.
pub struct Searcher<R: Rules> {
    tt: Arc<Tt>,
    /// Search threads (1: this one only).
    pub threads: usize,
    /// The evaluation.
    pub eval: Evaluator<R>,
    /// Draw rules applied inside the search (material draws).
    pub rules: DrawRules,
    /// Endgame tables probed inside the search (those installed when it was made).
    pub egdb: Option<Arc<Egdb<R>>>,
    /// Plies since the material last changed at the root of the next search (the
    /// game's `plies_since_material_change`): where the count of an ending against a
    /// lone king stands, so that a win the tables know but the count would not let
    /// the strong side finish is scored a draw.
    pub root_count: u32,
    /// Plies since the material last changed, at each ply of the current path.
    counts: [u32; MAX_PLY],
    /// Plies since the last move no later position can undo (a capture, or a man's
    /// step forward), at each ply of the current path (`u32::MAX` at the root: the
    /// game's moves before it are not known).
    reversible: [u32; MAX_PLY],
    history: Vec<i32>,
    killers: [[Option<Move<BB<R>>>; 2]; MAX_PLY],
    path: Vec<u64>,
    nodes: u64,
    start: Instant,
    limits: Limits,
    aborted: bool,
    /// The best root move of the iteration under way, once one has been fully searched.
    root_best: Option<(Move<BB<R>>, i32)>,
    /// Root moves left out of the search (the lines an analysis has already found).
    excluded: Vec<Move<BB<R>>>,
    /// Inside ProbCut's shallow search (which does not start another).
    in_probcut: bool,
}

impl<R: Rules> Searcher<R> {
    /// A searcher with a transposition table of `tt_mb` megabytes and an evaluation.
    pub fn new(tt_mb: usize, eval: EvalKind) -> Self {
        Self::with_table(Arc::new(Tt::new(tt_mb)), Evaluator::new(eval))
    }

    /// A searcher over a shared table (helper threads).
    fn with_table(tt: Arc<Tt>, eval: Evaluator<R>) -> Self {
        Searcher {
            tt,
            threads: 1,
            eval,
            rules: DrawRules::official(R::VARIANT),
            egdb: egdb::installed::<R>(),
            root_count: 0,
            counts: [0; MAX_PLY],
            reversible: [u32::MAX; MAX_PLY],
            history: vec![HISTORY_ONE / 2; 128 * 128],
            killers: [[None; 2]; MAX_PLY],
            path: Vec::with_capacity(512),
            nodes: 0,
            start: Instant::now(),
            limits: Limits::default(),
            aborted: false,
            root_best: None,
            excluded: Vec::new(),
            in_probcut: false,
        }
    }

    /// Forgets what earlier searches learned (for a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = HISTORY_ONE / 2);
        self.killers = [[None; 2]; MAX_PLY];
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}
