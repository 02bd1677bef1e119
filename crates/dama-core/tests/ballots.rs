//! The ballot lists: every opening plays from the start in its variant, the counts are
//! the published ones, no two openings of a list meet, the International positions are
//! the PDN file's, and the draw is deterministic.

use std::collections::{HashMap, HashSet};

use dama_core::any::AnyPosition;
use dama_core::ballot::{draw, draw_distinct, BallotList, Opening};
use dama_core::Variant;

/// (list, openings in all, barred, playable).
const COUNTS: &[(BallotList, usize, usize, usize)] = &[
    (BallotList::English3Move, 174, 18, 156),
    (BallotList::English2Move, 49, 2, 47),
    (BallotList::International3Move, 301, 0, 301),
];

/// The ACF numbers of the 18 barred three-move openings.
const BARRED_3MOVE: &[u16] = &[3, 13, 26, 35, 44, 45, 48, 52, 77, 88, 94, 109, 114, 137, 145, 156, 168, 171];

/// A few three-move openings as (ACF number, moves, name).
const SAMPLES_3MOVE: &[(u16, &str, Option<&str>)] = &[
    (1, "9-13 21-17 5-9", None),
    (4, "9-13 22-17 13x22", None),
    (5, "9-13 22-18 6-9", Some("Dreaded Edinburgh")),
    (35, "9-13 24-20 12-16", Some("Dundee Barred")),
    (46, "9-14 23-18 14x23", Some("Double Cross")),
    (120, "11-15 22-18 15x22", None),
    (153, "11-16 23-19 16x23", Some("Black Widow")),
    (174, "12-16 24-20 10-15", Some("Skunk")),
];

/// Plays an opening from the start of `variant`, checking that each move text names
/// exactly one legal move and is the text dama-core writes for it.
fn play(list: BallotList, variant: Variant, o: &Opening) -> AnyPosition {
    let mut pos = AnyPosition::new(variant, None).unwrap();
    for text in &o.moves {
        let fits: Vec<_> = pos.legal().into_iter().filter(|m| m.notation == *text || m.long == *text).collect();
        assert_eq!(fits.len(), 1, "{list} #{} {text}: {} legal moves fit", o.number, fits.len());
        let (view, next) = pos.play(text).unwrap_or_else(|e| panic!("{list} #{}: {e}", o.number));
        assert_eq!(view.notation, *text, "{list} #{}: dama-core writes the move otherwise", o.number);
        pos = next;
    }
    pos
}

#[test]
fn every_opening_plays_from_the_start_in_each_of_its_variants() {
    for &list in BallotList::ALL {
        assert!(!list.variants().is_empty());
        for &variant in list.variants() {
            for o in list.all_openings() {
                let pos = play(list, variant, o);
                assert_eq!(pos.fen(), o.fen(variant));
            }
        }
    }
}

#[test]
fn the_counts_are_the_published_ones() {
    for &(list, all, barred, playable) in COUNTS {
        assert_eq!(list.all_openings().len(), all, "{list}");
        assert_eq!(list.all_openings().iter().filter(|o| o.barred).count(), barred, "{list}");
        assert_eq!(list.openings().len(), playable, "{list}");
        assert_eq!(playable, all - barred);
        assert!(list.openings().iter().all(|o| !o.barred));
    }
}

#[test]
fn openings_are_numbered_one_to_n_in_order() {
    for &list in BallotList::ALL {
        let numbers: Vec<u16> = list.all_openings().iter().map(|o| o.number).collect();
        let expected: Vec<u16> = (1..=numbers.len() as u16).collect();
        assert_eq!(numbers, expected, "{list}");
        for o in list.all_openings() {
            assert_eq!(list.opening(o.number), Some(o));
        }
    }
}

#[test]
fn the_three_move_list_bars_the_usual_eighteen() {
    let barred: Vec<u16> =
        BallotList::English3Move.all_openings().iter().filter(|o| o.barred).map(|o| o.number).collect();
    assert_eq!(barred, BARRED_3MOVE);
    for o in BallotList::English3Move.all_openings() {
        assert_eq!(o.moves.len(), 3);
    }
}

#[test]
fn three_move_samples_match_the_source() {
    for &(number, line, name) in SAMPLES_3MOVE {
        let o = BallotList::English3Move.opening(number).unwrap();
        assert_eq!(o.line(), line);
        assert_eq!(o.name, name);
    }
}

#[test]
fn the_two_move_list_is_every_first_move_pair_with_two_barred() {
    let list = BallotList::English2Move;
    let mut pairs = HashSet::new();
    for o in list.all_openings() {
        assert_eq!(o.moves.len(), 2);
        assert!(pairs.insert(o.line()));
    }
    // Every first move of Black, answered by every first move of White.
    let start = AnyPosition::new(Variant::English, None).unwrap();
    let mut every = HashSet::new();
    for m in start.legal() {
        let (_, after) = start.play(&m.notation).unwrap();
        for r in after.legal() {
            every.insert(format!("{} {}", m.notation, r.notation));
        }
    }
    assert_eq!(pairs, every);
    let barred: Vec<String> = list.all_openings().iter().filter(|o| o.barred).map(|o| o.line()).collect();
    assert_eq!(barred, ["11-16 23-19", "12-16 23-19"]);
    assert_eq!(list.opening(31).unwrap().line(), "11-15 22-18");
    assert_eq!(list.opening(31).unwrap().name, Some("Single Corner"));
}

#[test]
fn no_two_openings_of_a_list_reach_the_same_position() {
    for &list in BallotList::ALL {
        let variant = list.variant();
        let mut seen: HashMap<String, u16> = HashMap::new();
        for o in list.all_openings() {
            if let Some(other) = seen.insert(o.fen(variant), o.number) {
                panic!("{list}: #{} and #{other} reach the same position", o.number);
            }
        }
    }
}

#[test]
fn international_fens_are_the_fen_tags_of_the_pdn_file() {
    let pdn = include_str!("../ballots/international-3move.pdn");
    let tags: Vec<&str> =
        pdn.lines().filter_map(|l| l.strip_prefix("[FEN \"").and_then(|r| r.strip_suffix("\"]"))).collect();
    let list = BallotList::International3Move;
    assert_eq!(tags.len(), list.all_openings().len());
    for (o, tag) in list.all_openings().iter().zip(tags) {
        assert_eq!(o.moves.len(), 3, "#{}", o.number);
        assert_eq!(o.fen(Variant::International), tag, "#{} {}", o.number, o.line());
    }
}

#[test]
fn keys_round_trip() {
    for &list in BallotList::ALL {
        assert_eq!(BallotList::from_key(list.key()), Some(list));
        assert_eq!(list.to_string(), list.key());
    }
    assert_eq!(BallotList::from_key("english-3move"), Some(BallotList::English3Move));
    assert_eq!(BallotList::from_key("english-2move"), Some(BallotList::English2Move));
    assert_eq!(BallotList::from_key("international-3move"), Some(BallotList::International3Move));
    assert_eq!(BallotList::from_key("nope"), None);
    assert_eq!(BallotList::for_variant(Variant::English), [BallotList::English3Move, BallotList::English2Move]);
    assert_eq!(BallotList::for_variant(Variant::International), [BallotList::International3Move]);
    assert!(BallotList::for_variant(Variant::Russian).is_empty());
}

#[test]
fn draw_is_deterministic_and_draws_only_playable_openings() {
    for &list in BallotList::ALL {
        let mut drawn = HashSet::new();
        for seed in 0..5000u64 {
            let o = draw(list, seed);
            assert!(!o.barred, "{list} drew barred #{}", o.number);
            assert!(std::ptr::eq(o, draw(list, seed)));
            assert_eq!(o, draw(list, seed));
            drawn.insert(o.number);
        }
        // 5000 draws reach every opening of lists this size.
        assert_eq!(drawn.len(), list.openings().len(), "{list}");
    }
    // Known values (SplitMix64 of the seed, scaled to the list), so that a change of
    // the pick, which would change every stored tournament's draw, shows.
    let first: Vec<u16> = (0..5).map(|s| draw(BallotList::English3Move, s).number).collect();
    assert_eq!(first, [153, 100, 104, 20, 76]);
}

#[test]
fn draw_distinct_gives_distinct_playable_openings() {
    for &list in BallotList::ALL {
        let n = list.openings().len();
        let all = draw_distinct(list, 42, usize::MAX);
        assert_eq!(all.len(), n);
        let numbers: HashSet<u16> = all.iter().map(|o| o.number).collect();
        assert_eq!(numbers.len(), n);
        assert!(all.iter().all(|o| !o.barred));
        assert_eq!(draw_distinct(list, 42, 5), all[..5].to_vec());
        assert_ne!(draw_distinct(list, 43, n), all);
    }
}
