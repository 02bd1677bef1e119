//! Where the news of games goes out ([`News`]); who listens is in [`crate::news`].

use dama_core::{Color, Variant};
use tokio::sync::broadcast;

use crate::protocol::Player;

/// What happened to a game.
#[derive(Clone, Debug)]
pub enum GameNews {
    /// Both seats are taken: the game starts.
    Started {
        /// The game.
        id: String,
        /// Its variant.
        variant: Variant,
        /// The accounts at the seats (White, Black).
        players: [Option<Player>; 2],
    },
    /// The game is over (and rated, if it is rated).
    Over {
        /// The game.
        id: String,
        /// Its variant.
        variant: Variant,
        /// Its start.
        start_fen: String,
        /// Its moves, long notation.
        moves: Vec<String>,
        /// The winner (none for a draw or a game called off).
        winner: Option<Color>,
        /// Why it ended (none for an old row whose reason is unknown).
        reason: Option<dama_core::game::EndReason>,
        /// False for a game called off (aborted, abandoned unplayed): no result.
        played: bool,
        /// The rating band of a rated game (its players' average before it / 100),
        /// or -1.
        band: i64,
        /// The accounts at the seats (White, Black).
        players: [Option<Player>; 2],
        /// A correspondence game (its players are told it is over).
        correspondence: bool,
    },
    /// A move was played in a correspondence game (its news only: the players of
    /// faster games are at the board).
    Moved {
        /// The game.
        id: String,
        /// The side to move now.
        to_move: Color,
        /// The accounts at the seats (White, Black).
        players: [Option<Player>; 2],
        /// The time the side to move has for its move, ms.
        left_ms: Option<u64>,
    },
}

/// Where the news goes out.
pub struct News(broadcast::Sender<GameNews>);

impl Default for News {
    fn default() -> Self {
        News(broadcast::channel(8192).0)
    }
}

impl News {
    /// Tells every listener.
    pub fn publish(&self, news: GameNews) {
        let _ = self.0.send(news);
    }

    /// A new listener.
    pub fn subscribe(&self) -> broadcast::Receiver<GameNews> {
        self.0.subscribe()
    }
}
