//! Peak memory of encoding one JSON file, each implementation in a fresh child process
//! (this program re-run with `--peak-encode IMPLEMENTATION FILE`), read from Linux's
//! `/proc/self/status`.
//!
//! The child records its resident set size at start, after building the value (the
//! JSON text already freed), and its peak (`VmHWM`) while encoding; the peak is reset
//! before encoding by writing `5` to `/proc/self/clear_refs`, so it shows what encoding
//! itself adds on top of the value.

use std::path::Path;
use std::process::Command;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::common::peer;
use crate::common::typed::EmployeesDoc;

/// The implementations measured, with a description for the report. The file must be
/// the employees dataset (the typed variant reads it into `EmployeesDoc`).
pub const IMPLEMENTATIONS: [(&str, &str); 4] = [
    (
        "ours",
        "toon: `encode_value` on a `toon::Value` read from the JSON",
    ),
    (
        "ours-typed",
        "toon: `to_string` on typed structs read from the JSON",
    ),
    (
        "toon-format",
        "toon-format 0.7: `encode_object` on its `JsonValue`",
    ),
    (
        "serde_json",
        "serde_json: compact `to_string` of a `serde_json::Value`",
    ),
];

/// What a child reports, in kB of resident memory, and the output length in bytes.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct PeakSample {
    /// Resident set size before reading the file.
    pub start_kb: u64,
    /// Resident set size holding the value, the JSON text freed.
    pub held_kb: u64,
    /// Peak resident set size while reading and building the value.
    pub build_peak_kb: u64,
    /// Peak resident set size while encoding (whole process if the reset failed).
    pub encode_peak_kb: u64,
    /// Whether the peak could be reset before encoding.
    pub peak_reset: bool,
    /// Bytes of TOON (or JSON) produced.
    pub output_bytes: u64,
}

impl PeakSample {
    /// The whole process's peak resident set size.
    pub fn peak_kb(&self) -> u64 {
        self.build_peak_kb.max(self.encode_peak_kb)
    }

    /// Peak while encoding, over (memory holding the value + output length): the issue's
    /// target is at most 1.5.
    pub fn encode_ratio(&self) -> Option<f64> {
        let value_kb = self.held_kb.saturating_sub(self.start_kb) as f64;
        let output_kb = self.output_bytes as f64 / 1024.0;
        let used_kb = self.encode_peak_kb.saturating_sub(self.start_kb) as f64;
        (self.peak_reset && value_kb + output_kb > 0.0).then(|| used_kb / (value_kb + output_kb))
    }
}

/// Runs the child for `implementation` on `file`.
pub fn measure(implementation: &str, file: &Path) -> Result<PeakSample, String> {
    run_child("--peak-encode", implementation, file)
}

/// Runs this program again as `PROGRAM FLAG IMPLEMENTATION FILE` and reads the last line
/// it prints as JSON.
pub fn run_child<T: DeserializeOwned>(
    flag: &str,
    implementation: &str,
    file: &Path,
) -> Result<T, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let output = Command::new(exe)
        .arg(flag)
        .arg(implementation)
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run the child: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "child failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    last_json_line(&output.stdout)
}

/// Parses the last non-empty line of `stdout` as JSON.
pub fn last_json_line<T: DeserializeOwned>(stdout: &[u8]) -> Result<T, String> {
    let text = String::from_utf8_lossy(stdout);
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .ok_or("the child printed nothing")?;
    serde_json::from_str(line).map_err(|e| format!("unexpected child output {line:?}: {e}"))
}

/// The child: encodes `file` with `implementation` and prints a [`PeakSample`] as JSON.
pub fn child(implementation: &str, file: &Path) -> Result<String, String> {
    let start_kb = status("VmRSS")?;
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let sample = match implementation {
        "ours" => run(
            start_kb,
            text,
            |t| toon::value::from_json_str(t, toon::DEFAULT_MAX_DEPTH).map_err(|e| e.to_string()),
            |v| Ok(toon::encode_value(v)),
        ),
        "ours-typed" => run(
            start_kb,
            text,
            |t| serde_json::from_str::<EmployeesDoc>(t).map_err(|e| e.to_string()),
            |v| toon::to_string(v).map_err(|e| e.to_string()),
        ),
        "toon-format" => run(
            start_kb,
            text,
            |t| {
                let json: serde_json::Value = serde_json::from_str(t).map_err(|e| e.to_string())?;
                Ok(peer::value(&json))
            },
            peer::encode,
        ),
        "serde_json" => run(
            start_kb,
            text,
            |t| serde_json::from_str::<serde_json::Value>(t).map_err(|e| e.to_string()),
            |v| serde_json::to_string(v).map_err(|e| e.to_string()),
        ),
        other => Err(format!("unknown implementation {other:?}")),
    }?;
    Ok(serde_json::json!({
        "start_kb": sample.start_kb,
        "held_kb": sample.held_kb,
        "build_peak_kb": sample.build_peak_kb,
        "encode_peak_kb": sample.encode_peak_kb,
        "peak_reset": sample.peak_reset,
        "output_bytes": sample.output_bytes,
    })
    .to_string())
}

fn run<V>(
    start_kb: u64,
    text: String,
    build: impl FnOnce(&str) -> Result<V, String>,
    encode: impl FnOnce(&V) -> Result<String, String>,
) -> Result<PeakSample, String> {
    let value = build(&text)?;
    drop(text);
    let held_kb = status("VmRSS")?;
    let build_peak_kb = status("VmHWM")?;
    let peak_reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let output = encode(&value)?;
    let encode_peak_kb = status("VmHWM")?;
    let sample = PeakSample {
        start_kb,
        held_kb,
        build_peak_kb,
        encode_peak_kb,
        peak_reset,
        output_bytes: output.len() as u64,
    };
    drop(output);
    drop(value);
    Ok(sample)
}

/// A `kB` field of `/proc/self/status`, such as `VmRSS` or `VmHWM`.
pub fn status(field: &str) -> Result<u64, String> {
    let text = std::fs::read_to_string("/proc/self/status")
        .map_err(|e| format!("/proc/self/status: {e} (peak memory needs Linux)"))?;
    text.lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| format!("/proc/self/status has no {field}"))
}
