//! Hostile PDN: nothing in the input may crash the reader (deep nesting used to overflow
//! the stack when the variation tree was dropped) or make it hold far more memory than
//! the text itself.

use dama_core::pdn::{read_all, PdnIssueKind, MAX_GAME_ITEMS, MAX_VARIATION_DEPTH, MAX_WARNINGS};
use dama_core::record::replay;
use dama_core::variant::English;

/// `1. 11-15 (22-18 (22-18 ( ... ))) *` with `levels` nested variations, closed or not.
fn nested(levels: usize, closed: bool) -> String {
    let mut s = String::with_capacity(levels * 8 + 32);
    s.push_str("[GameType \"21\"]\n1. 11-15 ");
    for _ in 0..levels {
        s.push_str("(22-18 ");
    }
    if closed {
        for _ in 0..levels {
            s.push(')');
        }
    }
    s.push_str(" 23-19 *\n");
    s
}

#[test]
fn a_million_nested_variations_read_replay_and_drop() {
    let text = nested(1_000_000, true);
    let info = allocation_counter::measure(|| {
        let mut all = read_all(&text);
        assert_eq!(all.len(), 1);
        let g = all.remove(0).expect("the game reads");
        // The main line is intact; the tree is kept to the depth limit.
        assert_eq!(g.moves.len(), 2);
        let (mut depth, mut line) = (0, &g.moves[..1]);
        while let Some(v) = line.last().and_then(|m| m.variations.first()) {
            depth += 1;
            line = v;
        }
        assert_eq!(depth, MAX_VARIATION_DEPTH);
        assert!(g.warnings.iter().any(|w| w.what == PdnIssueKind::VariationsTooDeep), "{:?}", g.warnings);
        assert_eq!(replay::<English>(&g).expect("replays").moves.len(), 2);
    });
    // The chunk of text, a line being read, and little more.
    assert!(info.bytes_max < 3 * text.len() as u64, "peak {} for {} bytes", info.bytes_max, text.len());
}

#[test]
fn a_million_unclosed_variations_end_the_game_with_a_warning() {
    let text = nested(1_000_000, false);
    let all = read_all(&text);
    assert_eq!(all.len(), 1);
    let g = all[0].as_ref().expect("the game reads");
    assert_eq!(g.moves.len(), 1);
    assert!(g.warnings.iter().any(|w| w.what == PdnIssueKind::VariationNotClosed), "{:?}", g.warnings);
    // Only parentheses, no game at all.
    let all = read_all(&"(".repeat(1_000_000));
    assert!(all.len() <= 1);
    let all = read_all(&")".repeat(1_000_000));
    assert!(all.iter().all(|g| g.as_ref().map_or(true, |g| g.warnings.len() <= MAX_WARNINGS + 1)));
}

#[test]
fn a_game_too_large_to_keep_is_reported_and_the_next_one_reads() {
    let mut text = String::from("[Event \"huge\"]\n");
    for _ in 0..(MAX_GAME_ITEMS / 2 + 10) {
        text.push_str("11-15 15-11 ");
    }
    text.push_str("*\n\n[Event \"next\"]\n1. 11-15 23-19 *\n");
    let all = read_all(&text);
    assert_eq!(all.len(), 2, "{:?}", all.iter().map(|g| g.as_ref().err()).collect::<Vec<_>>());
    let e = all[0].as_ref().unwrap_err();
    assert!(matches!(e.what, PdnIssueKind::GameTooLarge(_)), "{e}");
    assert_eq!(all[1].as_ref().unwrap().moves.len(), 2);
}

#[test]
fn warnings_are_capped_per_game() {
    let text = format!("[Event \"x\"]\n1. 11-15 {} 23-19 *", "} ".repeat(100_000));
    let all = read_all(&text);
    let g = all[0].as_ref().unwrap();
    assert_eq!(g.warnings.len(), MAX_WARNINGS + 1);
    assert!(matches!(g.warnings.last().unwrap().what, PdnIssueKind::MoreWarnings(_)));
    assert_eq!(g.moves.len(), 2);
    // Inside one comment too.
    let text = format!("[Event \"x\"]\n1. 11-15 {{{}}} 23-19 *", "{".repeat(100_000));
    let g = read_all(&text).remove(0).unwrap();
    assert_eq!(g.warnings.len(), MAX_WARNINGS + 1);
}
