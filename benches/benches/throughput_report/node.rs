//! The TypeScript reference, timed by `scripts/bench-node/bench.mjs` in Node.js on the
//! files this report writes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde::Deserialize;
use toon_benches::report::workspace_root;

use crate::measure::Timing;
use crate::memory::last_json_line;
use crate::options::Options;

/// The Node program and the script folder, once checked to work.
pub struct NodeBench {
    node: PathBuf,
    script_dir: PathBuf,
    /// `node --version`.
    pub node_version: String,
    /// The installed `@toon-format/toon` version.
    pub toon_version: String,
}

/// One file's timings and checks from the script.
pub struct NodeResult {
    /// Median of `encode(JSON.parse(json))`.
    pub encode: Timing,
    /// Median of `decode(toon)`.
    pub decode: Timing,
    /// Whether the reference's encoding equals our TOON text byte for byte.
    pub encode_matches: bool,
    /// Whether `JSON.stringify` of the reference's decoding equals the JSON text.
    pub decode_matches: bool,
}

#[derive(Deserialize)]
struct RawTiming {
    median_ms: f64,
    runs: usize,
}

#[derive(Deserialize)]
struct RawResult {
    encode: RawTiming,
    decode: RawTiming,
    encode_matches: bool,
    decode_matches: bool,
}

#[derive(Deserialize)]
struct RawPeak {
    peak_kb: Option<u64>,
}

#[derive(Deserialize)]
struct PackageJson {
    version: String,
}

impl NodeBench {
    /// Finds Node and the installed reference, or says why the TypeScript column stays
    /// empty.
    pub fn locate(options: &Options) -> Result<NodeBench, String> {
        let node = options.node.clone().ok_or("skipped (--no-node)")?;
        let script_dir = workspace_root().join("scripts/bench-node");
        let version = Command::new(&node)
            .arg("--version")
            .output()
            .map_err(|e| format!("Node.js not found ({}: {e})", node.display()))?;
        let package = script_dir.join("node_modules/@toon-format/toon/package.json");
        let package = std::fs::read_to_string(&package).map_err(|_| {
            format!(
                "{} missing: run `npm ci` in scripts/bench-node",
                package.display()
            )
        })?;
        let package: PackageJson = serde_json::from_str(&package)
            .map_err(|e| format!("@toon-format/toon package.json: {e}"))?;
        Ok(NodeBench {
            node,
            script_dir,
            node_version: String::from_utf8_lossy(&version.stdout).trim().to_owned(),
            toon_version: package.version,
        })
    }

    /// Times encoding and decoding of `json_file` (its `.toon` sibling must exist).
    pub fn time(&self, json_file: &Path, options: &Options) -> Result<NodeResult, String> {
        let output = Command::new(&self.node)
            .arg("--expose-gc")
            .arg(self.script_dir.join("bench.mjs"))
            .arg("--budget-ms")
            .arg(options.budget.as_millis().to_string())
            .arg("--min-runs")
            .arg(options.min_runs.to_string())
            .arg("--max-runs")
            .arg(options.max_runs.to_string())
            .arg(json_file)
            .output()
            .map_err(|e| format!("cannot run node: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "bench.mjs failed: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        let raw: RawResult = last_json_line(&output.stdout)?;
        Ok(NodeResult {
            encode: timing(&raw.encode),
            decode: timing(&raw.decode),
            encode_matches: raw.encode_matches,
            decode_matches: raw.decode_matches,
        })
    }

    /// Peak resident memory in kB of a Node process that reads, parses and encodes
    /// `json_file`.
    pub fn peak_encode(&self, json_file: &Path) -> Result<u64, String> {
        let output = Command::new(&self.node)
            .arg(self.script_dir.join("bench.mjs"))
            .arg("--peak-encode")
            .arg(json_file)
            .output()
            .map_err(|e| format!("cannot run node: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "bench.mjs failed: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        let raw: RawPeak = last_json_line(&output.stdout)?;
        raw.peak_kb
            .ok_or_else(|| "Node could not read VmHWM".to_owned())
    }
}

fn timing(raw: &RawTiming) -> Timing {
    Timing {
        median: Duration::from_secs_f64(raw.median_ms.max(0.0) / 1000.0),
        runs: raw.runs,
    }
}
