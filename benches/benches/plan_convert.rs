//! Criterion benchmark of plan conversion at 1k, 10k and 100k tasks: a Cursor plan
//! (front matter todos, each depending on the one before and on one five back, and a
//! markdown body) read once, then converted to every dialect (`toon_plan::convert`:
//! fill, write, read back, compare, validate as the target) and read from its
//! markdown. Time per task should stay flat from 1k to 100k: conversion is linear (up
//! to a log factor) in the number of tasks and dependencies.
//!
//! ```sh
//! cargo bench -p toon-benches --bench plan_convert [-- FILTER]
//! ```
//!
//! `benches/results/plan-convert.md` holds the figures of a run.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput};
use toon_plan::{ConvertOptions, DialectId, ReadOptions};

/// The plan sizes, in tasks.
const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

/// A Cursor plan with `n` todos.
fn cursor_plan(n: usize) -> String {
    let mut s = String::from("---\nname: Generated plan\noverview: Many small steps\ntodos:\n");
    for i in 0..n {
        let _ = write!(
            s,
            "  - id: t{i}\n    content: Step {i} updates module {} and its tests\n    status: pending\n",
            i % 97
        );
        if i > 0 {
            let _ = write!(s, "    dependencies:\n      - t{}\n", i - 1);
            if i >= 5 {
                let _ = writeln!(s, "      - t{}", i - 5);
            }
        }
    }
    s.push_str("---\n\n# Generated plan\n\nEvery step is small.\n");
    s
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    for n in SIZES {
        let text = cursor_plan(n);
        let options = ReadOptions::dialect(DialectId::CURSOR);
        let loaded = match toon_plan::read(&text, &options) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("plan_convert: the generated plan does not read: {e}");
                return;
            }
        };
        let mut group = c.benchmark_group(format!("plan_convert/{n}"));
        group.throughput(Throughput::Elements(n as u64));
        group.sampling_mode(SamplingMode::Flat);
        group.sample_size(10);
        group.bench_function(BenchmarkId::from_parameter("read cursor md"), |b| {
            b.iter(|| toon_plan::read(black_box(&text), &options).map(|l| l.plan.tasks.len()));
        });
        for to in DialectId::all() {
            group.bench_function(BenchmarkId::from_parameter(to), |b| {
                b.iter(|| {
                    toon_plan::convert(black_box(&loaded.plan), to, &ConvertOptions::default())
                        .map(|c| c.text.len())
                });
            });
        }
        group.finish();
    }
    c.final_summary();
}
