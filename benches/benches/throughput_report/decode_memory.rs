//! Peak memory of decoding a TOON file into a JSON file, three ways, each in a fresh
//! child process (this program re-run with `--peak-decode WAY FILE`), read from Linux's
//! `/proc/self/status`: building the whole tree, writing JSON from the whole text without a
//! tree, and streaming from a reader (what `toon -d` does); and, as the peer of the
//! first, serde_json building its tree from the same data as JSON (the `.json` file
//! beside the TOON file). The output goes to a file next to the input through a
//! `BufWriter`, the same for all.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::memory::{run_child, status};

/// The ways measured, with a description for the report.
pub const WAYS: [(&str, &str); 4] = [
    (
        "tree",
        "`toon::decode_value` on the whole text, then the `Value` written as JSON by \
         `serde_json::to_writer`",
    ),
    (
        "text",
        "`toon::decode::to_json_writer` on the whole text (no tree)",
    ),
    (
        "stream",
        "`toon::decode::reader_to_json_writer` over a `BufReader<File>` (what `toon -d` does)",
    ),
    (
        "serde_json",
        "`serde_json::from_str::<serde_json::Value>` on the same data as compact JSON, then \
         the value written as JSON (the peer of **tree**)",
    ),
];

/// The ways of encoding the JSON file beside the TOON file into a TOON file, measured
/// the same way, with a description for the report.
pub const ENCODE_WAYS: [(&str, &str); 2] = [
    (
        "json-tree",
        "`toon::value::from_json_str` on the whole text, then `toon::encode::encode_value_to_writer` \
         (a `Value` tree of the JSON)",
    ),
    (
        "json-tape",
        "`toon::value::JsonTape::parse` on the whole text, then `toon::to_writer_with` (a flat \
         tape borrowing its strings from the text; what `toon FILE.json` does)",
    ),
];

/// What a child reports.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct DecodeSample {
    /// Resident set size before opening the file, kB.
    pub start_kb: u64,
    /// Peak resident set size of the whole process, kB.
    pub peak_kb: u64,
    /// Bytes of JSON written.
    pub output_bytes: u64,
}

impl DecodeSample {
    /// What decoding added to the process at its peak, kB.
    pub fn used_kb(&self) -> u64 {
        self.peak_kb.saturating_sub(self.start_kb)
    }
}

/// One input file and the three samples.
pub struct DecodeMemoryRow {
    /// What the file holds.
    pub label: String,
    /// Its size in bytes.
    pub toon_bytes: u64,
    /// One result per entry of [`WAYS`], in order.
    pub samples: Vec<Result<DecodeSample, String>>,
    /// The size of the JSON file beside it, bytes.
    pub json_bytes: u64,
    /// One result per entry of [`ENCODE_WAYS`] (JSON → TOON), in order.
    pub encode_samples: Vec<Result<DecodeSample, String>>,
}

/// Measures every way on `file`.
pub fn measure_file(label: String, file: &Path) -> DecodeMemoryRow {
    let toon_bytes = std::fs::metadata(file).map_or(0, |m| m.len());
    let json_bytes = std::fs::metadata(file.with_extension("json")).map_or(0, |m| m.len());
    let samples = run_ways(&WAYS, file);
    let encode_samples = run_ways(&ENCODE_WAYS, file);
    DecodeMemoryRow {
        label,
        toon_bytes,
        samples,
        json_bytes,
        encode_samples,
    }
}

/// Runs each of `ways` on `file` in a child.
fn run_ways(ways: &[(&str, &str)], file: &Path) -> Vec<Result<DecodeSample, String>> {
    ways.iter()
        .map(|&(way, _)| {
            let sample = run_child::<DecodeSample>("--peak-decode", way, file);
            match &sample {
                Ok(s) => eprintln!("  {way:<10} peak +{:>8} kB", s.used_kb()),
                Err(e) => eprintln!("  {way:<10} failed: {e}"),
            }
            sample
        })
        .collect()
}

/// The child: decodes `file` the given way and prints a [`DecodeSample`] as JSON.
pub fn child(way: &str, file: &Path) -> Result<String, String> {
    let start_kb = status("VmRSS")?;
    let out_path = output_path(file, way);
    let options = toon::DecodeOptions::default();
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", file.display());
    let out = File::create(&out_path).map_err(|e| fail(&e))?;
    let mut writer = BufWriter::new(out);
    match way {
        "tree" => {
            let text = std::fs::read_to_string(file).map_err(|e| fail(&e))?;
            let value = toon::decode_value(&text).map_err(|e| fail(&e))?;
            drop(text);
            serde_json::to_writer(&mut writer, &value).map_err(|e| fail(&e))?;
        }
        "text" => {
            let text = std::fs::read_to_string(file).map_err(|e| fail(&e))?;
            toon::decode::to_json_writer(&text, &options, &mut writer, 0).map_err(|e| fail(&e))?;
        }
        "stream" => {
            let reader = BufReader::new(File::open(file).map_err(|e| fail(&e))?);
            toon::decode::reader_to_json_writer(reader, &options, &mut writer, 0)
                .map_err(|e| fail(&e))?;
        }
        "serde_json" => {
            let json = file.with_extension("json");
            let text = std::fs::read_to_string(&json).map_err(|e| fail(&e))?;
            let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| fail(&e))?;
            drop(text);
            serde_json::to_writer(&mut writer, &value).map_err(|e| fail(&e))?;
        }
        "json-tree" => {
            let text =
                std::fs::read_to_string(file.with_extension("json")).map_err(|e| fail(&e))?;
            let value =
                toon::value::from_json_str(&text, toon::DEFAULT_MAX_DEPTH).map_err(|e| fail(&e))?;
            let options = toon::EncodeOptions::default();
            toon::encode::encode_value_to_writer(&mut writer, &value, &options)
                .map_err(|e| fail(&e))?;
        }
        "json-tape" => {
            let text =
                std::fs::read_to_string(file.with_extension("json")).map_err(|e| fail(&e))?;
            let tape = toon::value::JsonTape::parse(&text, toon::DEFAULT_MAX_DEPTH)
                .map_err(|e| fail(&e))?;
            let options = toon::EncodeOptions::default();
            toon::to_writer_with(&mut writer, &tape, &options).map_err(|e| fail(&e))?;
        }
        other => return Err(format!("unknown way {other:?}")),
    }
    writer.flush().map_err(|e| fail(&e))?;
    drop(writer);
    let peak_kb = status("VmHWM")?;
    let output_bytes = std::fs::metadata(&out_path).map_or(0, |m| m.len());
    let _ = std::fs::remove_file(&out_path);
    Ok(serde_json::json!({
        "start_kb": start_kb,
        "peak_kb": peak_kb,
        "output_bytes": output_bytes,
    })
    .to_string())
}

fn output_path(file: &Path, way: &str) -> PathBuf {
    let ext = if way.starts_with("json-") {
        "toon"
    } else {
        "json"
    };
    file.with_extension(format!("{way}.{ext}"))
}
