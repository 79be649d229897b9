//! CompositeTask plan (seed 001): a `PLAN-{random}.yaml` file holding a list of tasks
//! (the tables [`PLAN`] and [`TASK`]). A task without a title is shown by its id.

use crate::table::fill::{Fill, text_from_title};
use serde_json::Value;

use super::{Dialect, DialectId, Read};
use crate::dialects::checks;
use crate::model::{Plan, Task};
use crate::problem::{ErrorKind, Location, PathBuf, PlanError, Problem};
use crate::syntax::format::{self, Document, Format};
use crate::table::fields::Fields;
use crate::table::{self, Check, Field, Kind, Table, TaskField, To, slot};

/// The CompositeTask dialect.
pub struct Composite;

/// A composite plan document.
pub static PLAN: Table = Table {
    title: "CompositeTask plan",
    doc: "A CompositeTask plan (`PLAN-{random}.yaml`, seed 001): tasks for AI agents with \
          dependencies.",
    fields: &[Field::new("tasks", Kind::Items(&TASK), true, "The task graph.").to(To::Own)],
};

/// One task of a composite plan.
pub static TASK: Table = Table {
    title: "CompositeTask task",
    doc: "One task of a composite plan.",
    fields: &[
        Field::new("id", Kind::Str, true, "Unique identifier within this plan.")
            .to(To::Task(TaskField::Id)),
        Field::new(
            "title",
            Kind::Str,
            false,
            "Human-readable title (defaults to `id`).",
        )
        .to(To::Task(TaskField::Title)),
        Field::new(
            "prompt",
            Kind::Str,
            true,
            "What the AI agent should do; not empty.",
        )
        .check(Check::NonBlank, "non-empty-prompt")
        .to(To::Task(TaskField::Description)),
        Field::new(
            "branchName",
            Kind::Str,
            false,
            "Custom git branch name for this task.",
        )
        .to(To::Task(TaskField::Branch)),
        Field::new(
            "dependsOn",
            Kind::Strings,
            false,
            "Ids of the tasks that must complete before this task starts.",
        )
        .to(To::Task(TaskField::Dependencies)),
    ],
};

/// The key of the task list.
const TASKS: &str = PLAN.list_key();

impl DialectId {
    /// CompositeTask `PLAN-*.yaml` (seed 001).
    pub const COMPOSITE: DialectId = DialectId::named("composite");
}

impl Dialect for Composite {
    fn id(&self) -> DialectId {
        DialectId::COMPOSITE
    }

    fn table(&self) -> Option<&'static Table> {
        Some(&PLAN)
    }

    fn natural_format(&self) -> Format {
        Format::Yaml
    }

    fn claims_file_name(&self, lower_name: &str) -> bool {
        lower_name.starts_with("plan-")
            && (lower_name.ends_with(".yaml") || lower_name.ends_with(".yml"))
    }

    fn new_file_name(&self, format: Format) -> Option<String> {
        (format == Format::Yaml).then(new_file_name)
    }

    fn detect(&self, doc: &Document) -> u8 {
        let Some(o) = doc.tree().and_then(Value::as_object) else {
            return 0;
        };
        let Some(tasks) = o.get(TASKS).and_then(Value::as_array) else {
            return 0;
        };
        let own = [
            TASK.key_of(To::Task(TaskField::Description)),
            TASK.key_of(To::Task(TaskField::Dependencies)),
        ];
        if tasks.iter().any(|t| own.iter().any(|k| t.get(k).is_some())) {
            60
        } else if o.len() == 1 {
            40
        } else {
            10
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        let obj = doc.tree().and_then(Value::as_object).ok_or_else(|| {
            PlanError::new(
                ErrorKind::Shape,
                "a composite plan is a YAML mapping with `tasks`",
            )
        })?;
        let mut f = Fields::new(obj);
        let mut plan = Plan::default();
        if let Some(tasks) = f.array(TASKS) {
            plan.tasks = tasks
                .iter()
                .map(|item| slot::read_task(&TASK, item))
                .collect();
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

    fn fill(&self, plan: &mut Plan, _from: DialectId, fills: &mut Vec<Fill>) {
        for t in &mut plan.tasks {
            text_from_title(t, fills);
        }
    }
}

/// The tree form of a plan as a composite plan.
pub fn to_tree(plan: &Plan) -> Value {
    slot::write(&PLAN, plan, |_| Some(slot::write_tasks(&TASK, &plan.tasks)))
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
    let mut out = table::check(obj, &PathBuf::root(), &PLAN);
    let Some(tasks) = obj.get(TASKS).and_then(Value::as_array) else {
        return out;
    };
    let base = PathBuf::root().key(TASKS);
    let nodes = checks::nodes_of(
        tasks,
        &base,
        TASK.key_of(To::Task(TaskField::Id)),
        TASK.key_of(To::Task(TaskField::Dependencies)),
    );
    out.extend(checks::unique_ids(&nodes, "unique-ids", "task"));
    out.extend(checks::known_refs(&nodes, "valid-references", "task"));
    out.extend(checks::acyclic(&nodes, "no-cycles"));
    out
}
