//! Fuzz harnesses for every parser that reads outside input (FEN, move text, PDN). The
//! `cargo fuzz` targets in `fuzz/` call these, and so does the smoke test CI runs
//! (`tests/fuzz_smoke.rs`), so both check the same properties: no panic, and what is
//! accepted is consistent (a parsed FEN writes back to the same position, a parsed
//! move is legal, a game read from PDN replays or says why not).

use crate::fen::{parse_fen, write_fen};
use crate::movegen::{is_legal, legal_moves};
use crate::notation::{move_to_string, parse_move};
use crate::pdn::PdnReader;
use crate::record::{replay, variant_of};
use crate::{Position, Rules, Variant, VariantFn};

struct Fen<'a>(&'a str);
impl VariantFn for Fen<'_> {
    type Output = ();
    fn call<R: Rules>(self) {
        if let Ok(pos) = parse_fen::<R>(self.0) {
            let fen = write_fen(&pos);
            let back = parse_fen::<R>(&fen).expect("a written FEN reads back");
            assert_eq!(back.to_setup(), pos.to_setup(), "{fen}");
            for m in legal_moves(&pos).iter() {
                assert!(is_legal(&pos, m));
            }
        }
    }
}

/// A FEN in any variant: accepted ones round-trip and have consistent moves.
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for v in Variant::ALL {
        v.visit(Fen(&text));
    }
}

struct MoveText<'a>(&'a str);
impl VariantFn for MoveText<'_> {
    type Output = ();
    fn call<R: Rules>(self) {
        // The text is "FEN|move" when it holds a '|', else a move in the start position.
        let (pos, text) = match self.0.split_once('|') {
            Some((f, m)) => match parse_fen::<R>(f) {
                Ok(p) => (p, m),
                Err(_) => return,
            },
            None => (Position::<R>::start(), self.0),
        };
        if let Ok(m) = parse_move(&pos, text) {
            assert!(is_legal(&pos, &m), "{text}");
            let again = move_to_string(&pos, &m, true);
            assert_eq!(parse_move(&pos, &again).ok(), Some(m), "{again}");
        }
    }
}

/// Move text against a position: an accepted move is legal and writes back.
pub fn move_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for v in Variant::ALL {
        v.visit(MoveText(&text));
    }
}

struct Replay<'a>(&'a crate::pdn::PdnGame);
impl VariantFn for Replay<'_> {
    type Output = ();
    fn call<R: Rules>(self) {
        let _ = replay::<R>(self.0);
    }
}

/// PDN text: read game by game and replayed; nothing panics.
pub fn pdn(data: &[u8]) {
    for g in PdnReader::new(data).take(50).flatten() {
        if let Ok(v) = variant_of(&g, Variant::English) {
            v.visit(Replay(&g));
        }
    }
}
