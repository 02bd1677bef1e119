//! Offers: a draw and a takeback are each a question one side asks and the other
//! answers ([`Ask`]), at most once per side and move (so that a flood of offers cannot
//! grow the event log); a rematch is asked once the game is over. Pending offers are
//! stored with the game (a JSON column whose layout older rows share), so a restart
//! keeps them; one made before a later move has lapsed.

use dama_core::Color;

use crate::store::{OffersColumn, StoredOffer};

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

    /// The stored form.
    pub fn column(&self) -> OffersColumn {
        let offer = |a: Ask| a.pending.map(|(c, ply)| StoredOffer { by: c.index() as u8, ply });
        OffersColumn {
            draw: offer(self.draw),
            takeback: offer(self.takeback),
            rematch: self.rematch.map(|c| c.index() as u8),
            draw_at: self.draw.last,
            takeback_at: self.takeback.last,
        }
    }

    /// The stored offers of a game now at `ply` (those made before a later move have
    /// lapsed).
    pub fn restored(c: &OffersColumn, ply: usize) -> Offers {
        let color = |i: u8| Color::ALL[usize::from(i & 1)];
        let ask = |p: Option<StoredOffer>, last| Ask { pending: p.map(|p| (color(p.by), p.ply)), last };
        let mut o = Offers {
            draw: ask(c.draw, c.draw_at),
            takeback: ask(c.takeback, c.takeback_at),
            rematch: c.rematch.map(color),
        };
        for ask in [&mut o.draw, &mut o.takeback] {
            if ask.pending.is_some_and(|(_, at)| at != ply) {
                ask.close();
            }
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_made_before_a_later_move_lapse_when_restored() {
        let mut o = Offers::default();
        o.draw.ask(Color::Black, 4);
        o.rematch = Some(Color::White);
        let column = o.column();
        assert_eq!(column.draw, Some(StoredOffer { by: 1, ply: 4 }), "Black is 1, as older rows hold it");
        assert_eq!(Offers::restored(&column, 4), o);
        let later = Offers::restored(&column, 5);
        assert_eq!((later.draw.by(), later.draw.last, later.rematch), (None, [None, Some(4)], Some(Color::White)));
        assert_eq!(Offers::default().column(), OffersColumn::default());
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
