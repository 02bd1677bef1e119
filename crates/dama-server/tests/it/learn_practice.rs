//! The Learn section's practice positions (`src/learn/practice.json`): each stated
//! solution is checked against the rules and the engine, not against the Learn
//! module: the line is legal, it wins material (or the game), and the engine, searching
//! afresh, finds its first move the one move that wins. The ignored test below is how
//! the positions were found: random positions of a few men each, kept when the engine
//! finds exactly one winning move, a shot: a quiet move that gives a piece away, and
//! after the opponent takes it, a capture that wins.

use dama_core::any::AnyGame;
use dama_core::fen::parse_fen;
use dama_core::game::{DrawRules, Status};
use dama_core::notation::line_to_strings;
use dama_core::{Color, Position, Rules, Variant, VariantFn};
use dama_engine::eval::EvalKind;
use dama_engine::puzzle;
use dama_engine::search::{Limits, Searcher};
use dama_server::learn::{lessons, Goal};
use rand::{Rng, SeedableRng};

/// Material in half men: a man 2, a king 3.
fn material(g: &AnyGame, side: Color) -> i32 {
    g.pieces().iter().filter(|p| p.color == side).map(|p| if p.king { 3 } else { 2 }).sum()
}

/// The node budget the practice positions are found with.
const FIND_NODES: u64 = 30_000;
/// The budget the check searches with: twice the finder's.
const CHECK_NODES: u64 = 2 * FIND_NODES;
/// The deeper budget a found position must also hold at: sixteen times the finder's.
const DEEP_NODES: u64 = 16 * FIND_NODES;

/// What the engine says of a position: the first move of its winning line, when it
/// finds exactly one move that wins.
struct Shot<'a>(&'a str, u64);

impl VariantFn for Shot<'_> {
    type Output = Option<Vec<String>>;
    fn call<R: Rules>(self) -> Option<Vec<String>> {
        let pos: Position<R> = parse_fen(self.0).ok()?;
        let mut s = Searcher::<R>::new(16, EvalKind::Material);
        let f = puzzle::find(&mut s, &pos, &[], Limits { nodes: Some(self.1), ..Limits::default() })?;
        Some(line_to_strings(&pos, &f.line, true))
    }
}

#[test]
fn every_practice_solution_wins_and_is_the_engines_only_winning_move() {
    let mut engine_disagrees = Vec::new();
    for v in Variant::ALL {
        let list = lessons::of(v).unwrap();
        let practice: Vec<_> = list.iter().filter(|l| l.practice).collect();
        assert_eq!(practice.len(), lessons::PRACTICE, "{v}");
        for p in practice {
            assert_eq!(p.goal, Goal::Line);
            let mut g = AnyGame::new(v, Some(&p.fen), DrawRules::official(v)).unwrap();
            let me = g.side();
            let before = material(&g, me) - material(&g, !me);
            let lessons::Replies::Moves(replies) = &p.replies else { panic!("{v} {}: replies", p.id) };
            for (i, m) in p.solution.iter().enumerate() {
                let played = g.play(m).unwrap_or_else(|e| panic!("{v} {} {m}: {e}", p.id));
                assert_eq!(&played.long, m, "{v} {}: the line is written in long notation", p.id);
                if let Some(r) = replies.get(i) {
                    g.play(r).unwrap_or_else(|e| panic!("{v} {} reply {r}: {e}", p.id));
                }
            }
            let won = matches!(g.status(), Status::Over(r) if r.winner == Some(me));
            let gain = material(&g, me) - material(&g, !me) - before;
            assert!(won || gain >= 2, "{v} {}: the line gains {gain} half men", p.id);
            // The engine, searching afresh with twice the budget the positions were
            // found with, finds the same first move, and no other that wins. Every
            // position that fails is listed (a search change can move several).
            match v.visit(Shot(&p.fen, CHECK_NODES)) {
                None => engine_disagrees.push(format!("{v} {}: no single winning move", p.id)),
                Some(shot) if shot[0] != p.solution[0] => engine_disagrees
                    .push(format!("{v} {}: the engine's move is {}, not {}", p.id, shot[0], p.solution[0])),
                Some(_) => {}
            }
        }
    }
    assert!(engine_disagrees.is_empty(), "{}", engine_disagrees.join("\n"));
}

/// Random positions of `R` with a shot for White, as (FEN, line).
struct Find(u64, usize);

impl VariantFn for Find {
    type Output = Vec<(String, Vec<String>)>;
    fn call<R: Rules>(self) -> Vec<(String, Vec<String>)> {
        let v = R::VARIANT;
        let board = v.board();
        let mut rng = rand::rngs::StdRng::seed_from_u64(self.0);
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        let mut searcher = Searcher::<R>::new(16, EvalKind::Material);
        let mut tries = 0;
        while out.len() < self.1 && tries < 200_000 {
            tries += 1;
            let mut squares: Vec<_> = board.squares.iter().collect();
            let (w, b) = (rng.gen_range(3..=6usize), rng.gen_range(3..=6usize));
            let mut pick = |n: usize, no_row: usize| {
                let mut got = Vec::new();
                while got.len() < n && !squares.is_empty() {
                    let i = rng.gen_range(0..squares.len());
                    let s = squares.swap_remove(i);
                    if s.1 != no_row {
                        got.push(s.0.clone());
                    }
                }
                got.join(",")
            };
            let white = pick(w, 0);
            let black = pick(b, board.rows - 1);
            let fen = format!("W:W{white}:B{black}");
            let Ok(pos) = parse_fen::<R>(&fen) else { continue };
            let legal = dama_core::movegen::legal_moves(&pos);
            if legal.len() < 2 || legal.as_slice()[0].is_capture() {
                continue;
            }
            let limits = Limits { nodes: Some(FIND_NODES), ..Limits::default() };
            let Some(f) = puzzle::find(&mut searcher, &pos, &[], limits) else { continue };
            // A shot: a piece given (the reply takes it), then the capture that wins.
            let shot = (3..=5).contains(&f.line.len()) && !f.line[0].is_capture();
            if !shot || !f.line[1].is_capture() || !f.line[2].is_capture() {
                continue;
            }
            // The line wins a man or more (a crowning alone is not enough here).
            let end = f.line.iter().fold(pos, |p, m| p.play(m));
            let gain = |p: &Position<R>| puzzle::material(p, Color::White);
            if gain(&end) - gain(&pos) < 100 {
                continue;
            }
            let line = line_to_strings(&pos, &f.line, true);
            // Kept when fresh searches with twice the budget (as the test checks) and
            // with sixteen times the budget agree: a shot that a deeper search no
            // longer finds the only win is not a puzzle, and one that holds only at
            // one budget breaks with the next change to the search.
            let fen = dama_core::fen::write_fen(&pos);
            let agrees = |nodes| Shot(&fen, nodes).call::<R>().is_some_and(|s| s[0] == line[0]);
            if !agrees(CHECK_NODES) || !agrees(DEEP_NODES) {
                continue;
            }
            out.push((fen, line));
        }
        out
    }
}

/// Finds ten practice positions per rulebook and writes them as `practice.json`'s
/// text to the file `DAMA_PRACTICE_OUT` names.
#[test]
#[ignore]
fn find_practice_positions() {
    let mut variants = serde_json::Map::new();
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let found = v.visit(Find(47 + i as u64, lessons::PRACTICE));
        eprintln!("{v}: {}", found.len());
        let list: Vec<_> = found.into_iter().map(|(fen, line)| serde_json::json!({"fen": fen, "line": line})).collect();
        variants.insert(v.key().to_string(), serde_json::Value::Array(list));
    }
    let text = serde_json::to_string_pretty(&serde_json::json!({
        "about": "Ten practice positions per rulebook: White to move finds the winning shot. Found by the engine (tests/it/learn_practice.rs, find_practice_positions) among random positions, and checked by the engine in the same file.",
        "variants": variants,
    }))
    .unwrap();
    std::fs::write(std::env::var("DAMA_PRACTICE_OUT").expect("DAMA_PRACTICE_OUT"), text).unwrap();
}
