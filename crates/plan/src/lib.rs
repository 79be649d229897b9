//! # toon-plan — one model for AI agent plans, every dialect in and out
//!
//! Planners write plans in many dialects: Cursor's `.plan.md` files, PlanDAG JSON,
//! CompositeTask YAML, workflow plans, staged agent plans, tool DAGs. This crate reads
//! each of them into one [`Plan`] model ([`read`], [`read_file`], [`read_value`]),
//! validates it against its dialect's rules ([`validate`]: every problem, with a
//! location), and writes any plan in any dialect ([`convert`]) with one
//! [`ConversionReport`]: every field the target could not hold, every value filled in
//! for it, the target's own problems with the text. [`schedule`] and [`dry_run`] give
//! the execution view. Reports and problems serialise (serde) to the JSON the `toon`
//! command line prints.
//!
//! ```
//! use toon_plan::{ConvertOptions, DialectId, Format, ReadOptions};
//!
//! let text = r#"{"dag": [
//!   {"id": "a", "tool": "search", "query": "x", "dependencies": []},
//!   {"id": "b", "tool": "calc", "query": "{{a.result}} + 1", "dependencies": ["a"]}
//! ]}"#;
//! let loaded = toon_plan::read(text, &ReadOptions::default())?;
//! assert_eq!(loaded.dialect, DialectId::TOOLDAG);
//! assert!(toon_plan::validate(&loaded).is_empty());
//!
//! let options = ConvertOptions { format: Some(Format::Yaml), ..ConvertOptions::default() };
//! let out = toon_plan::convert(&loaded.plan, DialectId::COMPOSITE, &options)?;
//! assert!(out.text.contains("dependsOn:"));
//! // Composite plans have no `tool`: the report says so, per task.
//! assert!(out.report.dropped().any(|l| l.owner == "task a" && l.field == "tool"));
//! # Ok::<(), toon_plan::PlanError>(())
//! ```
//!
//! A plan built in code writes as every dialect; each conversion fills in what its
//! target requires (a Cursor todo's `content`, a PlanDAG step's `parallel_group`) and
//! says what it filled:
//!
//! ```
//! use toon_plan::{ConvertOptions, DialectId, Plan, Setting, Task};
//!
//! let plan = Plan {
//!     title: Some("Ship the release".into()),
//!     goal: Some("Publish version 2".into()),
//!     tasks: vec![
//!         Task { title: Some("Build".into()), tool: Some("cargo".into()), ..Task::new("build") },
//!         Task {
//!             title: Some("Publish".into()),
//!             tool: Some("twine".into()),
//!             dependencies: Some(vec!["build".into()]),
//!             ..Task::new("publish")
//!         },
//!     ],
//!     ..Plan::default()
//! };
//! for to in DialectId::all() {
//!     let out = toon_plan::convert(&plan, to, &ConvertOptions::default())?;
//!     // What no rule can give (a PlanDAG step's `agent_type`, `action`, `target`) the
//!     // report names: set it.
//!     let value = |field: &str| match field {
//!         "agent_type" => "api_agent",
//!         "action" => "navigate",
//!         _ => "https://example.com/release",
//!     };
//!     let set = out.report.settable.iter().map(|f| Setting::new(f, value(f)));
//!     let options = ConvertOptions { set: set.collect::<Result<_, _>>()?, ..Default::default() };
//!     let out = toon_plan::convert(&plan, to, &options)?;
//!     assert_eq!(out.report.target_errors(), 0, "{to}: {:?}", out.report.target_problems);
//!     // Read back, it holds both tasks.
//!     let back = toon_plan::read(&out.text, &toon_plan::ReadOptions::dialect(to))?;
//!     assert_eq!(back.plan.tasks.len(), 2, "{to}");
//! }
//! # Ok::<(), toon_plan::PlanError>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod checks;
pub mod derive;
pub mod dialects;
pub mod exec;
mod fields;
pub mod format;
pub mod forms;
mod graph;
pub mod loss;
pub mod model;
pub mod problem;
pub mod table;
mod tabular;
mod text_patch;
mod toon_numbers;
pub mod yaml;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use derive::{Fill, FillKind, Setting};
pub use dialects::{Dialect, DialectId, Read};
pub use exec::{DryRun, DryRunOptions, Schedule, dry_run, schedule};
pub use format::{Document, Format};
pub use loss::{Change, Loss, LossReport};
pub use model::{Extra, Group, Layout, Plan, Task};
pub use problem::{ErrorKind, Location, PlanError, Problem, Severity};

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

/// The dialect a file name suggests (`*.plan.md` → cursor, `PLAN-*.yaml` →
/// composite): the first dialect that claims it ([`dialects::Dialect::claims_file_name`]).
pub fn dialect_from_path(path: &Path) -> Option<DialectId> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    dialects::REGISTRY
        .iter()
        .find(|d| d.claims_file_name(&name))
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
        // Blank text is no plan, even though any markdown reads as a Cursor plan; a
        // blank `*.plan.md` file is an empty Cursor plan.
        None if text.trim().is_empty() && path.and_then(dialect_from_path).is_none() => {
            return Err(PlanError::new(
                ErrorKind::Empty,
                "the document is empty: there is no plan in it",
            ));
        }
        None => match dialects::detect(&document) {
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
    read.plan.set_source_dialect(Some(dialect));
    Ok(Loaded {
        dialect,
        format,
        document,
        plan: read.plan,
        warnings: read.warnings,
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
    read(&text, &options)
}

/// Every problem of a loaded plan: its dialect's rules, the reading warnings, and the
/// errors [`schedule`] finds in the declared placement (a PlanDAG step in a parallel
/// group that runs before or alongside one of its dependencies, a staged step placed
/// before its input), so that what `validate` passes, `schedule` accepts.
pub fn validate(loaded: &Loaded) -> Vec<Problem> {
    let mut out = loaded.dialect.dialect().validate(&loaded.document);
    for w in &loaded.warnings {
        if !out.contains(w) {
            out.push(w.clone());
        }
    }
    // Placement is judged once the dialect's own rules hold (a group numbered 0 is
    // reported as such, not also as misplaced); a plan they reject has no schedule.
    if out.iter().any(Problem::is_error) {
        return out;
    }
    // Everything `schedule` refuses, `validate` reports: a plan the dialect's rules
    // accept can still have no schedule (a task without an id, a cycle that runs
    // through group dependencies).
    match schedule(&loaded.plan) {
        Ok(s) => {
            for f in s.findings.iter().filter(|f| f.is_error()) {
                let location = match f.task.as_str() {
                    "" => Location::Document,
                    id => Location::Path(format!("task {id:?}")),
                };
                out.push(Problem::error(f.rule, location, f.message.clone()));
            }
        }
        Err(e) => out.push(Problem::error(
            "schedulable",
            Location::Document,
            e.to_string(),
        )),
    }
    out
}

/// Writes a plan in a dialect and format (`None` = the dialect's natural format) as
/// it is, filling nothing.
fn write(plan: &Plan, dialect: DialectId, format: Option<Format>) -> Result<String, PlanError> {
    let d = dialect.dialect();
    let format = format.unwrap_or_else(|| d.natural_format());
    if !d.supports(format) {
        return Err(PlanError::new(
            ErrorKind::Unsupported,
            format!(
                "the {dialect} dialect cannot be written as {format} (markdown is for cursor and workflow)"
            ),
        ));
    }
    d.write(plan, format)
}

/// How to convert a plan. The default writes the target's natural format and fills
/// in only what rules and defaults give.
#[derive(Clone, Debug, Default)]
pub struct ConvertOptions {
    /// The format to write; `None` = the target dialect's natural one (markdown for
    /// Cursor, YAML for composite plans, JSON for the others).
    pub format: Option<Format>,
    /// Values for fields the target requires that no rule gives (a tool DAG's `tool`,
    /// a PlanDAG `agent_type`).
    pub set: Vec<Setting>,
    /// Leaves out the markdown body and the source's layout (see [`forms::lean`]): the
    /// plan for a prompt. The report lists what was left out as dropped.
    pub lean: bool,
}

/// A conversion: the text and its report.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The converted text.
    pub text: String,
    /// Everything the conversion did not carry over unchanged, and the target's view
    /// of the text.
    pub report: ConversionReport,
}

/// What a conversion did. It serialises as `{"from", "to", "format", "losses",
/// "target_problems", "settable"}`, the record `toon plan convert --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConversionReport {
    /// The dialect the plan was read from; `None` for a plan built in code.
    pub from: Option<DialectId>,
    /// The target dialect.
    pub to: DialectId,
    /// The format written.
    pub format: Format,
    /// Each field dropped, changed, added, derived, defaulted or set, plan-level first,
    /// then groups, then tasks. Empty exactly when converting back gives the same
    /// plan.
    pub losses: Vec<Loss>,
    /// The target dialect's own validation of the text: errors here mean the target
    /// requires something the plan does not have (a Cursor plan has no `tool` for a
    /// tool DAG), so the text needs filling in before the target's tools accept it.
    pub target_problems: Vec<Problem>,
    /// The fields [`Setting`]s could fill to clear the target's errors, each once, in
    /// the order the errors name them.
    pub settable: Vec<&'static str>,
}

impl ConversionReport {
    /// The entries that lost or changed something of the source: dropped and changed
    /// fields.
    pub fn dropped(&self) -> impl Iterator<Item = &Loss> {
        self.losses
            .iter()
            .filter(|l| matches!(l.change, Change::Dropped | Change::Changed))
    }

    /// The entries of one kind of change.
    pub fn of(&self, change: Change) -> impl Iterator<Item = &Loss> {
        self.losses.iter().filter(move |l| l.change == change)
    }

    /// The entries the conversion filled in: derived, defaulted, set or added.
    pub fn filled(&self) -> impl Iterator<Item = &Loss> {
        self.losses
            .iter()
            .filter(|l| !matches!(l.change, Change::Dropped | Change::Changed))
    }

    /// The number of errors in [`ConversionReport::target_problems`].
    pub fn target_errors(&self) -> usize {
        self.target_problems.iter().filter(|p| p.is_error()).count()
    }

    /// True when converting back gives the same plan, layout included.
    pub fn is_lossless(&self) -> bool {
        self.losses.is_empty()
    }
}

/// One line per loss, then one per problem of the target.
impl std::fmt::Display for ConversionReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for l in &self.losses {
            writeln!(f, "{l}")?;
        }
        for p in &self.target_problems {
            writeln!(f, "{p}")?;
        }
        Ok(())
    }
}

/// The fields [`Setting`]s could fill to clear the target errors among `problems`.
fn settable_fields(problems: &[Problem]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for p in problems.iter().filter(|p| p.is_error()) {
        if let Location::Path(path) = &p.location
            && let Some(f) = derive::settable_field(path)
            && !out.contains(&f)
        {
            out.push(f);
        }
    }
    out
}

/// Converts a plan to a dialect, with its report.
///
/// Before writing, what the target requires and the plan lacks is filled in (see
/// [`mod@derive`]): derived from the plan where a rule gives the value (a PlanDAG
/// `parallel_group` is the schedule wave), defaulted where one value is obvious, or
/// taken from [`ConvertOptions::set`]. A plan written back in the dialect it was read
/// from ([`Plan::source_dialect`]) gets only the set values: it already is what that
/// dialect holds. The text is then read back and compared with `plan`, so the
/// report's losses are empty exactly when converting back gives the same plan; and
/// the text is validated as the target ([`ConversionReport::target_problems`]).
///
/// ```
/// use toon_plan::{Change, ConvertOptions, DialectId, ReadOptions, Setting};
/// let text = "---\nname: T\ntodos:\n  - id: a\n    content: Do it\n    status: pending\n---\n";
/// let loaded = toon_plan::read(text, &ReadOptions::default())?;
/// let out = toon_plan::convert(&loaded.plan, DialectId::TOOLDAG, &ConvertOptions::default())?;
/// assert!(out.report.target_errors() > 0);
/// assert_eq!(out.report.settable, ["tool"]);
/// let options = ConvertOptions { set: vec![Setting::new("tool", "web_search")?], ..Default::default() };
/// let out = toon_plan::convert(&loaded.plan, DialectId::TOOLDAG, &options)?;
/// assert_eq!(out.report.target_errors(), 0);
/// assert!(out.report.of(Change::Set).any(|l| l.owner == "task a" && l.field == "tool"));
/// # Ok::<(), toon_plan::PlanError>(())
/// ```
pub fn convert(
    plan: &Plan,
    to: DialectId,
    options: &ConvertOptions,
) -> Result<Conversion, PlanError> {
    if options.lean {
        return forms::convert_lean(plan, to, options);
    }
    let from = plan.source_dialect();
    let (filled, fills) = derive::fill(plan, from.unwrap_or(DialectId::PLAN), to, &options.set)?;
    let d = to.dialect();
    let format = options.format.unwrap_or_else(|| d.natural_format());
    let text = write(&filled, to, Some(format))?;
    let document = Document::parse(&text, format)?;
    let back = d.read(&document)?.plan;
    let mut losses = LossReport::between(plan, &back);
    losses.note_emptied_lists(&filled);
    losses.explain(&fills);
    let target_problems = d.validate(&document);
    Ok(Conversion {
        text,
        report: ConversionReport {
            from,
            to,
            format,
            losses: losses.losses,
            settable: settable_fields(&target_problems),
            target_problems,
        },
    })
}
