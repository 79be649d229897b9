//! CompositeTask plan (seed 001): a `PLAN-{random}.yaml` file with
//! `tasks[{id, title, prompt, branchName, dependsOn}]`. A missing `title` means the id.

use serde_json::Value;

use super::{Dialect, DialectId, Read};
use crate::checks::{self, Kind};
use crate::fields::{self, Fields, Out};
use crate::format::{self, Document, Format};
use crate::model::{Plan, Task};
use crate::problem::{Location, PathBuf, PlanError, Problem};

/// The CompositeTask dialect.
pub struct Composite;

const TASK_KEYS: &[&str] = &["id", "title", "prompt", "branchName", "dependsOn"];

impl Dialect for Composite {
    fn id(&self) -> DialectId {
        DialectId::Composite
    }

    fn natural_format(&self) -> Format {
        Format::Yaml
    }

    fn detect(&self, doc: &Document) -> u8 {
        let Some(o) = doc.tree().and_then(Value::as_object) else {
            return 0;
        };
        let Some(tasks) = o.get("tasks").and_then(Value::as_array) else {
            return 0;
        };
        if tasks
            .iter()
            .any(|t| t.get("prompt").is_some() || t.get("dependsOn").is_some())
        {
            60
        } else if o.len() == 1 {
            40
        } else {
            10
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        let obj = doc
            .tree()
            .and_then(Value::as_object)
            .ok_or_else(|| PlanError::doc("a composite plan is a YAML mapping with `tasks`"))?;
        let mut f = Fields::new(obj);
        let mut plan = Plan::default();
        if let Some(tasks) = f.array("tasks") {
            plan.tasks = tasks.iter().map(read_task).collect();
        }
        plan.extra = f.extra();
        Ok(plan.into())
    }

    fn validate(&self, doc: &Document) -> Vec<Problem> {
        match doc.tree() {
            Some(tree) => validate_tree(tree),
            None => vec![Problem::error(
                "schema",
                Location::Document,
                "a composite plan is YAML (or JSON, TOON), not markdown",
            )],
        }
    }

    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError> {
        format::write_tree(&to_tree(plan), format)
    }
}

fn read_task(item: &Value) -> Task {
    let Some(obj) = item.as_object() else {
        return fields::opaque_task(item);
    };
    let mut f = Fields::new(obj);
    let mut t = Task {
        id: f.str("id").unwrap_or_default(),
        title: f.str("title"),
        description: f.required_str("prompt"),
        branch: f.str("branchName"),
        dependencies: f.strings("dependsOn"),
        ..Task::default()
    };
    t.extra = f.extra();
    t
}

/// The tree form of a plan as a composite plan.
pub fn to_tree(plan: &Plan) -> Value {
    let tasks: Vec<Value> = plan
        .tasks
        .iter()
        .map(|t| {
            if let Some(v) = fields::opaque_value(t) {
                return v;
            }
            Out::new()
                .str("id", &Some(t.id.clone()))
                .str("title", &t.title)
                .required_str("prompt", &t.description)
                .str("branchName", &t.branch)
                .strings("dependsOn", &t.dependencies)
                .extra(&t.extra, TASK_KEYS)
                .build()
        })
        .collect();
    Out::new()
        .value("tasks", Some(Value::Array(tasks)))
        .extra(&plan.extra, &["tasks"])
        .build()
}

/// The title a task shows: its `title`, or its id when it has none.
pub fn display_title(task: &Task) -> &str {
    task.title.as_deref().unwrap_or(&task.id)
}

/// A file name for a new composite plan: `PLAN-<random>.yaml`.
pub fn new_file_name() -> String {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut h = RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    let n = h.finish();
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let s: String = (0..10)
        .map(|i| ALPHABET[((n >> (i * 6)) % ALPHABET.len() as u64) as usize] as char)
        .collect();
    format!("PLAN-{s}.yaml")
}

fn validate_tree(tree: &Value) -> Vec<Problem> {
    let obj = match checks::root_object(tree, "composite plan") {
        Ok(o) => o,
        Err(p) => return vec![p],
    };
    let tasks = match checks::array_field(obj, "tasks", true) {
        Ok(Some(a)) => a,
        Ok(None) => return Vec::new(),
        Err(p) => return vec![p],
    };
    let base = PathBuf::root().key("tasks");
    let mut out = checks::items_are_objects(tasks, &base, "task");
    for (i, t) in tasks.iter().enumerate() {
        let Some(o) = t.as_object() else { continue };
        let path = base.index(i);
        out.extend(checks::fields(
            o,
            &path,
            &[
                ("id", Kind::Str, true),
                ("title", Kind::Str, false),
                ("branchName", Kind::Str, false),
                ("dependsOn", Kind::Strings, false),
            ],
            "schema",
        ));
        // Rule 4: non-empty prompt.
        match o.get("prompt") {
            Some(Value::String(s)) if !s.trim().is_empty() => {}
            Some(Value::String(_)) => out.push(Problem::error(
                "non-empty-prompt",
                path.key_loc("prompt"),
                "prompt must not be empty",
            )),
            None | Some(Value::Null) => out.push(Problem::error(
                "non-empty-prompt",
                path.loc(),
                "missing required field `prompt`",
            )),
            Some(_) => out.push(Problem::error(
                "schema",
                path.key_loc("prompt"),
                "`prompt` must be a string",
            )),
        }
    }
    let nodes = checks::nodes_of(tasks, &base, "id", "dependsOn");
    out.extend(checks::unique_ids(&nodes, "unique-ids", "task"));
    out.extend(checks::known_refs(&nodes, "valid-references", "task"));
    out.extend(checks::acyclic(&nodes, "no-cycles"));
    out
}
