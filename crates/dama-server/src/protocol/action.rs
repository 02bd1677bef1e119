//! What a player (or a spectator) asks a game to do.

use serde::{Deserialize, Serialize};

/// A player's action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play a move (`11-15`, `c3:e5`, `h6:f8:b4:e1`).
    Move {
        /// Move text.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Resign.
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Accept the opponent's offer.
    AcceptDraw,
    /// Decline it.
    DeclineDraw,
    /// Abort before both sides have moved.
    Abort,
    /// Berserk (an arena that allows it, before one's first move): half the clock, no
    /// increment, a bonus point for a win.
    Berserk,
    /// A spectator suggests a move to the player to move.
    Suggest {
        /// Move text.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Touch-move: select the piece on a square.
    Touch {
        /// Square name.
        square: String,
    },
    /// Ask to take back (against the engine or on one device: done at once).
    Takeback,
    /// Accept the opponent's takeback request.
    AcceptTakeback,
    /// Decline it.
    DeclineTakeback,
    /// Ask for a rematch once the game is over (both must ask in online games).
    Rematch,
    /// Write a line in the game's chat (players in theirs, spectators in theirs).
    Chat {
        /// The line.
        text: String,
    },
    /// A moderator hides chat line `n` (refused to anyone else).
    HideChat {
        /// The line's number.
        n: i64,
    },
}
