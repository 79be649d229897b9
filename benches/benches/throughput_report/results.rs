//! What one report run measured.

use toon_benches::datasets::Dataset;

use crate::common::checks::Check;
use crate::decode_memory::DecodeMemoryRow;
use crate::machine::Machine;
use crate::measure::Timing;
use crate::memory::PeakSample;
use crate::profiles::Profile;

/// The implementations timed, in table column order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Imp {
    /// Our codec to and from `toon::Value`.
    OursValue,
    /// Our codec to and from typed structs.
    OursTyped,
    /// The `toon-format` 0.7 crate.
    Peer,
    /// The TypeScript reference 4.4 in Node.js.
    Ts,
    /// serde_json to and from `serde_json::Value` (compact JSON).
    SerdeValue,
    /// serde_json to and from typed structs (compact JSON).
    SerdeTyped,
    /// Our codec to and from `serde_json::Value` through serde
    /// (`toon::from_str::<serde_json::Value>`, `toon::to_string(&serde_json::Value)`).
    OursSerdeValue,
}

impl Imp {
    /// Every implementation, in column order.
    pub const ALL: [Imp; 7] = [
        Imp::OursValue,
        Imp::OursTyped,
        Imp::Peer,
        Imp::Ts,
        Imp::SerdeValue,
        Imp::SerdeTyped,
        Imp::OursSerdeValue,
    ];

    /// Index into a row's timings.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Short label for progress output.
    pub fn label(self) -> &'static str {
        match self {
            Imp::OursValue => "toon (Value)",
            Imp::OursTyped => "toon (structs)",
            Imp::Peer => "toon-format 0.7",
            Imp::Ts => "TS reference",
            Imp::SerdeValue => "serde_json (Value)",
            Imp::SerdeTyped => "serde_json (structs)",
            Imp::OursSerdeValue => "toon (serde_json::Value)",
        }
    }
}

/// Median timings of one operation, indexed by [`Imp::index`]; `None` where it did not
/// run.
pub type Timings = [Option<Timing>; 7];

/// One dataset's measurements.
pub struct Row {
    /// Which dataset.
    pub dataset: Dataset,
    /// How many units it has.
    pub count: usize,
    /// Bytes of compact JSON.
    pub json_bytes: u64,
    /// Bytes of our TOON text: every MB/s figure is in these.
    pub toon_bytes: u64,
    /// Decoding timings.
    pub decode: Timings,
    /// Encoding timings.
    pub encode: Timings,
    /// TOON to JSON text: `to_json_writer` on the whole text, then
    /// `reader_to_json_writer` streaming from a reader; both into `io::sink()`.
    pub to_json: [Option<Timing>; 2],
    /// Agreement checks among the Rust implementations.
    pub checks: Vec<Check>,
    /// The reference's `(encode_matches, decode_matches)`, if it ran.
    pub node_checks: Option<(bool, bool)>,
    /// Why some implementation did not run.
    pub notes: Vec<String>,
}

impl Row {
    /// MB/s of `imp` in `timings`.
    pub fn mb_per_s(&self, timings: &Timings, imp: Imp) -> Option<f64> {
        timings[imp.index()].map(|t| t.mb_per_s(self.toon_bytes))
    }

    /// How many times faster `ours` is than `other` (time of other / time of ours).
    pub fn speedup(&self, timings: &Timings, ours: Imp, other: Imp) -> Option<f64> {
        let ours = timings[ours.index()]?.median.as_secs_f64();
        let other = timings[other.index()]?.median.as_secs_f64();
        (ours > 0.0).then(|| other / ours)
    }

    /// Whether the tabular targets apply (decode ≥ 1.5× serde_json, typed decode ≥
    /// serde_json typed): the datasets whose arrays are all tables.
    pub fn is_tabular(&self) -> bool {
        matches!(self.dataset, Dataset::Employees | Dataset::Analytics)
    }
}

/// Peak memory of one implementation.
pub struct MemoryRow {
    /// Short name.
    pub name: &'static str,
    /// What exactly ran.
    pub description: &'static str,
    /// The child's sample, or why there is none.
    pub sample: Result<PeakSample, String>,
}

/// Everything the report shows.
pub struct Report {
    /// The machine and date.
    pub machine: Machine,
    /// Load averages before and after the run.
    pub load: (String, String),
    /// The target size per dataset, in bytes of pretty JSON.
    pub target_bytes: usize,
    /// Budget per measurement in seconds, and the fewest runs.
    pub budget_s: f64,
    /// Fewest timed runs per measurement.
    pub min_runs: usize,
    /// `Ok((node version, @toon-format/toon version))` or why Node did not run.
    pub node: Result<(String, String), String>,
    /// One row per dataset.
    pub rows: Vec<Row>,
    /// The memory file: units and bytes of compact JSON.
    pub memory_file: Option<(usize, u64)>,
    /// Peak memory of the Rust implementations.
    pub memory: Vec<MemoryRow>,
    /// Peak memory of the reference in kB, or why there is none.
    pub node_peak_kb: Result<u64, String>,
    /// Peak memory of decoding TOON files to JSON files, three ways.
    pub decode_memory: Vec<DecodeMemoryRow>,
    /// Instruction profiles of the targets missed, or why none were taken.
    pub profiles: Result<Vec<Profile>, String>,
    /// Size (bytes of pretty JSON) of the datasets profiled.
    pub profile_bytes: usize,
}

impl Report {
    /// Number of must-agree checks that failed, the reference's included.
    pub fn failures(&self) -> usize {
        self.rows
            .iter()
            .map(|row| {
                let node = row
                    .node_checks
                    .map_or(0, |(e, d)| usize::from(!e) + usize::from(!d));
                row.checks.iter().filter(|c| c.is_failure()).count() + node
            })
            .sum()
    }
}
