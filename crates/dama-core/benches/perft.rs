//! Perft speed from the start positions, bulk counting at the last ply, one thread.
//! Targets (issue "Exact rules"): english >= 150 M leaves/s, international >= 170 M
//! leaves/s, turkish at least as fast as `kish` (same group, so the ratio shows).

#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dama_core::perft::perft;
use dama_core::variant::{English, International, Russian, Turkish};
use dama_core::{Position, Routes, Rules};
use std::time::Duration;

fn ours<R: Rules>(c: &mut Criterion, name: &str, depth: u32) {
    let pos = Position::<R>::start();
    let nodes = perft(&pos, depth, Routes::Merged);
    let mut g = c.benchmark_group(format!("perft/{name}"));
    g.throughput(Throughput::Elements(nodes));
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    g.bench_function(BenchmarkId::new("dama", depth), |b| b.iter(|| perft(black_box(&pos), depth, Routes::Merged)));
    g.finish();
}

fn turkish_vs_kish(c: &mut Criterion) {
    let depth = 7;
    let pos = Position::<Turkish>::start();
    let nodes = perft(&pos, depth, Routes::Every);
    let board = kish::Board::new_default();
    assert_eq!(board.perft(depth as u64), nodes, "kish and dama disagree on perft");
    let mut g = c.benchmark_group("perft/turkish");
    g.throughput(Throughput::Elements(nodes));
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    g.bench_function(BenchmarkId::new("dama", depth), |b| b.iter(|| perft(black_box(&pos), depth, Routes::Every)));
    g.bench_function(BenchmarkId::new("kish", depth), |b| b.iter(|| black_box(&board).perft(depth as u64)));
    g.finish();
}

fn all(c: &mut Criterion) {
    ours::<English>(c, "english", 10);
    ours::<International>(c, "international", 8);
    ours::<Russian>(c, "russian", 9);
    turkish_vs_kish(c);
}

criterion_group!(benches, all);
criterion_main!(benches);
