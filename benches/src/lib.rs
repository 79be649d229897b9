//! # toon-benches — datasets and reports for toonkit's benchmarks
//!
//! [`datasets`] generates the benchmark data deterministically (fixed seeds, an RNG
//! written here), at any size; [`report`] turns token counts into the markdown of
//! `benches/results/token-efficiency.md` (with [`plan_report`]'s plan section), written by
//! `cargo run --release -p toon-benches --bin token_report`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod calendar;
pub mod datasets;
pub mod plan_report;
pub mod planner_files;
pub mod report;
pub mod rng;
mod words;
