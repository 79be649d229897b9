//! Benchmark datasets (being written).
