//! A rulebook's rules as a value: the constants of [`Rules`] for a variant chosen at
//! run time (what a page or a lesson asks of the rules: do kings fly, do men take
//! backwards, must the most be taken).

use crate::variant::{KingRange, Precedence};
use crate::{Rules, Variant, VariantFn};

/// The rules of a variant, read from its [`Rules`] constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// Men and kings move orthogonally (Turkish).
    pub orthogonal: bool,
    /// Captures may also be orthogonal, besides diagonal (Frisian).
    pub orthogonal_captures: bool,
    /// How kings move and capture.
    pub king: KingRange,
    /// Men capture backwards too.
    pub men_capture_backward: bool,
    /// Men may capture kings.
    pub men_capture_kings: bool,
    /// Which capture must be chosen.
    pub precedence: Precedence,
    /// A man crowned during a capture goes on as a king.
    pub crown_mid_capture: bool,
    /// Captured pieces leave the board as they are jumped.
    pub remove_as_jumped: bool,
}

struct FactsOf;

impl VariantFn for FactsOf {
    type Output = Facts;
    fn call<R: Rules>(self) -> Facts {
        Facts {
            orthogonal: R::ORTHOGONAL,
            orthogonal_captures: R::ORTHOGONAL_CAPTURES,
            king: R::KING,
            men_capture_backward: R::MEN_CAPTURE_BACKWARD,
            men_capture_kings: R::MEN_CAPTURE_KINGS,
            precedence: R::PRECEDENCE,
            crown_mid_capture: R::CROWN_MID_CAPTURE,
            remove_as_jumped: R::REMOVE_AS_JUMPED,
        }
    }
}

impl Variant {
    /// The rules of this variant as a value.
    pub fn facts(self) -> Facts {
        self.visit(FactsOf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_the_rules_constants() {
        let r = Variant::Russian.facts();
        assert!(r.crown_mid_capture && r.men_capture_backward && r.king == KingRange::Flying);
        let t = Variant::Turkish.facts();
        assert!(t.orthogonal && t.remove_as_jumped && t.precedence == Precedence::Count);
        assert!(!Variant::Italian.facts().men_capture_kings);
    }
}
