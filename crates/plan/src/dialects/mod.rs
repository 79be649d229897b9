//! Dialects: one module per plan dialect, each implementing [`Dialect`], and the
//! registry that lists them. Adding a dialect is one module plus one line in
//! [`REGISTRY`].

pub mod composite;
pub mod cursor;
pub mod plan_model;
pub mod plandag;
pub mod staged;
pub mod tooldag;
pub mod workflow;

use std::fmt;
use std::str::FromStr;

use crate::format::{Document, Format};
use crate::model::Plan;
use crate::problem::{PlanError, Problem};
use crate::table::Table;

/// The name of a dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DialectId {
    /// Cursor `.cursor/plans/*.plan.md`.
    Cursor,
    /// PlanDAG (seed 000).
    PlanDag,
    /// CompositeTask `PLAN-*.yaml` (seed 001).
    Composite,
    /// Workflow plan (seed 002).
    Workflow,
    /// Staged agent plan (seed 003).
    Staged,
    /// Tool DAG (seed 004).
    ToolDag,
    /// The plan model itself.
    Plan,
}

impl DialectId {
    /// All dialects.
    pub const ALL: [DialectId; 7] = [
        DialectId::Cursor,
        DialectId::PlanDag,
        DialectId::Composite,
        DialectId::Workflow,
        DialectId::Staged,
        DialectId::ToolDag,
        DialectId::Plan,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            DialectId::Cursor => "cursor",
            DialectId::PlanDag => "plandag",
            DialectId::Composite => "composite",
            DialectId::Workflow => "workflow",
            DialectId::Staged => "staged",
            DialectId::ToolDag => "tooldag",
            DialectId::Plan => "plan",
        }
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

impl fmt::Display for DialectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DialectId {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DialectId::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<_> = DialectId::ALL.iter().map(|d| d.name()).collect();
                format!("unknown dialect {s:?} ({})", names.join(", "))
            })
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
        format != Format::Md
    }

    /// How sure it is (0 = not this dialect) that `doc` is written in it.
    fn detect(&self, doc: &Document) -> u8;

    /// The field table of its root object, which its reader, writer, validator and
    /// JSON Schema follow (`None` for the plan model, described by serde types).
    fn table(&self) -> Option<&'static Table> {
        None
    }

    /// Reads a document into the plan model. Fails only when the document is not this
    /// dialect at all; rule violations are for [`Dialect::validate`].
    fn read(&self, doc: &Document) -> Result<Read, PlanError>;

    /// Checks the document against the dialect's rules: every problem, with location.
    fn validate(&self, doc: &Document) -> Vec<Problem>;

    /// Writes a plan in a format.
    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError>;
}

/// Every dialect, in detection priority order.
pub static REGISTRY: &[&dyn Dialect] = &[
    &plan_model::PlanModel,
    &cursor::Cursor,
    &workflow::Workflow,
    &plandag::PlanDag,
    &staged::Staged,
    &tooldag::ToolDag,
    &composite::Composite,
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
