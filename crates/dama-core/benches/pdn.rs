//! PDN speed: reading and replaying real games with full legality checks.
//! Target (issue "Whole games"): at least 1 M plies/s.
#![allow(missing_docs)]

use std::path::PathBuf;
use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use dama_core::pdn::read_all;
use dama_core::record::replay;
use dama_core::variant::{International, Russian};

fn text(file: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pdn/pdn3-test-suite/succeed").join(file);
    std::fs::read_to_string(p).expect("shared test data")
}

fn bench(c: &mut Criterion) {
    let intl = text("wk2003.pdn") + &text("nk2003-amsterdam.pdn") + &text("kurnik.pdn");
    let russian = text("ussr1947.pdn");
    let count = |t: &str, f: &dyn Fn(&dama_core::pdn::PdnGame) -> usize| -> u64 {
        read_all(t).iter().flatten().map(|g| f(g) as u64).sum()
    };
    let intl_plies = count(&intl, &|g| replay::<International>(g).map(|r| r.moves.len()).unwrap_or(0));
    let ru_plies = count(&russian, &|g| replay::<Russian>(g).map(|r| r.moves.len()).unwrap_or(0));
    let mut g = c.benchmark_group("pdn");
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(intl_plies));
    g.bench_function("read+replay/international", |b| {
        b.iter(|| read_all(black_box(&intl)).iter().flatten().filter_map(|g| replay::<International>(g).ok()).count())
    });
    g.throughput(Throughput::Elements(ru_plies));
    g.bench_function("read+replay/russian", |b| {
        b.iter(|| read_all(black_box(&russian)).iter().flatten().filter_map(|g| replay::<Russian>(g).ok()).count())
    });
    g.throughput(Throughput::Bytes(intl.len() as u64));
    g.bench_function("read-only/international", |b| b.iter(|| read_all(black_box(&intl)).len()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
