//! The Dutch order of preference inside one bracket, as a weight.
//!
//! The bracket lists the players floating in (MDPs) first, then the residents. The MDPs
//! are paired with the top residents (MDP `i` with resident `i`); the remaining residents
//! form a homogeneous part whose first half (S1) meets its second half (S2), S1 player `i`
//! with S2 player `i`. The Dutch rules take the first pairing in transposition order: the
//! first S1 player gets the lowest S2 player possible, then the second, and so on. Here
//! each "slot" (an MDP, or an S1 player of the homogeneous part) values a partner by how
//! early it comes in its list, and earlier slots weigh more: by a factor larger than any
//! later partner choice when the weight has room (small brackets: then the order is
//! exactly lexicographic), by as steep a factor as fits otherwise.

/// The order preference of one bracket of `n` players, `mdps` of them floating in.
pub(crate) struct Order {
    n: usize,
    mdps: usize,
    /// Where the homogeneous part starts.
    rest_start: usize,
    /// The size of its S1.
    half: usize,
    importance: Vec<i128>,
}

impl Order {
    /// `bits` bounds the logarithm of the largest value (`cap`).
    pub fn new(n: usize, mdps: usize, bits: u32) -> Order {
        // With MDPs only their partners are ordered (the remainder is paired afterwards as
        // a homogeneous bracket of its own).
        let rest_start = if mdps > 0 { n } else { 0 };
        let half = (n - rest_start) / 2;
        let importance = Self::importance(mdps + half, n, bits);
        Order { n, mdps, rest_start, half, importance }
    }

    /// Factors from the last slot (1) up, each the previous times a ratio: `n + 1` (exact
    /// lexicographic order) when `bits` allows, else the steepest ratio that fits.
    fn importance(slots: usize, n: usize, bits: u32) -> Vec<i128> {
        let mut imp = vec![1i128; slots];
        if slots == 0 {
            return imp;
        }
        let exact_bits = (slots as f64) * ((n + 1) as f64).log2() + ((n + 1) as f64).log2();
        if exact_bits <= bits as f64 {
            for i in (0..slots.saturating_sub(1)).rev() {
                imp[i] = imp[i + 1] * (n as i128 + 1);
            }
        } else {
            let per_slot = (bits as f64 - ((n + 1) as f64).log2()).max(0.0) / slots as f64;
            let ratio = per_slot.exp2();
            let mut x = 1.0f64;
            for i in (0..slots.saturating_sub(1)).rev() {
                x *= ratio;
                // Strictly decreasing, so that the ideal order stays the one best choice.
                imp[i] = (x as i128).max(imp[i + 1] + 1);
            }
        }
        imp
    }

    /// The number of players in the bracket.
    pub fn len(&self) -> usize {
        self.n
    }

    /// The largest value of one game.
    pub fn cap(&self) -> i128 {
        self.importance.first().copied().unwrap_or(1) * (self.n as i128 + 1)
    }

    /// Whether a game between bracket positions `a < b` fits the S1/S2 split (an MDP with
    /// a resident, or S1 with S2 of the homogeneous part); otherwise it needs an exchange,
    /// which the Dutch rules try only after every transposition.
    pub fn regular(&self, a: usize, b: usize) -> bool {
        if self.mdps > 0 {
            // The MDP pass: only the MDPs' partners are chosen here.
            b >= self.mdps
        } else {
            self.value(a, b) > 0
        }
    }

    /// The value of a game between bracket positions `a < b`.
    pub fn value(&self, a: usize, b: usize) -> i128 {
        let s2 = self.rest_start + self.half;
        let (slot, rank) = if a < self.mdps {
            // An MDP looks among the residents, in order.
            if b < self.mdps {
                return 0;
            }
            (a, b - self.mdps)
        } else if a >= self.rest_start && a < s2 && b >= s2 {
            // An S1 player of the homogeneous part looks among its S2.
            (self.mdps + a - self.rest_start, b - s2)
        } else {
            return 0;
        };
        self.importance[slot] * (self.n - rank.min(self.n)) as i128
    }
}
