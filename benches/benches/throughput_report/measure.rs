//! Timing one operation: an untimed warm-up, then runs until both a minimum count and a
//! time budget are reached; the median is kept (the same method as the Node script).

use std::hint::black_box;
use std::time::{Duration, Instant};

use crate::options::Options;

/// The result of timing one operation.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Median time of one run.
    pub median: Duration,
    /// How many runs were timed.
    pub runs: usize,
}

impl Timing {
    /// Throughput in MB/s (10^6 bytes per second) for `bytes` processed per run.
    pub fn mb_per_s(&self, bytes: u64) -> f64 {
        let seconds = self.median.as_secs_f64();
        if seconds > 0.0 {
            bytes as f64 / seconds / 1e6
        } else {
            f64::INFINITY
        }
    }
}

/// Times `work`; the time to drop its result is not counted.
pub fn measure<O>(options: &Options, mut work: impl FnMut() -> O) -> Timing {
    drop(black_box(work()));
    let mut times = Vec::new();
    let mut spent = Duration::ZERO;
    while times.len() < options.max_runs
        && (times.len() < options.min_runs || spent < options.budget)
    {
        let start = Instant::now();
        let out = black_box(work());
        let elapsed = start.elapsed();
        drop(out);
        times.push(elapsed);
        spent += elapsed;
    }
    Timing {
        median: median(&mut times),
        runs: times.len(),
    }
}

/// The median of `times` (the mean of the middle two for an even count).
pub fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    let mid = times.len() / 2;
    match times.len() {
        0 => Duration::ZERO,
        n if n % 2 == 1 => times[mid],
        _ => (times[mid - 1] + times[mid]) / 2,
    }
}
