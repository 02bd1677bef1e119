//! A bounded fuzz run of the server's JSON requests on every test run, through the same
//! harness as the `cargo fuzz` target `api_json`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const SEEDS: &[&str] = &[
    r#"{"variant": "english", "mode": "ai", "level": 5, "color": "random", "time": {"kind": "fischer", "initial_ms": 300000, "increment_ms": 3000}, "rules": "seed001", "fen": "B:W18,19:B1,2"}"#,
    r#"{"variant": "russian", "mode": "friend", "series": 3, "touch_move": true, "suggestions": true}"#,
    r#"{"variant": "english", "time": {"kind": "per_move", "limit_ms": 300000, "capture_limit_ms": 60000}}"#,
    r#"{"variant": "turkish", "time": {"kind": "correspondence", "days": 3}}"#,
    r#"{"type": "move", "move": "11-15"}"#,
    r#"{"type": "suggest", "move": "c3-d4"}"#,
    r#"{"type": "touch", "square": "c3"}"#,
    r#"{"type": "offer_draw"}"#,
    r#"{"invite": "0123456789abcdef0123456789abcdef"}"#,
    r#"{"type": "hello", "token": "abc", "since": 7}"#,
    r#"{"pdn": "[GameType \"21\"] 1. 11-15 (22-18) 23-19 *", "variant": "english", "skip": 0}"#,
    r#"{"fen": "W:W31-50:B1-20", "variant": "international"}"#,
];

const ALPHABET: &[u8] = b"{}[]\":,0123456789-xWBK abcdefghijklmnopqrstuvwxyz_\\";

#[test]
fn api_json_survives_fuzzing() {
    let mut rng = StdRng::seed_from_u64(7);
    for s in SEEDS {
        dama_server::fuzzing::api_json(s.as_bytes());
    }
    for _ in 0..100_000 {
        let mut v = SEEDS[rng.gen_range(0..SEEDS.len())].as_bytes().to_vec();
        for _ in 0..rng.gen_range(1..5) {
            let n = v.len();
            let i = rng.gen_range(0..=n);
            match rng.gen_range(0..4) {
                0 if i < n => v[i] = ALPHABET[rng.gen_range(0..ALPHABET.len())],
                1 => v.insert(i, ALPHABET[rng.gen_range(0..ALPHABET.len())]),
                2 if i < n => {
                    let j = rng.gen_range(i..=n);
                    v.drain(i..j);
                }
                _ => {
                    let part = v[i..].iter().take(20).copied().collect::<Vec<_>>();
                    v.splice(i..i, part.repeat(rng.gen_range(1..20)));
                }
            }
        }
        dama_server::fuzzing::api_json(&v);
    }
}
