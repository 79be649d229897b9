//! Reading a plan: from text, a file or a value built in code, into the plan model,
//! its dialect and format told from what is known ([`ReadOptions`]) and the text; and
//! validating what was read.

use std::path::{Path, PathBuf};

use crate::dialects::{self, DialectId};
use crate::exec::{ExecError, Schedule, schedule};
use crate::model::Plan;
use crate::problem::{ErrorKind, Location, PlanError, Problem};
use crate::syntax::format::{Document, Format};
use crate::syntax::locate::locate_all;

/// A plan as read: its dialect, format, parsed document and model.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The dialect it is written in.
    pub dialect: DialectId,
    /// The format it is written in.
    pub format: Format,
    /// The parsed document (kept for validation with locations).
    pub document: Document,
    /// The plan.
    pub plan: Plan,
    /// Warnings from reading (tolerant fallbacks).
    pub warnings: Vec<Problem>,
    /// The text read (`None` for a value built in code): problems found at a path in
    /// its tree are given the line and column of that path in it.
    pub text: Option<String>,
    /// The name of the file it was read from, without extensions ([`source_name`]):
    /// what [`crate::ConvertOptions::source_name`] takes for a conversion of it.
    pub source_name: Option<String>,
}

/// How to read a plan: what is known of it beforehand. Everything left `None` is
/// told from the text (and the file name).
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The dialect; else the content tells, then the file name.
    pub dialect: Option<DialectId>,
    /// The format; else the file name's extension (unless the text is TOON), else the
    /// content ([`Format::of_file`]).
    pub format: Option<Format>,
    /// The name of the file the text came from, to tell format and dialect by
    /// (`*.plan.md` is a Cursor plan).
    pub file_name: Option<PathBuf>,
}

impl ReadOptions {
    /// Options naming the dialect.
    pub fn dialect(dialect: DialectId) -> ReadOptions {
        ReadOptions {
            dialect: Some(dialect),
            ..ReadOptions::default()
        }
    }
}

/// A plan file's name without its extensions (`dark-mode` for `dark-mode.plan.md`):
/// the [`crate::ConvertOptions::source_name`] of a plan read from it.
pub fn source_name(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    name.split('.')
        .next()
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// The dialect a file name or path suggests (`*.plan.md` → cursor, `PLAN-*.yaml` →
/// composite, `.taskmaster/tasks/tasks.json` → taskmaster): the first dialect that claims it
/// ([`dialects::Dialect::claims_file_name`]).
pub fn dialect_from_path(path: &Path) -> Option<DialectId> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    dialects::REGISTRY
        .iter()
        .find(|d| d.claims_file_name(&name))
        .map(|d| d.id())
        .or_else(|| dialect_claiming_path(path))
}

/// The dialect whose planner keeps its files at this path, if any
/// ([`dialects::Dialect::claims_path`]).
fn dialect_claiming_path(path: &Path) -> Option<DialectId> {
    let whole = path.to_str()?.replace('\\', "/").to_ascii_lowercase();
    dialects::REGISTRY
        .iter()
        .find(|d| d.claims_path(&whole))
        .map(|d| d.id())
}

/// Reads a plan from text.
///
/// ```
/// use toon_plan::{DialectId, ErrorKind, Format, ReadOptions};
/// let text = "---\nname: Ship\ntodos:\n  - id: a\n    content: Build\n    status: pending\n---\n";
/// let loaded = toon_plan::read(text, &ReadOptions::default())?;
/// assert_eq!((loaded.dialect, loaded.format), (DialectId::CURSOR, Format::Md));
/// assert_eq!(loaded.plan.source_dialect(), Some(DialectId::CURSOR));
/// let e = toon_plan::read("{\"x\": 1}", &ReadOptions::default()).unwrap_err();
/// assert_eq!(e.kind, ErrorKind::UnknownDialect);
/// # Ok::<(), toon_plan::PlanError>(())
/// ```
pub fn read(text: &str, options: &ReadOptions) -> Result<Loaded, PlanError> {
    let path = options.file_name.as_deref();
    let format = options
        .format
        .unwrap_or_else(|| Format::of_file(path, text));
    // Blank text is no plan in any format (not a JSON or YAML syntax error, not an
    // empty TOON object), even though any markdown reads as a Cursor plan; blank
    // markdown of a dialect with a markdown form, given or known by the file's name (a
    // blank `*.plan.md` file), is an empty plan.
    let blank = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .trim()
        .is_empty();
    let markdown_plan = options
        .dialect
        .or_else(|| path.and_then(dialect_from_path))
        .is_some_and(|d| d.dialect().supports(Format::Md));
    if blank && !(format == Format::Md && markdown_plan) {
        return Err(PlanError::new(
            ErrorKind::Empty,
            "the document is empty: there is no plan in it",
        ));
    }
    if format == Format::Md
        && let Some(d) = options.dialect
        && !d.dialect().supports(Format::Md)
    {
        return Err(PlanError::new(
            ErrorKind::Unsupported,
            format!("the {d} dialect has no markdown form (use json, yaml or toon)"),
        ));
    }
    let document = Document::parse(text, format)?;
    let dialect = match options.dialect {
        Some(d) => d,
        // A planner's own path (`.taskmaster/tasks/tasks.json`) says more than content
        // that other dialects' tasks lists share.
        None => match path
            .and_then(dialect_claiming_path)
            .or_else(|| dialects::detect(&document))
        {
            Some(d) => d,
            None => path.and_then(dialect_from_path).ok_or_else(|| {
                PlanError::new(
                    ErrorKind::UnknownDialect,
                    "cannot tell which plan dialect this is: name the dialect",
                )
            })?,
        },
    };
    let mut read = dialect.dialect().read(&document)?;
    dialect.dialect().keep_text(&mut read.plan, text, format);
    read.plan.set_source_dialect(Some(dialect));
    Ok(Loaded {
        dialect,
        format,
        document,
        plan: read.plan,
        warnings: read.warnings,
        text: (format != Format::Md).then(|| text.to_owned()),
        source_name: path.and_then(source_name),
    })
}

/// Reads a plan file: [`read`] of its text, with its name as
/// [`ReadOptions::file_name`] unless the options name another. A file that cannot be
/// read, or whose bytes are not UTF-8, is an error of kind [`ErrorKind::Unreadable`].
pub fn read_file(path: &Path, options: &ReadOptions) -> Result<Loaded, PlanError> {
    let bytes = std::fs::read(path)
        .map_err(|e| PlanError::new(ErrorKind::Unreadable, format!("{}: {e}", path.display())))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        PlanError::new(
            ErrorKind::Unreadable,
            format!(
                "{}: not UTF-8 text (invalid byte at offset {})",
                path.display(),
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    let mut options = options.clone();
    options.file_name.get_or_insert_with(|| path.to_path_buf());
    read(&text, &options)
}

/// Reads a plan from a value built in code (a JSON tree: an object in any dialect's
/// JSON form), as [`read`] reads its JSON text: problems are located by path.
///
/// ```
/// use toon_plan::{DialectId, ReadOptions};
/// let value = serde_json::json!({"todos": [{"id": "a", "content": "Build", "status": "pending"}]});
/// let loaded = toon_plan::read_value(&value, &ReadOptions::default())?;
/// assert_eq!(loaded.dialect, DialectId::CURSOR);
/// assert_eq!(loaded.plan.tasks[0].id, "a");
/// # Ok::<(), toon_plan::PlanError>(())
/// ```
pub fn read_value(value: &serde_json::Value, options: &ReadOptions) -> Result<Loaded, PlanError> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| PlanError::new(ErrorKind::Shape, e.to_string()))?;
    let options = ReadOptions {
        format: Some(options.format.unwrap_or(Format::Json)),
        ..options.clone()
    };
    // The text is this function's, not the caller's: no line and column in it.
    let mut loaded = read(&text, &options)?;
    loaded.text = None;
    Ok(loaded)
}

/// Every problem of a loaded plan: its dialect's rules, the reading warnings, and the
/// errors [`schedule`] finds in the declared placement (a PlanDAG step in a parallel
/// group that runs before or alongside one of its dependencies, a staged step placed
/// before its input), so that what `validate` passes, `schedule` accepts.
pub fn validate(loaded: &Loaded) -> Vec<Problem> {
    let mut problems = rule_problems(loaded);
    // Placement is judged once the dialect's own rules hold (a group numbered 0 is
    // reported as such, not also as misplaced); a plan they reject has no schedule.
    if !problems.iter().any(Problem::is_error) {
        add_schedule_problems(&mut problems, &schedule(&loaded.plan));
    }
    place(&mut problems, loaded);
    problems
}

/// A plan's problems (as [`validate`] gives them) and its schedule, computed once.
#[derive(Debug)]
pub struct Checked {
    /// Every problem, in `validate`'s order.
    pub problems: Vec<Problem>,
    /// How many of the last `problems` are the schedule's own error findings (a view
    /// that shows the schedule's findings need not repeat them).
    pub from_schedule: usize,
    /// The schedule, or why there is none.
    pub schedule: Result<Schedule, ExecError>,
}

/// [`validate`] and [`schedule`] of a loaded plan at once: the schedule is computed
/// one time for both.
///
/// ```
/// use toon_plan::ReadOptions;
/// let text = r#"{"dag": [{"id": "a", "tool": "search", "query": "x", "dependencies": []}]}"#;
/// let checked = toon_plan::check(&toon_plan::read(text, &ReadOptions::default())?);
/// assert!(checked.problems.is_empty());
/// assert_eq!(checked.schedule?.waves.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check(loaded: &Loaded) -> Checked {
    let mut problems = rule_problems(loaded);
    let schedule = schedule(&loaded.plan);
    let from_schedule = if problems.iter().any(Problem::is_error) {
        0
    } else {
        add_schedule_problems(&mut problems, &schedule)
    };
    place(&mut problems, loaded);
    Checked {
        problems,
        from_schedule,
        schedule,
    }
}

/// Gives each problem located by path the line and column of its path in the text
/// read, in one reading of the text for all of them.
fn place(problems: &mut [Problem], loaded: &Loaded) {
    let Some(text) = &loaded.text else { return };
    let paths: Vec<&str> = problems
        .iter()
        .filter_map(|p| match &p.location {
            Location::Path(path) => Some(path.as_str()),
            _ => None,
        })
        .collect();
    if paths.is_empty() {
        return;
    }
    let mut found = locate_all(text, loaded.format, &paths).into_iter();
    for p in problems.iter_mut() {
        if matches!(p.location, Location::Path(_)) {
            p.position = found.next().flatten();
        }
    }
}

/// The dialect's rules and the reading warnings.
fn rule_problems(loaded: &Loaded) -> Vec<Problem> {
    let mut problems = loaded.dialect.dialect().validate(&loaded.document);
    for w in &loaded.warnings {
        if !problems.contains(w) {
            problems.push(w.clone());
        }
    }
    problems
}

/// Everything `schedule` refuses, `validate` reports: a plan the dialect's rules accept
/// can still have no schedule (a task without an id, a cycle that runs through group
/// dependencies). Adds the schedule's error findings, or why there is no schedule, and
/// returns how many findings it added (0 without a schedule).
fn add_schedule_problems(
    problems: &mut Vec<Problem>,
    schedule: &Result<Schedule, ExecError>,
) -> usize {
    match schedule {
        Ok(s) => {
            let before = problems.len();
            for f in s.findings.iter().filter(|f| f.is_error()) {
                let location = match f.task.as_str() {
                    "" => Location::Document,
                    id => Location::Path(format!("task {id:?}")),
                };
                problems.push(Problem::error(f.rule, location, f.message.clone()));
            }
            problems.len() - before
        }
        Err(e) => {
            problems.push(Problem::error(
                "schedulable",
                Location::Document,
                e.to_string(),
            ));
            0
        }
    }
}
