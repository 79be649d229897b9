//! Dialects: one module per plan dialect, each implementing [`Dialect`] (and naming
//! its [`DialectId`]), and the registry that lists them. Adding a dialect is one module
//! plus its line in [`REGISTRY`].

mod checklist;
pub(crate) mod checks;
pub mod composite;
pub mod cursor;
pub mod kiro;
pub mod plan_model;
pub mod plandag;
pub mod speckit;
pub mod staged;
pub mod taskmaster;
pub mod tooldag;
pub mod workflow;

use std::fmt;
use std::str::FromStr;

use crate::model::Plan;
use crate::problem::{PlanError, Problem};
use crate::syntax::format::{Document, Format};
use crate::table::Table;
use crate::table::fill::Fill;

/// A dialect, by name. Each dialect's module defines its own constant
/// (`DialectId::CURSOR` in `cursor`, …); [`DialectId::all`] lists those of [`REGISTRY`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DialectId(&'static str);

impl DialectId {
    /// The id of the dialect called `name` (used by each dialect's module).
    pub(crate) const fn named(name: &'static str) -> DialectId {
        DialectId(name)
    }

    /// Every dialect, in the order of [`REGISTRY`].
    pub fn all() -> impl Iterator<Item = DialectId> + Clone {
        REGISTRY.iter().map(|d| d.id())
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        self.0
    }

    /// The dialect's implementation.
    pub fn dialect(self) -> &'static dyn Dialect {
        REGISTRY
            .iter()
            .copied()
            .find(|d| d.id() == self)
            .unwrap_or(&plan_model::PlanModel)
    }
}

impl fmt::Debug for DialectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Display for DialectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for DialectId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}

impl FromStr for DialectId {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DialectId::all()
            .find(|d| d.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<_> = DialectId::all().map(|d| d.name()).collect();
                format!("unknown dialect {s:?} ({})", names.join(", "))
            })
    }
}

impl Plan {
    /// The dialect this plan was read from; `None` for a plan built in code. A
    /// conversion to another dialect fills in what that dialect requires; one back to
    /// this dialect writes the plan as it is.
    pub fn source_dialect(&self) -> Option<DialectId> {
        self.layout.source.map(DialectId)
    }

    /// Records the dialect the plan was read from (or is to be taken as read from: a
    /// plan assembled in code out of a dialect's data).
    pub fn set_source_dialect(&mut self, dialect: Option<DialectId>) {
        self.layout.source = dialect.map(DialectId::name);
    }
}

/// A plan as read, with any warnings the reading produced (tolerant fallbacks).
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    /// The plan.
    pub plan: Plan,
    /// Warnings, e.g. front matter that needed a tolerant reading.
    pub warnings: Vec<Problem>,
}

impl From<Plan> for Read {
    fn from(plan: Plan) -> Self {
        Read {
            plan,
            warnings: Vec::new(),
        }
    }
}

/// One plan dialect: how to recognise, read, validate and write it.
pub trait Dialect: Sync {
    /// Its name.
    fn id(&self) -> DialectId;

    /// The format it is usually written in.
    fn natural_format(&self) -> Format;

    /// Whether it can be written in `format` (every dialect does json, yaml, toon).
    fn supports(&self, format: Format) -> bool {
        !matches!(format, Format::Md | Format::Prompt)
    }

    /// How sure it is (0 = not this dialect) that `doc` is written in it.
    fn detect(&self, doc: &Document) -> u8;

    /// Whether a file name (lower case) says a file is in this dialect
    /// (`*.plan.md` for Cursor): the dialect of a file whose content does not tell.
    fn claims_file_name(&self, _lower_name: &str) -> bool {
        false
    }

    /// Whether a path (lower case, `/`-separated, as given) says a file is in this
    /// dialect, where its name alone does not (`.taskmaster/tasks/tasks.json`).
    fn claims_path(&self, _lower_path: &str) -> bool {
        false
    }

    /// The name of a new file for a plan written in `format`, where the dialect names
    /// its files itself rather than after their source (`PLAN-<random>.yaml`).
    fn new_file_name(&self, _format: Format) -> Option<String> {
        None
    }

    /// The field table of its root object, which its reader, writer, validator and
    /// JSON Schema follow.
    fn table(&self) -> Option<&'static Table> {
        None
    }

    /// Reads a document into the plan model. Fails only when the document is not this
    /// dialect at all; rule violations are for [`Dialect::validate`].
    fn read(&self, doc: &Document) -> Result<Read, PlanError>;

    /// After [`Dialect::read`] of `text` (written in `format`): keeps in the plan's
    /// layout what writing the plan back would not reproduce of the text, so that it
    /// is written back byte for byte.
    fn keep_text(&self, _plan: &mut Plan, _text: &str, _format: Format) {}

    /// Checks the document against the dialect's rules: every problem, with location.
    fn validate(&self, doc: &Document) -> Vec<Problem>;

    /// Writes a plan in a format.
    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError>;

    /// Before a plan read in another dialect (`from`) is written in this one: fills in
    /// what this dialect requires and the plan can give (derived) or has one obvious
    /// value for (defaulted), noting each in `fills` (see `conversion::derive` and the table
    /// in `docs/plan-mapping.md`). Nothing is invented where no sensible value exists.
    fn fill(&self, _plan: &mut Plan, _from: DialectId, _fills: &mut Vec<Fill>) {}

    /// Whether its tasks' dependencies follow from where the tasks stand (Spec Kit: a
    /// task waits for the one before it in its phase) rather than from a list in each
    /// task alone: such a plan cannot be read task by task as it is written.
    fn orders_by_position(&self) -> bool {
        false
    }

    /// Whether it holds the plan's markdown body (Cursor, the plan model): then the
    /// body's title stays there, and a conversion does not take it as the plan's title.
    fn keeps_body(&self) -> bool {
        false
    }

    /// Whether the plan's tasks are written as they are, nothing filled in (the tasks
    /// of a Cursor plan's body checklist, which go back into the body).
    fn writes_tasks_as_they_are(&self, _plan: &Plan) -> bool {
        false
    }
}

/// Every dialect. Detection takes the most confident; of equally confident ones, the
/// first listed.
pub static REGISTRY: &[&dyn Dialect] = &[
    &cursor::Cursor,
    &plandag::PlanDag,
    &composite::Composite,
    &workflow::Workflow,
    &staged::Staged,
    &tooldag::ToolDag,
    &taskmaster::TaskMaster,
    &kiro::Kiro,
    &speckit::SpecKit,
    &plan_model::PlanModel,
];

/// The dialect a document is most likely written in.
pub fn detect(doc: &Document) -> Option<DialectId> {
    let mut best: Option<(u8, DialectId)> = None;
    for d in REGISTRY {
        let score = d.detect(doc);
        if score > 0 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, d.id()));
        }
    }
    best.map(|(_, id)| id)
}
