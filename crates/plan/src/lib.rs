//! # toon-plan — one model for AI agent plans, every dialect in and out
//!
//! Planners write plans in many dialects: Cursor's `.plan.md` files, PlanDAG JSON,
//! CompositeTask YAML, workflow plans, staged agent plans, tool DAGs. This crate reads
//! each of them into one [`Plan`] model, validates it against its dialect's rules
//! (every problem, with a location), and writes any plan in any dialect — with a
//! [`LossReport`] naming every field the target cannot hold.
//!
//! ```
//! use toon_plan::{DialectId, Format};
//!
//! let text = r#"{"dag": [
//!   {"id": "a", "tool": "search", "query": "x", "dependencies": []},
//!   {"id": "b", "tool": "calc", "query": "{{a.result}} + 1", "dependencies": ["a"]}
//! ]}"#;
//! let loaded = toon_plan::load(text, None, None, None)?;
//! assert_eq!(loaded.dialect, DialectId::TOOLDAG);
//! assert!(toon_plan::validate(&loaded).is_empty());
//!
//! let out = toon_plan::convert(&loaded.plan, DialectId::COMPOSITE, Some(Format::Yaml))?;
//! assert!(out.text.contains("dependsOn:"));
//! // Composite plans have no `tool`: the report says so, per task.
//! assert!(out.report.losses.iter().any(|l| l.owner == "task a" && l.field == "tool"));
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
pub mod instructions;
pub mod json;
pub mod loss;
pub mod model;
pub mod model_output;
pub mod problem;
pub mod stream;
pub mod table;
pub mod tabular;
pub mod text_patch;
pub mod toon_numbers;
pub mod yaml;

use std::path::Path;

pub use derive::{Fill, FillKind, Setting};
pub use dialects::{Dialect, DialectId, Read};
pub use exec::{DryRun, DryRunOptions, Schedule, dry_run, schedule};
pub use format::{Document, Format};
pub use instructions::{Instructions, instructions};
pub use loss::{Change, Loss, LossReport};
pub use model::{Extra, Group, Plan, Task};
pub use model_output::{ModelAnswer, read_model_output};
pub use problem::{Location, PlanError, Problem, Severity};

/// A plan as loaded from text: its dialect, format, parsed document and model.
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

/// The dialect a file name suggests (`*.plan.md` → cursor, `PLAN-*.yaml` →
/// composite): the first dialect that claims it ([`dialects::Dialect::claims_file_name`]).
pub fn dialect_from_path(path: &Path) -> Option<DialectId> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    dialects::REGISTRY
        .iter()
        .find(|d| d.claims_file_name(&name))
        .map(|d| d.id())
}

/// Reads a plan from text. The format comes from `format`, else the path's extension
/// (unless the text is TOON: [`Format::of_file`]), else the content; the dialect from `dialect`, else the content (then the path).
pub fn load(
    text: &str,
    path: Option<&Path>,
    dialect: Option<DialectId>,
    format: Option<Format>,
) -> Result<Loaded, PlanError> {
    let format = format.unwrap_or_else(|| Format::of_file(path, text));
    if format == Format::Md
        && let Some(d) = dialect
        && !d.dialect().supports(Format::Md)
    {
        return Err(PlanError::doc(format!(
            "the {d} dialect has no markdown form (use json, yaml or toon)"
        )));
    }
    let document = Document::parse(text, format)?;
    let dialect = match dialect {
        Some(d) => d,
        // Blank text is no plan, even though any markdown reads as a Cursor plan; a
        // blank `*.plan.md` file is an empty Cursor plan.
        None if text.trim().is_empty() && path.and_then(dialect_from_path).is_none() => {
            return Err(PlanError::doc(
                "the document is empty: there is no plan in it",
            ));
        }
        None => match dialects::detect(&document) {
            Some(d) => d,
            None => path.and_then(dialect_from_path).ok_or_else(|| {
                PlanError::doc(
                    "cannot tell which plan dialect this is: name it (`--from` on the \
                     command line, `dialect=` in Python)",
                )
            })?,
        },
    };
    let read = dialect.dialect().read(&document)?;
    Ok(Loaded {
        dialect,
        format,
        document,
        plan: read.plan,
        warnings: read.warnings,
    })
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

/// Writes a plan in a dialect and format (`None` = the dialect's natural format).
pub fn write(plan: &Plan, dialect: DialectId, format: Option<Format>) -> Result<String, PlanError> {
    let d = dialect.dialect();
    let format = format.unwrap_or_else(|| d.natural_format());
    if !d.supports(format) {
        return Err(PlanError::doc(format!(
            "the {dialect} dialect cannot be written as {format} (markdown is for cursor and workflow)"
        )));
    }
    d.write(plan, format)
}

/// A conversion's result.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The converted text.
    pub text: String,
    /// The format it is in.
    pub format: Format,
    /// What the target could not hold.
    pub report: LossReport,
    /// The target dialect's own validation of the converted text: errors here mean the
    /// target requires something the source plan does not have (a Cursor plan has no
    /// `tool` for a tool DAG, no `agent_type` for PlanDAG), so the text needs filling in
    /// before the target's tools will accept it.
    pub problems: Vec<Problem>,
}

impl Conversion {
    /// The number of errors in [`Conversion::problems`].
    pub fn target_errors(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == problem::Severity::Error)
            .count()
    }

    /// The fields that [`Setting`]s (`--set FIELD=VALUE`) could fill to clear the target
    /// errors, each once, in the order the errors name them.
    ///
    /// ```
    /// use toon_plan::DialectId;
    /// let text = "---\nname: T\ntodos:\n  - id: a\n    content: Do it\n    status: pending\n---\n";
    /// let loaded = toon_plan::load(text, None, None, None)?;
    /// let out = toon_plan::convert_from(&loaded.plan, loaded.dialect, DialectId::TOOLDAG, None, &[])?;
    /// assert!(out.target_errors() > 0);
    /// assert_eq!(out.settable_fields(), ["tool"]);
    /// let set = ["tool=web_search".parse().map_err(toon_plan::PlanError::doc)?];
    /// let out = toon_plan::convert_from(&loaded.plan, loaded.dialect, DialectId::TOOLDAG, None, &set)?;
    /// assert!(out.settable_fields().is_empty());
    /// # Ok::<(), toon_plan::PlanError>(())
    /// ```
    pub fn settable_fields(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for p in self.problems.iter().filter(|p| p.is_error()) {
            if let Location::Path(path) = &p.location
                && let Some(f) = derive::settable_field(path)
                && !out.contains(&f)
            {
                out.push(f);
            }
        }
        out
    }
}

/// Converts a plan to a dialect and format as it is, with a loss report: the text is
/// read back and compared with `plan`, so the report is empty exactly when converting
/// back gives the same plan. The text is also validated as the target dialect
/// ([`Conversion::problems`]). [`convert_from`] also fills in what the target needs.
pub fn convert(
    plan: &Plan,
    to: DialectId,
    format: Option<Format>,
) -> Result<Conversion, PlanError> {
    convert_from(plan, to, to, format, &[])
}

/// Converts a plan read from dialect `from` to dialect `to`, first filling in what
/// the target requires and the plan lacks (see [`mod@derive`]): derived from the plan
/// where a rule gives the value (a PlanDAG `parallel_group` is the schedule wave),
/// defaulted where one value is obvious, or taken from `sets` (`--set tool=…`). The
/// loss report lists each filled value with its rule beside what was dropped.
///
/// ```
/// use toon_plan::{Change, DialectId};
/// let text = r#"{"dag": [
///   {"id": "a", "tool": "search", "query": "x", "dependencies": []},
///   {"id": "b", "tool": "calc", "query": "{{a.result}} + 1", "dependencies": ["a"]}
/// ]}"#;
/// let loaded = toon_plan::load(text, None, None, None)?;
/// let out = toon_plan::convert_from(&loaded.plan, loaded.dialect, DialectId::CURSOR, None, &[])?;
/// assert!(out.report.losses.iter().any(|l| l.owner == "task b"
///     && l.field == "status" && l.change == Change::Defaulted));
/// assert_eq!(out.target_errors(), 0);
/// # Ok::<(), toon_plan::PlanError>(())
/// ```
pub fn convert_from(
    plan: &Plan,
    from: DialectId,
    to: DialectId,
    format: Option<Format>,
    sets: &[Setting],
) -> Result<Conversion, PlanError> {
    let (filled, fills) = derive::fill(plan, from, to, sets)?;
    let d = to.dialect();
    let format = format.unwrap_or_else(|| d.natural_format());
    let text = write(&filled, to, Some(format))?;
    let document = Document::parse(&text, format)?;
    let back = d.read(&document)?.plan;
    let mut report = LossReport::between(plan, &back);
    report.note_emptied_lists(&filled);
    report.explain(&fills);
    Ok(Conversion {
        report,
        problems: d.validate(&document),
        text,
        format,
    })
}
