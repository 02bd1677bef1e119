//! The bit-set type behind every board: `u64` for boards that fit, `u128` for 12x12.

use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A fixed-width set of board bits (internal square indices).
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const ZERO: Self;
    /// Converts from the widest representation (used for constants).
    fn from_u128(x: u128) -> Self;
    /// Widens to `u128`.
    fn to_u128(self) -> u128;
    /// The set holding only bit `i`.
    fn bit(i: u32) -> Self;
    /// Shifts towards higher bits by `n` when `n > 0`, lower when `n < 0`.
    fn shift(self, n: i32) -> Self;
    /// Number of set bits.
    fn count(self) -> u32;
    /// Index of the lowest set bit (undefined on the empty set).
    fn lowest(self) -> u32;
    /// True when no bit is set.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// True when some bit is set.
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::ZERO
    }
    /// True when bit `i` is set.
    #[inline(always)]
    fn has(self, i: u32) -> bool {
        (self & Self::bit(i)).any()
    }
    /// Iterates the indices of the set bits, lowest first.
    #[inline(always)]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

/// Iterator over the set bits of a [`Bits`] value.
#[derive(Clone, Copy, Debug)]
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            None
        } else {
            let i = self.0.lowest();
            self.0 ^= B::bit(i);
            Some(i)
        }
    }
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn bit(i: u32) -> Self {
                1 << i
            }
            #[inline(always)]
            fn shift(self, n: i32) -> Self {
                if n >= 0 {
                    self << n
                } else {
                    self >> (-n)
                }
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
        }
    };
}
impl_bits!(u64);
impl_bits!(u128);
