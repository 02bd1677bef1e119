//! Weights of the evaluation: a versioned binary file per family, written by
//! `dama train` and built into the binary from `crates/dama-engine/weights/`.
//!
//! Layout (little-endian): `DAMAEVAL`, format version (u32), family key (u32 length +
//! bytes), windows, squares and scalar features (u32 each), scale (i32: weight units per
//! hundredth of a man), sigmoid scale of the training (f32), a note (u32 length +
//! UTF-8: data and training), the number of features (u32), then the middlegame and
//! the endgame weights (i16 each).

use std::sync::{Arc, OnceLock};

use super::{Family, Shape, SCALARS, SCALARS_V1};

/// The format version this build reads and writes.
pub const VERSION: u32 = 1;

/// Weight units per hundredth of a man.
pub const SCALE: i32 = 16;

/// The weights of one family.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The family.
    pub family: Family,
    /// The board shape they fit.
    pub shape: Shape,
    /// Weight units per hundredth of a man.
    pub scale: i32,
    /// The sigmoid scale used in training: P(win) = 1 / (1 + exp(-score / sigmoid)).
    pub sigmoid: f32,
    /// How they were made.
    pub note: String,
    /// Middlegame weights, one per feature.
    pub mg: Vec<i16>,
    /// Endgame weights.
    pub eg: Vec<i16>,
}

/// Why a weights file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Not a weights file, or cut short.
    #[error("not a dama weights file (or truncated) at byte {0}")]
    Format(usize),
    /// Another format version.
    #[error("weights format {0}; this build reads {VERSION}")]
    Version(u32),
    /// Weights of another family or board.
    #[error("weights for {0}, not {1}")]
    Mismatch(String, String),
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], WeightsError> {
        let s = self.b.get(self.at..self.at + n).ok_or(WeightsError::Format(self.at))?;
        self.at += n;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, WeightsError> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn text(&mut self) -> Result<String, WeightsError> {
        let n = self.u32()? as usize;
        let at = self.at;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| WeightsError::Format(at))
    }
    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, WeightsError> {
        let s = self.take(2 * n)?;
        Ok(s.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect())
    }
}

impl Weights {
    /// Material only, in the learned form: men 100, kings 300, nothing else.
    pub fn material(family: Family, shape: Shape) -> Weights {
        let n = shape.len();
        let mut mg = vec![0i16; n];
        let s = shape.scalars();
        mg[s] = (100 * SCALE) as i16;
        mg[s + 1] = (300 * SCALE) as i16;
        mg[s + 2] = (300 * SCALE) as i16;
        let eg = mg.clone();
        Weights { family, shape, scale: SCALE, sigmoid: 100.0, note: "material only".into(), mg, eg }
    }

    /// Reads a weights file.
    pub fn from_bytes(b: &[u8]) -> Result<Weights, WeightsError> {
        let mut r = Reader { b, at: 0 };
        if r.take(8)? != b"DAMAEVAL" {
            return Err(WeightsError::Format(0));
        }
        let v = r.u32()?;
        if v != VERSION {
            return Err(WeightsError::Version(v));
        }
        let key = r.text()?;
        let family: Family = key.parse().map_err(|_| WeightsError::Mismatch(key.clone(), "a known family".into()))?;
        let (windows, squares, scalars) = (r.u32()? as usize, r.u32()? as usize, r.u32()? as usize);
        if !(SCALARS_V1..=SCALARS.len()).contains(&scalars) {
            return Err(WeightsError::Mismatch(format!("{scalars} scalar features"), format!("{}", SCALARS.len())));
        }
        let scale = r.u32()? as i32;
        let sigmoid = f32::from_bits(r.u32()?);
        let note = r.text()?;
        let n = r.u32()? as usize;
        let shape = Shape { windows, squares };
        let missing = SCALARS.len() - scalars;
        if n + missing != shape.len() || scale <= 0 {
            return Err(WeightsError::Format(r.at));
        }
        // Scalars a file predates weigh nothing.
        let mut mg = r.i16s(n)?;
        let mut eg = r.i16s(n)?;
        mg.resize(shape.len(), 0);
        eg.resize(shape.len(), 0);
        Ok(Weights { family, shape, scale, sigmoid, note, mg, eg })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut o = Vec::with_capacity(64 + 4 * self.mg.len());
        let text = |o: &mut Vec<u8>, s: &str| {
            o.extend_from_slice(&(s.len() as u32).to_le_bytes());
            o.extend_from_slice(s.as_bytes());
        };
        o.extend_from_slice(b"DAMAEVAL");
        o.extend_from_slice(&VERSION.to_le_bytes());
        text(&mut o, self.family.key());
        for x in [self.shape.windows, self.shape.squares, SCALARS.len()] {
            o.extend_from_slice(&(x as u32).to_le_bytes());
        }
        o.extend_from_slice(&(self.scale as u32).to_le_bytes());
        o.extend_from_slice(&self.sigmoid.to_bits().to_le_bytes());
        text(&mut o, &self.note);
        o.extend_from_slice(&(self.mg.len() as u32).to_le_bytes());
        for w in self.mg.iter().chain(&self.eg) {
            o.extend_from_slice(&w.to_le_bytes());
        }
        o
    }

    /// A short fingerprint of the weights (FNV-1a of the file), for logs and commits.
    pub fn fingerprint(&self) -> String {
        let mut h: u64 = 0xcbf29ce484222325;
        for b in self.to_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100000001b3);
        }
        format!("{:016x}", h)
    }
}

fn embedded(f: Family) -> &'static [u8] {
    match f {
        Family::ShortKings => include_bytes!("../../weights/short-kings.bin"),
        Family::Flying8 => include_bytes!("../../weights/flying8.bin"),
        Family::Flying10 => include_bytes!("../../weights/flying10.bin"),
        Family::Canadian => include_bytes!("../../weights/canadian.bin"),
        Family::Orthogonal => include_bytes!("../../weights/orthogonal.bin"),
    }
}

/// The shape of a family's board.
pub fn shape_of(f: Family) -> Shape {
    use dama_core::variant::{Canadian, English, International, Russian, Turkish};
    match f {
        Family::ShortKings => Shape::of::<English>(),
        Family::Flying8 => Shape::of::<Russian>(),
        Family::Flying10 => Shape::of::<International>(),
        Family::Canadian => Shape::of::<Canadian>(),
        Family::Orthogonal => Shape::of::<Turkish>(),
    }
}

/// The weights built into this binary for a family (material only where none were
/// trained yet).
pub fn builtin(f: Family) -> Arc<Weights> {
    static W: [OnceLock<Arc<Weights>>; Family::ALL.len()] = [const { OnceLock::new() }; Family::ALL.len()];
    W[f.index()]
        .get_or_init(|| {
            let shape = shape_of(f);
            let w = match Weights::from_bytes(embedded(f)) {
                Ok(w) if w.family == f && w.shape == shape => w,
                _ => Weights::material(f, shape),
            };
            Arc::new(w)
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip_through_bytes() {
        let mut w = Weights::material(Family::Flying10, shape_of(Family::Flying10));
        w.mg[5] = -7;
        w.eg[17] = 300;
        w.note = "test".into();
        let b = w.to_bytes();
        assert_eq!(Weights::from_bytes(&b).unwrap(), w);
        assert!(matches!(Weights::from_bytes(&b[..b.len() - 1]), Err(WeightsError::Format(_))));
        assert!(Weights::from_bytes(b"nonsense").is_err());
    }

    #[test]
    fn every_family_has_weights_of_its_shape() {
        for f in Family::ALL {
            let w = builtin(f);
            assert_eq!((w.family, w.shape), (f, shape_of(f)));
        }
    }
}
