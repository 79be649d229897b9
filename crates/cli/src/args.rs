//! The command line as the reference CLI (`@toon-format/cli`) takes it, rewritten into
//! the spelling clap parses, and clap's usage errors reported as the reference reports
//! them (exit status 1).
//!
//! - `--no-strict`, `--no-stats`, … become `--strict=false`, `--stats=false` (the
//!   reference accepts a `--no-` form of every switch);
//! - a first argument naming both a subcommand and an existing file (`toon stats`, with
//!   a file called `stats` here) converts that file when nothing but codec options
//!   follows, as the reference would; anything else keeps the subcommand.

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The codec's switches, each also written `--no-NAME`.
const SWITCHES: [&str; 6] = ["encode", "decode", "strict", "stats", "jsonl", "verbose"];

/// Words that name a subcommand in first position.
const SUBCOMMANDS: [&str; 3] = ["plan", "stats", "help"];

/// The usage lines every usage error ends with.
pub const USAGE: &str =
    "toon [INPUT] [-o FILE] [-e|-d] [--delimiter ,|tab|'|'] [--indent N] [--no-strict] [--stats] …
       toon stats [INPUT] [--json]
       toon plan validate|convert|show|stats|schedule|graph|schema …";

/// Rewrites `args` (the program name first) into clap's spelling; `parses` tells
/// whether a rewritten command line parses as a codec invocation.
pub fn reference_spelling(
    args: Vec<OsString>,
    parses: impl Fn(&[OsString]) -> bool,
) -> Vec<OsString> {
    let first = args.get(1).and_then(|a| a.to_str()).unwrap_or("");
    if SUBCOMMANDS.contains(&first) {
        if !Path::new(first).is_file() {
            return args;
        }
        let mut as_file = args.clone();
        as_file[1] = Path::new(".").join(first).into_os_string();
        let as_file = codec_spelling(as_file);
        return if parses(&as_file) { as_file } else { args };
    }
    codec_spelling(args)
}

/// `--no-NAME` → `--NAME=false` for the codec's switches.
fn codec_spelling(args: Vec<OsString>) -> Vec<OsString> {
    args.into_iter()
        .map(|arg| {
            let negated = arg
                .to_str()
                .and_then(|a| a.strip_prefix("--no-"))
                .filter(|name| SWITCHES.contains(name));
            match negated {
                Some(name) => OsString::from(format!("--{name}=false")),
                None => arg,
            }
        })
        .collect()
}

/// Reports a clap error: help and version go to stdout with status 0; a usage error
/// goes to stderr with status 1, as in the reference CLI.
pub fn report(e: clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::ArgumentConflict if second_input(&e).is_some() => {
            let extra = second_input(&e).unwrap_or_default();
            errln!(
                "error: unexpected argument '{extra}': toon converts one input at a time\n\nUsage: {USAGE}\n\nFor more information, try '--help'."
            );
            ExitCode::FAILURE
        }
        _ => {
            let _ = e.print();
            ExitCode::FAILURE
        }
    }
}

/// The second input clap took for a subcommand name (`toon a.json b.json`).
fn second_input(e: &clap::Error) -> Option<String> {
    match e.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    }
}
