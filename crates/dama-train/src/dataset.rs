//! Training data: positions from self-play with the search's score and the game's
//! result, in a compact file (`dama selfplay` writes it, `dama train` reads it).
//!
//! A file is a header — `DAMASP01`, the variant key (u32 length + bytes), the record
//! size (u32) — then fixed-size records, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 4 × W | White men, Black men, White kings, Black kings: one bit per square in dense index order (W = 8 bytes, 16 for 12x12) |
//! | 4 | game number (u32) |
//! | 2 | search score for the side to move, hundredths of a man (i16) |
//! | 1 | ply (capped at 255) |
//! | 1 | bit 0: side to move (1 = Black); bits 1-2: result for White (0 loss, 1 draw, 2 win); bit 3: the last position of its game (a game is complete in the file once this record is there) |

use dama_core::{Color, Position, Rules, Setup, Variant};

/// One position of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position, as an unchecked setup.
    pub setup: Setup,
    /// The game it comes from.
    pub game: u32,
    /// The search's score for the side to move.
    pub score: i16,
    /// Its ply in the game.
    pub ply: u8,
    /// The game's result for White: 0 loss, 1 draw, 2 win.
    pub result: u8,
}

/// Why a data file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// Not a data file.
    #[error("not a dama self-play file")]
    Magic,
    /// A variant this build does not know.
    #[error("unknown variant '{0}' in the file header")]
    Variant(String),
    /// A record size that does not fit the variant.
    #[error("record size {0} does not fit the variant")]
    Size(usize),
}

/// Bytes per square set for a variant's board.
pub fn set_bytes(v: Variant) -> usize {
    if v == Variant::Canadian {
        16
    } else {
        8
    }
}

/// Bytes per record.
pub fn record_size(v: Variant) -> usize {
    4 * set_bytes(v) + 8
}

/// The file header for a variant.
pub fn header(v: Variant) -> Vec<u8> {
    let mut h = b"DAMASP01".to_vec();
    h.extend_from_slice(&(v.key().len() as u32).to_le_bytes());
    h.extend_from_slice(v.key().as_bytes());
    h.extend_from_slice(&(record_size(v) as u32).to_le_bytes());
    h
}

/// Reads a header: the variant and where the records start.
pub fn read_header(b: &[u8]) -> Result<(Variant, usize), DataError> {
    if b.len() < 12 || &b[..8] != b"DAMASP01" {
        return Err(DataError::Magic);
    }
    let n = u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize;
    let key = b.get(12..12 + n).ok_or(DataError::Magic)?;
    let key = String::from_utf8_lossy(key).into_owned();
    let v: Variant = key.parse().map_err(|_| DataError::Variant(key.clone()))?;
    let s = b.get(12 + n..16 + n).ok_or(DataError::Magic)?;
    let size = u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize;
    if size != record_size(v) {
        return Err(DataError::Size(size));
    }
    Ok((v, 16 + n))
}

/// Appends a record's bytes.
pub fn write(r: &Record, v: Variant, out: &mut Vec<u8>) {
    let w = set_bytes(v);
    for set in [r.setup.men[0], r.setup.men[1], r.setup.kings[0], r.setup.kings[1]] {
        out.extend_from_slice(&set.to_le_bytes()[..w]);
    }
    out.extend_from_slice(&r.game.to_le_bytes());
    out.extend_from_slice(&r.score.to_le_bytes());
    out.push(r.ply);
    out.push(u8::from(r.setup.side == Color::Black) | (r.result.min(2) << 1));
}

/// Flag of the last record of a game (bit 3 of the flags byte).
pub const LAST_OF_GAME: u8 = 8;

/// Marks the record that ends `buf` (whole records of `v`) as the last of its game.
pub fn mark_last(buf: &mut [u8], v: Variant) {
    if buf.len() >= record_size(v) {
        let n = buf.len();
        buf[n - 1] |= LAST_OF_GAME;
    }
}

/// True when the record in `b` (exactly [`record_size`] bytes) ends its game.
pub fn is_last(b: &[u8]) -> bool {
    b.last().is_some_and(|f| f & LAST_OF_GAME != 0)
}

/// Reads one record from exactly [`record_size`] bytes.
pub fn read(b: &[u8], v: Variant) -> Record {
    let w = set_bytes(v);
    let set = |i: usize| {
        let mut x = [0u8; 16];
        x[..w].copy_from_slice(&b[i * w..(i + 1) * w]);
        u128::from_le_bytes(x)
    };
    let at = 4 * w;
    let flags = b[at + 7];
    Record {
        setup: Setup {
            side: if flags & 1 == 1 { Color::Black } else { Color::White },
            men: [set(0), set(1)],
            kings: [set(2), set(3)],
        },
        game: u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]),
        score: i16::from_le_bytes([b[at + 4], b[at + 5]]),
        ply: b[at + 6],
        result: (flags >> 1) & 3,
    }
}

/// A record of a position.
pub fn record_of<R: Rules>(pos: &Position<R>, game: u32, score: i32, ply: usize) -> Record {
    Record {
        setup: pos.to_setup(),
        game,
        score: score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16,
        ply: ply.min(255) as u8,
        result: 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::fen::parse_fen;
    use dama_core::variant::{Canadian, International};

    #[test]
    fn records_round_trip() {
        for (v, fen) in [(Variant::International, "B:W31,32,K46:B1,K2"), (Variant::Canadian, "W:W67,K70:B1,2")] {
            let setup = match v {
                Variant::Canadian => parse_fen::<Canadian>(fen).unwrap().to_setup(),
                _ => parse_fen::<International>(fen).unwrap().to_setup(),
            };
            let r = Record { setup, game: 77, score: -123, ply: 42, result: 2 };
            let mut b = header(v);
            let (got, at) = read_header(&b).unwrap();
            assert_eq!((got, at), (v, b.len()));
            write(&r, v, &mut b);
            assert_eq!(b.len() - at, record_size(v));
            assert_eq!(read(&b[at..], v), r);
        }
        assert_eq!(read_header(b"nonsense"), Err(DataError::Magic));
    }
}
