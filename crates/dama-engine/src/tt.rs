//! Transposition table: positions already searched, keyed by their Zobrist hash, shared
//! by every search thread without locks. An entry is two 64-bit words, the data and
//! the key XOR the data, so a torn write (two threads storing at once) reads as a miss,
//! never as a wrong entry. Four entries make a 64-byte bucket; a store replaces the
//! same position, else the shallowest entry, preferring entries of older searches.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// The stored score is exact, a lower bound or an upper bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// No entry.
    #[default]
    None,
    /// The score is exact.
    Exact,
    /// The score is at least this (a beta cut-off).
    Lower,
    /// The score is at most this (no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index of the best move in the position's generated move list, if known.
    pub mv: Option<u16>,
    /// Score (mate scores relative to this node).
    pub score: i32,
    /// Remaining depth searched.
    pub depth: i32,
    /// Kind of score.
    pub bound: Bound,
}

const NO_MOVE: u64 = 0x3ff;
const WAYS: usize = 4;

fn pack(e: &Entry, age: u8) -> u64 {
    let bound = match e.bound {
        Bound::None => 0,
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let mv = e.mv.map_or(NO_MOVE, |m| u64::from(m).min(NO_MOVE - 1));
    (e.score.clamp(-32768, 32767) as i16 as u16 as u64)
        | ((e.depth.clamp(-128, 127) as i8 as u8 as u64) << 16)
        | (bound << 24)
        | (mv << 26)
        | ((u64::from(age) & 0x3f) << 36)
}

fn unpack(d: u64) -> (Entry, u8) {
    let bound = match (d >> 24) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => Bound::None,
    };
    let mv = (d >> 26) & 0x3ff;
    let e = Entry {
        score: i32::from(d as u16 as i16),
        depth: i32::from((d >> 16) as u8 as i8),
        bound,
        mv: (mv != NO_MOVE).then_some(mv as u16),
    };
    (e, ((d >> 36) & 0x3f) as u8)
}

/// One bucket: [`WAYS`] entries of two words (the key xor the data, then the data),
/// aligned to a 64-byte cache line so that a probe misses the cache once, not twice
/// when a bucket straddles two lines.
#[repr(C, align(64))]
struct Bucket([[AtomicU64; 2]; WAYS]);

/// A table of buckets of four entries.
pub struct Tt {
    /// A power of two of buckets.
    slots: Vec<Bucket>,
    age: AtomicU8,
}

impl Tt {
    /// A table of about `mb` megabytes (a power of two of buckets).
    pub fn new(mb: usize) -> Self {
        let want = (mb.max(1) << 20) / std::mem::size_of::<Bucket>();
        let buckets = (want.next_power_of_two() / 2).max(256);
        let slots =
            (0..buckets).map(|_| Bucket(std::array::from_fn(|_| [AtomicU64::new(0), AtomicU64::new(0)]))).collect();
        Tt { slots, age: AtomicU8::new(0) }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in self.slots.iter().flat_map(|b| &b.0) {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }

    /// A new search begins: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]; WAYS] {
        &self.slots[key as usize & (self.slots.len() - 1)].0
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for s in b {
            let data = s[1].load(Ordering::Relaxed);
            if data != 0 && s[0].load(Ordering::Relaxed) ^ data == key {
                let (e, _) = unpack(data);
                return (e.bound != Bound::None).then_some(e);
            }
        }
        None
    }

    /// Stores a result (a deeper result of the same position is kept unless this one
    /// is exact).
    #[inline]
    pub fn store(&self, key: u64, mv: Option<u16>, score: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed) & 0x3f;
        let b = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in b.iter().enumerate() {
            let data = s[1].load(Ordering::Relaxed);
            let (e, a) = unpack(data);
            if data != 0 && s[0].load(Ordering::Relaxed) ^ data == key {
                if e.depth > depth && bound != Bound::Exact && a == age {
                    return;
                }
                // Keep the known best move when this result has none.
                let mv = mv.or(e.mv);
                Self::write(&b[i], key, &Entry { mv, score, depth, bound }, age);
                return;
            }
            // Empty first, then entries of older searches, then the shallowest.
            let value = if data == 0 { i32::MIN } else { e.depth - if a == age { 0 } else { 64 } };
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        Self::write(&b[victim], key, &Entry { mv, score, depth, bound }, age);
    }

    #[inline(always)]
    fn write(slot: &[AtomicU64; 2], key: u64, e: &Entry, age: u8) {
        let data = pack(e, age);
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_miss_on_other_keys() {
        let t = Tt::new(1);
        t.store(0xdead_beef, Some(7), -1234, 9, Bound::Lower);
        assert_eq!(t.probe(0xdead_beef), Some(Entry { mv: Some(7), score: -1234, depth: 9, bound: Bound::Lower }));
        assert_eq!(t.probe(0xdead_beee), None);
        // A shallower inexact result does not replace a deeper one.
        t.store(0xdead_beef, None, 5, 3, Bound::Upper);
        assert_eq!(t.probe(0xdead_beef).unwrap().depth, 9);
        // Exact results always do, and keep the move they lack.
        t.store(0xdead_beef, None, 5, 3, Bound::Exact);
        assert_eq!(t.probe(0xdead_beef), Some(Entry { mv: Some(7), score: 5, depth: 3, bound: Bound::Exact }));
        let (e, a) = unpack(pack(&Entry { mv: None, score: -31_000, depth: -3, bound: Bound::Upper }, 63));
        assert_eq!((e.mv, e.score, e.depth, e.bound, a), (None, -31_000, -3, Bound::Upper, 63));
    }
}
