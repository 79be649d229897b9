//! Wall-clock ratios of our decode against serde_json's, timed alternately in one
//! process so that both sides see the same load on a shared machine:
//!
//! ```sh
//! cargo bench -p toon-benches --bench interleaved -- employees analytics --rounds 41
//! ```
//!
//! Arguments: dataset slugs (all eight if none), `--bytes N` (target size of pretty
//! JSON, default 1,000,000) and `--rounds N` (default 31). Each round times, in an order
//! that alternates from round to round, `toon::from_str::<T>` and `serde_json::from_str`
//! into the same typed structs, then `toon::from_str::<serde_json::Value>` and
//! `serde_json::from_str::<serde_json::Value>` (the time to drop a result is not
//! counted). Printed per dataset: each side's median time and the median of the
//! per-round ratios (serde_json's time over ours: ≥ 1 when ours is faster), in the
//! thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`: time the thread waited for a core on a
//! loaded machine is not counted, cache and branch effects are) and, for comparison, in
//! wall-clock time. The process re-executes itself with
//! `GLIBC_TUNABLES=glibc.malloc.mxfast=0`.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::prepared::Prepared;
use common::tunables;
use common::typed::{Typed, TypedFn, with_typed};
use toon_benches::datasets::Dataset;

fn main() {
    tunables::ensure();
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let (mut bytes, mut rounds, mut slugs) = (1_000_000usize, 31usize, Vec::new());
    while let Some(arg) = args.next() {
        let number = |v: Option<String>| v.and_then(|v| v.parse().ok());
        match arg.as_str() {
            "--bytes" => bytes = number(args.next()).unwrap_or(bytes),
            "--rounds" => rounds = number(args.next()).unwrap_or(rounds).max(1),
            slug => slugs.push(slug.to_owned()),
        }
    }
    let datasets: Vec<Dataset> = Dataset::ALL
        .into_iter()
        .filter(|d| slugs.is_empty() || slugs.iter().any(|s| s == d.slug()))
        .collect();
    println!(
        "| dataset | toon typed ms (CPU) | serde_json typed ms (CPU) | typed ratio (CPU) | typed ratio (wall) \
         | toon → serde_json::Value ms (CPU) | serde_json parse ms (CPU) | Value ratio (CPU) | Value ratio (wall) |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for dataset in datasets {
        let p = match Prepared::new(dataset, bytes) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}: {e}", dataset.slug());
                continue;
            }
        };
        let typed = with_typed(dataset, TypedPair { p: &p, rounds });
        let value = pair(
            rounds,
            || toon::from_str::<serde_json::Value>(&p.toon_text),
            || serde_json::from_str::<serde_json::Value>(&p.json_text),
        );
        println!(
            "| {} | {:.3} | {:.3} | {:.2}× | {:.2}× | {:.3} | {:.3} | {:.2}× | {:.2}× |",
            dataset.slug(),
            typed.ours_ms,
            typed.theirs_ms,
            typed.ratio,
            typed.wall_ratio,
            value.ours_ms,
            value.theirs_ms,
            value.ratio,
            value.wall_ratio,
        );
    }
}

/// Medians of one pair of operations timed alternately (CPU time unless named wall).
struct Pair {
    ours_ms: f64,
    theirs_ms: f64,
    /// The median of the rounds' ratios, theirs over ours.
    ratio: f64,
    wall_ratio: f64,
}

/// One timing: the thread's CPU time and the wall-clock time.
#[derive(Clone, Copy)]
struct Times {
    cpu: f64,
    wall: f64,
}

/// Times `ours` and `theirs` once each per round, which goes first alternating, after
/// one untimed run of each; neither may fail.
fn pair<A, B, E: std::fmt::Debug, F: std::fmt::Debug>(
    rounds: usize,
    mut ours: impl FnMut() -> Result<A, E>,
    mut theirs: impl FnMut() -> Result<B, F>,
) -> Pair {
    if let Err(e) = ours() {
        panic!("our decoder failed on the dataset: {e:?}");
    }
    if let Err(e) = theirs() {
        panic!("serde_json failed on the dataset: {e:?}");
    }
    let (mut a, mut b, mut r, mut w) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let (t_ours, t_theirs) = if round % 2 == 0 {
            let o = time(&mut ours);
            (o, time(&mut theirs))
        } else {
            let t = time(&mut theirs);
            (time(&mut ours), t)
        };
        a.push(t_ours.cpu * 1e3);
        b.push(t_theirs.cpu * 1e3);
        r.push(t_theirs.cpu / t_ours.cpu);
        w.push(t_theirs.wall / t_ours.wall);
    }
    Pair {
        ours_ms: median(&mut a),
        theirs_ms: median(&mut b),
        ratio: median(&mut r),
        wall_ratio: median(&mut w),
    }
}

/// The times of one call of `work`; its result is dropped outside the timing.
fn time<O>(work: &mut impl FnMut() -> O) -> Times {
    let (cpu, wall) = (thread_cpu(), Instant::now());
    let out = black_box(work());
    let times = Times {
        cpu: thread_cpu().saturating_sub(cpu).as_secs_f64(),
        wall: wall.elapsed().as_secs_f64(),
    };
    drop(out);
    times
}

/// The CPU time this thread has run.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid `timespec` for the call to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The typed pair, generic over the dataset's root type.
struct TypedPair<'a> {
    p: &'a Prepared,
    rounds: usize,
}

impl TypedFn for TypedPair<'_> {
    type Output = Pair;

    fn call<T: Typed>(self) -> Pair {
        let p = self.p;
        pair(
            self.rounds,
            || toon::from_str::<T>(&p.toon_text),
            || serde_json::from_str::<T>(&p.json_text),
        )
    }
}
