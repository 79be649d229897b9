//! Workflow plan (seed 002): `{metadata, tasks[], steps[], shared_inputs,
//! workflow_config}` with uniform arrays, in JSON, YAML, TOON or the seed's markdown
//! layout. Seed tasks become model groups; seed steps become model tasks.

mod markdown;
mod tree;

pub use markdown::{from_markdown, to_markdown};
pub use tree::{CONFIG, METADATA, PLAN, STEP, STEP_TYPES, TASK, from_tree, to_tree, validate_tree};

use super::{Dialect, DialectId, Read};
use crate::format::{self, Document, Format};
use crate::model::Plan;
use crate::problem::{PlanError, Problem};
use crate::table::Table;

/// The workflow-plan dialect.
pub struct Workflow;

impl Dialect for Workflow {
    fn id(&self) -> DialectId {
        DialectId::Workflow
    }

    fn table(&self) -> Option<&'static Table> {
        Some(&PLAN)
    }

    fn natural_format(&self) -> Format {
        Format::Json
    }

    fn supports(&self, _format: Format) -> bool {
        true
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc {
            Document::Tree(v) => {
                let Some(o) = v.as_object() else { return 0 };
                let arrays = o.get("tasks").is_some_and(|t| t.is_array())
                    && o.get("steps").is_some_and(|s| s.is_array());
                let objective = o.get("metadata").and_then(|m| m.get("objective")).is_some();
                if arrays || o.contains_key("workflow_config") || objective {
                    80
                } else {
                    0
                }
            }
            Document::Markdown(text) => markdown::detect(text),
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        match doc {
            Document::Tree(v) => from_tree(v).map(Read::from),
            Document::Markdown(text) => {
                let md = from_markdown(text);
                let mut read = Read::from(from_tree(&md.tree)?);
                read.warnings = md.warnings;
                Ok(read)
            }
        }
    }

    fn validate(&self, doc: &Document) -> Vec<Problem> {
        match doc {
            Document::Tree(v) => validate_tree(v, false),
            Document::Markdown(text) => {
                let md = from_markdown(text);
                let mut out = md.warnings.clone();
                out.extend(
                    validate_tree(&md.tree, true)
                        .into_iter()
                        .map(|p| md.relocate(p)),
                );
                out
            }
        }
    }

    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError> {
        let tree = to_tree(plan);
        match format {
            Format::Md => Ok(to_markdown(&tree)),
            other => format::write_tree(&tree, other),
        }
    }
}
