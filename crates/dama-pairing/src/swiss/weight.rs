//! Lexicographic edge weights: several criteria, most important first, packed into the
//! digits of one `i128` so that a maximum-weight matching optimises them in order.

/// The criteria of one edge, most important first. See [`super`] for their meaning.
pub(crate) const FIELDS: usize = 13;

/// Per-edge values of each criterion, higher is better.
pub(crate) type Values = [i128; FIELDS];

/// Turns criterion values into single weights.
pub(crate) struct Packer {
    mult: [i128; FIELDS],
}

impl Packer {
    /// `caps[f]` bounds the per-edge value of criterion `f`; `max_edges` bounds the edges in
    /// a matching. Each digit is wide enough for the sum of its criterion over a matching, so
    /// one unit of a criterion outweighs everything below it. `None` if it overflows.
    pub fn new(caps: &Values, max_edges: i128) -> Option<Packer> {
        let mut mult = [0i128; FIELDS];
        let mut m: i128 = 1;
        for f in (0..FIELDS).rev() {
            mult[f] = m;
            m = m.checked_mul(caps[f].checked_mul(max_edges)?.checked_add(1)?)?;
        }
        // The matching doubles weights and adds dual variables of the same size.
        (m < (1i128 << 122)).then_some(Packer { mult })
    }

    /// The number of bits the packed weights take with these caps.
    pub fn bits(caps: &Values, max_edges: i128) -> Option<u32> {
        let mut m: i128 = 1;
        for cap in caps.iter().rev() {
            m = m.checked_mul(cap.checked_mul(max_edges)?.checked_add(1)?)?;
        }
        Some(128 - m.leading_zeros())
    }

    /// The weight of an edge with these criterion values (each within its cap).
    pub fn pack(&self, values: &Values) -> i128 {
        values.iter().zip(self.mult).map(|(v, m)| v * m).sum()
    }
}
