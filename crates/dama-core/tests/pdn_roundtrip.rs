//! PDN round trip (read → write → read gives the same games, in every notation) and
//! a property test: arbitrary bytes into the reader never panic.

use std::path::PathBuf;

use dama_core::notation::SquareStyle;
use dama_core::pdn::{read_all, PdnGame};
use dama_core::record::{replay, variant_of, write_pdn, MoveRecord, WriteStyle};
use dama_core::tree::{read_tree, write_tree};
use dama_core::{Rules, Variant, VariantFn};
use proptest::prelude::*;

struct RoundTrip<'a>(&'a PdnGame, WriteStyle);
impl VariantFn for RoundTrip<'_> {
    type Output = Result<(), String>;
    fn call<R: Rules>(self) -> Result<(), String> {
        let g = self.0;
        let Ok(first) = replay::<R>(g) else {
            return Ok(());
        };
        let records: Vec<_> = first
            .moves
            .iter()
            .zip(&g.moves)
            .enumerate()
            .map(|(i, (m, pm))| MoveRecord {
                mv: *m,
                clock_ms: (i % 3 == 0).then_some(61_000 + i as u64 * 1000),
                comments: pm.comments.clone(),
            })
            .collect();
        let result = g.result.clone().unwrap_or_else(|| "*".into());
        let text = write_pdn(&g.tags, first.game.start(), &records, &result, self.1);
        let back = read_all(&text);
        if back.len() != 1 {
            return Err(format!("wrote {} games:\n{text}", back.len()));
        }
        let h = back.into_iter().next().unwrap().map_err(|e| format!("{e}\n{text}"))?;
        if !h.warnings.is_empty() {
            return Err(format!("{:?}\n{text}", h.warnings));
        }
        if variant_of(&h, Variant::English).map_err(|e| e.to_string())? != R::VARIANT {
            return Err(format!("GameType lost\n{text}"));
        }
        let second = replay::<R>(&h).map_err(|e| format!("{e}\n{text}"))?;
        if second.moves != first.moves || second.game.start() != first.game.start() {
            return Err(format!("moves differ\n{text}"));
        }
        if h.result != Some(result) || h.tag("White") != g.tag("White").or(Some("?")) {
            return Err(format!("tags or result differ\n{text}"));
        }
        // Comments and clocks survive.
        let comments: usize = h.moves.iter().map(|m| m.comments.len()).sum();
        let expected: usize = records.iter().map(|r| r.comments.len() + r.clock_ms.is_some() as usize).sum();
        if comments != expected {
            return Err(format!("comments {comments} != {expected}\n{text}"));
        }
        Ok(())
    }
}

#[test]
fn read_write_read_gives_the_same_games() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pdn/pdn3-test-suite/succeed");
    let mut n = 0;
    for (file, variant) in [
        ("kurnik.pdn", Variant::International),
        ("wk2003.pdn", Variant::International),
        ("gem.pdn", Variant::English),
        ("ussr1947.pdn", Variant::Russian),
        ("mrcd2007.pdn", Variant::Czech),
        ("Campionato_Assoluto_2005.pdn", Variant::Italian),
        ("Tricks_traps_and_shots.pdn", Variant::English),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for (i, g) in read_all(&text).into_iter().enumerate() {
            let g = g.unwrap();
            let v = variant_of(&g, variant).unwrap();
            for style in [
                WriteStyle::default(),
                WriteStyle { squares: SquareStyle::Own, long: true },
                WriteStyle { squares: SquareStyle::Numeric, long: false },
                WriteStyle { squares: SquareStyle::Algebraic, long: true },
            ] {
                v.visit(RoundTrip(&g, style)).unwrap_or_else(|e| panic!("{file} game {} {style:?}: {e}", i + 1));
            }
            n += 1;
        }
    }
    assert!(n > 500, "{n}");
}

/// Reads a game with its variations, writes the tree and reads it again: the same
/// tree. Returns the number of moves off the main line.
struct TreeTrip<'a>(&'a PdnGame);
impl VariantFn for TreeTrip<'_> {
    type Output = Result<usize, String>;
    fn call<R: Rules>(self) -> Result<usize, String> {
        let g = self.0;
        let main = replay::<R>(g);
        let tree = match (read_tree::<R>(g), main) {
            (Ok(t), Ok(m)) => {
                let line: Vec<_> = t.tree.main_line().iter().map(|&i| t.tree.nodes()[i].mv).collect();
                if line != m.moves {
                    return Err("the tree's main line is not the game".into());
                }
                t.tree
            }
            (Err(_), Err(_)) => return Ok(0),
            // A recorded result the moves contradict fails the replay, not the tree.
            (Ok(_), Err(e)) if e.kind == dama_core::record::ReplayErrorKind::ResultMismatch => return Ok(0),
            (t, m) => return Err(format!("tree {:?} but replay {:?}", t.err(), m.err())),
        };
        let text = write_tree(&g.tags, &tree, "", "*");
        let back = read_all(&text).into_iter().next().ok_or("no game written")?.map_err(|e| e.to_string())?;
        let again = read_tree::<R>(&back).map_err(|e| format!("{e}\n{text}"))?;
        if again.tree.nodes().len() != tree.nodes().len() || again.tree.start() != tree.start() {
            return Err(format!("{} moves became {}\n{text}", tree.nodes().len(), again.tree.nodes().len()));
        }
        for (a, b) in again.tree.nodes().iter().zip(tree.nodes()) {
            if a.mv != b.mv || a.parent != b.parent || a.nags != b.nags || a.comments.len() != b.comments.len() {
                return Err(format!("a move differs\n{text}"));
            }
        }
        Ok(tree.nodes().len() - tree.main_line().len())
    }
}

#[test]
fn variations_read_written_and_read_again_give_the_same_tree() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pdn/pdn3-test-suite/succeed");
    let (mut games, mut off_main) = (0, 0);
    for (file, variant) in [
        ("variation.pdn", Variant::International),
        ("nk_ronde_01.pdn", Variant::International),
        ("nk_ronde_02.pdn", Variant::International),
        ("Tricks_traps_and_shots.pdn", Variant::English),
        ("gem.pdn", Variant::English),
        ("ussr1947.pdn", Variant::Russian),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for (i, g) in read_all(&text).into_iter().enumerate() {
            let g = g.unwrap();
            let v = variant_of(&g, variant).unwrap();
            off_main += v.visit(TreeTrip(&g)).unwrap_or_else(|e| panic!("{file} game {}: {e}", i + 1));
            games += 1;
        }
    }
    assert!(games > 100, "{games}");
    assert!(off_main > 50, "only {off_main} moves in variations");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        for g in read_all(&text).into_iter().flatten() {
            for v in [Variant::English, Variant::International, Variant::Russian, Variant::Turkish] {
                let _ = v.visit(RoundTrip(&g, WriteStyle::default()));
            }
        }
    }

    #[test]
    fn pdn_like_text_never_panics(text in "(\\[[A-Za-z]{0,6} \"[^\"\\n]{0,10}\"\\]\\n){0,3}([0-9]{1,2}\\.{0,3} ?|[a-h][1-8][-x:][a-h][1-8] |[0-9]{1,2}[-x][0-9]{1,2} |\\{[^}]{0,8}\\} ?|\\( ?|\\) ?|\\$[0-9] |[!?]{1,2} |/W:W[0-9,]{0,6}/ |1-0|0-1|2-0|1/2-1/2|\\*|%[^\\n]{0,5}\\n){0,30}") {
        for g in read_all(&text).into_iter().flatten() {
            for v in [Variant::English, Variant::International, Variant::Russian] {
                let _ = v.visit(RoundTrip(&g, WriteStyle::default()));
                let _ = v.visit(TreeTrip(&g));
            }
        }
    }
}
