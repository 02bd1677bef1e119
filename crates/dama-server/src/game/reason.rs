//! Why a game ended, as a code and its arguments, so that clients say it in their own
//! language instead of matching English words. The code is read from the result's text,
//! which is what the store keeps: games stored before codes existed get theirs the same
//! way when they are read (no database change needed).

use dama_core::Color;
use serde::Serialize;

use super::{color_name, ResultView};

/// The texts of the ends the server decides itself (not the rules), written here beside
/// [`of_text`], which reads them back.
const ABORTED: &str = "Aborted";
const ABANDONED: &str = "Abandoned";
const NO_FIRST_MOVE: (&str, &str) = ("Aborted: ", " made no first move");
const ABANDONMENT: &str = "abandonment";

fn no_result(text: String) -> ResultView {
    ResultView { winner: None, token: "*".into(), text }
}

/// A game called off before both sides moved.
pub(super) fn aborted() -> ResultView {
    no_result(ABORTED.into())
}

/// A game called off because `side` made no first move in time.
pub(super) fn no_first_move(side: Color) -> ResultView {
    no_result(format!("{}{}{}", NO_FIRST_MOVE.0, color_name(side), NO_FIRST_MOVE.1))
}

/// An unclocked game nobody played on, ended without a result.
pub(super) fn abandoned() -> ResultView {
    no_result(ABANDONED.into())
}

/// An unclocked game won by `winner` because the other side left it (`token`: the
/// variant's PDN result for that winner).
pub(super) fn abandonment(winner: Color, token: &str) -> ResultView {
    let name = if winner == Color::White { "White" } else { "Black" };
    ResultView { winner: Some(color_name(winner)), token: token.into(), text: format!("{name} wins: {ABANDONMENT}") }
}

/// Why a game ended: `code` names it (`time`, `repetition`, `aborted`, ...), `n` is its
/// number where it has one (moves, or times a position occurred), `side` the player it
/// concerns where the text names one; `other` when the text is not one of ours.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Reason {
    /// The reason's name.
    pub code: &'static str,
    /// Its number, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
    /// The side it names, if any ("white" or "black").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<&'static str>,
}

/// What each reason says after "White wins: " or "Draw: ", with `{n}` for its number.
const WHYS: [(&str, &str); 16] = [
    ("no legal move left", "no_moves"),
    ("no pieces left", "no_pieces"),
    ("the same position occurred {n} times", "repetition"),
    ("{n} moves each without a capture or a crowning", "no_progress"),
    ("{n} moves were played without a winner", "move_cap"),
    ("{n} moves each with only kings moving and no capture", "kings_only"),
    ("the lone king was not caught in {n} moves", "lone_king"),
    ("3 kings could not catch the lone king in {n} moves", "many_kings"),
    ("one king against one king cannot win", "king_vs_king"),
    ("several pieces against a lone man", "lone_man"),
    ("one piece each", "one_each"),
    ("agreement", "agreement"),
    ("resignation", "resignation"),
    ("time", "time"),
    ("adjudication", "adjudication"),
    (ABANDONMENT, "abandonment"),
];

fn reason(code: &'static str, n: Option<u32>, side: Option<&'static str>) -> Reason {
    Reason { code, n, side }
}

/// Matches `text` against a pattern with at most one `{n}`.
fn matches(pattern: &str, text: &str) -> Option<Option<u32>> {
    match pattern.split_once("{n}") {
        None => (pattern == text).then_some(None),
        Some((head, tail)) => {
            let n = text.strip_prefix(head)?.strip_suffix(tail)?;
            n.parse().ok().map(Some)
        }
    }
}

/// The reason of a result text written by this server (now or in an earlier version).
pub fn of_text(text: &str) -> Reason {
    match text {
        ABORTED => return reason("aborted", None, None),
        ABANDONED => return reason("abandoned", None, None),
        _ => {}
    }
    if let Some(who) = text.strip_prefix(NO_FIRST_MOVE.0).and_then(|t| t.strip_suffix(NO_FIRST_MOVE.1)) {
        let side = match who {
            "white" => Some("white"),
            "black" => Some("black"),
            _ => None,
        };
        return reason("no_first_move", None, side);
    }
    let why = ["White wins: ", "Black wins: ", "Draw: "].iter().find_map(|p| text.strip_prefix(p));
    if let Some(why) = why {
        for (pattern, code) in WHYS {
            if let Some(n) = matches(pattern, why) {
                return reason(code, n, None);
            }
        }
    }
    reason("other", None, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::game::{EndReason, GameResult};

    #[test]
    fn every_end_the_rules_know_has_its_code() {
        let all = [
            (EndReason::NoMoves, "no_moves", None),
            (EndReason::NoPieces, "no_pieces", None),
            (EndReason::Repetition(3), "repetition", Some(3)),
            (EndReason::NoProgress(80), "no_progress", Some(40)),
            (EndReason::MoveCap(200), "move_cap", Some(200)),
            (EndReason::KingsOnly(50), "kings_only", Some(25)),
            (EndReason::LoneKingEndgame(16), "lone_king", Some(16)),
            (EndReason::ManyKingsVsKing(15), "many_kings", Some(15)),
            (EndReason::KingVsKing, "king_vs_king", None),
            (EndReason::LoneMan, "lone_man", None),
            (EndReason::OnePieceEach, "one_each", None),
            (EndReason::Agreement, "agreement", None),
            (EndReason::Resignation, "resignation", None),
            (EndReason::Time, "time", None),
            (EndReason::Adjudication, "adjudication", None),
        ];
        for (r, code, n) in all {
            for winner in [None, Some(Color::White), Some(Color::Black)] {
                let text = GameResult { winner, reason: r }.to_string();
                assert_eq!(of_text(&text), reason(code, n, None), "{text}");
            }
        }
    }

    #[test]
    fn the_servers_own_ends_and_unknown_texts() {
        assert_eq!(of_text(&aborted().text).code, "aborted");
        assert_eq!(of_text(&abandoned().text).code, "abandoned");
        assert_eq!(of_text(&no_first_move(Color::White).text), reason("no_first_move", None, Some("white")));
        assert_eq!(of_text(&abandonment(Color::Black, "0-2").text).code, "abandonment");
        assert_eq!(of_text("Aborted").code, "aborted");
        assert_eq!(of_text("Abandoned").code, "abandoned");
        assert_eq!(of_text("Aborted: black made no first move"), reason("no_first_move", None, Some("black")));
        assert_eq!(of_text("White wins: abandonment").code, "abandonment");
        assert_eq!(of_text("Something else").code, "other");
        assert_eq!(of_text("Draw: the same position occurred x times").code, "other");
    }
}
