//! Lexicographic edge weights: several criteria, most important first, each in its own
//! run of bits of one 256-bit weight, so that a maximum-weight matching optimises them in
//! order.

use crate::weight::Wide;

/// The number of criteria. See [`super`] for their meaning.
pub(crate) const FIELDS: usize = 16;

/// Per-edge values of each criterion, higher is better.
pub(crate) type Values = [i128; FIELDS];

/// The most bits the packed weights may take: the matching doubles them and adds dual
/// variables of the same size, all within 256 signed bits.
pub(crate) const LIMIT: u32 = 250;

/// Turns criterion values into single weights.
pub(crate) struct Packer {
    shift: [u32; FIELDS],
    /// The bits all criteria take together.
    pub bits: u32,
}

fn bits_of(x: i128) -> u32 {
    128 - x.max(0).leading_zeros()
}

impl Packer {
    /// `caps[f]` bounds the per-edge value of criterion `f`, `edges[f]` the number of edges
    /// of a matching that can carry it. Each criterion gets enough bits for its sum over a
    /// matching, so one unit of it outweighs everything below it. `None` past the limit.
    pub fn new(caps: &Values, edges: &Values) -> Option<Packer> {
        let mut shift = [0u32; FIELDS];
        let mut at = 0u32;
        for f in (0..FIELDS).rev() {
            shift[f] = at;
            at += bits_of(caps[f].checked_mul(edges[f])?);
        }
        (at <= LIMIT).then_some(Packer { shift, bits: at })
    }

    /// The bits left for a criterion whose caps are not yet known.
    pub fn room(caps: &Values, edges: &Values) -> u32 {
        Packer::new(caps, edges).map_or(0, |p| LIMIT - p.bits)
    }

    /// The weight of an edge with these criterion values (each within `0..=cap`).
    pub fn pack(&self, values: &Values) -> Wide {
        values.iter().zip(self.shift).fold(Wide::default(), |acc, (&v, s)| acc + Wide::from_u128_shl(v as u128, s))
    }
}
