//! The untidy forms real files use, each read and replayed, and the reader's errors.

use dama_core::pdn::{read_all, PdnGame};
use dama_core::record::{replay, variant_of};
use dama_core::variant::{English, International, Italian, Russian};
use dama_core::Variant;

fn one(text: &str) -> PdnGame {
    let mut all = read_all(text);
    assert_eq!(all.len(), 1, "{text}");
    all.remove(0).unwrap()
}

#[test]
fn movetext_forms() {
    // No move numbers; a number glued to its move; fixed-width "29x 7"-style captures.
    let g = one("[GameType \"20\"]\n32-28 19-23 28x19 14x23 *");
    assert_eq!(replay::<International>(&g).unwrap().moves.len(), 4);
    let g = one("[GameType \"20\"]\n1.32-28 19-23 2.28x19 14x23 *");
    assert_eq!(replay::<International>(&g).unwrap().moves.len(), 4);
    let g = one("[GameType \"20\"]\n1. 32-28 19-23 2. 28x 19 14x 23 *");
    assert_eq!(g.moves[2].text, "28x19");
    assert_eq!(replay::<International>(&g).unwrap().moves.len(), 4);
    // Upper-case algebraic squares with ':' captures.
    let g = one("[GameType \"25\"]\n1. C3-D4 F6-E5 2. D4:F6 G7:E5 *");
    assert_eq!(replay::<Russian>(&g).unwrap().moves.len(), 4);
    // Russian short form: origin file and destination.
    let g = one("[GameType \"25\"]\n1. cd4 fe5 2. df6 ge5 *");
    assert_eq!(replay::<Russian>(&g).unwrap().moves.len(), 4);
    // Text glued to the last move, and results in other spellings.
    for (t, r) in [("32-28{done}1/2:1/2", "1/2-1/2"), ("32-28*", "*"), ("32-28 0:1", "0-1"), ("32-28 2-0", "2-0")] {
        let g = one(&format!("[GameType \"20\"]\n{t}"));
        assert_eq!(g.result.as_deref(), Some(r), "{t}");
        assert_eq!(replay::<International>(&g).unwrap().moves.len(), 1, "{t}");
    }
}

#[test]
fn italian_tags_name_the_variant() {
    let g = one("[Bianco \"A\"]\n[Nero \"B\"]\n[Risultato \"1-0\"]\n\n1. 21-17 12-15 1-0");
    assert_eq!(g.tag("White"), Some("A"));
    assert_eq!(g.tag("Result"), Some("1-0"));
    assert_eq!(variant_of(&g, Variant::English).unwrap(), Variant::Italian);
    assert_eq!(replay::<Italian>(&g).unwrap().moves.len(), 2);
}

#[test]
fn comments_nags_variations_and_setup() {
    let text = "% escape line\n[GameType \"20\"]\n{before} 1. 32-28! $1 {good} 19-23 (18-23 38-32 (37-32? 23-29!)) 2. 28x19 14x23 \
                /W:W31,32:B2/ 31-27 2-7 *";
    let g = one(text);
    assert_eq!(g.leading_comments, ["before"]);
    assert_eq!(g.moves[0].nags, ["!", "$1"]);
    assert_eq!(g.moves[0].comments, ["good"]);
    let v = &g.moves[1].variations;
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].len(), 2);
    assert_eq!(v[0][1].variations[0][0].text, "37-32");
    assert_eq!(g.moves[4].setup.as_deref(), Some("W:W31,32:B2"));
    assert!(g.warnings.is_empty(), "{:?}", g.warnings);
    assert_eq!(replay::<International>(&g).unwrap().moves.len(), 6);
}

#[test]
fn several_games_and_errors_with_line_and_column() {
    let text = "[Event \"one\"]\n1. 11-15 *\n\n[Event \"two\n1. 11-15 *\n\n[Event \"three\"]\n1. 11-15 23-19 *\n";
    let all = read_all(text);
    assert_eq!(all.len(), 3, "{all:?}");
    assert!(all[0].is_ok());
    let e = all[1].as_ref().unwrap_err();
    assert_eq!((e.at.line, e.at.col), (4, 1));
    assert!(e.message.contains("never closed"), "{e}");
    let g = all[2].as_ref().unwrap();
    assert_eq!(g.tag("Event"), Some("three"));
    assert_eq!(replay::<English>(g).unwrap().moves.len(), 2);
    // An illegal move is reported with its ply, text, line and column.
    let g = one("[Result \"*\"]\n1. 11-15 22-18\n2. 15x22 25x18 3. 12-16 99-1 *");
    let e = replay::<English>(&g).unwrap_err();
    assert_eq!((e.ply, e.text.as_str(), e.at.line, e.at.col), (6, "99-1", 3, 25));
    // A result that contradicts the final position (in English "1-0" is a win of the
    // side that moves first, Black, which is what happened; "0-1" is not).
    assert!(replay::<English>(&one("[FEN \"W:W:B1\"]\n1-0")).is_ok());
    let g = one("[FEN \"W:W:B1\"]\n0-1");
    assert!(replay::<English>(&g).unwrap_err().reason.contains("recorded result 0-1"));
}
