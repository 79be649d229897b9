//! The one plan model every dialect maps into and out of.
//!
//! Every field is optional (`None` = the source did not say), so a reader never has to
//! invent a value and a writer never has to guess whether a value was given. Anything a
//! dialect has that the model does not name lands in an `extra` map (plan, task or
//! group level), in source order.

pub(crate) mod graph;
mod ids;
mod task;
mod timeout;
mod vocabulary;

pub(crate) use ids::slug;
pub use ids::{child_id, child_local, group_prefix, ids_from_titles};

pub use task::{Group, Task};
pub use timeout::{ms_to_seconds, seconds_to_ms};
pub use vocabulary::{StageMode, Status, StepKind};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An open, ordered map of fields the model does not name.
pub type Extra = IndexMap<String, Value>;

/// A plan: plan-level facts, its tasks, and the groups (workflow tasks, stages) the
/// tasks belong to.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Plan {
    /// Plan identifier (`plan_id` in PlanDAG, `id` in a staged plan).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Human title (Cursor `name`, workflow `metadata.title`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the plan is for (PlanDAG `intent`, staged `goal`, workflow `objective`,
    /// Cursor `overview`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// What counts as success (PlanDAG `success_criteria`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success_criteria: Option<String>,
    /// How to undo a failed run (PlanDAG `rollback_plan`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollback: Option<String>,
    /// Constraints on the whole plan (staged `constraints`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constraints: Option<Vec<String>>,
    /// Plan metadata (PlanDAG `metadata`, workflow `metadata` less title/objective).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Extra>,
    /// Data shared by all tasks (workflow `shared_inputs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_inputs: Option<Value>,
    /// Execution settings (workflow `workflow_config`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution: Option<Extra>,
    /// Free text of the plan document (the markdown body of a Cursor plan).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// Groups of tasks: workflow tasks (seed 002) or stages (seed 003).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Group>,
    /// The executable units: steps, todos, DAG nodes.
    pub tasks: Vec<Task>,
    /// Plan-level fields the model does not name, in source order.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub extra: Extra,
    /// What a dialect needs to write its source back byte for byte (a Cursor file's
    /// front matter when it is not in canonical form, a markdown file's style), and
    /// the dialect the plan was read from. Opaque: empty for a plan built in code and
    /// for canonical sources.
    #[serde(skip_serializing_if = "Layout::is_empty")]
    pub layout: Layout,
}

/// The source-fidelity part of a [`Plan`]: how its source was written, so that a plan
/// written back in its own dialect and format is the source byte for byte, and which
/// dialect it was read from. Two layouts are equal when they write the same text; the
/// dialect read from is not compared. It serialises as a map (the plan model's
/// `layout`).
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// The entries, by name (`cursor.head_patch`, `workflow.md_patch`, …).
    pub(crate) entries: Extra,
    /// The name of the dialect the plan was read from; `None` for a plan built in
    /// code (see `Plan::source_dialect`).
    pub(crate) source: Option<&'static str>,
}

impl Layout {
    /// True when the plan writes in canonical form (nothing kept of its source's).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The names of the entries kept, for diagnostics.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// Whether an entry `name` is kept.
    pub fn contains(&self, name: &str) -> bool {
        self.entries.contains_key(name)
    }

    /// Forgets the entry `name`; true when there was one. Without it the plan writes
    /// that part in canonical form.
    pub fn forget(&mut self, name: &str) -> bool {
        self.entries.shift_remove(name).is_some()
    }
}

impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        self.entries == other.entries
    }
}

impl Serialize for Layout {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.entries.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Layout {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Layout, D::Error> {
        Ok(Layout {
            entries: Extra::deserialize(deserializer)?,
            source: None,
        })
    }
}

impl Plan {
    /// The task with this id, if any (the first one when ids repeat).
    pub fn task(&self, id: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.id == id)
    }

    /// Each task's position in [`Plan::tasks`], by id (the last one when ids repeat).
    ///
    /// ```
    /// use toon_plan::{Plan, Task};
    /// let plan = Plan {
    ///     tasks: vec![Task::new("a"), Task::new("b"), Task::new("a")],
    ///     ..Plan::default()
    /// };
    /// let at = plan.task_positions();
    /// assert_eq!((at["a"], at["b"], at.get("c")), (2, 1, None));
    /// ```
    pub fn task_positions(&self) -> std::collections::HashMap<&str, usize> {
        self.tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.as_str(), i))
            .collect()
    }

    /// The group with this id, if any.
    pub fn group(&self, id: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.id == id)
    }

    /// All dependency edges `(task, depends_on)` in task order.
    pub fn edges(&self) -> Vec<(&str, &str)> {
        self.tasks
            .iter()
            .flat_map(|t| {
                t.dependencies
                    .iter()
                    .flatten()
                    .map(move |d| (t.id.as_str(), d.as_str()))
            })
            .collect()
    }
}
