//! `toon stats` and `toon --stats`. PLACEHOLDER — being written.

use std::process::ExitCode;

/// Arguments of `toon stats`.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// A JSON or TOON file (`-` or absent for stdin).
    pub input: Option<std::path::PathBuf>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `toon stats`, printing its own errors to stderr.
pub fn run(args: StatsArgs) -> ExitCode {
    let _ = args;
    ExitCode::FAILURE
}

/// Prints the `--stats` summary of an encode to stderr: `json_text` is the input
/// JSON as given, `toon_text` the encoded output.
pub fn print_encode_stats(json_text: &str, toon_text: &str) {
    let _ = (json_text, toon_text);
}
