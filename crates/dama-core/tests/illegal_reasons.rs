//! Every attempted move in `data/illegal.txt` is refused for the listed reason.

use dama_core::fen::parse_fen;
use dama_core::notation::{parse_move, MoveError};
use dama_core::{Rules, Variant, VariantFn};

struct Why<'a> {
    fen: &'a str,
    text: &'a str,
}

impl VariantFn for Why<'_> {
    type Output = Result<serde_json::Value, String>;
    fn call<R: Rules>(self) -> Self::Output {
        let pos = parse_fen::<R>(self.fen).map_err(|e| format!("bad FEN: {e}"))?;
        match parse_move(&pos, self.text) {
            Err(MoveError::Illegal { why, .. }) => serde_json::to_value(why).map_err(|e| e.to_string()),
            other => Err(format!("not refused as illegal: {other:?}")),
        }
    }
}

#[test]
fn each_illegal_move_is_refused_for_its_rule() {
    let data = include_str!("data/illegal.txt");
    let mut failures = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (n, line) in data.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.splitn(4, '|').map(str::trim).collect();
        let variant: Variant = f[0].parse().unwrap();
        seen.insert(variant);
        let expected: serde_json::Value = serde_json::from_str(f[3]).unwrap();
        match variant.visit(Why { fen: f[1], text: f[2] }) {
            Ok(got) if got == expected => {}
            Ok(got) => failures.push(format!("line {}: {line}\n  got {got}", n + 1)),
            Err(e) => failures.push(format!("line {}: {line}\n  {e}", n + 1)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for v in [
        Variant::International,
        Variant::English,
        Variant::Russian,
        Variant::Turkish,
        Variant::Italian,
        Variant::Frisian,
        Variant::Brazilian,
    ] {
        assert!(seen.contains(&v), "no case for {v}");
    }
}

#[test]
fn the_words_say_the_move_and_the_rule() {
    let pos = parse_fen::<dama_core::variant::English>("W:W18,30:B14").unwrap();
    let e = parse_move(&pos, "30-26").unwrap_err();
    assert_eq!(e.to_string(), "'30-26' is not a legal move here: a capture is compulsory: 18x9");
}
