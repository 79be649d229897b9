//! The `plan` dialect: the plan model itself, in one table-friendly schema for JSON,
//! YAML and TOON alike (so its TOON is plain TOON of its JSON): tasks and groups are
//! tables of their scalar fields, and every list-valued field becomes its own
//! two-column table (`deps[N]{task,on}`, `tools[N]{task,tool}`, …), so every array is
//! tabular. Per-task objects (`params`, extra fields) go in maps keyed by task id,
//! except extra fields a third of the tasks have, which are columns of the tasks table; tasks that
//! come in one run per group leave out their `group` column (each group row gives its
//! `size`). A
//! tasks table whose ids are the ones their titles give, and that nothing else names,
//! leaves out its `id` column. A plan whose subtasks are named after their task or whose
//! groups prefix their ids writes them local to where they are (`local_ids`: a
//! `subtasks` table, bare numbers). Plans whose ids are not unique (invalid plans) are written nested, as the model's
//! fields read; the reader takes either form. Both forms are described once, in
//! [`table`], which `validate` checks and the JSON Schema is generated from.
//!
//! A task's `requirements` (labels in another document, Kiro's `_Requirements: 1.1_`)
//! are one cell of its row instead of an edge table, joined by `,`, where every item
//! reads back from it (`list_cells`); so are a group's `dependencies`, and group ids in
//! plain digits are numbers (`group_cells`).

mod derivable;
mod extra_columns;
mod flat;
mod group_cells;
mod group_runs;
mod keys;
mod list_cells;
mod local_ids;
pub mod table;

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{Dialect, DialectId, Read};
use crate::dialects::checks::{self, Node};
use crate::model::Plan;
use crate::problem::{ErrorKind, Location, PathBuf, PlanError, Problem};
use crate::syntax::body_tasks;
use crate::syntax::format::{self, Document, Format};
use crate::table::Table;
use crate::table::fields;
use flat::{from_tree, to_flat_tree};

/// The plan-model dialect.
pub struct PlanModel;

/// The value of the `schema` key that marks a plan-model document.
pub const SCHEMA: &str = crate::syntax::format::PLAN_SCHEMA;

impl DialectId {
    /// The plan model itself.
    pub const PLAN: DialectId = DialectId::named("plan");
}

impl Dialect for PlanModel {
    fn id(&self) -> DialectId {
        DialectId::PLAN
    }

    fn keeps_body(&self) -> bool {
        true
    }

    fn natural_format(&self) -> Format {
        Format::Json
    }

    fn supports(&self, format: Format) -> bool {
        format != Format::Md
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc.tree().and_then(|v| v.get("schema")) {
            Some(Value::String(s)) if s == SCHEMA => 100,
            _ => 0,
        }
    }

    fn table(&self) -> Option<&'static Table> {
        Some(&table::PLAN)
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        let obj = doc.tree().and_then(Value::as_object).ok_or_else(|| {
            PlanError::new(ErrorKind::Shape, "a plan-model document is an object")
        })?;
        Ok(from_tree(obj).into())
    }

    fn validate(&self, doc: &Document) -> Vec<Problem> {
        match doc.tree() {
            Some(Value::Object(o)) => {
                let mut out = crate::table::check(o, &PathBuf::root(), &table::PLAN);
                let plan = from_tree(o);
                out.extend(validate_plan(&plan));
                if let Some(key) = body_tasks::LAYOUT_KEYS
                    .into_iter()
                    .find(|k| plan.layout.entries.contains_key(*k))
                {
                    // A warning: the tasks are all in the table, and a Cursor file
                    // written from this plan lists them in its front matter instead.
                    out.push(Problem::warning(
                        "layout",
                        PathBuf::root().key("layout").key_loc(key),
                        "the task lines left out of `body` cannot be put back (`cursor.tasks_at` \
                         with each number in `cursor.nested` once and at most the number of \
                         tasks, or `cursor.task_lines` with one row per task and lines in \
                         ascending order, not both): a Cursor file written from this plan lists \
                         its tasks as `todos` instead",
                    ));
                }
                out
            }
            _ => vec![Problem::error(
                "schema",
                Location::Document,
                "a plan-model document is an object (JSON, YAML or TOON)",
            )],
        }
    }

    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError> {
        let mut tree = to_flat_tree(plan);
        // The prompt form writes the body as text after the front matter.
        if format != Format::Prompt {
            body_as_lines(&mut tree);
        }
        format::write_tree(&tree, format)
    }
}

/// A multi-line `body` as its lines, in every tree format alike (so the TOON stays plain
/// TOON of the JSON): in TOON a list of lines costs fewer tokens than one string whose
/// line breaks and quotes are all escaped (TOON has no multi-line strings). It reads
/// back as the same text ([`table::PLAN`]'s `body` is a [`crate::table::Kind::Lines`]).
fn body_as_lines(tree: &mut Value) {
    if let Some(body) = tree.get_mut("body")
        && let Value::String(text) = body
        && text.contains('\n')
    {
        let lines = text.split('\n').map(|l| Value::String(l.to_owned()));
        *body = Value::Array(lines.collect());
    }
}

/// The nested tree: `schema` then the model's fields.
pub fn to_nested_tree(plan: &Plan) -> Value {
    let mut m = Map::new();
    m.insert("schema".into(), Value::String(SCHEMA.into()));
    if let Ok(Value::Object(body)) = serde_json::to_value(plan) {
        m.extend(body);
    }
    Value::Object(m)
}

/// Checks any plan in the model: ids present and unique, dependencies that exist, no
/// cycles, groups that exist. Paths point into the nested form.
pub fn validate_plan(plan: &Plan) -> Vec<Problem> {
    let base = PathBuf::root().key("tasks");
    let mut out = Vec::new();
    let mut nodes = Vec::new();
    let groups: HashSet<&str> = plan.groups.iter().map(|g| g.id.as_str()).collect();
    for (i, t) in plan.tasks.iter().enumerate() {
        let path = base.index(i);
        if fields::opaque_value(t).is_some() {
            out.push(Problem::error(
                "schema",
                path.loc(),
                "task is not an object",
            ));
            continue;
        }
        if t.id.is_empty() {
            out.push(Problem::error("schema", path.loc(), "task has no id"));
            continue;
        }
        if let Some(g) = &t.group
            && !plan.groups.is_empty()
            && !groups.contains(g.as_str())
        {
            out.push(Problem::error(
                "known-groups",
                path.key_loc("group"),
                format!("task {:?} names unknown group {g:?}", t.id),
            ));
        }
        let deps = t
            .dependencies
            .iter()
            .flatten()
            .enumerate()
            .map(|(j, d)| (d.as_str(), path.key("dependencies").index(j)))
            .collect();
        nodes.push(Node {
            id: t.id.as_str(),
            path,
            deps,
        });
    }
    out.extend(checks::unique_ids(&nodes, "unique-ids", "task"));
    out.extend(checks::known_refs(&nodes, "known-dependencies", "task"));
    out.extend(checks::acyclic(&nodes, "acyclic"));
    out
}
