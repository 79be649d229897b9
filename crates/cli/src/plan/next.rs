//! `toon plan next`: the tasks of a plan ready to start, in schedule order
//! ([`toon_plan::next`]).

use std::path::PathBuf;
use std::process::ExitCode;

use toon_plan::exec::render::one_line;
use toon_plan::{DialectId, Format, Next};

use crate::output;

/// Arguments of `toon plan next`.
#[derive(clap::Args, Debug)]
pub struct NextArgs {
    /// The plan file.
    pub file: PathBuf,
    /// Print the answer as JSON: `ready` (id, title, status, priority, parent, wave),
    /// `finished`, `total`.
    #[arg(long)]
    pub json: bool,
    /// Dialect of the file; detected from the content (then the path) when absent.
    #[arg(long, value_name = "DIALECT", value_parser = super::dialect_parser())]
    pub from: Option<DialectId>,
    /// Format of the file (json, yaml, toon, md); from the extension when absent.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<Format>,
}

/// `toon plan next`.
pub fn run(args: &NextArgs) -> ExitCode {
    let loaded = match super::load(&args.file, args.from, args.format) {
        Ok(l) => l,
        Err(e) => {
            e.report(&args.file, args.json);
            return ExitCode::FAILURE;
        }
    };
    let next = match toon_plan::next(&loaded.plan) {
        Ok(n) => n,
        Err(e) => {
            errln!(
                "error: {}: cannot tell what is ready: {e}",
                output::input_name(Some(&args.file))
            );
            return ExitCode::FAILURE;
        }
    };
    let text = if args.json {
        match serde_json::to_string_pretty(&next) {
            Ok(s) => s + "\n",
            Err(e) => {
                errln!("error: cannot write the answer as JSON: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        describe(&next)
    };
    match output::emit(None, text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("error: cannot write stdout: {}", output::describe_io(&e));
            ExitCode::FAILURE
        }
    }
}

/// The answer for a reader: a count line, then one line per ready task.
fn describe(next: &Next) -> String {
    let mut out = format!(
        "{} of {} task{} finished; {} ready to start\n",
        next.finished,
        next.total,
        if next.total == 1 { "" } else { "s" },
        next.ready.len()
    );
    for t in &next.ready {
        let mut line = format!("  {}", t.id);
        if let Some(title) = &t.title {
            line.push_str(&format!("  {}", one_line(title, 72)));
        }
        let mut notes = Vec::new();
        if let Some(p) = &t.priority {
            notes.push(format!("priority {p}"));
        }
        if let Some(p) = &t.parent {
            notes.push(format!("subtask of {p}"));
        }
        notes.push(format!("wave {}", t.wave + 1));
        line.push_str(&format!("  ({})", notes.join(", ")));
        out.push_str(&line);
        out.push('\n');
    }
    out
}
