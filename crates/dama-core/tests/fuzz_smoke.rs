//! A bounded fuzz run on every test run: random and mutated inputs go through the same
//! harnesses as the `cargo fuzz` targets in `fuzz/` (FEN, move text, PDN). No input may
//! panic, and memory stays within a small multiple of the input.

use dama_core::fuzzing;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Characters that matter to the parsers, to splice into inputs.
const ALPHABET: &[u8] = b"0123456789WBKwbk:,-x.()[]{}\"/\\%$!?*abcdefghij \n\t";

/// A mutation of `seed`: bytes flipped, inserted, deleted, duplicated or spliced.
fn mutate(rng: &mut StdRng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..rng.gen_range(1..6) {
        let n = v.len();
        match rng.gen_range(0..6) {
            0 if n > 0 => {
                let i = rng.gen_range(0..n);
                v[i] = ALPHABET[rng.gen_range(0..ALPHABET.len())];
            }
            1 => {
                let i = rng.gen_range(0..=n);
                let c = ALPHABET[rng.gen_range(0..ALPHABET.len())];
                let k = rng.gen_range(1..200);
                v.splice(i..i, std::iter::repeat_n(c, k));
            }
            2 if n > 0 => {
                let i = rng.gen_range(0..n);
                let j = rng.gen_range(i..=n);
                v.drain(i..j);
            }
            3 if n > 0 => {
                let i = rng.gen_range(0..n);
                let j = rng.gen_range(i..=n.min(i + 64));
                let part = v[i..j].to_vec();
                v.splice(i..i, part.repeat(rng.gen_range(1..50)));
            }
            4 if !other.is_empty() => {
                let i = rng.gen_range(0..=n);
                let j = rng.gen_range(0..other.len());
                v.splice(i..i, other[j..].iter().copied());
            }
            _ => v.push(rng.gen()),
        }
    }
    v
}

/// Runs `harness` on the seeds, then on `cases` mutations, checking the memory of one
/// case in a hundred.
fn run(harness: fn(&[u8]), seeds: &[&str], cases: usize) {
    let mut rng = StdRng::seed_from_u64(0xda4a);
    for s in seeds {
        harness(s.as_bytes());
    }
    for i in 0..cases {
        let a = seeds[rng.gen_range(0..seeds.len())].as_bytes();
        let b = seeds[rng.gen_range(0..seeds.len())].as_bytes();
        let input =
            if i % 10 == 0 { (0..rng.gen_range(0..300)).map(|_| rng.gen()).collect() } else { mutate(&mut rng, a, b) };
        if i % 100 == 0 {
            let info = allocation_counter::measure(|| harness(&input));
            let bound = 1_000_000 + 200 * input.len() as u64;
            assert!(info.bytes_max < bound, "{} bytes for {:?}", info.bytes_max, String::from_utf8_lossy(&input));
        } else {
            harness(&input);
        }
    }
}

const FENS: &[&str] = &[
    "W:W31-50:B1-20",
    "B:W21,22,K23:B1,2,K3",
    "W:Wh6:Bg7,c5,d2",
    "B:Wa1,c1:Bb8",
    "W:WK29,K22,K18:BK4",
    "W:W32:B28,K24:H0:F1",
    "W:Wa2,b2,c2:Ba7,b7.",
    "?:W1-5:B46-50",
];

#[test]
fn fen_parsers_survive_fuzzing() {
    run(fuzzing::fen, FENS, 60_000);
}

#[test]
fn move_text_survives_fuzzing() {
    let seeds = [
        "11-15",
        "24x15x6",
        "c3-d4",
        "h6:f8:b4:e1",
        "E3:G5",
        "32-28",
        "W:Wh6:Bg7,c5,d2|h6:f8:b4:e1",
        "W:W22:B17,18,9,10|22x15x6",
        "B:W18,30:B14,1|14x23",
        "W:W31-50:B1-20|32-28",
    ];
    run(fuzzing::move_text, &seeds, 60_000);
}

#[test]
fn pdn_reader_survives_fuzzing() {
    let seeds = [
        "[Event \"x\"]\n[GameType \"20\"]\n[Result \"2-0\"]\n\n1. 32-28 18-23 2. 33-29 23x32 3. 37x28 {a comment} 17-22 4. 28x17 11x22 2-0\n",
        "[GameType \"21\"]\n1. 11-15 (22-18 (9-13)) 23-19 2. 8-11 $1 22-17! {c} *",
        "[FEN \"W:Wh6:Bg7,c5,d2\"]\n[GameType \"25\"]\n1. h6:f8:b4:e1 *",
        "[Bianco \"A\"]\n[Nero \"B\"]\n1. 21-17 12-15 1-0",
        "1.33-28 19-23 2. 29x 7 1/2:1/2",
        "% escape\n{before} 1. 32-28! /W:W31,32:B2/ 31-27 *",
        "[Round 17]\n[Event \"unclosed]\n1. 11-15 *",
    ];
    run(fuzzing::pdn, &seeds, 40_000);
}
