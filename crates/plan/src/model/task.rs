//! Tasks and groups of the plan model.

use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

use super::Extra;

/// One executable unit of a plan (a PlanDAG step, a Cursor todo, a DAG node, …).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Task {
    /// Identifier, unique within the plan when the plan is valid.
    pub id: String,
    /// Short human title (composite `title`, staged `title`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What to do, in words (Cursor `content`, composite `prompt`, tool DAG `query`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Progress (Cursor `status`: pending, in_progress, completed, cancelled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Ids of tasks that must finish first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<Vec<String>>,
    /// Who runs it (PlanDAG `agent_type`, staged `executor`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub executor: Option<String>,
    /// The one tool it calls (tool DAG `tool`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Tools it may use (staged `tools`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    /// Action name (PlanDAG `action`, workflow step `action`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// What the action works on (PlanDAG `target`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Action parameters (PlanDAG `params`, workflow `parameters`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
    /// Required capabilities (PlanDAG `capabilities_required`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Vec<String>>,
    /// Kind of step (workflow `step_type`, staged `intent`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Timeout in milliseconds (PlanDAG `timeout`; workflow seconds × 1000).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<Number>,
    /// Retries on failure (workflow `retry_count`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retries: Option<Number>,
    /// Produced artifact ids (staged `outputs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outputs: Option<Vec<String>>,
    /// Expected outcome in words (PlanDAG `expected_outcome`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_outcome: Option<String>,
    /// Wave number; tasks with the same number run together (PlanDAG `parallel_group`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parallel_group: Option<Number>,
    /// Id of the group this task belongs to (workflow `task_id`, staged stage id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Git branch for the task (composite `branchName`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// Id of the task this one is a subtask of (a Task Master subtask's task).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// How urgent it is, in the source's words (Task Master `priority`: high, medium,
    /// low).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    /// How to do it, in detail (Task Master `details`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<String>,
    /// How to check it is done (Task Master `testStrategy`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_strategy: Option<String>,
    /// The requirements it meets, by their numbers in the spec's requirements
    /// (Kiro `_Requirements: 1.1, 2.3_`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requirements: Option<Vec<String>>,
    /// Task fields the model does not name, in source order.
    #[serde(skip_serializing_if = "indexmap::IndexMap::is_empty")]
    pub extra: Extra,
}

impl Task {
    /// A task with this id and nothing else.
    pub fn new(id: impl Into<String>) -> Task {
        Task {
            id: id.into(),
            ..Task::default()
        }
    }
}

/// A group of tasks: a workflow task holding steps (seed 002) or a stage (seed 003).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Group {
    /// Identifier.
    pub id: String,
    /// Display name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Description in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// How its tasks run: `parallel` or `sequence` (stages).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Ids of groups that must finish first (workflow task `dependencies`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<Vec<String>>,
    /// Who runs it (workflow task `agent_type`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub executor: Option<String>,
    /// Tools it needs (workflow task `tools_required`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    /// Group fields the model does not name, in source order.
    #[serde(skip_serializing_if = "indexmap::IndexMap::is_empty")]
    pub extra: Extra,
}
