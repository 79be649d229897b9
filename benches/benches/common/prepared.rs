//! A dataset at a given size in every form the benchmarks need, built once, outside
//! the timings.

use std::io;
use std::path::{Path, PathBuf};

use toon_benches::datasets::Dataset;

/// The default size: about 100 KB of pretty JSON.
pub const SMALL_BYTES: usize = 100_000;
/// The large size, about 10 MB of pretty JSON, measured when [`LARGE_VARIABLE`] is set.
pub const LARGE_BYTES: usize = 10_000_000;
/// Set to `1` to also run the criterion benchmarks at [`LARGE_BYTES`].
pub const LARGE_VARIABLE: &str = "TOON_BENCH_LARGE";

/// A dataset size the criterion benchmarks run at.
#[derive(Clone, Copy, Debug)]
pub struct Size {
    /// The label in benchmark ids, such as `100KB`.
    pub label: &'static str,
    /// Target size in bytes of pretty JSON (see `Dataset::sized`).
    pub bytes: usize,
}

/// The sizes to benchmark: ~100 KB, and ~10 MB when `TOON_BENCH_LARGE=1`.
pub fn sizes() -> Vec<Size> {
    let mut sizes = vec![Size {
        label: "100KB",
        bytes: SMALL_BYTES,
    }];
    if std::env::var(LARGE_VARIABLE).is_ok_and(|v| v == "1") {
        sizes.push(Size {
            label: "10MB",
            bytes: LARGE_BYTES,
        });
    }
    sizes
}

/// One dataset as a value and as JSON and TOON text.
///
/// Every form comes from the same compact JSON text, so each implementation starts from
/// the same data: the value is what parsing that text gives.
pub struct Prepared {
    /// Which dataset.
    pub dataset: Dataset,
    /// How many units (records, services, ...) it has.
    pub count: usize,
    /// Compact JSON, byte-identical to JavaScript's `JSON.stringify`.
    pub json_text: String,
    /// The data as our value.
    pub value: toon::Value,
    /// The data as serde_json's value.
    pub json: serde_json::Value,
    /// Our encoding of the data (default options).
    pub toon_text: String,
}

impl Prepared {
    /// Generates `dataset` at about `target_bytes` of pretty JSON.
    pub fn new(dataset: Dataset, target_bytes: usize) -> Result<Prepared, String> {
        let (count, generated) = dataset.sized(target_bytes);
        let json_text = toon::value::to_json_string(&generated, 0);
        drop(generated);
        let value = toon::value::from_json_str(&json_text, toon::DEFAULT_MAX_DEPTH)
            .map_err(|e| format!("{}: our JSON reader: {e}", dataset.slug()))?;
        let json: serde_json::Value = serde_json::from_str(&json_text)
            .map_err(|e| format!("{}: serde_json: {e}", dataset.slug()))?;
        let toon_text = toon::encode_value(&value);
        Ok(Prepared {
            dataset,
            count,
            json_text,
            value,
            json,
            toon_text,
        })
    }

    /// Length of the TOON text: the byte count all throughputs are given in.
    pub fn toon_bytes(&self) -> u64 {
        self.toon_text.len() as u64
    }

    /// Writes `<slug>.json` and `<slug>.toon` into `dir`; returns the JSON file's path.
    pub fn write_files(&self, dir: &Path) -> io::Result<PathBuf> {
        let json_path = dir.join(format!("{}.json", self.dataset.slug()));
        std::fs::write(&json_path, &self.json_text)?;
        std::fs::write(json_path.with_extension("toon"), &self.toon_text)?;
        Ok(json_path)
    }
}
