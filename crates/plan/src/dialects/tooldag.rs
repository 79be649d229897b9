//! Tool DAG (seed 004): a list of tool calls (the tables [`PLAN`] and [`TASK`]) with
//! `{{task_id.field}}` references from a query to the tasks it depends on.

use crate::table::fill::{Fill, FillKind, task_fill, text_from_title};
use serde_json::Value;

use super::{Dialect, DialectId, Read};
use crate::dialects::checks;
use crate::model::Plan;
use crate::problem::{ErrorKind, PathBuf, PlanError, Problem};
use crate::syntax::format::{self, Document, Format};
use crate::table::fields::Fields;
use crate::table::{self, Check, Field, Kind, Table, TaskField, To, slot};

/// The tool DAG dialect.
pub struct ToolDag;

/// A tool DAG document.
pub static PLAN: Table = Table {
    title: "Tool DAG",
    doc: "A multi-agent tool DAG (seed 004). A query may use `{{task_id.result}}` to refer to \
          the result of a task listed in its `dependencies`.",
    fields: &[Field::new("dag", Kind::Items(&TASK), true, "The tasks.").to(To::Own)],
};

/// A task of a tool DAG.
pub static TASK: Table = Table {
    title: "Tool DAG task",
    doc: "A task of a tool DAG.",
    fields: &[
        Field::new(
            "id",
            Kind::Str,
            true,
            "Unique id: no spaces, no punctuation but `_` and `-` (letters of any script).",
        )
        .check(Check::Slug, "id-format")
        .to(To::Task(TaskField::Id)),
        Field::new(
            "tool",
            Kind::Str,
            true,
            "The tool to run (e.g. `serper_web_search`, `calculator`).",
        )
        .check(Check::NonBlank, "schema")
        .to(To::Task(TaskField::Tool)),
        Field::new(
            "query",
            Kind::Str,
            true,
            "The tool's input; may contain `{{task_id.result}}` references.",
        )
        .to(To::Task(TaskField::Description)),
        Field::new(
            "dependencies",
            Kind::Strings,
            true,
            "Ids of the tasks that must succeed first (`[]` for none).",
        )
        .to(To::Task(TaskField::Dependencies)),
    ],
};

/// The key of the task list.
const DAG: &str = PLAN.list_key();

impl DialectId {
    /// Tool DAG (seed 004).
    pub const TOOLDAG: DialectId = DialectId::named("tooldag");
}

impl Dialect for ToolDag {
    fn id(&self) -> DialectId {
        DialectId::TOOLDAG
    }

    fn table(&self) -> Option<&'static Table> {
        Some(&PLAN)
    }

    fn natural_format(&self) -> Format {
        Format::Json
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc.tree().and_then(Value::as_object) {
            Some(o) if o.get(DAG).is_some_and(Value::is_array) => 90,
            _ => 0,
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        let obj = doc.tree().and_then(Value::as_object).ok_or_else(|| {
            PlanError::new(
                ErrorKind::Shape,
                "a tool DAG is a JSON object with a `dag` list",
            )
        })?;
        let mut f = Fields::new(obj);
        let items = f.array(DAG).cloned().unwrap_or_default();
        let mut plan = Plan {
            tasks: Vec::with_capacity(items.len()),
            ..Plan::default()
        };
        for item in &items {
            plan.tasks.push(slot::read_task(&TASK, item));
        }
        plan.extra = f.extra();
        Ok(plan.into())
    }

    fn validate(&self, doc: &Document) -> Vec<Problem> {
        let Some(tree) = doc.tree() else {
            return vec![Problem::error(
                "schema",
                crate::problem::Location::Document,
                "a tool DAG is JSON, YAML or TOON, not markdown",
            )];
        };
        validate_tree(tree)
    }

    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError> {
        format::write_tree(&to_tree(plan), format)
    }

    fn fill(&self, plan: &mut Plan, _from: DialectId, fills: &mut Vec<Fill>) {
        for t in &mut plan.tasks {
            text_from_title(t, fills);
            if t.tool.is_none()
                && let Some(first) = t.tools.as_ref().and_then(|l| l.first()).cloned()
            {
                t.tool = Some(first);
                fills.push(task_fill(t, "tool", FillKind::Derived, "first of tools"));
            }
        }
    }
}

/// The tree form of a plan as a tool DAG.
pub fn to_tree(plan: &Plan) -> Value {
    slot::write(&PLAN, plan, |_| Some(slot::write_tasks(&TASK, &plan.tasks)))
}

/// Finds the `{{id.field}}` references in a query: `(id, field)` pairs.
pub fn references(query: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = query;
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else { break };
        let inner = after[..end].trim();
        let (id, field) = inner.split_once('.').unwrap_or((inner, ""));
        out.push((id.trim(), field.trim()));
        rest = &after[end + 2..];
    }
    out
}

fn validate_tree(tree: &Value) -> Vec<Problem> {
    let obj = match checks::root_object(tree, "tool DAG") {
        Ok(o) => o,
        Err(p) => return vec![p],
    };
    let mut out = table::check(obj, &PathBuf::root(), &PLAN);
    let Some(items) = obj.get(DAG).and_then(Value::as_array) else {
        return out;
    };
    let base = PathBuf::root().key(DAG);
    let query = TASK.key_of(To::Task(TaskField::Description));
    let deps_key = TASK.key_of(To::Task(TaskField::Dependencies));
    for (i, item) in items.iter().enumerate() {
        let Some(o) = item.as_object() else { continue };
        if let Some(q) = o.get(query).and_then(Value::as_str) {
            let deps: Vec<&str> = o
                .get(deps_key)
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (id, field) in references(q) {
                if !deps.contains(&id) {
                    out.push(Problem::error(
                        "references",
                        base.index(i).key_loc(query),
                        format!(
                            "query refers to {{{{{id}.{field}}}}} but {id:?} is not in `{deps_key}`"
                        ),
                    ));
                }
            }
        }
    }
    let nodes = checks::nodes_of(items, &base, TASK.key_of(To::Task(TaskField::Id)), deps_key);
    out.extend(checks::unique_ids(&nodes, "unique-ids", "task"));
    out.extend(checks::known_refs(&nodes, "known-dependencies", "task"));
    out.extend(checks::acyclic(&nodes, "acyclic"));
    out
}
