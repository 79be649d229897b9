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
//! `benches/results/plan-convert.md` holds the figures of a run of its report mode,
//! which measures CPU time per task instead (the machine is shared: waiting does not
//! count), repeating the small sizes so each figure covers about as much work:
//!
//! ```sh
//! cargo bench -p toon-benches --bench plan_convert -- --report benches/results/plan-convert.md
//! ```
//!
//! Time per task also grows with the working set (a 100k-task plan does not fit in
//! the caches). Instructions per task do not depend on caches or load: `--once N
//! TARGET` reads one `N`-task plan and converts it to `TARGET` (only reads it, for
//! `read`) inside the function `profiled`, for callgrind; `benches/plan-convert-instructions.sh` counts
//! them at two sizes for every target.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput};
use toon_plan::{ConvertOptions, DialectId, ReadOptions};

/// The plan sizes, in tasks. The criterion run takes the 100k plan only with
/// `TOON_BENCH_LARGE=1` (one 100k conversion takes seconds); the report takes all.
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

/// CPU time this thread has used (utime + stime from `/proc/thread-self/stat`).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name in parentheses; utime and stime are 14th and 15th.
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // The kernel's USER_HZ is 100 on every Linux this runs on.
    Some(Duration::from_millis(ticks * 10))
}

/// The report mode: CPU nanoseconds per task of each operation at each size, sizes
/// interleaved, the best of three rounds; written as markdown to `out`.
fn report(out: &str) -> Result<(), String> {
    let texts: Vec<String> = SIZES.iter().map(|&n| cursor_plan(n)).collect();
    let options = ReadOptions::dialect(DialectId::CURSOR);
    let plans: Vec<toon_plan::Plan> = texts
        .iter()
        .map(|t| {
            toon_plan::read(t, &options)
                .map(|l| l.plan)
                .map_err(|e| e.to_string())
        })
        .collect::<Result<_, _>>()?;
    let mut ops: Vec<(String, Option<DialectId>)> = vec![("read cursor md".to_owned(), None)];
    ops.extend(DialectId::all().map(|d| (format!("convert to {d}"), Some(d))));
    // best[op][size]: nanoseconds per task.
    let mut best = vec![vec![f64::INFINITY; SIZES.len()]; ops.len()];
    for _round in 0..3 {
        for (s, &n) in SIZES.iter().enumerate() {
            let repeat = (SIZES[SIZES.len() - 1] / n).max(1);
            for (o, (_, to)) in ops.iter().enumerate() {
                let start = cpu_time().ok_or("no /proc/thread-self/stat")?;
                for _ in 0..repeat {
                    let len = match to {
                        None => toon_plan::read(black_box(&texts[s]), &options)
                            .map(|l| l.plan.tasks.len()),
                        Some(to) => toon_plan::convert(
                            black_box(&plans[s]),
                            *to,
                            &ConvertOptions::default(),
                        )
                        .map(|c| c.text.len()),
                    };
                    black_box(len.map_err(|e| e.to_string())?);
                }
                let used = cpu_time().ok_or("no /proc/thread-self/stat")? - start;
                let per_task = used.as_nanos() as f64 / (repeat * n) as f64;
                best[o][s] = best[o][s].min(per_task);
            }
        }
    }
    let mut md = String::from(
        "# Plan conversion time per task

CPU time (this thread's, from \
         `/proc/thread-self/stat`: a shared machine's load does not count) per task of \
         reading a generated Cursor plan (each todo depends on the one before and on one five \
         back) and of converting it to each dialect (`toon_plan::convert`: fill, write, read \
         back, compare, validate as the target), at 1k, 10k and 100k tasks; the best of three \
         interleaved rounds, the smaller sizes repeated to do as much work as one 100k run. \
         Flat rows mean linear growth; time per task also grows when a larger plan no longer \
         fits in the caches, which is why \
         [plan-convert-instructions.md](plan-convert-instructions.md) counts instructions per \
         task too (load- and cache-independent). Regenerate with\n\n```sh\ncargo bench -p \
         toon-benches --bench plan_convert -- --report benches/results/plan-convert.md\n```\n\n\
         | operation | µs/task at 1k | µs/task at 10k | µs/task at 100k | 100k / 1k |\n\
         | --- | ---: | ---: | ---: | ---: |\n",
    );
    for (o, (op, _)) in ops.iter().enumerate() {
        let us = |s: usize| best[o][s] / 1000.0;
        let _ = writeln!(
            md,
            "| {op} | {:.1} | {:.1} | {:.1} | {:.2} |",
            us(0),
            us(1),
            us(2),
            us(2) / us(0)
        );
    }
    // A relative path is the repository's (cargo runs benchmarks in the crate's folder).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(out);
    std::fs::write(&path, md).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reading a plan and converting it to `to` (when given), the only work callgrind
/// counts with `--toggle-collect='*profiled*'`.
#[inline(never)]
fn profiled(text: &str, to: Option<DialectId>) -> Result<usize, String> {
    let options = ReadOptions::dialect(DialectId::CURSOR);
    let plan = toon_plan::read(text, &options).map_err(|e| e.to_string())?;
    match to {
        None => Ok(plan.plan.tasks.len()),
        Some(to) => toon_plan::convert(&plan.plan, to, &ConvertOptions::default())
            .map(|c| c.text.len())
            .map_err(|e| e.to_string()),
    }
}

/// `--once N TARGET`: the plan text is made outside [`profiled`], the reading and
/// converting inside it.
fn once(args: &[String]) -> Result<(), String> {
    let n: usize = args
        .first()
        .and_then(|n| n.parse().ok())
        .ok_or("--once needs a number of tasks")?;
    let to = match args.get(1).map(String::as_str) {
        None | Some("read") => None,
        Some(name) => Some(name.parse::<DialectId>().map_err(|e| e.to_string())?),
    };
    let text = cursor_plan(n);
    black_box(profiled(black_box(&text), to)?);
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list-targets") {
        for to in DialectId::all() {
            println!("{to}");
        }
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--once") {
        if let Err(e) = once(&args[i + 1..]) {
            eprintln!("plan_convert: {e}");
            std::process::exit(1);
        }
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--report") {
        let out = args
            .get(i + 1)
            .map_or("benches/results/plan-convert.md", String::as_str);
        if let Err(e) = report(out) {
            eprintln!("plan_convert: {e}");
            std::process::exit(1);
        }
        return;
    }
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let large = std::env::var_os("TOON_BENCH_LARGE").is_some_and(|v| v == "1");
    for n in SIZES.into_iter().filter(|&n| large || n < 100_000) {
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
