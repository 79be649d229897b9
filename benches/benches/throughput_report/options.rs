//! Command-line options of the throughput report.

use std::path::PathBuf;
use std::time::Duration;

use toon_benches::datasets::Dataset;
use toon_benches::report::workspace_root;

use crate::common::prepared::LARGE_BYTES;

pub const USAGE: &str = "usage: cargo bench -p toon-benches --bench throughput_report -- \
[--bytes N] [--budget-ms N] [--min-runs N] [--max-runs N] [--datasets a,b,...] \
[--out FILE] [--no-node] [--node PATH] [--stream-bytes N] [--no-profiles] [--profile-bytes N]";

/// What to measure and where to write it.
pub struct Options {
    /// Target size of each dataset in bytes of pretty JSON.
    pub target_bytes: usize,
    /// Size (bytes of pretty JSON) of the large files decoded for peak memory.
    pub stream_bytes: usize,
    /// Time to spend measuring one implementation on one dataset and operation.
    pub budget: Duration,
    /// Fewest timed runs per measurement.
    pub min_runs: usize,
    /// Most timed runs per measurement.
    pub max_runs: usize,
    /// The datasets to measure, in report order.
    pub datasets: Vec<Dataset>,
    /// The markdown file to write.
    pub out: PathBuf,
    /// The Node.js program, or `None` to skip the TypeScript reference.
    pub node: Option<PathBuf>,
    /// Whether to profile each missed target with callgrind.
    pub profiles: bool,
    /// Size (bytes of pretty JSON) of the datasets profiled.
    pub profile_bytes: usize,
}

/// How the program was asked to run.
pub enum Mode {
    /// Measure everything and write the report.
    Report(Options),
    /// Internal: encode one JSON file in this process and print its peak memory.
    PeakEncode {
        implementation: String,
        file: PathBuf,
    },
    /// Internal: decode one TOON file one way in this process and print its peak memory.
    PeakDecode { way: String, file: PathBuf },
    /// Print the usage and stop.
    Help,
}

/// Parses the arguments (cargo's `--bench` flag is ignored).
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Mode, String> {
    let mut options = Options {
        target_bytes: LARGE_BYTES,
        stream_bytes: 10 * LARGE_BYTES,
        budget: Duration::from_millis(2000),
        min_runs: 5,
        max_runs: 200,
        datasets: Dataset::ALL.to_vec(),
        out: workspace_root().join("benches/results/throughput.md"),
        node: Some(
            std::env::var_os("TOON_NODE").map_or_else(|| PathBuf::from("node"), PathBuf::from),
        ),
        profiles: true,
        profile_bytes: 300_000,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value\n{USAGE}"));
        match arg.as_str() {
            "--bench" => {}
            "--peak-encode" => {
                let implementation = value("--peak-encode")?;
                let file = PathBuf::from(value("--peak-encode")?);
                return Ok(Mode::PeakEncode {
                    implementation,
                    file,
                });
            }
            "--peak-decode" => {
                let way = value("--peak-decode")?;
                let file = PathBuf::from(value("--peak-decode")?);
                return Ok(Mode::PeakDecode { way, file });
            }
            "--bytes" => options.target_bytes = number(&value("--bytes")?, "--bytes")?,
            "--stream-bytes" => {
                options.stream_bytes = number(&value("--stream-bytes")?, "--stream-bytes")?;
            }
            "--budget-ms" => {
                options.budget =
                    Duration::from_millis(number(&value("--budget-ms")?, "--budget-ms")? as u64);
            }
            "--min-runs" => options.min_runs = number(&value("--min-runs")?, "--min-runs")?.max(1),
            "--max-runs" => options.max_runs = number(&value("--max-runs")?, "--max-runs")?.max(1),
            "--datasets" => options.datasets = datasets(&value("--datasets")?)?,
            "--out" => options.out = value("--out")?.into(),
            "--no-node" => options.node = None,
            "--node" => options.node = Some(value("--node")?.into()),
            "--no-profiles" => options.profiles = false,
            "--profile-bytes" => {
                options.profile_bytes = number(&value("--profile-bytes")?, "--profile-bytes")?;
            }
            "-h" | "--help" => return Ok(Mode::Help),
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    options.max_runs = options.max_runs.max(options.min_runs);
    Ok(Mode::Report(options))
}

fn number(text: &str, name: &str) -> Result<usize, String> {
    text.replace('_', "")
        .parse()
        .map_err(|e| format!("{name}: {e}\n{USAGE}"))
}

fn datasets(list: &str) -> Result<Vec<Dataset>, String> {
    list.split(',')
        .map(|slug| {
            Dataset::ALL
                .into_iter()
                .find(|d| d.slug() == slug.trim())
                .ok_or_else(|| format!("unknown dataset {slug:?}"))
        })
        .collect()
}
