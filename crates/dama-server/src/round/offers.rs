//! Offers: a draw and a takeback are each a question one side asks and the other
//! answers ([`Ask`]), at most once per side and move (so that a flood of offers cannot
//! grow the event log); a rematch is asked once the game is over. Pending offers are
//! stored with the game (a JSON column whose layout older rows share), so a restart
//! keeps them; one made before a later move has lapsed.

use dama_core::Color;
use serde::{Deserialize, Serialize};

/// A question asked by one side and answered by the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ask {
    /// Who asked, at which ply, while unanswered.
    pending: Option<(Color, usize)>,
    /// The ply at which each side last asked.
    last: [Option<usize>; 2],
}

/// Why a side may not ask now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AskRefused {
    /// A question waits for its answer.
    Pending,
    /// This side asked at this move already.
    ThisMove,
}

impl Ask {
    /// Who waits for an answer.
    pub fn by(&self) -> Option<Color> {
        self.pending.map(|(c, _)| c)
    }

    /// Whether `by` may ask at `ply`.
    pub fn may_ask(&self, by: Color, ply: usize) -> Result<(), AskRefused> {
        if self.pending.is_some() {
            return Err(AskRefused::Pending);
        }
        if self.last[by.index()] == Some(ply) {
            return Err(AskRefused::ThisMove);
        }
        Ok(())
    }

    /// `by` asks at `ply`.
    pub fn ask(&mut self, by: Color, ply: usize) {
        self.pending = Some((by, ply));
        self.last[by.index()] = Some(ply);
    }

    /// `by` asked at `ply` and was answered at once (the engine declines a draw).
    pub fn asked_and_answered(&mut self, by: Color, ply: usize) {
        self.last[by.index()] = Some(ply);
    }

    /// The side that asked, if one of `seats` may answer (not the asker's).
    pub fn answerable_by(&self, seats: &[Color]) -> Option<Color> {
        self.by().filter(|by| !seats.contains(by))
    }

    /// The ply at which `by` last asked.
    pub fn last_at(&self, by: Color) -> Option<usize> {
        self.last[by.index()]
    }

    /// The question is answered (or lapses with a move).
    pub fn close(&mut self) {
        self.pending = None;
    }
}

/// The pending offers of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// A draw offer.
    pub draw: Ask,
    /// A takeback request.
    pub takeback: Ask,
    /// Who asked for a rematch, once the game is over.
    pub rematch: Option<Color>,
}

impl Offers {
    /// A move lapses the draw offer and the takeback request.
    pub fn moved(&mut self) {
        self.draw.close();
        self.takeback.close();
    }

    /// The stored form (None when there is nothing to keep).
    pub fn to_json(&self) -> Option<String> {
        (*self != Offers::default()).then(|| serde_json::to_string(&Stored::from(*self)).unwrap_or_default())
    }

    /// The stored offers of a game now at `ply` (those made before a later move have
    /// lapsed); a column that does not read is no offers.
    pub fn from_json(json: Option<&str>, ply: usize) -> Offers {
        let stored: Stored = json.and_then(|j| serde_json::from_str(j).ok()).unwrap_or_default();
        let mut o = Offers::from(stored);
        for ask in [&mut o.draw, &mut o.takeback] {
            if ask.pending.is_some_and(|(_, at)| at != ply) {
                ask.close();
            }
        }
        o
    }
}

/// The column's layout (colours as 0 and 1, as rows written before hold them).
#[derive(Default, Serialize, Deserialize)]
struct Stored {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draw: Option<StoredOffer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    takeback: Option<StoredOffer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rematch: Option<u8>,
    #[serde(default)]
    draw_at: [Option<usize>; 2],
    #[serde(default)]
    takeback_at: [Option<usize>; 2],
}

#[derive(Clone, Copy, Serialize, Deserialize)]
struct StoredOffer {
    by: u8,
    ply: usize,
}

fn color(i: u8) -> Color {
    Color::ALL[usize::from(i & 1)]
}

impl From<Offers> for Stored {
    fn from(o: Offers) -> Stored {
        let offer = |a: Ask| a.pending.map(|(c, ply)| StoredOffer { by: c.index() as u8, ply });
        Stored {
            draw: offer(o.draw),
            takeback: offer(o.takeback),
            rematch: o.rematch.map(|c| c.index() as u8),
            draw_at: o.draw.last,
            takeback_at: o.takeback.last,
        }
    }
}

impl From<Stored> for Offers {
    fn from(s: Stored) -> Offers {
        let ask = |p: Option<StoredOffer>, last| Ask { pending: p.map(|p| (color(p.by), p.ply)), last };
        Offers { draw: ask(s.draw, s.draw_at), takeback: ask(s.takeback, s.takeback_at), rematch: s.rematch.map(color) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_made_before_a_later_move_lapse_when_restored() {
        let mut o = Offers::default();
        o.draw.ask(Color::Black, 4);
        let json = o.to_json();
        assert_eq!(Offers::from_json(json.as_deref(), 4), o);
        let later = Offers::from_json(json.as_deref(), 5);
        assert_eq!((later.draw.by(), later.draw.last), (None, [None, Some(4)]));
        assert_eq!(Offers::default().to_json(), None);
        // Rows written before this type read the same.
        let old = r#"{"draw":{"by":1,"ply":4},"draw_at":[null,4],"takeback_at":[null,null],"rematch":0}"#;
        let read = Offers::from_json(Some(old), 4);
        assert_eq!((read.draw.by(), read.rematch), (Some(Color::Black), Some(Color::White)));
    }

    #[test]
    fn one_question_per_side_and_move_answered_by_the_other_side() {
        let mut a = Ask::default();
        assert_eq!(a.may_ask(Color::White, 2), Ok(()));
        a.ask(Color::White, 2);
        assert_eq!(a.may_ask(Color::Black, 2), Err(AskRefused::Pending));
        assert_eq!(a.answerable_by(&[Color::White]), None, "not by the asker");
        assert_eq!(a.answerable_by(&[Color::Black]), Some(Color::White));
        a.close();
        assert_eq!(a.may_ask(Color::White, 2), Err(AskRefused::ThisMove));
        assert_eq!(a.may_ask(Color::White, 3), Ok(()));
    }
}
