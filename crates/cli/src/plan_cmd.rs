//! `toon plan …` subcommands. PLACEHOLDER — being written.

use std::process::ExitCode;

/// The plan subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum PlanCommand {
    /// Validate plan files.
    Validate {
        /// Files to validate.
        files: Vec<std::path::PathBuf>,
    },
}

/// Runs a plan subcommand, printing its own errors to stderr.
pub fn run(cmd: PlanCommand) -> ExitCode {
    let _ = cmd;
    ExitCode::FAILURE
}
