//! Why a game ends: the rules' reasons (no move, a count, repetition), the players'
//! (agreement, resignation), the clock's and the arbiter's, and a platform's (a game
//! called off, abandoned). Each has a code for clients to word in their language, and
//! is stored as that code with its argument.

use core::fmt;

use crate::color::Color;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The loser had no legal move (blocked).
    NoMoves,
    /// The loser had no pieces left.
    NoPieces,
    /// The same position occurred this many times.
    Repetition(u8),
    /// No capture and no crowning for this many plies.
    NoProgress(u32),
    /// The move cap was reached.
    MoveCap(u32),
    /// Only kings moved, without capture, for this many plies.
    KingsOnly(u32),
    /// FMJD endgame against a lone king not won within this many moves each.
    LoneKingEndgame(u32),
    /// Three kings or more could not catch the lone king within this many moves.
    ManyKingsVsKing(u32),
    /// One king against one king.
    KingVsKing,
    /// Turkish: several pieces against a lone man.
    LoneMan,
    /// Turkish: one piece each.
    OnePieceEach,
    /// Both players agreed.
    Agreement,
    /// A player resigned.
    Resignation,
    /// A player ran out of time.
    Time,
    /// An arbiter (the engine) decided.
    Adjudication,
    /// Called off before both sides moved, without a result.
    Aborted,
    /// Called off because this side made no first move in time, without a result.
    NoFirstMove(Color),
    /// Left unplayed without a clock, without a result.
    Abandoned,
    /// Won because the other side left the game (a game without a clock).
    Abandonment,
}

impl EndReason {
    /// Ends without a result: the game is called off, nobody wins and it is no draw
    /// (PDN's `*`).
    pub fn is_void(&self) -> bool {
        matches!(self, EndReason::Aborted | EndReason::NoFirstMove(_) | EndReason::Abandoned)
    }

    /// The reason's name, for clients to word in their language: `time`,
    /// `repetition`, `no_first_move`, ...
    pub fn code(&self) -> &'static str {
        match self {
            EndReason::NoMoves => "no_moves",
            EndReason::NoPieces => "no_pieces",
            EndReason::Repetition(_) => "repetition",
            EndReason::NoProgress(_) => "no_progress",
            EndReason::MoveCap(_) => "move_cap",
            EndReason::KingsOnly(_) => "kings_only",
            EndReason::LoneKingEndgame(_) => "lone_king",
            EndReason::ManyKingsVsKing(_) => "many_kings",
            EndReason::KingVsKing => "king_vs_king",
            EndReason::LoneMan => "lone_man",
            EndReason::OnePieceEach => "one_each",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::Time => "time",
            EndReason::Adjudication => "adjudication",
            EndReason::Aborted => "aborted",
            EndReason::NoFirstMove(_) => "no_first_move",
            EndReason::Abandoned => "abandoned",
            EndReason::Abandonment => "abandonment",
        }
    }

    /// The number the reason's words say, if any: moves (each side's, for the counts
    /// kept in plies) or how often a position occurred.
    pub fn number(&self) -> Option<u32> {
        match *self {
            EndReason::Repetition(n) => Some(u32::from(n)),
            EndReason::NoProgress(p) | EndReason::KingsOnly(p) => Some(p / 2),
            EndReason::MoveCap(p) | EndReason::LoneKingEndgame(p) | EndReason::ManyKingsVsKing(p) => Some(p),
            _ => None,
        }
    }

    /// The side the reason names, if any.
    pub fn side(&self) -> Option<Color> {
        match *self {
            EndReason::NoFirstMove(c) => Some(c),
            _ => None,
        }
    }

    /// The reason as stored: its code, with its argument after a colon where it has
    /// one (`repetition:3`, `no_progress:80`, `no_first_move:white`).
    pub fn stored(&self) -> String {
        let arg = match *self {
            EndReason::Repetition(n) => Some(n.to_string()),
            EndReason::NoProgress(p)
            | EndReason::MoveCap(p)
            | EndReason::KingsOnly(p)
            | EndReason::LoneKingEndgame(p)
            | EndReason::ManyKingsVsKing(p) => Some(p.to_string()),
            EndReason::NoFirstMove(c) => Some(c.to_string()),
            _ => None,
        };
        match arg {
            Some(a) => format!("{}:{a}", self.code()),
            None => self.code().to_string(),
        }
    }

    /// Reads [`EndReason::stored`] back.
    pub fn from_stored(s: &str) -> Option<EndReason> {
        let (code, arg) = match s.split_once(':') {
            Some((c, a)) => (c, Some(a)),
            None => (s, None),
        };
        let num = || arg.and_then(|a| a.parse::<u32>().ok());
        Some(match (code, arg) {
            ("no_moves", None) => EndReason::NoMoves,
            ("no_pieces", None) => EndReason::NoPieces,
            ("repetition", Some(a)) => EndReason::Repetition(a.parse().ok()?),
            ("no_progress", Some(_)) => EndReason::NoProgress(num()?),
            ("move_cap", Some(_)) => EndReason::MoveCap(num()?),
            ("kings_only", Some(_)) => EndReason::KingsOnly(num()?),
            ("lone_king", Some(_)) => EndReason::LoneKingEndgame(num()?),
            ("many_kings", Some(_)) => EndReason::ManyKingsVsKing(num()?),
            ("king_vs_king", None) => EndReason::KingVsKing,
            ("lone_man", None) => EndReason::LoneMan,
            ("one_each", None) => EndReason::OnePieceEach,
            ("agreement", None) => EndReason::Agreement,
            ("resignation", None) => EndReason::Resignation,
            ("time", None) => EndReason::Time,
            ("adjudication", None) => EndReason::Adjudication,
            ("aborted", None) => EndReason::Aborted,
            ("no_first_move", Some(c)) => EndReason::NoFirstMove(c.parse().ok()?),
            ("abandoned", None) => EndReason::Abandoned,
            ("abandonment", None) => EndReason::Abandonment,
            _ => return None,
        })
    }

    /// Every reason, with an example argument where it takes one (for tests).
    pub const EXAMPLES: [EndReason; 20] = [
        EndReason::NoMoves,
        EndReason::NoPieces,
        EndReason::Repetition(3),
        EndReason::NoProgress(80),
        EndReason::MoveCap(200),
        EndReason::KingsOnly(50),
        EndReason::LoneKingEndgame(16),
        EndReason::ManyKingsVsKing(15),
        EndReason::KingVsKing,
        EndReason::LoneMan,
        EndReason::OnePieceEach,
        EndReason::Agreement,
        EndReason::Resignation,
        EndReason::Time,
        EndReason::Adjudication,
        EndReason::Aborted,
        EndReason::NoFirstMove(Color::White),
        EndReason::NoFirstMove(Color::Black),
        EndReason::Abandoned,
        EndReason::Abandonment,
    ];
}

/// Serialized as [`EndReason::stored`]: `"repetition:3"`.
impl serde::Serialize for EndReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.stored())
    }
}

impl<'de> serde::Deserialize<'de> for EndReason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<EndReason, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        EndReason::from_stored(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown end reason '{s}'")))
    }
}

impl EndReason {
    /// True for the ends a count of the rules decides (repetition, moves without
    /// progress, the endings' move limits, the material rules), not the board (no
    /// move, no piece) or an event (agreement, resignation, time, adjudication).
    pub fn is_count(&self) -> bool {
        !matches!(
            self,
            EndReason::NoMoves
                | EndReason::NoPieces
                | EndReason::Agreement
                | EndReason::Resignation
                | EndReason::Time
                | EndReason::Adjudication
                | EndReason::Aborted
                | EndReason::NoFirstMove(_)
                | EndReason::Abandoned
                | EndReason::Abandonment
        )
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EndReason::NoMoves => write!(f, "no legal move left"),
            EndReason::NoPieces => write!(f, "no pieces left"),
            EndReason::Repetition(n) => write!(f, "the same position occurred {n} times"),
            EndReason::NoProgress(p) => {
                write!(f, "{} moves each without a capture or a crowning", p / 2)
            }
            EndReason::MoveCap(p) => write!(f, "{p} moves were played without a winner"),
            EndReason::KingsOnly(p) => write!(f, "{} moves each with only kings moving and no capture", p / 2),
            EndReason::LoneKingEndgame(m) => write!(f, "the lone king was not caught in {m} moves"),
            EndReason::ManyKingsVsKing(m) => {
                write!(f, "3 kings could not catch the lone king in {m} moves")
            }
            EndReason::KingVsKing => write!(f, "one king against one king cannot win"),
            EndReason::LoneMan => write!(f, "several pieces against a lone man"),
            EndReason::OnePieceEach => write!(f, "one piece each"),
            EndReason::Agreement => write!(f, "agreement"),
            EndReason::Resignation => write!(f, "resignation"),
            EndReason::Time => write!(f, "time"),
            EndReason::Adjudication => write!(f, "adjudication"),
            EndReason::Aborted => write!(f, "aborted"),
            EndReason::NoFirstMove(c) => write!(f, "{c} made no first move"),
            EndReason::Abandoned => write!(f, "abandoned"),
            EndReason::Abandonment => write!(f, "abandonment"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameResult;

    #[test]
    fn end_reasons_are_stored_as_codes_and_read_back() {
        for r in EndReason::EXAMPLES {
            let s = r.stored();
            assert_eq!(EndReason::from_stored(&s), Some(r), "{s}");
            assert!(s.starts_with(r.code()), "{s}");
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<EndReason>(&json).unwrap(), r);
        }
        assert_eq!(EndReason::Repetition(3).stored(), "repetition:3");
        assert_eq!(EndReason::NoFirstMove(Color::Black).stored(), "no_first_move:black");
        for bad in ["", "time:3", "repetition", "repetition:x", "no_first_move:red", "White wins: time"] {
            assert_eq!(EndReason::from_stored(bad), None, "{bad}");
        }
        // The number the words say: moves each for counts kept in plies.
        assert_eq!(EndReason::NoProgress(80).number(), Some(40));
        assert_eq!(EndReason::MoveCap(200).number(), Some(200));
    }

    #[test]
    fn games_called_off_say_so_without_a_winner() {
        let r = |winner, reason| GameResult { winner, reason }.to_string();
        assert_eq!(r(None, EndReason::Aborted), "Aborted");
        assert_eq!(r(None, EndReason::Abandoned), "Abandoned");
        assert_eq!(r(None, EndReason::NoFirstMove(Color::Black)), "Aborted: black made no first move");
        assert_eq!(r(Some(Color::White), EndReason::Abandonment), "White wins: abandonment");
        assert_eq!(r(Some(Color::Black), EndReason::Time), "Black wins: time");
        assert!(EndReason::Aborted.is_void() && !EndReason::Abandonment.is_void());
    }
}
