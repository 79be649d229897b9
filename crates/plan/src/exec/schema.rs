//! A JSON Schema (draft 2020-12) for every dialect, so a planner can ask a language
//! model for structured output that the dialect's validator accepts.
//!
//! Each schema describes the JSON tree of its dialect (for Cursor plans: the front
//! matter keys plus `body`, as `toon plan convert --to cursor --format json` writes
//! them) with the field types, required fields and known values the validator
//! checks. Rules that span several items — unique ids, dependencies that name existing
//! tasks, no cycles, uniform workflow arrays — are not expressible in JSON Schema and
//! remain the validator's (`toon plan validate`).
//!
//! The schemas are closed (`additionalProperties: false`) wherever the seed lists the
//! fields, so what a model generates from them holds only the dialect's own fields;
//! the readers and validators are more tolerant and keep unknown fields. Cursor front
//! matter is open, as Cursor writes keys of its own.

#![allow(dead_code)] // The types below exist only to describe their schemas.

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde_json::{Map, Value};

use crate::dialects::DialectId;
use crate::dialects::plan_model::SCHEMA as PLAN_SCHEMA;
use crate::model::Extra;

/// The JSON Schema of a dialect.
pub fn schema(dialect: DialectId) -> Value {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let root: Schema = match dialect {
        DialectId::PlanDag => generator.into_root_schema_for::<PlanDagDoc>(),
        DialectId::Composite => generator.into_root_schema_for::<CompositeDoc>(),
        DialectId::Workflow => generator.into_root_schema_for::<WorkflowDoc>(),
        DialectId::Staged => generator.into_root_schema_for::<StagedDoc>(),
        DialectId::ToolDag => generator.into_root_schema_for::<ToolDagDoc>(),
        DialectId::Cursor => generator.into_root_schema_for::<CursorDoc>(),
        DialectId::Plan => generator.into_root_schema_for::<PlanModelDoc>(),
    };
    let Value::Object(mut o) = root.to_value() else {
        return Value::Bool(true);
    };
    if dialect == DialectId::Plan {
        plan_model_marker(&mut o);
    }
    // `$schema`, `title` and `description` first, for people reading it.
    let mut out = Map::new();
    for key in ["$schema", "title", "description"] {
        if let Some(v) = o.shift_remove(key) {
            out.insert(key.to_owned(), v);
        }
    }
    out.extend(o);
    let mut value = Value::Object(out);
    unwrap_descriptions(&mut value);
    value
}

/// Doc comments wrap lines; descriptions read better as one paragraph each. The
/// walk uses a stack, not recursion.
fn unwrap_descriptions(value: &mut Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                for (k, child) in o.iter_mut() {
                    if k == "description"
                        && let Value::String(text) = child
                    {
                        *text = text
                            .split("\n\n")
                            .map(|para| para.split_whitespace().collect::<Vec<_>>().join(" "))
                            .collect::<Vec<_>>()
                            .join("\n\n");
                    } else {
                        stack.push(child);
                    }
                }
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            _ => {}
        }
    }
}

/// The schema of a dialect as pretty JSON text, ending in a newline.
pub fn schema_text(dialect: DialectId) -> String {
    let mut s = serde_json::to_string_pretty(&schema(dialect)).unwrap_or_default();
    s.push('\n');
    s
}

/// A plan-model document starts with `"schema": "toon-plan/1"`, which is how it is
/// recognised; the model's own fields follow.
fn plan_model_marker(o: &mut Map<String, Value>) {
    o.insert(
        "title".into(),
        Value::String("toon-plan model (dialect `plan`)".into()),
    );
    o.insert(
        "description".into(),
        Value::String(
            "The toon-plan plan model, as it is written in JSON, YAML and TOON alike: plan-level facts, then tasks and groups as tables of their scalar fields (a column is null where a row has no value), list fields as edge tables of their own (`deps[{task, on}]`, …), and per-task objects in maps keyed by task id. Every field but `schema` and `tasks` is optional.".into(),
        ),
    );
    let mut marker = Map::new();
    marker.insert("const".into(), Value::String(PLAN_SCHEMA.into()));
    marker.insert(
        "description".into(),
        Value::String("Marks a plan-model document.".into()),
    );
    if let Some(Value::Object(props)) = o.get_mut("properties") {
        let mut with_marker = Map::new();
        with_marker.insert("schema".into(), Value::Object(marker));
        with_marker.extend(std::mem::take(props));
        *props = with_marker;
    }
    let mut required = vec![Value::String("schema".into())];
    if let Some(Value::Array(r)) = o.get("required") {
        required.extend(r.iter().cloned());
    }
    if !required.contains(&Value::String("tasks".into())) {
        required.push(Value::String("tasks".into()));
    }
    o.insert("required".into(), Value::Array(required));
}

// ---- The plan model (dialect `plan`) ----

/// The plan model's document (see `dialects::plan_model`).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct PlanModelDoc {
    /// Plan identifier.
    id: Option<String>,
    /// Human title.
    title: Option<String>,
    /// What the plan is for.
    goal: Option<String>,
    /// What counts as success.
    success_criteria: Option<String>,
    /// How to undo a failed run.
    rollback: Option<String>,
    /// Constraints on the whole plan.
    constraints: Option<Vec<String>>,
    /// Plan metadata.
    metadata: Option<Extra>,
    /// Data shared by all tasks.
    shared_inputs: Option<Value>,
    /// Execution settings.
    execution: Option<Extra>,
    /// Free text of the plan document (a Cursor plan's markdown body).
    body: Option<String>,
    /// Groups of tasks (workflow tasks, stages), one row each.
    groups: Option<Vec<GroupRow>>,
    /// Group dependencies: the group `group` waits for the group `on`.
    group_deps: Option<Vec<GroupOn>>,
    /// Tools a group needs.
    group_tools: Option<Vec<GroupTool>>,
    /// Group fields the model does not name, by group id.
    group_extra: Option<Map<String, Value>>,
    /// The executable units, one row each.
    tasks: Vec<TaskRow>,
    /// Dependencies: the task `task` waits for the task `on`.
    deps: Option<Vec<TaskOn>>,
    /// Tools a task may use.
    tools: Option<Vec<TaskTool>>,
    /// Capabilities a task requires.
    capabilities: Option<Vec<TaskCapability>>,
    /// Artifacts a task produces.
    outputs: Option<Vec<TaskOutput>>,
    /// Action parameters, by task id.
    params: Option<Map<String, Value>>,
    /// Task fields the model does not name, by task id.
    task_extra: Option<Map<String, Value>>,
    /// Plan-level fields the model does not name.
    extra: Option<Extra>,
    /// What a dialect needs to write its source back byte for byte.
    layout: Option<Extra>,
}

/// One task: its scalar fields; list fields are counted here only when some task has
/// an empty list (the items are in the edge tables).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct TaskRow {
    /// Identifier, unique within the plan.
    id: String,
    /// Short human title.
    title: Option<String>,
    /// What to do, in words.
    description: Option<String>,
    /// Progress (pending, in_progress, completed, cancelled).
    status: Option<String>,
    /// Who runs it.
    executor: Option<String>,
    /// The one tool it calls.
    tool: Option<String>,
    /// Action name.
    action: Option<String>,
    /// What the action works on.
    target: Option<String>,
    /// Kind of step.
    kind: Option<String>,
    /// Expected outcome in words.
    expected_outcome: Option<String>,
    /// Id of the group this task belongs to.
    group: Option<String>,
    /// Git branch for the task.
    branch: Option<String>,
    /// Timeout in milliseconds.
    timeout_ms: Option<f64>,
    /// Retries on failure.
    retries: Option<f64>,
    /// Wave number; tasks with the same number run together.
    parallel_group: Option<f64>,
    /// Number of dependencies (in `deps`).
    dependencies: Option<u64>,
    /// Number of tools (in `tools`).
    tools: Option<u64>,
    /// Number of capabilities (in `capabilities`).
    capabilities: Option<u64>,
    /// Number of outputs (in `outputs`).
    outputs: Option<u64>,
}

/// One group: its scalar fields, list fields counted as in [`TaskRow`].
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct GroupRow {
    /// Identifier.
    id: String,
    /// Display name.
    name: Option<String>,
    /// Description in words.
    description: Option<String>,
    /// How its tasks run: `parallel` or `sequence`.
    mode: Option<String>,
    /// Who runs it.
    executor: Option<String>,
    /// Number of group dependencies (in `group_deps`).
    dependencies: Option<u64>,
    /// Number of tools (in `group_tools`).
    tools: Option<u64>,
}

/// A task dependency edge's ends.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct TaskOn {
    /// The waiting task.
    task: String,
    /// The task it waits for.
    on: String,
}

/// A group dependency edge's ends.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct GroupOn {
    /// The waiting group.
    group: String,
    /// The group it waits for.
    on: String,
}

/// A tool a group needs.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct GroupTool {
    /// The group.
    group: String,
    /// The tool.
    tool: String,
}

/// A tool a task may use.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct TaskTool {
    /// The task.
    task: String,
    /// The tool.
    tool: String,
}

/// A capability a task requires.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct TaskCapability {
    /// The task.
    task: String,
    /// The capability.
    capability: String,
}

/// An artifact a task produces.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct TaskOutput {
    /// The task.
    task: String,
    /// The artifact id.
    output: String,
}

// ---- PlanDAG (seed 000) ----

/// A PlanDAG plan (seed 000): steps for browser and API agents, with dependencies and
/// parallel groups (steps with the same group run concurrently, groups in ascending
/// order).
#[derive(JsonSchema)]
#[schemars(title = "PlanDAG")]
#[serde(deny_unknown_fields)]
struct PlanDagDoc {
    /// Unique plan identifier.
    plan_id: String,
    /// Original user intent.
    intent: String,
    /// Decomposed steps.
    steps: Vec<PlanDagStep>,
    /// What constitutes success.
    success_criteria: String,
    /// Steps to undo if failed.
    #[serde(default)]
    rollback_plan: Option<String>,
    /// Plan metadata.
    metadata: PlanDagMetadata,
}

/// One step of a PlanDAG.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct PlanDagStep {
    /// Unique step identifier.
    step_id: String,
    /// Ids of the steps that must complete before this step.
    depends_on: Vec<String>,
    /// Parallel group (steps in the same group run concurrently); a positive integer,
    /// later than the groups of the step's dependencies.
    #[schemars(range(min = 1))]
    parallel_group: u64,
    /// Agent type to execute this step.
    agent_type: AgentType,
    /// Action to perform.
    action: Action,
    /// Action target (URL, selector, etc.).
    target: String,
    /// Additional parameters.
    #[serde(default)]
    params: Option<Map<String, Value>>,
    /// Required capabilities.
    capabilities_required: Vec<Capability>,
    /// Expected outcome.
    #[serde(default)]
    expected_outcome: Option<String>,
    /// Timeout for this step, in milliseconds.
    #[serde(default)]
    timeout: Option<u64>,
}

/// Agent types.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
enum AgentType {
    /// A browser agent.
    BrowserAgent,
    /// An API agent.
    ApiAgent,
}

/// Actions.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Action {
    /// Go to a URL.
    Navigate,
    /// Click an element.
    Click,
    /// Type text.
    Type,
    /// Scroll.
    Scroll,
    /// Hover over an element.
    Hover,
    /// Wait for a condition.
    Wait,
    /// Extract data.
    Extract,
    /// Take a screenshot.
    Screenshot,
    /// Take a page snapshot.
    Snapshot,
}

/// Capabilities.
#[derive(JsonSchema)]
enum Capability {
    /// Read.
    #[serde(rename = "CAP_READ")]
    Read,
    /// Interact.
    #[serde(rename = "CAP_INTERACT")]
    Interact,
    /// Navigate.
    #[serde(rename = "CAP_NAVIGATE")]
    Navigate,
    /// Mutate.
    #[serde(rename = "CAP_MUTATE")]
    Mutate,
    /// Purchase.
    #[serde(rename = "CAP_PURCHASE")]
    Purchase,
    /// Personal data.
    #[serde(rename = "CAP_PII")]
    Pii,
}

/// PlanDAG plan metadata.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct PlanDagMetadata {
    /// Creation time (ISO 8601).
    created_at: String,
    /// The model that planned.
    planner_model: String,
    /// The planner's confidence.
    confidence: f64,
    /// Estimated duration of the whole plan, in milliseconds.
    #[schemars(range(min = 0))]
    estimated_duration_ms: f64,
}

// ---- CompositeTask (seed 001) ----

/// A CompositeTask plan (`PLAN-{random}.yaml`, seed 001): tasks for AI agents with
/// dependencies.
#[derive(JsonSchema)]
#[schemars(title = "CompositeTask plan")]
#[serde(deny_unknown_fields)]
struct CompositeDoc {
    /// The task graph.
    tasks: Vec<CompositeTask>,
}

/// One task of a composite plan.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct CompositeTask {
    /// Unique identifier within this plan.
    id: String,
    /// Human-readable title (defaults to `id`).
    #[serde(default)]
    title: Option<String>,
    /// What the AI agent should do; not empty.
    #[schemars(regex(pattern = r"\S"))]
    prompt: String,
    /// Custom git branch name for this task.
    #[serde(default, rename = "branchName")]
    branch_name: Option<String>,
    /// Ids of the tasks that must complete before this task starts.
    #[serde(default, rename = "dependsOn")]
    depends_on: Option<Vec<String>>,
}

// ---- Workflow plan (seed 002) ----

/// A workflow plan (seed 002): tasks grouping steps, for the WorkflowAutomatorAgent.
/// All tasks must have the same fields, and so must all steps (uniform arrays).
#[derive(JsonSchema)]
#[schemars(title = "Workflow plan")]
#[serde(deny_unknown_fields)]
struct WorkflowDoc {
    /// Plan metadata.
    metadata: WorkflowMetadata,
    /// Tasks (groups of steps).
    tasks: Vec<WorkflowTask>,
    /// Steps.
    steps: Vec<WorkflowStep>,
    /// Data shared across all workflow steps.
    #[serde(default)]
    shared_inputs: Option<Map<String, Value>>,
    /// Execution settings.
    #[serde(default)]
    workflow_config: Option<WorkflowConfig>,
}

/// Workflow plan metadata.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct WorkflowMetadata {
    /// Plan title.
    title: String,
    /// Clear objective statement.
    objective: String,
    /// Creation timestamp (ISO 8601).
    #[serde(default)]
    created_at: Option<String>,
    /// User id or identifier.
    #[serde(default)]
    author: Option<String>,
    /// Plan version.
    #[serde(default)]
    version: Option<String>,
}

/// A workflow task: a group of steps.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct WorkflowTask {
    /// Unique task identifier.
    id: String,
    /// Task name.
    name: String,
    /// Task description.
    description: String,
    /// Ids of the steps belonging to this task.
    #[serde(default)]
    steps: Option<Vec<String>>,
    /// Ids of the tasks this task depends on.
    #[serde(default)]
    dependencies: Option<Vec<String>>,
    /// Agent type to execute the task (e.g. `model_engine`).
    #[serde(default)]
    agent_type: Option<String>,
    /// Tools the task needs.
    #[serde(default)]
    tools_required: Option<Vec<String>>,
    /// Estimated execution time in seconds.
    #[serde(default)]
    #[schemars(range(min = 0))]
    estimated_time: Option<f64>,
}

/// A workflow step.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct WorkflowStep {
    /// Unique step identifier.
    id: String,
    /// Step name (the markdown layout's heading).
    #[serde(default)]
    name: Option<String>,
    /// Id of the task the step belongs to.
    task_id: String,
    /// Action to execute (e.g. `run_prediction`).
    action: String,
    /// Action-specific parameters.
    #[serde(default)]
    parameters: Option<Map<String, Value>>,
    /// Kind of step.
    step_type: StepType,
    /// Step timeout in seconds (default 300).
    #[serde(default)]
    timeout: Option<u64>,
    /// Ids of the steps this step depends on.
    #[serde(default)]
    dependencies: Option<Vec<String>>,
    /// Retries on failure (default 3).
    #[serde(default)]
    retry_count: Option<u64>,
}

/// WorkflowStepType values.
#[derive(JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum StepType {
    /// Execute an agent action.
    AgentExecution,
    /// Process data.
    DataProcessing,
    /// Perform analysis.
    Analysis,
    /// Create a visualization.
    Visualization,
    /// Check a condition.
    ConditionCheck,
    /// Execute steps in parallel.
    ParallelExecution,
}

/// Workflow execution settings.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct WorkflowConfig {
    /// Allow parallel step execution.
    #[serde(default)]
    parallel_execution: Option<bool>,
    /// Enable error recovery.
    #[serde(default)]
    error_recovery: Option<bool>,
    /// Maximum retry attempts for failed steps.
    #[serde(default)]
    max_retries: Option<u64>,
}

// ---- Staged agent plan (seed 003) ----

/// A staged agent plan (seed 003): stages run in order; a stage runs its steps in
/// parallel or in sequence; a step runs when all its `inputs` are complete.
#[derive(JsonSchema)]
#[schemars(title = "AgentPlan")]
#[serde(deny_unknown_fields)]
struct StagedDoc {
    /// Plan id.
    id: String,
    /// What the plan achieves.
    goal: String,
    /// Stages, in run order.
    stages: Vec<StagedStage>,
    /// Constraints on the whole plan.
    #[serde(default)]
    constraints: Option<Vec<String>>,
}

/// A stage.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct StagedStage {
    /// Stage id.
    id: String,
    /// Display name.
    name: String,
    /// How its steps run.
    mode: StageMode,
    /// Its steps.
    steps: Vec<StagedStep>,
}

/// Stage modes.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
enum StageMode {
    /// Steps run concurrently (within the concurrency cap).
    Parallel,
    /// Steps run in order.
    Sequence,
}

/// A step of a stage.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct StagedStep {
    /// Step id, unique in the plan.
    id: String,
    /// Short title.
    title: String,
    /// What kind of work it is.
    intent: Intent,
    /// The executor profile that runs it.
    executor: Executor,
    /// Tools it may use.
    #[serde(default)]
    tools: Option<Vec<String>>,
    /// Ids of the steps this step depends on (in this or earlier stages).
    #[serde(default)]
    inputs: Option<Vec<String>>,
    /// Ids of the artifacts it produces.
    #[serde(default)]
    outputs: Option<Vec<String>>,
    /// Runtime annotations (`stageId`, `stageIndex`, `stageMode`).
    #[serde(default)]
    metadata: Option<Map<String, Value>>,
}

/// Step intents.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Intent {
    /// Research.
    Research,
    /// Analysis.
    Analysis,
    /// Drafting.
    Draft,
    /// Editing.
    Edit,
    /// Creating.
    Create,
    /// Updating.
    Update,
    /// Reviewing.
    Review,
}

/// Executor profiles.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Executor {
    /// The planner.
    Planner,
    /// A researcher.
    Research,
    /// A writer.
    Writer,
    /// An editor.
    Editor,
    /// Tool calls.
    Tooling,
}

// ---- Tool DAG (seed 004) ----

/// A multi-agent tool DAG (seed 004). A query may use `{{task_id.result}}` to refer to
/// the result of a task listed in its `dependencies`.
#[derive(JsonSchema)]
#[schemars(title = "Tool DAG")]
#[serde(deny_unknown_fields)]
struct ToolDagDoc {
    /// The tasks.
    dag: Vec<ToolDagTask>,
}

/// A task of a tool DAG.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct ToolDagTask {
    /// Unique id: letters, digits, `_` and `-` only.
    #[schemars(regex(pattern = r"^[A-Za-z0-9_-]+$"))]
    id: String,
    /// The tool to run (e.g. `serper_web_search`, `calculator`).
    #[schemars(length(min = 1))]
    tool: String,
    /// The tool's input; may contain `{{task_id.result}}` references.
    query: String,
    /// Ids of the tasks that must succeed first (`[]` for none).
    dependencies: Vec<String>,
}

// ---- Cursor plan ----

/// A Cursor plan (`.cursor/plans/*.plan.md`) as a tree: its front matter keys and
/// its markdown `body`. Other front matter keys are kept.
#[derive(JsonSchema)]
#[schemars(title = "Cursor plan")]
struct CursorDoc {
    /// Plan name.
    #[serde(default)]
    name: Option<String>,
    /// Overview in words.
    #[serde(default)]
    overview: Option<String>,
    /// The todos.
    #[serde(default)]
    todos: Option<Vec<CursorTodo>>,
    /// The markdown body after the front matter.
    #[serde(default)]
    body: Option<String>,
}

/// A Cursor todo.
#[derive(JsonSchema)]
struct CursorTodo {
    /// Unique todo id.
    id: String,
    /// What to do.
    #[serde(default)]
    content: Option<String>,
    /// Progress.
    #[serde(default)]
    status: Option<TodoStatus>,
    /// Ids of the todos that must be done first.
    #[serde(default)]
    dependencies: Option<Vec<String>>,
}

/// Todo statuses.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
enum TodoStatus {
    /// Not started.
    Pending,
    /// Being worked on.
    InProgress,
    /// Done.
    Completed,
    /// Dropped.
    Cancelled,
}
