//! `toon plan convert`: one plan or a folder of plans to another dialect and format,
//! with the loss report, written atomically and never over an input.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use toon_plan::{ConvertOptions, DialectId, ErrorKind, Format, Problem, ReadOptions};

use serde_json::{Map, Value, json};

use super::json;
use super::{LoadError, load, report_problems};
use crate::output;

/// The format to write a single file in: `--format`, else what OUT's extension says;
/// the two must agree (the prompt form is markdown: an `.md` name fits it).
pub(crate) fn output_format(
    flag: Option<Format>,
    out: Option<&Path>,
) -> Result<Option<Format>, String> {
    let by_name = out
        .filter(|p| !p.is_dir() && *p != Path::new("-"))
        .and_then(Format::from_path);
    match (flag, by_name) {
        (Some(f), Some(e)) if f != e && f.extension() != e.extension() => Err(format!(
            "--format {f} contradicts the output file {} (a {e} file name): drop --format or rename the output",
            out.map(|p| p.display().to_string()).unwrap_or_default()
        )),
        (Some(f), _) => Ok(Some(f)),
        (None, e) => Ok(e),
    }
}

/// Whether two paths name the same file (or folder) that exists.
fn same_file(a: &Path, b: &Path) -> bool {
    output::same_file(a, b)
}

pub(crate) struct ConvertOpts {
    pub(crate) from: Option<DialectId>,
    pub(crate) input_format: Option<Format>,
    pub(crate) to: DialectId,
    pub(crate) format: Option<Format>,
    pub(crate) force: bool,
    pub(crate) quiet: bool,
    pub(crate) lean: bool,
    pub(crate) sets: Vec<toon_plan::Setting>,
    pub(crate) json: bool,
}

/// What happened to one file.
enum Outcome {
    Converted {
        losses: usize,
    },
    Invalid,
    /// The conversion would fail the target dialect's validation.
    Unfit,
    Failed,
}

/// What converting one file came to, computed before anything is printed.
enum FileResult {
    /// The file could not be read as a plan.
    Unreadable(LoadError),
    /// The source breaks its dialect's rules and is not converted (no `--force`).
    Invalid {
        from: DialectId,
        problems: Vec<Problem>,
    },
    /// The conversion failed (a `--set` value that cannot apply).
    Failed {
        from: DialectId,
        problems: Vec<Problem>,
        error: toon_plan::PlanError,
    },
    /// Converted, with the library's report.
    Converted {
        problems: Vec<Problem>,
        conversion: toon_plan::Conversion,
    },
}

/// Reads, validates and converts one file.
fn compute(path: &Path, opts: &ConvertOpts) -> FileResult {
    let loaded = match load(path, opts.from, opts.input_format) {
        Ok(l) => l,
        Err(e) => return FileResult::Unreadable(e),
    };
    let from = loaded.dialect;
    let problems = toon_plan::validate(&loaded);
    if problems.iter().any(Problem::is_error) && !opts.force {
        return FileResult::Invalid { from, problems };
    }
    let options = ConvertOptions {
        format: opts.format,
        set: opts.sets.clone(),
        lean: opts.lean,
        source_name: loaded.source_name.clone(),
    };
    match toon_plan::convert(&loaded.plan, opts.to, &options) {
        Ok(conversion) => FileResult::Converted {
            problems,
            conversion,
        },
        Err(error) => FileResult::Failed {
            from,
            problems,
            error,
        },
    }
}

/// The message of a conversion error, with the flag that gave the value when a
/// setting is at fault.
fn conversion_error(name: &str, e: &toon_plan::PlanError) -> String {
    match e.kind {
        ErrorKind::Setting => format!("{name}: --set {e}"),
        _ => format!("{name}: {e}"),
    }
}

/// The `--json` record of one file: `file`, `problems` (the source's), and the
/// library's [`toon_plan::ConversionReport`] as it serialises (`from`, `to`, `format`,
/// `losses`, `target_problems`, `settable`), or `error` when there is none.
fn record(path: &Path, opts: &ConvertOpts, result: &FileResult, out: &mut Map<String, Value>) {
    let name = output::input_name(Some(path));
    out.insert("file".into(), json!(name));
    match result {
        FileResult::Unreadable(e) => {
            out.insert("to".into(), json!(opts.to));
            e.record(out);
        }
        FileResult::Invalid { from, problems } => {
            out.insert("from".into(), json!(from));
            out.insert("to".into(), json!(opts.to));
            out.insert("problems".into(), json::value(problems));
        }
        FileResult::Failed {
            from,
            problems,
            error,
        } => {
            out.insert("from".into(), json!(from));
            out.insert("to".into(), json!(opts.to));
            out.insert("problems".into(), json::value(problems));
            out.insert("error".into(), json!(conversion_error(&name, error)));
        }
        FileResult::Converted {
            problems,
            conversion,
        } => {
            out.insert("problems".into(), json::value(problems));
            if let Value::Object(report) = json::value(&conversion.report) {
                out.extend(report);
            }
        }
    }
}

/// Prints what happened to one file on stderr: the source's problems, the loss
/// report (only its counts with `--quiet`, nothing when `quiet_ok`), the target's
/// errors with the `--set` values that would clear them.
fn render(path: &Path, opts: &ConvertOpts, quiet_ok: bool, result: &FileResult) {
    let name = output::input_name(Some(path));
    let problems = match result {
        FileResult::Unreadable(e) => {
            errln!("error: {e}");
            return;
        }
        FileResult::Invalid { problems, .. }
        | FileResult::Failed { problems, .. }
        | FileResult::Converted { problems, .. } => problems,
    };
    let errors = report_problems(path, problems);
    let conv = match result {
        FileResult::Invalid { .. } => {
            errln!(
                "error: {name}: not converted: {errors} error(s) (use --force to convert anyway)"
            );
            return;
        }
        FileResult::Failed { error, .. } => {
            errln!("error: {}", conversion_error(&name, error));
            return;
        }
        FileResult::Converted { conversion, .. } => conversion,
        FileResult::Unreadable(_) => return,
    };
    let report = &conv.report;
    let n = report.dropped().count();
    let filled = report.losses.len() - n;
    if n + filled > 0 {
        if opts.quiet {
            if !quiet_ok {
                errln!(
                    "{name}: {n} field(s) not carried over to {}, {filled} filled in",
                    opts.to
                );
            }
        } else {
            let from = report.from.map_or("plan".to_owned(), |d| d.to_string());
            errln!(
                "{name}: {from} → {}: {n} field(s) not carried over, {filled} filled in:",
                opts.to
            );
            for l in &report.losses {
                errln!("  {l}");
            }
        }
    }
    let target_errors = report.target_errors();
    if target_errors > 0 {
        let verdict = if opts.force {
            "written anyway (--force)"
        } else {
            "not converted (use --force to write it anyway)"
        };
        // Values a setting can give, or values the plan holds that the target rejects.
        let why = match report.unsettable_errors() {
            0 => "it needs values the source does not give",
            n if n == target_errors => "it does not accept what the source holds",
            _ => "it needs values the source does not give, and does not accept some it holds",
        };
        errln!(
            "{name}: {verdict}: as {} it fails {}'s own validation with {target_errors} error(s) \
             ({why}):",
            opts.to,
            opts.to
        );
        for p in report.target_problems.iter().filter(|p| p.is_error()) {
            // A line is one of the text written, not of the source.
            let at = match &p.location {
                toon_plan::Location::Line(n) => {
                    format!("line {n} of the {} {} written", opts.to, report.format)
                }
                other => other.to_string(),
            };
            errln!("  {at}: {} [{}]", p.message, p.rule);
        }
        if !report.settable.is_empty() {
            let hint: Vec<String> = report
                .settable
                .iter()
                .map(|f| format!("--set {f}=VALUE"))
                .collect();
            errln!(
                "  the plan has no value for these; give one with {} (or TASK.FIELD=VALUE for one task)",
                hint.join(" ")
            );
        }
    }
}

/// Converts one file; prints what happened on stderr ([`render`]), and puts the same
/// facts in `out` (for `--json`, [`record`]).
fn convert_one(
    path: &Path,
    opts: &ConvertOpts,
    quiet_ok: bool,
    out: &mut Map<String, Value>,
) -> Result<(toon_plan::Conversion, Outcome), Outcome> {
    let result = compute(path, opts);
    render(path, opts, quiet_ok, &result);
    record(path, opts, &result, out);
    match result {
        FileResult::Unreadable(_) | FileResult::Failed { .. } => Err(Outcome::Failed),
        FileResult::Invalid { .. } => Err(Outcome::Invalid),
        FileResult::Converted {
            problems,
            conversion,
        } => {
            let target_errors = conversion.report.target_errors();
            if target_errors > 0 && !opts.force {
                return Err(Outcome::Unfit);
            }
            let outcome = if target_errors > 0 || problems.iter().any(Problem::is_error) {
                Outcome::Invalid
            } else {
                Outcome::Converted {
                    losses: conversion.report.dropped().count(),
                }
            };
            Ok((conversion, outcome))
        }
    }
}

pub(crate) fn convert_file(input: &Path, out: Option<&Path>, opts: &ConvertOpts) -> ExitCode {
    let mut record = Map::new();
    let code = convert_file_recording(input, out, opts, &mut record);
    if opts.json {
        record.insert("ok".into(), json!(code == ExitCode::SUCCESS));
        if let Err(e) = json::print(&Value::Object(record)) {
            errln!("error: cannot write stdout: {}", output::describe_io(&e));
            return ExitCode::FAILURE;
        }
    }
    code
}

fn convert_file_recording(
    input: &Path,
    out: Option<&Path>,
    opts: &ConvertOpts,
    record: &mut Map<String, Value>,
) -> ExitCode {
    record.insert("written".into(), json!(false));
    match convert_one(input, opts, false, record) {
        Ok((conv, outcome)) => {
            // An existing folder as OUT: the file goes inside, named after the input.
            let in_dir = out.filter(|p| p.is_dir()).map(|d| {
                d.join(toon_plan::folder::output_name(
                    input,
                    opts.to,
                    conv.report.format,
                ))
            });
            let out = in_dir.as_deref().or(out);
            if let Some(o) = out.filter(|o| same_file(o, input)) {
                errln!(
                    "error: {}: is the input: refusing to write over it (name another output file)",
                    o.display()
                );
                return ExitCode::FAILURE;
            }
            if opts.json && out.is_none() {
                record.insert("text".into(), json!(conv.text));
            } else if let Err(e) = output::emit(out, conv.text.as_bytes()) {
                let target = out.map_or("stdout".to_owned(), |p| p.display().to_string());
                errln!("error: cannot write {target}: {}", output::describe_io(&e));
                return ExitCode::FAILURE;
            } else {
                record.insert("written".into(), json!(true));
                record.insert("output".into(), json!(out.map(|p| p.display().to_string())));
            }
            match outcome {
                Outcome::Converted { .. } => ExitCode::SUCCESS,
                _ => ExitCode::FAILURE,
            }
        }
        Err(_) => ExitCode::FAILURE,
    }
}

struct Progress {
    total: usize,
    shown: bool,
}

impl Progress {
    fn new(total: usize) -> Self {
        Progress {
            total,
            shown: total >= 5 && std::io::stderr().is_terminal(),
        }
    }

    fn tick(&self, done: usize, name: &str) {
        if !self.shown {
            return;
        }
        let width = 30;
        let filled = done * width / self.total.max(1);
        let bar: String = "=".repeat(filled) + &" ".repeat(width - filled);
        let name: String = name.chars().take(40).collect();
        errout!("\r\x1b[2K[{bar}] {done}/{} {name}", self.total);
        let _ = std::io::stderr().flush();
    }

    /// Clears the bar before other output.
    fn clear(&self) {
        if self.shown {
            errout!("\r\x1b[2K");
        }
    }
}

pub(crate) fn convert_folder(input: &Path, out: Option<&Path>, opts: &ConvertOpts) -> ExitCode {
    let Some(out_dir) = out else {
        errln!(
            "error: {} is a folder: name an output folder with -o",
            input.display()
        );
        return ExitCode::FAILURE;
    };
    let read = ReadOptions {
        dialect: opts.from,
        format: opts.input_format,
        file_name: None,
    };
    let work = match toon_plan::folder::plan(input, out_dir, opts.to, opts.format, &read) {
        Ok(work) => work,
        Err(e) => {
            // A new output named like a file: the user may have meant that format.
            let hint = match Format::from_path(out_dir) {
                Some(named) if !out_dir.exists() => {
                    format!(": give a folder name (with --format {named} for {named} files)")
                }
                _ => String::new(),
            };
            errln!("error: {}{hint}", e.message);
            return ExitCode::FAILURE;
        }
    };
    let format = work.format;
    let (files, targets): (Vec<PathBuf>, Vec<PathBuf>) = work
        .entries
        .iter()
        .map(|e| (e.source.clone(), e.target.clone()))
        .unzip();
    let foreign: BTreeMap<&Path, (DialectId, DialectId)> = work
        .entries
        .iter()
        .filter_map(|e| Some((e.source.as_path(), (e.foreign_dialect?, work.dialect?))))
        .collect();
    let inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let progress = Progress::new(files.len());
    let mut records = Vec::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut with_losses = 0usize;
    let mut total_losses = 0usize;
    for (i, (path, target)) in files.iter().zip(&targets).enumerate() {
        progress.tick(i, &output::input_name(Some(path)));
        progress.clear();
        if let Some((dialect, folder)) = foreign.get(path.as_path()) {
            errln!(
                "error: {}: a {dialect} plan among {folder} plans: not converted (convert it on its own, or choose with --from)",
                output::input_name(Some(path))
            );
            records.push(json!({
                "file": output::input_name(Some(path)),
                "from": dialect.name(),
                "to": opts.to.name(),
                "outcome": "of another dialect",
                "ok": false,
                "written": false,
            }));
            *counts.entry("of another dialect").or_insert(0) += 1;
            continue;
        }
        let mut record = Map::new();
        let result = convert_one(path, opts, false, &mut record);
        let key = match result {
            Ok((conv, outcome)) => {
                let dropped = conv.report.dropped().count();
                let written = target
                    .parent()
                    .map_or(Ok(()), std::fs::create_dir_all)
                    .and_then(|()| output::Destination::resolve(target, &inputs))
                    .and_then(|destination| destination.write_bytes(conv.text.as_bytes()));
                match (written, outcome) {
                    (Err(e), _) => {
                        errln!(
                            "error: cannot write {}: {}",
                            target.display(),
                            output::describe_io(&e)
                        );
                        "failed"
                    }
                    (Ok(()), Outcome::Converted { losses }) => {
                        if losses > 0 {
                            with_losses += 1;
                            total_losses += losses;
                        }
                        // A name the dialect made up says nothing of its source.
                        if opts.to.dialect().new_file_name(format).is_some() {
                            errln!("{} → {}", output::input_name(Some(path)), target.display());
                        }
                        "converted"
                    }
                    (Ok(()), _) => {
                        if dropped > 0 {
                            with_losses += 1;
                            total_losses += dropped;
                        }
                        FORCED
                    }
                }
            }
            Err(Outcome::Invalid) => "invalid",
            Err(Outcome::Unfit) => "not valid as the target (see above; --force writes them)",
            Err(_) => "failed",
        };
        record.insert("outcome".into(), json!(key));
        record.insert("ok".into(), json!(key == "converted"));
        let written = key.starts_with("converted");
        record.insert("written".into(), json!(written));
        if written {
            record.insert("output".into(), json!(target.display().to_string()));
        }
        records.push(Value::Object(record));
        *counts.entry(key).or_insert(0) += 1;
    }
    progress.tick(files.len(), "");
    progress.clear();
    let converted = counts.get("converted").copied().unwrap_or(0);
    // Files written despite errors (--force) are converted too: counted once, and
    // said how many of them there are.
    let forced = counts.get(FORCED).copied().unwrap_or(0);
    let mut summary = format!(
        "{} of {} plans converted to {} {format} in {}",
        converted + forced,
        files.len(),
        opts.to,
        out_dir.display()
    );
    if forced > 0 {
        summary.push_str(&format!(" ({forced} despite errors)"));
    }
    if with_losses > 0 {
        summary.push_str(&format!(
            "; {with_losses} with losses ({total_losses} fields)"
        ));
    } else {
        summary.push_str("; nothing lost");
    }
    for (k, n) in &counts {
        if *k != "converted" && *k != FORCED {
            summary.push_str(&format!("; {n} {k}"));
        }
    }
    errln!("{summary}");
    if opts.json
        && let Err(e) = json::print(&Value::Array(records))
    {
        errln!("error: cannot write stdout: {}", output::describe_io(&e));
        return ExitCode::FAILURE;
    }
    if converted == files.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The outcome of a file written despite errors (`--force`).
const FORCED: &str = "converted despite errors";
