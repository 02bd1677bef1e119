//! Reproduces every published start-position perft count in `data/perft.txt`.
//!
//! Counts up to `FAST_LIMIT` leaves run in every test run; the deeper ones are
//! `#[ignore]`d (run them with `cargo test --release -- --ignored`).

use dama_core::fen::parse_fen;
use dama_core::perft::perft;
use dama_core::{Position, Routes, Rules, Variant, VariantFn};

const FAST_LIMIT: u64 = 30_000_000;

struct Entry {
    variant: Variant,
    fen: Option<String>,
    conventions: Vec<Routes>,
    depth: u32,
    nodes: u64,
}

fn table() -> Vec<Entry> {
    let text = include_str!("data/perft.txt");
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut f = line.split_whitespace();
        let variant: Variant = f.next().unwrap().parse().unwrap();
        let mut conv = f.next().unwrap();
        let fen = conv.strip_prefix("fen=").map(str::to_string);
        if fen.is_some() {
            conv = f.next().unwrap();
        }
        // Conventions joined by '+'; "both" (the published tables' word for counts
        // where keep and drop agree) is all three.
        let conventions: Vec<Routes> = conv
            .split('+')
            .flat_map(|c| match c {
                "drop" => vec![Routes::Merged],
                "keep" => vec![Routes::Every],
                "sweeps" => vec![Routes::Sweeps],
                "both" => vec![Routes::Merged, Routes::Every, Routes::Sweeps],
                c => panic!("bad convention {c}"),
            })
            .collect();
        for (i, item) in f.enumerate() {
            let (depth, nodes) = match item.strip_prefix('d') {
                Some(rest) => {
                    let (d, n) = rest.split_once('=').unwrap();
                    (d.parse().unwrap(), n.parse().unwrap())
                }
                None => (i as u32 + 1, item.parse().unwrap()),
            };
            out.push(Entry { variant, fen: fen.clone(), conventions: conventions.clone(), depth, nodes });
        }
    }
    out
}

struct Run<'a>(Option<&'a str>, u32, Routes);
impl VariantFn for Run<'_> {
    type Output = u64;
    fn call<R: Rules>(self) -> u64 {
        let pos = match self.0 {
            Some(fen) => parse_fen::<R>(fen).unwrap(),
            None => Position::<R>::start(),
        };
        perft(&pos, self.1, self.2)
    }
}

/// The table's word for a convention.
fn convention(r: Routes) -> &'static str {
    match r {
        Routes::Merged => "drop",
        Routes::Every => "keep",
        Routes::Sweeps => "sweeps",
    }
}

fn run(deep: bool) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for e in table() {
        if (e.nodes > FAST_LIMIT) != deep {
            continue;
        }
        for &routes in &e.conventions {
            let got = e.variant.visit(Run(e.fen.as_deref(), e.depth, routes));
            checked += 1;
            if got != e.nodes {
                failures.push(format!(
                    "{} {} d{}: expected {}, got {}",
                    e.variant,
                    convention(routes),
                    e.depth,
                    e.nodes,
                    got
                ));
            }
        }
    }
    assert!(checked > 0);
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
}

#[test]
fn start_position_perft_fast() {
    run(false);
}

#[test]
#[ignore = "deep counts: minutes of CPU; run with --ignored"]
fn start_position_perft_deep() {
    run(true);
}
