//! Pairing a 500-player Swiss: round 5, and the last round (11), after random results.

// criterion_group! defines an undocumented public function.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use dama_pairing::{sim, swiss};
use std::hint::black_box;

const PLAYERS: usize = 500;
const ROUNDS: u32 = 11;

fn rounds(c: &mut Criterion) {
    let mut group = c.benchmark_group("swiss_500");
    group.sample_size(10);
    for round in [5, ROUNDS] {
        let event = sim::event(PLAYERS, round - 1, ROUNDS, 7).expect("pairable");
        group.bench_function(format!("round_{round}"), |b| {
            b.iter(|| swiss::pair(black_box(&event), round, ROUNDS).expect("pairable"))
        });
    }
    group.finish();
}

criterion_group!(benches, rounds);
criterion_main!(benches);
