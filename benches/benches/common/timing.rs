//! Criterion settings shared by the encode and decode benchmarks.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{Bencher, BenchmarkGroup, Criterion, SamplingMode};

use super::prepared::{LARGE_BYTES, Size};

/// Criterion with short warm-up and measurement times (so all datasets run in a few
/// minutes), overridable from the command line (`-- --measurement-time 10`).
pub fn criterion() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args()
}

/// Fewer, flat samples for the ~10 MB size, where one iteration takes tens to hundreds
/// of milliseconds.
pub fn configure(group: &mut BenchmarkGroup<'_, WallTime>, size: Size) {
    if size.bytes >= LARGE_BYTES {
        group.sample_size(10);
        group.sampling_mode(SamplingMode::Flat);
        group.measurement_time(Duration::from_secs(10));
    }
}

/// Times `work`, excluding the time to drop what it returns (freeing a decoded tree is
/// the same work for every implementation's allocator and not what is compared).
pub fn iter<O>(b: &mut Bencher<'_>, mut work: impl FnMut() -> O) {
    b.iter_custom(|iters| {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let start = Instant::now();
            let out = black_box(work());
            total += start.elapsed();
            drop(out);
        }
        total
    });
}
