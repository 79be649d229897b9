//! Tool DAG (seed 004): `{"dag": [{id, tool, query, dependencies}]}` with
//! `{{task_id.field}}` references from a query to the tasks it depends on.

use serde_json::{Map, Value};

use super::{Dialect, DialectId, Read};
use crate::checks::{self, Kind};
use crate::fields::{Fields, Out};
use crate::format::{self, Document, Format};
use crate::model::{Plan, Task};
use crate::problem::{PathBuf, PlanError, Problem};

/// The tool DAG dialect.
pub struct ToolDag;

const TASK_KEYS: &[&str] = &["id", "tool", "query", "dependencies"];

impl Dialect for ToolDag {
    fn id(&self) -> DialectId {
        DialectId::ToolDag
    }

    fn natural_format(&self) -> Format {
        Format::Json
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc.tree().and_then(Value::as_object) {
            Some(o) if o.get("dag").is_some_and(Value::is_array) => 90,
            _ => 0,
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        let obj = doc
            .tree()
            .and_then(Value::as_object)
            .ok_or_else(|| PlanError::doc("a tool DAG is a JSON object with a `dag` list"))?;
        let mut f = Fields::new(obj);
        let items = f.array("dag").cloned().unwrap_or_default();
        let mut plan = Plan {
            tasks: Vec::with_capacity(items.len()),
            ..Plan::default()
        };
        for item in &items {
            plan.tasks.push(read_task(item));
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
}

fn read_task(item: &Value) -> Task {
    let Some(obj) = item.as_object() else {
        return crate::fields::opaque_task(item);
    };
    let mut f = Fields::new(obj);
    let mut t = Task {
        id: f.str("id").unwrap_or_default(),
        tool: f.required_str("tool"),
        description: f.required_str("query"),
        dependencies: f.required_strings("dependencies"),
        ..Task::default()
    };
    t.extra = f.extra();
    t
}

/// The tree form of a plan as a tool DAG.
pub fn to_tree(plan: &Plan) -> Value {
    let dag: Vec<Value> = plan
        .tasks
        .iter()
        .map(|t| {
            if let Some(v) = crate::fields::opaque_value(t) {
                return v;
            }
            Out::new()
                .str("id", &Some(t.id.clone()))
                .required_str("tool", &t.tool)
                .required_str("query", &t.description)
                .required_strings("dependencies", &t.dependencies)
                .extra(&t.extra, TASK_KEYS)
                .build()
        })
        .collect();
    let mut out = Out::new();
    out.value("dag", Some(Value::Array(dag)));
    out.extra(&plan.extra, &["dag"]);
    out.build()
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

fn id_is_clean(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn validate_tree(tree: &Value) -> Vec<Problem> {
    let obj: &Map<String, Value> = match checks::root_object(tree, "tool DAG") {
        Ok(o) => o,
        Err(p) => return vec![p],
    };
    let items = match checks::array_field(obj, "dag", true) {
        Ok(Some(a)) => a,
        Ok(None) => return Vec::new(),
        Err(p) => return vec![p],
    };
    let base = PathBuf::root().key("dag");
    let mut out = checks::items_are_objects(items, &base, "task");
    for (i, item) in items.iter().enumerate() {
        let Some(o) = item.as_object() else { continue };
        let path = base.index(i);
        out.extend(checks::fields(
            o,
            &path,
            &[
                ("id", Kind::Str, true),
                ("tool", Kind::NonEmptyStr, true),
                ("query", Kind::Str, true),
                ("dependencies", Kind::Strings, true),
            ],
            "schema",
        ));
        if let Some(id) = o.get("id").and_then(Value::as_str)
            && !id_is_clean(id)
        {
            out.push(Problem::error(
                "id-format",
                path.key_loc("id"),
                format!("task id {id:?} may hold only letters, digits, `_` and `-`"),
            ));
        }
        if let Some(q) = o.get("query").and_then(Value::as_str) {
            let deps: Vec<&str> = o
                .get("dependencies")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (id, field) in references(q) {
                if !deps.contains(&id) {
                    out.push(Problem::error(
                        "references",
                        path.key_loc("query"),
                        format!(
                            "query refers to {{{{{id}.{field}}}}} but {id:?} is not in `dependencies`"
                        ),
                    ));
                }
            }
        }
    }
    let nodes = checks::nodes_of(items, &base, "id", "dependencies");
    out.extend(checks::unique_ids(&nodes, "unique-ids", "task"));
    out.extend(checks::known_refs(&nodes, "known-dependencies", "task"));
    out.extend(checks::acyclic(&nodes, "acyclic"));
    out
}
