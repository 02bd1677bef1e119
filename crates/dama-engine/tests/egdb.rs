//! Endgame databases: built here from nothing, checked against their successors and
//! against results the rulebooks and endgame literature state, then played out.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use dama_core::fen::parse_fen;
use dama_core::game::{material_end, DrawRules, Game, Status};
use dama_core::movegen::{can_capture, has_capture, legal_moves};
use dama_core::variant::{English, Russian};
use dama_core::{Bits, Color, Position, Rules};
use dama_engine::egdb::index::{Indexer, Material};
use dama_engine::egdb::value::Value;
use dama_engine::egdb::{self, Egdb};
use dama_engine::eval::EvalKind;
use dama_engine::search::{plies_to_end, score_text, Limits, Searcher};

/// An empty directory of this test run, for tables.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dama-egdb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Tables up to four pieces for English and Russian, built once for all tests.
fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = fresh_dir("test");
        egdb::build::<English>(&dir, 4, 2, &mut |_| {}).expect("build english");
        egdb::build::<Russian>(&dir, 4, 2, &mut |_| {}).expect("build russian");
        dir
    })
}

fn open<R: Rules>() -> Egdb<R> {
    Egdb::<R>::open(root()).expect("readable").expect("built")
}

/// Every position of a material (either side to move), with its value.
fn each<R: Rules>(db: &Egdb<R>, m: Material, mut f: impl FnMut(&Position<R>, Value)) {
    for pos in Indexer::<R>::new().every(m) {
        f(&pos, db.probe(&pos).expect("in the tables"));
    }
}

#[test]
fn every_stored_value_agrees_with_its_successors() {
    egdb::verify::<English>(root(), 4, 2, &mut |_| {}).expect("english tables verify");
    egdb::verify::<Russian>(root(), 4, 2, &mut |_| {}).expect("russian tables verify");
}

/// Solves a slice again the plain way, independently of the builder's backward
/// moves: repeat "a win if some move reaches a loss, a loss if every move reaches a
/// win" over all positions until nothing changes; the rest are draws. The draws of
/// the tables are what the successor check cannot prove, so they are compared here.
fn forward_solve<R: Rules>(db: &Egdb<R>, m: Material) -> usize {
    let rules = DrawRules::official(R::VARIANT);
    let positions: Vec<Position<R>> = Indexer::<R>::new().every(m).collect();
    let slot: std::collections::HashMap<u64, usize> =
        positions.iter().enumerate().map(|(k, p)| (p.hash(), k)).collect();
    // 1: the side to move wins, -1: loses, 0: not known yet.
    let mut wdl = vec![0i8; positions.len()];
    let mut fixed = vec![false; positions.len()];
    for (k, p) in positions.iter().enumerate() {
        if let Some(r) = material_end(&rules, p) {
            fixed[k] = true;
            wdl[k] = match r.winner {
                None => 0,
                Some(c) if c == p.side() => 1,
                Some(_) => -1,
            };
        }
    }
    loop {
        let mut changed = false;
        for k in 0..positions.len() {
            if fixed[k] || wdl[k] != 0 {
                continue;
            }
            let p = &positions[k];
            let (mut any_loss, mut all_win) = (false, true);
            for mv in legal_moves(p).iter() {
                let c = p.play(mv);
                let v = if Material::of(&c) == m {
                    wdl[slot[&c.hash()]]
                } else if Material::of(&c).side(c.side()) == 0 {
                    -1
                } else {
                    let v = db.probe(&c).expect("smaller tables");
                    if v.is_win() {
                        1
                    } else if v.is_loss() {
                        -1
                    } else {
                        0
                    }
                };
                any_loss |= v == -1;
                all_win &= v == 1;
            }
            let new = if any_loss {
                1
            } else if all_win {
                -1
            } else {
                0
            };
            if new != 0 {
                wdl[k] = new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (k, p) in positions.iter().enumerate() {
        let v = db.probe(p).expect("in the tables");
        let stored = if v.is_win() {
            1
        } else if v.is_loss() {
            -1
        } else {
            0
        };
        assert_eq!(stored, wdl[k], "{m}: {p:?} is stored as {v}");
    }
    positions.len()
}

#[test]
fn tables_up_to_three_pieces_match_a_plain_forward_solution() {
    let (e, r) = (open::<English>(), open::<Russian>());
    let mut n = 0;
    for pieces in 2..=3 {
        // Each stored slice, and its mirror, whose positions the tables find mirrored.
        for m in Material::all_with(pieces) {
            n += forward_solve(&e, m) + forward_solve(&r, m);
            if !m.is_symmetric() {
                n += forward_solve(&e, m.mirror()) + forward_solve(&r, m.mirror());
            }
        }
    }
    n += forward_solve(&r, Material { men: [0, 0], kings: [3, 1] });
    assert!(n > 500_000, "{n}");
}

#[test]
fn a_corrupted_table_fails_verification() {
    let dir = fresh_dir("bad");
    egdb::build::<English>(&dir, 3, 1, &mut |_| {}).expect("build");
    let file = dir.join("english").join("0-2-0-1.egdb");
    let values: Vec<u8> = (0..31744).map(|i| if i % 2 == 0 { 2 } else { 0 }).collect();
    let m = Material { men: [0, 0], kings: [2, 1] };
    std::fs::write(&file, egdb::store::encode("english", m, &values)).expect("write");
    let err = egdb::verify::<English>(&dir, 3, 2, &mut |_| {}).expect_err("must not verify");
    assert!(err.to_string().contains("0-2-0-1.egdb"), "{err}");
    std::fs::write(&file, b"not a table").expect("write");
    let err = Egdb::<English>::open(&dir).err().expect("must not open");
    assert!(err.to_string().contains("not a dama endgame table"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tables_of_an_older_format_are_built_again() {
    let dir = fresh_dir("old");
    egdb::build::<Russian>(&dir, 2, 1, &mut |_| {}).expect("build");
    let file = dir.join("russian").join("0-1-0-1.egdb");
    let good = std::fs::read(&file).expect("read");
    // The same table as an older build wrote it: format version 1 after the magic.
    let mut old = good.clone();
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    std::fs::write(&file, &old).expect("write");
    let err = Egdb::<Russian>::open(&dir).err().expect("an old table is not read");
    assert!(err.to_string().contains("dama egdb build writes it again"), "{err}");
    // An older build also wrote the mirror of each slice (here king against man,
    // now found in the table of man against king); the new build removes it.
    let mirrored = dir.join("russian").join("0-1-1-0.egdb");
    std::fs::write(&mirrored, &old).expect("write");
    let mut rebuilt = Vec::new();
    egdb::build::<Russian>(&dir, 2, 1, &mut |p| rebuilt.push((p.material, p.existed))).expect("build");
    assert!(rebuilt.contains(&(Material { men: [0, 0], kings: [1, 1] }, false)), "{rebuilt:?}");
    assert_eq!(std::fs::read(&file).expect("read"), good);
    assert!(!mirrored.exists(), "the old mirrored slice is removed");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn english_two_kings_beat_one_and_one_king_each_draws() {
    let db = open::<English>();
    let (mut wins, mut total) = (0, 0);
    each(&db, Material { men: [0, 0], kings: [2, 1] }, |pos, v| {
        if !can_capture(pos, Color::White) && !can_capture(pos, Color::Black) {
            let white_wins = if pos.side() == Color::White { v.is_win() } else { v.is_loss() };
            let white_loses = if pos.side() == Color::White { v.is_loss() } else { v.is_win() };
            assert!(!white_loses, "{pos:?}: {v}");
            wins += usize::from(white_wins);
            total += 1;
        }
    });
    // The few exceptions are real: the lone king forces an exchange, or holds a king
    // shut in the single corner (W:WK29,K30:BK22).
    assert!(wins * 1000 >= total * 997, "{wins} of {total}");
    let trapped = parse_fen::<English>("W:WK29,K30:BK22").expect("fen");
    assert_eq!(db.probe(&trapped), Some(egdb::value::DRAW));
    // One king each: kings in the two double corners draw whoever moves; a king on the
    // edge facing the other in opposition is caught (W:WK9:BK30, 4 moves).
    for fen in ["W:WK1:BK32", "B:WK1:BK32", "W:WK5:BK28", "B:WK5:BK28"] {
        let pos = parse_fen::<English>(fen).expect("fen");
        assert_eq!(db.probe(&pos), Some(egdb::value::DRAW), "{fen}");
    }
    let caught = parse_fen::<English>("W:WK9:BK30").expect("fen");
    assert_eq!(db.probe(&caught).and_then(Value::plies), Some((false, 7)));
}

/// The a1-h8 diagonal, the "main road" of Russian draughts.
fn long_diagonal() -> u64 {
    ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"].iter().fold(0u64, |acc, n| {
        let i = dama_core::notation::parse_square::<Russian>(n).expect("square");
        acc | 1u64 << <dama_core::geometry::Dark8 as dama_core::geometry::Geometry>::LAYOUT.bit_of[i]
    })
}

#[test]
fn russian_three_kings_cannot_catch_a_king_on_the_long_diagonal() {
    let db = open::<Russian>();
    let road = long_diagonal();
    let mut held = 0;
    each(&db, Material { men: [0, 0], kings: [3, 1] }, |pos, v| {
        let lone_on_road = (pos.kings_of(Color::Black) & road).any();
        let strong_on_road = (pos.kings_of(Color::White) & road).any();
        if pos.side() == Color::Black && lone_on_road && !strong_on_road && !has_capture(pos) {
            assert_eq!(v, egdb::value::DRAW, "{pos:?}");
            held += 1;
        }
    });
    assert!(held > 5_000, "{held}");
}

#[test]
fn russian_three_kings_holding_the_long_diagonal_catch_a_lone_king() {
    let db = open::<Russian>();
    let road = long_diagonal();
    let (mut wins, mut total) = (0, 0);
    each(&db, Material { men: [0, 0], kings: [3, 1] }, |pos, v| {
        let lone_on_road = (pos.kings_of(Color::Black) & road).any();
        let strong_on_road = (pos.kings_of(Color::White) & road).any();
        if pos.side() == Color::White && strong_on_road && !lone_on_road {
            wins += usize::from(v.is_win());
            total += 1;
        }
    });
    // The same count from a separate brute-force solver written for this check (flying
    // kings, the Turkish strike, a capture continued where it can be): the lone king
    // escapes only where it captures at once or forces an exchange.
    assert_eq!((wins, total), (64_800, 65_376));
    // Petrov's own position (1827) is won within the 15 moves the rules allow.
    let petrov = parse_fen::<Russian>("W:WKa1,Kc1,Ke1:BKf8").expect("fen");
    let v = db.probe(&petrov).expect("in the tables");
    assert!(v.is_win(), "{v}");
    // Published: the method takes the lone king by the 13th move at the latest.
    let plies = v.plies().map_or(usize::MAX, |(_, d)| d);
    assert!(plies <= 25, "{plies} plies");
}

/// Plays a published win out with the engine on both sides, then the same position
/// with the colours exchanged; the winner must win both times, within `max` plies.
fn won_from_both_sides<R: Rules>(fen: &str, max: usize) {
    let (winner, plies) = play_out::<R>(fen);
    assert_eq!(winner, Some(Color::White), "{fen}");
    assert!(plies <= max, "{fen}: {plies} plies");
    let mirrored = dama_core::fen::write_fen(&mirror(&parse_fen::<R>(fen).expect("fen")));
    let (winner, plies) = play_out::<R>(&mirrored);
    assert_eq!(winner, Some(Color::Black), "{mirrored}");
    assert!(plies <= max, "{mirrored}: {plies} plies");
}

#[test]
fn published_endgame_wins_are_won_against_the_engine_itself() {
    egdb::install(open::<Russian>());
    // Petrov's triangle, under the seed 000 rule that three kings must take the lone
    // king by their 15th move.
    won_from_both_sides::<Russian>("W:WKa1,Kc1,Ke1:BKf8", 29);
    egdb::install(open::<English>());
    // First Position (the American Checker Federation's standard positions): White's
    // king and man against king and man, the man on 12 held back while White crowns.
    won_from_both_sides::<English>("W:W20,K15:B12,K28", 120);
}

/// Plays `fen` out with the engine on both sides (the tables installed) under the
/// official rules; the result and the number of plies.
fn play_out<R: Rules>(fen: &str) -> (Option<Color>, usize) {
    let mut game = Game::from_position(parse_fen::<R>(fen).expect("fen"), DrawRules::official(R::VARIANT));
    play_on(&mut game);
    (game.result().and_then(|r| r.winner), game.plies().len())
}

/// Plays a game on to its end with the engine on both sides (the tables installed).
fn play_on<R: Rules>(game: &mut Game<R>) {
    let mut s = Searcher::<R>::new(16, EvalKind::default_for::<R>());
    assert!(s.egdb.is_some(), "tables installed");
    let stop = AtomicBool::new(false);
    while game.status() == Status::Ongoing {
        let history: Vec<u64> = game.plies().iter().map(|p| p.before.hash()).collect();
        let limits = Limits { nodes: Some(20_000), ..Limits::default() };
        s.root_count = game.plies_since_material_change();
        let out = s.think(game.position(), &history, limits, &stop, &mut |_| {});
        game.play(&out.best.expect("a move")).expect("legal");
        assert!(game.plies().len() < 200, "no end");
    }
}

#[test]
fn a_win_the_lone_king_count_forbids_is_a_draw() {
    egdb::install(open::<Russian>());
    // Walk from Petrov's position with quiet king moves (no capture, no repetition,
    // White's win kept) until the tables' win no longer fits in the 15 moves the rules
    // leave the three kings: the count started at the walk's first move.
    let petrov = parse_fen::<Russian>("W:WKa1,Kc1,Ke1:BKf8").expect("fen");
    let db = open::<Russian>();
    let mut game = Game::from_position(petrov, DrawRules::official(Russian::VARIANT));
    let mut seen = vec![petrov.hash()];
    let (mut fits, mut too_late) = (None, None);
    for _ in 0..30 {
        let pos = *game.position();
        let v = db.probe(&pos).expect("in the tables");
        let count = game.plies_since_material_change();
        if let Some((false, d)) = v.plies().filter(|_| pos.side() == Color::White) {
            if count as usize + d <= 30 {
                fits.get_or_insert(game.clone());
            } else {
                too_late.get_or_insert(game.clone());
            }
        }
        // Both sides play slowly: White the longest of its wins, Black the longest
        // defence, so the count runs while the win stays as far off.
        let moves = legal_moves(&pos);
        let slowest = moves
            .as_slice()
            .iter()
            .filter(|m| !m.is_capture())
            .filter_map(|m| {
                let after = pos.play(m);
                let v = db.probe(&after)?;
                let white_wins = if after.side() == Color::White { v.is_win() } else { v.is_loss() };
                let fresh = !has_capture(&after) && !seen.contains(&after.hash());
                (white_wins && fresh).then(|| (v.plies().map_or(0, |p| p.1), *m))
            })
            .max_by_key(|&(d, _)| d);
        let Some((_, next)) = slowest else { break };
        game.play(&next).expect("legal");
        seen.push(game.position().hash());
        if game.status() != Status::Ongoing {
            break;
        }
    }
    let search = |game: &Game<Russian>| {
        let mut s = Searcher::<Russian>::new(16, EvalKind::default_for::<Russian>());
        s.root_count = game.plies_since_material_change();
        let history: Vec<u64> = game.plies().iter().map(|p| p.before.hash()).collect();
        s.think(game.position(), &history, Limits::default(), &AtomicBool::new(false), &mut |_| {}).score
    };
    // A win that fits is announced and won.
    let mut g = fits.expect("a win within the count");
    let d = db.probe(g.position()).and_then(|v| v.plies()).expect("a win").1;
    assert_eq!(plies_to_end(search(&g)), Some(d as i32));
    play_on(&mut g);
    assert_eq!(g.result().and_then(|r| r.winner), Some(Color::White));
    // A win that does not is scored a draw, though the tables (which know no count)
    // say White wins from the same position; played on, the game is drawn.
    let mut g = too_late.expect("a win beyond the count");
    assert!(db.probe(g.position()).expect("in the tables").is_win());
    let score = search(&g);
    assert_eq!(plies_to_end(score), None, "{score}");
    // A draw, tipped by the material (three kings against one: 15 - 5).
    assert_eq!(score, 10);
    play_on(&mut g);
    assert_eq!(g.result().expect("over").winner, None);
}

#[test]
fn the_engine_converts_the_longest_wins_from_both_sides() {
    let db = open::<English>();
    // The longest win of two kings against king and man, and its mirror image with
    // the colours exchanged.
    let (mut best, mut fen) = (0, String::new());
    each(&db, Material { men: [0, 1], kings: [2, 1] }, |pos, v| {
        if let Some((false, d)) = v.plies() {
            if pos.side() == Color::White && d > best {
                best = d;
                fen = dama_core::fen::write_fen(pos);
            }
        }
    });
    assert!(best >= 21, "{best}");
    egdb::install(db);
    // What a player is told.
    let mut s = Searcher::<English>::new(16, EvalKind::default_for::<English>());
    let out = s.think(&parse_fen(&fen).expect("fen"), &[], Limits::default(), &AtomicBool::new(false), &mut |_| {});
    assert_eq!(plies_to_end(out.score), Some(best as i32));
    assert_eq!(score_text(out.score), format!("win in {} moves", best.div_ceil(2)));
    let (winner, plies) = play_out::<English>(&fen);
    assert_eq!((winner, plies), (Some(Color::White), best), "{fen}");
    let mirrored = mirror(&parse_fen::<English>(&fen).expect("fen"));
    let (winner, plies) = play_out::<English>(&dama_core::fen::write_fen(&mirrored));
    assert_eq!((winner, plies), (Some(Color::Black), best), "{fen} mirrored");
}

/// The same position seen from the other side: the board turned round, colours exchanged.
fn mirror<R: Rules>(pos: &Position<R>) -> Position<R> {
    let turn = |b: dama_core::BB<R>| {
        let l = <R::G as dama_core::geometry::Geometry>::LAYOUT;
        b.iter().fold(dama_core::BB::<R>::ZERO, |acc, bit| {
            let i = l.index_of_bit[bit as usize] as usize;
            acc | dama_core::BB::<R>::bit(u32::from(l.bit_of[l.squares - 1 - i]))
        })
    };
    let men = [turn(pos.men(Color::Black)), turn(pos.men(Color::White))];
    let kings = [turn(pos.kings_of(Color::Black)), turn(pos.kings_of(Color::White))];
    Position::from_bits(men, kings, !pos.side()).expect("mirror")
}

/// Six-piece tables take about 25 minutes of two cores to build, so this test reads
/// them from `DAMA_EGDB` (built there by `dama egdb build --variant english --pieces 6`)
/// and is run by hand: `DAMA_EGDB=... cargo test --release --test egdb -- --ignored`.
#[test]
#[ignore = "needs the six-piece English tables in DAMA_EGDB"]
fn six_piece_published_wins_are_won() {
    let dir = PathBuf::from(std::env::var("DAMA_EGDB").expect("DAMA_EGDB names the tables' directory"));
    let db = Egdb::<English>::open(&dir).expect("readable").expect("built");
    assert!(db.pieces() >= 6, "six-piece tables in {}", dir.display());
    // "Negative Second Position" (W. Strickland, in Boland's Famous Positions):
    // Black to play and win, three pieces each.
    let fen = "B:WK28,13,12:BK15,5,3";
    let pos = parse_fen::<English>(fen).expect("fen");
    let v = db.probe(&pos).expect("in the tables");
    assert!(v.is_win(), "{fen}: {v}");
    egdb::install(db);
    let (winner, plies) = play_out::<English>(fen);
    assert_eq!(winner, Some(Color::Black), "{fen}: {plies} plies");
    let mirrored = dama_core::fen::write_fen(&mirror(&pos));
    let (winner, plies) = play_out::<English>(&mirrored);
    assert_eq!(winner, Some(Color::White), "{mirrored}: {plies} plies");
}
