//! Edge weights for [`crate::matching`]: `i128`, or the 256-bit [`Wide`] when the Swiss
//! criteria need more digits than 128 bits hold.

use std::cmp::Ordering;
use std::ops::{Add, Sub};

/// What the matching needs of a weight: exact addition, subtraction, order and halving.
pub trait Weight: Copy + Ord + Add<Output = Self> + Sub<Output = Self> + std::fmt::Debug {
    /// Zero.
    const ZERO: Self;
    /// Half of an even value.
    fn half(self) -> Self;
}

impl Weight for i128 {
    const ZERO: i128 = 0;
    fn half(self) -> i128 {
        self / 2
    }
}

/// A signed 256-bit integer (two's complement, least significant limb first). Only what
/// the matching needs; overflow wraps (the callers keep far below 2^254).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Wide(pub [u64; 4]);

impl Wide {
    /// A non-negative value shifted left by `shift` bits (`shift + 128 <= 255`).
    pub fn from_u128_shl(v: u128, shift: u32) -> Wide {
        let mut limbs = [0u64; 4];
        let (lo, hi) = (v as u64, (v >> 64) as u64);
        let limb = (shift / 64) as usize;
        let bit = shift % 64;
        let mut put = |i: usize, x: u64| {
            if i < 4 {
                limbs[i] |= x;
            }
        };
        if bit == 0 {
            put(limb, lo);
            put(limb + 1, hi);
        } else {
            put(limb, lo << bit);
            put(limb + 1, (lo >> (64 - bit)) | (hi << bit));
            put(limb + 2, hi >> (64 - bit));
        }
        Wide(limbs)
    }

    /// The value as an `i128`, if it fits.
    pub fn to_i128(self) -> Option<i128> {
        let v = ((self.0[1] as u128) << 64 | self.0[0] as u128) as i128;
        let ext = if v < 0 { u64::MAX } else { 0 };
        (self.0[2] == ext && self.0[3] == ext).then_some(v)
    }
}

impl Add for Wide {
    type Output = Wide;
    fn add(self, o: Wide) -> Wide {
        let mut out = [0u64; 4];
        let mut carry = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *slot = s2;
            carry = c1 || c2;
        }
        Wide(out)
    }
}

impl Sub for Wide {
    type Output = Wide;
    fn sub(self, o: Wide) -> Wide {
        let mut out = [0u64; 4];
        let mut borrow = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *slot = d2;
            borrow = b1 || b2;
        }
        Wide(out)
    }
}

impl Ord for Wide {
    fn cmp(&self, o: &Wide) -> Ordering {
        (self.0[3] as i64)
            .cmp(&(o.0[3] as i64))
            .then(self.0[2].cmp(&o.0[2]))
            .then(self.0[1].cmp(&o.0[1]))
            .then(self.0[0].cmp(&o.0[0]))
    }
}

impl PartialOrd for Wide {
    fn partial_cmp(&self, o: &Wide) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Weight for Wide {
    const ZERO: Wide = Wide([0; 4]);
    fn half(self) -> Wide {
        let mut out = [0u64; 4];
        for (i, slot) in out.iter_mut().enumerate() {
            let next = if i == 3 {
                // Arithmetic shift: the sign bit stays.
                ((self.0[3] as i64) >> 63) as u64
            } else {
                self.0[i + 1]
            };
            *slot = (self.0[i] >> 1) | (next << 63);
        }
        Wide(out)
    }
}
