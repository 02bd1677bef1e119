//! Why a game refuses what someone asked: one enum, each with a machine-readable code
//! (clients translate `err_<code>`), its HTTP status and its words in English (the
//! `error` text of the JSON, for programs and logs).

use axum::http::StatusCode;
use dama_core::Color;

/// A refusal of the game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "code", content = "arg", rename_all = "snake_case")]
pub enum Refusal {
    /// A spectator (or a stranger) tried to act as a player.
    NotAPlayer,
    /// It is the other side's turn.
    NotYourTurn(Color),
    /// The game has ended.
    GameOver,
    /// The game waits for its second player.
    NotStarted,
    /// The game is not being played (waiting, or over).
    NotBeingPlayed,
    /// A rematch or the next game of a series: the opponent has not opened it yet (its
    /// clock starts once both players are there).
    OpponentNotHere,
    /// Move text of over 200 characters.
    MoveTooLong,
    /// The move is not legal: the rule it breaks and the rules' words.
    IllegalMove(dama_core::illegal::Refused),
    /// The mover's time ran out before the move arrived (the game is over).
    TimeRanOut,
    /// Touch-move: the piece touched must be the one moved.
    MustMoveTouched(String),
    /// Touch-move: another piece was touched already.
    TouchedAnother(String),
    /// Both sides have moved: too late to abort.
    CannotAbort,
    /// Berserk: not allowed in this game, once gone already, or after one's first move.
    NoBerserk,
    /// A draw offer waits for an answer already.
    DrawOfferPending,
    /// This side offered a draw at this move already.
    DrawOfferedThisMove,
    /// No draw offer to accept or decline.
    NoDrawOffer,
    /// The engine could not judge a draw offer now.
    EngineBusy,
    /// No move to take back.
    NothingToTakeBack,
    /// Against the engine: no move of the player's own to take back.
    NoMoveOfYours,
    /// Against the engine: it is thinking.
    WaitForEngine,
    /// A takeback request waits for an answer already.
    TakebackPending,
    /// This side asked for a takeback at this move already.
    TakebackAskedThisMove,
    /// No takeback request to accept or decline.
    NoTakebackRequest,
    /// A rematch is asked for once the game is over.
    RematchTooEarly,
    /// The next game exists already (its id).
    NextGameExists(String),
    /// This side asked for a rematch already.
    RematchAsked,
    /// The game's seats are taken.
    NoFreeSeat,
    /// A friend game is joined through its invite link.
    InviteNeeded,
    /// A rated game needs an account.
    LogInForRated,
    /// A guest plays casual games only.
    GuestRated,
    /// One account at both seats of a rated game.
    RatedAgainstSelf,
    /// The players did not allow spectators' suggestions.
    SuggestionsOff,
    /// Players do not suggest moves.
    PlayersCannotSuggest,
    /// Suggestions come over the websocket (one vote per connection).
    SuggestOverSocket,
    /// The suggested move is not legal here (its text).
    NotLegalHere(String),
    /// Too many spectators suggested already.
    TooManySuggestions,
    /// Hints are for games against the engine.
    HintsAgainstEngineOnly,
    /// A hint is for the player to move.
    HintForPlayerToMove,
    /// A hint is being computed.
    HintBusy,
    /// Too many connections from one address to this game (the most allowed).
    TooManyConnections(u32),
    /// An empty chat line.
    ChatEmpty,
    /// A chat line over the limit (the most characters).
    ChatTooLong(usize),
    /// The game's chat is full.
    ChatFull,
    /// Too many chat lines in a short time.
    ChatTooFast,
    /// A moderator muted this account's chat.
    ChatMuted,
    /// One of the two players blocked the other: no chat between them.
    ChatBlocked,
    /// A game on one device has no chat.
    NoChatOnOneDevice,
    /// Spectators chat over the websocket.
    WatchToChat,
    /// Only moderators may do this.
    NotModerator,
    /// No chat line with this number.
    NoChatLine(i64),
}

impl Refusal {
    /// The machine-readable code (snake_case).
    pub fn code(&self) -> &'static str {
        use Refusal::*;
        match self {
            NotAPlayer => "not_a_player",
            NotYourTurn(_) => "not_your_turn",
            GameOver => "game_over",
            NotStarted => "not_started",
            NotBeingPlayed => "not_being_played",
            OpponentNotHere => "opponent_not_here",
            MoveTooLong => "move_too_long",
            IllegalMove(_) => "illegal_move",
            TimeRanOut => "time_ran_out",
            MustMoveTouched(_) => "must_move_touched",
            TouchedAnother(_) => "touched_another",
            CannotAbort => "cannot_abort",
            NoBerserk => "no_berserk",
            DrawOfferPending => "draw_offer_pending",
            DrawOfferedThisMove => "draw_offered_this_move",
            NoDrawOffer => "no_draw_offer",
            EngineBusy => "engine_busy",
            NothingToTakeBack => "nothing_to_take_back",
            NoMoveOfYours => "no_move_of_yours",
            WaitForEngine => "wait_for_engine",
            TakebackPending => "takeback_pending",
            TakebackAskedThisMove => "takeback_asked_this_move",
            NoTakebackRequest => "no_takeback_request",
            RematchTooEarly => "rematch_too_early",
            NextGameExists(_) => "next_game_exists",
            RematchAsked => "rematch_asked",
            NoFreeSeat => "no_free_seat",
            InviteNeeded => "invite_needed",
            LogInForRated => "log_in_for_rated",
            GuestRated => "guest_rated",
            RatedAgainstSelf => "rated_against_self",
            SuggestionsOff => "suggestions_off",
            PlayersCannotSuggest => "players_cannot_suggest",
            SuggestOverSocket => "suggest_over_socket",
            NotLegalHere(_) => "not_legal_here",
            TooManySuggestions => "too_many_suggestions",
            HintsAgainstEngineOnly => "hints_against_engine_only",
            HintForPlayerToMove => "hint_for_player_to_move",
            HintBusy => "hint_busy",
            TooManyConnections(_) => "too_many_connections",
            ChatEmpty => "chat_empty",
            ChatTooLong(_) => "chat_too_long",
            ChatFull => "chat_full",
            ChatTooFast => "chat_too_fast",
            ChatMuted => "chat_muted",
            ChatBlocked => "chat_blocked",
            NoChatOnOneDevice => "no_chat_on_one_device",
            WatchToChat => "watch_to_chat",
            NotModerator => "not_moderator",
            NoChatLine(_) => "no_chat_line",
        }
    }

    /// The HTTP status it is answered with.
    pub fn status(&self) -> StatusCode {
        use Refusal::*;
        match self {
            NotAPlayer | NotYourTurn(_) | MustMoveTouched(_) | InviteNeeded | LogInForRated | GuestRated
            | RatedAgainstSelf | SuggestionsOff | PlayersCannotSuggest | HintForPlayerToMove | ChatMuted
            | ChatBlocked | WatchToChat | NotModerator => StatusCode::FORBIDDEN,
            MoveTooLong | IllegalMove(_) | SuggestOverSocket | NotLegalHere(_) | ChatEmpty | ChatTooLong(_) => {
                StatusCode::BAD_REQUEST
            }
            EngineBusy | HintBusy | TooManyConnections(_) | ChatTooFast => StatusCode::TOO_MANY_REQUESTS,
            NoChatLine(_) => StatusCode::NOT_FOUND,
            _ => StatusCode::CONFLICT,
        }
    }

    /// Every refusal, with an example argument where it takes one (for tests and the
    /// translations' check).
    pub fn examples() -> Vec<Refusal> {
        use Refusal::*;
        vec![
            NotAPlayer,
            NotYourTurn(Color::White),
            GameOver,
            NotStarted,
            NotBeingPlayed,
            OpponentNotHere,
            MoveTooLong,
            IllegalMove(dama_core::illegal::Refused {
                why: dama_core::illegal::Illegal::CaptureCompulsory { example: "23x14".into() },
                words: "'11-16' is not a legal move here: a capture is compulsory: 23x14".into(),
            }),
            TimeRanOut,
            MustMoveTouched("9".into()),
            TouchedAnother("9".into()),
            CannotAbort,
            NoBerserk,
            DrawOfferPending,
            DrawOfferedThisMove,
            NoDrawOffer,
            EngineBusy,
            NothingToTakeBack,
            NoMoveOfYours,
            WaitForEngine,
            TakebackPending,
            TakebackAskedThisMove,
            NoTakebackRequest,
            RematchTooEarly,
            NextGameExists("0123456789ab".into()),
            RematchAsked,
            NoFreeSeat,
            InviteNeeded,
            LogInForRated,
            GuestRated,
            RatedAgainstSelf,
            SuggestionsOff,
            PlayersCannotSuggest,
            SuggestOverSocket,
            NotLegalHere("11-16".into()),
            TooManySuggestions,
            HintsAgainstEngineOnly,
            HintForPlayerToMove,
            HintBusy,
            TooManyConnections(16),
            ChatEmpty,
            ChatTooLong(140),
            ChatFull,
            ChatTooFast,
            ChatMuted,
            ChatBlocked,
            NoChatOnOneDevice,
            WatchToChat,
            NotModerator,
            NoChatLine(3),
        ]
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use Refusal::*;
        match self {
            NotAPlayer => f.write_str("only the players of this game can do that; spectators cannot move"),
            NotYourTurn(c) => write!(f, "it is {c}'s turn"),
            GameOver => f.write_str("the game is over"),
            NotStarted => f.write_str("the game has not started: waiting for an opponent"),
            NotBeingPlayed => f.write_str("the game is not being played"),
            OpponentNotHere => {
                f.write_str("your opponent has not opened this game yet; the clock starts when both players are here")
            }
            MoveTooLong => f.write_str("move text too long"),
            IllegalMove(r) => f.write_str(&r.words),
            TimeRanOut => f.write_str("time ran out before the move"),
            MustMoveTouched(t) | TouchedAnother(t) => {
                write!(f, "touch-move: you touched the piece on {t} and must move it")
            }
            CannotAbort => f.write_str("a game can be aborted only before both sides have moved"),
            NoBerserk => f.write_str("berserk is allowed only in an arena that allows it, before your first move"),
            DrawOfferPending => f.write_str("a draw offer is pending already"),
            DrawOfferedThisMove => f.write_str("you offered a draw at this move already; offer again after a move"),
            NoDrawOffer => f.write_str("there is no draw offer to answer"),
            EngineBusy => f.write_str("the engine is busy; offer again in a moment"),
            NothingToTakeBack => f.write_str("no move to take back"),
            NoMoveOfYours => f.write_str("no move of yours to take back"),
            WaitForEngine => f.write_str("wait for the engine's move"),
            TakebackPending => f.write_str("a takeback request is pending already"),
            TakebackAskedThisMove => f.write_str("you asked for a takeback at this move already"),
            NoTakebackRequest => f.write_str("there is no takeback request to answer"),
            RematchTooEarly => f.write_str("a rematch can be asked for once the game is over"),
            NextGameExists(id) => write!(f, "the next game is already there: {id}"),
            RematchAsked => f.write_str("you have asked for a rematch already"),
            NoFreeSeat => f.write_str("this game has no free seat"),
            InviteNeeded => f.write_str("this game is for a friend: open the invite link its creator shared"),
            LogInForRated => f.write_str("log in to play a rated game"),
            GuestRated => f.write_str("a guest plays casual games only: set a password to play rated games"),
            RatedAgainstSelf => f.write_str("you cannot play a rated game against yourself"),
            SuggestionsOff => f.write_str("the players did not allow suggestions in this game"),
            PlayersCannotSuggest => f.write_str("players cannot suggest moves; spectators can"),
            SuggestOverSocket => f.write_str("suggest over the websocket (each spectator counts once)"),
            NotLegalHere(m) => write!(f, "'{m}' is not a legal move here"),
            TooManySuggestions => f.write_str("too many suggestions"),
            HintsAgainstEngineOnly => f.write_str("hints are given in games against the engine only"),
            HintForPlayerToMove => f.write_str("a hint is for the player to move"),
            HintBusy => f.write_str("a hint is being computed already; wait for it"),
            TooManyConnections(n) => {
                write!(f, "too many connections to this game from your address ({n} at most)")
            }
            ChatEmpty => f.write_str("an empty chat line"),
            ChatTooLong(n) => write!(f, "a chat line has at most {n} characters"),
            ChatFull => f.write_str("this game's chat is full"),
            ChatTooFast => f.write_str("you are writing too fast; wait a moment"),
            ChatMuted => f.write_str("a moderator has muted your chat"),
            ChatBlocked => f.write_str("no chat between these players: one has blocked the other"),
            NoChatOnOneDevice => f.write_str("a game on one device has no chat"),
            WatchToChat => f.write_str("watch the game to chat with its spectators"),
            NotModerator => f.write_str("only a moderator can hide a chat line"),
            NoChatLine(n) => write!(f, "no chat line {n} in this game"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_its_own_code_words_and_status() {
        let all = Refusal::examples();
        let codes: std::collections::HashSet<_> = all.iter().map(Refusal::code).collect();
        assert_eq!(codes.len(), all.len(), "one code per refusal");
        for r in &all {
            assert!(r.code().bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{}", r.code());
            assert!(!r.to_string().is_empty());
            assert!(r.status().is_client_error(), "{}", r.code());
        }
    }
}
