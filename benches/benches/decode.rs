//! Criterion benchmarks of decoding, every dataset at ~100 KB (and ~10 MB with
//! `TOON_BENCH_LARGE=1`), all decoders reading our encoder's output:
//!
//! - `toon_value`: `toon::decode_value` to a `toon::Value`;
//! - `toon_typed`: `toon::from_str` straight to the dataset's typed structs;
//! - `toon_stream_json`: the streaming `toon::decode::EventReader` (reading the text
//!   through `io::BufRead`) writing JSON into `io::sink()`
//!   (`toon::decode::reader_to_json_writer`);
//! - `toon_stream_value`: the same events collected into a `toon::Value`
//!   (`toon::decode::reader_to_value`);
//! - `toon_format`: the `toon-format` 0.7 crate's parser (to a `serde_json::Value`);
//! - `toon_format_api`: its public `decode_default::<serde_json::Value>`, which parses
//!   and then rebuilds the value through `serde_json::from_value`;
//! - `serde_json_value` / `serde_json_typed`: serde_json parsing the same data as
//!   compact JSON, the in-run baseline.
//!
//! Throughput is in bytes of the TOON text for every line (also for serde_json, which
//! reads JSON), so MB/s compare as times do.
//!
//! ```sh
//! cargo bench -p toon-benches --bench decode [-- FILTER]
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
    let mut group = c.benchmark_group(format!("decode/{}", p.dataset.slug()));
    group.throughput(Throughput::Bytes(p.toon_bytes()));
    timing::configure(&mut group, size);
    group.bench_function(BenchmarkId::new("toon_value", size.label), |b| {
        timing::iter(b, || toon::decode_value(&p.toon_text))
    });
    let strict = toon::DecodeOptions::default();
    group.bench_function(BenchmarkId::new("toon_stream_json", size.label), |b| {
        timing::iter(b, || {
            toon::decode::reader_to_json_writer(p.toon_text.as_bytes(), &strict, std::io::sink(), 0)
        })
    });
    group.bench_function(BenchmarkId::new("toon_stream_value", size.label), |b| {
        timing::iter(b, || {
            toon::decode::reader_to_value(p.toon_text.as_bytes(), &strict)
        })
    });
    with_typed(
        p.dataset,
        DecodeTyped {
            group: &mut group,
            p,
            size,
        },
    );
    match peer::decode(&p.toon_text) {
        Ok(_) => {
            group.bench_function(BenchmarkId::new("toon_format", size.label), |b| {
                timing::iter(b, || peer::decode(&p.toon_text))
            });
            group.bench_function(BenchmarkId::new("toon_format_api", size.label), |b| {
                timing::iter(b, || {
                    toon_format::decode_default::<serde_json::Value>(&p.toon_text)
                })
            });
        }
        Err(e) => eprintln!("skipping toon_format on {}: {e}", p.dataset.slug()),
    }
    group.bench_function(BenchmarkId::new("serde_json_value", size.label), |b| {
        timing::iter(b, || {
            serde_json::from_str::<serde_json::Value>(&p.json_text)
        })
    });
    group.finish();
}

/// The typed benchmarks, generic over the dataset's root type.
struct DecodeTyped<'g, 'c, 'p> {
    group: &'g mut BenchmarkGroup<'c, WallTime>,
    p: &'p Prepared,
    size: Size,
}

impl TypedFn for DecodeTyped<'_, '_, '_> {
    type Output = ();

    fn call<T: Typed>(self) {
        let p = self.p;
        if let Err(e) = toon::from_str::<T>(&p.toon_text) {
            eprintln!("skipping typed decoding of {}: {e}", p.dataset.slug());
            return;
        }
        self.group
            .bench_function(BenchmarkId::new("toon_typed", self.size.label), |b| {
                timing::iter(b, || toon::from_str::<T>(&p.toon_text))
            });
        self.group
            .bench_function(BenchmarkId::new("serde_json_typed", self.size.label), |b| {
                timing::iter(b, || serde_json::from_str::<T>(&p.json_text))
            });
    }
}
