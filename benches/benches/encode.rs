//! Criterion benchmarks of encoding, every dataset at ~100 KB (and ~10 MB with
//! `TOON_BENCH_LARGE=1`):
//!
//! - `toon_value`: `toon::encode_value` on a pre-built `toon::Value`;
//! - `toon_typed`: `toon::to_string` on the dataset's typed structs;
//! - `toon_format`: the `toon-format` 0.7 crate encoding its own `JsonValue`;
//! - `serde_json_value` / `serde_json_typed`: compact JSON serialisation of the same data,
//!   the in-run baseline.
//!
//! Throughput is in bytes of our TOON text for every line, so MB/s compare as times do.
//!
//! ```sh
//! cargo bench -p toon-benches --bench encode [-- FILTER]
//! ```

mod common;

use common::prepared::{Prepared, Size, sizes};
use common::typed::{Typed, TypedFn, with_typed};
use common::{checks, peer, timing};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use toon_benches::datasets::Dataset;

fn main() {
    common::tunables::ensure();
    let mut c = timing::criterion();
    for size in sizes() {
        for dataset in Dataset::ALL {
            match Prepared::new(dataset, size.bytes) {
                Ok(p) => bench_dataset(&mut c, &p, size),
                Err(e) => eprintln!("skipping {}: {e}", dataset.slug()),
            }
        }
    }
    c.final_summary();
}

fn bench_dataset(c: &mut Criterion, p: &Prepared, size: Size) {
    for check in checks::run(p).iter().filter(|check| check.is_failure()) {
        eprintln!(
            "warning: {}: {}: {:?}",
            p.dataset.slug(),
            check.name,
            check.outcome
        );
    }
    let mut group = c.benchmark_group(format!("encode/{}", p.dataset.slug()));
    group.throughput(Throughput::Bytes(p.toon_bytes()));
    timing::configure(&mut group, size);
    group.bench_function(BenchmarkId::new("toon_value", size.label), |b| {
        timing::iter(b, || toon::encode_value(&p.value))
    });
    with_typed(
        p.dataset,
        EncodeTyped {
            group: &mut group,
            p,
            size,
        },
    );
    let peer_value = peer::value(&p.json);
    match peer::encode(&peer_value) {
        Ok(_) => {
            group.bench_function(BenchmarkId::new("toon_format", size.label), |b| {
                timing::iter(b, || peer::encode(&peer_value))
            });
        }
        Err(e) => eprintln!("skipping toon_format on {}: {e}", p.dataset.slug()),
    }
    group.bench_function(BenchmarkId::new("serde_json_value", size.label), |b| {
        timing::iter(b, || serde_json::to_string(&p.json))
    });
    group.finish();
}

/// The typed benchmarks, generic over the dataset's root type.
struct EncodeTyped<'g, 'c, 'p> {
    group: &'g mut BenchmarkGroup<'c, WallTime>,
    p: &'p Prepared,
    size: Size,
}

impl TypedFn for EncodeTyped<'_, '_, '_> {
    type Output = ();

    fn call<T: Typed>(self) {
        let typed: T = match serde_json::from_str(&self.p.json_text) {
            Ok(typed) => typed,
            Err(e) => {
                eprintln!("skipping typed encoding of {}: {e}", self.p.dataset.slug());
                return;
            }
        };
        self.group
            .bench_function(BenchmarkId::new("toon_typed", self.size.label), |b| {
                timing::iter(b, || toon::to_string(&typed))
            });
        self.group
            .bench_function(BenchmarkId::new("serde_json_typed", self.size.label), |b| {
                timing::iter(b, || serde_json::to_string(&typed))
            });
    }
}
