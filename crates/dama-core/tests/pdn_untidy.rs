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
    assert_eq!(e.what, dama_core::pdn::PdnIssueKind::TagStringNotClosed("Event".into()), "{e}");
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

/// Each file of `tests/data/pdn/untidy/`: its games as a person counts them, each
/// replayed, and the warnings the reader gives for its untidy forms.
fn untidy(file: &str) -> (Vec<PdnGame>, Vec<String>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pdn/untidy").join(file);
    let text = std::fs::read_to_string(path).unwrap();
    let mut reader = dama_core::pdn::PdnReader::new(text.as_bytes());
    let games: Vec<PdnGame> = reader.by_ref().map(|g| g.unwrap()).collect();
    let mut warnings: Vec<String> = games.iter().flat_map(|g| g.warnings.iter().map(|w| w.what.to_string())).collect();
    warnings.extend(reader.stray().iter().map(|w| w.what.to_string()));
    (games, warnings)
}

#[test]
fn asides_in_parentheses_are_comments() {
    let (games, warnings) = untidy("asides.pdn");
    assert_eq!(games.len(), 2);
    // The prose in parentheses is the comment of the move before it.
    assert_eq!(games[0].moves[0].comments, ["The usual reply here; 8-11 also holds."]);
    assert!(games[0].moves[0].variations.is_empty());
    assert_eq!(games[0].moves[2].comments, ["19-23 is weaker, see the notes"]);
    assert_eq!(replay::<English>(&games[0]).unwrap().moves.len(), 7);
    // A real variation stays one, with the aside inside it a comment.
    let v = &games[1].moves[0].variations;
    assert_eq!(v.len(), 1, "{:?}", games[1].moves[0]);
    assert_eq!(v[0].iter().map(|m| m.text.as_str()).collect::<Vec<_>>(), ["9-14", "22-18", "5-9"]);
    assert_eq!(v[0][1].comments, ["23-19 and now 5-9"]);
    assert_eq!(games[1].moves[1].comments, ["see game 1 for 22-17"]);
    assert_eq!(replay::<English>(&games[1]).unwrap().moves.len(), 3);
    assert_eq!(warnings.iter().filter(|w| w.contains("kept as a comment")).count(), 4, "{warnings:?}");
}

#[test]
fn tag_values_without_quotes_or_never_closed() {
    let (games, warnings) = untidy("unquoted-tags.pdn");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Round"), Some("17"));
    assert_eq!(games[0].tag("White"), Some("Stanley"));
    assert_eq!(games[1].tag("Round"), Some("11.1"));
    for g in &games {
        assert_eq!(replay::<English>(g).unwrap().moves.len(), 3);
    }
    assert_eq!(warnings.iter().filter(|w| w.contains("without quotes")).count(), 2, "{warnings:?}");
    assert_eq!(warnings.iter().filter(|w| w.contains("never closed; read to ']'")).count(), 1, "{warnings:?}");
    // A quote never closed with no ']' on its line is still an unreadable tag.
    assert!(read_all("[Event \"open\n1. 11-15 *")[0].is_err());
}

#[test]
fn russian_short_notation_for_men_and_kings() {
    let (games, _) = untidy("russian-short.pdn");
    assert_eq!(games.len(), 2);
    // The king's moves: f2-e3, e3 takes b6 landing on a7, then a7-b8.
    let r = replay::<Russian>(&games[0]).unwrap();
    assert_eq!(r.moves.len(), 9);
    assert_eq!(replay::<Russian>(&games[1]).unwrap().moves.len(), 8);
    // Two kings on the f-file can go to e3 and nothing that follows tells which one
    // did: the error names both moves.
    let g = one("[GameType \"25\"]\n[FEN \"W:WKf2,Kf4:Bh8\"]\n1. fe3 hg7 *");
    let e = replay::<Russian>(&g).unwrap_err();
    assert!(e.reason.contains("ambiguous") && e.reason.contains("f2-e3") && e.reason.contains("f4-e3"), "{}", e.reason);
    // When what follows tells (only the king from f4 can go on to g5), it is read.
    let g = one("[GameType \"25\"]\n[FEN \"W:WKf2,Kf4:Bh8\"]\n1. fe3 hg7 2. fg5 *");
    let r = replay::<Russian>(&g).unwrap();
    assert_eq!(r.moves.len(), 3);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    // None can: the error says so.
    let g = one("[GameType \"25\"]\n[FEN \"W:WKf2:Bh8\"]\n1. ce3 *");
    let e = replay::<Russian>(&g).unwrap_err();
    assert!(e.reason.contains("no piece on the c-file can go to e3"), "{}", e.reason);
}

#[test]
fn stray_tags_and_text_are_warnings_not_games() {
    let (games, warnings) = untidy("stray-text.pdn");
    // Two games, as a reader counts them; the header, the titles and the trailing
    // comment are warnings.
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Round"), Some("1"));
    assert_eq!(games[1].tag("Round"), Some("2"));
    for g in &games {
        assert_eq!(replay::<English>(g).unwrap().moves.len(), 4);
    }
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(warnings[0].contains("Games of the 1985 club championship"), "{warnings:?}");
    assert!(warnings[1].contains("Round two"), "{warnings:?}");
    assert!(warnings[2].contains("tags with no game (Comment)"), "{warnings:?}");
}
