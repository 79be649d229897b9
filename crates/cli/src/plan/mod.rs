//! `toon plan …`: validate, convert and show agent plans in any dialect. The
//! subcommands and loading live here; converting files and folders in [`convert`],
//! schedules, graphs and schemas in [`exec`], token statistics in [`stats`], and the
//! machine-readable (`--json`) records in [`json`].

mod agents;
mod convert;
mod exec;
mod json;
mod next;
mod stats;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use toon_plan::exec::render::one_line;
use toon_plan::{DialectId, ErrorKind, Format, Loaded, ReadOptions, Severity};

use crate::output;
use convert::{ConvertOpts, convert_file, convert_folder, output_format};

/// Parses a dialect name; the help lists every registered dialect
/// ([`DialectId::all`]), so a new dialect appears there by itself.
pub(crate) fn dialect_parser() -> impl clap::builder::TypedValueParser<Value = DialectId> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(DialectId::all().map(|d| PossibleValue::new(d.name())))
        .try_map(|name| name.parse::<DialectId>())
}

/// The plan subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum PlanCommand {
    /// Validate plan files: every problem, with its line or path. Exit 1 on any error.
    Validate {
        /// Files to validate.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Dialect of the files; detected from the content when absent.
        #[arg(long, value_name = "DIALECT", value_parser = dialect_parser())]
        from: Option<DialectId>,
        /// Format of the files (json, yaml, toon, md); from the extension when absent.
        #[arg(long, value_name = "FORMAT")]
        format: Option<Format>,
        /// Print the results as JSON on stdout: one object per file with its dialect,
        /// format, task count, validity and problems.
        #[arg(long)]
        json: bool,
        /// Each file is a model's answer: take the plan from a fenced block or from the
        /// prose around it, read it leniently (a miscounted `[N]` is a warning), then
        /// validate it as the dialect of --from.
        #[arg(long)]
        model_output: bool,
    },
    /// Convert a plan, or every plan in a folder, to another dialect, with a report of
    /// every field the target cannot hold.
    Convert {
        /// A plan file, or a folder of plans (e.g. `.cursor/plans/`).
        input: PathBuf,
        /// Dialect of the input; detected from the content when absent.
        #[arg(long, value_name = "DIALECT", value_parser = dialect_parser())]
        from: Option<DialectId>,
        /// Format of the input (json, yaml, toon, md); from the extension, else the
        /// content, when absent.
        #[arg(long, value_name = "FORMAT")]
        input_format: Option<Format>,
        /// Dialect to write.
        #[arg(long, value_name = "DIALECT", value_parser = dialect_parser())]
        to: DialectId,
        /// Format to write (json, yaml, toon, md); from OUT's extension, else the
        /// target's natural one, when absent. A format that contradicts OUT's extension
        /// is an error.
        #[arg(long, value_name = "FORMAT")]
        format: Option<Format>,
        /// Output file (a folder when INPUT is one); stdout when absent. Written
        /// atomically, never over an input.
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Convert invalid plans too, and write conversions that fail the target
        /// dialect's validation (e.g. a Cursor plan as a tool DAG has no `tool`); the
        /// problems are still printed and the exit status is 1.
        #[arg(long)]
        force: bool,
        /// Do not print loss reports, only their counts.
        #[arg(short, long)]
        quiet: bool,
        /// Leave the markdown body out (and the layout kept to write the source back
        /// byte for byte): the plan as a prompt needs it, title, goal and tasks.
        #[arg(long)]
        lean: bool,
        /// A value the target needs and the plan cannot give: `FIELD=VALUE` for every
        /// task without a valid one, `TASK.FIELD=VALUE` for one task (e.g. `--set
        /// tool=web_search`, `--set open.action=navigate`). Repeatable.
        #[arg(long = "set", value_name = "FIELD=VALUE")]
        sets: Vec<toon_plan::Setting>,
        /// Print a JSON report on stdout: per file its dialects, problems, loss report
        /// (dropped, changed, derived, defaulted, set) and where the text went (or the
        /// text itself when there is no -o).
        #[arg(long)]
        json: bool,
        /// INPUT is a model's answer (`-`: stdin): read its plan as `validate
        /// --model-output` does (dialect from --from), then convert it.
        #[arg(long, conflicts_with_all = ["json", "lean"])]
        model_output: bool,
    },
    /// Print a short summary of a plan: tasks, statuses, edges.
    Show {
        /// The plan file.
        file: PathBuf,
        /// Dialect of the file; detected when absent.
        #[arg(long, value_name = "DIALECT", value_parser = dialect_parser())]
        from: Option<DialectId>,
        /// Format of the file; from the extension when absent.
        #[arg(long, value_name = "FORMAT")]
        format: Option<Format>,
        /// Print the summary as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Bytes and exact o200k_base tokens of a plan: its source, its dialect as JSON and
    /// as TOON, and the plan model as TOON.
    Stats(stats::PlanStatsArgs),
    /// Waves, stages, critical path and makespan of a plan; with --events, a dry run's
    /// events as JSON lines.
    Schedule(exec::ScheduleArgs),
    /// The tasks ready to start: not started, every task they wait for finished (done
    /// or completed), in schedule order.
    Next(next::NextArgs),
    /// Draw a plan's graph with its waves: Mermaid, Graphviz DOT or terminal text.
    Graph(exec::GraphArgs),
    /// Print the JSON Schema of a dialect (for structured output from a model).
    Schema(exec::SchemaArgs),
    /// Print a prompt block that teaches a model to write a plan of a dialect as TOON
    /// (fields, closed values, rules, a valid example); its tokens on stderr.
    Instructions(agents::InstructionsArgs),
}

/// Runs a plan subcommand, printing its own errors to stderr.
pub fn run(cmd: PlanCommand) -> ExitCode {
    match cmd {
        PlanCommand::Validate {
            files,
            from,
            json,
            model_output: true,
            ..
        } => agents::validate(&files, from, json),
        PlanCommand::Validate {
            files,
            from,
            format,
            json,
            ..
        } => validate(&files, from, format, json),
        PlanCommand::Convert {
            input,
            from,
            to,
            format,
            output,
            force,
            sets,
            model_output: true,
            ..
        } => agents::convert(&agents::ConvertAnswer {
            input: &input,
            from,
            to,
            format,
            output: output.as_deref(),
            force,
            sets: &sets,
        }),
        PlanCommand::Convert {
            input,
            from,
            input_format,
            to,
            format,
            output,
            force,
            quiet,
            lean,
            sets,
            json,
            ..
        } => {
            let format = if input.is_dir() {
                Ok(format)
            } else {
                output_format(format, output.as_deref())
            };
            let format = match format {
                Ok(f) => f,
                Err(e) => {
                    errln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let opts = ConvertOpts {
                from,
                input_format,
                to,
                format,
                force,
                quiet,
                lean,
                sets,
                json,
            };
            if input.is_dir() {
                convert_folder(&input, output.as_deref(), &opts)
            } else {
                convert_file(&input, output.as_deref(), &opts)
            }
        }
        PlanCommand::Show {
            file,
            from,
            format,
            json,
        } => show(&file, from, format, json),
        PlanCommand::Stats(args) => stats::run(&args),
        PlanCommand::Schedule(args) => exec::schedule(args),
        PlanCommand::Next(args) => next::run(&args),
        PlanCommand::Graph(args) => exec::graph(args),
        PlanCommand::Schema(args) => exec::schema(args),
        PlanCommand::Instructions(args) => agents::instructions(&args),
    }
}

pub(crate) fn load(
    path: &Path,
    from: Option<DialectId>,
    format: Option<Format>,
) -> Result<Loaded, LoadError> {
    load_with_text(path, from, format).map(|(_, loaded)| loaded)
}

/// A plan file that could not be read: the library's error, and the message printed
/// (naming the file, with the command line's hint where one helps).
#[derive(Debug)]
pub(crate) struct LoadError {
    message: String,
    /// The first line of the message without the file's name (the `--json` problem's).
    detail: String,
    error: toon_plan::PlanError,
}

impl LoadError {
    /// The error `e` of the input at `path` (`-`: stdin).
    fn new(path: &Path, e: toon_plan::PlanError) -> Self {
        let name = output::input_name(Some(path));
        let what = output::input_kind(Some(path));
        let hint = match e.kind {
            ErrorKind::UnknownDialect => " (with --from)",
            _ => "",
        };
        let detail = match e.kind {
            // The library reads text: here the text is a file's (or stdin's).
            ErrorKind::Empty => format!("the {what} is empty: there is no plan in it"),
            _ => e.message.lines().next().unwrap_or_default().to_owned(),
        };
        let message = match e.kind {
            // The library's message of an unreadable file names it already.
            ErrorKind::Unreadable => format!("{e}{hint}"),
            ErrorKind::Empty => format!("{name}: {detail}"),
            _ => format!("{name}: {e}{hint}"),
        };
        LoadError {
            message,
            detail,
            error: e,
        }
    }

    /// The error as a `--json` problem: `severity`, `rule` (`read` for a file that
    /// cannot be read, `empty` for an empty one, `syntax` for one that does not parse
    /// as a plan), `line` and `column` where the parser gives them, and the first line
    /// of the message.
    fn problem(&self) -> serde_json::Value {
        let e = &self.error;
        let rule = match e.kind {
            ErrorKind::Unreadable => "read",
            ErrorKind::Empty => "empty",
            _ => "syntax",
        };
        let mut problem =
            serde_json::json!({"severity": "error", "rule": rule, "message": self.detail});
        if let toon_plan::Location::Line(n) = e.location {
            problem["line"] = n.into();
        }
        if let Some(c) = e.column {
            problem["column"] = c.into();
        }
        problem
    }

    /// Prints the error on stderr and, for `--json`, a record of it on stdout: `file`,
    /// `valid: false`, `error` and `problems`.
    pub(crate) fn report(&self, path: &Path, json: bool) {
        errln!("error: {self}");
        if json && let Err(e) = json::print(&self.file_record(path)) {
            errln!("error: cannot write stdout: {}", output::describe_io(&e));
        }
    }

    /// The `--json` record of the file at `path`: `file`, `valid: false`, `error` and
    /// `problems`.
    fn file_record(&self, path: &Path) -> serde_json::Value {
        let mut record = serde_json::Map::new();
        record.insert("file".into(), output::input_name(Some(path)).into());
        record.insert("valid".into(), false.into());
        self.record(&mut record);
        record.into()
    }

    /// Adds the error to a `--json` record: `error` (the message as printed) and
    /// `problems` (the one problem, located).
    pub(crate) fn record(&self, record: &mut serde_json::Map<String, serde_json::Value>) {
        record.insert("error".into(), self.message.clone().into());
        record.insert("problems".into(), serde_json::json!([self.problem()]));
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<LoadError> for String {
    fn from(e: LoadError) -> String {
        e.message
    }
}

/// Reads a plan file: its text and the loaded plan; errors name the file.
pub(crate) fn load_with_text(
    path: &Path,
    from: Option<DialectId>,
    format: Option<Format>,
) -> Result<(String, Loaded), LoadError> {
    let name = output::input_name(Some(path));
    let unreadable = |message: String| {
        LoadError::new(
            path,
            toon_plan::PlanError::new(ErrorKind::Unreadable, message),
        )
    };
    let bytes = output::read_input(Some(path)).map_err(|e| unreadable(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        unreadable(format!("{name}: not UTF-8 text (byte {at})"))
    })?;
    let options = ReadOptions {
        dialect: from,
        format,
        file_name: Some(path.to_path_buf()),
    };
    let loaded = toon_plan::read(&text, &options).map_err(|e| LoadError::new(path, e))?;
    Ok((text, loaded))
}

/// Prints the problems of a plan file; returns how many are errors.
pub(crate) fn report_problems(path: &Path, problems: &[toon_plan::Problem]) -> usize {
    let mut err = std::io::stderr().lock();
    let mut errors = 0;
    for p in problems {
        if p.severity == Severity::Error {
            errors += 1;
        }
        let _ = writeln!(err, "{}: {p}", output::input_name(Some(path)));
    }
    errors
}

fn validate(
    files: &[PathBuf],
    from: Option<DialectId>,
    format: Option<Format>,
    json: bool,
) -> ExitCode {
    let mut failed = 0usize;
    let mut records = Vec::new();
    for path in files {
        match load(path, from, format) {
            Ok(loaded) => {
                let errors = if json {
                    let problems = toon_plan::validate(&loaded);
                    let errors = problems.iter().filter(|p| p.is_error()).count();
                    records.push(serde_json::json!({
                        "file": output::input_name(Some(path)),
                        "dialect": loaded.dialect.name(),
                        "format": loaded.format.name(),
                        "tasks": loaded.plan.tasks.len(),
                        "valid": errors == 0,
                        "problems": json::value(&problems),
                    }));
                    errors
                } else {
                    report_problems(path, &toon_plan::validate(&loaded))
                };
                if errors > 0 {
                    failed += 1;
                } else if !json {
                    outln!(
                        "{}: ok ({} {}, {} tasks)",
                        output::input_name(Some(path)),
                        loaded.dialect,
                        loaded.format,
                        loaded.plan.tasks.len()
                    );
                }
            }
            Err(e) => {
                if json {
                    records.push(e.file_record(path));
                } else {
                    errln!("error: {e}");
                }
                failed += 1;
            }
        }
    }
    if json && let Err(e) = json::print(&serde_json::Value::Array(records)) {
        errln!("error: cannot write stdout: {}", output::describe_io(&e));
        return ExitCode::FAILURE;
    }
    if failed > 0 {
        if files.len() > 1 && !json {
            errln!("{failed} of {} files invalid", files.len());
        }
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn show(path: &Path, from: Option<DialectId>, format: Option<Format>, json: bool) -> ExitCode {
    let loaded = match load(path, from, format) {
        Ok(l) => l,
        Err(e) => {
            e.report(path, json);
            return ExitCode::FAILURE;
        }
    };
    let plan = &loaded.plan;
    let problems = toon_plan::validate(&loaded);
    let errors = problems.iter().filter(|p| p.is_error()).count();
    if json {
        let tasks: Vec<serde_json::Value> = plan
            .tasks
            .iter()
            .map(|t| {
                serde_json::json!({
                    "id": t.id,
                    "title": t.title.as_ref().or(t.description.as_ref()),
                    "status": t.status,
                    "group": t.group,
                    "dependencies": t.dependencies.clone().unwrap_or_default(),
                })
            })
            .collect();
        let summary = serde_json::json!({
            "file": output::input_name(Some(path)),
            "dialect": loaded.dialect.name(),
            "format": loaded.format.name(),
            "title": plan.title.as_ref().or(plan.id.as_ref()),
            "goal": plan.goal,
            "tasks": tasks,
            "edges": plan.edges().len(),
            "groups": plan.groups.len(),
            "valid": errors == 0,
            "problems": json::value(&problems),
        });
        if let Err(e) = json::print(&summary) {
            errln!("error: cannot write stdout: {}", output::describe_io(&e));
            return ExitCode::FAILURE;
        }
        return if errors > 0 {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        };
    }
    let mut out = String::new();
    let title = plan
        .title
        .clone()
        .or_else(|| plan.id.clone())
        .or_else(|| {
            plan.body.as_deref().and_then(|b| {
                b.lines()
                    .find_map(|l| l.strip_prefix("# ").map(|t| t.trim().to_owned()))
            })
        })
        .unwrap_or_else(|| "(untitled)".into());
    out.push_str(&format!("{title}\n"));
    out.push_str(&format!(
        "  {} plan ({}), {} tasks, {} edges",
        loaded.dialect,
        loaded.format,
        plan.tasks.len(),
        plan.edges().len()
    ));
    if !plan.groups.is_empty() {
        out.push_str(&format!(", {} groups", plan.groups.len()));
    }
    out.push('\n');
    if let Some(g) = &plan.goal {
        out.push_str(&format!("  goal: {}\n", one_line(g, 100)));
    }
    let mut statuses: BTreeMap<&str, usize> = BTreeMap::new();
    for t in &plan.tasks {
        if let Some(s) = &t.status {
            *statuses.entry(s.as_str()).or_insert(0) += 1;
        }
    }
    if !statuses.is_empty() {
        let parts: Vec<String> = statuses.iter().map(|(s, n)| format!("{s} {n}")).collect();
        out.push_str(&format!("  status: {}\n", parts.join(", ")));
    }
    if let Some(b) = &plan.body {
        out.push_str(&format!("  body: {} characters\n", b.chars().count()));
    }
    out.push_str(&format!(
        "  validation: {} error(s), {} warning(s)\n",
        errors,
        problems.len() - errors
    ));
    for t in &plan.tasks {
        let status = t
            .status
            .as_deref()
            .map(|s| format!("[{s}] "))
            .unwrap_or_default();
        let what = t
            .title
            .as_deref()
            .or(t.description.as_deref())
            .or(t.action.as_deref())
            .unwrap_or("");
        let mut line = format!("  - {} {status}{}", t.id, one_line(what, 70));
        if let Some(g) = &t.group {
            line.push_str(&format!(" (in {g})"));
        }
        if let Some(d) = t.dependencies.as_ref().filter(|d| !d.is_empty()) {
            line.push_str(&format!(" ← {}", d.join(", ")));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if let Err(e) = output::emit(None, out.as_bytes()) {
        errln!("error: cannot write stdout: {}", output::describe_io(&e));
        return ExitCode::FAILURE;
    }
    // Warnings (an unknown status kept as written) are told; only errors fail.
    report_problems(path, &problems);
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests;
