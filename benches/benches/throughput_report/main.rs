//! Writes `benches/results/throughput.md`: MB/s medians of our codec, the `toon-format`
//! 0.7 crate, the TypeScript reference 4.4 (through `scripts/bench-node`) and serde_json
//! on the same generated data, ratios against the targets of the performance issue, peak
//! memory of encoding the ~10 MB tabular file, and checks that the implementations agree.
//!
//! Run it with `benches/run-throughput.sh` (which installs the Node script's package
//! first), or directly:
//!
//! ```sh
//! cargo bench -p toon-benches --bench throughput_report -- \
//!     [--bytes N] [--budget-ms N] [--min-runs N] [--max-runs N] [--datasets a,b] \
//!     [--out FILE] [--no-node] [--node PATH]
//! ```
//!
//! It is a bench target, not a binary, because the `toon-format` peer is a
//! dev-dependency. It re-executes itself with `GLIBC_TUNABLES=glibc.malloc.mxfast=0`
//! (see `common::tunables`), and runs itself again as a child for each peak-memory
//! measurement (`--peak-encode IMPLEMENTATION FILE`, `--peak-decode WAY FILE`).

#[path = "../common/mod.rs"]
mod common;
mod decode_memory;
mod machine;
mod markdown;
mod measure;
mod memory;
mod node;
mod options;
mod profiles;
mod results;
mod targets;

use std::path::Path;
use std::process::ExitCode;

use common::prepared::{LARGE_BYTES, Prepared};
use common::typed::{Typed, TypedFn, with_typed};
use common::{checks, peer};
use measure::{Timing, measure};
use node::NodeBench;
use options::{Mode, Options};
use results::{Imp, MemoryRow, Report, Row, Timings};
use toon_benches::datasets::Dataset;

fn main() -> ExitCode {
    common::tunables::ensure();
    match options::parse(std::env::args().skip(1)) {
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
        Ok(Mode::Help) => {
            println!("{}", options::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Mode::PeakEncode {
            implementation,
            file,
        }) => match memory::child(&implementation, &file) {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("{message}");
                ExitCode::FAILURE
            }
        },
        Ok(Mode::PeakDecode { way, file }) => match decode_memory::child(&way, &file) {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("{message}");
                ExitCode::FAILURE
            }
        },
        Ok(Mode::Report(options)) => match run(&options) {
            Ok(report) => {
                let failures = report.failures();
                if failures > 0 {
                    eprintln!("{failures} agreement checks failed; see the report");
                    ExitCode::FAILURE
                } else {
                    ExitCode::SUCCESS
                }
            }
            Err(message) => {
                eprintln!("throughput_report: {message}");
                ExitCode::FAILURE
            }
        },
    }
}

fn run(options: &Options) -> Result<Report, String> {
    let machine = machine::Machine::now();
    let load_before = machine::load_average();
    let node = NodeBench::locate(options);
    if let Err(why) = &node {
        eprintln!("TypeScript reference: {why}");
    }
    let dir = tempfile::tempdir().map_err(|e| format!("temporary folder: {e}"))?;
    let mut rows = Vec::new();
    for &dataset in &options.datasets {
        eprintln!(
            "{}: generating ~{} bytes",
            dataset.slug(),
            options.target_bytes
        );
        let p = Prepared::new(dataset, options.target_bytes)?;
        rows.push(measure_dataset(
            &p,
            options,
            node.as_ref().ok(),
            dir.path(),
        )?);
    }
    let (memory_file, memory, node_peak_kb) = measure_memory(node.as_ref().ok(), dir.path())?;
    let decode_memory = measure_decode_memory(options, dir.path())?;
    let mut report = Report {
        machine,
        load: (load_before, machine::load_average()),
        target_bytes: options.target_bytes,
        budget_s: options.budget.as_secs_f64(),
        min_runs: options.min_runs,
        node: node
            .as_ref()
            .map(|n| (n.node_version.clone(), n.toon_version.clone()))
            .map_err(Clone::clone),
        rows,
        memory_file,
        memory,
        node_peak_kb,
        decode_memory,
        profiles: Err("not taken: --no-profiles".to_owned()),
        profile_bytes: options.profile_bytes,
    };
    if options.profiles {
        report.profiles = profiles::take(targets::misses(&report), options.profile_bytes);
    }
    if let Some(parent) = options.out.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(&options.out, markdown::render(&report))
        .map_err(|e| format!("{}: {e}", options.out.display()))?;
    eprintln!("wrote {}", options.out.display());
    Ok(report)
}

fn measure_dataset(
    p: &Prepared,
    options: &Options,
    node: Option<&NodeBench>,
    dir: &Path,
) -> Result<Row, String> {
    let slug = p.dataset.slug();
    let mut row = Row {
        dataset: p.dataset,
        count: p.count,
        json_bytes: p.json_text.len() as u64,
        toon_bytes: p.toon_bytes(),
        decode: [None; 7],
        encode: [None; 7],
        to_json: [None; 2],
        checks: checks::run(p),
        node_checks: None,
        notes: Vec::new(),
    };
    let progress = |op: &str, imp: Imp, t: &Timing| {
        eprintln!(
            "  {op} {:<22} {:>9.1} MB/s  {:>9.2} ms  ({} runs)",
            imp.label(),
            t.mb_per_s(p.toon_bytes()),
            t.median.as_secs_f64() * 1000.0,
            t.runs
        );
    };
    let record = |timings: &mut Timings, op: &str, imp: Imp, t: Timing| {
        progress(op, imp, &t);
        timings[imp.index()] = Some(t);
    };

    // Decoding: every decoder reads the same TOON text; serde_json reads the JSON.
    record(
        &mut row.decode,
        "decode",
        Imp::OursValue,
        measure(options, || toon::decode_value(&p.toon_text)),
    );
    let typed = with_typed(p.dataset, TimeTyped { p, options });
    match peer::decode(&p.toon_text) {
        Ok(_) => record(
            &mut row.decode,
            "decode",
            Imp::Peer,
            measure(options, || peer::decode(&p.toon_text)),
        ),
        Err(e) => row
            .notes
            .push(format!("toon-format cannot decode our TOON: {e}")),
    }
    record(
        &mut row.decode,
        "decode",
        Imp::SerdeValue,
        measure(options, || {
            serde_json::from_str::<serde_json::Value>(&p.json_text)
        }),
    );

    record(
        &mut row.decode,
        "decode",
        Imp::OursSerdeValue,
        measure(options, || {
            toon::from_str::<serde_json::Value>(&p.toon_text)
        }),
    );

    // TOON to JSON text, without a tree: the whole text, then streamed from a reader.
    let options_default = toon::DecodeOptions::default();
    let transcode = measure(options, || {
        toon::decode::to_json_writer(&p.toon_text, &options_default, std::io::sink(), 0)
    });
    eprintln!(
        "  to JSON {:<22} {:>9.1} MB/s",
        "whole text",
        transcode.mb_per_s(p.toon_bytes())
    );
    let stream = measure(options, || {
        toon::decode::reader_to_json_writer(
            p.toon_text.as_bytes(),
            &options_default,
            std::io::sink(),
            0,
        )
    });
    eprintln!(
        "  to JSON {:<22} {:>9.1} MB/s",
        "stream",
        stream.mb_per_s(p.toon_bytes())
    );
    row.to_json = [Some(transcode), Some(stream)];

    // Encoding: each implementation from its own pre-built value.
    record(
        &mut row.encode,
        "encode",
        Imp::OursValue,
        measure(options, || toon::encode_value(&p.value)),
    );
    let peer_value = peer::value(&p.json);
    match peer::encode(&peer_value) {
        Ok(_) => record(
            &mut row.encode,
            "encode",
            Imp::Peer,
            measure(options, || peer::encode(&peer_value)),
        ),
        Err(e) => row
            .notes
            .push(format!("toon-format cannot encode the data: {e}")),
    }
    drop(peer_value);
    record(
        &mut row.encode,
        "encode",
        Imp::SerdeValue,
        measure(options, || serde_json::to_string(&p.json)),
    );
    record(
        &mut row.encode,
        "encode",
        Imp::OursSerdeValue,
        measure(options, || toon::to_string(&p.json)),
    );

    match typed {
        Ok(typed) => {
            record(&mut row.decode, "decode", Imp::OursTyped, typed.toon_decode);
            record(
                &mut row.decode,
                "decode",
                Imp::SerdeTyped,
                typed.serde_decode,
            );
            record(&mut row.encode, "encode", Imp::OursTyped, typed.toon_encode);
            record(
                &mut row.encode,
                "encode",
                Imp::SerdeTyped,
                typed.serde_encode,
            );
        }
        Err(e) => row.notes.push(format!("typed benchmarks skipped: {e}")),
    }

    if let Some(node) = node {
        let json_file = p
            .write_files(dir)
            .map_err(|e| format!("{slug}: writing files: {e}"))?;
        match node.time(&json_file, options) {
            Ok(result) => {
                record(&mut row.decode, "decode", Imp::Ts, result.decode);
                record(&mut row.encode, "encode", Imp::Ts, result.encode);
                row.node_checks = Some((result.encode_matches, result.decode_matches));
            }
            Err(e) => row.notes.push(format!("TS reference: {e}")),
        }
        let _ = std::fs::remove_file(json_file.with_extension("toon"));
        let _ = std::fs::remove_file(json_file);
    }
    Ok(row)
}

/// Timings of the typed paths, ours and serde_json's.
struct TypedTimings {
    toon_decode: Timing,
    serde_decode: Timing,
    toon_encode: Timing,
    serde_encode: Timing,
}

/// Times the typed paths, generic over the dataset's root type.
struct TimeTyped<'a> {
    p: &'a Prepared,
    options: &'a Options,
}

impl TypedFn for TimeTyped<'_> {
    type Output = Result<TypedTimings, String>;

    fn call<T: Typed>(self) -> Self::Output {
        let TimeTyped { p, options } = self;
        let typed: T =
            serde_json::from_str(&p.json_text).map_err(|e| format!("serde_json: {e}"))?;
        toon::from_str::<T>(&p.toon_text).map_err(|e| format!("toon::from_str: {e}"))?;
        Ok(TypedTimings {
            toon_decode: measure(options, || toon::from_str::<T>(&p.toon_text)),
            serde_decode: measure(options, || serde_json::from_str::<T>(&p.json_text)),
            toon_encode: measure(options, || toon::to_string(&typed)),
            serde_encode: measure(options, || serde_json::to_string(&typed)),
        })
    }
}

/// Peak memory of decoding TOON files to JSON files: the employees table and the event
/// log (a list of nested objects), each at `--stream-bytes`.
fn measure_decode_memory(
    options: &Options,
    dir: &Path,
) -> Result<Vec<decode_memory::DecodeMemoryRow>, String> {
    let memory_dir = dir.join("decode-memory");
    std::fs::create_dir_all(&memory_dir).map_err(|e| format!("{}: {e}", memory_dir.display()))?;
    let mut rows = Vec::new();
    for dataset in [Dataset::Employees, Dataset::Events] {
        eprintln!(
            "decode memory: generating {} at ~{} bytes",
            dataset.slug(),
            options.stream_bytes
        );
        let (file, label) = {
            let p = Prepared::new(dataset, options.stream_bytes)?;
            let json = p
                .write_files(&memory_dir)
                .map_err(|e| format!("writing the decode memory file: {e}"))?;
            (
                json.with_extension("toon"),
                format!("{} ({} {})", dataset.slug(), p.count, dataset.unit()),
            )
        };
        rows.push(decode_memory::measure_file(label, &file));
        let _ = std::fs::remove_file(&file);
        let _ = std::fs::remove_file(file.with_extension("json"));
    }
    Ok(rows)
}

type MemoryResults = (Option<(usize, u64)>, Vec<MemoryRow>, Result<u64, String>);

/// Peak memory of encoding the ~10 MB employees file, each implementation in a child.
fn measure_memory(node: Option<&NodeBench>, dir: &Path) -> Result<MemoryResults, String> {
    eprintln!("peak memory: generating employees at ~{LARGE_BYTES} bytes");
    let memory_dir = dir.join("memory");
    std::fs::create_dir_all(&memory_dir).map_err(|e| format!("{}: {e}", memory_dir.display()))?;
    let (file, info) = {
        let p = Prepared::new(Dataset::Employees, LARGE_BYTES)?;
        let file = p
            .write_files(&memory_dir)
            .map_err(|e| format!("writing the memory file: {e}"))?;
        (file, (p.count, p.json_text.len() as u64))
    };
    let memory = memory::IMPLEMENTATIONS
        .iter()
        .map(|&(name, description)| {
            let sample = memory::measure(name, &file);
            match &sample {
                Ok(s) => eprintln!(
                    "  {name:<12} peak {:>8} kB, encoding peak {:>8} kB",
                    s.peak_kb(),
                    s.encode_peak_kb
                ),
                Err(e) => eprintln!("  {name:<12} failed: {e}"),
            }
            MemoryRow {
                name,
                description,
                sample,
            }
        })
        .collect();
    let node_peak = match node {
        Some(node) => node.peak_encode(&file),
        None => Err("Node.js did not run".to_owned()),
    };
    if let Ok(kb) = &node_peak {
        eprintln!("  {:<12} peak {kb:>8} kB", "TS");
    }
    Ok((Some(info), memory, node_peak))
}
