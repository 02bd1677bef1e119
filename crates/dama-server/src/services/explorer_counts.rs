//! The opening explorer's counting: the first [`PLIES`] plies of a game by position
//! and move, and the queue that writes finished games' counts in groups.

use std::collections::HashMap;

use dama_core::any::AnyGame;
use dama_core::game::DrawRules;
use dama_core::{Color, Variant};

use crate::store::{CountBatch, MoveCount, Store};

/// Plies of each game counted.
pub const PLIES: usize = 30;

/// Counts of a position's moves, by (position key, move).
pub type Counts = HashMap<(i64, String), MoveCount>;

/// Adds the first [`PLIES`] plies of a game (won by `winner`) to `into`.
pub fn count_game(game: &AnyGame, winner: Option<Color>, into: &mut Counts) {
    for (key, mv) in game.opening(PLIES) {
        let c = into
            .entry((key as i64, mv.clone()))
            .or_insert_with(|| MoveCount { mv: mv.clone(), ..MoveCount::default() });
        c.games += 1;
        match winner {
            Some(Color::White) => c.white += 1,
            Some(Color::Black) => c.black += 1,
            None => c.draws += 1,
        }
    }
}

/// The counts of a finished game given by its moves in long notation.
fn count_moves(variant: Variant, start_fen: &str, moves: &[String], winner: Option<Color>) -> Counts {
    let mut counts = Counts::new();
    let Ok(mut game) = AnyGame::new(variant, Some(start_fen), DrawRules::default()) else { return counts };
    for text in moves.iter().take(PLIES) {
        if game.play_recorded(text).is_err() {
            break;
        }
    }
    count_game(&game, winner, &mut counts);
    counts
}

/// The finished games waiting to be counted, written by one task per server in
/// groups: a burst of games ending together (a tournament round, a load test) becomes
/// a few transactions, not one per game competing for the same rows and connections.
#[derive(Clone)]
pub struct Queue(tokio::sync::mpsc::UnboundedSender<CountBatch>);

/// How long the writer gathers finished games before writing them.
const GATHER: std::time::Duration = std::time::Duration::from_secs(2);

impl Queue {
    /// A queue and its writer task, over `store`.
    pub fn start(store: Store) -> Queue {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<CountBatch>();
        tokio::spawn(async move {
            while let Some(first) = rx.recv().await {
                tokio::time::sleep(GATHER).await;
                let mut batch = vec![first];
                while let Ok(b) = rx.try_recv() {
                    batch.push(b);
                }
                if let Err(e) = store.explorer_add(&batch).await {
                    tracing::warn!(games = batch.len(), error = %crate::error::Chain(&e), "opening explorer: counting games");
                }
            }
        });
        Queue(tx)
    }

    /// Counts a game that has just finished (once, whichever node does it): `band` is
    /// the players' average rating / 100 for a rated game, -1 otherwise.
    pub fn finished(
        &self,
        id: &str,
        variant: Variant,
        start_fen: &str,
        moves: &[String],
        winner: Option<Color>,
        band: i64,
    ) {
        if moves.is_empty() {
            return;
        }
        let counts = count_moves(variant, start_fen, moves, winner);
        let rows = counts.into_iter().map(|((k, _), c)| (k, c)).collect();
        let batch = CountBatch {
            name: format!("game:{id}"),
            variant: variant.key().to_string(),
            source: "players".into(),
            band,
            rows,
        };
        let _ = self.0.send(batch);
    }
}
