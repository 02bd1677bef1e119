//! Colour preferences (C.04.3 A.6) and colour allocation (C.04.3 E).

use super::player::Player;
use crate::Colour;

/// A colour preference, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Preference {
    /// No game played yet.
    None,
    /// Colour difference 0: alternate from the last game.
    Mild(Colour),
    /// Colour difference ±1: the colour played less.
    Strong(Colour),
    /// Colour difference beyond ±1, or the same colour in the two last games.
    Absolute(Colour),
}

impl Preference {
    pub fn colour(self) -> Option<Colour> {
        match self {
            Preference::None => None,
            Preference::Mild(c) | Preference::Strong(c) | Preference::Absolute(c) => Some(c),
        }
    }

    fn strength(self) -> u8 {
        match self {
            Preference::None => 0,
            Preference::Mild(_) => 1,
            Preference::Strong(_) => 2,
            Preference::Absolute(_) => 3,
        }
    }

    /// Strong or absolute.
    pub fn is_strong(self) -> bool {
        self.strength() >= 2
    }
}

/// The preference from the colours of each round (`None` where nothing was played).
pub(crate) fn preference(colours: &[Option<Colour>]) -> Preference {
    let played: Vec<Colour> = colours.iter().flatten().copied().collect();
    let Some(&last) = played.last() else {
        return Preference::None;
    };
    let diff: i32 = played.iter().map(|c| if *c == Colour::White { 1 } else { -1 }).sum();
    let two_same = played.len() >= 2 && played[played.len() - 2] == last;
    if diff > 1 {
        Preference::Absolute(Colour::Black)
    } else if diff < -1 {
        Preference::Absolute(Colour::White)
    } else if two_same {
        Preference::Absolute(last.opposite())
    } else if diff == 1 {
        Preference::Strong(Colour::Black)
    } else if diff == -1 {
        Preference::Strong(Colour::White)
    } else {
        Preference::Mild(last.opposite())
    }
}

/// Whether both players can have their preferred colour.
pub(crate) fn both_satisfied(a: &Player, b: &Player) -> bool {
    match (a.pref.colour(), b.pref.colour()) {
        (Some(x), Some(y)) => x != y,
        _ => true,
    }
}

/// Whether no strong (or absolute) preference has to be denied.
pub(crate) fn strong_satisfied(a: &Player, b: &Player) -> bool {
    both_satisfied(a, b) || !(a.pref.is_strong() && b.pref.is_strong())
}

/// The colour of `a` in a game against `b` (C.04.3 E.1 to E.5); E.5 gives the higher-ranked
/// player the `initial` colour when their pairing number is odd, the other when even.
pub(crate) fn allocate(a: &Player, b: &Player, initial: Colour) -> Colour {
    let (hi, lo, a_is_hi) = if a.ranks_above(b) { (a, b, true) } else { (b, a, false) };
    let hi_colour = colour_of_higher(hi, lo, initial);
    if a_is_hi {
        hi_colour
    } else {
        hi_colour.opposite()
    }
}

fn colour_of_higher(hi: &Player, lo: &Player, initial: Colour) -> Colour {
    match (hi.pref.colour(), lo.pref.colour()) {
        // E.1: both preferences can be granted (or only one player has one).
        (Some(x), Some(y)) if x != y => return x,
        (Some(x), None) => return x,
        (None, Some(y)) => return y.opposite(),
        (None, None) => return first_colour(hi, initial),
        _ => {}
    }
    let wanted = hi.pref.colour().expect("both have the same preference");
    // E.2: the stronger preference; between two absolutes, the wider colour difference.
    let (sh, sl) = (hi.pref.strength(), lo.pref.strength());
    if sh != sl {
        return if sh > sl { wanted } else { wanted.opposite() };
    }
    if sh == 3 {
        let (dh, dl) = (hi.colour_diff.abs(), lo.colour_diff.abs());
        if dh != dl {
            return if dh > dl { wanted } else { wanted.opposite() };
        }
    }
    // E.3: alternate from the most recent round in which their colours differed.
    let rounds = hi.colours.len().min(lo.colours.len());
    for r in (0..rounds).rev() {
        if let (Some(x), Some(y)) = (hi.colours[r], lo.colours[r]) {
            if x != y {
                return x.opposite();
            }
        }
    }
    // E.4: the higher-ranked player's preference.
    let _ = initial;
    wanted
}

/// E.5.
fn first_colour(hi: &Player, initial: Colour) -> Colour {
    if hi.tpn % 2 == 1 {
        initial
    } else {
        initial.opposite()
    }
}
