//! The value of a position in a table: who wins, and in how many plies.

use core::fmt;

/// One stored byte: 0 is a draw; otherwise the number of plies to the end with best
/// play, plus one. An odd number of plies is a win for the side to move (its move
/// ends the game), an even one a loss. Distances of 252 plies or more are stored as
/// 251 or 252 (their parity kept), which never happens up to the sizes dama builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value(pub u8);

/// A draw.
pub const DRAW: Value = Value(0);

const LONGEST: usize = 252;

impl Value {
    /// The side to move wins in `d` plies (`d` odd).
    pub fn win(d: usize) -> Self {
        Self::from_plies(true, d)
    }

    /// The side to move loses in `d` plies (`d` even).
    pub fn loss(d: usize) -> Self {
        Self::from_plies(false, d)
    }

    /// A win or loss in `d` plies, clamped with its parity kept.
    pub fn from_plies(win: bool, d: usize) -> Self {
        debug_assert_eq!(d % 2 == 1, win);
        let d = if d <= LONGEST { d } else { LONGEST - usize::from(win) };
        Value(d as u8 + 1)
    }

    /// `(side to move loses, plies)`, or `None` for a draw.
    pub fn plies(self) -> Option<(bool, usize)> {
        match self.0 {
            0 => None,
            n => Some((n % 2 == 1, usize::from(n) - 1)),
        }
    }

    /// True when the side to move wins.
    pub fn is_win(self) -> bool {
        self.0 != 0 && self.0 % 2 == 0
    }

    /// True when the side to move loses.
    pub fn is_loss(self) -> bool {
        self.0 % 2 == 1
    }

    /// The value of a position whose moves lead to `children` (values for the opponent).
    pub fn best_of(children: impl Iterator<Item = Value>) -> Value {
        let (mut any, mut fastest_win, mut longest_loss, mut draw) = (false, usize::MAX, 0, false);
        for c in children {
            any = true;
            match c.plies() {
                None => draw = true,
                Some((true, d)) => fastest_win = fastest_win.min(d + 1),
                Some((false, d)) => longest_loss = longest_loss.max(d + 1),
            }
        }
        if fastest_win != usize::MAX {
            Value::win(fastest_win)
        } else if draw {
            DRAW
        } else if any {
            Value::loss(longest_loss)
        } else {
            Value::loss(0)
        }
    }

    /// True when `self` is what `expected` says (a clamped distance matches any long one).
    pub fn agrees(self, expected: Value) -> bool {
        match (self.plies(), expected.plies()) {
            (Some((a, x)), Some((b, y))) => a == b && (x == y || x.min(y) + 2 >= LONGEST),
            (a, b) => a == b,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies() {
            None => f.write_str("draw"),
            Some((true, d)) => write!(f, "loss in {d} plies"),
            Some((false, d)) => write!(f, "win in {d} plies"),
        }
    }
}
