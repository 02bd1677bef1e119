//! A game's result: who won, why (a typed [`EndReason`], stored as its code), its PDN
//! token and its words. Rows stored before reasons had codes kept the words only; they
//! still read ([`legacy_reason`] finds the reason those words say).

use dama_core::any::AnyGame;
use dama_core::game::{EndReason, GameResult};
use dama_core::Color;

use crate::protocol::{ReasonView, ResultView};

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner; none for a draw or a game called off.
    pub winner: Option<Color>,
    /// Why it ended (none for an old row whose words no reason matches).
    pub reason: Option<EndReason>,
    /// PDN result token (`*` for a game called off).
    pub token: String,
    /// In words: "White wins: time".
    pub text: String,
}

impl Outcome {
    /// The outcome of `result` in `game`.
    pub fn of(game: &AnyGame, result: GameResult) -> Outcome {
        let winner = if result.reason.is_void() { None } else { result.winner };
        Outcome {
            winner,
            reason: Some(result.reason),
            token: game.result_token(&result).to_string(),
            text: GameResult { winner, reason: result.reason }.to_string(),
        }
    }

    /// The outcome a row keeps: its token and its reason column (a code, or an old
    /// row's words); `first` moves first in the variant (for the token's winner).
    pub fn stored(token: Option<&str>, reason: Option<&str>, first: Color) -> Outcome {
        let token = token.unwrap_or("*").to_string();
        let winner = dama_core::record::result_winner(&token, first).flatten();
        let column = reason.unwrap_or_default();
        match EndReason::from_stored(column) {
            Some(r) => {
                let w = if r.is_void() { None } else { winner };
                Outcome { winner: w, reason: Some(r), token, text: GameResult { winner: w, reason: r }.to_string() }
            }
            None => Outcome { winner, reason: legacy_reason(column), token, text: column.to_string() },
        }
    }

    /// The result as core's type, to end a restored game with (none for an old row
    /// whose reason is unknown: an agreement stands in, as the token says who won).
    pub fn result(&self) -> GameResult {
        GameResult { winner: self.winner, reason: self.reason.unwrap_or(EndReason::Agreement) }
    }

    /// The reason's stored form (an old row's words when unknown).
    pub fn stored_reason(&self) -> String {
        self.reason.map_or_else(|| self.text.clone(), |r| r.stored())
    }

    /// As clients see it.
    pub fn view(&self) -> ResultView {
        ResultView {
            winner: self.winner,
            token: self.token.clone(),
            text: self.text.clone(),
            reason: ReasonView::of(self.reason),
        }
    }
}

/// The reason an old row's words say ("White wins: time", "Aborted", "Aborted: black
/// made no first move"): those words are what rows kept before reasons were stored as
/// codes, and only such rows are read this way.
pub fn legacy_reason(text: &str) -> Option<EndReason> {
    match text {
        "Aborted" => return Some(EndReason::Aborted),
        "Abandoned" => return Some(EndReason::Abandoned),
        _ => {}
    }
    if let Some(who) = text.strip_prefix("Aborted: ").and_then(|t| t.strip_suffix(" made no first move")) {
        return who.parse().ok().map(EndReason::NoFirstMove);
    }
    let why = ["White wins: ", "Black wins: ", "Draw: "].iter().find_map(|p| text.strip_prefix(p))?;
    // Each reason's words, written by core's `Display`, with the argument that gives
    // them back: the words of every reason for a probe number, matched against `why`.
    for r in EndReason::EXAMPLES {
        let (pattern, plies) = match r {
            EndReason::NoProgress(_) | EndReason::KingsOnly(_) => (words_with(r, 77), true),
            _ if r.number().is_some() => (words_with(r, 77), false),
            _ => (r.to_string(), false),
        };
        match pattern.split_once("77") {
            None if pattern == why => return Some(r),
            None => {}
            Some((head, tail)) => {
                let Some(n) = why.strip_prefix(head).and_then(|t| t.strip_suffix(tail)) else { continue };
                let Ok(n) = n.parse::<u32>() else { continue };
                return Some(with_number(r, if plies { n * 2 } else { n }));
            }
        }
    }
    None
}

/// The words of reason `r` with its number set to `n` (moves each, for the counts kept
/// in plies).
fn words_with(r: EndReason, n: u32) -> String {
    let plies = matches!(r, EndReason::NoProgress(_) | EndReason::KingsOnly(_));
    with_number(r, if plies { n * 2 } else { n }).to_string()
}

fn with_number(r: EndReason, n: u32) -> EndReason {
    match r {
        EndReason::Repetition(_) => EndReason::Repetition(u8::try_from(n).unwrap_or(u8::MAX)),
        EndReason::NoProgress(_) => EndReason::NoProgress(n),
        EndReason::MoveCap(_) => EndReason::MoveCap(n),
        EndReason::KingsOnly(_) => EndReason::KingsOnly(n),
        EndReason::LoneKingEndgame(_) => EndReason::LoneKingEndgame(n),
        EndReason::ManyKingsVsKing(_) => EndReason::ManyKingsVsKing(n),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_rows_words_give_their_reason_back() {
        for r in EndReason::EXAMPLES {
            for winner in [None, Some(Color::White), Some(Color::Black)] {
                let text = GameResult { winner, reason: r }.to_string();
                assert_eq!(legacy_reason(&text), Some(r), "{text}");
            }
        }
        assert_eq!(legacy_reason("Something else"), None);
        assert_eq!(legacy_reason("Draw: the same position occurred x times"), None);
    }

    #[test]
    fn a_stored_code_and_an_old_rows_words_read_the_same() {
        let new = Outcome::stored(Some("2-0"), Some("time"), Color::White);
        let old = Outcome::stored(Some("2-0"), Some("White wins: time"), Color::White);
        assert_eq!(new, old);
        assert_eq!(
            (new.winner, new.reason, new.text.as_str()),
            (Some(Color::White), Some(EndReason::Time), "White wins: time")
        );
        let aborted = Outcome::stored(Some("*"), Some("no_first_move:black"), Color::White);
        assert_eq!((aborted.winner, aborted.text.as_str()), (None, "Aborted: black made no first move"));
        assert_eq!(
            aborted.view().reason,
            ReasonView { code: "no_first_move".into(), n: None, side: Some(Color::Black) }
        );
        let odd = Outcome::stored(Some("1-0"), Some("a storm ended it"), Color::White);
        assert_eq!(
            (odd.reason, odd.view().reason.code.as_str(), odd.text.as_str()),
            (None, "other", "a storm ended it")
        );
    }
}
