//! `toon plan schedule|graph|schema`: the execution view of a plan — its waves and
//! critical path, a dry run's events, pictures of its graph, and JSON Schemas.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use toon_plan::exec::render::seconds as ms;
use toon_plan::exec::{self, DryRunOptions, Outcome, Schedule};
use toon_plan::{DialectId, Format, Loaded};

use crate::output;

/// Picture formats of `toon plan graph`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GraphFormat {
    /// Mermaid flowchart.
    Mermaid,
    /// Graphviz DOT.
    Dot,
    /// Terminal drawing.
    Text,
}

/// Arguments of `toon plan schedule`.
#[derive(clap::Args, Debug)]
pub struct ScheduleArgs {
    /// The plan file.
    pub file: PathBuf,
    /// Global concurrency cap of the dry run (seed 003's default is 5).
    #[arg(long, value_name = "N", default_value_t = exec::DEFAULT_CAP)]
    pub cap: usize,
    /// Print a dry run's events (seed 003 §7) as JSON lines instead of the schedule.
    #[arg(long)]
    pub events: bool,
    /// In the dry run, this step fails (repeatable); its dependents are skipped.
    #[arg(long, value_name = "STEP")]
    pub fail: Vec<String>,
    /// Per-tool cap for the dry run, e.g. `--tool-cap serper_web_search=1` (repeatable).
    #[arg(long, value_name = "TOOL=N", value_parser = parse_tool_cap)]
    pub tool_cap: Vec<(String, usize)>,
    /// Print the schedule as JSON.
    #[arg(long, conflicts_with = "events")]
    pub json: bool,
    /// Dialect of the file; detected from the content when absent.
    #[arg(long, value_name = "DIALECT", value_parser = super::dialect_parser())]
    pub from: Option<DialectId>,
    /// Format of the file (json, yaml, toon, md); from the extension when absent.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<Format>,
}

/// Arguments of `toon plan graph`.
#[derive(clap::Args, Debug)]
pub struct GraphArgs {
    /// The plan file.
    pub file: PathBuf,
    /// Picture format.
    #[arg(long, value_enum, default_value_t = GraphFormat::Text)]
    pub format: GraphFormat,
    /// Dialect of the file; detected from the content when absent.
    #[arg(long, value_name = "DIALECT", value_parser = super::dialect_parser())]
    pub from: Option<DialectId>,
    /// Format of the file (json, yaml, toon, md); from the extension when absent.
    #[arg(long, value_name = "FORMAT")]
    pub input_format: Option<Format>,
}

/// Arguments of `toon plan schema`.
#[derive(clap::Args, Debug)]
pub struct SchemaArgs {
    /// The dialect.
    #[arg(value_parser = super::dialect_parser())]
    pub dialect: DialectId,
}

fn parse_tool_cap(s: &str) -> Result<(String, usize), String> {
    let (tool, n) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("expected TOOL=N, got {s:?}"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("the cap in {s:?} is not a whole number"))?;
    if tool.trim().is_empty() {
        return Err(format!("no tool named in {s:?}"));
    }
    Ok((tool.trim().to_owned(), n))
}

/// Loads and schedules a plan; prints validation problems to stderr (errors make the
/// exit status 1 but do not stop the view while a schedule exists; warnings, such as
/// an unknown status kept as written, are only told) — except, when the view
/// shows the schedule's findings (`shows_findings`), those that are findings too.
fn load_schedule(
    path: &Path,
    from: Option<DialectId>,
    format: Option<Format>,
    shows_findings: bool,
    json: bool,
) -> Result<(Loaded, Schedule, bool), ExitCode> {
    let loaded = super::load(path, from, format).map_err(|e| {
        e.report(path, json);
        ExitCode::FAILURE
    })?;
    // One schedule for the view and the validation; the schedule's own findings are
    // the last problems, left out where the view shows them.
    let checked = toon_plan::check(&loaded);
    let shown_elsewhere = if shows_findings {
        checked.from_schedule
    } else {
        0
    };
    let listed = checked.problems.len() - shown_elsewhere;
    let invalid = checked.problems.iter().any(toon_plan::Problem::is_error);
    super::report_problems(path, &checked.problems[..listed]);
    let schedule = checked.schedule;
    let schedule = schedule.map_err(|e| {
        errln!(
            "error: {}: cannot schedule: {e}",
            output::input_name(Some(path))
        );
        ExitCode::FAILURE
    })?;
    Ok((loaded, schedule, invalid))
}

fn print(text: &str) -> Result<(), ExitCode> {
    output::emit(None, text.as_bytes()).map_err(|e| {
        errln!("error: cannot write stdout: {}", output::describe_io(&e));
        ExitCode::FAILURE
    })
}

/// The human-readable schedule.
fn describe(loaded: &Loaded, s: &Schedule) -> String {
    let mut out = String::new();
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    out.push_str(&format!(
        "{} plan, {} in {}\n",
        loaded.dialect,
        count(s.tasks.len(), "task"),
        count(s.waves.len(), "wave")
    ));
    let mut by_wave: Vec<Vec<&exec::ScheduledTask>> = vec![Vec::new(); s.waves.len()];
    for t in &s.tasks {
        if let Some(w) = by_wave.get_mut(t.wave) {
            w.push(t);
        }
    }
    for w in &s.waves {
        let members: Vec<String> = by_wave[w.index]
            .iter()
            .map(|t| {
                let mut name = t.id.clone();
                if let Some(d) = t.duration_ms {
                    name.push_str(&format!(" ({})", ms(d)));
                }
                name
            })
            .collect();
        let mode = if w.tasks.len() > 1 {
            "parallel"
        } else {
            "sequence"
        };
        out.push_str(&format!(
            "  wave {} [stage-{}, {mode}]: {}\n",
            w.index + 1,
            w.index + 1,
            members.join(", ")
        ));
    }
    if !s.critical_path.is_empty() {
        out.push_str(&format!("critical path: {}\n", s.critical_path.join(" → ")));
    }
    match s.makespan_ms {
        Some(m) => {
            let mut line = format!("makespan: {}", ms(m));
            let timeouts = s
                .tasks
                .iter()
                .filter(|t| t.duration_source == Some(exec::DurationSource::Timeout))
                .count();
            let mut notes = Vec::new();
            if timeouts > 0 {
                notes.push(format!("{timeouts} duration(s) are timeouts, upper bounds"));
            }
            if s.tasks_without_duration > 0 {
                notes.push(format!(
                    "{} task(s) without a duration counted as 0",
                    s.tasks_without_duration
                ));
            }
            if !notes.is_empty() {
                line.push_str(&format!(" ({})", notes.join("; ")));
            }
            out.push_str(&line);
            out.push('\n');
        }
        None if !s.tasks.is_empty() => {
            out.push_str(
                "makespan: unknown (no task has a duration; the critical path counts tasks)\n",
            );
        }
        None => {}
    }
    if let Some(e) = s.plan_estimate_ms {
        out.push_str(&format!("plan estimate: {}\n", ms(e)));
    }
    // Seed 004's hand-offs, per task that receives them.
    let refs = exec::references(&loaded.plan);
    let mut by_task: Vec<(&str, Vec<String>)> = Vec::new();
    for r in &refs {
        let text = format!("{}.{}", r.task, r.field);
        match by_task.last_mut() {
            Some((t, list)) if *t == r.in_task => list.push(text),
            _ => by_task.push((&r.in_task, vec![text])),
        }
    }
    for (t, list) in by_task {
        out.push_str(&format!("references: {t} ◄ {}\n", list.join(", ")));
    }
    for f in &s.findings {
        let who = if f.task.is_empty() {
            String::new()
        } else {
            format!("{}: ", f.task)
        };
        out.push_str(&format!("{who}{f}\n"));
    }
    out
}

/// `toon plan schedule`.
pub fn schedule(args: ScheduleArgs) -> ExitCode {
    let (loaded, schedule, invalid) =
        match load_schedule(&args.file, args.from, args.format, !args.events, args.json) {
            Ok(x) => x,
            Err(code) => return code,
        };
    let text = if args.events {
        let mut outcomes = HashMap::new();
        for id in &args.fail {
            outcomes.insert(
                id.clone(),
                Outcome::Fail(format!("{id} failed (asked to fail)")),
            );
        }
        let tool_caps: BTreeMap<String, usize> = args.tool_cap.iter().cloned().collect();
        let opts = DryRunOptions {
            cap: args.cap,
            tool_caps,
            outcomes,
            ..DryRunOptions::default()
        };
        match exec::dry_run(&loaded.plan, &opts) {
            Ok(run) => exec::to_json_lines(&run.events),
            Err(e) => {
                errln!("error: {}: {e}", args.file.display());
                return ExitCode::FAILURE;
            }
        }
    } else if args.json {
        match serde_json::to_string_pretty(&schedule) {
            Ok(mut s) => {
                s.push('\n');
                s
            }
            Err(e) => {
                errln!("error: cannot write the schedule as JSON: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        if !args.fail.is_empty() || !args.tool_cap.is_empty() {
            errln!("note: --fail and --tool-cap apply to the dry run (--events)");
        }
        describe(&loaded, &schedule)
    };
    if let Err(code) = print(&text) {
        return code;
    }
    if invalid || schedule.has_errors() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `toon plan graph`.
pub fn graph(args: GraphArgs) -> ExitCode {
    let (loaded, schedule, invalid) =
        match load_schedule(&args.file, args.from, args.input_format, false, false) {
            Ok(x) => x,
            Err(code) => return code,
        };
    let text = match args.format {
        GraphFormat::Mermaid => exec::render::mermaid(&loaded.plan, &schedule),
        GraphFormat::Dot => exec::render::dot(&loaded.plan, &schedule),
        GraphFormat::Text => exec::render::text(&loaded.plan, &schedule),
    };
    if let Err(code) = print(&text) {
        return code;
    }
    if invalid {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `toon plan schema`.
pub fn schema(args: SchemaArgs) -> ExitCode {
    match print(&toon_plan::schema::schema_text(args.dialect)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}
