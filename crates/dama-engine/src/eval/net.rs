//! A small neural network evaluation in the NNUE style, the alternative to the pattern
//! weights: the pieces of the side to move and of its opponent, each man and king on
//! each square seen from the side to move, feed a layer of `h1` clipped-ReLU units
//! (the accumulator), then `h2` clipped-ReLU units, then the score. The layers after
//! the accumulator come in `buckets` sets, one for each range of the number of pieces
//! on the board (an opening and an ending weigh the same features differently).
//!
//! Inference is integer only: first-layer weights and the accumulator in i16 (1/128
//! units), hidden weights in i16 with i32 sums, so the plain loops vectorise on any
//! x86-64 (SSE2's `pmaddwd`) and on other targets alike; no `unsafe`, no feature
//! detection. The first layer's sums (the accumulator, one from each side's view) are
//! kept per ply by the searcher and brought from the parent's by adding and removing
//! the rows of the pieces a move changed ([`Net::update`]), with a full sum
//! ([`Net::refresh`]) only where no parent is at hand.
//!
//! The file (little-endian): `DAMANNUE`, format version (u32: 2; 1 is read as one
//! bucket), family key (u32 length + bytes), inputs, h1, h2, buckets (u32 each; no
//! buckets in version 1), the note (u32 length + UTF-8), then w1 (inputs × h1 i16, by
//! input), b1 (h1 i16), and for each bucket w2 (h2 × h1 i16, by output unit), b2 (h2
//! i32), w3 (h2 i16), b3 (i32). Scales: first layer and activations 1/[`Q`],
//! second and third layer weights 1/[`Q`], their sums 1/[`Q`]²; the output is a logit
//! (P(win) = σ(out)) and the score is `out × 100` hundredths of a man.

use std::sync::LazyLock;

use arrayvec::ArrayVec;

use dama_core::geometry::Geometry;
use dama_core::{Bits, Color, Position, Rules};

pub use super::nets::{builtin, for_variant, own, own_variants, plays};
use super::patterns::own_square;
use super::Family;

/// Fixed-point scale of weights and activations: 1 << [`Q_SHIFT`].
pub const Q: i32 = 1 << Q_SHIFT;

/// Bits of the fixed-point fraction.
pub const Q_SHIFT: u32 = 7;

/// Hundredths of a man per unit of the output logit (the sigmoid scale the network is
/// trained with).
pub const LOGIT: i32 = 100;

/// The format version this build writes (it also reads version 1).
pub const VERSION: u32 = 2;

/// Most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;

/// A quantised network.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// The family it was trained for.
    pub family: Family,
    /// Input features: 4 × squares.
    pub inputs: usize,
    /// First-layer units (a multiple of 16).
    pub h1: usize,
    /// Second-layer units (a multiple of 8).
    pub h2: usize,
    /// Sets of the layers after the accumulator, by number of pieces ([`Net::bucket`]).
    pub buckets: usize,
    /// How it was made.
    pub note: String,
    /// First layer, one row of `h1` per input.
    pub w1: Vec<i16>,
    /// First-layer biases.
    pub b1: Vec<i16>,
    /// Second layer, one row of `h1` per unit, `h2` rows per bucket.
    pub w2: Vec<i16>,
    /// Second-layer biases (1/Q² units), `h2` per bucket.
    pub b2: Vec<i32>,
    /// Output weights, `h2` per bucket.
    pub w3: Vec<i16>,
    /// Output bias (1/Q² units), one per bucket.
    pub b3: Vec<i32>,
}

/// The bucket of a position with `pieces` on the board, out of `buckets`, where both
/// sides start with `per_side`: equal ranges of the piece count, the fullest board in
/// the last bucket.
pub fn bucket_of(pieces: u32, per_side: u32, buckets: usize) -> usize {
    let max = (2 * per_side).max(1) as usize;
    ((pieces.max(1) as usize - 1) * buckets / max).min(buckets - 1)
}

/// One bucket's layers after the accumulator: slices of the [`Net`]'s vectors (public
/// for the trainer, which reads a network's layers bucket by bucket).
#[derive(Clone, Copy)]
pub struct Layers<'a> {
    /// First-layer units (the length of a row of `w2`).
    pub h1: usize,
    /// Second-layer weights, `h2` rows of `h1`.
    pub w2: &'a [i16],
    /// Second-layer biases, `h2`.
    pub b2: &'a [i32],
    /// Output weights, `h2`.
    pub w3: &'a [i16],
    /// Output bias.
    pub b3: i32,
}

/// Why a network file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not a network file, or cut short.
    #[error("not a dama network file (or truncated) at byte {0}")]
    Format(usize),
    /// Another format version.
    #[error("network format {0}; this build reads {VERSION}")]
    Version(u32),
    /// Sizes this build cannot run.
    #[error("network sizes {0}")]
    Sizes(String),
}

/// The input features of `pos` from the side to move: its men, its kings, the
/// opponent's men, the opponent's kings, each on its square seen from the side to move.
#[inline]
pub fn active<R: Rules>(pos: &Position<R>, f: impl FnMut(usize)) {
    active_for(pos, pos.side(), f);
}

/// The input features of `pos` seen from `us` (the side to move or not): the layout
/// [`active`] uses, and each accumulator's view in [`Net::refresh`].
#[inline]
fn active_for<R: Rules>(pos: &Position<R>, us: Color, mut f: impl FnMut(usize)) {
    let n = R::G::LAYOUT.squares;
    let white = us == Color::White;
    for (k, set) in [pos.men(us), pos.kings_of(us), pos.men(!us), pos.kings_of(!us)].into_iter().enumerate() {
        for b in set.iter() {
            f(k * n + own_square::<R>(b, white));
        }
    }
}

/// The number of inputs for `R`'s board.
pub fn inputs_of<R: Rules>() -> usize {
    4 * R::G::LAYOUT.squares
}

/// The first input of each kind of piece seen from a perspective: (own, kings).
#[inline(always)]
fn base(own: bool, king: bool, n: usize) -> usize {
    (if own { 0 } else { 2 * n }) + if king { n } else { 0 }
}

/// Rows one accumulator update adds or removes at most: every square of the largest
/// board (12x12) emptied and filled again.
const MAX_CHANGES: usize = 2 * 72;

/// AVX2 (with the rest of x86-64-v3) when the processor has it, found once for the
/// process: the first layer's updates and the hidden layer's dot products then run on
/// 256-bit registers, about twice the work per instruction. Without it the portable
/// code runs (SSE2 on any x86-64); both give the same integers.
#[cfg(target_arch = "x86_64")]
static AVX2: LazyLock<Option<pulp::x86::V3>> = LazyLock::new(pulp::x86::V3::try_new);

/// Runs `f` compiled for AVX2 where the processor has it.
#[inline(always)]
fn fast<F: pulp::NullaryFnOnce>(f: F) -> F::Output {
    #[cfg(target_arch = "x86_64")]
    if let Some(v3) = *AVX2 {
        return v3.vectorize(f);
    }
    f.call()
}

/// The first-layer rows to add and to remove for one view.
#[derive(Default)]
struct Changes {
    add: ArrayVec<u16, MAX_CHANGES>,
    sub: ArrayVec<u16, MAX_CHANGES>,
}

/// `to = from + Σ add rows − Σ sub rows`: a copy, then one pass per pair of rows (a
/// quiet move adds one row and removes one in each view), each pass a plain loop over
/// the lanes that the compiler vectorises.
struct Apply<'a> {
    w1: &'a [i16],
    h1: usize,
    from: &'a [i16],
    to: &'a mut [i16],
    changes: &'a Changes,
}

impl pulp::NullaryFnOnce for Apply<'_> {
    type Output = ();
    #[inline(always)]
    fn call(self) {
        let Apply { w1, h1, from, to, changes } = self;
        let to = &mut to[..h1];
        let row = |i: u16| &w1[usize::from(i) * h1..][..h1];
        let (add, sub) = (&changes.add, &changes.sub);
        let pairs = add.len().min(sub.len());
        // The first pair reads `from`; the rest work in place.
        let mut rest = add.iter().zip(sub.iter());
        match rest.next() {
            Some((&a, &b)) => {
                for (t, (f, (x, y))) in to.iter_mut().zip(from.iter().zip(row(a).iter().zip(row(b)))) {
                    *t = f.wrapping_add(x.wrapping_sub(*y));
                }
            }
            None => to.copy_from_slice(&from[..h1]),
        }
        for (&a, &b) in rest {
            for (t, (x, y)) in to.iter_mut().zip(row(a).iter().zip(row(b))) {
                *t = t.wrapping_add(x.wrapping_sub(*y));
            }
        }
        for &a in &add[pairs..] {
            for (t, x) in to.iter_mut().zip(row(a)) {
                *t = t.wrapping_add(*x);
            }
        }
        for &b in &sub[pairs..] {
            for (t, y) in to.iter_mut().zip(row(b)) {
                *t = t.wrapping_sub(*y);
            }
        }
    }
}

/// The hidden unit's output from its dot product with the clipped accumulator:
/// clipped to 0..Q (an arithmetic shift rounds negative sums otherwise than a division
/// would, but those clip to 0 either way).
#[inline(always)]
fn hidden(dot: i32, bias: i32) -> i64 {
    i64::from((dot.wrapping_add(bias) >> Q_SHIFT).clamp(0, Q))
}

/// The layers after the accumulator `view`, portable: clipped, then the hidden layer's
/// dot products in sixteen lanes (the shape SSE2's `pmaddwd` takes).
fn output_portable(net: Layers<'_>, view: &[i16]) -> i32 {
    let h1 = net.h1;
    let mut a = [0i16; 512];
    let acc = &mut a[..h1];
    for (x, v) in acc.iter_mut().zip(view) {
        *x = (*v).clamp(0, Q as i16);
    }
    let mut out = i64::from(net.b3);
    for ((row, b2), w3) in net.w2.chunks_exact(h1).zip(net.b2).zip(net.w3) {
        let mut lanes = [0i32; 16];
        for (ca, cw) in acc.chunks_exact(16).zip(row.chunks_exact(16)) {
            for ((l, a), w) in lanes.iter_mut().zip(ca).zip(cw) {
                *l = l.wrapping_add(i32::from(*a) * i32::from(*w));
            }
        }
        let s = lanes.iter().fold(0i32, |x, y| x.wrapping_add(*y));
        out += hidden(s, *b2) * i64::from(*w3);
    }
    logit_to_score(out)
}

/// The output sum (1/Q² units of the logit) in hundredths of a man.
#[inline(always)]
fn logit_to_score(out: i64) -> i32 {
    (out * i64::from(LOGIT) / i64::from(Q * Q)) as i32
}

/// [`output_portable`] with AVX2 spelled out: `vpmaddwd` multiplies sixteen pairs and
/// adds neighbours (left to itself the compiler widens to 32-bit multiplies, slower).
#[cfg(target_arch = "x86_64")]
struct OutputAvx2<'a> {
    v3: pulp::x86::V3,
    net: Layers<'a>,
    view: &'a [i16],
}

#[cfg(target_arch = "x86_64")]
impl pulp::NullaryFnOnce for OutputAvx2<'_> {
    type Output = i32;
    #[inline(always)]
    fn call(self) -> i32 {
        let OutputAvx2 { v3, net, view } = self;
        let load = |s: &[i16]| -> pulp::i16x16 {
            let mut a = [0i16; 16];
            a.copy_from_slice(&s[..16]);
            pulp::cast(a)
        };
        let (zero, q) = (v3.splat_i16x16(0), v3.splat_i16x16(Q as i16));
        // Filled as it is made: an array set to zero first cost a kilobyte's memset
        // an evaluation.
        let mut act: ArrayVec<pulp::i16x16, { 512 / 16 }> = ArrayVec::new();
        // A plain loop: a closure handed to `extend` would be compiled without AVX2.
        for c in view[..net.h1].chunks_exact(16) {
            act.push(v3.min_i16x16(v3.max_i16x16(load(c), zero), q));
        }
        // Four hidden units at a time: their sums folded together by three horizontal
        // adds instead of one reduction each.
        let hadd = |a: pulp::i32x8, b: pulp::i32x8| -> pulp::i32x8 {
            pulp::cast(v3.avx2._mm256_hadd_epi32(pulp::cast(a), pulp::cast(b)))
        };
        let mut out = i64::from(net.b3);
        let units = net.w2.chunks_exact(4 * net.h1).zip(net.b2.chunks_exact(4)).zip(net.w3.chunks_exact(4));
        for ((rows, b2), w3) in units {
            let mut sums = [v3.splat_i32x8(0); 4];
            let (r01, r23) = rows.split_at(2 * net.h1);
            let ((r0, r1), (r2, r3)) = (r01.split_at(net.h1), r23.split_at(net.h1));
            let chunks = r0.chunks_exact(16).zip(r1.chunks_exact(16)).zip(r2.chunks_exact(16).zip(r3.chunks_exact(16)));
            for (a, ((c0, c1), (c2, c3))) in act.iter().zip(chunks) {
                for (sum, c) in sums.iter_mut().zip([c0, c1, c2, c3]) {
                    *sum = v3.wrapping_add_i32x8(*sum, v3.multiply_wrapping_add_adjacent_i16x16(*a, load(c)));
                }
            }
            let folded: [i32; 8] = pulp::cast(hadd(hadd(sums[0], sums[1]), hadd(sums[2], sums[3])));
            for k in 0..4 {
                out += hidden(folded[k].wrapping_add(folded[k + 4]), b2[k]) * i64::from(w3[k]);
            }
        }
        logit_to_score(out)
    }
}

impl Net {
    /// The layers of `bucket`.
    pub fn layers(&self, bucket: usize) -> Layers<'_> {
        let (h1, h2) = (self.h1, self.h2);
        Layers {
            h1,
            w2: &self.w2[bucket * h2 * h1..(bucket + 1) * h2 * h1],
            b2: &self.b2[bucket * h2..(bucket + 1) * h2],
            w3: &self.w3[bucket * h2..(bucket + 1) * h2],
            b3: self.b3[bucket],
        }
    }

    /// The bucket of `pos`'s layers after the accumulator.
    #[inline]
    pub fn bucket<R: Rules>(&self, pos: &Position<R>) -> usize {
        if self.buckets == 1 {
            return 0;
        }
        bucket_of(pos.occupied().count(), Position::<R>::pieces_at_start(), self.buckets)
    }

    /// The layers of `bucket` after the accumulator `view` (one side's), as the score.
    #[inline]
    fn output(&self, view: &[i16], bucket: usize) -> i32 {
        let net = self.layers(bucket);
        #[cfg(target_arch = "x86_64")]
        if let Some(v3) = *AVX2 {
            return v3.vectorize(OutputAvx2 { v3, net, view });
        }
        output_portable(net, view)
    }

    /// `to = from` with the rows of `changes` added and removed.
    #[inline]
    fn apply(&self, from: &[i16], to: &mut [i16], changes: &Changes) {
        fast(Apply { w1: &self.w1, h1: self.h1, from, to, changes });
    }
}

impl Net {
    /// The score of `pos` for the side to move, hundredths of a man.
    #[inline]
    pub fn evaluate<R: Rules>(&self, pos: &Position<R>) -> i32 {
        let mut acc = [0i16; 512];
        let acc = &mut acc[..self.h1];
        let mut changes = Changes::default();
        active(pos, |i| changes.add.push(i as u16));
        self.apply(&self.b1, acc, &changes);
        self.output(acc, self.bucket(pos))
    }

    /// Fills `acc` (2 × h1: White's view, then Black's) for `pos` from nothing.
    pub fn refresh<R: Rules>(&self, pos: &Position<R>, acc: &mut [i16]) {
        for (p, view) in [Color::White, Color::Black].into_iter().zip(acc.chunks_exact_mut(self.h1)) {
            let mut changes = Changes::default();
            active_for(pos, p, |i| changes.add.push(i as u16));
            self.apply(&self.b1, view, &changes);
        }
    }

    /// Turns the accumulator `from` of `parent` into `to`, that of `child`, by the
    /// pieces that changed.
    pub fn update<R: Rules>(&self, parent: &Position<R>, child: &Position<R>, from: &[i16], to: &mut [i16]) {
        let n = R::G::LAYOUT.squares;
        // Each changed piece once, with its input in both views.
        let mut views = [Changes::default(), Changes::default()];
        for c in [Color::White, Color::Black] {
            for king in [false, true] {
                let set = |x: &Position<R>| if king { x.kings_of(c) } else { x.men(c) };
                let (before, after) = (set(parent), set(child));
                let (w0, b0) = (base(c == Color::White, king, n), base(c == Color::Black, king, n));
                for (gone, changed) in [(true, before & !after), (false, after & !before)] {
                    for b in changed.iter() {
                        let sq = own_square::<R>(b, true);
                        for (v, i) in views.iter_mut().zip([w0 + sq, b0 + n - 1 - sq]) {
                            if gone { &mut v.sub } else { &mut v.add }.push(i as u16);
                        }
                    }
                }
            }
        }
        let h1 = self.h1;
        for ((view, src), changes) in to.chunks_exact_mut(h1).zip(from.chunks_exact(h1)).zip(&views) {
            self.apply(src, view, changes);
        }
    }

    /// The score for the side to move of the position whose accumulator is `acc`.
    #[inline]
    pub fn evaluate_acc<R: Rules>(&self, pos: &Position<R>, acc: &[i16]) -> i32 {
        let h1 = self.h1;
        let view = if pos.side() == Color::White { &acc[..h1] } else { &acc[h1..2 * h1] };
        self.output(view, self.bucket(pos))
    }

    /// Reads a network file.
    pub fn from_bytes(b: &[u8]) -> Result<Net, NetError> {
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], NetError> {
            let s = b.get(at..at + n).ok_or(NetError::Format(at))?;
            at += n;
            Ok(s)
        };
        if take(8)? != b"DAMANNUE" {
            return Err(NetError::Format(0));
        }
        let u32_of = |s: &[u8]| u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        let v = u32_of(take(4)?);
        if v != 1 && v != VERSION {
            return Err(NetError::Version(v));
        }
        let kn = u32_of(take(4)?) as usize;
        let key = String::from_utf8_lossy(take(kn)?).into_owned();
        let family: Family = key.parse().map_err(|_| NetError::Sizes(format!("for unknown family {key}")))?;
        let inputs = u32_of(take(4)?) as usize;
        let h1 = u32_of(take(4)?) as usize;
        let h2 = u32_of(take(4)?) as usize;
        let buckets = if v == 1 { 1 } else { u32_of(take(4)?) as usize };
        if h1 == 0
            || h1 > 512
            || h1 % 16 != 0
            || h2 == 0
            || h2 > 128
            || h2 % 8 != 0
            || inputs > 4 * 72
            || buckets == 0
            || buckets > MAX_BUCKETS
        {
            return Err(NetError::Sizes(format!("{inputs}-{h1}-{h2}, {buckets} buckets")));
        }
        let nn = u32_of(take(4)?) as usize;
        let note = String::from_utf8_lossy(take(nn)?).into_owned();
        let i16s = |s: &[u8]| -> Vec<i16> { s.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect() };
        let i32s = |s: &[u8]| -> Vec<i32> {
            s.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
        };
        let w1 = i16s(take(2 * inputs * h1)?);
        let b1 = i16s(take(2 * h1)?);
        let (mut w2, mut b2, mut w3, mut b3) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..buckets {
            w2.extend(i16s(take(2 * h2 * h1)?));
            b2.extend(i32s(take(4 * h2)?));
            w3.extend(i16s(take(2 * h2)?));
            b3.extend(i32s(take(4)?));
        }
        if at != b.len() {
            return Err(NetError::Format(at));
        }
        Ok(Net { family, inputs, h1, h2, buckets, note, w1, b1, w2, b2, w3, b3 })
    }

    /// The file's bytes (the current format version).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut o = Vec::new();
        o.extend_from_slice(b"DAMANNUE");
        o.extend_from_slice(&VERSION.to_le_bytes());
        let key = self.family.key();
        o.extend_from_slice(&(key.len() as u32).to_le_bytes());
        o.extend_from_slice(key.as_bytes());
        for x in [self.inputs, self.h1, self.h2, self.buckets] {
            o.extend_from_slice(&(x as u32).to_le_bytes());
        }
        o.extend_from_slice(&(self.note.len() as u32).to_le_bytes());
        o.extend_from_slice(self.note.as_bytes());
        for w in self.w1.iter().chain(&self.b1) {
            o.extend_from_slice(&w.to_le_bytes());
        }
        for k in 0..self.buckets {
            let l = self.layers(k);
            for w in l.w2 {
                o.extend_from_slice(&w.to_le_bytes());
            }
            for b in l.b2 {
                o.extend_from_slice(&b.to_le_bytes());
            }
            for w in l.w3 {
                o.extend_from_slice(&w.to_le_bytes());
            }
            o.extend_from_slice(&l.b3.to_le_bytes());
        }
        o
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::fen::parse_fen;
    use dama_core::variant::International;

    fn tiny() -> Net {
        let inputs = inputs_of::<International>();
        let (h1, h2) = (16, 8);
        let mut w1 = vec![0i16; inputs * h1];
        // Unit 0 counts own men, unit 1 the opponent's.
        for s in 0..50 {
            w1[s * h1] = 10;
            w1[(100 + s) * h1 + 1] = 10;
        }
        let mut w2 = vec![0i16; h2 * h1];
        w2[0] = Q as i16;
        w2[h1 + 1] = Q as i16;
        let mut w3 = vec![0i16; h2];
        w3[0] = Q as i16;
        w3[1] = -(Q as i16);
        Net {
            family: Family::Flying10,
            inputs,
            h1,
            h2,
            buckets: 1,
            note: "test".into(),
            w1,
            b1: vec![0; h1],
            w2,
            b2: vec![0; h2],
            w3,
            b3: vec![0],
        }
    }

    #[test]
    fn buckets_split_the_piece_count_and_round_trip() {
        // 10x10: 20 a side. Four buckets of ten pieces each, the full board last.
        assert_eq!(Position::<International>::pieces_at_start(), 20);
        assert_eq!([1, 10, 11, 20, 21, 30, 31, 40].map(|p| bucket_of(p, 20, 4)), [0, 0, 1, 1, 2, 2, 3, 3]);
        assert_eq!(bucket_of(40, 20, 1), 0);
        assert_eq!(Position::<dama_core::variant::Turkish>::pieces_at_start(), 16);
        assert_eq!(Position::<dama_core::variant::Thai>::pieces_at_start(), 8);
        // The same count as the start position's.
        let start = Position::<International>::start();
        assert_eq!(start.occupied().count(), 2 * Position::<International>::pieces_at_start());
        // Two buckets that differ only in their output bias: a full board and an ending
        // score apart by it, and the file keeps both.
        let mut n = tiny();
        n.buckets = 2;
        n.w2 = [n.w2.clone(), n.w2.clone()].concat();
        n.b2 = [n.b2.clone(), n.b2.clone()].concat();
        n.w3 = [n.w3.clone(), n.w3.clone()].concat();
        n.b3 = vec![0, Q * Q];
        let full = dama_core::Position::<International>::start();
        let ending = parse_fen::<International>("W:W31,32:B1").unwrap();
        assert_eq!(n.bucket(&full), 1);
        assert_eq!(n.bucket(&ending), 0);
        assert_eq!(n.evaluate(&full), 100);
        assert_eq!(n.evaluate(&ending), (20 - 10) * 100 / 128);
        assert_eq!(Net::from_bytes(&n.to_bytes()).unwrap(), n);
    }

    #[test]
    fn the_avx2_layers_score_as_the_portable_ones() {
        // Where the processor has AVX2, `output` runs the spelled-out version; it must
        // give the portable code's integers for every accumulator, clipped or not.
        let net = builtin(Family::Flying10).expect("the International network is built in");
        let mut x = 7u64;
        for _ in 0..2000 {
            let view: Vec<i16> = (0..net.h1)
                .map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((x >> 40) % 700) as i16 - 300
                })
                .collect();
            assert_eq!(net.output(&view, 0), output_portable(net.layers(0), &view));
        }
    }

    #[test]
    fn a_network_scores_from_the_side_to_move_and_round_trips() {
        let n = tiny();
        // Two men against one: +10/128 logit a man, 100 hundredths per logit.
        let p = parse_fen::<International>("W:W31,32:B1").unwrap();
        assert_eq!(n.evaluate(&p), (20 - 10) * 100 / 128);
        let q = parse_fen::<International>("B:W31,32:B1").unwrap();
        assert_eq!(n.evaluate(&q), -(20 - 10) * 100 / 128);
        let b = n.to_bytes();
        assert_eq!(Net::from_bytes(&b).unwrap(), n);
        // The accumulators kept move by move agree with the sum from nothing.
        let mut a = vec![0i16; 2 * n.h1];
        n.refresh(&p, &mut a);
        assert_eq!(n.evaluate_acc(&p, &a), n.evaluate(&p));
        assert!(Net::from_bytes(&b[..b.len() - 1]).is_err());
    }
}
