//! Every position in `data/rules.txt` has exactly the listed legal moves.

use dama_core::fen::parse_fen;
use dama_core::movegen::{count_moves, legal_moves};
use dama_core::notation::{move_to_string, parse_move};
use dama_core::{Routes, Rules, Variant, VariantFn};

struct Check<'a> {
    fen: &'a str,
    moves: Vec<&'a str>,
    keep: Option<u64>,
}

impl VariantFn for Check<'_> {
    type Output = Result<(), String>;
    fn call<R: Rules>(self) -> Result<(), String> {
        let pos = parse_fen::<R>(self.fen).map_err(|e| format!("bad FEN: {e}"))?;
        let legal = legal_moves(&pos);
        let mut expected = Vec::new();
        for t in &self.moves {
            let m = parse_move(&pos, t).map_err(|e| format!("{e}"))?;
            expected.push(m);
        }
        let shown: Vec<String> = legal.iter().map(|m| move_to_string(&pos, m, true)).collect();
        if legal.len() != expected.len() || !expected.iter().all(|m| legal.as_slice().contains(m)) {
            return Err(format!("expected {:?}, generator gives {:?}", self.moves, shown));
        }
        if let Some(k) = self.keep {
            let got = count_moves(&pos, Routes::Every);
            if got != k {
                return Err(format!("expected {k} routes, got {got}"));
            }
        }
        Ok(())
    }
}

#[test]
fn rule_positions_have_exactly_the_listed_moves() {
    let mut failures = Vec::new();
    let mut n = 0;
    for line in include_str!("data/rules.txt").lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let variant: Variant = f[0].parse().unwrap();
        let moves = f[2].split(',').map(str::trim).collect();
        let keep = f.get(3).map(|k| k.trim_start_matches("keep=").parse().unwrap());
        n += 1;
        if let Err(e) = variant.visit(Check { fen: f[1], moves, keep }) {
            failures.push(format!("{variant} {}: {e}", f[1]));
        }
    }
    assert!(n >= 25);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
