//! Real games kept in `tests/data/pdn/` (copied from the team's shared collections): the PDN 3.0 reader suite and online games.

use std::path::PathBuf;

use dama_core::fen::parse_fen;
use dama_core::movegen::legal_moves;
use dama_core::pdn::{read_all, PdnGame, PdnIssueKind, PdnReader};
use dama_core::record::{replay, variant_of, ReplayError};
use dama_core::variant::International;
use dama_core::{Bits, Rules, Variant, VariantFn};

fn data(rel: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pdn").join(rel);
    assert!(p.exists(), "test data missing: {} (the PDN collections are part of the repository)", p.display());
    p
}

struct Replay<'a>(&'a PdnGame);
impl VariantFn for Replay<'_> {
    type Output = Result<usize, ReplayError>;
    fn call<R: Rules>(self) -> Self::Output {
        replay::<R>(self.0).map(|r| r.moves.len())
    }
}

fn files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(data(dir)).unwrap().map(|e| e.unwrap().path()).collect();
    v.sort();
    v
}

/// The variant of each suite file without a GameType tag (the suite's games are
/// 10x10 unless named here).
fn suite_variant(name: &str) -> Variant {
    match name {
        n if n.starts_with("ussr1947") || n.starts_with("abatsiev") => Variant::Russian,
        n if n.starts_with("mrcd") || n.starts_with("mrdrcd") => Variant::Czech,
        "Campionato_Assoluto_2005.pdn" => Variant::Italian,
        "OCA_2.0.pdn"
        | "PROF2.pdn"
        | "Principles_of_Strategy.pdn"
        | "Tricks_traps_and_shots.pdn"
        | "beginner.pdn"
        | "borderclassics.pdn"
        | "bridges.pdn"
        | "candidate95.pdn"
        | "gem.pdn"
        | "goulds.pdn"
        | "inferno.pdn"
        | "lpc.pdn"
        | "DUTCH96H.pdn"
        | "alphanumeric.pdn" => Variant::English,
        _ => Variant::International,
    }
}

/// Games of the suite that are not legal, each with the reason (checked below).
const KNOWN_BAD: [(&str, usize, &str); 7] = [
    // Problem positions with a man on its own crowning row: impossible positions.
    ("beginner.pdn", 10, "white man on 1, its crowning row"),
    ("goulds.pdn", 93, "white man on 3, its crowning row"),
    ("lpc.pdn", 36, "black man on 30, its crowning row"),
    ("lpc.pdn", 63, "black man on 32, its crowning row"),
    ("lpc.pdn", 65, "black man on 31, its crowning row"),
    ("lpc.pdn", 73, "white man on 4, its crowning row"),
    // An empty FEN "W::.".
    ("bridges.pdn", 14, "piece list at character 3"),
];

#[test]
fn every_succeed_game_parses_and_replays() {
    let mut games = 0;
    for path in files("pdn3-test-suite/succeed") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let reader = PdnReader::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
        for (i, g) in reader.enumerate() {
            let g = g.unwrap_or_else(|e| panic!("{name}: game {} unreadable: {e}", i + 1));
            games += 1;
            let v = variant_of(&g, suite_variant(&name)).unwrap();
            match v.visit(Replay(&g)) {
                Ok(_) => {}
                Err(e) => {
                    let known = KNOWN_BAD.iter().find(|k| k.0 == name && k.1 == i + 1);
                    let k = known.unwrap_or_else(|| panic!("{name} game {}: {e}", i + 1));
                    assert!(e.to_string().contains(k.2), "{name} game {}: {e}", i + 1);
                }
            }
        }
    }
    assert!(games > 1900, "{games} games");
}

#[test]
fn every_fail_file_is_reported() {
    for path in files("pdn3-test-suite/fail") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut problems = 0;
        for g in read_all(&text) {
            match g {
                Err(_) => problems += 1,
                Ok(g) => {
                    problems += g.warnings.len();
                    // Strict PDN: no GameType means English (21).
                    let v = variant_of(&g, Variant::English).unwrap();
                    if v.visit(Replay(&g)).is_err() {
                        problems += 1;
                    }
                }
            }
        }
        assert!(problems > 0, "{name}: nothing reported");
    }
    // The nested comment is reported by the reader itself.
    let text = std::fs::read_to_string(data("pdn3-test-suite/fail/nested_comment.pdn")).unwrap();
    let g = read_all(&text).remove(0).unwrap();
    assert!(g.warnings.iter().any(|w| w.what == PdnIssueKind::NestedComment), "{:?}", g.warnings);
}

/// Replays every game of an online sample; returns (entries, games with moves).
/// Each entry is read on its own: the samples hold some games as tags only and some
/// as movetext only (one file also escapes its newlines as `\\n`).
fn online(file: &str, variant: Variant) -> (usize, usize) {
    let text = std::fs::read_to_string(data(&format!("online-samples/{file}"))).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let list = json.as_object().unwrap().values().next().unwrap().as_array().unwrap();
    let mut with_moves = 0;
    for (i, e) in list.iter().enumerate() {
        let entry = e.as_str().unwrap().replace("\\n", "\n");
        let games = read_all(&entry);
        assert_eq!(games.len(), 1, "{file} #{i}");
        let g = games.into_iter().next().unwrap().unwrap_or_else(|e| panic!("{file} #{i}: {e}"));
        assert_eq!(variant_of(&g, variant).unwrap(), variant, "{file} #{i}");
        let plies = variant.visit(Replay(&g)).unwrap_or_else(|e| panic!("{file} #{i}: {e}"));
        if plies > 0 {
            with_moves += 1;
        }
    }
    (list.len(), with_moves)
}

#[test]
fn online_games_replay_to_their_results() {
    for (file, variant) in [
        ("russian_lidraughts_random_pdns.json", Variant::Russian),
        ("brazilian_lidraughts_random_pdns.json", Variant::Brazilian),
        ("standard_lidraughts_random_pdns.json", Variant::International),
        ("frisian_lidraughts_random_pdns.json", Variant::Frisian),
        ("american_playstrategy_random_pdns.json", Variant::English),
    ] {
        let (entries, with_moves) = online(file, variant);
        assert!(with_moves >= 9, "{file}: {entries} entries, {with_moves} with moves");
    }
}

#[test]
fn international_legal_move_counts() {
    let text = std::fs::read_to_string(data("online-samples/standard_legal_moves_len.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (fen, n) in json.as_object().unwrap() {
        let pos = parse_fen::<International>(fen).unwrap();
        assert_eq!(legal_moves(&pos).len() as u64, n.as_u64().unwrap(), "{fen}");
    }
}

/// The American Checker Federation archive (9,377 games, converted from the dataset's
/// 0-31 numbering, see the data README): every game replays under the English rules,
/// move by move, and where the rules ended a game (the side to move has no move), the
/// recorded result names the other side as the winner (`replay` checks it). A wrong
/// square mapping or result reading would break thousands of them.
#[test]
fn the_acf_archive_replays_under_english_rules() {
    use dama_core::game::Status;
    use dama_core::variant::English;
    let text = std::fs::read_to_string(data("masters/acf-archive.pdn")).unwrap();
    let (mut games, mut ended_by_rules, mut plies) = (0, 0, 0);
    let mut results = [0usize; 3];
    let (mut winner_leads, mut winner_trails) = (0, 0);
    for (i, g) in PdnReader::new(text.as_bytes()).enumerate() {
        let g = g.unwrap_or_else(|e| panic!("game {}: {e}", i + 1));
        assert!(g.warnings.is_empty(), "game {}: {:?}", i + 1, g.warnings);
        assert_eq!(variant_of(&g, Variant::International).unwrap(), Variant::English);
        let r = replay::<English>(&g).unwrap_or_else(|e| panic!("game {}: {e}", i + 1));
        assert!(r.warnings.is_empty(), "game {}: {:?}", i + 1, r.warnings);
        if legal_moves(r.game.position()).is_empty() {
            assert!(matches!(r.game.status(), Status::Over(_)), "game {}", i + 1);
            ended_by_rules += 1;
        }
        // Material at the end (a king counts as two men), from Black's side.
        let pos = r.game.position();
        let material = |c: dama_core::Color| 2 * i64::from(pos.pieces(c).count()) - i64::from(pos.men(c).count());
        let lead = material(dama_core::Color::Black) - material(dama_core::Color::White);
        let k = ["1-0", "0-1", "1/2-1/2"].iter().position(|t| Some(*t) == g.tag("Result")).expect("a result");
        results[k] += 1;
        // Does the recorded winner lead in material at the end, or trail?
        match (k, lead.signum()) {
            (0, 1) | (1, -1) => winner_leads += 1,
            (0, -1) | (1, 1) => winner_trails += 1,
            _ => {}
        }
        plies += r.moves.len();
        games += 1;
    }
    assert_eq!(games, 9377);
    // The dataset's own tally: Red (Black, first to move) won 1,597, White 2,373.
    assert_eq!(results, [1597, 2373, 5407]);
    // No game ends with a side left without a move: the losers resigned. The results
    // are checked by the material instead: the recorded winner leads at the end in
    // most decisive games (reading the results the wrong way round would reverse it).
    assert_eq!(ended_by_rules, 0);
    assert!(winner_leads > 5 * winner_trails, "winner leads in {winner_leads}, trails in {winner_trails}");
    eprintln!("winner leads in {winner_leads}, trails in {winner_trails}");
    assert!(plies > 9377 * 40, "{plies} plies");
}
