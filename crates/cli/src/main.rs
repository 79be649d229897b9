//! `toon`: encode JSON to TOON, decode TOON to JSON, convert plans, count tokens.
//!
//! A drop-in for the reference CLI (`@toon-format/cli`), with two differences: output is
//! never partial (files are written atomically, stdout only after success), and errors
//! show the line, column and a caret.

/// `eprintln!` that ignores a closed or failing stderr (`toon … 2>&1 | head -1`): a
/// diagnostic that cannot be shown is dropped; the exit code still tells.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that ignores a closed or failing stderr, like [`errln!`].
macro_rules! errout {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// `println!` that ignores a closed or failing stdout, like [`errln!`].
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod args;
mod codec_cmd;
mod failure;
#[cfg(feature = "mcp")]
mod mcp;
mod output;
mod plan;
mod stats_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Token-Oriented Object Notation: encode, decode, convert plans, count tokens.
#[derive(Parser, Debug)]
#[command(
    name = "toon",
    version,
    about,
    disable_version_flag = true,
    args_conflicts_with_subcommands = true,
    args_override_self = true,
    override_usage = args::USAGE,
    after_help = "Examples:\n  toon data.json              encode JSON to TOON on stdout\n  toon data.toon -o data.json decode TOON to JSON, written atomically\n  cat x.json | toon --stats   encode stdin, exact token counts on stderr\n  toon stats data.json        bytes and tokens in every format\n  toon plan convert .cursor/plans --to plan --format toon -o out/"
)]
struct Cli {
    /// Print the version (`-v` as in the reference CLI, or `-V`).
    #[arg(short = 'v', long, visible_short_alias = 'V', action = clap::ArgAction::Version)]
    version: (),
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    codec: codec_cmd::CodecArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Read, validate and convert agent plans (Cursor, PlanDAG, workflow, …).
    Plan {
        #[command(subcommand)]
        command: plan::PlanCommand,
    },
    /// Bytes and exact o200k_base token counts of JSON, YAML, CSV and TOON forms.
    Stats(stats_cmd::StatsArgs),
    /// Serve the codec and the plan tools over the Model Context Protocol (stdio).
    #[cfg(feature = "mcp")]
    Mcp,
}

fn main() -> ExitCode {
    let argv = args::reference_spelling(std::env::args_os().collect(), |argv| {
        Cli::try_parse_from(argv).is_ok_and(|cli| cli.command.is_none())
    });
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => return args::report(e),
    };
    match cli.command {
        Some(Command::Plan { command }) => plan::run(command),
        Some(Command::Stats(args)) => stats_cmd::run(args),
        #[cfg(feature = "mcp")]
        Some(Command::Mcp) => mcp::run(),
        None => codec_cmd::run(cli.codec),
    }
}
